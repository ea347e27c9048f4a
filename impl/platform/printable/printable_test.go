package printable

import "testing"

func TestName(t *testing.T) {
	for in, want := range map[string]string{
		"extrato-2026-11.ofx":    "extrato-2026-11.ofx",
		"Relatório de março.csv": "Relatório de março.csv",
		`aspas "no" nome.csv`:    `aspas "no" nome.csv`,
		"":                       "",
		"a\nb.csv":               `"a\nb.csv"`,
		"cor\x1b[31m.csv":        `"cor\x1b[31m.csv"`,
		"tab\t.csv":              `"tab\t.csv"`,
		"linha\u2028.csv":        `"linha\u2028.csv"`,
		"nel\u0085.csv":          `"nel\u0085.csv"`,
		"latin1 \xe7.csv":        `"latin1 \xe7.csv"`,
		"del\x7f.csv":            `"del\x7f.csv"`,
		"rtl\u202e.csv":          `"rtl\u202e.csv"`,
	} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestHasControl(t *testing.T) {
	for in, want := range map[string]bool{
		"vendas.csv": false, "Relatório.csv": false, "linha\u2028.csv": false,
		"a\nb": true, "a\tb": true, "\x1b[2J": true, "nel\u0085": true, "\xff": true, "del\x7f": true,
	} {
		if got := HasControl(in); got != want {
			t.Errorf("HasControl(%q) = %v", in, got)
		}
	}
}

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"vendas.csv: 2 linhas\n\tok":     "vendas.csv: 2 linhas\n\tok",
		"cor\x1b[31m.csv\nlinha 2\r":     `cor\x1b[31m.csv` + "\n" + `linha 2\r`,
		"sep\u2028 \xff fim \u0085 ação": `sep\u2028 \xff fim \u0085 ação`,
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}
