package store_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// TestImportFindsCompleteRelationships: a relationship is complete when every row of its many
// side finds its row on the one side; a key that matches nothing, or a blank key, leaves it
// incomplete (a query must then keep those rows in a blank group, a left join). Its key is unique
// when no filled key repeats on the one side (blank keys join nothing). A relationship to a
// role-playing copy is checked against its original's data table.
func TestImportFindsCompleteRelationships(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, storeIDs   string
		lojas            string
		complete, unique bool
	}{
		{"every key found", "1,10,2\n2,5,2\n2,1,1\n1,2,1\n", "", true, true},
		{"a key that matches nothing", "1,10,1\n2,5,1\n3,1,2\n", "", false, true},
		{"a blank key", "1,10,1\n,5,2\n2,1,1\n", "", false, true},
		{"a repeated key", "1,10,2\n2,5,2\n", "2,MG\n", true, false},
		{"repeated blank keys", "1,10,2\n2,5,2\n", ",MG\n,BA\n", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := storetest.Open(t)
			fsys := fstest.MapFS{
				"workspace.yaml": {Data: []byte(`tenants:
  - key: t1
    name: Tenant
    users:
      - {login: ana, name: Ana, token: tok-ana-complete}
    desks:
      - {name: Mesa, members: [ana]}
    apps:
      - {key: app, source: apps/app, desk: Mesa}
`)},
				"apps/app/app.yaml": {Data: []byte(`name: Vendas
tables:
  - label: Vendas
    name: vendas
    kind: fact
    file: vendas.csv
    columns:
      - {name: LOJA_ID, label: Loja id, type: number, role: key}
      - {name: VALOR, label: Valor, type: number, role: measure}
      - {name: OUTRA_ID, label: Outra loja id, type: number, role: key}
  - label: Lojas
    name: lojas
    kind: dimension
    file: lojas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: UF, label: UF, type: string}
  - {label: Outras lojas, copyOf: Lojas}
relationships:
  - {from: Vendas.Loja id, to: Lojas.Id}
  - {from: Vendas.Outra loja id, to: Outras lojas.Id}
`)},
				"apps/app/vendas.csv": {Data: []byte("LOJA_ID,VALOR,OUTRA_ID\n" + c.storeIDs)},
				"apps/app/lojas.csv":  {Data: []byte("ID,UF\n1,SP\n2,RJ\n" + c.lojas)},
			}
			if _, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml"); err != nil {
				t.Fatal(err)
			}
			app := storetest.OnlyApp(t, db, "ana")
			if got := app.Relationships[0].Complete; got != c.complete {
				t.Errorf("complete = %v, want %v", got, c.complete)
			}
			if got := app.Relationships[0].Unique; got != c.unique {
				t.Errorf("unique = %v, want %v", got, c.unique)
			}
			// Through a role-playing copy, whose keys are always found here.
			if !app.Relationships[1].Complete {
				t.Error("the relationship to the copy of Lojas is not complete; every key is found")
			}
			if app.Relationships[1].Unique != c.unique {
				t.Errorf("unique through the copy = %v, want %v", app.Relationships[1].Unique, c.unique)
			}
		})
	}
}
