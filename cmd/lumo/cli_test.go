package main

import (
	"flag"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestHelpListsEveryServeFlag: lumo --help names every flag serve parses, from the same set.
func TestHelpListsEveryServeFlag(t *testing.T) {
	var out strings.Builder
	if err := run(t.Context(), []string{"--help"}, &out, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	fs, _ := newServeFlags()
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		n++
		if !strings.Contains(out.String(), "\n  -"+f.Name+" ") && !strings.Contains(out.String(), "\n  -"+f.Name+"\n") {
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
	if out, _, code := lumo("--version"); code != 0 || !strings.HasPrefix(out, "lumo ") || !strings.Contains(out, "go1.") {
		t.Errorf("--version: %d %q", code, out)
	}
	_, errOut, code := lumo("serv")
	if first, _, _ := strings.Cut(errOut, "\n"); code != 2 || first != `lumo: comando desconhecido "serv"; você quis dizer "serve"? Veja os comandos abaixo.` {
		t.Errorf("unknown command: %d, first line %q", code, first)
	}
	_, errOut, code = lumo("call", "search_catalg", "{}")
	if code != 2 || !strings.Contains(errOut, `lumo: ferramenta desconhecida "search_catalg"; você quis dizer "search_catalog"? As ferramentas são: get_app, query, search_catalog, search_values.`) {
		t.Errorf("call with an unknown tool: %d %q", code, errOut)
	}
}
