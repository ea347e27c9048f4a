package scaffold

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"
)

// Headers are kept as people type them ("Nº", "Data da venda", "Valor (R$)"): the text becomes
// the column's label, and a physical name is derived from it, written to app.yaml with the
// header beside it when they differ.

// physicalFrom derives a physical name from header: a header that already is one is kept; any
// other is folded to ASCII (accents and ordinal marks dropped), lower-cased, with _ for every run
// of other characters, and made unique within the table (case-insensitively) with _2, _3, ...
func physicalFrom(header string, used map[string]bool) string {
	if physical.MatchString(header) && !used[strings.ToLower(header)] {
		used[strings.ToLower(header)] = true
		return header
	}
	var b strings.Builder
	under := false
	for _, r := range norm.NFKD.String(header) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(unicode.ToLower(r))
		default:
			under = true
		}
	}
	name := b.String()
	if name == "" {
		name = "coluna"
	}
	if name[0] >= '0' && name[0] <= '9' {
		name = "c_" + name
	}
	if len(name) > 56 { // room for a _NN suffix within the 63 characters of a physical name
		name = strings.TrimRight(name[:56], "_")
	}
	return unique(name, used, "_%d")
}

// labelFrom is a column's label from its header: the text as typed, accents and case kept, with
// _ and the characters a ref cannot hold (. [ ]) as spaces. Two kinds of technical names are
// tidied: an all lower-case header gets a first capital (valor_total: "Valor total"), and in an
// all upper-case one the words are lower-cased (COD_PRODUTO: "Cod produto") but the acronyms of
// Brazilian business data (UF, CPF, ID).
func labelFrom(header string) string {
	s := strings.NewReplacer("_", " ", ".", " ", "[", " ", "]", " ").Replace(noControl(header))
	words := strings.Fields(s)
	if len(words) == 0 {
		return "Coluna"
	}
	s = strings.Join(words, " ")
	if s == strings.ToUpper(s) && s != strings.ToLower(s) {
		for i, w := range words {
			if !acronyms[w] {
				words[i] = strings.ToLower(w)
			}
		}
		s = strings.Join(words, " ")
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	if len(r) > 200 {
		r = r[:200]
	}
	return string(r)
}

// acronyms stay upper case in a label made from an all upper-case header.
var acronyms = map[string]bool{
	"ID": true, "UF": true, "CPF": true, "CNPJ": true, "CEP": true, "RG": true, "SKU": true, "EAN": true,
	"GTIN": true, "NCM": true, "CFOP": true, "NF": true, "NFE": true, "ICMS": true, "IPI": true,
	"ISS": true, "PIS": true, "DDD": true, "PIX": true, "IBGE": true, "CNAE": true, "M2": true, "M3": true,
	"KG": true, "KM": true,
}

// headerLike reports whether a cell's text can be a column's name: it holds a letter and is no
// number (a row of values is not a header).
func headerLike(s string) bool {
	if numberRe.MatchString(strings.TrimSpace(s)) {
		return false
	}
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// shortName reports whether the only cell of a row reads as a column's name rather than a note
// ("Conferido por Ana em 05/10"): three words at most, and no digits.
func shortName(s string) bool {
	return len(strings.Fields(s)) <= 3 && strings.IndexFunc(s, unicode.IsDigit) < 0
}

// readHeader reads a CSV's header line: the encoding (UTF-8, or Windows-1252 as Excel writes
// it) and the delimiter that splits the header and the next lines into the same number of
// fields, two or more (the comma first on a tie). Every header problem is reported at once.
func readHeader(fsys fs.FS, file string) (header []string, delim string, err error) {
	f, err := fsys.Open(file)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", file, err)
	}
	buf := make([]byte, 64<<10)
	n, _ := f.Read(buf)
	f.Close()
	head := bytes.TrimPrefix(buf[:n], []byte("\ufeff"))
	if n == len(buf) { // whole lines only
		if i := bytes.LastIndexByte(head, '\n'); i > 0 {
			head = head[:i+1]
		}
	}
	if !utf8.Valid(head) {
		if dec, err := charmap.Windows1252.NewDecoder().Bytes(head); err == nil {
			head = dec
		}
	}
	best, bestN := "", 1
	for _, d := range []string{",", ";", "\t", "|"} {
		r := csv.NewReader(bytes.NewReader(head))
		r.Comma = rune(d[0])
		r.LazyQuotes = true
		r.FieldsPerRecord = -1
		first, err := r.Read()
		if err != nil {
			continue
		}
		width := trimmedWidth(first)
		consistent := true
		for i := 0; i < 20 && consistent; i++ {
			rec, err := r.Read()
			if err != nil {
				break
			}
			w := len(rec)
			if w > 1 && w != len(first) && w != width && !(w == width+1 && rec[w-1] == "") { // one field: a note
				consistent = false
			}
		}
		if consistent && width > bestN {
			best, bestN, header = d, width, first[:width]
		}
	}
	if best == "" {
		return nil, "", fmt.Errorf("%s: não achei o cabeçalho: a primeira linha precisa ter os nomes das colunas separados por , ; tabulação ou |, e as linhas seguintes o mesmo número de campos", file)
	}
	var problems []string
	seen := map[string]int{}
	for i, h := range header {
		header[i] = strings.TrimSpace(h)
		switch {
		case header[i] == "":
			problems = append(problems, fmt.Sprintf("a coluna %d não tem nome", i+1))
		case len(header[i]) > 200:
			problems = append(problems, fmt.Sprintf("o nome da coluna %d passa de 200 caracteres", i+1))
		case controlInHeader(header[i]):
			problems = append(problems, fmt.Sprintf("o nome da coluna %d tem caracteres de controle, que não aparecem na tela (%s)", i+1, strconv.Quote(header[i])))
		}
		if j, dup := seen[header[i]]; dup && header[i] != "" {
			problems = append(problems, fmt.Sprintf("as colunas %d e %d se chamam %q", j+1, i+1, header[i]))
		}
		seen[header[i]] = i
	}
	if len(problems) > 0 {
		return nil, "", fmt.Errorf("%s: o cabeçalho (linha 1) tem problemas: %s; corrija a primeira linha do arquivo", file, strings.Join(problems, "; "))
	}
	return header, best, nil
}

// controlInHeader reports whether a column's name holds a control character other than the
// line breaks and tabs a spreadsheet may keep in a header cell.
func controlInHeader(name string) bool {
	return strings.IndexFunc(name, func(r rune) bool { return unicode.IsControl(r) && !strings.ContainsRune("\t\n\r", r) }) >= 0
}

// trimmedWidth is the number of fields of rec, not counting one empty field a trailing
// delimiter leaves.
func trimmedWidth(rec []string) int {
	if len(rec) > 1 && rec[len(rec)-1] == "" {
		return len(rec) - 1
	}
	return len(rec)
}
