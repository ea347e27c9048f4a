//go:build cgo

package columnar_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// TestValueTables: a sync gives each text column of a large table whose values repeat a table of
// its distinct (folded, value) pairs, which ValuesOf names only at its app's current import; a
// column whose values hardly repeat gets none; a new import is read from the table itself until
// the sync that rebuilds its value tables, and a later sync keeps what is current.
func TestValueTables(t *testing.T) {
	ctx := context.Background()
	defer func(was int64) { *columnar.ValuesSmallTable = was }(*columnar.ValuesSmallTable)
	*columnar.ValuesSmallTable = 10 // the tables below count as large
	db := storetest.Open(t)
	cols := `      - {name: CANAL, label: Canal, type: string}
      - {name: CODIGO, label: Código, type: string}
`
	importRows := func(canais ...string) *semantic.App {
		var csv strings.Builder
		csv.WriteString("ID,CANAL,CODIGO\n")
		for i := range 40 {
			fmt.Fprintf(&csv, "%d,%s,C-%d\n", i, canais[i%len(canais)], i)
		}
		if _, err := db.ImportWorkspace(ctx, storetest.OneTableWorkspace("Vendas", cols, csv.String()), "workspace.yaml"); err != nil {
			t.Fatal(err)
		}
		return appOf(t, db)
	}
	a := importRows("Loja", "LOJA", "Aplicativo", `\N`, "")
	col := syncedCopy(t, db)
	canal, codigo := columnOf(t, a, "Canal"), columnOf(t, a, "Código")
	values := col.ValuesOf(a)
	if got := values(codigo); got != codigo.Table.SQLName {
		t.Errorf("a column of 40 distinct values in 40 rows is read from %s, want its table", got)
	}
	if got := values(canal); got != columnar.ValuesTable(canal) {
		t.Fatalf("a column of 5 values in 40 rows is read from %s, want its value table", got)
	}
	want := []string{"<nil>|<nil>", "|", "aplicativo|Aplicativo", "loja|LOJA", "loja|Loja"}
	if got := pairs(t, col, canal, columnar.ValuesTable(canal)); !slices.Equal(got, want) {
		t.Errorf("value table %v, want %v", got, want)
	}

	b := importRows("Site", "Loja")
	canal = columnOf(t, b, "Canal")
	if got := col.ValuesOf(b)(canal); got != canal.Table.SQLName {
		t.Errorf("before the sync of a new import the values are read from %s, want the table", got)
	}
	if _, err := col.Sync(ctx, db); err != nil {
		t.Fatal(err)
	}
	if got := col.ValuesOf(b)(canal); got != columnar.ValuesTable(canal) {
		t.Fatalf("after the sync the values are read from %s, want the value table", got)
	}
	if got, want := pairs(t, col, canal, columnar.ValuesTable(canal)), []string{"loja|Loja", "site|Site"}; !slices.Equal(got, want) {
		t.Errorf("value table after the new import %v, want %v", got, want)
	}
	if got := col.ValuesOf(a)(columnOf(t, a, "Canal")); got == columnar.ValuesTable(canal) {
		t.Error("the old import's model reads the new import's value table")
	}
	again, err := col.Sync(ctx, db)
	if err != nil || len(again.Copied) != 0 || again.Dropped != 0 {
		t.Errorf("a sync with nothing new copied %v and dropped %d (err %v)", again.Copied, again.Dropped, err)
	}
}

// TestHeldValues: Held gives the values of a column's value table at its app's current import,
// read once and then from memory; nil for a column with no value table, one with more than
// HeldMax values or HeldMaxBytes, an import not yet synced, and an older import.
func TestHeldValues(t *testing.T) {
	ctx := context.Background()
	defer func(was int64) { *columnar.ValuesSmallTable = was }(*columnar.ValuesSmallTable)
	defer func(was int) { *columnar.HeldMax = was }(*columnar.HeldMax)
	*columnar.ValuesSmallTable, *columnar.HeldMax = 10, 4
	db := storetest.Open(t)
	cols := `      - {name: CANAL, label: Canal, type: string}
      - {name: SITUACAO, label: Situação, type: string}
      - {name: CODIGO, label: Código, type: string}
`
	importRows := func(canais ...string) *semantic.App {
		var csv strings.Builder
		csv.WriteString("ID,CANAL,SITUACAO,CODIGO\n")
		for i := range 40 {
			fmt.Fprintf(&csv, "%d,%s,S%d,C-%d\n", i, canais[i%len(canais)], i%5, i)
		}
		if _, err := db.ImportWorkspace(ctx, storetest.OneTableWorkspace("Vendas", cols, csv.String()), "workspace.yaml"); err != nil {
			t.Fatal(err)
		}
		return appOf(t, db)
	}
	a := importRows("Loja", "LOJA", "Aplicativo", `\N`, "")
	col := syncedCopy(t, db)
	held := col.Held(ctx, a)
	canal := columnOf(t, a, "Canal")
	want := map[string]bool{"Loja": true, "LOJA": true, "Aplicativo": true, "": true}
	if got := held(canal); !maps.Equal(got, want) {
		t.Fatalf("held values %v, want %v", got, want)
	}
	for _, label := range []string{"Situação", "Código"} { // five values; no value table
		if got := held(columnOf(t, a, label)); got != nil {
			t.Errorf("%s: held %v, want nil", label, got)
		}
	}
	// Held again from memory: a change of the table behind the copy's back is not read.
	d := sqldialect.DuckDB{}
	rows, err := col.DB().QueryContext(ctx, "UPDATE "+d.QuoteIdent(columnar.ValuesTable(canal))+" SET "+d.QuoteIdent(canal.SQLName)+" = 'Outro'")
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if got := col.Held(ctx, a)(canal); !maps.Equal(got, want) {
		t.Errorf("held values read again: %v, want %v", got, want)
	}

	b := importRows("Site", "Loja")
	if got := col.Held(ctx, b)(columnOf(t, b, "Canal")); got != nil {
		t.Errorf("before the sync of a new import: held %v, want nil", got)
	}
	if _, err := col.Sync(ctx, db); err != nil {
		t.Fatal(err)
	}
	if got, want := col.Held(ctx, b)(columnOf(t, b, "Canal")), map[string]bool{"Site": true, "Loja": true}; !maps.Equal(got, want) {
		t.Errorf("after the sync: held %v, want %v", got, want)
	}
	if got := col.Held(ctx, a)(canal); got != nil {
		t.Errorf("the old import's model: held %v, want nil", got)
	}

	defer func(was int) { *columnar.HeldMaxBytes = was }(*columnar.HeldMaxBytes)
	*columnar.HeldMaxBytes = 7 // "Site" and "Loja" are 8 bytes
	c := importRows("Site", "Loja")
	if _, err := col.Sync(ctx, db); err != nil {
		t.Fatal(err)
	}
	if got := col.Held(ctx, c)(columnOf(t, c, "Canal")); got != nil {
		t.Errorf("values over the bound of bytes: held %v, want nil", got)
	}
}

func appOf(t *testing.T, db *store.DB) *semantic.App {
	t.Helper()
	u, err := db.UserByLogin(context.Background(), "ana")
	if err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(context.Background(), u)
	if err != nil || len(apps) != 1 {
		t.Fatalf("%d apps, %v", len(apps), err)
	}
	return apps[0]
}

func columnOf(t *testing.T, a *semantic.App, label string) *semantic.Column {
	t.Helper()
	for _, c := range a.Tables[0].Columns {
		if c.Label == label {
			return c
		}
	}
	t.Fatalf("no column %s", label)
	return nil
}

// pairs are the (folded, value) rows of table, in order.
func pairs(t *testing.T, col *columnar.Store, c *semantic.Column, table string) []string {
	t.Helper()
	d := sqldialect.DuckDB{}
	rows, err := col.DB().QueryContext(context.Background(), "SELECT "+d.QuoteIdent(c.FoldSQLName)+", "+d.QuoteIdent(c.SQLName)+
		" FROM "+d.QuoteIdent(table)+" ORDER BY 1 NULLS FIRST, 2 NULLS FIRST")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var f, v *string
		if err := rows.Scan(&f, &v); err != nil {
			t.Fatal(err)
		}
		s := func(p *string) string {
			if p == nil {
				return "<nil>"
			}
			return *p
		}
		out = append(out, s(f)+"|"+s(v))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// syncedCopy is an in-memory columnar copy of db, synced, closed when t ends.
func syncedCopy(t *testing.T, db *store.DB) *columnar.Store {
	t.Helper()
	col, err := columnar.Open(context.Background(), columnar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { col.Close() })
	if _, err := col.Sync(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return col
}
