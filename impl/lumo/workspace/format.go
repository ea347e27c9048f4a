package workspace

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// Values of a table's csv settings in app.yaml, as schemas/lumo/app.schema.json spells them.
const (
	EncodingUTF8        = "utf-8"
	EncodingWindows1252 = "windows-1252"
	EncodingLatin1      = "iso-8859-1"

	DatesISO  = "aaaa-mm-dd" // 2026-09-30
	DatesDMY  = "dd/mm/aaaa" // 30/09/2026
	DatesDMY2 = "dd/mm/aa"   // 30/09/26: 00-69 are 2000-2069, 70-99 are 1970-1999
)

// Format is how a table's file is written, as app.yaml declares it: tables[].csv for a CSV (an
// empty field is detected from the file), tables[].xlsx for a workbook.
type Format struct {
	Delimiter  string `json:"delimiter"` // ",", ";", "\t" (or "tab") or "|"
	Decimal    string `json:"decimal"`   // "," (thousands ".") or "." (thousands ",")
	Encoding   string `json:"encoding"`  // EncodingUTF8, EncodingWindows1252 or EncodingLatin1
	DateFormat string `json:"dateFormat"`
	// XLSX is the table's xlsx settings (tables[].xlsx), for a workbook.
	XLSX XLSXFormat `json:"-"`
}

// sampleSize is how much of a file detection reads before the first row: the settings the
// sample leaves open are decided by the first row that settles them, and a later row that
// contradicts a setting is refused with its line.
const sampleSize = 64 << 10

// delimiters are the field separators a file may use, in the order detection prefers them.
var delimiters = []byte{',', ';', '\t', '|'}

// csvFormat is the format one file is read with: what app.yaml declares, what detection found
// and, for the decimal and dates, what the rows settled so far (0 or "" = still open).
type csvFormat struct {
	file, table string // for messages: the file and the physical name of its table

	delim   byte
	decimal byte
	dates   string
	enc     string
	decode  *[128]string // the UTF-8 of each byte from 0x80, for an 8-bit encoding

	declared    Format
	delimFound  bool // the header shows the delimiter
	decimalSeen *sample
	datesSeen   *sample
}

// sample is a value that settled (or would settle) a setting, for messages.
type sample struct {
	value, column string
	line          int
}

func (s *sample) at() string {
	return fmt.Sprintf("%q (linha %d, coluna %s)", s.value, s.line, s.column)
}

// Description is the line an import prints for the file: the settings it was read with,
// declared or detected, in Portuguese: `vendas.csv: separador ";", decimal ",", Windows-1252,
// datas dd/mm/aaaa`. A setting the file never needed (no number with a decimal, no date) is
// left out.
func (f *csvFormat) Description() string {
	var parts []string
	if f.declared.Delimiter != "" || f.delimFound {
		d := fmt.Sprintf("separador %q", string(f.delim))
		if f.delim == '\t' {
			d = "separador tabulação"
		}
		parts = append(parts, d)
	}
	if f.decimal != 0 {
		parts = append(parts, fmt.Sprintf("decimal %q", string(f.decimal)))
	}
	parts = append(parts, encodingNames[f.enc])
	if f.dates != "" {
		parts = append(parts, "datas "+f.dates)
	}
	return f.file + ": " + strings.Join(parts, ", ")
}

var encodingNames = map[string]string{EncodingUTF8: "UTF-8", EncodingWindows1252: "Windows-1252", EncodingLatin1: "ISO-8859-1"}

// where says where the file's settings go, for messages: `na tabela "vendas" do app.yaml`.
func (f *csvFormat) where() string {
	return fmt.Sprintf("na tabela %q do app.yaml", f.table)
}

var (
	win1252 = decodeTable(charmap.Windows1252)
	latin1  = decodeTable(charmap.ISO8859_1)
)

func decodeTable(cm *charmap.Charmap) *[128]string {
	var t [128]string
	for i := range t {
		t[i] = string(cm.DecodeByte(byte(0x80 + i)))
	}
	return &t
}

// appendDecoded appends s, 8-bit text, to b as UTF-8 with the table decode, into *out, when s
// has a byte from 0x80 (it returns false, and appends nothing, when s is ASCII and so UTF-8
// already).
func appendDecoded(b []byte, s string, decode *[128]string, out *[]byte) bool {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return false
	}
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf {
			b = append(b, c)
		} else {
			b = append(b, decode[c-0x80]...)
		}
	}
	*out = b
	return true
}

// undefinedByte is the problem of a text with a byte Windows-1252 leaves undefined (0x81, 0x8D,
// 0x8F, 0x90, 0x9D): the file is in some other encoding.
func (f *csvFormat) undefinedByte(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 && f.decode[c-0x80] == "\uFFFD" {
			how := "é a declarada"
			if f.declared.Encoding == "" {
				how = "foi detectada porque o arquivo não é UTF-8"
			}
			return fmt.Sprintf("o texto tem o byte 0x%X, que não é um caractere em Windows-1252 (a codificação, que %s); salve o arquivo em UTF-8", c, how)
		}
	}
	return ""
}

// text is s (a field as the file has it) in UTF-8, for the header.
func (f *csvFormat) text(s string) string {
	if f.decode == nil {
		return s
	}
	var b []byte
	if appendDecoded(nil, s, f.decode, &b) {
		return string(b)
	}
	return s
}

// detect settles what decl leaves open from head, the first bytes of the file (all of it when
// more is false): the encoding from the bytes, the delimiter from the header line, the decimal
// and the date format from the values of the rows head holds completely. It returns an *Error
// for a file whose format cannot be decided.
func detect(file string, t *semantic.Table, decl Format, head []byte, more bool) (*csvFormat, error) {
	f := &csvFormat{file: file, table: t.Name, declared: decl}
	if bytes.HasPrefix(head, []byte{0xff, 0xfe}) || bytes.HasPrefix(head, []byte{0xfe, 0xff}) {
		return nil, &Error{File: file, Line: 1, Message: "o arquivo está em UTF-16, que não é aceito; salve-o como CSV em UTF-8 (ou Windows-1252)"}
	}
	f.enc = decl.Encoding
	if f.enc == "" {
		valid := head
		if more { // the sample may end inside a character
			i := len(valid) - 1
			for i > 0 && len(valid)-i < utf8.UTFMax && !utf8.RuneStart(valid[i]) {
				i--
			}
			if i >= 0 && !utf8.FullRune(valid[i:]) {
				valid = valid[:i]
			}
		}
		f.enc = EncodingUTF8
		if !utf8.Valid(valid) {
			if err := mixedEncodings(file, t.Name, valid); err != nil {
				return nil, err
			}
			f.enc = EncodingWindows1252
		}
	}
	switch f.enc {
	case EncodingWindows1252:
		f.decode = win1252
	case EncodingLatin1:
		f.decode = latin1
	}

	body := head
	if more { // only whole lines
		if i := bytes.LastIndexByte(body, '\n'); i >= 0 {
			body = body[:i+1]
		}
	}
	line, _, _ := bytes.Cut(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")), []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	switch decl.Delimiter {
	case "":
		d, found, err := f.detectDelimiter(t, line)
		if err != nil {
			return nil, err
		}
		f.delim, f.delimFound = d, found
	case "tab":
		f.delim = '\t'
	default:
		f.delim = decl.Delimiter[0]
	}
	switch decl.Decimal {
	case "":
	default:
		f.decimal = decl.Decimal[0]
	}
	f.dates = decl.DateFormat
	if f.decimal != 0 && f.dates != "" {
		return f, nil
	}
	if err := f.detectValues(t, body); err != nil {
		return nil, err
	}
	return f, nil
}

// mixedEncodings refuses a start of file that is not UTF-8 but holds UTF-8 characters: read as
// Windows-1252 they would become other letters ("SÃ£o").
func mixedEncodings(file, table string, b []byte) error {
	var utf, other, line, utfLine, otherLine int
	line = 1
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == '\n' {
				line++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			if other == 0 {
				otherLine = line
			}
			other++
		} else if utf == 0 {
			utf, utfLine = 1, line
		}
		i += size
	}
	if utf == 0 {
		return nil
	}
	return &Error{File: file, Line: otherLine, Message: fmt.Sprintf(
		"o arquivo mistura texto em UTF-8 (linha %d) com bytes que não são UTF-8 (linha %d); salve-o todo numa codificação só, ou declare csv.encoding na tabela %q do app.yaml",
		utfLine, otherLine, table)}
}

// detectDelimiter picks the candidate that splits the header line into the most column names
// of t; found says whether the line shows it (a header of one name shows none, and is read
// with the comma).
func (f *csvFormat) detectDelimiter(t *semantic.Table, line []byte) (byte, bool, error) {
	names := map[string]bool{}
	for _, c := range t.Columns {
		names[c.SourceName()] = true
	}
	best, bestN, tied := byte(','), -1, []byte(nil)
	fields := map[byte]int{}
	for _, d := range delimiters {
		r := csv.NewReader(bytes.NewReader(line))
		r.Comma = rune(d)
		r.LazyQuotes = true
		rec, err := r.Read()
		if err != nil {
			continue
		}
		fields[d] = len(rec)
		n := 0
		for _, h := range rec {
			if names[f.text(strings.TrimSpace(h))] {
				n++
			}
		}
		switch {
		case n > bestN:
			best, bestN, tied = d, n, []byte{d}
		case n == bestN:
			tied = append(tied, d)
		}
	}
	if fields[best] < 2 {
		return ',', false, nil
	}
	if len(tied) > 1 && bestN > 1 {
		var shown []string
		for _, d := range tied {
			shown = append(shown, delimiterName(d))
		}
		return 0, false, &Error{File: f.file, Line: 1, Message: fmt.Sprintf(
			"não dá para saber o separador: o cabeçalho se divide igualmente bem com %s; declare csv.delimiter %s",
			strings.Join(shown, " e com "), f.where())}
	}
	return best, true, nil
}

func delimiterName(d byte) string {
	if d == '\t' {
		return "tabulação"
	}
	return fmt.Sprintf("%q", string(d))
}

// detectValues reads the rows of body (the header first) and settles, where app.yaml does not,
// the decimal from the numbers and the date format from the dates. The first row that cannot
// be read ends the sample: reading the file reports it.
func (f *csvFormat) detectValues(t *semantic.Table, body []byte) error {
	r := csv.NewReader(bytes.NewReader(body))
	r.Comma = rune(f.delim)
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return nil
	}
	at := map[string]int{}
	for i, h := range header {
		if i == 0 {
			h = strings.TrimPrefix(h, "\xef\xbb\xbf")
		}
		at[f.text(h)] = i
	}
	type col struct {
		pos int
		c   *semantic.Column
	}
	var cols []col
	for _, c := range t.Columns {
		if c.Type == semantic.TypeString {
			continue
		}
		if j, ok := at[c.SourceName()]; ok {
			cols = append(cols, col{j, c})
		}
	}
	var point, comma, ambiguous, iso, dmy, dmy2, dayFirst, slashAmbiguous *sample
	for {
		rec, err := r.Read()
		if err != nil {
			break
		}
		line, _ := r.FieldPos(0)
		for _, c := range cols {
			if c.pos >= len(rec) {
				continue
			}
			s := rec[c.pos]
			if s == "" || s == Null {
				continue
			}
			smp := func() *sample { return &sample{value: s, column: c.c.SourceName(), line: line} }
			if c.c.Type == semantic.TypeNumber {
				if f.decimal != 0 {
					continue
				}
				var p number
				if !splitNumber(s, &p) {
					continue
				}
				dot, com := coreValid(p.core, '.'), coreValid(p.core, ',')
				switch {
				case !strings.ContainsAny(p.core, ".,"):
				case dot && com:
					if ambiguous == nil {
						ambiguous = smp()
					}
				case dot:
					if point == nil {
						point = smp()
					}
				case com:
					if comma == nil {
						comma = smp()
					}
				}
				continue
			}
			if f.dates != "" {
				continue
			}
			family, order := dateFamily(s)
			switch family {
			case DatesISO:
				if iso == nil {
					iso = smp()
				}
			case DatesDMY, DatesDMY2:
				if family == DatesDMY && dmy == nil {
					dmy = smp()
				}
				if family == DatesDMY2 && dmy2 == nil {
					dmy2 = smp()
				}
				switch order {
				case dayFirstOrder:
					if dayFirst == nil {
						dayFirst = smp()
					}
				case eitherOrder:
					if slashAmbiguous == nil {
						slashAmbiguous = smp()
					}
				}
			}
		}
	}

	if f.decimal == 0 {
		switch {
		case point != nil && comma != nil:
			first, second := point, comma
			if comma.line < point.line {
				first, second = comma, point
			}
			return &Error{File: f.file, Line: second.line, Field: second.column, Message: fmt.Sprintf(
				"o arquivo mistura decimal com ponto e com vírgula: %s e %s; escreva todos os números do mesmo jeito e declare csv.decimal: \",\" ou \".\" %s",
				first.at(), second.at(), f.where())}
		case comma != nil:
			f.decimal, f.decimalSeen = ',', comma
		case point != nil:
			f.decimal, f.decimalSeen = '.', point
		case f.delim == ',':
			// A comma-separated file writes a decimal comma only inside quotes, and the
			// original format is point decimal: "1.000" there is one.
			f.decimal = '.'
		case ambiguous != nil:
			return f.ambiguousNumber(ambiguous)
		}
	}
	if f.dates == "" {
		var seen []*sample
		for _, s := range []*sample{iso, dmy, dmy2} {
			if s != nil {
				seen = append(seen, s)
			}
		}
		switch {
		case len(seen) > 1:
			return &Error{File: f.file, Line: seen[1].line, Field: seen[1].column, Message: fmt.Sprintf(
				"o arquivo escreve datas de mais de um jeito: %s e %s; escreva todas do mesmo jeito (de preferência AAAA-MM-DD) e declare csv.dateFormat %s",
				seen[0].at(), seen[1].at(), f.where())}
		case iso != nil:
			f.dates, f.datesSeen = DatesISO, iso
		case dayFirst != nil:
			f.dates, f.datesSeen = DatesDMY, dayFirst
			if dmy2 != nil {
				f.dates = DatesDMY2
			}
		case slashAmbiguous != nil:
			return f.ambiguousDate(slashAmbiguous)
		}
	}
	return nil
}

// ambiguousNumber is the refusal of a number that reads as two values ("1.000": one thousand
// or one) in a file that says nothing else about its decimal.
func (f *csvFormat) ambiguousNumber(s *sample) *Error {
	var p number
	splitNumber(s.value, &p)
	sep := ","
	if strings.Contains(p.core, ".") {
		sep = "."
	}
	thousands := strings.NewReplacer(".", "", ",", "").Replace(p.core)
	decimal := strings.NewReplacer(",", ".").Replace(p.core)
	return &Error{File: f.file, Line: s.line, Field: s.column, Message: fmt.Sprintf(
		"não dá para saber se %q é %s ou %s: nenhum número do arquivo mostra se o %q separa milhar ou decimal; declare csv.decimal: \",\" (como em 1.234,56) ou csv.decimal: \".\" (como em 1,234.56) %s",
		s.value, thousands, strings.TrimRight(strings.TrimRight(decimal, "0"), "."), sep, f.where())}
}

// ambiguousDate is the refusal of a dd/mm date whose day is 12 or less in a file where no date
// shows the day first.
func (f *csvFormat) ambiguousDate(s *sample) *Error {
	setting := DatesDMY
	if len(dateOnly(s.value)) == len(DatesDMY2) {
		setting = DatesDMY2
	}
	return &Error{File: f.file, Line: s.line, Field: s.column, Message: fmt.Sprintf(
		"não dá para saber se %q tem o dia ou o mês primeiro: nenhuma data do arquivo tem dia acima de 12; se o dia vem primeiro, declare csv.dateFormat: %s %s (mês primeiro não é aceito; use AAAA-MM-DD)",
		s.value, setting, f.where())}
}

// dateOnly is the date part of a date or date-time value.
func dateOnly(s string) string {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}

// Orders of a dd/mm or mm/dd date.
const (
	eitherOrder     = iota // both parts 12 or less
	dayFirstOrder          // the first part is over 12
	monthFirstOrder        // the second part is over 12
)

// dateFamily says which format a date (or date-time) value is written in ("" for none) and, for
// a slash date, which part can be the day.
func dateFamily(s string) (string, int) {
	d := dateOnly(s)
	switch {
	case len(d) == 10 && d[4] == '-' && d[7] == '-':
		return DatesISO, eitherOrder
	case (len(d) == 10 || len(d) == 8) && d[2] == '/' && d[5] == '/':
		a, ok1 := two(d, 0)
		b, ok2 := two(d, 3)
		if !ok1 || !ok2 {
			return "", 0
		}
		family := DatesDMY
		if len(d) == 8 {
			family = DatesDMY2
		}
		switch {
		case a > 12 && b <= 12:
			return family, dayFirstOrder
		case b > 12:
			return family, monthFirstOrder
		}
		return family, eitherOrder
	}
	return "", 0
}

// number is a number field taken apart: sign, currency, percent and the digits with their
// separators (core), not yet read with a decimal.
type number struct {
	neg      bool
	currency string // "BRL" for R$, "USD" for US$, "" for none
	percent  bool
	core     string
}

// splitNumber takes apart s into n: -R$ 1.234,56, R$ -10,00, (10,00), (R$ 10,00), 25 % and the
// like. Spaces (also non-breaking) around the parts are ignored; core is digits, "." and ",",
// starting and ending with a digit.
func splitNumber(s string, n *number) bool {
	s = trimSpaces(s)
	if len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')' {
		n.neg = true
		s = trimSpaces(s[1 : len(s)-1])
	}
	if len(s) > 0 && s[0] == '-' {
		if n.neg {
			return false
		}
		n.neg = true
		s = s[1:]
	}
	switch {
	case strings.HasPrefix(s, "R$"):
		n.currency, s = "BRL", trimSpaces(s[2:])
	case strings.HasPrefix(s, "US$"):
		n.currency, s = "USD", trimSpaces(s[3:])
	}
	if n.currency != "" && len(s) > 0 && s[0] == '-' && !n.neg {
		n.neg = true
		s = s[1:]
	}
	if len(s) > 0 && s[len(s)-1] == '%' {
		if n.currency != "" {
			return false
		}
		n.percent = true
		s = trimSpaces(s[:len(s)-1])
	}
	if s == "" || !isDigit(s[0]) || !isDigit(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isDigit(c) && c != '.' && c != ',' {
			return false
		}
	}
	n.core = s
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// trimSpaces drops spaces and non-breaking spaces (UTF-8 or the single byte 0xA0 of
// Windows-1252 and ISO-8859-1) at both ends.
func trimSpaces(s string) string {
	for len(s) > 0 {
		if c, l := s[0], s[len(s)-1]; c != ' ' && c != 0xa0 && c != 0xc2 && l != ' ' && l != 0xa0 {
			return s
		}
		switch {
		case strings.HasPrefix(s, " "), strings.HasPrefix(s, "\xa0"):
			s = s[1:]
		case strings.HasPrefix(s, "\u00a0"):
			s = s[2:]
		case strings.HasSuffix(s, " "):
			s = s[:len(s)-1]
		case strings.HasSuffix(s, "\u00a0"):
			s = s[:len(s)-2]
		case strings.HasSuffix(s, "\xa0"):
			s = s[:len(s)-1]
		default:
			return s
		}
	}
	return s
}

// coreValid says whether core reads as a number with decimal dec: digits, optionally grouped by
// threes with the other separator (the first group of 1 to 3 digits, not starting with 0), then
// optionally dec and at least one digit.
func coreValid(core string, dec byte) bool {
	thou := byte(',')
	if dec == ',' {
		thou = '.'
	}
	intPart, frac, hasDec := core, "", false
	if i := strings.IndexByte(core, dec); i >= 0 {
		intPart, frac, hasDec = core[:i], core[i+1:], true
	}
	if hasDec && (frac == "" || strings.IndexByte(frac, dec) >= 0 || strings.IndexByte(frac, thou) >= 0) {
		return false
	}
	if intPart == "" {
		return false
	}
	if strings.IndexByte(intPart, thou) < 0 {
		return true
	}
	first := strings.IndexByte(intPart, thou)
	if first > 3 || intPart[0] == '0' {
		return false
	}
	for rest := intPart[first:]; rest != ""; rest = rest[4:] {
		if len(rest) < 4 || rest[0] != thou || !isDigit(rest[1]) || !isDigit(rest[2]) || !isDigit(rest[3]) {
			return false
		}
	}
	return true
}

// appendCanonical appends n, read with decimal dec, as -?digits(.digits)? (a percent divided by
// 100) and returns the decimals written.
func appendCanonical(buf []byte, n number, dec byte) ([]byte, int) {
	intPart, frac := n.core, ""
	if i := strings.IndexByte(n.core, dec); i >= 0 {
		intPart, frac = n.core[:i], n.core[i+1:]
	}
	if n.neg {
		buf = append(buf, '-')
	}
	if !n.percent {
		for i := 0; i < len(intPart); i++ {
			if isDigit(intPart[i]) {
				buf = append(buf, intPart[i])
			}
		}
		if frac != "" {
			buf = append(buf, '.')
			buf = append(buf, frac...)
		}
		return buf, len(frac)
	}
	// A percent: the same digits with the point two places to the left.
	var digs []byte
	for i := 0; i < len(intPart); i++ {
		if isDigit(intPart[i]) && (len(digs) > 0 || intPart[i] != '0') {
			digs = append(digs, intPart[i])
		}
	}
	whole := len(digs) - 2
	digs = append(digs, frac...)
	if whole <= 0 {
		buf = append(buf, '0', '.')
		for range -whole {
			buf = append(buf, '0')
		}
		buf = append(buf, digs...)
	} else {
		buf = append(buf, digs[:whole]...)
		buf = append(buf, '.')
		buf = append(buf, digs[whole:]...)
	}
	return buf, len(frac) + 2
}
