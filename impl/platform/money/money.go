// Package money handles exact amounts as integers of a currency's minor unit (ISO 4217 exponent).
package money

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"

	"golang.org/x/text/currency"
)

// exponents lists the ISO 4217 currencies whose minor unit is not 2 digits (ISO 4217 amendment 176).
var exponents = map[string]int{
	"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
	"UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	"BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
	"CLF": 4, "UYW": 4,
}

// noMinorUnit lists ISO 4217 codes without a minor unit (precious metals, testing, no currency):
// they are not money an account can be kept in.
var noMinorUnit = map[string]bool{
	"XAG": true, "XAU": true, "XBA": true, "XBB": true, "XBC": true, "XBD": true, "XDR": true,
	"XPD": true, "XPT": true, "XSU": true, "XTS": true, "XUA": true, "XXX": true,
}

// Exponent returns the number of minor-unit digits of an ISO 4217 currency code (2 for BRL and
// USD, 0 for JPY, 3 for KWD). ok is false for a code that is not an ISO 4217 currency.
func Exponent(code string) (exp int, ok bool) {
	if len(code) != 3 || strings.ToUpper(code) != code || noMinorUnit[code] {
		return 0, false
	}
	if _, err := currency.ParseISO(code); err != nil {
		return 0, false
	}
	if e, ok := exponents[code]; ok {
		return e, true
	}
	return 2, true
}

// Errors of ParseDecimal; the messages are Portuguese because they reach the operator.
var (
	ErrSyntax    = errors.New("não é um número (use dígitos, com vírgula ou ponto antes dos centavos)")
	ErrPrecision = errors.New("tem mais casas decimais do que a moeda permite")
	ErrRange     = errors.New("é grande demais")
	// ErrSeparators: more than one separator, which only a thousands grouping would write.
	ErrSeparators = errors.New("tem mais de um separador; o OFX não usa separador de milhar: " +
		"o valor leva só dígitos e um ponto ou vírgula antes dos centavos, como 1000.50")
	// ErrAmbiguous: one separator followed by exactly three digits, in a currency with fewer
	// decimals, reads as a thousands group as well as decimals.
	ErrAmbiguous = errors.New("é ambíguo: três dígitos depois do separador podem ser milhar ou casas decimais; " +
		"o OFX não usa separador de milhar: escreva o valor só com dígitos e um ponto antes das casas decimais da moeda (1000 ou 1.00 em reais)")
)

// ParseDecimal reads a decimal amount written by a bank into minor units of a currency with exp
// digits: "-2400.00", "383,43", "+10", ".5", "7,". OFX has no thousands separator, so the one
// rule is: at most one separator, a dot or a comma, and it is the decimal separator. A second
// separator ("1.234,56", "1.234.567") is ErrSeparators; exactly three digits after one to three
// digits not starting with 0, in a currency with fewer than three decimals ("1.000", "1,000",
// "250.500" in BRL), could be a thousands group and is ErrAmbiguous ("0.500", ".500" and
// "1234.500" cannot be; in a three-decimal currency, such as KWD, "1.000" is one unit). Digits beyond
// exp must be zeros: an amount is never rounded.
func ParseDecimal(s string, exp int) (int64, error) {
	s = strings.TrimSpace(s)
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	if s == "" {
		return 0, ErrSyntax
	}
	intPart, frac, err := splitDecimal(s, exp)
	if err != nil {
		return 0, err
	}
	if len(frac) > exp {
		if strings.Trim(frac[exp:], "0") != "" {
			return 0, ErrPrecision
		}
		frac = frac[:exp]
	}
	// The digits of intPart, frac and exp-len(frac) zeros, read without building them: this
	// runs for every transaction of a statement.
	var n int64
	nd := 0 // significant digits so far
	push := func(c byte) bool {
		if nd > 0 || c != '0' {
			nd++
		}
		if nd > 18 {
			return false
		}
		n = n*10 + int64(c-'0')
		return true
	}
	for i := 0; i < len(intPart); i++ {
		if !push(intPart[i]) {
			return 0, ErrRange
		}
	}
	for i := 0; i < exp; i++ {
		c := byte('0')
		if i < len(frac) {
			c = frac[i]
		}
		if !push(c) {
			return 0, ErrRange
		}
	}
	if neg {
		n = -n
	}
	return n, nil
}

// splitDecimal splits unsigned s into its integer digits and fraction digits.
func splitDecimal(s string, exp int) (whole, frac string, err error) {
	for _, c := range s {
		if (c < '0' || c > '9') && c != '.' && c != ',' {
			return "", "", ErrSyntax
		}
	}
	whole = s
	switch strings.Count(s, ".") + strings.Count(s, ",") {
	case 0:
	case 1:
		i := strings.IndexAny(s, ".,")
		whole, frac = s[:i], s[i+1:]
		// A thousands group is three digits after one to three digits not starting with 0.
		if len(frac) == 3 && exp < 3 && len(whole) >= 1 && len(whole) <= 3 && whole[0] != '0' {
			return "", "", ErrAmbiguous
		}
	default:
		return "", "", ErrSeparators
	}
	if whole == "" && frac == "" {
		return "", "", ErrSyntax
	}
	return whole, frac, nil
}

// Format writes minor units as a plain decimal with exp digits: 123456, 2 -> "1234.56".
func Format(minor *big.Int, exp int) string {
	s := new(big.Int).Abs(minor).String()
	if len(s) <= exp {
		s = strings.Repeat("0", exp-len(s)+1) + s
	}
	out := s
	if exp > 0 {
		out = s[:len(s)-exp] + "." + s[len(s)-exp:]
	}
	if minor.Sign() < 0 {
		out = "-" + out
	}
	return out
}

// Sum is an exact running total in one currency; it never overflows.
type Sum struct {
	Currency string
	total    big.Int
}

// Add adds minor units to the total.
func (s *Sum) Add(minor int64) { s.total.Add(&s.total, big.NewInt(minor)) }

// AddInt adds an exact sum of minor units.
func (s *Sum) AddInt(minor *big.Int) { s.total.Add(&s.total, minor) }

// Minor is the total in minor units, as the string clients receive.
func (s *Sum) Minor() string { return s.total.String() }

// Int is a copy of the total.
func (s *Sum) Int() *big.Int { return new(big.Int).Set(&s.total) }

// Amount is an exact amount as clients receive it: minor units as a string and the ISO 4217 code.
type Amount struct {
	AmountMinor string `json:"amountMinor"`
	Currency    string `json:"currency"`
}

// Of builds the client form of minor units of currency.
func Of(minor int64, cur string) Amount {
	return Amount{AmountMinor: fmt.Sprint(minor), Currency: cur}
}

// Checked adds two int64 amounts, reporting overflow.
func Checked(a, b int64) (int64, bool) {
	if (b > 0 && a > math.MaxInt64-b) || (b < 0 && a < math.MinInt64-b) {
		return 0, false
	}
	return a + b, true
}
