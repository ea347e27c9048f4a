package store_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/semantic"
	"github.com/lumo-caderninho/mcp/impl/store"
	"github.com/lumo-caderninho/mcp/impl/store/storetest"
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
