package store_test

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// indexes lists the indexes of a data table, by name, straight from the engine's catalogue.
func indexes(t *testing.T, db *store.DB, table string) []string {
	t.Helper()
	q := "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?"
	if db.Engine() == "postgres" {
		q = "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1"
	}
	rows, err := db.SQL().QueryContext(ctx, q, table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// wantIndexes are the btree indexes import makes for a table: one per text column (unless skipped)
// and one per date column; trigram (g...) indexes exist only with pg_trgm and are not counted.
func wantIndexes(tb *semantic.Table, skip ...string) []string {
	var out []string
	for _, c := range tb.Columns {
		if c.Type == semantic.TypeNumber || contains(skip, c.Name) {
			continue
		}
		out = append(out, fmt.Sprintf("i%d_%s", c.ID, strings.ToLower(c.Name)))
	}
	sort.Strings(out)
	return out
}

func btrees(names []string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, "i") {
			out = append(out, n)
		}
	}
	return out
}

func TestImportIndexesValueColumns(t *testing.T) {
	t.Parallel()
	db, _ := importDemo(t)
	apps, err := db.VisibleApps(ctx, user(t, db, "ana"))
	if err != nil {
		t.Fatal(err)
	}
	a := appByKey(t, apps, "vendas-comercial")
	for _, tb := range a.Tables {
		if d := cmp.Diff(wantIndexes(tb), btrees(indexes(t, db, tb.SQLName))); d != "" {
			t.Errorf("indexes of %s (-want +got):\n%s", tb.Label, d)
		}
	}
}

// TestImportLongTextIsNotIndexed: a text too long for a btree entry (PostgreSQL refuses entries over
// about 2.7 kB) leaves its column without an index instead of failing the import.
func TestImportLongTextIsNotIndexed(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("Gerente de nome muito comprido ", 200) // 6.200 bytes
	fsys := patchDemo(t, map[string]func(string) string{
		"apps/vendas/lojas.csv": func(s string) string { return strings.Replace(s, "Marta Reis", long, 1) },
	})
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml"); err != nil {
		t.Fatalf("importing a long text: %v", err)
	}
	apps, err := db.VisibleApps(ctx, user(t, db, "ana"))
	if err != nil {
		t.Fatal(err)
	}
	lojas := appByKey(t, apps, "vendas-comercial").Tables[1]
	if d := cmp.Diff(wantIndexes(lojas, "GERENTE"), btrees(indexes(t, db, lojas.SQLName))); d != "" {
		t.Errorf("indexes of Lojas (-want +got):\n%s", d)
	}
}

// TestOpenBuildsMissingIndexes: a database whose data tables lack indexes (loaded by a version
// that did not make them) gets them at the next Open, and answers the same.
func TestOpenBuildsMissingIndexes(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("Gerente de nome muito comprido ", 200)
	fsys := patchDemo(t, map[string]func(string) string{
		"apps/vendas/lojas.csv": func(s string) string { return strings.Replace(s, "Marta Reis", long, 1) },
	})
	db, dsn := storetest.OpenDSN(t)
	if _, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, user(t, db, "ana"))
	if err != nil {
		t.Fatal(err)
	}
	a := appByKey(t, apps, "vendas-comercial")
	want := map[string][]string{}
	for _, tb := range a.Tables {
		want[tb.SQLName] = btrees(indexes(t, db, tb.SQLName))
	}
	vendas, lojas := a.Tables[0], a.Tables[1]
	if d := cmp.Diff(wantIndexes(lojas, "GERENTE"), want[lojas.SQLName]); d != "" {
		t.Fatalf("indexes of Lojas after import (-want +got):\n%s", d)
	}
	count := func(db *store.DB) int {
		t.Helper()
		var n int
		q := "SELECT count(DISTINCT " + db.Dialect().QuoteIdent(vendas.Columns[0].SQLName) + ") FROM " + db.Dialect().QuoteIdent(vendas.SQLName)
		if err := db.SQL().QueryRowContext(ctx, q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := count(db)
	for _, tb := range a.Tables {
		for _, name := range want[tb.SQLName] {
			if _, err := db.SQL().ExecContext(ctx, "DROP INDEX "+db.Dialect().QuoteIdent(name)); err != nil {
				t.Fatal(err)
			}
		}
		if got := btrees(indexes(t, db, tb.SQLName)); len(got) != 0 {
			t.Fatalf("indexes of %s left after DROP: %v", tb.Label, got)
		}
	}

	for range 2 { // the second open finds nothing to do
		db2, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range a.Tables {
			if d := cmp.Diff(want[tb.SQLName], btrees(indexes(t, db2, tb.SQLName))); d != "" {
				t.Errorf("indexes of %s after reopening (-want +got):\n%s", tb.Label, d)
			}
		}
		if after := count(db2); after != before {
			t.Errorf("count after reopening = %d, want %d", after, before)
		}
		db2.Close()
	}
}

// TestOpenReindexBudget: with no budget, Open leaves missing indexes alone.
func TestOpenReindexBudget(t *testing.T) {
	t.Parallel()
	db, dsn := storetest.OpenDSN(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, user(t, db, "ana"))
	if err != nil {
		t.Fatal(err)
	}
	lojas := appByKey(t, apps, "vendas-comercial").Tables[1]
	names := btrees(indexes(t, db, lojas.SQLName))
	if _, err := db.SQL().ExecContext(ctx, "DROP INDEX "+db.Dialect().QuoteIdent(names[0])); err != nil {
		t.Fatal(err)
	}
	db2, err := store.Open(ctx, dsn, store.WithReindexBudget(0))
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if got := btrees(indexes(t, db2, lojas.SQLName)); len(got) != len(names)-1 {
		t.Errorf("indexes of Lojas = %v, want %v without %s", got, names, names[0])
	}
}

func keyIndexes(names []string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, "k") {
			out = append(out, n)
		}
	}
	return out
}

// TestImportIndexesRelationshipKeys: every key a relationship joins on gets an index, on the
// fact's foreign key and on the dimension's key; a database without them gets them at Open.
func TestImportIndexesRelationshipKeys(t *testing.T) {
	t.Parallel()
	db, dsn := storetest.OpenDSN(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, user(t, db, "ana"))
	if err != nil {
		t.Fatal(err)
	}
	a := appByKey(t, apps, "vendas-comercial")
	want := map[string][]string{}
	for _, r := range a.Relationships {
		for _, c := range append(append([]*semantic.Column{}, r.From...), r.To...) {
			name := fmt.Sprintf("k%d", c.ID)
			if !contains(want[c.Table.SQLName], name) {
				want[c.Table.SQLName] = append(want[c.Table.SQLName], name)
			}
		}
	}
	for _, tb := range a.Tables {
		sort.Strings(want[tb.SQLName])
		if d := cmp.Diff(want[tb.SQLName], keyIndexes(indexes(t, db, tb.SQLName))); d != "" {
			t.Errorf("key indexes of %s (-want +got):\n%s", tb.Label, d)
		}
		for _, name := range want[tb.SQLName] {
			if _, err := db.SQL().ExecContext(ctx, "DROP INDEX "+db.Dialect().QuoteIdent(name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	db2, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	for _, tb := range a.Tables {
		if d := cmp.Diff(want[tb.SQLName], keyIndexes(indexes(t, db2, tb.SQLName))); d != "" {
			t.Errorf("key indexes of %s after reopening (-want +got):\n%s", tb.Label, d)
		}
	}
}

// TestImportIndexesCompositeKeys: a composite relationship's keys are one index per side, in pair
// order, rebuilt at Open when missing; its further pairs survive a reopen of the model.
func TestImportIndexesCompositeKeys(t *testing.T) {
	t.Parallel()
	db, dsn := storetest.OpenDSN(t)
	if _, err := db.ImportWorkspace(ctx, os.DirFS("../../../features/testdata/joins"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, user(t, db, "jonas"))
	if err != nil {
		t.Fatal(err)
	}
	a := appByKey(t, apps, "pedidos")
	var composite *semantic.Relationship
	for i, r := range a.Relationships {
		if len(r.From) > 1 {
			composite = &a.Relationships[i]
		}
	}
	if composite == nil || len(composite.From) != 2 || composite.From[1].Ref() != "Itens.Fornecedor" || composite.To[1].Ref() != "PeçaFornecedor.Fornecedor" {
		t.Fatalf("composite relationship = %+v", composite)
	}
	name := func(cols []*semantic.Column) string {
		return fmt.Sprintf("k%d_%d", cols[0].ID, cols[1].ID)
	}
	for _, side := range [][]*semantic.Column{composite.From, composite.To} {
		tb := side[0].Table
		if got := keyIndexes(indexes(t, db, tb.SQLName)); !contains(got, name(side)) {
			t.Errorf("key indexes of %s = %v, want %s among them", tb.Label, got, name(side))
		}
		if _, err := db.SQL().ExecContext(ctx, "DROP INDEX "+db.Dialect().QuoteIdent(name(side))); err != nil {
			t.Fatal(err)
		}
	}
	db2, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	for _, side := range [][]*semantic.Column{composite.From, composite.To} {
		if got := keyIndexes(indexes(t, db2, side[0].Table.SQLName)); !contains(got, name(side)) {
			t.Errorf("key indexes of %s after reopening = %v, want %s among them", side[0].Table.Label, got, name(side))
		}
	}
}

// TestImportFreeTextIsNotIndexed: a text column of long, nearly all distinct values (comments)
// gets no (folded, value) btree, at import nor when the database is reopened, while a text
// column of few values and a unique code (a key) keep theirs; filters still read the comments.
func TestImportFreeTextIsNotIndexed(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("ID,CODIGO,LOJA,OBS\n")
	for i := range 12_000 {
		fmt.Fprintf(&b, "%d,PED-%06d,Loja %d,Pedido %d entregue com atraso pela transportadora %d\n", i+1, i+1, i%50, i, i%97)
	}
	fsys := fstest.MapFS{
		"workspace.yaml": {Data: []byte("tenants:\n  - key: t\n    name: T\n    users: [{login: u, name: U, token: tok-u-freetext}]\n" +
			"    desks: [{name: M, members: [u]}]\n    apps: [{key: p, source: apps/p, desk: M}]\n")},
		"apps/p/app.yaml": {Data: []byte("name: P\ntables:\n  - label: Pedidos\n    name: pedidos\n    kind: fact\n    file: pedidos.csv\n    columns:\n" +
			"      - {name: ID, label: Id, type: number, role: key}\n      - {name: CODIGO, label: Código, type: string, role: key}\n" +
			"      - {name: LOJA, label: Loja, type: string}\n      - {name: OBS, label: Observação, type: string}\n")},
		"apps/p/pedidos.csv": {Data: []byte(b.String())},
	}
	db, dsn := storetest.OpenDSN(t)
	if _, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, user(t, db, "u"))
	if err != nil {
		t.Fatal(err)
	}
	pedidos := apps[0].Tables[0]
	want := wantIndexes(pedidos, "OBS")
	if d := cmp.Diff(want, btrees(indexes(t, db, pedidos.SQLName))); d != "" {
		t.Errorf("indexes after import (-want +got):\n%s", d)
	}
	db2, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if d := cmp.Diff(want, btrees(indexes(t, db2, pedidos.SQLName))); d != "" {
		t.Errorf("indexes after reopening (-want +got):\n%s", d)
	}
	var n int
	obs := pedidos.Columns[3]
	q := "SELECT count(*) FROM " + db.Dialect().QuoteIdent(pedidos.SQLName) + " WHERE " + db.Dialect().QuoteIdent(obs.FoldSQLName) + " LIKE '%transportadora 7'"
	if err := db2.SQL().QueryRowContext(ctx, q).Scan(&n); err != nil || n != 124 {
		t.Errorf("comments ending in 7: %d, %v", n, err)
	}
}
