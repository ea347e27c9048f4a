package cli_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/cli/clitest"
)

func testCommand() (cli.Command, *string, *time.Duration) {
	c := cli.Command{Name: "lumo import", Args: "caminho/workspace.yaml", Summary: "Importa o workspace.",
		Examples: []string{"lumo import pasta/workspace.yaml"}}
	fs := c.FlagSet()
	db := fs.String("db", "", "DSN do banco (padrão: LUMO_DB)")
	timeout := fs.Duration("timeout", time.Hour, "tempo máximo")
	fs.Int("rate-user", 60, "chamadas por minuto")
	fs.Bool("stateless", false, "sem sessão")
	return c, db, timeout
}

func noEnglish(t *testing.T, what, s string) {
	t.Helper()
	for _, e := range clitest.FlagEnglish {
		if strings.Contains(s, e) {
			t.Errorf("%s has %q: %s", what, e, s)
		}
	}
}

func TestHelp(t *testing.T) {
	c, _, _ := testCommand()
	for _, args := range [][]string{{"-h"}, {"--help"}, {"-help"}, {"help"}, {"--db", "x", "-h"}} {
		var out strings.Builder
		fs := c.FlagSet()
		fs.String("db", "", "DSN do banco (padrão: LUMO_DB)")
		fs.Duration("timeout", time.Hour, "tempo máximo")
		if err := c.Parse(fs, args, &out); !errors.Is(err, cli.ErrHelpShown) {
			t.Fatalf("%v: %v", args, err)
		}
		for _, want := range []string{"Uso: lumo import [opções] caminho/workspace.yaml", "Importa o workspace.",
			"  --timeout duração\n    \ttempo máximo (padrão 1h)", "  --db texto\n    \tDSN do banco (padrão: LUMO_DB)\n",
			"Exemplos:\n  lumo import pasta/workspace.yaml"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%v: help lacks %q:\n%s", args, want, out.String())
			}
		}
		noEnglish(t, "help", out.String())
	}
}

func TestFlagErrorsInPortuguese(t *testing.T) {
	for args, want := range map[string]string{
		"--timout 1h":        `opção desconhecida --timout; você quis dizer "--timeout"?`,
		"--timeout":          "--timeout precisa de um valor: use uma duração como 30s, 5m ou 1h",
		"--timeout abc":      `valor inválido "abc" para --timeout: use uma duração como 30s, 5m ou 1h`,
		"--rate-user x":      `valor inválido "x" para --rate-user: use um número inteiro`,
		"--stateless=talvez": `valor inválido "talvez" para --stateless: use true ou false`,
		"---x":               "opção mal escrita: ---x (escreva --nome ou --nome=valor)",
		"--zzzzzzzz":         "opção desconhecida --zzzzzzzz",
	} {
		c, _, _ := testCommand()
		fs := c.FlagSet()
		fs.Duration("timeout", time.Hour, "tempo máximo")
		fs.Int("rate-user", 60, "chamadas por minuto")
		fs.Bool("stateless", false, "sem sessão")
		err := c.Parse(fs, strings.Fields(args), &strings.Builder{})
		var ue *cli.UsageError
		if !errors.As(err, &ue) || ue.Msg != want {
			t.Errorf("%s: %v, want %q", args, err, want)
			continue
		}
		var stderr strings.Builder
		if code := cli.Exit("lumo", err, &stderr); code != 2 || stderr.String() != "lumo import: "+want+"\nVeja as opções com: lumo import -h\n" {
			t.Errorf("%s: exit %d, %q", args, code, stderr.String())
		}
		noEnglish(t, args, stderr.String())
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{time.Hour: "1h", 30 * time.Minute: "30m", 720 * time.Hour: "720h",
		90 * time.Second: "1m30s", 500 * time.Millisecond: "500ms", 20 * time.Second: "20s", time.Hour + time.Second: "1h0m1s"} {
		if got := cli.Duration(d); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}

func TestExit(t *testing.T) {
	var stderr strings.Builder
	if cli.Exit("lumo", nil, &stderr) != 0 || cli.Exit("lumo", cli.ErrHelpShown, &stderr) != 0 || stderr.Len() != 0 {
		t.Errorf("success or help: %q", stderr.String())
	}
	if cli.Exit("lumo", errors.New("o banco não abriu"), &stderr) != 2 || stderr.String() != "lumo: o banco não abriu\n" {
		t.Errorf("failure: %q", stderr.String())
	}
	stderr.Reset()
	if cli.Exit("lumo", cli.UnknownSubcommand("lumo schemas", "lsit", []string{"list", "show"}), &stderr) != 2 ||
		!strings.HasPrefix(stderr.String(), `lumo schemas: subcomando desconhecido "lsit"; você quis dizer "list"?`) {
		t.Errorf("unknown subcommand: %q", stderr.String())
	}
}

// The last words print as text: a control character in the message (a file's name in it) is
// written as its escape, so no terminal escape code runs; the lines of a message stay lines.
func TestExitEscapesControlCharacters(t *testing.T) {
	var stderr strings.Builder
	err := errors.New("\"cor\x1b[31m.csv\": não encontrei\nvendas\x1b[2J.csv:2: sem cabeçalho\u2028")
	if cli.Exit("lumo", err, &stderr) != 2 || stderr.String() != "lumo: \"cor\\x1b[31m.csv\": não encontrei\nvendas\\x1b[2J.csv:2: sem cabeçalho\\u2028\n" {
		t.Errorf("%q", stderr.String())
	}
	stderr.Reset()
	if cli.Exit("lumo", &cli.UsageError{Command: "lumo init", Msg: "opção \x1b[2J"}, &stderr) != 2 || strings.Contains(stderr.String(), "\x1b") {
		t.Errorf("%q", stderr.String())
	}
}
