package lumo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/bench"
	"github.com/lumo-caderninho/mcp/impl/lumo/bench/genfs"
	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/longtest"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

// TestRollupsAnswerAlike runs random queries over the benchmark's sales (100,000 rows with
// LUMO_LONG_TESTS=1, as CI runs it; 5,000 without it or with -short), whose app declares a day rollup, here with more rollups (by month, by hour), an
// automatic rollup of the targets fact, calculated columns and conditional measures, with
// rollups off and on: every answer (rows, total, summary, dataAsOf) must be the same, and each
// kind of rollup and of query must occur (some a rollup answers, some it cannot). With cgo, each
// query runs a third time on the columnar copy (DuckDB), rollups on and off in turn, and must
// answer the same too. Then fixed queries check which rollup each block reads, on the app and on
// copies of it keeping only some of its rollups.
func TestRollupsAnswerAlike(t *testing.T) {
	if os.Getenv("LUMO_ROLLUPS") == "off" {
		t.Skip("LUMO_ROLLUPS=off: both sides would read the base tables")
	}
	rows := 100_000
	if longtest.Short() {
		rows = 5_000
		t.Logf("5,000 sales, not 100,000: %s=1 runs the long case", longtest.Env)
	}
	t.Run("sqlite", func(t *testing.T) {
		db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "lumo.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		rollupsAlike(t, db, rows)
	})
	t.Run("postgres", func(t *testing.T) {
		if !sqldb.IsPostgres(os.Getenv(storetest.EnvDSN)) {
			t.Skip("runs on PostgreSQL too with LUMO_TEST_DB=postgres://...")
		}
		rollupsAlike(t, storetest.Open(t), rows)
	})
}

// rollupsWorkspace is the benchmark workspace with its app.yaml extended for the rollup tests.
func rollupsWorkspace(t *testing.T, rows int) fs.FS {
	g := bench.Workspace(rows)
	const path = "apps/vendas/app.yaml"
	y := string(g.Files[path].Data)
	edit := func(old, new string) {
		t.Helper()
		if !strings.Contains(y, old) {
			t.Fatalf("app.yaml has no %q", old)
		}
		y = strings.Replace(y, old, new, 1)
	}
	// Usage makes Lojas.UF the automatic rollup's dimension (Metas declares no rollup).
	edit("{name: UF, label: UF, type: string}", "{name: UF, label: UF, type: string, usage: 4}")
	edit(`      - {name: MARGEM,`, `      - {name: GRUPO, label: Grupo do canal, type: string, formula: 'se([Canal] = "Loja"; "Físico"; "Digital")'}
      - {name: PORTE, label: Porte, type: string, formula: 'se([Quantidade] > 5; "Grande"; "Pequeno")'}
      - {name: ESTADO, label: Estado, type: string, formula: 'se([Situação] não em ("Cancelada"; "Pendente"); "Aberta"; "Fechada")'}
      - {name: MARGEM,`)
	edit("expressions:\n", `expressions:
  - {label: Quantidade fora do site, formula: 'sum([Vendas.Quantidade]) onde [Canal] <> "Site"'}
  - {label: Vendas em SP, formula: 'count([Vendas.Valor da venda]) onde [Lojas.UF] = "SP"'}
  - {label: Média digital, formula: 'avg([Vendas.Valor da venda]) onde [Grupo do canal] = "Digital"'}
  - {label: Custo máximo ativo, formula: 'max([Vendas.Custo]) onde ([Situação] = "Ativa" ou [Canal] = "Site")'}
  - {label: Lojas com venda ativa, formula: 'count_distinct([Vendas.Loja id]) onde [Situação] = "Ativa"'}
  - {label: Vendas de clientes M, formula: 'sum([Vendas.Valor da venda]) onde [Cliente] >= "M"'}
  - {label: Custo desde 2026, formula: 'max([Vendas.Custo]) onde [Data] >= "2026-01-01"'}
`)
	// vendas_por_hora keeps Lojas.UF, saving a join: with -short's 5,000 sales, each in an hour
	// of its own, a rollup of the fact's own columns by hour is as big as the fact, and the
	// planner leaves such a rollup to the fact (noSmaller).
	y += `  - name: uf_mensais
    table: Vendas
    dimensions: [Lojas.UF, Vendas.Situação, Vendas.Canal]
    time: {ref: Vendas.Data, grain: month}
  - name: vendas_por_hora
    table: Vendas
    dimensions: [Vendas.Canal, Lojas.UF]
    time: {ref: Vendas.Data, grain: hour}
    measures: [Vendas.Valor da venda]
`
	g.Files[path] = &fstest.MapFile{Data: []byte(y)}
	// Situação blank both ways: every other NULL (\N) becomes the empty text.
	sales := g.Generated["apps/vendas/vendas.csv"]
	g.Generated["apps/vendas/vendas.csv"] = func() genfs.Lines {
		next, n := sales(), 0
		return func() ([]byte, bool) {
			line, ok := next()
			if ok && bytes.Contains(line, []byte(`,\N,`)) {
				if n++; n%2 == 0 {
					line = bytes.Replace(line, []byte(`,\N,`), []byte(`,,`), 1)
				}
			}
			return line, ok
		}
	}
	// A second app whose fact has a date column (not a date-time) cut by month.
	wy := string(g.Files["workspace.yaml"].Data)
	const app = "      - {key: vendas, source: apps/vendas, desk: Comercial}\n"
	if !strings.Contains(wy, app) {
		t.Fatalf("workspace.yaml has no %q", app)
	}
	g.Files["workspace.yaml"] = &fstest.MapFile{Data: []byte(strings.Replace(wy, app, app+"      - {key: entregas, source: apps/entregas, desk: Comercial}\n", 1))}
	g.Files["apps/entregas/app.yaml"] = &fstest.MapFile{Data: []byte(deliveriesYAML)}
	g.Files["apps/entregas/lojas.csv"] = g.Files["apps/vendas/lojas.csv"]
	rnd := rand.New(rand.NewPCG(7, 11))
	var b strings.Builder
	b.WriteString("ID,ENTREGA,LOJA_ID,VALOR\n")
	day0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3000 {
		d := day0.AddDate(0, 0, rnd.IntN(730)).Format("2006-01-02")
		if i%97 == 0 {
			d = `\N`
		}
		fmt.Fprintf(&b, "%d,%s,%d,%d.%02d\n", i+1, d, 1+rnd.IntN(50), rnd.IntN(900), rnd.IntN(100))
	}
	g.Files["apps/entregas/entregas.csv"] = &fstest.MapFile{Data: []byte(b.String())}
	return g
}

// deliveriesYAML is an app of deliveries by day (a date column), with a rollup by month.
const deliveriesYAML = `name: Entregas
description: Entregas por loja.
tables:
  - label: Entregas
    name: entregas
    kind: fact
    file: entregas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: ENTREGA, label: Entrega, type: date}
      - {name: LOJA_ID, label: Loja id, type: number, role: key}
      - {name: VALOR, label: Valor, type: number, role: measure, unit: BRL}
  - label: Lojas
    name: lojas
    kind: dimension
    file: lojas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Loja, type: string}
      - {name: CIDADE, label: Cidade, type: string}
      - {name: UF, label: UF, type: string}
relationships:
  - {from: Entregas.Loja id, to: Lojas.Id}
rollups:
  - name: entregas_mensais
    table: Entregas
    dimensions: [Lojas.UF]
    time: {ref: Entregas.Entrega, grain: month}
`

// chosen names the rollup each block of plan reads ("" for the base tables).
func chosen(plan *query.Plan) []string {
	var names []string
	for _, b := range plan.Blocks {
		if b.Rollup == nil {
			names = append(names, "")
		} else {
			names = append(names, b.Rollup.Name)
		}
	}
	return names
}

// fileOnlyService imports the rollups workspace as lumo import does on the embedded default, the
// rows in the import's DuckDB file alone (SinkOnly), and serves it from that file; it returns
// the service and ana's apps by name.
func fileOnlyService(t *testing.T, rows int, log *slog.Logger) (*Service, map[string]*semantic.App) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "lumo.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	path := filepath.Join(dir, "lumo.duckdb")
	opts := store.ImportOptions{Sink: columnar.Deferred(columnar.Options{Path: path}).ImportSink(), SinkOnly: true}
	if _, err := db.ImportWorkspaceWith(ctx, rollupsWorkspace(t, rows), "workspace.yaml", opts); err != nil {
		t.Fatal(err)
	}
	col, err := columnar.Open(ctx, columnar.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { col.Close() })
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*semantic.App{}
	for _, a := range apps {
		if !a.RowsInFile {
			t.Fatalf("%s: an import with SinkOnly left the app read from the database", a.Name)
		}
		byName[a.Name] = a
	}
	// The columnar store syncs at the first query, as a server does with nothing to copy.
	return &Service{DB: db, Identity: FixedUser(u), Log: log, QueryTimeout: time.Minute, Columnar: col}, byName
}

// rollupFacts are app's rollups as the import built them: name, dimensions and rows.
func rollupFacts(app *semantic.App) string {
	var b strings.Builder
	for _, r := range app.Rollups {
		fmt.Fprintf(&b, "%s:%d:%d;", r.Name, len(r.Dimensions), r.Rows)
	}
	return b.String()
}

func rollupsAlike(t *testing.T, db *store.DB, rows int) {
	ctx := context.Background()
	// With cgo the import writes its tables and groups its rollups in a DuckDB file of its own,
	// which the columnar copy reads: its rollups are DuckDB's, not copies of the database's.
	path := filepath.Join(t.TempDir(), "lumo.duckdb")
	var opts store.ImportOptions
	if columnar.Available {
		opts.Sink = columnar.Deferred(columnar.Options{Path: path}).ImportSink()
	}
	imported, err := db.ImportWorkspaceWith(ctx, rollupsWorkspace(t, rows), "workspace.yaml", opts)
	if err != nil {
		t.Fatal(err)
	}
	if columnar.Available && (imported.SinkErr != nil || imported.Sunk != len(imported.Tables)+8) {
		t.Fatalf("the import's file holds %d tables (%v); want its %d data tables and 8 rollups", imported.Sunk, imported.SinkErr, len(imported.Tables))
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	var app, deliveries *semantic.App
	for _, a := range apps {
		switch a.Name {
		case "Vendas":
			app = a
		case "Entregas":
			deliveries = a
		}
	}
	if app == nil || deliveries == nil {
		t.Fatalf("apps after import: %d", len(apps))
	}
	var names []string
	for _, r := range app.Rollups {
		names = append(names, r.Name)
		if r.Rows == 0 || r.Rows > int64(rows) {
			t.Errorf("rollup %s: %d rows", r.Name, r.Rows)
		}
	}
	// The automatic rollup of Metas: by day of Mês and by the used Lojas.UF, with Meta.
	if got := strings.Join(names, ","); got != "vendas_diarias,vendas_mensais,vendas_produtos,vendas_clientes,uf_mensais,vendas_por_hora,automatico" {
		t.Fatalf("rollups after import: %s", got)
	}
	if auto := app.Rollups[len(app.Rollups)-1]; auto.Fact.Label != "Metas" || auto.Time.Ref() != "Metas.Mês" || auto.Grain != semantic.GrainDay ||
		len(auto.Dimensions) != 1 || auto.Dimensions[0].Ref() != "Lojas.UF" || len(auto.Measures) != 1 {
		t.Fatalf("automatic rollup: %+v", auto)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	on := &Service{DB: db, Identity: FixedUser(u), Log: log, QueryTimeout: time.Minute}
	off := &Service{DB: db, Identity: FixedUser(u), Log: log, QueryTimeout: time.Minute, NoRollups: true}
	var columnarOn, columnarOff *Service // with cgo: the same queries on the columnar copy
	var fileOnly *Service                // and on an import that kept its rows in its file alone
	var onlyApps map[string]*semantic.App
	if columnar.Available {
		col, err := columnar.Open(ctx, columnar.Options{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { col.Close() })
		if synced, err := col.Sync(ctx, db); err != nil || len(synced.Copied) != 0 {
			t.Fatalf("the copy's sync copied %v (%v); want every table and rollup read from the import's file", synced.Copied, err)
		}
		columnarOn = &Service{DB: db, Identity: FixedUser(u), Log: log, QueryTimeout: time.Minute, Columnar: col, ColumnarSyncOnMiss: true}
		columnarOff = &Service{DB: db, Identity: FixedUser(u), Log: log, QueryTimeout: time.Minute, Columnar: col, ColumnarSyncOnMiss: true,
			NoRollups: true}
		fileOnly, onlyApps = fileOnlyService(t, rows, log)
		for _, a := range apps {
			if got, want := rollupFacts(onlyApps[a.Name]), rollupFacts(a); got != want {
				t.Fatalf("%s's rollups built on the import's file alone: %s; in the database: %s", a.Name, got, want)
			}
		}
	}
	runs := 0

	// run answers args on app with rollups off and on, and returns the blocks' rollups.
	run := func(app *semantic.App, args map[string]any) ([]string, error) {
		t.Helper()
		args["appId"] = app.ID
		raw, _ := json.Marshal(args)
		var in lumoapi.QueryInput
		if err := in.UnmarshalJSON(raw); err != nil {
			t.Fatalf("decoding %s: %v", raw, err)
		}
		_, _, want, errOff := off.execQuery(ctx, app, &in)
		_, plan, got, errOn := on.execQuery(ctx, app, &in)
		if fmt.Sprint(errOff) != fmt.Sprint(errOn) {
			t.Fatalf("%s: error off %v, on %v", raw, errOff, errOn)
		}
		if columnarOn != nil {
			c, how := columnarOn, "rollups on"
			if runs++; runs%2 == 0 {
				c, how = columnarOff, "rollups off"
			}
			_, _, duck, errDuck := c.execQuery(ctx, app, &in)
			if fmt.Sprint(errOff) != fmt.Sprint(errDuck) {
				t.Fatalf("%s: error on the row store %v, on the columnar copy (%s) %v", raw, errOff, how, errDuck)
			}
			if diff := cmp.Diff(want, duck); diff != "" {
				t.Fatalf("%s: the columnar copy (%s) answers otherwise (-row store +columnar):\n%s", raw, how, diff)
			}
			_, _, only, errOnly := fileOnly.execQuery(ctx, onlyApps[app.Name], &in)
			if fmt.Sprint(errOff) != fmt.Sprint(errOnly) {
				t.Fatalf("%s: error on the row store %v, with the rows in the import's file alone %v", raw, errOff, errOnly)
			}
			if only != nil && want != nil && (only.DataAsOf == nil) == (want.DataAsOf == nil) {
				only.DataAsOf = want.DataAsOf // another import, seconds later: its own load time
			}
			if diff := cmp.Diff(want, only); diff != "" {
				t.Fatalf("%s: with the rows in the import's file alone the answer differs (-row store +file):\n%s", raw, diff)
			}
		}
		if errOff != nil {
			return nil, errOff
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: rollup answer differs (-off +on):\n%s", raw, diff)
		}
		return chosen(plan), nil
	}

	m := func(ref, agg string) map[string]any {
		if agg == "" {
			return map[string]any{"ref": ref}
		}
		return map[string]any{"ref": ref, "agg": agg}
	}
	g := func(ref, bucket string) map[string]any {
		if bucket == "" {
			return map[string]any{"ref": ref}
		}
		return map[string]any{"ref": ref, "bucket": bucket}
	}
	fl := func(ref, op string, v any) map[string]any { return map[string]any{"ref": ref, "op": op, "value": v} }
	// Each query draws from one theme: the sales alone, the sales by the hour, the sales with
	// the targets (two facts), the targets alone.
	type theme struct{ groups, measures, filters []map[string]any }
	dates := []map[string]any{
		fl("Vendas.Data", "between", []any{"2025-03-01", "2025-06-30"}), // whole months
		fl("Vendas.Data", "between", []any{"2025-03-02", "2025-06-30"}), // not a month's start
		fl("Vendas.Data", "not between", []any{"2025-01-01", "2025-05-31"}),
		fl("Vendas.Data", "<", "2026-01-01"),
		fl("Vendas.Data", "<=", "2025-09-30"),
		fl("Vendas.Data", ">", "2025-02-28"),
		fl("Vendas.Data", "<=", "2025-09-29"),          // not a month's end
		fl("Vendas.Data", "=", "2025-04-01"),           // one day
		fl("Vendas.Data", ">=", "2025-05-10 12:00:00"), // not on a day boundary
		{"ref": "Vendas.Data", "bucket": "month", "op": "=", "value": "2025-02"},
	}
	themes := []theme{{
		groups: []map[string]any{
			g("Lojas.Loja", ""), g("Lojas.UF", ""), g("Vendas.Situação", ""), g("Vendas.Canal", ""),
			g("Vendas.Data", "day"), g("Vendas.Data", "month"), g("Vendas.Data", "year"), g("Vendas.Data", "month_of_year"),
			g("Vendas.Data", "day_of_week"), g("Vendas.Data", "hour_of_day"),
			g("Vendas.Grupo do canal", ""),                                              // calculated over a dimension
			g("Produtos.Categoria", ""), g("Vendas.Cliente", ""), g("Vendas.Porte", ""), // in no rollup
			g("Vendas.Estado", ""), // a condition on a blank (NULL or the empty text) does not hold
		},
		measures: []map[string]any{
			m("Vendas.Valor da venda", "sum"), m("Vendas.Valor da venda", "avg"), m("Vendas.Custo", "min"), m("Vendas.Custo", "max"),
			m("Vendas.Quantidade", "count"), m("Vendas.Quantidade", "sum"), m("Vendas.Situação", "count_distinct"),
			m("Lojas.UF", "count_distinct"), m("Vendas.Situação", "count"), m("Vendas.Loja id", "max"),
			m("Parte ativa", ""), m("Quantidade fora do site", ""), m("Vendas em SP", ""), m("Média digital", ""),
			m("Custo máximo ativo", ""), m("Lojas com venda ativa", ""),
			m("Vendas.Cliente", "count_distinct"), m("Vendas.Margem", "sum"), m("Vendas de clientes M", ""), m("Custo desde 2026", ""), // in no rollup
		},
		filters: append([]map[string]any{
			fl("Vendas.Situação", "=", "Ativa"), fl("Vendas.Situação", "in", []any{"Pendente", ""}), fl("Vendas.Canal", "!=", "Site"),
			fl("Lojas.UF", "in", []any{"SP", "MG"}), fl("Lojas.Loja", "like", "%0%"),
			fl("Vendas.Grupo do canal", "=", "Digital"), fl("Vendas.Grupo do canal", "like", "%fis%"),
			// patterns that match the empty text, over a column with blank rows: not like keeps them
			fl("Vendas.Situação", "not like", "%"), fl("Vendas.Situação", "not like", "_%"), fl("Vendas.Situação", "like", "%"),
			fl("Vendas.Situação", "not like", "%a%"), fl("Vendas.Grupo do canal", "not like", "%%"),
			fl("Vendas.Porte", "=", "Grande"), // reads a measure: in no rollup
			// negative filters, checked and corrected for case and accents
			fl("Vendas.Canal", "!=", "site"), fl("Vendas.Situação", "not in", []any{"ativa", "PENDENTE"}),
			fl("Vendas.Estado", "=", "Fechada"),
			// a calculated decimal compared exactly
			fl("Vendas.Margem", "between", []any{100.0, 200.0}), fl("Vendas.Margem", ">=", 398.0),
			fl("Vendas.Valor da venda", ">", 500.0), // not a dimension
			{"ref": "Vendas.Valor da venda", "agg": "sum", "op": ">", "value": 1000.0},
		}, dates...),
	}, {
		groups: []map[string]any{g("Vendas.Data", "hour_of_day"), g("Vendas.Canal", ""), g("Vendas.Data", "day"), g("Vendas.Grupo do canal", "")},
		measures: []map[string]any{m("Vendas.Valor da venda", "sum"), m("Vendas.Valor da venda", "avg"), m("Vendas.Valor da venda", "max"),
			m("Vendas.Valor da venda", "count"), m("Vendas.Canal", "count_distinct"), m("Vendas.Quantidade", "sum")},
		filters: append([]map[string]any{fl("Vendas.Canal", "in", []any{"Site", "Loja"}),
			{"ref": "Vendas.Data", "bucket": "hour_of_day", "op": "in", "value": []any{"08:00", "09:00"}}}, dates...),
	}, {
		groups: []map[string]any{g("Lojas.UF", ""), g("Lojas.Loja", ""), g("Lojas.Cidade", "")},
		measures: []map[string]any{m("Vendas.Valor da venda", "sum"), m("Vendas.Cliente", "count_distinct"), m("Parte ativa", ""),
			m("Vendas.Quantidade", "avg"), m("Metas.Meta", "sum"), m("Metas.Meta", "avg"), m("Metas.Mês", "count_distinct"), m("Metas.Meta", "max")},
		filters: []map[string]any{fl("Lojas.UF", "in", []any{"SP", "MG"}), fl("Vendas.Canal", "=", "Site"),
			fl("Metas.Mês", "between", []any{"2025-01-01", "2025-06-30"}), fl("Metas.Mês", ">", "2025-03-31"),
			fl("Vendas.Data", "between", []any{"2025-03-01", "2025-06-30"}), fl("Metas.Meta", ">", 1000.0)},
	}, {
		groups:   []map[string]any{g("Metas.Mês", "month"), g("Metas.Mês", "year"), g("Lojas.UF", ""), g("Lojas.Loja", "")},
		measures: []map[string]any{m("Metas.Meta", "sum"), m("Metas.Meta", "avg"), m("Metas.Mês", "count_distinct"), m("Metas.Meta", "min")},
		filters: []map[string]any{fl("Lojas.UF", "in", []any{"SP", "MG"}), fl("Metas.Mês", "between", []any{"2025-01-01", "2025-06-30"}),
			fl("Metas.Mês", "=", "2025-04-01"), fl("Metas.Meta", ">", 1000.0),
			// the sales no block reads: the stores with some such sale (existence)
			fl("Vendas.Canal", "=", "Site"), fl("Vendas.Situação", "!=", "Ativa")},
	}}
	rnd := rand.New(rand.NewPCG(20, 2))
	pick := func(list []map[string]any, n int) []any {
		out := []any{}
		seen := map[int]bool{}
		for range n {
			i := rnd.IntN(len(list))
			if !seen[i] {
				seen[i] = true
				out = append(out, list[i])
			}
		}
		return out
	}
	reads := map[string]int{} // rollup name -> blocks reading it ("" the base tables)
	multi, multiRolled, condRolled := 0, 0, 0
	n := 400
	if longtest.Short() {
		n = 200
	}
	for range n {
		th := themes[rnd.IntN(len(themes))]
		ms := pick(th.measures, 1+rnd.IntN(3))
		gs := pick(th.groups, rnd.IntN(3))
		args := map[string]any{"limit": 1000, "fields": append(gs, ms...), "filters": pick(th.filters, rnd.IntN(3))}
		if rnd.IntN(3) == 0 {
			// A ranking cut short: ties on the measure as answered are ordered by the groups.
			order := []any{}
			for i, f := range append([]any{ms[0]}, gs...) {
				o := map[string]any{"dir": "asc"}
				if i == 0 {
					o["dir"] = "desc"
				}
				for k, v := range f.(map[string]any) {
					o[k] = v
				}
				order = append(order, o)
			}
			args["orderBy"], args["limit"] = order, 5
		}
		got, err := run(app, args)
		if err != nil {
			continue
		}
		for _, name := range got {
			reads[name]++
		}
		if len(got) > 1 {
			multi++
			if slices.ContainsFunc(got, func(s string) bool { return s != "" }) {
				multiRolled++
			}
		}
		if got[0] != "" && slices.ContainsFunc(ms, func(m any) bool { return m.(map[string]any)["agg"] == nil }) {
			condRolled++
		}
	}
	t.Logf("blocks read: %v; %d queries over two facts, %d with a rollup; %d with an expression by a rollup", reads, multi, multiRolled, condRolled)
	for _, name := range append(names, "") {
		if reads[name] < 3 {
			t.Errorf("only %d blocks read %q: the generator should mix them all", reads[name], name)
		}
	}
	if multiRolled < 3 || multi-multiRolled < 3 || condRolled < 3 {
		t.Errorf("%d queries over two facts, %d with a rollup, %d expressions by a rollup: too few", multi, multiRolled, condRolled)
	}

	// only is app with just the named rollups.
	only := func(names ...string) *semantic.App {
		a := *app
		a.Rollups = nil
		for _, r := range app.Rollups {
			if slices.Contains(names, r.Name) {
				a.Rollups = append(a.Rollups, r)
			}
		}
		return &a
	}
	f := func(ref string, extra ...string) map[string]any {
		m := map[string]any{"ref": ref}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i]] = extra[i+1]
		}
		return m
	}
	data := func(op string, v any) map[string]any {
		return map[string]any{"ref": "Vendas.Data", "op": op, "value": v}
	}
	sum := f("Vendas.Valor da venda", "agg", "sum")
	byMonth := f("Vendas.Data", "bucket", "month")
	month := only("uf_mensais")
	hour := only("vendas_por_hora")
	cases := []struct {
		name    string
		app     *semantic.App
		fields  []any
		filters []any
		want    []string // the rollup of each block
	}{
		{"month bucket, whole months", app, []any{byMonth, f("Lojas.UF"), sum}, []any{data("between", []any{"2025-04-01", "2025-06-30"})}, []string{"uf_mensais"}},
		{"year and month of year", app, []any{f("Vendas.Data", "bucket", "year"), f("Vendas.Data", "bucket", "month_of_year"), sum},
			[]any{data(">=", "2025-04-01"), data("<", "2026-04-01")}, []string{"uf_mensais"}},
		{"month ends", month, []any{byMonth, sum}, []any{data(">", "2025-03-31"), data("<=", "2025-11-30")}, []string{"uf_mensais"}},
		{"not between whole months", month, []any{byMonth, sum}, []any{data("not between", []any{"2025-02-01", "2025-12-31"})}, []string{"uf_mensais"}},
		{"last day a date holds", month, []any{byMonth, sum}, []any{data("<=", "9999-12-31")}, []string{"uf_mensais"}},
		{"between from the 2nd", month, []any{byMonth, sum}, []any{data("between", []any{"2025-04-02", "2025-06-30"})}, []string{""}},
		{"between to the 29th", month, []any{byMonth, sum}, []any{data("between", []any{"2025-04-01", "2025-06-29"})}, []string{""}},
		{"after a month's start", month, []any{byMonth, sum}, []any{data(">", "2025-04-01")}, []string{""}},
		{"one day", month, []any{byMonth, sum}, []any{data("=", "2025-04-01")}, []string{""}},
		{"a time", month, []any{byMonth, sum}, []any{data(">=", "2025-04-01 00:00:00")}, []string{""}},
		{"day bucket", month, []any{f("Vendas.Data", "bucket", "day"), sum}, nil, []string{""}},
		{"day of week", month, []any{f("Vendas.Data", "bucket", "day_of_week"), sum}, nil, []string{""}},
		{"day rollup for days", app, []any{byMonth, sum}, []any{data("between", []any{"2025-04-02", "2025-06-30"})}, []string{"vendas_diarias"}},
		{"hour of day", app, []any{f("Vendas.Data", "bucket", "hour_of_day"), f("Vendas.Canal"), sum}, []any{data("between", []any{"2025-04-02", "2025-04-20"})}, []string{"vendas_por_hora"}},
		{"hour rollup by day", hour, []any{f("Vendas.Data", "bucket", "day"), sum}, []any{data(">=", "2025-04-02"), data("<=", "2025-04-20")}, []string{"vendas_por_hora"}},
		{"hour rollup, hour filter", hour, []any{f("Vendas.Canal"), sum}, []any{map[string]any{"ref": "Vendas.Data", "bucket": "hour_of_day", "op": "between", "value": []any{"08:00", "12:00"}}}, []string{"vendas_por_hora"}},
		{"hour rollup, time of day", hour, []any{f("Vendas.Canal"), sum}, []any{data(">=", "2025-05-10 12:00:00")}, []string{""}},
		{"condition on dimensions", app, []any{f("Lojas.UF"), f("Parte ativa"), f("Custo máximo ativo"), f("Lojas com venda ativa")}, nil, []string{"vendas_mensais"}},
		{"conditions in the month rollup", app, []any{byMonth, f("Vendas em SP"), f("Quantidade fora do site"), f("Média digital")}, nil, []string{"uf_mensais"}},
		{"condition on the client rollup's dimension", app, []any{f("Lojas.UF"), f("Vendas de clientes M")}, nil, []string{"vendas_clientes"}},
		{"condition on the client in the month rollup", month, []any{f("Lojas.UF"), f("Vendas de clientes M")}, nil, []string{""}},
		{"condition on the date-time", app, []any{f("Lojas.UF"), f("Custo desde 2026")}, nil, []string{""}},
		{"calculated group and filter", app, []any{f("Vendas.Grupo do canal"), sum},
			[]any{map[string]any{"ref": "Vendas.Grupo do canal", "op": "like", "value": "%gi%"}}, []string{"uf_mensais"}},
		{"calculated over a measure", app, []any{f("Vendas.Porte"), sum}, nil, []string{""}},
		{"calculated measure", app, []any{f("Lojas.UF"), f("Vendas.Margem", "agg", "sum")}, nil, []string{""}},
		{"two facts", app, []any{f("Lojas.UF"), sum, f("Metas.Meta", "agg", "sum")}, nil, []string{"uf_mensais", "automatico"}},
		{"two facts, one by the client rollup", app, []any{f("Lojas.UF"), f("Vendas.Cliente", "agg", "count_distinct"), f("Metas.Meta", "agg", "avg")},
			[]any{map[string]any{"ref": "Metas.Mês", "op": "between", "value": []any{"2025-01-01", "2025-06-30"}}}, []string{"vendas_clientes", "automatico"}},
		{"two facts, one by the base", only("uf_mensais", "automatico"), []any{f("Lojas.UF"), f("Vendas.Cliente", "agg", "count_distinct"), f("Metas.Meta", "agg", "avg")},
			[]any{map[string]any{"ref": "Metas.Mês", "op": "between", "value": []any{"2025-01-01", "2025-06-30"}}}, []string{"", "automatico"}},
		{"two facts, a filter of one", app, []any{f("Lojas.UF"), sum, f("Metas.Meta", "agg", "sum")},
			[]any{map[string]any{"ref": "Vendas.Canal", "op": "=", "value": "Site"}}, []string{"uf_mensais", "automatico"}},
		{"two facts, a store group", app, []any{f("Lojas.Loja"), sum, f("Metas.Meta", "agg", "sum")}, nil, []string{"vendas_mensais", ""}},
		{"automatic rollup", app, []any{f("Metas.Mês", "bucket", "month"), f("Metas.Meta", "agg", "sum"), f("Metas.Mês", "agg", "count_distinct")},
			[]any{map[string]any{"ref": "Lojas.UF", "op": "in", "value": []any{"SP", "MG"}}}, []string{"automatico"}},
	}
	for _, c := range cases {
		got, err := run(c.app, map[string]any{"limit": 1000, "fields": c.fields, "filters": append([]any{}, c.filters...)})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: blocks read %q, want %q", c.name, got, c.want)
		}
	}

	// A date column cut by month: the raw value and the day are finer than the rollup; bounds
	// on month boundaries only read it.
	e := "Entregas.Entrega"
	dg := []map[string]any{g(e, "month"), g(e, "year"), g(e, "month_of_year"), g("Lojas.UF", ""),
		g(e, "day"), g(e, ""), g(e, "day_of_week"), g("Lojas.Cidade", "")} // the last four in no rollup
	dm := []map[string]any{m("Entregas.Valor", "sum"), m("Entregas.Valor", "avg"), m("Entregas.Valor", "min"), m("Entregas.Valor", "max"),
		m("Entregas.Valor", "count"), m(e, "count"), m("Lojas.UF", "count_distinct"), m(e, "count_distinct")} // the last in no rollup
	df := []map[string]any{fl(e, "between", []any{"2025-04-01", "2025-06-30"}), fl(e, "between", []any{"2025-04-01", "2025-06-29"}),
		fl(e, "between", []any{"2025-04-02", "2025-06-30"}), fl(e, "not between", []any{"2025-02-01", "2026-01-31"}),
		fl(e, ">=", "2025-03-01"), fl(e, ">=", "2025-03-02"), fl(e, "<", "2026-02-01"), fl(e, "<", "2026-01-31"),
		fl(e, ">", "2025-08-31"), fl(e, ">", "2025-09-01"), fl(e, "<=", "2026-02-28"), fl(e, "<=", "2026-02-27"),
		fl(e, "=", "2025-05-01"), fl(e, "in", []any{"2025-05-01", ""}), fl(e, "=", ""), fl(e, "!=", ""),
		{"ref": e, "op": "is null"}, {"ref": e, "bucket": "month", "op": "in", "value": []any{"2025-03", "2026-07"}},
		fl("Lojas.UF", "in", []any{"SP", "MG"})}
	dreads := map[string]int{}
	for range n / 2 {
		got, err := run(deliveries, map[string]any{"limit": 1000,
			"fields": append(pick(dg, rnd.IntN(3)), pick(dm, 1+rnd.IntN(2))...), "filters": pick(df, rnd.IntN(3))})
		if err == nil {
			dreads[got[0]]++
		}
	}
	t.Logf("deliveries' blocks read: %v", dreads)
	if dreads["entregas_mensais"] < 10 || dreads[""] < 10 {
		t.Errorf("deliveries' blocks read %v: the generator should mix both", dreads)
	}
	for _, c := range []struct {
		filter map[string]any
		want   string
	}{
		{fl(e, "between", []any{"2025-04-01", "2025-06-30"}), "entregas_mensais"},
		{fl(e, "<=", "2026-02-28"), "entregas_mensais"},
		{fl(e, ">", "2025-08-31"), "entregas_mensais"},
		{fl(e, "between", []any{"2025-04-01", "2025-06-29"}), ""},
		{fl(e, "<=", "2026-02-27"), ""},
		{fl(e, "=", "2025-05-01"), ""},
	} {
		got, err := run(deliveries, map[string]any{"fields": []any{g(e, "month"), m("Entregas.Valor", "sum")}, "filters": []any{c.filter}})
		if err != nil || got[0] != c.want {
			t.Errorf("deliveries filtered by %v: blocks read %q (%v), want %q", c.filter, got, err, c.want)
		}
	}
}
