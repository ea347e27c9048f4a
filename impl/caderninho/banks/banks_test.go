package banks

import "testing"

func TestByName(t *testing.T) {
	for name, want := range map[string]string{
		"Nubank": "nubank", "Nu Pagamentos S.A.": "nubank", "NU PAGAMENTOS S.A.": "nubank", "nu": "nubank",
		"Banco Inter": "inter", "Inter": "inter", "BANCO INTER S.A.": "inter", "Inter&Co": "inter", "Banco Intermedium S/A": "inter",
		"Banco do Brasil": "bb", "BB": "bb", "Itaú Unibanco": "itau", "ITAU": "itau", "Caixa Econômica Federal": "caixa",
		// names of no bank caderninho knows, or of two
		"Banco Internacional": "", "Banco Aurora": "", "Cooperativa Ipê": "", "Roxinho": "", "": "", "Nubank ou Inter": "",
	} {
		got := ""
		if b := ByName(name); b != nil {
			got = b.Key
		}
		if got != want {
			t.Errorf("ByName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestByCode(t *testing.T) {
	for code, want := range map[string]string{
		"0260": "nubank", "260": "nubank", "077": "inter", "0077": "inter", "001": "bb", "0341": "itau",
		// too short to be read as a code, or no bank's
		"1": "", "77": "", "0999": "", "0777": "", "abc": "", "": "",
	} {
		got := ""
		if b := ByCode(code); b != nil {
			got = b.Key
		}
		if got != want {
			t.Errorf("ByCode(%q) = %q, want %q", code, got, want)
		}
	}
	if got := ByKey("inter").CodeText(); got != "077" {
		t.Errorf("Inter's code text: %s", got)
	}
}
