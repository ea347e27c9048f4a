// Package ptbr formats numbers, dates and plurals the Brazilian way for client-facing text.
package ptbr

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Brasilia is the fixed -03:00 offset every client-facing time is shown in (Brazil has no DST).
var Brasilia = time.FixedZone("-03", -3*60*60)

// DateTime renders t as 15/10/2026 03:00 in Brasília time.
func DateTime(t time.Time) string { return t.In(Brasilia).Format("02/01/2006 15:04") }

// Date renders t as 15/10/2026 in Brasília time.
func Date(t time.Time) string { return t.In(Brasilia).Format("02/01/2006") }

// ISO renders t as ISO 8601 at -03:00 (2026-10-15T03:00:00-03:00).
func ISO(t time.Time) string { return t.In(Brasilia).Format(time.RFC3339) }

// Int renders n with dots between thousands: 1.000.000.
func Int(n int64) string {
	s := strconv.FormatInt(n, 10)
	if strings.HasPrefix(s, "-") {
		return "-" + groupThousands(s[1:])
	}
	return groupThousands(s)
}

// groupThousands puts dots between groups of three in a string of digits of any length.
func groupThousands(digits string) string {
	var b strings.Builder
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Plural picks one or many by n.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count renders "1 Aplicação" / "3 Aplicações".
func Count(n int, one, many string) string { return Int(int64(n)) + " " + Plural(n, one, many) }

// List joins items as "a, b e c".
func List(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " e " + items[len(items)-1]
}

// QuotedOptions is the items quoted as Go strings, as alternatives: "a", "b" ou "c".
func QuotedOptions(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = strconv.Quote(s)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " ou " + q[len(q)-1]
}

var typeWords = map[string]string{"string": "texto", "number": "número", "date": "data", "datetime": "data e hora"}

// ColumnType names a column type in Portuguese.
func ColumnType(t string) string {
	if w, ok := typeWords[t]; ok {
		return w
	}
	return t
}

var roleWords = map[string]string{"dimension": "dimensão", "measure": "medida", "key": "chave técnica"}

// Role names a column role in Portuguese.
func Role(r string) string {
	if w, ok := roleWords[r]; ok {
		return w
	}
	return r
}

// TableKind names a table kind in Portuguese.
func TableKind(k string) string {
	if k == "fact" {
		return "fato"
	}
	return "dimensão"
}

// Huge is the magnitude from which Number writes scientific notation: 10^15, about where float64
// stops holding every integer (2^53), so no more digits are printed than the value has.
const Huge = 1e15

// Number renders f the Brazilian way (1.234.567,89) with exactly decimals digits after the comma,
// or, when decimals < 0, as many as it needs (up to 6). From Huge on it is scientific with three
// significant digits (9,99 × 10^308), whatever decimals says; infinities are ∞ and -∞ and NaN is
// "indefinido".
func Number(f float64, decimals int) string {
	switch {
	case math.IsNaN(f):
		return "indefinido"
	case math.IsInf(f, 1):
		return "∞"
	case math.IsInf(f, -1):
		return "-∞"
	case math.Abs(f) >= Huge:
		mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', 2, 64), "e")
		return strings.Replace(mant, ".", ",", 1) + " × 10^" + strings.TrimLeft(strings.TrimPrefix(exp, "+"), "0")
	}
	var s string
	if decimals < 0 {
		s = strconv.FormatFloat(f, 'f', -1, 64)
		if i := strings.IndexByte(s, '.'); i >= 0 && len(s)-i-1 > 6 {
			s = strings.TrimRight(strconv.FormatFloat(f, 'f', 6, 64), "0")
		}
	} else {
		s = strconv.FormatFloat(f, 'f', decimals, 64)
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	out := groupThousands(intPart)
	if frac != "" {
		out += "," + frac
	}
	if neg && strings.Trim(out, "0,.") != "" {
		out = "-" + out
	}
	return out
}

var (
	monthNames   = [...]string{"jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"}
	weekdayNames = [...]string{"dom", "seg", "ter", "qua", "qui", "sex", "sáb"}
)

// MonthName is the abbreviated name of month 1..12 ("jan"), "" outside.
func MonthName(m int) string {
	if m < 1 || m > 12 {
		return ""
	}
	return monthNames[m-1]
}

// WeekdayName is the abbreviated name of day 0..6 of the week, 0 Sunday ("dom"), "" outside.
func WeekdayName(d int) string {
	if d < 0 || d > 6 {
		return ""
	}
	return weekdayNames[d]
}

// Amount is a measure in a currency as Money writes minor units, the sign before the symbol:
// R$ 1.234,56, -R$ 966,75, US$ 10,00.
func Amount(f float64, currency string) string {
	n := Number(f, 2)
	if rest, neg := strings.CutPrefix(n, "-"); neg {
		return "-" + currencySymbols[currency] + " " + rest
	}
	return currencySymbols[currency] + " " + n
}

// Measure renders a number with its unit: R$ 4.695.447,08, US$ 10,00, 25,0%, 756 s.
// decimals is the scale of the value (ignored for money, which shows 2, and percent, which shows 1).
func Measure(f float64, unit string, decimals int) string {
	switch unit {
	case "BRL", "USD", "GBP":
		return Amount(f, unit)
	case "percent":
		return Number(f*100, 1) + "%"
	case "seconds":
		return Number(f, min(decimals, 1)) + " s"
	case "minutes":
		return Number(f, min(decimals, 1)) + " min"
	case "bytes":
		return Number(f, 0) + " bytes"
	}
	if decimals > 4 {
		decimals = 4
	}
	return Number(f, decimals)
}
