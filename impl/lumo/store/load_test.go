package store_test

import (
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// A value the file accepts but PostgreSQL refuses (a NUL byte in a text) fails the import with
// the file and the line of that row, though COPY reports errors rows after it was sent.
func TestCopyErrorNamesFileAndLine(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	if db.Engine() != "postgres" {
		t.Skip("SQLite stores NUL bytes in texts")
	}
	fsys := patchDemo(t, map[string]func(string) string{
		"apps/vendas/vendas.csv": func(s string) string {
			lines := strings.SplitAfter(s, "\n")
			lines[15000] = strings.Replace(lines[15000], "Renata", "Re\x00nata", 1)
			return strings.Join(lines, "")
		}})
	_, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml")
	if err == nil {
		t.Fatal("import accepted a NUL byte")
	}
	if want := "apps/vendas/vendas.csv line 15001 "; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name %q", err, want)
	}
	if n := count(t, db, "lumo_tables"); n != 0 {
		t.Errorf("refused import left %d tables in the catalogue", n)
	}
}
