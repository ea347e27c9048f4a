package workspace

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"
)

// number converts field s of number column i: a float64, or nil for \N and the empty field.
// msg is the Portuguese problem, "" when the value is fine. A value that settles a decimal the
// file left open settles it for the rest of the file.
func (r *csvRows) number(i int, s string) (any, string) {
	if s == Null || s == "" {
		return nil, ""
	}
	f := r.format
	// Most values are bare: digits and separators, perhaps after a minus.
	var n number
	bare := isDigit(s[len(s)-1]) && (isDigit(s[0]) || (s[0] == '-' && len(s) > 1 && isDigit(s[1])))
	if bare {
		n.neg = s[0] == '-'
		n.core = s
		if n.neg {
			n.core = s[1:]
		}
	} else if !splitNumber(s, &n) {
		return nil, r.badNumber(s)
	}
	dec := f.decimal
	if dec == 0 {
		if !strings.ContainsAny(n.core, ".,") {
			dec = '.' // no separator: either reads the same
		} else {
			dot, com := coreValid(n.core, '.'), coreValid(n.core, ',')
			seen := &sample{value: s, column: r.cols[i].SourceName(), line: r.line}
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
		}
	}
	m, scale, grouped, big, ok := scanCore(n.core, dec)
	if !ok {
		return nil, r.badNumber(s)
	}
	if k := r.kinds[i].percent; (k != 'n' || n.percent || n.currency != "") && !(k == '%' && n.percent && r.units[i] == "percent") &&
		!(k == 'n' && n.currency != "" && r.units[i] == n.currency) {
		if msg := r.numberKind(i, s, n); msg != "" {
			return nil, msg
		}
	}
	valueScale := scale
	if n.percent {
		valueScale += 2
	}
	r.scales[i] = max(r.scales[i], valueScale)
	asWritten := bare && !grouped && (scale == 0 || dec == '.') // Text is s itself
	if !asWritten {
		r.dressed = true
	}
	if !big && m <= 1<<53 && valueScale < len(pow10) {
		// Both exact in a float64, so the division rounds as ParseFloat does (Clinger's fast
		// path).
		v := float64(m) / pow10[valueScale]
		if n.neg {
			v = -v
		}
		if !asWritten { // Text writes it when asked
			p := &r.pend[i]
			p.kind, p.neg, p.m, p.scale, p.core, p.dec = pendPlain, n.neg, m, valueScale, n.core, dec
			if n.percent {
				p.kind = pendPercent
			}
		}
		return boxFloat(v), ""
	}
	if asWritten {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, r.badNumber(s)
		}
		return v, ""
	}
	start := len(r.buf)
	r.buf, _ = appendCanonical(r.buf, n, dec)
	// ParseFloat keeps nothing of its argument, which the next value may overwrite.
	v, err := strconv.ParseFloat(unsafe.String(&r.buf[start], len(r.buf)-start), 64)
	if err != nil {
		r.buf = r.buf[:start]
		return nil, r.badNumber(s)
	}
	r.rewritten(i, start)
	return v, ""
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// scanCore reads core (digits and separators) as a number with decimal dec, in one pass: the
// digits as an integer m (big when they pass 19) and scale decimals. The integer part may group
// its digits by threes with the other separator (grouped): the first group of 1 to 3 digits,
// not starting with 0. ok is false for anything else.
func scanCore(core string, dec byte) (m uint64, scale int, grouped, big, ok bool) {
	thou := byte(',')
	if dec == ',' {
		thou = '.'
	}
	group, intDigits, sig := 0, 0, 0
	i := 0
	for ; i < len(core); i++ {
		c := core[i]
		switch {
		case isDigit(c):
			group++
			intDigits++
			if sig < 19 {
				m = m*10 + uint64(c-'0')
				if m != 0 {
					sig++
				}
			} else {
				big = true
			}
			continue
		case c == thou:
			if grouped {
				if group != 3 {
					return 0, 0, false, false, false
				}
			} else if group == 0 || group > 3 || core[0] == '0' {
				return 0, 0, false, false, false
			}
			grouped, group = true, 0
			continue
		}
		break
	}
	if intDigits == 0 || (grouped && group != 3) {
		return 0, 0, false, false, false
	}
	if i < len(core) {
		if core[i] != dec || i == len(core)-1 {
			return 0, 0, false, false, false
		}
		for i++; i < len(core); i++ {
			c := core[i]
			if !isDigit(c) {
				return 0, 0, false, false, false
			}
			scale++
			if sig < 19 {
				m = m*10 + uint64(c-'0')
				if m != 0 {
					sig++
				}
			} else {
				big = true
			}
		}
	}
	return m, scale, grouped, big, true
}

// appendPlain appends core, a number scanCore accepted with decimal dec, as
// -?digits(.digits)?: without its thousands separators, with a decimal point.
func appendPlain(b []byte, neg bool, core string, dec byte) []byte {
	if neg {
		b = append(b, '-')
	}
	for i := 0; i < len(core); i++ {
		switch c := core[i]; {
		case isDigit(c):
			b = append(b, c)
		case c == dec:
			b = append(b, '.')
		}
	}
	return b
}

// appendDecimal appends -?m/10^scale as -?digits(.digits)?, with one digit before the point.
func appendDecimal(b []byte, neg bool, m uint64, scale int) []byte {
	if neg {
		b = append(b, '-')
	}
	var d [24]byte
	digs := strconv.AppendUint(d[:0], m, 10)
	if len(digs) > scale {
		b = append(b, digs[:len(digs)-scale]...)
		digs = digs[len(digs)-scale:]
	} else {
		b = append(b, '0')
	}
	if scale > 0 {
		b = append(b, '.')
		for range scale - len(digs) { // 5 with scale 3 is 0.005
			b = append(b, '0')
		}
		b = append(b, digs...)
	}
	return b
}

// smallFloats are the integers 0 to 1023 as boxed float64s: a value of an interface type
// otherwise allocates for every number, and small integers (quantities, instalments, codes)
// are the most common numbers.
var smallFloats = func() (b [1024]any) {
	for i := range b {
		b[i] = float64(i)
	}
	return b
}()

func boxFloat(v float64) any {
	if v >= 0 && v < float64(len(smallFloats)) && v == float64(int(v)) && !math.Signbit(v) {
		return smallFloats[int(v)]
	}
	return v
}

// numberKind checks value s (taken apart in n) of number column i against the column's other
// values and its unit in app.yaml: all with % or all without, one currency, and a unit that
// agrees with R$, US$ or %. It records what the value showed.
func (r *csvRows) numberKind(i int, s string, n number) string {
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
func (r *csvRows) badNumber(s string) string {
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
		msg += fmt.Sprintf("; o decimal %q é o que declara csv.decimal %s", f.declared.Decimal, f.where())
	case f.decimalSeen != nil:
		msg += fmt.Sprintf("; o decimal %q vem de %s; se não for esse, declare csv.decimal %s", string(f.decimal), f.decimalSeen.at(), f.where())
	}
	return msg
}

// date converts field s of date or date-time column i: a time.Time, or nil for \N and the empty
// field. A value that settles the date format the file left open settles it for the rest.
func (r *csvRows) date(i int, typ, s string) (any, string) {
	if s == Null || s == "" {
		return nil, ""
	}
	f := r.format
	dates := f.dates
	if dates == "" {
		family, order := dateFamily(s)
		seen := &sample{value: s, column: r.cols[i].SourceName(), line: r.line}
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
	var c civil
	if dates == DatesISO {
		if !parseISO(s, datetime, &c) {
			return nil, r.badDate(s, datetime, dates)
		}
		return r.boxTime(&c, datetime), ""
	}
	if !parseDMY(s, datetime, dates == DatesDMY2, &c) {
		return nil, r.badDate(s, datetime, dates)
	}
	p := &r.pend[i] // Text writes it when asked
	p.kind, p.c = pendDate, c
	if datetime {
		p.kind = pendDatetime
	}
	return r.boxTime(&c, datetime), ""
}

// boxTime is c as a time.Time in an interface. Days repeat in most files, so a day (not a
// date-time) comes from a small cache of boxed days: boxing allocates otherwise.
func (r *csvRows) boxTime(c *civil, datetime bool) any {
	if datetime {
		return c.time()
	}
	key := int32(c.y*372 + c.m*31 + c.d)
	e := &r.days[int(key)&(len(r.days)-1)]
	if e.key != key || e.v == nil {
		e.key, e.v = key, c.time()
	}
	return e.v
}

// badDate is the problem of a field that is no date (or date-time) in format dates.
func (r *csvRows) badDate(s string, datetime bool, dates string) string {
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
		msg += fmt.Sprintf("; o formato %s é o que declara csv.dateFormat %s", dates, f.where())
	case f.datesSeen != nil:
		msg += fmt.Sprintf("; o formato %s vem de %s; escreva todas as datas do mesmo jeito", dates, f.datesSeen.at())
	}
	return msg
}
