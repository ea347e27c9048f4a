//go:build cgo

package columnar_test

import (
	"context"
	"database/sql"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

// directSale holds every Parquet type DuckDB's reader loads for lumo: integers, DECIMALs on
// INT64 and INT32 (one past what an exact decimal holds), DOUBLEs (a column of few decimals, an
// exact decimal, and one past it, a float; -0 in both), texts with accents, runs of spaces,
// empty and NULL, a DATE, and a local TIMESTAMP with fractions of a second, before 1970 too.
type directSale struct {
	ID      int64   `parquet:"ID"`
	QTD     int32   `parquet:"QTD"`
	V       int64   `parquet:"V,decimal(2:12)"`
	P       int32   `parquet:"P,decimal(4:9)"`
	GRANDE  int64   `parquet:"GRANDE,decimal(3:18)"`
	CLIENTE *string `parquet:"CLIENTE,optional"`
	D       *int32  `parquet:"D,optional,date"`
	T       *int64  `parquet:"T,optional,timestamp(millisecond:local)"`
	LOJA    int64   `parquet:"LOJA"`
	AL      float64 `parquet:"AL"`
	TAXA    float64 `parquet:"TAXA"`
}

// directUTC holds instants, read as Brasília's wall clock: in summer time (until 2019), before
// the zone (local mean time, 1913), a millisecond before 1970.
type directUTC struct {
	ID int64  `parquet:"ID"`
	T  *int64 `parquet:"T,optional,timestamp(millisecond:utc)"`
}

// directGoal is a table lumo's own reader loads: a 32-bit float is read as its shortest text.
type directGoal struct {
	LOJA int64   `parquet:"LOJA"`
	ALVO float32 `parquet:"ALVO"`
}

const directApp = `name: Vendas
tables:
  - label: Vendas
    name: vendas
    kind: fact
    file: vendas.parquet
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: QTD, label: Qtd, type: number, role: measure}
      - {name: V, label: Valor, type: number, role: measure}
      - {name: P, label: Peso, type: number, role: measure}
      - {name: GRANDE, label: Grande, type: number, role: measure}
      - {name: CLIENTE, label: Cliente, type: string}
      - {name: D, label: Dia, type: date}
      - {name: T, label: Hora, type: datetime}
      - {name: LOJA, label: Loja id, type: number, role: key}
      - {name: AL, label: Alíquota, type: number, role: measure}
      - {name: TAXA, label: Taxa, type: number, role: measure}
  - label: Lojas
    name: lojas
    kind: dimension
    file: lojas
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Loja, type: string}
  - label: Eventos
    name: eventos
    kind: fact
    file: eventos.parquet
    columns:
      - {name: ID, label: Evento, type: number, role: key}
      - {name: T, label: Momento, type: datetime}
  - label: Metas
    name: metas
    kind: fact
    file: metas.parquet
    columns:
      - {name: LOJA, label: Loja da meta, type: number, role: key}
      - {name: ALVO, label: Alvo, type: number, role: measure}
relationships:
  - {from: Vendas.Loja id, to: Lojas.Id}
rollups:
  - name: por_loja
    table: Vendas
    dimensions: [Lojas.Loja]
  - name: por_hora
    table: Vendas
    time: {ref: Vendas.Hora, grain: hour}
    measures: [Vendas.Valor]
`

// directWorkspace writes the workspace of directApp into a new folder, with sales (extra
// generated ones after the edge cases), a folder of two store parts and the events.
func directWorkspace(t *testing.T, sales []directSale) string {
	t.Helper()
	dir := t.TempDir()
	app := filepath.Join(dir, "apps", "app")
	if err := os.MkdirAll(filepath.Join(app, "lojas"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(dir, "workspace.yaml"): string(sinkWorkspace(0)["workspace.yaml"].Data), // one app, apps/app
		filepath.Join(app, "app.yaml"):       directApp,
	}
	for p, data := range files {
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type store struct {
		ID   int64  `parquet:"ID"`
		NOME string `parquet:"NOME"`
	}
	writeParquet(t, filepath.Join(app, "vendas.parquet"), sales)
	writeParquet(t, filepath.Join(app, "lojas", "part-0.parquet"), []store{{1, "Centro"}})
	writeParquet(t, filepath.Join(app, "lojas", "part-1.parquet"), []store{{2, "São  João "}})
	ms := millis
	writeParquet(t, filepath.Join(app, "eventos.parquet"), []directUTC{{1, ms("1970-01-01 00:00:00.000")}, {2, ms("2023-11-14 22:13:20.123")},
		{3, ms("2018-12-25 12:00:00.000")}, {4, ms("2019-02-17 01:59:59.999")}, {5, ms("1913-06-01 00:00:00.000")},
		{6, ms("1969-12-31 23:59:59.999")}, {7, nil}})
	writeParquet(t, filepath.Join(app, "metas.parquet"), []directGoal{{1, 0.1}, {2, 1234.5678}})
	return dir
}

func writeParquet[T any](t *testing.T, path string, rows []T) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := parquet.NewGenericWriter[T](f, parquet.MaxRowsPerRowGroup(1000))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// millis is the milliseconds from the epoch of s, a date and time with milliseconds in UTC.
func millis(s string) *int64 {
	d, _ := time.Parse("2006-01-02 15:04:05.000", s)
	n := d.UnixMilli()
	return &n
}

func directSales(extra int) []directSale {
	str := func(s string) *string { return &s }
	day := func(s string) *int32 {
		d, _ := time.Parse("2006-01-02", s)
		n := int32(d.Unix() / 86400)
		return &n
	}
	at := millis
	negZero := math.Copysign(0, -1)
	sales := []directSale{
		{1, 3, 30, 12345, 100000000000000000, str("Ana"), day("2024-02-29"), at("2024-01-01 00:00:00.999"), 1, 0.1, 1e20},
		{2, -1, -267, -1, -3, nil, day("1969-12-31"), at("1960-06-15 23:59:59.500"), 2, negZero, negZero},
		{3, 0, 999999999999, 0, 0, str(""), day("0001-01-01"), at("1969-12-31 23:59:59.001"), 1, 1e-7, 0.1 + 0.2},
		{4, 2147483647, -999999999999, 1, 123456789012345678, str("  São  JOÃO "), day("9999-12-31"), at("9999-12-31 23:59:59.999"), 2, -2.5, -1.5e-300},
		{5, -2147483648, 123456789012, 99999, 5, str("Conceição"), nil, nil, 2, 1234567.125, 2},
		{6, 7, 0, 10000, -999999999999999999, str("ZÉ"), day("2026-09-30"), at("2026-09-30 14:05:09.000"), 1, 0, 1.7976931348623157e308},
	}
	for i := range extra {
		sales = append(sales, directSale{int64(100 + i), int32(i % 9), int64(i * 7), int32(i % 10000), int64(i), str("Cliente " + string(rune('A'+i%26))),
			day("2025-01-0" + string(rune('1'+i%9))), at("2025-01-01 10:00:00.250"), int64(1 + i%2), float64(i%100) / 8, float64(i) * 1.1})
	}
	return sales
}

// lumoReaderOnly hides a sink's Parquet loads, so the import reads every table with lumo's
// own reader.
type lumoReaderOnly struct{ store.DataSink }

// importDirect imports the workspace in dir into a new SQLite database and its DuckDB file,
// with DuckDB's Parquet reader unless readerOnly, and returns the database, the file's copy,
// the import's summary and how many tables DuckDB's reader loaded.
func importDirect(t *testing.T, dir string, readerOnly bool) (*store.DB, *columnar.Store, store.Summary, int, error) {
	t.Helper()
	db := sqliteDB(t)
	path := filepath.Join(t.TempDir(), "lumo.duckdb")
	sink := columnar.Deferred(columnar.Options{Path: path}).ImportSink()
	var given store.DataSink = sink
	if readerOnly {
		given = lumoReaderOnly{sink}
	}
	sum, err := db.ImportWorkspaceWith(context.Background(), workspace.DirFS(dir), "workspace.yaml", store.ImportOptions{Sink: given, SinkOnly: true})
	if err != nil {
		return db, nil, sum, columnar.DirectTables(sink), err
	}
	c, _ := openSynced(t, path, db)
	return db, c, sum, columnar.DirectTables(sink), nil
}

// TestDirectParquetLoadsWhatLumosReaderLoads: the tables DuckDB's Parquet reader loads are,
// type for type and value for value, what lumo's reader loads (texts folded by fold.Fold,
// numbers retyped as exact decimals or floats alike, datetimes cut to the second as lumo cuts
// them, before 1970 too, instants on Brasília's wall clock of their day), with their value
// tables, rollups and catalogue facts; a table of a type whose conversion is lumo's own (a
// float's decimals) is left to lumo's reader.
func TestDirectParquetLoadsWhatLumosReaderLoads(t *testing.T) {
	got, app := importBothWays(t, directWorkspace(t, directSales(3000)), 3)
	if dump := tableDump(t, got, app.Tables[0].SQLName); !strings.Contains(dump, "  São  JOÃO |sao joao|") ||
		!strings.Contains(dump, "1960-06-15 23:59:59|") || !strings.Contains(dump, "DECIMAL(18,2)") ||
		!strings.Contains(dump, "_al DECIMAL(18,7)") || !strings.Contains(dump, "_taxa DOUBLE") {
		t.Errorf("the sales table lacks a folded text, a datetime cut to the second before 1970 or an exact decimal:\n%.2000s", dump)
	}
	if dump := tableDump(t, got, app.Tables[2].SQLName); !strings.Contains(dump, "|2018-12-25 10:00:00|") ||
		!strings.Contains(dump, "|1969-12-31 20:59:59|") || !strings.Contains(dump, "|1913-05-31 20:53:32|") {
		t.Errorf("the events are not Brasília's wall clock (summer time, before 1970, local mean time):\n%s", dump)
	}
}

// importBothWays imports the workspace in dir with lumo's reader alone and with DuckDB's
// readers, which must load direct tables, and checks that the import's report, the catalogue
// and every table, value table and rollup are the same both ways (rollups to 12 digits: sums of
// floats in another order differ in their last bits). It returns the copy DuckDB's readers
// loaded and its app.
func importBothWays(t *testing.T, dir string, direct int) (*sql.DB, *semantic.App) {
	t.Helper()
	refDB, ref, refSum, refDirect, err := importDirect(t, dir, true)
	if err != nil {
		t.Fatal(err)
	}
	db, got, sum, loaded, err := importDirect(t, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if refDirect != 0 || loaded != direct {
		t.Fatalf("DuckDB's readers loaded %d tables, want %d; %d without them", loaded, direct, refDirect)
	}
	if diff := cmp.Diff(refSum.Tables, sum.Tables); diff != "" {
		t.Errorf("the import's report (-lumo's reader +DuckDB's):\n%s", diff)
	}
	app, want := onlyApp(t, db), onlyApp(t, refDB)
	if diff := cmp.Diff(catalogueFacts(want), catalogueFacts(app)); diff != "" {
		t.Errorf("catalogue (-lumo's reader +DuckDB's):\n%s", diff)
	}
	rollups := map[string]bool{}
	for _, r := range app.Rollups {
		rollups[r.SQLName] = true
	}
	for _, name := range tableNames(app) {
		dump := tableDump
		if rollups[name] {
			dump = roundedDump
		}
		if diff := cmp.Diff(dump(t, ref.DB().(*sql.DB), name), dump(t, got.DB().(*sql.DB), name)); diff != "" {
			t.Errorf("%s (-lumo's reader +DuckDB's):\n%s", name, diff)
		}
	}
	return got.DB().(*sql.DB), app
}

// TestDirectParquetLeavesBadValuesToLumosReader: a value lumo's reader refuses (a text that is
// not UTF-8, a day past the year 9999) fails the import with lumo's own message, file and line,
// whichever reader met it first, and nothing is left.
func TestDirectParquetLeavesBadValuesToLumosReader(t *testing.T) {
	bad := func(s string) *string { return &s }
	tooLate := int32(2932897 + 1) // 10000-01-01
	for name, edit := range map[string]func(*directSale){
		"not UTF-8":      func(s *directSale) { s.CLIENTE = bad("Jo\xffo") },
		"year past 9999": func(s *directSale) { s.D = &tooLate },
		"NaN":            func(s *directSale) { s.AL = math.NaN() },
	} {
		t.Run(name, func(t *testing.T) {
			sales := directSales(20)
			edit(&sales[12])
			dir := directWorkspace(t, sales)
			_, _, _, _, want := importDirect(t, dir, true)
			db, _, _, direct, err := importDirect(t, dir, false)
			if want == nil || err == nil || err.Error() != want.Error() || !strings.Contains(err.Error(), "vendas.parquet") {
				t.Fatalf("with DuckDB's reader: %v\nwith lumo's alone: %v\nwant lumo's message, naming the file", err, want)
			}
			if direct != 0 {
				t.Errorf("DuckDB's reader loaded %d tables before the failure; the sales table was first", direct)
			}
			var apps int
			if err := db.SQL().QueryRowContext(context.Background(), "SELECT COUNT(*) FROM lumo_apps").Scan(&apps); err != nil || apps != 0 {
				t.Errorf("after the failed import the database holds %d apps (%v), want none", apps, err)
			}
		})
	}
}
