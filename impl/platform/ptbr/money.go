package ptbr

import (
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/money"
)

var currencySymbols = map[string]string{"BRL": "R$", "USD": "US$", "EUR": "€", "GBP": "£"}

// Money renders minor units (a decimal string of digits, maybe with a minus) of an ISO 4217
// currency the Brazilian way: "-123456", "BRL" -> "-R$ 1.234,56"; "254967", "USD" -> "US$ 2.549,67".
// It works on the digits, so any size stays exact.
func Money(amountMinor, currency string) string {
	exp, ok := money.Exponent(currency)
	if !ok {
		exp = 2
	}
	neg := strings.HasPrefix(amountMinor, "-")
	digits := strings.TrimLeft(strings.TrimPrefix(amountMinor, "-"), "0")
	if len(digits) <= exp {
		digits = strings.Repeat("0", exp-len(digits)+1) + digits
	}
	whole, frac := digits[:len(digits)-exp], digits[len(digits)-exp:]
	var b strings.Builder
	b.WriteString(groupThousands(whole))
	if frac != "" {
		b.WriteString("," + frac)
	}
	sym, ok := currencySymbols[currency]
	if !ok {
		sym = currency
	}
	out := sym + " " + b.String()
	if neg && strings.Trim(digits, "0") != "" {
		out = "-" + out
	}
	return out
}

// Day renders a YYYY-MM-DD day as 31/10/2026; anything else is returned as is.
func Day(day string) string {
	if len(day) != 10 || day[4] != '-' || day[7] != '-' {
		return day
	}
	return day[8:10] + "/" + day[5:7] + "/" + day[0:4]
}
