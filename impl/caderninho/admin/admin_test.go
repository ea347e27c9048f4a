package admin

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckKeyAndName(t *testing.T) {
	for key, want := range map[string]string{
		"rafael": "", "ze-2": "", "a_b": "",
		"": "Chave: informe a chave.", "Zé": `Chave: "Zé" não serve`, "-x": `Chave: "-x" não serve`,
		strings.Repeat("a", 64): "Chave: tem 64 caracteres; o limite é 63.",
	} {
		err := CheckKey("key", "Chave", key)
		if (want == "") != (err == nil) || err != nil && !strings.HasPrefix(err.Error(), want) {
			t.Errorf("CheckKey(%q) = %v, want %q", key, err, want)
		}
	}
	for name, want := range map[string]string{
		"  Zé  ": "", strings.Repeat("é", 200): "",
		" ": "Nome: informe o nome.", strings.Repeat("é", 1201): "Nome: tem 1.201 caracteres; o limite é 200.",
		"a\nb": "Nome: tem caracteres de controle", "\xff": "Nome: o texto não é UTF-8 válido.",
	} {
		got, err := CheckName("name", "Nome", name)
		if want == "" && (err != nil || got != strings.TrimSpace(name)) {
			t.Errorf("CheckName(%q) = %q, %v", name, got, err)
		}
		var r *Refusal
		if want != "" && (!errors.As(err, &r) || r.Field != "name" || r.Kind != Invalid || !strings.HasPrefix(r.Message, want)) {
			t.Errorf("CheckName(%.20q) = %v, want %q", name, err, want)
		}
	}
}

func TestParse(t *testing.T) {
	for args, want := range map[string]string{
		"person add ze --name Zé":         "",
		"--name Zé person rename ze":      `comando de administração desconhecido "--name Zé"`,
		"person add ze":                   "falta --name",
		"assistant revoke":                "espera NOME",
		"audit --limit 0":                 "--limit precisa ficar entre 1 e 10000",
		"space add casa":                  "falta --name",
		"statement import aurora":         "espera CONEXÃO ARQUIVO...",
		"connection edit x":               "informe --institution",
		"wallet add x":                    `desconhecido "wallet add"`,
		"assistant issue --name X --db y": "",
	} {
		cmd, err := Parse(strings.Fields(args), "")
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("Parse(%q) = %+v, %v; want %q", args, cmd, err, want)
		}
	}
}

func TestKeyFromName(t *testing.T) {
	for name, want := range map[string]string{
		"José da Silva":         "jose-da-silva",
		"  Ana   Lúcia  ":       "ana-lucia",
		"Zé_Maria (filha)":      "ze-maria-filha",
		"João 2":                "joao-2",
		"<>":                    "pessoa",
		"Ærøskøbing":            "",
		strings.Repeat("a", 80): strings.Repeat("a", MaxKey-4),
	} {
		got := KeyFromName(name)
		if want != "" && got != want {
			t.Errorf("KeyFromName(%q) = %q, want %q", name, got, want)
		}
		if err := CheckKey("key", "Chave", got); err != nil {
			t.Errorf("KeyFromName(%q) = %q, not a valid key: %v", name, got, err)
		}
	}
}

// A statement sent under a name with control characters is refused, and the report line names
// it quoted: the escape code does not run, the line break forges no line.
func TestReportLineQuotesNames(t *testing.T) {
	line := 3
	for _, r := range []FileReport{
		{Name: "extrato\x1b[2J\nnovo.ofx", Status: FileRefused, Reason: "o nome do arquivo tem caracteres de controle"},
		{Name: "extrato\x1b[2J\nnovo.ofx", Status: FileRefused, Line: &line, Reason: "x"},
		{Name: "extrato\x1b[2J\nnovo.ofx", Status: FileKnown, Reason: "x"},
		{Name: "extrato\x1b[2J\nnovo.ofx", Stored: "b\x1b.ofx", Status: FileNew},
	} {
		got := ReportLine(r)
		if !strings.HasPrefix(got, `"extrato\x1b[2J\nnovo.ofx"`) || strings.ContainsAny(got, "\x1b\n") {
			t.Errorf("ReportLine(%+v) = %q", r, got)
		}
	}
}
