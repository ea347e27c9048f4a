package admin_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/admin"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

func run(t *testing.T, db *store.DB, line string) (string, error) {
	t.Helper()
	cmd, err := admin.Parse(strings.Fields(line), "")
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	err = cmd.Run(context.Background(), db, &out)
	return out.String(), err
}

func TestParse(t *testing.T) {
	for line, want := range map[string]string{
		"":                              "informe o comando",
		"tenants add x":                 `desconhecido "tenants add"; você quis dizer "tenant add"?`,
		"tenant add":                    "espera CHAVE",
		"tenant add a b --name A":       "espera CHAVE",
		"token revoke ana":              "espera LOGIN ROTULO",
		"tenant list extra":             "nenhum argumento",
		"user add zeca --bogus":         "opção desconhecida --bogus",
		"tenant add acme --db x --name": "--name precisa de um valor",
		"tenat add acme":                `desconhecido "tenat add"; você quis dizer "tenant add"?`,
	} {
		_, err := admin.Parse(strings.Fields(line), "")
		var ue *admin.UsageError
		if !errors.As(err, &ue) || !strings.Contains(ue.Msg, want) {
			t.Errorf("%q: want usage error with %q, got %v", line, want, err)
		}
	}
	// A known command's mistake names it, so its usage alone is printed.
	_, err := admin.Parse(strings.Fields("user add zeca --bogus"), "")
	var ue *admin.UsageError
	if !errors.As(err, &ue) || ue.Command != "user add" {
		t.Errorf("the usage error does not name its command: %#v", err)
	}
	for name, want := range map[string]string{
		"user add": "Uso:\n  lumo admin user add LOGIN --tenant CHAVE --name NOME\n",
		"publish":  "  lumo admin publish vendas --tenant minha-empresa --desk Comercial\n",
		"":         admin.Usage,
		"nada":     admin.Usage,
	} {
		if got := admin.CommandUsage(name); !strings.Contains(got, want) || name != "" && name != "nada" && strings.Contains(got, "member add") {
			t.Errorf("CommandUsage(%q) = %q", name, got)
		}
	}
	cmd, err := admin.Parse(strings.Fields("tenant add --name Acme acme --db /x.db"), "env.db")
	if err != nil || cmd.Name != "tenant add" || cmd.DB != "/x.db" {
		t.Fatalf("flags after positionals: %+v %v", cmd, err)
	}
}

func TestCommands(t *testing.T) {
	db := storetest.Open(t)
	steps := []struct{ line, want string }{
		{"tenant add acme --name Acme", `Tenant "acme" criado.`},
		{"user add zeca --tenant acme --name Zeca", `Usuário "zeca" criado no tenant "acme"`},
		{"desk add Vendas --tenant acme", `Mesa "Vendas" criada`},
		{"member add Vendas zeca", `"zeca" agora é membro da mesa "Vendas"`},
		{"user list --tenant acme", "acme\tzeca\tZeca\t0 tokens emitidos\tmesas: Vendas"},
		{"desk list", "acme\tVendas\tmembros: zeca\tAplicações: "},
		{"token issue zeca --label laptop", "Guarde-o agora: ele não será mostrado de novo."},
		{"token list zeca", "laptop\temitido em "},
		{"token revoke zeca laptop", `Token "laptop" de "zeca" revogado`},
		{"member remove Vendas zeca", `"zeca" saiu da mesa "Vendas"`},
		{"desk remove Vendas --tenant acme", `Mesa "Vendas" removida`},
		{"user remove zeca", `Usuário "zeca" removido`},
		{"tenant list", "acme\tAcme\t0 usuários\t0 mesas\t0 Aplicações"},
		{"tenant remove acme", `Tenant "acme" removido.`},
		{"tenant list", "Nenhum tenant."},
	}
	for _, s := range steps {
		out, err := run(t, db, s.line)
		if err != nil || !strings.Contains(out, s.want) {
			t.Fatalf("%s: want %q, got %q, %v", s.line, s.want, out, err)
		}
	}
	if _, err := run(t, db, "user remove zeca"); err == nil || !strings.Contains(err.Error(), `o usuário "zeca" não existe`) {
		t.Fatalf("removing twice: %v", err)
	}
	if err := db.AddTenant(context.Background(), "t", "T"); err != nil {
		t.Fatal(err)
	}
	if err := db.AddUser(context.Background(), "t", "u", "U"); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, db, "token issue u")
	if err != nil {
		t.Fatal(err)
	}
	tok := strings.SplitN(out, "\n", 2)[0]
	if u, err := db.UserByToken(context.Background(), tok); err != nil || u.Login != "u" {
		t.Fatalf("the first line is the token: %q %v", tok, err)
	}
}
