//go:build cgo

package lumo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// TestQueriesReadTheColumnarCopy checks where a query reads: the columnar copy when it holds the
// app at its current import (an edit made only in the copy shows in the answer); before the
// copy holds it (no sync yet, or a new import) it waits for the copy's sync, never answering from
// the stale copy or the database: with no sync running it says the copy is being prepared, and
// with Keep running it answers from the copy as soon as Keep has synced (the digits of DuckDB's
// decimal sum, not SQLite's double); after a failed sync it reads the database.
func TestQueriesReadTheColumnarCopy(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, twoTenantsWith("Vendas", "ID,V\n1,10\n2,20\n3,\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	col, err := columnar.Open(ctx, columnar.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { col.Close() })
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	svc := &Service{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Identity: FixedUser(u), ResultCacheBytes: -1, Columnar: col,
		QueryTimeout: 100 * time.Millisecond}
	sumOrErr := func() (float64, error) {
		t.Helper()
		apps, err := db.VisibleApps(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		out, err := svc.Query(ctx, &lumoapi.QueryInput{AppId: lumoapi.AppId(apps[0].ID),
			Fields: []lumoapi.Field{{Ref: "Itens.Valor", Agg: lumoapi.NewOptAgg(lumoapi.AggSum)}}})
		if err != nil {
			return 0, err
		}
		return out.Rows[0][0].Float64, nil
	}
	sum := func() float64 {
		t.Helper()
		got, err := sumOrErr()
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	preparing := func(when string) {
		t.Helper()
		_, err := sumOrErr()
		var te *mcpserver.ToolError
		if !errors.As(err, &te) || te.Code != "UNAVAILABLE" || !strings.Contains(te.Message, "ainda estão sendo copiados para o motor colunar") {
			t.Fatalf("%s, with no sync running: %v; want UNAVAILABLE, the copy being prepared", when, err)
		}
	}
	// In the copy only: the value column of the app's data table, doubled.
	double := func() {
		t.Helper()
		apps, err := db.VisibleApps(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		tb := apps[0].Tables[0]
		var v string
		for _, c := range tb.Columns {
			if c.Name == "V" {
				v = sqldialect.DuckDB{}.QuoteIdent(c.SQLName)
			}
		}
		if _, err := col.DB().(*sql.DB).Exec("UPDATE " + sqldialect.DuckDB{}.QuoteIdent(tb.SQLName) + " SET " + v + " = " + v + " * 2"); err != nil {
			t.Fatal(err)
		}
	}

	preparing("before any sync")
	synced, err := col.Sync(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if len(synced.Copied) != 2 || synced.Rows != 5 { // both tenants' tables: 3 + 2 rows
		t.Fatalf("first sync: %+v", synced)
	}
	double()
	if got := sum(); got != 60 {
		t.Fatalf("the query did not read the columnar copy: want the copy's 60, got %v", got)
	}
	if again, err := col.Sync(ctx, db); err != nil || len(again.Copied) != 0 {
		t.Fatalf("a sync with nothing imported since copied %v (%v)", again.Copied, err)
	}

	if _, err := db.ImportWorkspace(ctx, twoTenantsWith("Vendas", "ID,V\n1,1\n2,2\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	preparing("after a new import")
	if _, err := col.Sync(ctx, db); err != nil {
		t.Fatal(err)
	}
	double()
	if got := sum(); got != 6 {
		t.Fatalf("after the sync the copy answers: want 6, got %v", got)
	}

	// With Keep running (its poll far off: only the question's wait wakes it), a new import is
	// answered from the copy once synced: 0.1 + 0.2 summed exactly, where SQLite's doubles give
	// 0.30000000000000004.
	if _, err := db.ImportWorkspace(ctx, twoTenantsWith("Vendas", "ID,V\n1,0.1\n2,0.2\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	svc.QueryTimeout = time.Minute
	kept := make(chan struct{})
	keep, stop := context.WithCancel(ctx)
	go func() { col.Keep(keep, db, time.Hour); close(kept) }()
	if got := sum(); got != 0.3 {
		t.Fatalf("with Keep running the question must wait for the copy's exact sum 0.3, got %v", got)
	}
	stop()
	<-kept

	// A failed sync (here, cancelled) leaves the copy stale: the database answers meanwhile.
	if _, err := db.ImportWorkspace(ctx, twoTenantsWith("Vendas", "ID,V\n1,4\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	cancelled, fail := context.WithCancel(ctx)
	fail()
	if _, err := col.Sync(cancelled, db); err == nil {
		t.Fatal("a cancelled sync succeeded")
	}
	if got := sum(); got != 4 {
		t.Fatalf("after a failed sync the database answers: want 4, got %v", got)
	}
	if _, err := col.Sync(ctx, db); err != nil {
		t.Fatal(err)
	}

	// A tenant's app no longer imported leaves the copy at the next sync.
	ws := twoTenantsWith("Vendas", "ID,V\n1,1\n")
	ws["apps/vendas/app.yaml"].Data = append(ws["apps/vendas/app.yaml"].Data, []byte(`  - label: Extra
    name: extra
    kind: dimension
    file: itens.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: V, label: Valor, type: number}
`)...)
	if _, err := db.ImportWorkspace(ctx, ws, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	if s, err := col.Sync(ctx, db); err != nil || len(s.Copied) != 3 || s.Dropped != 0 {
		t.Fatalf("sync after adding a table: %+v, %v", s, err)
	}
	if _, err := db.ImportWorkspace(ctx, twoTenantsWith("Vendas", "ID,V\n1,1\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	if s, err := col.Sync(ctx, db); err != nil || s.Dropped != 1 {
		t.Fatalf("sync after removing a table: %+v, %v", s, err)
	}
}

// A rollup's sums outgrow its measure's values: 2,000 amounts a group of 15 digits sum past the 18
// digits of the measure's column type, and the copy keeps them (as DECIMAL(38)).
func TestColumnarRollupSumsPastTheMeasuresDigits(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	var b strings.Builder
	b.WriteString("ID,GRUPO,V\n")
	for i := range 4000 {
		fmt.Fprintf(&b, "%d,g%d,9999999999999.99\n", i, i%2)
	}
	csv := b.String()
	ws := storetest.OneTableWorkspace("Grandes", `      - {name: GRUPO, label: Grupo, type: string}
      - {name: V, label: Valor, type: number, role: measure}
rollups:
  - name: por_grupo
    table: Itens
    dimensions: [Itens.Grupo]
`, csv)
	if _, err := db.ImportWorkspace(ctx, ws, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	col := syncedCopy(t, db, "")
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	in := &lumoapi.QueryInput{AppId: lumoapi.AppId(apps[0].ID), Fields: []lumoapi.Field{{Ref: "Itens.Grupo"},
		{Ref: "Itens.Valor", Agg: lumoapi.NewOptAgg(lumoapi.AggSum)}}}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &Service{DB: db, Log: log, Identity: FixedUser(u), ResultCacheBytes: -1, Columnar: col}
	_, plan, got, err := svc.execQuery(ctx, apps[0], in)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Blocks[0].Rollup == nil {
		t.Fatal("the query did not read the rollup")
	}
	for _, row := range got.Rows {
		if v, _ := row[1].(float64); math.Abs(v-9999999999999.99*2000) > 1e4 {
			t.Errorf("%v: sum %v, want about %v", row[0], v, 9999999999999.99*2000)
		}
	}
}

// A query past the copy's memory limit runs on the database, which holds the same rows, and
// answers what the database answers; on DuckDB alone it is MEMORY_LIMIT in words, never INTERNAL.
func TestAQueryPastTheCopysMemoryRunsOnTheDatabase(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	// A builder, not +=: appending to a string copies it each time, and 60,000 copies of a
	// growing megabyte took minutes.
	var b strings.Builder
	b.WriteString("ID,CLIENTE\n")
	for i := range 60000 {
		fmt.Fprintf(&b, "%d,cliente %d\n", i, i)
	}
	csv := b.String()
	if _, err := db.ImportWorkspace(ctx, storetest.OneTableWorkspace("Clientes", "      - {name: CLIENTE, label: Cliente, type: string}\n", csv), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	// In a file, checkpointed, so that the copied rows can leave memory for the limit below: in
	// memory they would have to fit in it.
	col := syncedCopy(t, db, filepath.Join(t.TempDir(), "lumo.duckdb"))
	if _, err := col.DB().(*sql.DB).ExecContext(ctx, "CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	if _, err := col.DB().(*sql.DB).ExecContext(ctx, "SET GLOBAL memory_limit = '1MB'"); err != nil {
		t.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	in := &lumoapi.QueryInput{AppId: lumoapi.AppId(apps[0].ID), Fields: []lumoapi.Field{{Ref: "Itens.Cliente"}, {Ref: "Itens.Id", Agg: lumoapi.NewOptAgg(lumoapi.AggCount)}},
		OrderBy: []lumoapi.OrderBy{{Ref: "Itens.Cliente", Dir: lumoapi.OrderByDirDesc}}, Limit: lumoapi.NewOptInt(3)}
	var logs strings.Builder
	log := slog.New(slog.NewTextHandler(&logs, nil))
	onDB := &Service{DB: db, Log: log, Identity: FixedUser(u), ResultCacheBytes: -1}
	want, err := onDB.Query(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	svc := &Service{DB: db, Log: log, Identity: FixedUser(u), ResultCacheBytes: -1, Columnar: col}
	got, err := svc.Query(ctx, in)
	if err != nil {
		t.Fatalf("past the copy's memory: %v", err)
	}
	if fmt.Sprint(got.Rows) != fmt.Sprint(want.Rows) || got.TotalRows != 60000 {
		t.Errorf("rows %v (total %d), want the database's %v", got.Rows, got.TotalRows, want.Rows)
	}
	if !strings.Contains(logs.String(), "past the columnar copy's memory limit") {
		t.Errorf("the query did not reach the copy's limit, so the test proves nothing:\n%s", logs.String())
	}

	// On DuckDB alone: the limit in words.
	q, err := query.Analyze(apps[0], query.Request{Fields: []query.Item{{Ref: "Itens.Cliente"}, {Ref: "Itens.Id", Agg: "count"}}, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := query.PlanQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	_, err = query.Execute(ctx, col.DB(), q, plan, query.RendererFor(sqldialect.DuckDB{}).Render(q, plan, nil))
	var qe *query.Error
	if !errors.As(err, &qe) || qe.Code != query.CodeMemoryLimit || !strings.Contains(qe.Message, "--columnar-memory") {
		t.Errorf("on DuckDB alone: %v, want MEMORY_LIMIT naming --columnar-memory", err)
	}
}

// syncedCopy is a columnar copy of db (in the file path, or in memory for ""), synced, closed
// when tb ends.
func syncedCopy(tb testing.TB, db *store.DB, path string) *columnar.Store {
	tb.Helper()
	col, err := columnar.Open(context.Background(), columnar.Options{Path: path})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { col.Close() })
	if _, err := col.Sync(context.Background(), db); err != nil {
		tb.Fatal(err)
	}
	return col
}
