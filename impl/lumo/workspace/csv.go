package workspace

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// Null is how a CSV field spells NULL; an empty field is the empty string.
const Null = `\N`

// Rows streams the data rows of one table's CSV file (a header of physical column names in any
// order, then the rows), converting each value to its column's type. The file's delimiter,
// decimal, encoding and date format are what app.yaml declares (Format) or what detection reads
// from the file (see detect). It holds one record at a time, so files of any size stream in
// constant memory.
type Rows struct {
	file   string
	f      fs.File
	r      *csv.Reader
	format *csvFormat
	cols   []*semantic.Column
	pos    []int // pos[i] is the index in a record of cols[i]
	width  int   // fields per record, from the header
	vals   []any
	texts  []string // per column, the value as Text gives it
	scales []int
	units  []string // per column, the unit the values showed (R$, US$, %)
	kinds  []kind   // per column, whether numbers came with % or without
	buf    []byte   // the current row's rewritten texts, before they become one string
	spans  []span
	line   int
	count  int64
	err    error
}

// kind is how a column's numbers were written so far.
type kind struct {
	percent byte // 0 = no number yet, '%' with a percent sign, 'n' without
	first   sample
}

// span is where in Rows.buf the rewritten text of column col is.
type span struct{ col, start, end int }

// OpenRows opens file and checks its header against t: every physical column name exactly once,
// in any order, and nothing else. decl is the table's csv settings in app.yaml; what it leaves
// empty is detected from the first rows of the file, and a file whose format stays ambiguous is
// refused. Header and format problems come back as Errors (file, line, column).
func OpenRows(fsys fs.FS, file string, t *semantic.Table, decl Format) (*Rows, error) {
	f, err := fsys.Open(file)
	if err != nil {
		msg := "o arquivo não pôde ser aberto: " + err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			msg = "o arquivo não existe"
		}
		return nil, &Error{File: file, Message: msg}
	}
	br := bufio.NewReaderSize(f, sampleSize)
	head, err := br.Peek(sampleSize)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		f.Close()
		return nil, &Error{File: file, Line: 1, Message: "o arquivo não pôde ser lido: " + err.Error()}
	}
	format, err := detect(file, t, decl, head, err == nil)
	if err != nil {
		f.Close()
		return nil, err
	}
	r := csv.NewReader(br)
	r.Comma = rune(format.delim)
	r.FieldsPerRecord = -1 // counted here, to say which line and how many
	r.ReuseRecord = true
	n := len(t.Columns)
	rows := &Rows{file: file, f: f, r: r, format: format, cols: t.Columns, vals: make([]any, n), texts: make([]string, n),
		scales: make([]int, n), units: make([]string, n), kinds: make([]kind, n)}
	header, err := r.Read()
	if err != nil {
		f.Close()
		if err == io.EOF {
			return nil, &Error{File: file, Line: 1, Message: "o arquivo está vazio; a primeira linha precisa ser o cabeçalho com os nomes físicos das colunas"}
		}
		return nil, rows.readError(err)
	}
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\xef\xbb\xbf")
	}
	if len(header) > 1 && header[len(header)-1] == "" { // a delimiter ending the line
		header = header[:len(header)-1]
	}
	for i, h := range header {
		header[i], _ = format.text(h)
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

// Next reads the next row, skipping blank lines (also those of delimiters only). It returns
// false at the end of the file or at the first error (Err).
func (r *Rows) Next() bool {
	if r.err != nil {
		return false
	}
	var rec []string
	for {
		var err error
		rec, err = r.r.Read()
		if err == io.EOF {
			return false
		}
		if err != nil {
			r.err = r.readError(err)
			return false
		}
		if !blank(rec) {
			break
		}
	}
	r.line, _ = r.r.FieldPos(0)
	if len(rec) == r.width+1 && rec[r.width] == "" { // a delimiter ending the line
		rec = rec[:r.width]
	}
	if len(rec) != r.width {
		hint := "confira as vírgulas (um texto com vírgula vai entre aspas)"
		if d := r.format.delim; d != ',' {
			hint = fmt.Sprintf("confira os separadores %s (um texto com o separador vai entre aspas)", delimiterName(d))
		}
		r.err = &Error{File: r.file, Line: r.line, Message: fmt.Sprintf(
			"a linha tem %d valores, mas o cabeçalho tem %d colunas; %s", len(rec), r.width, hint)}
		return false
	}
	r.buf, r.spans = r.buf[:0], r.spans[:0]
	for i, c := range r.cols {
		s := rec[r.pos[i]]
		r.texts[i] = s
		var v any
		var msg string
		switch c.Type {
		case semantic.TypeNumber:
			v, msg = r.number(i, s)
		case semantic.TypeDate, semantic.TypeDatetime:
			v, msg = r.date(i, c.Type, s)
		default:
			if s == Null {
				break
			}
			t, ok := r.format.text(s)
			if !ok {
				msg = "o texto não está em UTF-8; salve o arquivo com a codificação UTF-8"
				if r.format.declared.Encoding == "" {
					msg += fmt.Sprintf(", ou, se ele está em Windows-1252 ou ISO-8859-1, declare csv.encoding %s (o início do arquivo era UTF-8)", r.format.setting(""))
				}
				break
			}
			v = t
			r.texts[i] = t
		}
		if msg != "" {
			r.err = &Error{File: r.file, Line: r.line, Field: c.Name, Message: msg}
			return false
		}
		r.vals[i] = v
	}
	if len(r.spans) > 0 {
		all := string(r.buf)
		for _, sp := range r.spans {
			r.texts[sp.col] = all[sp.start:sp.end]
		}
	}
	r.count++
	return true
}

// blank says whether a record holds nothing: a line of delimiters only.
func blank(rec []string) bool {
	for _, s := range rec {
		if s != "" {
			return false
		}
	}
	return true
}

// rewritten records that column i's text is r.buf[start:], the value rewritten in the
// original format (ISO dates, point decimal).
func (r *Rows) rewritten(i, start int) {
	r.spans = append(r.spans, span{i, start, len(r.buf)})
}

// Values is the current row in Columns order: nil for NULL, string for text, float64 for
// numbers, time.Time (UTC, no zone meant) for dates and datetimes. The slice is reused by Next.
func (r *Rows) Values() []any { return r.vals }

// Text is the current row's value of Columns()[i] as the original format writes it: a number as
// -?digits(.digits)? (a percent already divided by 100), a date as YYYY-MM-DD, a date-time as
// YYYY-MM-DD HH:MM[:SS], a text in UTF-8 (meaningless where Values holds nil). Like Values it
// lasts until the next call of Next.
func (r *Rows) Text(i int) string { return r.texts[i] }

// Line is the file line where the current row starts.
func (r *Rows) Line() int { return r.line }

// Count is how many rows were read so far.
func (r *Rows) Count() int64 { return r.count }

// Scales are, per column, the most decimals seen in a number so far.
func (r *Rows) Scales() []int { return r.scales }

// Units are, per column, the unit its values showed so far ("BRL" for R$, "USD" for US$,
// "percent" for %; "" for none): a column without unit in app.yaml gets this one.
func (r *Rows) Units() []string { return r.units }

// Description is the line an import prints for the file: the settings it was read with,
// declared or detected (`vendas.csv: separador ";", decimal ",", Windows-1252, datas
// dd/mm/aaaa`). Read after the last row, it includes what the rows settled after the sample.
func (r *Rows) Description() string { return r.format.Description() }

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
	if !ok1 || !ok2 || !ok3 {
		return time.Time{}, false
	}
	return makeDay(y, m, d)
}

// makeDay is the day y-m-d, if there is one.
func makeDay(y, m, d int) (time.Time, bool) {
	if m < 1 || m > 12 || d < 1 {
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
	return addClock(day, s[10:])
}

// addClock adds the time of day rest (" HH:MM" or " HH:MM:SS") to day; an empty rest is
// midnight.
func addClock(day time.Time, rest string) (time.Time, bool) {
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

// parseSlash accepts DD/MM/AAAA (DD/MM/AA when short: 00-69 are 2000-2069, 70-99 are
// 1970-1999) naming a real day and, when datetime, an optional HH:MM[:SS] after a space.
func parseSlash(s string, datetime, short bool) (time.Time, bool) {
	n := len(DatesDMY)
	if short {
		n = len(DatesDMY2)
	}
	if len(s) < n || s[2] != '/' || s[5] != '/' {
		return time.Time{}, false
	}
	d, ok1 := digits(s, 0, 2)
	m, ok2 := digits(s, 3, 2)
	y, ok3 := digits(s, 6, n-6)
	if !ok1 || !ok2 || !ok3 {
		return time.Time{}, false
	}
	if short {
		y += 1900
		if y < 1970 {
			y += 100
		}
	}
	day, ok := makeDay(y, m, d)
	if !ok {
		return time.Time{}, false
	}
	if !datetime {
		return day, len(s) == n
	}
	return addClock(day, s[n:])
}
