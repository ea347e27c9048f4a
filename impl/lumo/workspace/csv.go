package workspace

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// Null is how a CSV field spells NULL; an empty field is the empty string.
const Null = `\N`

// Rows streams the data rows of one table's CSV file (comma separated, UTF-8, a header of
// physical column names in any order), converting each value to its column's type. It holds one
// record at a time, so files of any size stream in constant memory.
type Rows struct {
	file   string
	f      fs.File
	r      *csv.Reader
	cols   []*semantic.Column
	pos    []int // pos[i] is the index in a record of cols[i]
	width  int   // fields per record, from the header
	vals   []any
	rec    []string // the current record, as read
	scales []int
	line   int
	count  int64
	err    error
}

// OpenRows opens file and checks its header against t: every physical column name exactly once,
// in any order, and nothing else. Header problems come back as Errors (file, line 1, column).
func OpenRows(fsys fs.FS, file string, t *semantic.Table) (*Rows, error) {
	f, err := fsys.Open(file)
	if err != nil {
		msg := "o arquivo não pôde ser aberto: " + err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			msg = "o arquivo não existe"
		}
		return nil, &Error{File: file, Message: msg}
	}
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1 // counted here, to say which line and how many
	r.ReuseRecord = true
	rows := &Rows{file: file, f: f, r: r, cols: t.Columns, vals: make([]any, len(t.Columns)), scales: make([]int, len(t.Columns))}
	header, err := r.Read()
	if err != nil {
		f.Close()
		if err == io.EOF {
			return nil, &Error{File: file, Line: 1, Message: "o arquivo está vazio; a primeira linha precisa ser o cabeçalho com os nomes físicos das colunas"}
		}
		return nil, rows.readError(err)
	}
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\uFEFF")
	}
	var errs Errors
	at := map[string]int{}
	for i, h := range header {
		if _, dup := at[h]; dup {
			errs = append(errs, &Error{File: file, Line: 1, Field: h, Message: fmt.Sprintf("a coluna %q aparece duas vezes no cabeçalho; deixe uma só", h)})
			continue
		}
		at[h] = i
	}
	known := map[string]bool{}
	for _, c := range t.Columns {
		known[c.Name] = true
		j, ok := at[c.Name]
		if !ok {
			errs = append(errs, &Error{File: file, Line: 1, Field: c.Name,
				Message: fmt.Sprintf("o cabeçalho não tem a coluna %q da tabela %q do app.yaml; inclua-a (\\N para valores nulos) ou tire-a do app.yaml", c.Name, t.Name)})
			continue
		}
		rows.pos = append(rows.pos, j)
	}
	for _, h := range header {
		if !known[h] {
			errs = append(errs, &Error{File: file, Line: 1, Field: h,
				Message: fmt.Sprintf("a coluna %q não está na tabela %q do app.yaml; remova-a do arquivo ou declare-a no app.yaml", h, t.Name)})
		}
	}
	if len(errs) > 0 {
		f.Close()
		return nil, errs
	}
	rows.width = len(header)
	rows.line = 1
	return rows, nil
}

// Columns are the table's columns; Values follow this order.
func (r *Rows) Columns() []*semantic.Column { return r.cols }

// Next reads the next row. It returns false at the end of the file or at the first error (Err).
func (r *Rows) Next() bool {
	if r.err != nil {
		return false
	}
	rec, err := r.r.Read()
	if err == io.EOF {
		return false
	}
	if err != nil {
		r.err = r.readError(err)
		return false
	}
	r.line, _ = r.r.FieldPos(0)
	if len(rec) != r.width {
		r.err = &Error{File: r.file, Line: r.line, Message: fmt.Sprintf(
			"a linha tem %d valores, mas o cabeçalho tem %d colunas; confira as vírgulas (um texto com vírgula vai entre aspas)", len(rec), r.width)}
		return false
	}
	for i, c := range r.cols {
		s := rec[r.pos[i]]
		v, scale, msg := convert(c.Type, s)
		if msg != "" {
			r.err = &Error{File: r.file, Line: r.line, Field: c.Name, Message: msg}
			return false
		}
		if scale > r.scales[i] {
			r.scales[i] = scale
		}
		r.vals[i] = v
	}
	r.rec = rec
	r.count++
	return true
}

// Values is the current row in Columns order: nil for NULL, string for text, float64 for
// numbers, time.Time (UTC, no zone meant) for dates and datetimes. The slice is reused by Next.
func (r *Rows) Values() []any { return r.vals }

// Text is the current row's value of Columns()[i] as the file writes it (valid for its type;
// meaningless where Values holds nil). Like Values it lasts until the next call of Next.
func (r *Rows) Text(i int) string { return r.rec[r.pos[i]] }

// Line is the file line where the current row starts.
func (r *Rows) Line() int { return r.line }

// Count is how many rows were read so far.
func (r *Rows) Count() int64 { return r.count }

// Scales are, per column, the most decimals seen in a number so far.
func (r *Rows) Scales() []int { return r.scales }

// Err is the first error met, an *Error naming file, line and column; nil at a clean end.
func (r *Rows) Err() error {
	if r.err == nil {
		return nil // not a typed nil *Error
	}
	return r.err
}

// Close releases the file.
func (r *Rows) Close() error { return r.f.Close() }

func (r *Rows) readError(err error) *Error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return &Error{File: r.file, Line: r.line + 1, Message: "o arquivo não pôde ser lido: " + err.Error()}
	}
	msg := "o CSV não pôde ser lido: " + pe.Err.Error()
	switch {
	case errors.Is(pe.Err, csv.ErrBareQuote):
		msg = "há aspas no meio de um valor sem aspas; ponha o valor inteiro entre aspas e dobre as aspas de dentro (\"\")"
	case errors.Is(pe.Err, csv.ErrQuote):
		msg = "um valor entre aspas não fecha as aspas; feche-as ou dobre as aspas de dentro (\"\")"
	}
	return &Error{File: r.file, Line: pe.Line, Message: msg}
}

// convert turns one field into a value of type typ, with the decimals of a number. msg is the
// Portuguese problem, "" when the value is fine. Empty fields are NULL outside text columns.
func convert(typ, s string) (v any, scale int, msg string) {
	if s == Null {
		return nil, 0, ""
	}
	switch typ {
	case semantic.TypeNumber:
		if s == "" {
			return nil, 0, ""
		}
		f, scale, ok := parseNumber(s)
		if !ok {
			return nil, 0, fmt.Sprintf("o valor %q não é um número; use ponto decimal e nenhum separador de milhar (ex.: 1234.56), ou \\N para nulo", s)
		}
		return f, scale, ""
	case semantic.TypeDate:
		if s == "" {
			return nil, 0, ""
		}
		t, ok := parseDate(s)
		if !ok {
			return nil, 0, fmt.Sprintf("o valor %q não é uma data AAAA-MM-DD válida (ex.: 2026-09-30), nem \\N para nulo", s)
		}
		return t, 0, ""
	case semantic.TypeDatetime:
		if s == "" {
			return nil, 0, ""
		}
		t, ok := parseDatetime(s)
		if !ok {
			return nil, 0, fmt.Sprintf("o valor %q não é uma data e hora AAAA-MM-DD HH:MM[:SS] válida (ex.: 2026-09-30 14:05), nem \\N para nulo", s)
		}
		return t, 0, ""
	}
	if !utf8.ValidString(s) {
		return nil, 0, "o texto não está em UTF-8; salve o arquivo com a codificação UTF-8"
	}
	return s, 0, ""
}

// parseNumber accepts -?digits(.digits)? and reports the decimals written.
func parseNumber(s string) (float64, int, bool) {
	i := 0
	if s[0] == '-' {
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == start {
		return 0, 0, false
	}
	scale := 0
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			scale++
		}
		if scale == 0 {
			return 0, 0, false
		}
	}
	if i != len(s) {
		return 0, 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, 0, false
	}
	return f, scale, true
}

// digits reads n decimal digits of s at i.
func digits(s string, i, n int) (int, bool) {
	v := 0
	for _, c := range []byte(s[i : i+n]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// parseDate accepts YYYY-MM-DD naming a real day.
func parseDate(s string) (time.Time, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, false
	}
	y, ok1 := digits(s, 0, 4)
	m, ok2 := digits(s, 5, 2)
	d, ok3 := digits(s, 8, 2)
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d { // 2026-02-30 rolls into March
		return time.Time{}, false
	}
	return t, true
}

// parseDatetime accepts YYYY-MM-DD HH:MM[:SS]; a bare date is midnight.
func parseDatetime(s string) (time.Time, bool) {
	if len(s) < 10 {
		return time.Time{}, false
	}
	day, ok := parseDate(s[:10])
	if !ok {
		return time.Time{}, false
	}
	rest := s[10:]
	if rest == "" {
		return day, true
	}
	if (len(rest) != 6 && len(rest) != 9) || rest[0] != ' ' || rest[3] != ':' {
		return time.Time{}, false
	}
	h, ok1 := digits(rest, 1, 2)
	mi, ok2 := digits(rest, 4, 2)
	sec, ok3 := 0, true
	if len(rest) == 9 {
		if rest[6] != ':' {
			return time.Time{}, false
		}
		sec, ok3 = digits(rest, 7, 2)
	}
	if !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	return day.Add(time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(sec)*time.Second), true
}
