package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/platform/cli/clitest"
)

// Every help a user can ask for, on the binary and on each subcommand, exits 0 with a usage, an
// example and Portuguese defaults; every mistake exits 2 naming the nearest right spelling; no
// English of Go's flag package in any of them.
func TestEveryHelpInPortuguese(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "caderninho")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	env := []string{"XDG_DATA_HOME=" + t.TempDir()}
	clitest.Helps(t, bin, env, []string{
		"-h", "--help", "help", "help serve", "help panel",
		"serve -h", "serve --help", "serve help", "import -h", "import --help", "call -h", "call help",
		"admin -h", "admin help", "admin person add -h", "admin audit --help",
		"panel -h", "panel help", "panel reset -h", "panel reset --help",
		"schemas -h", "schemas validate --help",
	})
	out, _, _ := clitest.Run(t, bin, env, "serve", "-h")
	if !strings.Contains(out, "(padrão 720h;") || !strings.Contains(out, "--no-token\n") {
		t.Errorf("serve -h:\n%s", out)
	}
	clitest.Mistakes(t, bin, env, map[string]string{
		"serv":                            `comando desconhecido "serv"; você quis dizer "serve"?`,
		"serve --no-tokn":                 `caderninho serve: opção desconhecida --no-tokn; você quis dizer "--no-token"?`,
		"serve --idempotency-retention 3": `valor inválido "3" para --idempotency-retention: use uma duração como 30s, 5m ou 1h`,
		"import --bd x.db i.yaml":         `você quis dizer "--db"?`,
		"panel rest":                      `subcomando desconhecido "rest"; você quis dizer "reset"?`,
		"admin persn add ze --name Zé":    `você quis dizer "person add"?`,
		"admin audit --limt 3":            `você quis dizer "--limit"?`,
		"schemas shwo":                    `você quis dizer "show"?`,
	})
}
