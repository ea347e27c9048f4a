package caderninho

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
)

// opaqueNumber matches an account number no person reads: a UUID (Nubank's OFX ACCTID), or a
// long run of letters and digits.
var opaqueNumber = regexp.MustCompile(`(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// accountLabels names every account for people: the institution (the connection's, from
// installation.yaml or the panel), the kind of account and the number as the bank shows it
// when a person can read it ("Banco Aurora, conta corrente 12345-6", "Cooperativa Ipê, cartão
// de crédito final 7788"). A technical number (a UUID) is left out, as is the number a CSV export
// gets when it names none ("conta", "cartao"). When two accounts would
// share a label, the holder's name, then the last four characters of the number, then the
// connection key tell them apart. The id stays in the id field only. Labels are keyed by the
// account's id and unique among all.
func accountLabels(all []*cadstore.Account) map[string]string {
	base := map[string]string{}
	for _, a := range all {
		l := strings.TrimSpace(a.Institution)
		if l == "" {
			l = a.Connection
		}
		l += ", " + accountTypeWords[accountType(a)]
		if n := humanNumber(a.Number); n != "" {
			l += " " + n
		}
		base[a.Key] = l
	}
	steps := []func(a *cadstore.Account, l string) string{
		func(a *cadstore.Account, l string) string { return l + " de " + a.HolderName },
		func(a *cadstore.Account, l string) string {
			if t := lastChars(a.Number, 4); t != "" && !cadstore.Placeholder(a.Number) && !strings.HasSuffix(l, t) {
				return l + " final " + t
			}
			return l
		},
		func(a *cadstore.Account, l string) string { return l + " (conexão " + a.Connection + ")" },
	}
	for _, step := range steps {
		count := map[string]int{}
		for _, l := range base {
			count[l]++
		}
		clash := false
		for _, a := range all {
			if count[base[a.Key]] > 1 {
				base[a.Key] = step(a, base[a.Key])
				clash = true
			}
		}
		if !clash {
			break
		}
	}
	return base
}

// humanNumber is the part of an account number worth showing: the number itself when short
// ("12345-6"), "final 7788" for a masked card number ("5502********7788"), nothing for a UUID,
// another long technical code or a CSV export's placeholder.
func humanNumber(n string) string {
	n = strings.TrimSpace(n)
	switch {
	case n == "" || opaqueNumber.MatchString(n) || cadstore.Placeholder(n):
		return ""
	case strings.ContainsAny(n, "*xX") && lastChars(n, 4) != "":
		return "final " + lastChars(n, 4)
	case len([]rune(n)) > 16:
		if t := lastChars(n, 4); t != "" {
			return "final " + t
		}
		return ""
	}
	return n
}

// lastChars is the last k letters or digits of s, "" when it has fewer.
func lastChars(s string, k int) string {
	var out []rune
	rs := []rune(s)
	for i := len(rs) - 1; i >= 0 && len(out) < k; i-- {
		if unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]) {
			out = append([]rune{rs[i]}, out...)
		} else if len(out) > 0 {
			break
		}
	}
	if len(out) < k {
		return ""
	}
	return string(out)
}

// label is how the texts name account id: its label, or the id when it has none (an edit of an
// account no longer imported).
func (rc *readContext) label(id string) string {
	if l, ok := rc.labels[id]; ok {
		return l
	}
	return id
}
