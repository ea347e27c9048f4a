package workspace

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// number converts field s of number column i: a float64, or nil for \N and the empty field.
// msg is the Portuguese problem, "" when the value is fine. A value that settles a decimal the
// file left open settles it for the rest of the file.
func (r *Rows) number(i int, s string) (any, string) {
	if s == Null || s == "" {
		return nil, ""
	}
	f := r.format
	if f.decimal == '.' { // the original format: -?digits(.digits)?
		if v, scale, ok := parsePlain(s); ok {
			if r.kinds[i].percent != 'n' {
				if msg := r.numberKind(i, s, number{}); msg != "" {
					return nil, msg
				}
			}
			r.scales[i] = max(r.scales[i], scale)
			return v, ""
		}
	}
	n, ok := splitNumber(s)
	if !ok {
		return nil, r.badNumber(s)
	}
	dec := f.decimal
	switch {
	case dec != 0:
		if !coreValid(n.core, dec) {
			return nil, r.badNumber(s)
		}
	case strings.ContainsAny(n.core, ".,"):
		dot, com := coreValid(n.core, '.'), coreValid(n.core, ',')
		seen := &sample{value: s, column: r.cols[i].Name, line: r.line}
		switch {
		case dot && com:
			return nil, f.ambiguousNumber(seen).Message
		case dot:
			f.decimal = '.'
		case com:
			f.decimal = ','
		default:
			return nil, r.badNumber(s)
		}
		f.decimalSeen, dec = seen, f.decimal
	default:
		dec = '.' // no separator: either reads the same
	}
	if msg := r.numberKind(i, s, n); msg != "" {
		return nil, msg
	}
	start := len(r.buf)
	var scale int
	r.buf, scale = appendCanonical(r.buf, n, dec)
	// ParseFloat keeps nothing of its argument, which the next value may overwrite.
	text := unsafe.String(&r.buf[start], len(r.buf)-start)
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		r.buf = r.buf[:start]
		return nil, r.badNumber(s)
	}
	if text == s {
		r.buf = r.buf[:start]
	} else {
		r.rewritten(i, start)
	}
	r.scales[i] = max(r.scales[i], scale)
	return v, ""
}

// parsePlain accepts -?digits(.digits)? and reports the decimals written.
func parsePlain(s string) (float64, int, bool) {
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

// numberKind checks value s (taken apart in n) of number column i against the column's other
// values and its unit in app.yaml: all with % or all without, one currency, and a unit that
// agrees with R$, US$ or %. It records what the value showed.
func (r *Rows) numberKind(i int, s string, n number) string {
	k := &r.kinds[i]
	mark := byte('n')
	if n.percent {
		mark = '%'
	}
	switch {
	case k.percent == 0:
		k.percent, k.first = mark, sample{value: s, line: r.line}
	case k.percent != mark:
		has, hasNot := "tem", "não tem"
		if !n.percent {
			has, hasNot = hasNot, has
		}
		return fmt.Sprintf("o valor %q %s %%, mas o da linha %d (%q) %s; escreva todos os números da coluna com %% ou todos sem (sem %%, o percentual vai como fração: 0.25 é 25%%)",
			s, has, k.first.line, k.first.value, hasNot)
	}
	unit := n.currency
	if n.percent {
		unit = "percent"
	}
	if unit == "" {
		return ""
	}
	if declared := r.cols[i].Unit; declared != "" && declared != unit {
		return fmt.Sprintf("o valor %q está em %s, mas a coluna tem unit %s no app.yaml; corrija o valor ou a unit", s, unitWords[unit], declared)
	}
	switch r.units[i] {
	case "":
		r.units[i] = unit
	case unit:
	default:
		return fmt.Sprintf("o valor %q está em %s, mas outros valores da coluna estão em %s; use uma moeda só por coluna", s, unitWords[unit], unitWords[r.units[i]])
	}
	return ""
}

var unitWords = map[string]string{"BRL": "reais (R$)", "USD": "dólares (US$)", "percent": "percentual (%)"}

// badNumber is the problem of a field that is no number in the file's format.
func (r *Rows) badNumber(s string) string {
	f := r.format
	words, examples := "", "1234.56, 1.234,56, R$ -10,00 ou 25%"
	switch f.decimal {
	case '.':
		words, examples = " com ponto decimal", "1234.56, 1,234.56, R$ -10.00 ou 25%"
	case ',':
		words, examples = " com vírgula decimal", "1234,56, 1.234,56, R$ -10,00 ou 25%"
	}
	msg := fmt.Sprintf("o valor %q não é um número%s (ex.: %s), nem \\N para nulo", s, words, examples)
	switch {
	case f.declared.Decimal != "":
		msg += fmt.Sprintf("; o decimal %q é o que declara csv.decimal %s", f.declared.Decimal, f.setting(""))
	case f.decimalSeen != nil:
		msg += fmt.Sprintf("; o decimal %q vem de %s; se não for esse, declare csv.decimal %s", string(f.decimal), f.decimalSeen.at(), f.setting(""))
	}
	return msg
}

// date converts field s of date or date-time column i: a time.Time, or nil for \N and the empty
// field. A value that settles the date format the file left open settles it for the rest.
func (r *Rows) date(i int, typ, s string) (any, string) {
	if s == Null || s == "" {
		return nil, ""
	}
	f := r.format
	dates := f.dates
	if dates == "" {
		family, order := dateFamily(s)
		seen := &sample{value: s, column: r.cols[i].Name, line: r.line}
		switch {
		case family == "":
			dates = DatesISO // refused below, as the original format says
		case family == DatesISO, order == dayFirstOrder:
			f.dates, f.datesSeen, dates = family, seen, family
		case order == eitherOrder:
			return nil, f.ambiguousDate(seen).Message
		default:
			dates = family // the month is over 12: refused below
		}
	}
	datetime := typ != "date"
	if dates == DatesISO {
		var t time.Time
		var ok bool
		if datetime {
			t, ok = parseDatetime(s)
		} else {
			t, ok = parseDate(s)
		}
		if !ok {
			return nil, r.badDate(s, datetime, dates)
		}
		return t, ""
	}
	t, ok := parseSlash(s, datetime, dates == DatesDMY2)
	if !ok {
		return nil, r.badDate(s, datetime, dates)
	}
	start := len(r.buf)
	r.buf = appendISO(r.buf, t, datetime)
	r.rewritten(i, start)
	return t, ""
}

// appendISO appends t as YYYY-MM-DD, or YYYY-MM-DD HH:MM:SS when datetime.
func appendISO(b []byte, t time.Time, datetime bool) []byte {
	y, m, d := t.Date()
	b = append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
	if datetime {
		hh, mm, ss := t.Clock()
		b = append(b, ' ', byte('0'+hh/10), byte('0'+hh%10), ':', byte('0'+mm/10), byte('0'+mm%10), ':', byte('0'+ss/10), byte('0'+ss%10))
	}
	return b
}

// badDate is the problem of a field that is no date (or date-time) in format dates.
func (r *Rows) badDate(s string, datetime bool, dates string) string {
	f := r.format
	var msg string
	switch {
	case dates == DatesISO && datetime:
		msg = fmt.Sprintf("o valor %q não é uma data e hora AAAA-MM-DD HH:MM[:SS] válida (ex.: 2026-09-30 14:05), nem \\N para nulo", s)
	case dates == DatesISO:
		msg = fmt.Sprintf("o valor %q não é uma data AAAA-MM-DD válida (ex.: 2026-09-30), nem \\N para nulo", s)
	default:
		shape, example := strings.ToUpper(dates), "30/09/2026"
		if dates == DatesDMY2 {
			example = "30/09/26"
		}
		if datetime {
			msg = fmt.Sprintf("o valor %q não é uma data e hora %s HH:MM[:SS] válida (ex.: %s 14:05), nem \\N para nulo", s, shape, example)
		} else {
			msg = fmt.Sprintf("o valor %q não é uma data %s válida (ex.: %s), nem \\N para nulo", s, shape, example)
		}
	}
	family, order := dateFamily(s)
	switch {
	case family != "" && family != DatesISO && order == monthFirstOrder:
		msg += "; o mês parece vir antes do dia, e mm/dd não é aceito: escreva dd/mm/aaaa ou AAAA-MM-DD"
	case family == dates || family == "":
	case f.declared.DateFormat != "":
		msg += fmt.Sprintf("; o formato %s é o que declara csv.dateFormat %s", dates, f.setting(""))
	case f.datesSeen != nil:
		msg += fmt.Sprintf("; o formato %s vem de %s; escreva todas as datas do mesmo jeito", dates, f.datesSeen.at())
	}
	return msg
}
