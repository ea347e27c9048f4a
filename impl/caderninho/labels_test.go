package caderninho

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
)

func TestAccountLabelsNeverShowATechnicalNumber(t *testing.T) {
	acct := func(conn, inst, holder, number, kind, typ string) *cadstore.Account {
		return &cadstore.Account{Key: cadstore.AccountKey(conn, number), Connection: conn, Institution: inst, HolderName: holder,
			Number: number, Kind: kind, Type: typ}
	}
	all := []*cadstore.Account{
		acct("aurora-marina", "Banco Aurora", "Marina Costa", "12345-6", "bank", "CHECKING"),
		acct("ipe-rafael", "Cooperativa Ipê", "Rafael Costa", "5502********7788", "creditcard", "CREDITCARD"),
		// Nubank's OFX names an account by a UUID: alone, the label leaves it out
		acct("nubank-ana", "Nubank", "Ana Lima", "66d4a1f0-1c2b-4e5f-8a9b-4c1d2e3f0a11", "bank", "CHECKING"),
		// two of one holder at one institution: the end of the number tells them apart
		acct("roxo-rafael", "Banco Roxo", "Rafael Costa", "0b7e2c1a-9d8f-4e3a-b2c1-00000000a1b2", "bank", "CHECKING"),
		acct("roxo-rafael", "Banco Roxo", "Rafael Costa", "5f3e9a7c-1b2d-4c6e-8f0a-00000000c3d4", "bank", "CHECKING"),
		// two holders' accounts at one institution: the holder's name tells them apart
		acct("roxo-marina", "Banco Roxo", "Marina Costa", "9e8d7c6b-5a49-4382-a1b0-0000000000e5", "bank", "CHECKING"),
		acct("roxo-marina", "Banco Roxo", "Marina Costa", "9e8d7c6b-5a49-4382-a1b0-0000000000e6", "bank", "SAVINGS"),
		// a CSV export names no account: its placeholder number is no number to show, and is
		// never an end to tell two accounts apart by
		acct("inter-ana", "Banco Inter", "Ana Lima", "conta", "bank", "CHECKING"),
		acct("nubank-rafael", "Nubank", "Rafael Costa", "cartao", "creditcard", "CREDITCARD"),
		acct("inter-rafael", "Banco Inter", "Rafael Costa", "conta", "bank", "CHECKING"),
		acct("inter-rafael-2", "Banco Inter", "Rafael Costa", "conta", "bank", "CHECKING"),
	}
	got := accountLabels(all)
	want := map[string]string{
		"aurora-marina:12345-6":                            "Banco Aurora, conta corrente 12345-6",
		"ipe-rafael:5502********7788":                      "Cooperativa Ipê, cartão de crédito final 7788",
		"nubank-ana:66d4a1f0-1c2b-4e5f-8a9b-4c1d2e3f0a11":  "Nubank, conta corrente",
		"roxo-rafael:0b7e2c1a-9d8f-4e3a-b2c1-00000000a1b2": "Banco Roxo, conta corrente de Rafael Costa final a1b2",
		"roxo-rafael:5f3e9a7c-1b2d-4c6e-8f0a-00000000c3d4": "Banco Roxo, conta corrente de Rafael Costa final c3d4",
		"roxo-marina:9e8d7c6b-5a49-4382-a1b0-0000000000e5": "Banco Roxo, conta corrente de Marina Costa",
		"roxo-marina:9e8d7c6b-5a49-4382-a1b0-0000000000e6": "Banco Roxo, poupança",
		"inter-ana:conta":                                  "Banco Inter, conta corrente de Ana Lima",
		"nubank-rafael:cartao":                             "Nubank, cartão de crédito",
		"inter-rafael:conta":                               "Banco Inter, conta corrente de Rafael Costa (conexão inter-rafael)",
		"inter-rafael-2:conta":                             "Banco Inter, conta corrente de Rafael Costa (conexão inter-rafael-2)",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("labels (-want +got):\n%s", d)
	}
	seen := map[string]bool{}
	for _, a := range all {
		l := got[a.Key]
		if seen[l] {
			t.Errorf("label %q is given twice", l)
		}
		seen[l] = true
		if strings.Contains(l, a.Number) && len(a.Number) > 20 {
			t.Errorf("label %q shows the technical number %s", l, a.Number)
		}
	}
}
