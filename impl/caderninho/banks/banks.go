// Package banks recognises the Brazilian banks caderninho knows by name (a connection's
// institution, an OFX file's FI/ORG) and by COMPE code (an OFX BANKID), so a statement of one
// bank is never taken into the connection of another.
package banks

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// Bank is a bank caderninho recognises.
type Bank struct {
	// Key names the bank in code (bankcsv.Format.Bank).
	Key string
	// Name is how messages name it.
	Name string
	// Code is its COMPE code (the OFX BANKID, with or without leading zeros).
	Code int
	// names are the ways people and files write it, folded into words: one matches a name
	// holding the same words in a row ("Banco Inter S.A." holds "inter").
	names [][]string
}

// All are the banks caderninho recognises.
var All = []*Bank{
	{Key: "nubank", Name: "Nubank", Code: 260, names: words("nubank", "nu bank", "nu", "nu pagamentos", "nuconta", "nu financeira")},
	{Key: "inter", Name: "Banco Inter", Code: 77, names: words("inter", "bancointer", "inter&co", "intermedium")},
	{Key: "bb", Name: "Banco do Brasil", Code: 1, names: words("banco do brasil", "bb", "bancodobrasil")},
	{Key: "itau", Name: "Itaú", Code: 341, names: words("itau", "itau unibanco")},
	{Key: "bradesco", Name: "Bradesco", Code: 237, names: words("bradesco")},
	{Key: "caixa", Name: "Caixa", Code: 104, names: words("caixa", "caixa economica federal", "cef")},
	{Key: "santander", Name: "Santander", Code: 33, names: words("santander")},
	{Key: "c6", Name: "C6 Bank", Code: 336, names: words("c6", "c6 bank")},
	{Key: "btg", Name: "BTG Pactual", Code: 208, names: words("btg", "btg pactual")},
	{Key: "sicoob", Name: "Sicoob", Code: 756, names: words("sicoob")},
	{Key: "sicredi", Name: "Sicredi", Code: 748, names: words("sicredi")},
	{Key: "banrisul", Name: "Banrisul", Code: 41, names: words("banrisul")},
	{Key: "pagbank", Name: "PagBank", Code: 290, names: words("pagbank", "pagseguro")},
	{Key: "mercadopago", Name: "Mercado Pago", Code: 323, names: words("mercado pago", "mercadopago")},
	{Key: "picpay", Name: "PicPay", Code: 380, names: words("picpay")},
	{Key: "safra", Name: "Safra", Code: 422, names: words("safra")},
}

func words(names ...string) [][]string {
	out := make([][]string, len(names))
	for i, n := range names {
		out[i] = split(n)
	}
	return out
}

// split folds s into its words: letters, digits and "&" (Inter&Co), everything else a break.
func split(s string) []string {
	return strings.FieldsFunc(fold.Fold(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '&'
	})
}

// ByKey is the bank of key, or nil.
func ByKey(key string) *Bank {
	for _, b := range All {
		if b.Key == key {
			return b
		}
	}
	return nil
}

// ByName is the bank a name (an institution, an OFX ORG) names, or nil when it names none or
// more than one: "Banco Inter" and "Inter" are Banco Inter, "Banco Internacional" is none.
func ByName(name string) *Bank {
	ws := split(name)
	var found *Bank
	for _, b := range All {
		for _, n := range b.names {
			if holds(ws, n) {
				if found != nil && found != b {
					return nil
				}
				found = b
				break
			}
		}
	}
	return found
}

// holds reports whether ws has the words of n in a row.
func holds(ws, n []string) bool {
	for i := 0; i+len(n) <= len(ws); i++ {
		match := true
		for j := range n {
			if ws[i+j] != n[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// ByCode is the bank of an OFX BANKID (or FID), or nil: only a code of three or more digits
// ("0260", "077", "001") is read as a COMPE code; "1" or "12" may mean anything.
func ByCode(code string) *Bank {
	code = strings.TrimSpace(code)
	if len(code) < 3 || len(code) > 5 {
		return nil
	}
	n, err := strconv.Atoi(code)
	if err != nil || n <= 0 {
		return nil
	}
	for _, b := range All {
		if b.Code == n {
			return b
		}
	}
	return nil
}

// CodeText is the bank's COMPE code as banks write it in a BANKID: three digits ("077").
func (b *Bank) CodeText() string {
	s := strconv.Itoa(b.Code)
	for len(s) < 3 {
		s = "0" + s
	}
	return s
}
