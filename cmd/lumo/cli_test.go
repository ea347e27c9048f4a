package main

import (
	"bufio"
	"errors"
	"flag"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
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

// TestFrictionsOfANewUser: -v and version print the version as --version does; a mistyped flag
// form of a command is suggested as such; an admin command's mistake prints that command's usage
// only; an import names the path as it was given.
func TestFrictionsOfANewUser(t *testing.T) {
	bin := buildLumo(t)
	env := []string{"XDG_DATA_HOME=" + t.TempDir()}
	want, _, _ := clitest.Run(t, bin, env, "--version")
	for _, args := range [][]string{{"-v"}, {"version"}, {"-version"}} {
		if out, errOut, code := clitest.Run(t, bin, env, args...); code != 0 || out != want || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", args, code, out, errOut, want)
		}
	}
	clitest.Mistakes(t, bin, env, map[string]string{
		"--verison": `comando desconhecido "--verison"; você quis dizer "--version"?`,
		"--vresion": `você quis dizer "--version"?`,
	})
	for line, wantErr := range map[string]string{
		"admin tenant add acme":    "lumo admin tenant add: falta --name\nVeja as opções com: lumo admin tenant add -h\n",
		"admin tenant add":         "lumo admin tenant add: espera CHAVE\nVeja as opções com: lumo admin tenant add -h\n",
		"admin token issue":        "lumo admin token issue: espera LOGIN\nVeja as opções com: lumo admin token issue -h\n",
		"admin user add z --tenat": `lumo admin user add: opção desconhecida --tenat; você quis dizer "--tenant"?`,
	} {
		out, errOut, code := clitest.Run(t, bin, env, strings.Fields(line)...)
		cmd := strings.Join(strings.Fields(line)[1:3], " ")
		if code != 2 || !strings.Contains(errOut, wantErr) || !strings.Contains(errOut, "  lumo admin "+cmd+" ") {
			t.Errorf("%q: exit %d, stderr %q; want %q and the usage of %s", line, code, errOut, wantErr, cmd)
		}
		if strings.Contains(errOut, "lumo admin publish") || strings.Contains(errOut, "member add") {
			t.Errorf("%q prints every admin command's usage:\n%s", line, errOut)
		}
		if out != "" {
			t.Errorf("%q: stdout %q", line, out)
		}
	}
	out, _, code := clitest.Run(t, bin, env, "admin", "tenant", "add", "-h")
	if code != 0 || !strings.Contains(out, "lumo admin tenant add CHAVE --name NOME") || strings.Contains(out, "member add") || !strings.Contains(out, "Exemplo") {
		t.Errorf("admin tenant add -h: %d\n%s", code, out)
	}

	dir := t.TempDir()
	for _, p := range []string{"/nonexist.yaml", filepath.Join(dir, "nada", "workspace.yaml")} {
		_, errOut, code := clitest.Run(t, bin, env, "import", "--db", filepath.Join(dir, "l.db"), "--columnar", "off", p)
		if code != 2 || !strings.Contains(errOut, "lumo: "+p+": ") {
			t.Errorf("import %s: exit %d, stderr %q; want the path as given", p, code, errOut)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "ws", "apps", "v"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "ws", "workspace.yaml"), []byte("tenants:\n  - key: t\n    name: T\n    users: [{login: u, name: U, token: tok-u-12345}]\n    apps: [{key: v, source: apps/v}]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "ws", "apps", "v", "app.yaml"), []byte("name: V\ntables:\n  - {label: Vendas, name: vendas, kind: fact, file: vendas.csv, columns: [{name: ID, label: Id, type: number}]}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "ws", "apps", "v", "vendas.csv"), []byte("ID\nabc\n"), 0o644)
	cmd := exec.Command(bin, "import", "--db", filepath.Join(dir, "l.db"), "--columnar", "off", filepath.Join("ws", "workspace.yaml"))
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	errOut, _ := cmd.CombinedOutput()
	if !strings.Contains(string(errOut), "lumo: "+filepath.Join("ws", "apps", "v", "vendas.csv")+":2: ID:") {
		t.Errorf("a file's problem does not name it as given:\n%s", errOut)
	}
}
