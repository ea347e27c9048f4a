package workspace

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// readCell reads the cell whose <c> tag the scanner is on into c.
func (r *xlsxRows) readCell(c *xlsxCell) bool {
	sc := r.sc
	typ := "n"
	if v, ok := sc.attr("t"); ok {
		typ = string(v) // a few constant strings: the compiler does not allocate for the switch
	}
	c.style = 0
	if v, ok := sc.attr("s"); ok {
		n, err := strconv.Atoi(string(v))
		if err == nil && n >= 0 {
			c.style = n
		}
	}
	c.kind = cellEmpty
	if sc.empty {
		return true
	}
	var value, inline []byte
	hasValue, hasInline, formula := false, false, false
	for sc.next() {
		if sc.isEnd("c") {
			break
		}
		switch {
		case sc.is("v"):
			v, ok := sc.readText(MaxValueBytes)
			if !ok {
				return false
			}
			value, hasValue = v, true
		case sc.is("f"):
			formula = true
			if !sc.skipElement() {
				return false
			}
		case sc.is("is"):
			t, ok := r.readRich("is")
			if !ok {
				return false
			}
			inline, hasValue, hasInline = t, true, true
		default:
			if !sc.end && !sc.skipElement() {
				return false
			}
		}
	}
	if sc.err != nil {
		return false
	}
	if hasValue && len(value) == 0 && !hasInline && typ != "str" {
		hasValue = false // <v/>
	}
	if !hasValue {
		if formula {
			c.kind = cellNoValue
		}
		return true
	}
	switch typ {
	case "s":
		n, err := strconv.Atoi(string(value))
		s, ok := r.sst.get(n)
		if err != nil || !ok {
			r.err = &Error{File: r.file, Message: fmt.Sprintf("a célula aponta para o texto compartilhado %q, que a planilha não tem; o arquivo parece corrompido", value)}
			return false
		}
		c.kind, c.raw = cellText, s
	case "inlineStr":
		c.kind, c.raw = cellText, r.keep(inline)
	case "str":
		c.kind, c.raw = cellText, r.keep(value)
	case "b":
		c.kind, c.raw = cellBool, string(value)
	case "e":
		c.kind, c.raw = cellError, string(value)
	case "d":
		c.kind, c.raw = cellISODate, string(value)
	default:
		f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(value), len(value)), 64)
		if err != nil {
			r.err = &Error{File: r.file, Message: fmt.Sprintf("a célula deveria ter um número, mas tem %q; o arquivo parece corrompido", value)}
			return false
		}
		c.kind, c.num = cellNumber, f
		c.raw = unsafe.String(unsafe.SliceData(value), len(value)) // until the next readText
	}
	return true
}

// readRich reads the text of a rich-text element (<is> or <si>): its <t> texts, directly or in
// runs (<r>), but not the phonetic ones (<rPh>), at most MaxValueBytes in all.
func (r *xlsxRows) readRich(end string) ([]byte, bool) {
	return readRich(r.sc, end, &r.rich)
}

func readRich(sc *xmlScanner, end string, buf *[]byte) ([]byte, bool) {
	out := (*buf)[:0]
	if sc.empty {
		return out, true
	}
	for sc.next() {
		switch {
		case sc.isEnd(end):
			*buf = out
			return out, true
		case sc.is("rPh"):
			if !sc.skipElement() {
				return nil, false
			}
		case sc.is("t"):
			t, ok := sc.readText(MaxValueBytes - len(out))
			if !ok {
				return nil, false
			}
			out = append(out, t...)
		}
	}
	if sc.err == nil {
		sc.err = errBadXML
	}
	return nil, false
}

// arena bytes that strings point into: only ever appended to (see csvRows.keep).
func (r *xlsxRows) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(r.arena)+len(b) > cap(r.arena) {
		r.arena = make([]byte, 0, max(arenaSize, len(b)))
	}
	start := len(r.arena)
	r.arena = append(r.arena, b...)
	return unsafe.String(&r.arena[start], len(b))
}

// headerText is the name a header cell gives, or the problem.
func (r *xlsxRows) headerText(c *xlsxCell) (string, string) {
	switch c.kind {
	case cellText:
		return strings.Clone(c.raw), ""
	case cellNumber:
		return strconv.FormatFloat(round15(c.num), 'f', -1, 64), ""
	}
	return "", "o cabeçalho precisa ter em cada coluna o seu nome físico, como texto"
}

func (r *xlsxRows) style(c *xlsxCell) cellStyle {
	if c.style < len(r.styles) {
		return r.styles[c.style]
	}
	return cellStyle{}
}

// convert is cell c, in table column i, as a value of the column's type, or the problem.
func (r *xlsxRows) convert(i int, c *xlsxCell, cellCol, cellRow int) (any, string) {
	col := r.cols[i]
	st := r.style(c)
	switch c.kind {
	case cellError:
		return nil, fmt.Sprintf("a célula tem o erro %s (de uma fórmula); corrija-a ou apague o valor", c.raw)
	case cellNoValue:
		return nil, "a célula tem uma fórmula sem resultado guardado; abra a planilha no Excel e salve-a de novo, que o Excel grava o resultado"
	}
	switch col.Type {
	case semantic.TypeNumber:
		switch c.kind {
		case cellNumber:
			if st.date {
				return nil, fmt.Sprintf("a célula tem a data %s, e a coluna %q é número; tire o formato de data da célula ou declare a coluna date ou datetime no app.yaml", r.serialWords(c.num), col.Name)
			}
			if msg := r.unit(i, st, cellCol, cellRow); msg != "" {
				return nil, msg
			}
			return r.number(i, c), ""
		case cellBool:
			r.texts[i] = c.raw
			return boxFloat(float64(c.raw[0] - '0')), ""
		case cellText:
			if strings.TrimSpace(c.raw) == "" {
				return nil, ""
			}
			msg := fmt.Sprintf("a célula tem o texto %q, e a coluna %q é número", c.raw, col.Name)
			if _, err := strconv.ParseFloat(strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(c.raw), ".", ""), ",", "."), 64); err == nil {
				return nil, msg + "; é um número guardado como texto: no Excel, converta-o em número (o aviso da célula, Converter em Número) e salve de novo"
			}
			return nil, msg + "; corrija o valor ou apague-o"
		case cellISODate:
			return nil, fmt.Sprintf("a célula tem a data %s, e a coluna %q é número", c.raw, col.Name)
		}
	case semantic.TypeDate, semantic.TypeDatetime:
		datetime := col.Type == semantic.TypeDatetime
		var cv civil
		switch c.kind {
		case cellNumber:
			var ok bool
			if cv, ok = serialCivil(c.num, r.date1904); !ok {
				return nil, fmt.Sprintf("o número %s não é uma data do Excel (os dias vão de 1 = 01/01/1900 a 2958465 = 31/12/9999), e a coluna %q é %s", c.raw, col.Name, typeWords[col.Type])
			}
		case cellISODate, cellText:
			s := strings.TrimSpace(c.raw)
			if s == "" {
				return nil, ""
			}
			if c.kind == cellISODate {
				s = strings.TrimSuffix(strings.Replace(s, "T", " ", 1), "Z")
				if i := strings.IndexByte(s, '.'); i > 0 {
					s = s[:i]
				}
				if !datetime && len(s) > 10 && strings.HasSuffix(s, " 00:00:00") {
					s = s[:10]
				}
			}
			// A date written as text reads as a CSV's does: AAAA-MM-DD or DD/MM/AAAA (with the
			// time on a date-time column).
			if !parseISO(s, datetime, &cv) && !(c.kind == cellText && parseDMY(s, datetime, false, &cv)) {
				if c.kind == cellText {
					hour := map[bool]string{true: " HH:MM[:SS]"}[datetime]
					return nil, fmt.Sprintf("a célula tem o texto %q, e a coluna %q é %s; no Excel, guarde a data como data (não como texto) ou escreva-a DD/MM/AAAA%s ou AAAA-MM-DD%s",
						c.raw, col.Name, typeWords[col.Type], hour, hour)
				}
				return nil, fmt.Sprintf("a data %q da célula não é válida para a coluna %q (%s)", c.raw, col.Name, typeWords[col.Type])
			}
		default:
			return nil, fmt.Sprintf("a célula tem %s, e a coluna %q é %s", kindWords(c), col.Name, typeWords[col.Type])
		}
		if !datetime && (cv.hh != 0 || cv.mi != 0 || cv.ss != 0) {
			return nil, fmt.Sprintf("a célula tem data e hora (%s), e a coluna %q é só data; declare-a datetime no app.yaml ou tire a hora", civilWords(cv), col.Name)
		}
		r.civils[i] = cv
		r.pend[i] = pendDate
		if datetime {
			r.pend[i] = pendDatetime
		}
		return cv.time(), ""
	default:
		switch c.kind {
		case cellText:
			r.texts[i] = c.raw
			return c.raw, ""
		case cellBool:
			s := "FALSO"
			if c.raw == "1" {
				s = "VERDADEIRO"
			}
			r.texts[i] = s
			return s, ""
		case cellISODate:
			s := r.keep([]byte(c.raw))
			r.texts[i] = s
			return s, ""
		case cellNumber:
			var s string
			if cv, ok := serialCivil(c.num, r.date1904); ok && st.date {
				b := cv.appendISO(nil, cv.hh != 0 || cv.mi != 0 || cv.ss != 0)
				s = r.keep(b)
			} else {
				scale := r.scales[i]
				r.number(i, c)
				s, r.scales[i] = r.Text(i), scale
			}
			r.texts[i], r.pend[i] = s, 0
			return s, ""
		}
	}
	return nil, fmt.Sprintf("a célula tem %s, e a coluna %q é %s", kindWords(c), col.Name, typeWords[col.Type])
}

func kindWords(c *xlsxCell) string {
	switch c.kind {
	case cellBool:
		if c.raw == "1" {
			return "o valor lógico VERDADEIRO"
		}
		return "o valor lógico FALSO"
	case cellText:
		return fmt.Sprintf("o texto %q", c.raw)
	case cellNumber:
		return "o número " + c.raw
	}
	return "o valor " + c.raw
}

// number is number cell c of column i, rounded to the 15 significant digits Excel keeps, with
// its text and scale.
func (r *xlsxRows) number(i int, c *xlsxCell) any {
	raw := c.raw
	if plainDigits(raw) <= 15 {
		// As written: Excel's own value, and its text in the original format.
		r.texts[i], r.pend[i] = r.keep(unsafe.Slice(unsafe.StringData(raw), len(raw))), 0
		if dot := strings.IndexByte(raw, '.'); dot >= 0 {
			r.scales[i] = max(r.scales[i], len(raw)-dot-1)
		}
		return boxFloat(c.num)
	}
	v := round15(c.num)
	r.nums[i], r.pend[i] = v, pendFloat
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if dot := strings.IndexByte(s, '.'); dot >= 0 {
		r.scales[i] = max(r.scales[i], len(s)-dot-1)
	}
	return boxFloat(v)
}

// pendFloat is a number Text formats from nums.
const pendFloat = 10

// plainDigits is how many significant digits raw has when it is -?digits(.digits)?, and 99
// otherwise (an exponent, say).
func plainDigits(raw string) int {
	n, sig, dot := 0, false, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c >= '0' && c <= '9':
			if c != '0' || sig {
				sig = true
				n++
			}
		case c == '.' && !dot && i > 0:
			dot = true
		case c == '-' && i == 0:
		default:
			return 99
		}
	}
	if len(raw) == 0 || raw[len(raw)-1] == '.' {
		return 99
	}
	return n
}

// round15 is v with the 15 significant digits Excel keeps and shows: a formula's result such as
// 0.1+0.2 is stored as 0.30000000000000004, and Excel says 0.3.
func round15(v float64) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	f, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 15, 64), 64)
	if err != nil {
		return v
	}
	return f
}

// unit records the unit cell's format shows for column i, refusing one that disagrees with
// app.yaml or with another cell of the column.
func (r *xlsxRows) unit(i int, st cellStyle, cellCol, cellRow int) string {
	u := st.currency
	if st.percent {
		u = "percent"
	}
	if u == "" {
		return ""
	}
	col := r.cols[i]
	if col.Unit != "" && col.Unit != u {
		return fmt.Sprintf("a célula tem formato de %s, mas a coluna %q tem unit %s no app.yaml; corrija o formato ou a unit", unitWords[u], col.Name, col.Unit)
	}
	switch r.units[i] {
	case "":
		r.units[i], r.unitAt[i] = u, cellName(cellCol, cellRow)
	case u:
	default:
		return fmt.Sprintf("a célula tem formato de %s, mas a célula %s da coluna %q tem formato de %s; use uma unidade só por coluna", unitWords[u], r.unitAt[i], col.Name, unitWords[r.units[i]])
	}
	return ""
}

// serialCivil is Excel date serial v as a day and time (to the nearest second): in the 1900
// system day 1 is 1900-01-01 and day 60 the 29th of February 1900 Excel counts though it never
// was; in the 1904 system day 0 is 1904-01-01.
func serialCivil(v float64, date1904 bool) (civil, bool) {
	if math.IsNaN(v) || v < 0 || v >= 2958466 {
		return civil{}, false
	}
	days := math.Floor(v)
	secs := math.Round((v - days) * 86400)
	if secs >= 86400 {
		days++
		secs -= 86400
	}
	d := int64(days)
	var unixDays int64
	if date1904 {
		unixDays = d + 1462 - 25569
	} else {
		if d < 1 || d == 60 || d > 2958465 {
			return civil{}, false
		}
		if d < 60 {
			d++ // before Excel's 1900-02-29
		}
		unixDays = d - 25569
	}
	t := time.Unix(unixDays*86400+int64(secs), 0).UTC()
	return civil{y: t.Year(), m: int(t.Month()), d: t.Day(), hh: t.Hour(), mi: t.Minute(), ss: t.Second()}, true
}

// serialWords is serial v as dd/mm/aaaa (with the time when it has one), for messages.
func (r *xlsxRows) serialWords(v float64) string {
	c, ok := serialCivil(v, r.date1904)
	if !ok {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return civilWords(c)
}

func civilWords(c civil) string {
	s := fmt.Sprintf("%02d/%02d/%04d", c.d, c.m, c.y)
	if c.hh != 0 || c.mi != 0 || c.ss != 0 {
		s += fmt.Sprintf(" %02d:%02d:%02d", c.hh, c.mi, c.ss)
	}
	return s
}

// Columns are the table's columns; Values follow this order.
func (r *xlsxRows) Columns() []*semantic.Column { return r.cols }

// Next reads the next row of the sheet or range with a value, skipping empty ones (also the
// formatted but empty rows a sheet often ends with).
func (r *xlsxRows) Next() bool {
	for r.err == nil && !r.done {
		clear(r.pend)
		if _, ok := r.readRow(false); !ok {
			return false
		}
		if r.skip {
			continue
		}
		for _, v := range r.vals {
			if v != nil {
				r.count++
				return true
			}
		}
	}
	return false
}

// Values is the current row in Columns order.
func (r *xlsxRows) Values() []any { return r.vals }

// Text is the current row's value of column i in the original CSV format.
func (r *xlsxRows) Text(i int) string {
	switch r.pend[i] {
	case pendDate, pendDatetime:
		r.scratch = r.civils[i].appendISO(r.scratch[:0], r.pend[i] == pendDatetime)
		r.texts[i] = r.keep(r.scratch)
	case pendFloat:
		r.scratch = strconv.AppendFloat(r.scratch[:0], r.nums[i], 'f', -1, 64)
		r.texts[i] = r.keep(r.scratch)
	default:
		return r.texts[i]
	}
	r.pend[i] = 0
	return r.texts[i]
}

// Line is the sheet row of the current row.
func (r *xlsxRows) Line() int { return r.line }

// Count is how many rows were read so far.
func (r *xlsxRows) Count() int64 { return r.count }

// Scales are, per column, the most decimals seen in a number so far.
func (r *xlsxRows) Scales() []int { return r.scales }

// Units are, per column, the unit the cells' number formats showed (R$, US$, %).
func (r *xlsxRows) Units() []string { return r.units }

// Description is `vendas.xlsx: planilha "Vendas", 1.234 linhas`.
func (r *xlsxRows) Description() string {
	s := r.file + ": " + r.where
	if r.above > 0 { // a title or groups of columns above it: which row is the header
		s += fmt.Sprintf(", cabeçalho na linha %d", r.hdr)
	}
	s += ", " + ptbr.Count(int(r.count), "linha", "linhas")
	if r.date1904 {
		s += ", datas no sistema 1904"
	}
	return s + skippedWords(r.skipped)
}

// Err is the first error met; nil at a clean end.
func (r *xlsxRows) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// Close releases the file.
func (r *xlsxRows) Close() error {
	if r.part != nil {
		r.part.Close()
	}
	if r.f == nil {
		return nil
	}
	return r.f.Close()
}
