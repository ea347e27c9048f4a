package main

import (
	"bufio"
	"errors"
	"flag"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/cli/clitest"
)

// TestHelpListsEveryServeFlag: lumo --help names every flag serve parses, from the same set.
func TestHelpListsEveryServeFlag(t *testing.T) {
	var out strings.Builder
	if err := run(t.Context(), []string{"--help"}, &out, slog.New(slog.NewTextHandler(io.Discard, nil))); !errors.Is(err, cli.ErrHelpShown) {
		t.Fatal(err)
	}
	fs, _ := newServeFlags()
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		n++
		if !strings.Contains(out.String(), "\n  --"+f.Name+" ") && !strings.Contains(out.String(), "\n  --"+f.Name+"\n") {
			t.Errorf("lumo --help does not list serve's --%s", f.Name)
		}
	})
	for _, want := range []string{"max-concurrent", "public-url", "max-conns", "session-timeout"} {
		if fs.Lookup(want) == nil {
			t.Errorf("serve has no --%s", want)
		}
	}
	if n < 15 || strings.Contains(out.String(), "(default ") {
		t.Errorf("%d serve flags; help in Portuguese: %q", n, out.String())
	}
}

func TestCommandLineConventions(t *testing.T) {
	bin := buildLumo(t)
	home := t.TempDir()
	lumo := func(args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+home)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return stdout.String(), stderr.String(), code
	}
	out, _, code := lumo("--version")
	if code != 0 || !strings.HasPrefix(out, "lumo ") || !strings.Contains(out, "go1.") {
		t.Errorf("--version: %d %q", code, out)
	}
	// initialize announces the same version.
	version := strings.Fields(out)[1]
	cmd := exec.Command(bin, "serve", "--user", "ana")
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+home)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, initializeBody+"\n")
	answer, err := bufio.NewReader(stdout).ReadString('\n') // stdin stays open until the answer is read
	stdin.Close()
	cmd.Wait()
	if err != nil || !strings.Contains(answer, `"serverInfo":{"name":"lumo","title":"Lumo","version":"`+version+`"}`) {
		t.Errorf("initialize: %v %s, want version %s", err, answer, version)
	}
	var errOut string
	_, errOut, code = lumo("serv")
	if first, _, _ := strings.Cut(errOut, "\n"); code != 2 || first != `lumo: comando desconhecido "serv"; você quis dizer "serve"? Veja os comandos abaixo.` {
		t.Errorf("unknown command: %d, first line %q", code, first)
	}
	_, errOut, code = lumo("call", "search_catalg", "{}")
	if code != 2 || !strings.Contains(errOut, `lumo: ferramenta desconhecida "search_catalg"; você quis dizer "search_catalog"? As ferramentas são: get_app, query, search_catalog, search_values.`) {
		t.Errorf("call with an unknown tool: %d %q", code, errOut)
	}
}

// Every help a user can ask for, on the binary and on each subcommand, exits 0 with a usage, an
// example and Portuguese defaults; every mistake exits 2 naming the nearest right spelling; no
// English of Go's flag package in any of them.
func TestEveryHelpInPortuguese(t *testing.T) {
	bin := buildLumo(t)
	env := []string{"XDG_DATA_HOME=" + t.TempDir()}
	clitest.Helps(t, bin, env, []string{
		"-h", "--help", "help", "help serve", "help import",
		"init -h", "init --help", "init help",
		"serve -h", "serve --help", "serve help", "import -h", "import --help", "call -h", "call --help",
		"admin -h", "admin help", "admin --help", "admin tenant add -h", "admin token issue --help",
		"schemas -h", "schemas help", "schemas validate -h", "schemas show query -h",
	})
	out, _, _ := clitest.Run(t, bin, env, "init", "-h")
	if !strings.Contains(out, "--table esquema.tabela") || !strings.Contains(out, "--postgres DSN") {
		t.Errorf("init -h does not list its flags:\n%s", out)
	}
	out, _, _ = clitest.Run(t, bin, env, "import", "-h")
	if !strings.Contains(out, "(padrão 1h;") {
		t.Errorf("import -h does not give --timeout's default as 1h:\n%s", out)
	}
	out, _, _ = clitest.Run(t, bin, env, "serve", "-h")
	if !strings.Contains(out, "(padrão 30s)") || !strings.Contains(out, "--http texto") {
		t.Errorf("serve -h:\n%s", out)
	}
	clitest.Mistakes(t, bin, env, map[string]string{
		"serv":                            `comando desconhecido "serv"; você quis dizer "serve"?`,
		"serve --htp 127.0.0.1:1":         `lumo serve: opção desconhecida --htp; você quis dizer "--http"?`,
		"serve --query-timeout abc":       `valor inválido "abc" para --query-timeout: use uma duração como 30s, 5m ou 1h`,
		"serve extra":                     "serve não recebe argumentos além das opções",
		"import --timout 1h x.yaml":       `você quis dizer "--timeout"?`,
		"import":                          "informe o caminho do workspace.yaml",
		"init --tabel x pasta":            `lumo init: opção desconhecida --tabel; você quis dizer "--table"?`,
		"init --timeout dez pasta":        `valor inválido "dez" para --timeout`,
		"call --usr ana query {}":         `você quis dizer "--user"?`,
		"admin tenat add x --name X":      `você quis dizer "tenant add"?`,
		"admin user add zeca --tenantt x": `você quis dizer "--tenant"?`,
		"schemas lsit":                    `subcomando desconhecido "lsit"; você quis dizer "list"?`,
		"schemas validate --toll query -": `você quis dizer "--tool"?`,
	})
}
