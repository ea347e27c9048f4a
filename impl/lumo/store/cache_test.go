package store_test

import (
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// The models are read once per import: a second read is the same model, and an import (here a
// re-import that renames the app) is seen by the next read.
func TestModelsFollowImports(t *testing.T) {
	db := storetest.Open(t)
	ws := func(name string) fstest.MapFS { return storetest.OneTableWorkspace(name, "", "ID\n1\n") }
	if _, err := db.ImportWorkspace(ctx, ws("Primeira"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	a1, err := db.VisibleApps(ctx, u)
	if err != nil || len(a1) != 1 || a1[0].Name != "Primeira" {
		t.Fatalf("first read: %v %v", a1, err)
	}
	a2, err := db.VisibleApps(ctx, u)
	if err != nil || len(a2) != 1 || a2[0] != a1[0] {
		t.Fatalf("second read is not the cached model: %v %v", a2, err)
	}
	one, err := db.App(ctx, u, a1[0].ID)
	if err != nil || one.Name != "Primeira" {
		t.Fatalf("App: %v %v", one, err)
	}
	if _, err := db.App(ctx, u, a1[0].ID+1000); err == nil {
		t.Fatal("an unknown app was found")
	}
	if _, err := db.ImportWorkspace(ctx, ws("Segunda"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	u, _ = db.UserByLogin(ctx, "ana")
	a3, err := db.VisibleApps(ctx, u)
	if err != nil || len(a3) != 1 || a3[0].Name != "Segunda" {
		t.Fatalf("read after the re-import: %v %v", a3, err)
	}
	one, err = db.App(ctx, u, a3[0].ID)
	if err != nil || one.Name != "Segunda" {
		t.Fatalf("App after the re-import: %v %v", one, err)
	}
}
