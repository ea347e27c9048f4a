package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/platform/cli/clitest"
)

// Two folders initialised the same way import side by side (the folder names the tenant, the
// app and the login); a folder of the same name elsewhere is refused rather than silently
// replacing the first, until --replace; every import says what it replaced.
func TestInitsOfTwoFoldersImportSideBySide(t *testing.T) {
	bin := buildLumo(t)
	home := t.TempDir()
	env := []string{"XDG_DATA_HOME=" + home}
	db := filepath.Join(home, "lumo.db")
	folder := func(parent, name, loja string) string {
		dir := filepath.Join(t.TempDir(), parent, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		csv := "DIA;LOJA;VALOR\n01/10/2026;" + loja + ";R$ 10,50\n02/10/2026;" + loja + ";R$ 4,25\n"
		if err := os.WriteFile(filepath.Join(dir, "vendas.csv"), []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, errOut, code := clitest.Run(t, bin, env, "init", dir); code != 0 {
			t.Fatalf("init %s: %d %s %s", dir, code, out, errOut)
		}
		return filepath.Join(dir, "workspace.yaml")
	}
	sul, norte := folder("a", "Vendas Sul", "Centro"), folder("a", "Vendas Norte", "Praia")
	for _, ws := range []string{sul, norte} {
		if out, errOut, code := clitest.Run(t, bin, env, "import", "--db", db, ws); code != 0 {
			t.Fatalf("import %s: %d %s %s", ws, code, out, errOut)
		}
	}
	// Each user sees its own app, and only it: the stores of its file.
	calls := func(login, appID, want string) {
		t.Helper()
		out, errOut, code := clitest.Run(t, bin, env, "call", "--db", db, "--user", login, "query",
			`{"appId": `+appID+`, "fields": [{"ref": "Vendas.Loja"}]}`)
		if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "1 linha") {
			t.Errorf("%s: %d %s %s", login, code, out, errOut)
		}
	}
	calls("voce-vendas-sul", "1", "Centro")
	calls("voce-vendas-norte", "2", "Praia")

	// Another folder named "Vendas Sul": refused, and nothing changes.
	other := folder("b", "Vendas Sul", "Outra")
	_, errOut, code := clitest.Run(t, bin, env, "import", "--db", db, other)
	if code != 2 || !strings.Contains(errOut, `o tenant "vendas-sul" já está no banco, importado de `+sul) || !strings.Contains(errOut, "lumo import --replace") {
		t.Fatalf("a second folder of the same name: %d %s", code, errOut)
	}
	calls("voce-vendas-sul", "1", "Centro")
	out, errOut, code := clitest.Run(t, bin, env, "import", "--db", db, "--replace", other)
	if code != 0 || !strings.Contains(out, "Substituiu o tenant vendas-sul, importado antes de "+sul) || !strings.Contains(out, "como pedido por --replace") {
		t.Fatalf("--replace: %d %s %s", code, out, errOut)
	}
	calls("voce-vendas-sul", "1", "Outra")
	calls("voce-vendas-norte", "2", "Praia")
	out, _, code = clitest.Run(t, bin, env, "import", "--db", db, norte)
	if code != 0 || !strings.Contains(out, "Substituiu a importação anterior do tenant vendas-norte, deste mesmo arquivo") {
		t.Errorf("importing the same folder again: %d %s", code, out)
	}
}
