package workspace

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// Null is how a CSV field spells NULL; an empty field is the empty string.
const Null = `\N`

// csvRows streams the data rows of one table's CSV file (a header of physical column names in any
// order, then the rows), converting each value to its column's type. The file's delimiter,
// decimal, encoding and date format are what app.yaml declares (Format) or what detection reads
// from the file (see detect). It holds one record at a time, so files of any size stream in
// constant memory.
type csvRows struct {
	file    string
	f       fs.File
	br      *bufio.Reader
	r       *csv.Reader // from the first line with a quote on (nil before)
	guard   *lineGuard  // what r reads through (nil before)
	rec     []string    // the record read without r
	raw     []byte      // a line longer than br's buffer
	lines   int         // lines read without r
	format  *csvFormat
	cols    []*semantic.Column
	pos     []int // pos[i] is the index in a record of cols[i]
	width   int   // fields per record, from the header
	vals    []any
	texts   []string // per column, the value as Text gives it
	scales  []int
	units   []string // per column, the unit the values showed (R$, US$, %)
	kinds   []kind   // per column, whether numbers came with % or without
	buf     []byte   // the current row's rewritten texts, before they go to arena
	arena   []byte   // bytes of rewritten texts that strings point into: only ever appended to
	spans   []span
	pend    []pending     // per column, a text not written yet (Text)
	days    *[1024]dayBox // boxed days, by day
	strs    [][16]textBox // boxed texts, per column
	line    int
	count   int64
	err     error
	prev    int          // line of the previous record
	skipped []skippedRow // total rows and notes left out
	blanks  int          // records of delimiters only left out
	dressed bool         // some number so far was not written as its plain text (a unit, thousands...)
}

// kind is how a column's numbers were written so far.
type kind struct {
	percent byte // 0 = no number yet, '%' with a percent sign, 'n' without
	first   sample
}

// boxText is s in an interface: a text repeated in a column (a store, a status) comes from a
// small cache of the column's boxed texts, since boxing allocates otherwise.
func (r *csvRows) boxText(i int, s string) any {
	if len(s) == 0 {
		return ""
	}
	e := &r.strs[i][(len(s)*7+int(s[0])+int(s[len(s)-1]))&(len(r.strs[i])-1)]
	if e.v == nil || e.s != s {
		e.s, e.v = s, s
	}
	return e.v
}

// textBox is a boxed text (Rows.boxText).
type textBox struct {
	s string
	v any
}

// dayBox is a boxed day and its key (Rows.boxTime).
type dayBox struct {
	key int32
	v   any
}

// span is where in Rows.buf the rewritten text of column col is; text says it is also the
// value (a text decoded to UTF-8).
type span struct {
	col, start, end int
	text            bool
}

// openCSV opens file and checks its header against t: every physical column name exactly once,
// in any order, and nothing else. decl is the table's csv settings in app.yaml; what it leaves
// empty is detected from the first rows of the file, and a file whose format stays ambiguous is
// refused. Header and format problems come back as Errors (file, line, column).
func openCSV(fsys fs.FS, file string, t *semantic.Table, decl Format) (*csvRows, error) {
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
	n := len(t.Columns)
	rows := &csvRows{file: file, f: f, br: br, format: format, cols: t.Columns, vals: make([]any, n), texts: make([]string, n),
		scales: make([]int, n), units: make([]string, n), kinds: make([]kind, n), days: new([1024]dayBox), pend: make([]pending, n),
		strs: make([][16]textBox, n)}
	header, err := rows.read()
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
		header[i] = format.text(h)
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
		known[c.SourceName()] = true
		j, ok := at[c.SourceName()]
		if !ok {
			errs = append(errs, &Error{File: file, Line: 1, Field: c.SourceName(),
				Message: fmt.Sprintf("o cabeçalho não tem a coluna %q da tabela %q do app.yaml; inclua-a (\\N para valores nulos) ou tire-a do app.yaml", c.SourceName(), t.Name)})
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
	rows.line, rows.prev = 1, 1
	return rows, nil
}

// Columns are the table's columns; Values follow this order.
func (r *csvRows) Columns() []*semantic.Column { return r.cols }

// Next reads the next row, skipping blank lines (also those of delimiters only). It returns
// false at the end of the file or at the first error (Err).
func (r *csvRows) Next() bool {
	if r.err != nil {
		return false
	}
	var rec []string
	for {
		var err error
		rec, err = r.read()
		if err == io.EOF {
			return false
		}
		if err != nil {
			r.err = r.readError(err)
			return false
		}
		if blank(rec) {
			r.blanks++
			continue
		}
		gap := r.line > r.prev+1
		r.prev = r.line
		if s, ok := r.notData(rec, gap); ok {
			r.skipped = append(r.skipped, s)
			continue
		}
		break
	}
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
		r.texts[i], r.pend[i].kind = s, 0
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
			v = r.boxText(i, s)
			if r.format.decode != nil {
				// 8-bit text becomes UTF-8 in the row's buffer, made a string with the others.
				if start := len(r.buf); appendDecoded(r.buf, s, r.format.decode, &r.buf) {
					r.spans = append(r.spans, span{i, start, len(r.buf), true})
					if bytes.Contains(r.buf[start:], []byte("\uFFFD")) { // what an undefined byte decodes to
						msg = r.format.undefinedByte(s)
					} else if r.format.declared.Encoding == "" && utf8.ValidString(s) {
						msg = fmt.Sprintf("o texto %q está em UTF-8, mas o início do arquivo não estava, e foi lido como Windows-1252; salve o arquivo todo numa codificação só, ou declare csv.encoding %s", s, r.format.where())
					}
				}
			} else if !utf8.ValidString(s) {
				msg = "o texto não está em UTF-8; salve o arquivo com a codificação UTF-8"
				if r.format.declared.Encoding == "" {
					msg += fmt.Sprintf(", ou, se ele está em Windows-1252 ou ISO-8859-1, declare csv.encoding %s (o início do arquivo era UTF-8)", r.format.where())
				}
			}
		}
		if msg != "" {
			r.err = &Error{File: r.file, Line: r.line, Field: c.SourceName(), Message: msg}
			return false
		}
		r.vals[i] = v
	}
	if len(r.spans) > 0 {
		all := r.keep(r.buf)
		for _, sp := range r.spans {
			r.texts[sp.col] = all[sp.start:sp.end]
			if sp.text {
				r.vals[sp.col] = r.texts[sp.col]
			}
		}
	}
	r.count++
	return true
}

// read reads the next record and sets r.line to the line it starts on. Lines without quotes,
// nearly all of them, it splits itself (encoding/csv's work per field cost as much as
// converting the values); from the first line with a quote on it hands the rest of the file to
// encoding/csv, which reads them the same way and knows quoting.
func (r *csvRows) read() ([]string, error) {
	for r.r == nil {
		line, err := r.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			r.raw = append(r.raw[:0], line...)
			for err == bufio.ErrBufferFull {
				if len(r.raw) > MaxLineBytes {
					return nil, &lineTooLong{line: r.lines + 1, column: -1}
				}
				line, err = r.br.ReadSlice('\n')
				r.raw = append(r.raw, line...)
			}
			if len(r.raw) > MaxLineBytes {
				return nil, &lineTooLong{line: r.lines + 1, column: -1}
			}
			line = r.raw
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		if len(line) == 0 {
			return nil, io.EOF
		}
		if bytes.IndexByte(line, '"') >= 0 {
			r.guard = &lineGuard{r: io.MultiReader(bytes.NewReader(bytes.Clone(line)), r.br), first: r.lines}
			r.r = csv.NewReader(r.guard)
			r.r.Comma = rune(r.format.delim)
			r.r.FieldsPerRecord = -1 // counted here, to say which line and how many
			r.r.ReuseRecord = true
			break
		}
		r.lines++
		// As encoding/csv: no line break, and a \r before it (or before the end) dropped.
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 { // an empty line
			continue
		}
		s := string(line)
		rec := r.rec[:0]
		for {
			i := strings.IndexByte(s, r.format.delim)
			if i < 0 {
				break
			}
			rec = append(rec, s[:i])
			s = s[i+1:]
		}
		r.rec = append(rec, s)
		r.line = r.lines
		return r.rec, r.checkLengths(r.rec)
	}
	rec, err := r.r.Read()
	if err == nil {
		line, _ := r.r.FieldPos(0)
		r.line = r.lines + line
		err = r.checkLengths(rec)
	}
	return rec, err
}

// MaxLineBytes bounds one line of a CSV file: a longer one is refused before it is held whole.
const MaxLineBytes = 16 << 20

// lineTooLong is a line over MaxLineBytes, or a value over MaxValueBytes.
type lineTooLong struct {
	line   int
	column int // 0-based; -1: the whole line
}

func (e *lineTooLong) Error() string { return fmt.Sprintf("line %d too long", e.line) }

// checkLengths refuses a value over MaxValueBytes, naming its column.
func (r *csvRows) checkLengths(rec []string) error {
	for i, v := range rec {
		if len(v) > MaxValueBytes {
			return &lineTooLong{line: r.line, column: i}
		}
	}
	return nil
}

// lineGuard passes a file to encoding/csv, refusing a physical line over MaxLineBytes before
// encoding/csv holds it (it has no bound of its own).
type lineGuard struct {
	r     io.Reader
	first int // lines read before the guard
	lines int // line breaks seen
	run   int // bytes since the last line break
}

func (g *lineGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	for _, b := range p[:n] {
		if b == '\n' {
			g.lines++
			g.run = 0
			continue
		}
		if g.run++; g.run > MaxLineBytes {
			return 0, &lineTooLong{line: g.first + g.lines + 1, column: -1}
		}
	}
	return n, err
}

// arenaSize is how many bytes of rewritten texts one allocation holds.
const arenaSize = 64 << 10

// keep is b as a string that lasts: its bytes go to the end of the arena, where nothing
// writes again, so a row's texts take one allocation per arenaSize bytes instead of one each.
func (r *csvRows) keep(b []byte) string {
	if len(r.arena)+len(b) > cap(r.arena) {
		r.arena = make([]byte, 0, max(arenaSize, len(b)))
	}
	start := len(r.arena)
	r.arena = append(r.arena, b...)
	return unsafe.String(&r.arena[start], len(b))
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
func (r *csvRows) rewritten(i, start int) {
	r.spans = append(r.spans, span{i, start, len(r.buf), false})
}

// Values is the current row in Columns order: nil for NULL, string for text, float64 for
// numbers, time.Time (UTC, no zone meant) for dates and datetimes. The slice is reused by Next.
func (r *csvRows) Values() []any { return r.vals }

// Text is the current row's value of Columns()[i] as the original format writes it: a number as
// -?digits(.digits)? (a percent already divided by 100), a date as YYYY-MM-DD, a date-time as
// YYYY-MM-DD HH:MM[:SS], a text in UTF-8 (meaningless where Values holds nil). Like Values it
// lasts until the next call of Next.
func (r *csvRows) Text(i int) string {
	p := &r.pend[i]
	if p.kind == 0 {
		return r.texts[i]
	}
	// Written at the end of the arena (see keep): a longer text than its room moves the arena
	// to a new array, and the texts already given keep the old one.
	if cap(r.arena)-len(r.arena) < 64 {
		r.arena = make([]byte, 0, arenaSize)
	}
	b, start := r.arena, len(r.arena)
	switch p.kind {
	case pendPlain:
		b = appendPlain(b, p.neg, p.core, p.dec)
	case pendPercent:
		b = appendDecimal(b, p.neg, p.m, p.scale)
	case pendDate, pendDatetime:
		b = p.c.appendISO(b, p.kind == pendDatetime)
	}
	r.arena = b
	r.texts[i], p.kind = unsafe.String(&b[start], len(b)-start), 0
	return r.texts[i]
}

// pending is a value whose text in the original format Text writes when first asked: most
// callers never ask for most of them.
type pending struct {
	kind  byte // 0 (the text is in Rows.texts) or one of the pend kinds
	neg   bool
	dec   byte
	m     uint64
	scale int
	core  string
	c     civil
}

// Kinds of pending texts.
const (
	pendPlain    = 1 + iota // a number as written, without thousands and with a point: core, dec, neg
	pendPercent             // a number divided by 100: m, scale, neg
	pendDate                // c as YYYY-MM-DD
	pendDatetime            // c as YYYY-MM-DD HH:MM:SS
)

// Line is the file line where the current row starts.
func (r *csvRows) Line() int { return r.line }

// Count is how many rows were read so far.
func (r *csvRows) Count() int64 { return r.count }

// Scales are, per column, the most decimals seen in a number so far.
func (r *csvRows) Scales() []int { return r.scales }

// Units are, per column, the unit its values showed so far ("BRL" for R$, "USD" for US$,
// "percent" for %; "" for none): a column without unit in app.yaml gets this one.
func (r *csvRows) Units() []string { return r.units }

// Description is the line an import prints for the file: the settings it was read with,
// declared or detected (`vendas.csv: separador ";", decimal ",", Windows-1252, datas
// dd/mm/aaaa`). Read after the last row, it includes what the rows settled after the sample.
func (r *csvRows) Description() string { return r.format.Description() + skippedWords(r.skipped) }

// notData says whether rec is a total row (its first filled field is Total, Subtotal...) or,
// after a blank line (gap), a note: one filled field, the first, in a table of three columns or
// more, that reads as a note.
func (r *csvRows) notData(rec []string, gap bool) (skippedRow, bool) {
	filled, first, at := 0, "", 0
	for i, f := range rec {
		if strings.TrimSpace(f) != "" && f != Null {
			if filled == 0 {
				first, at = r.format.text(strings.TrimSpace(f)), i
			}
			filled++
		}
	}
	switch {
	case filled > 0 && isTotal(first):
		return skippedRow{line: r.line, text: first}, true
	case gap && filled == 1 && at == 0 && r.width >= 3 && noteLike(first):
		return skippedRow{line: r.line, text: first, note: true}, true
	}
	return skippedRow{}, false
}

// Err is the first error met, an *Error naming file, line and column; nil at a clean end.
func (r *csvRows) Err() error {
	if r.err == nil {
		return nil // not a typed nil *Error
	}
	return r.err
}

// Close releases the file.
func (r *csvRows) Close() error { return r.f.Close() }

func (r *csvRows) readError(err error) *Error {
	var tl *lineTooLong
	if errors.As(err, &tl) {
		if tl.column >= 0 && tl.column < len(r.cols) {
			return &Error{File: r.file, Line: tl.line, Field: r.cols[tl.column].SourceName(), Message: fmt.Sprintf(
				"o valor da coluna %s passa de %s; um valor desse tamanho não é dado de tabela", r.cols[tl.column].SourceName(), bytesWords(MaxValueBytes))}
		}
		return &Error{File: r.file, Line: tl.line, Message: fmt.Sprintf(
			"a linha passa de %s; uma linha desse tamanho não é de uma tabela (confira o separador e as aspas)", bytesWords(MaxLineBytes))}
	}
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
	return &Error{File: r.file, Line: r.lines + pe.Line, Message: msg}
}

// digits reads n decimal digits of s at i.
func digits(s string, i, n int) (int, bool) {
	v := 0
	for j := i; j < i+n; j++ {
		d := s[j] - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + int(d)
	}
	return v, true
}

// two reads the two decimal digits of s at i.
func two(s string, i int) (int, bool) {
	a, b := s[i]-'0', s[i+1]-'0'
	return int(a)*10 + int(b), a <= 9 && b <= 9
}

// civil is a day and a time of day as a file writes them.
type civil struct{ y, m, d, hh, mi, ss int }

// valid says whether c names a real day (2026-02-30 does not) and time.
func (c *civil) valid() bool {
	if c.m < 1 || c.m > 12 || c.d < 1 || c.hh > 23 || c.mi > 59 || c.ss > 59 {
		return false
	}
	days := monthDays[c.m]
	if c.m == 2 && c.y%4 == 0 && (c.y%100 != 0 || c.y%400 == 0) {
		days = 29
	}
	return c.d <= days
}

var monthDays = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// time is c in UTC (no zone meant), the same value time.Date gives, without its normalising.
func (c *civil) time() time.Time {
	// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil).
	y, m := c.y, c.m
	if m <= 2 {
		y--
	}
	era := y
	if era < 0 {
		era -= 399
	}
	era /= 400
	yoe := y - era*400
	mp := m + 9
	if m > 2 {
		mp = m - 3
	}
	doy := (153*mp+2)/5 + c.d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	days := int64(era*146097 + doe - 719468)
	return time.Unix(days*86400+int64(c.hh*3600+c.mi*60+c.ss), 0).UTC()
}

// appendISO appends c as YYYY-MM-DD, or YYYY-MM-DD HH:MM:SS when datetime.
func (c *civil) appendISO(b []byte, datetime bool) []byte {
	b = append(b, byte('0'+c.y/1000), byte('0'+c.y/100%10), byte('0'+c.y/10%10), byte('0'+c.y%10), '-',
		byte('0'+c.m/10), byte('0'+c.m%10), '-', byte('0'+c.d/10), byte('0'+c.d%10))
	if datetime {
		b = append(b, ' ', byte('0'+c.hh/10), byte('0'+c.hh%10), ':', byte('0'+c.mi/10), byte('0'+c.mi%10), ':', byte('0'+c.ss/10), byte('0'+c.ss%10))
	}
	return b
}

// parseDate accepts YYYY-MM-DD naming a real day.
func parseDate(s string) (time.Time, bool) {
	var c civil
	if !parseISO(s, false, &c) {
		return time.Time{}, false
	}
	return c.time(), true
}

// parseDatetime accepts YYYY-MM-DD HH:MM[:SS]; a bare date is midnight.
func parseDatetime(s string) (time.Time, bool) {
	var c civil
	if !parseISO(s, true, &c) {
		return time.Time{}, false
	}
	return c.time(), true
}

// parseISO reads YYYY-MM-DD and, when datetime, an optional HH:MM[:SS] after a space into c.
func parseISO(s string, datetime bool, c *civil) bool {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	hi, ok0 := two(s, 0)
	lo, ok1 := two(s, 2)
	m, ok2 := two(s, 5)
	d, ok3 := two(s, 8)
	if !ok0 || !ok1 || !ok2 || !ok3 {
		return false
	}
	c.y, c.m, c.d = hi*100+lo, m, d
	return c.clock(s[10:], datetime)
}

// clock reads the time of day rest (" HH:MM" or " HH:MM:SS", or nothing for midnight) into c,
// and checks c; only a date-time has a time of day.
func (c *civil) clock(rest string, datetime bool) bool {
	c.hh, c.mi, c.ss = 0, 0, 0
	if rest != "" {
		if !datetime || (len(rest) != 6 && len(rest) != 9) || rest[0] != ' ' || rest[3] != ':' {
			return false
		}
		hh, ok1 := two(rest, 1)
		mi, ok2 := two(rest, 4)
		ss, ok3 := 0, true
		if len(rest) == 9 {
			if rest[6] != ':' {
				return false
			}
			ss, ok3 = two(rest, 7)
		}
		if !ok1 || !ok2 || !ok3 {
			return false
		}
		c.hh, c.mi, c.ss = hh, mi, ss
	}
	return c.valid()
}

// parseDMY reads DD/MM/AAAA (DD/MM/AA when short: 00-69 are 2000-2069, 70-99 are 1970-1999)
// and, when datetime, an optional HH:MM[:SS] after a space into c.
func parseDMY(s string, datetime, short bool, c *civil) bool {
	n := len(DatesDMY)
	if short {
		n = len(DatesDMY2)
	}
	if len(s) < n || s[2] != '/' || s[5] != '/' {
		return false
	}
	d, ok1 := two(s, 0)
	m, ok2 := two(s, 3)
	y, ok3 := two(s, 6)
	if short {
		y += 1900
		if y < 1970 {
			y += 100
		}
	} else {
		lo, ok4 := two(s, 8)
		y, ok3 = y*100+lo, ok3 && ok4
	}
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	c.y, c.m, c.d = y, m, d
	return c.clock(s[n:], datetime)
}
