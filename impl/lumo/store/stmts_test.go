package store_test

import (
	"fmt"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// Reads through prepared statements see every import: a re-import that keeps the table's name but
// changes a column's type and the rows reads the new rows with the new type.
func TestPreparedReadsFollowImports(t *testing.T) {
	db := storetest.Open(t)
	ws := func(typ, csv string) fstest.MapFS {
		return storetest.OneTableWorkspace("App", "      - {name: V, label: V, type: "+typ+"}\n", csv)
	}
	u := func() *store.User {
		u, err := db.UserByLogin(ctx, "ana")
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	read := func() []string {
		apps, err := db.VisibleApps(ctx, u()) // what every tool call does first: it sees the import
		if err != nil || len(apps) != 1 {
			t.Fatalf("apps: %v %v", apps, err)
		}
		tbl := apps[0].Tables[0]
		q := fmt.Sprintf("SELECT %s FROM %s ORDER BY 1", db.Dialect().QuoteIdent(tbl.Columns[1].SQLName), db.Dialect().QuoteIdent(tbl.SQLName))
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var v any
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(v))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if _, err := db.ImportWorkspace(ctx, ws("number", "ID,V\n1,10\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if got := fmt.Sprint(read()); got != "[10]" {
			t.Fatalf("first import: %s", got)
		}
	}
	if _, err := db.ImportWorkspace(ctx, ws("string", "ID,V\n1,dez\n2,onze\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(read()); got != "[dez onze]" {
		t.Fatalf("after the re-import: %s", got)
	}
}

// Many callers running more distinct statements than the cache holds all get their own answers,
// and the cache stays within its bound.
func TestStatementCacheUnderChurn(t *testing.T) {
	db := storetest.Open(t)
	const texts = 600
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 300 {
				n := (i*7 + w*131) % texts
				q := fmt.Sprintf("SELECT %d + 0 * %s", n, map[bool]string{true: "$1", false: "?"}[db.Engine() == "postgres"])
				var got int
				rows, err := db.QueryContext(ctx, q, 1)
				if err == nil {
					for rows.Next() {
						err = rows.Scan(&got)
					}
					rows.Close()
				}
				if err == nil && got != n {
					err = fmt.Errorf("%s answered %d", q, got)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := store.StmtCacheLen(db); n > 256 || n == 0 {
		t.Errorf("%d statements kept; want 1..256", n)
	}
}
