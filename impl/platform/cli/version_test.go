package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "1a2b3c4d5e6f7a8b9c0d"}, {Key: "vcs.modified", Value: "false"}}},
			"lumo v1.2.0 (commit 1a2b3c4d5e6f, go1.26.8)"},
		{debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "1a2b3c4d5e6f7a8b9c0d"}, {Key: "vcs.modified", Value: "true"}}},
			"lumo (devel) (commit 1a2b3c4d5e6f com alterações locais, go1.26.8)"},
		{debug.BuildInfo{GoVersion: "go1.26.8"}, "lumo (devel) (commit desconhecido, go1.26.8)"},
	} {
		if got := describe("lumo", &tc.info); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
	if s := Version("caderninho"); !strings.HasPrefix(s, "caderninho ") || !strings.Contains(s, "go1.") {
		t.Errorf("Version = %q", s)
	}
}

func TestUnknownCommand(t *testing.T) {
	commands := []string{"serve", "import", "call", "admin", "schemas", "help", "version"}
	for name, want := range map[string]string{
		"serv":    `comando desconhecido "serv"; você quis dizer "serve"? Veja os comandos abaixo.`,
		"imprt":   `comando desconhecido "imprt"; você quis dizer "import"? Veja os comandos abaixo.`,
		"xyzzy12": `comando desconhecido "xyzzy12". Veja os comandos abaixo.`,
		// Written as a flag, suggested as one.
		"--verison": `comando desconhecido "--verison"; você quis dizer "--version"? Veja os comandos abaixo.`,
		"--hlep":    `comando desconhecido "--hlep"; você quis dizer "--help"? Veja os comandos abaixo.`,
		"--v":       `comando desconhecido "--v"; você quis dizer "--version"? Veja os comandos abaixo.`,
		"--serve":   `comando desconhecido "--serve"; você quis dizer "serve"? Veja os comandos abaixo.`,
	} {
		if got := UnknownCommand(name, commands); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
}
