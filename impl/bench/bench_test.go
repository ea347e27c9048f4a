package bench

import (
	"context"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/store/storetest"
)

// The generated workspace imports, and every hand-written query runs on the engine and returns
// the rows the bench expects (the MCP side is compared with these at run time).
func TestWorkspaceImportsAndQueriesRun(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	sum, err := db.ImportWorkspace(ctx, Workspace(5000), "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(5000 + stores + products + stores*months); sum.Rows() != want {
		t.Fatalf("imported %d rows, want %d", sum.Rows(), want)
	}
	if _, err := db.ImportWorkspace(ctx, Catalog(50), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	app, err := salesApp(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := Queries(app, db.Dialect())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		n, err := rawRows(ctx, db.SQL(), q.SQL, q.SQLArgs)
		if err != nil {
			t.Fatalf("%s: %v\n%s", q.Name, err, q.SQL)
		}
		if (q.Rows >= 0 && n != q.Rows) || n == 0 {
			t.Errorf("%s: %d rows, want %d", q.Name, n, q.Rows)
		}
	}
	u, err := db.UserByLogin(ctx, CatalogLogin)
	if err != nil {
		t.Fatal(err)
	}
	if apps, err := db.VisibleApps(ctx, u); err != nil || len(apps) != 50 {
		t.Fatalf("catalogue user sees %d apps (%v), want 50", len(apps), err)
	}
}

// The same rows come out for the same scale.
func TestSalesRowsAreDeterministic(t *testing.T) {
	a, b := salesRows(100)(), salesRows(100)()
	for {
		la, oka := a()
		lb, okb := b()
		if oka != okb || string(la) != string(lb) {
			t.Fatalf("runs differ: %q / %q", la, lb)
		}
		if !oka {
			return
		}
	}
}
