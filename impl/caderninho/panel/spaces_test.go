package panel_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// seedUses gives category Mercado of casa an edit (with a split part in it), a manual record
// and budgets in two months; Feira gets a budget in the first month.
func seedUses(t *testing.T, w *world) {
	t.Helper()
	db := w.s.DB().SQL()
	q := func(query string) string { return sqldialect.Rebind(w.s.DB().Dialect(), query) }
	for _, st := range []struct {
		query string
		args  []any
	}{
		{"INSERT INTO cad_edits (account_key, dedupe_key, space_key, category, splits, excluded, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?)",
			[]any{"aurora-marina:1", "f:A1", "casa", "mercado", `[{"amount":{"amountMinor":"-500","currency":"BRL"},"category":"Mercado","note":null},{"amount":{"amountMinor":"-500","currency":"BRL"},"category":null,"note":"x"}]`, "2026-08-01T00:00:00Z"}},
		{"INSERT INTO cad_records (id, space_key, record_day, amount_minor, currency, description, search_fold, category, excluded, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
			[]any{1, "casa", "2026-08-02", -100, "BRL", "Feira", "feira", "Mercado", "2026-08-01T00:00:00Z", "2026-08-01T00:00:00Z"}},
		{"INSERT INTO cad_budgets (space_key, budget_month, category, currency, amount_minor, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
			[]any{"casa", "2026-08", "Mercado", "BRL", 100000, "2026-08-01T00:00:00Z"}},
		{"INSERT INTO cad_budgets (space_key, budget_month, category, currency, amount_minor, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
			[]any{"casa", "2026-09", "Mercado", "BRL", 50000, "2026-08-01T00:00:00Z"}},
		{"INSERT INTO cad_budgets (space_key, budget_month, category, currency, amount_minor, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
			[]any{"casa", "2026-08", "Feira", "BRL", 2000, "2026-08-01T00:00:00Z"}},
	} {
		if _, err := db.Exec(q(st.query), st.args...); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSpacesAndCategories(t *testing.T) {
	t.Parallel()
	w := setup(t)
	tok := w.login()
	ctx := context.Background()
	rev := revisions(t, w.s)
	hostile := `<script>x</script> Viagem`
	body := w.step(tok, "add space", "/painel/espacos", url.Values{"key": {"viagem"}, "name": {hostile}}, http.StatusSeeOther, "Espaço adicionado.")
	if strings.Contains(body, "<script>") || !strings.Contains(body, "&lt;script&gt;x&lt;/script&gt; Viagem") {
		t.Errorf("the space's name is not escaped")
	}
	w.step(tok, "duplicate space", "/painel/espacos", url.Values{"key": {"casa"}, "name": {"Outra"}}, http.StatusConflict, "Chave: já existe um espaço")
	w.step(tok, "bad key", "/painel/espacos", url.Values{"key": {"Viagem 2"}, "name": {"X"}}, http.StatusUnprocessableEntity, "Chave: &#34;Viagem 2&#34; não serve")
	w.step(tok, "rename space", "/painel/espacos/renomear", url.Values{"key": {"viagem"}, "name": {"Férias"}}, http.StatusSeeOther, "Espaço renomeado.")
	w.step(tok, "rename unknown", "/painel/espacos/renomear", url.Values{"key": {"praia"}, "name": {"X"}}, http.StatusNotFound, "Não existe o espaço")
	w.step(tok, "remove in use", "/painel/espacos/remover", url.Values{"key": {"casa"}}, http.StatusConflict, "é o espaço de uma conexão (aurora-marina)")
	w.step(tok, "remove", "/painel/espacos/remover", url.Values{"key": {"viagem"}}, http.StatusSeeOther, "Espaço removido.")

	w.step(tok, "add category", "/painel/espacos/categorias", url.Values{"space": {"casa"}, "name": {"Feira <b>"}}, http.StatusSeeOther, "Feira &lt;b&gt;")
	w.step(tok, "rename to plain", "/painel/espacos/categorias/renomear", url.Values{"space": {"casa"}, "category": {"Feira <b>"}, "name": {"Feira"}}, http.StatusSeeOther, "Categoria renomeada")
	w.step(tok, "duplicate category", "/painel/espacos/categorias", url.Values{"space": {"casa"}, "name": {"MERCADO"}}, http.StatusConflict, "já tem a categoria")
	w.step(tok, "category of unknown space", "/painel/espacos/categorias", url.Values{"space": {"praia"}, "name": {"X"}}, http.StatusNotFound, "Não existe o espaço")
	w.step(tok, "long category", "/painel/espacos/categorias", url.Values{"space": {"casa"}, "name": {strings.Repeat("x", 201)}}, http.StatusUnprocessableEntity, "Categoria: tem 201 caracteres")
	if got := revisions(t, w.s); got != rev+2 {
		t.Errorf("revision of casa %d, want %d", got, rev+2)
	}

	seedUses(t, w)
	w.step(tok, "remove used", "/painel/espacos/categorias/remover", url.Values{"space": {"casa"}, "category": {"Mercado"}}, http.StatusConflict,
		"não foi removida: 1 edição, 1 registro manual e 2 orçamentos a usam")
	w.step(tok, "rename onto another", "/painel/espacos/categorias/renomear", url.Values{"space": {"casa"}, "category": {"Mercado"}, "name": {"feira"}},
		http.StatusConflict, "use Unir")
	w.step(tok, "rename", "/painel/espacos/categorias/renomear", url.Values{"space": {"casa"}, "category": {"Mercado"}, "name": {"Supermercado"}},
		http.StatusSeeOther, "acompanharam")
	var cat, splits string
	w.s.DB().SQL().QueryRow("SELECT category, splits FROM cad_edits").Scan(&cat, &splits)
	if cat != "Supermercado" || !strings.Contains(splits, `"category":"Supermercado"`) || !strings.Contains(splits, `"note":"x"`) {
		t.Errorf("the edit did not follow: %s %s", cat, splits)
	}
	w.s.DB().SQL().QueryRow("SELECT category FROM cad_records").Scan(&cat)
	if cat != "Supermercado" {
		t.Errorf("the record did not follow: %s", cat)
	}
	budgets := func() string {
		rows, err := w.s.DB().SQL().Query("SELECT budget_month, category, amount_minor FROM cad_budgets ORDER BY budget_month, category")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var m, c, a string
			rows.Scan(&m, &c, &a)
			out = append(out, m+" "+c+" "+a)
		}
		return strings.Join(out, "|")
	}
	if got := budgets(); got != "2026-08 Feira 2000|2026-08 Supermercado 100000|2026-09 Supermercado 50000" {
		t.Errorf("budgets after rename: %s", got)
	}
	w.step(tok, "merge", "/painel/espacos/categorias/unir", url.Values{"space": {"casa"}, "category": {"Feira"}, "into": {"Supermercado"}},
		http.StatusSeeOther, "Categorias unidas")
	if got := budgets(); got != "2026-08 Supermercado 102000|2026-09 Supermercado 50000" {
		t.Errorf("budgets after merge: %s", got)
	}
	w.step(tok, "merge into itself", "/painel/espacos/categorias/unir", url.Values{"space": {"casa"}, "category": {"Supermercado"}, "into": {"supermercado"}},
		http.StatusUnprocessableEntity, "diferente da que sai")
	w.step(tok, "merge unknown", "/painel/espacos/categorias/unir", url.Values{"space": {"casa"}, "category": {"Feira"}, "into": {"Supermercado"}},
		http.StatusNotFound, "não tem a categoria")
	w.step(tok, "add unused", "/painel/espacos/categorias", url.Values{"space": {"casa"}, "name": {"Lazer"}}, http.StatusSeeOther, "Categoria adicionada.")
	w.step(tok, "remove unused", "/painel/espacos/categorias/remover", url.Values{"space": {"casa"}, "category": {"lazer"}}, http.StatusSeeOther, "Categoria removida.")
	cats, _ := w.s.Categories(ctx)
	if strings.Join(cats["casa"], ",") != "Supermercado" {
		t.Errorf("categories %v", cats)
	}
	if got := revisions(t, w.s); got != rev+6 {
		t.Errorf("revision of casa %d, want %d", got, rev+6)
	}
	_, body = w.get("/painel/registro")
	for _, want := range []string{"Espaço &#34;viagem&#34; adicionado", "Categoria &#34;Mercado&#34; do espaço &#34;casa&#34; renomeada para &#34;Supermercado&#34; (acompanharam: 1 edição, 1 registro manual e 2 orçamentos)",
		"Categoria &#34;Feira&#34; do espaço &#34;casa&#34; unida a &#34;Supermercado&#34;", "Categoria &#34;Lazer&#34; removida"} {
		if !strings.Contains(body, want) {
			t.Errorf("audit log lacks %q", want)
		}
	}
}

// A re-import keeps the connections and spaces the panel made, lists what it sets back, and
// refuses to drop what a panel connection stands on.
func TestReimportKeepsPanelConnectionsAndSpaces(t *testing.T) {
	t.Parallel()
	w := setup(t)
	ctx := context.Background()
	ops := admin.Ops{Store: w.s, Actor: admin.ActorPanel}
	for _, err := range []error{
		ops.AddSpace(ctx, "viagem", "Viagem"),
		ops.AddConnection(ctx, "ipe-rafael", "Banco Ipê", "rafael", "viagem"),
		ops.AddCategory(ctx, "casa", "Lazer"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ops.ImportStatements(ctx, "ipe-rafael", []admin.Upload{{Name: "agosto.ofx", Data: []byte(august)}}); err != nil {
		t.Fatal(err)
	}
	sum := register(t, w.s, w.dir, fixture)
	if got := strings.Join(sum.Kept, "|"); got != "conexão ipe-rafael|espaço viagem" {
		t.Errorf("kept %q", got)
	}
	if got := strings.Join(sum.Updated, "|"); !strings.Contains(got, "categorias do espaço casa que o arquivo não lista: Lazer") {
		t.Errorf("updated %q", got)
	}
	cs, _ := w.s.ConnectionList(ctx)
	if len(cs) != 2 || cs[1].Key != "ipe-rafael" || cs[1].Accounts != 1 {
		t.Errorf("connections after a re-import: %+v", cs)
	}
	// The file may not drop a person or space a panel connection stands on.
	for _, c := range []struct{ yaml, want string }{
		{strings.Replace(fixture, "  - {key: rafael, name: Rafael Costa}\n", "", 1), `a pessoa "rafael" não está mais no arquivo, mas é titular de ipe-rafael`},
	} {
		if err := os.WriteFile(filepath.Join(w.dir, "installation.yaml"), []byte(c.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		inst, err := installation.Load(os.DirFS(w.dir), "installation.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.s.Register(ctx, inst, w.dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("re-import: %v, want %q", err, c.want)
		}
	}
	// A file space dropped while a panel connection is in it.
	if _, err := ops.EditConnection(ctx, "ipe-rafael", "Banco Ipê", "rafael", "casa"); err != nil {
		t.Fatal(err)
	}
	noCasa := strings.Replace(strings.Replace(fixture, "casa, name: Casa", "lar, name: Lar", 1), "space: casa", "space: lar", 1)
	if err := os.WriteFile(filepath.Join(w.dir, "installation.yaml"), []byte(noCasa), 0o600); err != nil {
		t.Fatal(err)
	}
	inst, err := installation.Load(os.DirFS(w.dir), "installation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.s.Register(ctx, inst, w.dir); err == nil || !strings.Contains(err.Error(), `o espaço "casa" não está mais no arquivo, mas é o espaço de ipe-rafael`) {
		t.Errorf("dropping a space a panel connection is in: %v", err)
	}
}
