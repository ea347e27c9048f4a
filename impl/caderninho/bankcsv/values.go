package bankcsv

import (
	"fmt"
	"strings"
	"time"
)

// parseDay reads a date: DD/MM/AAAA (day and month may have one digit) when dayFirst, else
// AAAA-MM-DD; the year from 1900 to 2999, a day the month has. It returns the day as AAAA-MM-DD.
func parseDay(s string, dayFirst bool) (string, bool) {
	var y, m, d int64
	if dayFirst {
		parts := strings.Split(s, "/")
		if len(parts) != 3 || len(parts[2]) != 4 || len(parts[0]) < 1 || len(parts[0]) > 2 || len(parts[1]) < 1 || len(parts[1]) > 2 {
			return "", false
		}
		var ok1, ok2, ok3 bool
		d, ok1 = number(parts[0])
		m, ok2 = number(parts[1])
		y, ok3 = number(parts[2])
		if !ok1 || !ok2 || !ok3 {
			return "", false
		}
	} else {
		if len(s) != 10 || s[4] != '-' || s[7] != '-' {
			return "", false
		}
		var ok1, ok2, ok3 bool
		y, ok1 = number(s[:4])
		m, ok2 = number(s[5:7])
		d, ok3 = number(s[8:])
		if !ok1 || !ok2 || !ok3 {
			return "", false
		}
	}
	if y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return "", false
	}
	if time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC).Day() != int(d) {
		return "", false // 31 of a 30-day month, 29/02 of a common year
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d), true
}

// number reads decimal digits only.
func number(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n, true
}

// allDigits reports whether s is one or more decimal digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// looksLikeDate reports whether s is shaped as a date (digits and slashes or dashes), so that a
// generic table's row whose date cell is something else (a second header, a section title) ends
// the table, while a mistyped date is refused.
func looksLikeDate(s string) bool {
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '/' || c == '-' || c == '.':
		default:
			return false
		}
	}
	return digits >= 4
}

// maxWhole bounds the digits before the decimal separator: 15 digits and 2 decimals fit an
// int64 of centavos with room to spare (R$ 999 trilhões).
const maxWhole = 15

// parseAmount reads an amount in reais into centavos, exactly (never through floating point).
// With dotDecimal (Nubank): an optional sign, digits and at most two decimals after a dot, no
// thousands separator ("-1234.5"). With commaDecimal: an optional sign, before or after an
// optional "R$", digits in groups of three separated by dots (or none), and at most two decimals
// after a comma ("1.234,56", "-50,00", "R$ -7,5", "1234"). The reason is "" when it is read,
// else what is wrong and how the bank writes it.
func parseAmount(s string, decimal byte) (int64, string) {
	v := strings.ReplaceAll(s, " ", "")
	neg := false
	sign := func() {
		if v != "" && (v[0] == '-' || v[0] == '+') {
			neg = neg || v[0] == '-'
			v = v[1:]
		}
	}
	sign()
	if decimal == commaDecimal && strings.HasPrefix(v, "R$") {
		v = v[2:]
		if !neg {
			sign()
		}
	}
	example := "1.234,56 ou -50,00"
	sep, group := byte(','), byte('.')
	if decimal == dotDecimal {
		example, sep, group = "1234.56 ou -50.00, sem separador de milhar", '.', 0
	}
	whole, frac, hasFrac := strings.Cut(v, string(sep))
	bad := "não é um valor em reais como " + example + "; corrija a linha ou exporte o extrato de novo"
	if whole == "" || hasFrac && frac == "" {
		return 0, bad
	}
	if hasFrac && !allDigits(frac) {
		return 0, bad
	}
	if group != 0 && strings.IndexByte(whole, group) >= 0 {
		groups := strings.Split(whole, string(group))
		if len(groups[0]) < 1 || len(groups[0]) > 3 {
			return 0, bad
		}
		for _, g := range groups[1:] {
			if len(g) != 3 {
				return 0, bad
			}
		}
		whole = strings.Join(groups, "")
	}
	if !allDigits(whole) {
		return 0, bad
	}
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > maxWhole {
		return 0, fmt.Sprintf("tem mais de %d algarismos antes dos centavos; confira a linha", maxWhole)
	}
	if len(frac) > 2 {
		if strings.Trim(frac[2:], "0") != "" {
			return 0, "tem mais de duas casas decimais; o caderninho nunca arredonda um valor: confira a linha"
		}
		frac = frac[:2]
	}
	frac += strings.Repeat("0", 2-len(frac))
	n, _ := number(whole + frac)
	if whole == "" {
		n, _ = number(frac)
	}
	if neg {
		n = -n
	}
	return n, ""
}
