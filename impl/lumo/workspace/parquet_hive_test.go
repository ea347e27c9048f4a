package workspace

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"
)

// sale is a row of a partitioned table's parts: the partition columns are not in the files.
type sale struct {
	ID    int64 `parquet:"ID"`
	VALOR int64 `parquet:"VALOR,decimal(2:12)"`
}

// TestParquetHive reads partitioned folders laid out as their writers lay them out: DuckDB's
// COPY ... (PARTITION_BY (ano, mes)) writes ano=2024/mes=1/data_0.parquet, pandas and pyarrow
// ano=2024/mes=01/<uuid>.parquet, Spark part-00000-<uuid>.snappy.parquet (Snappy pages), a
// _SUCCESS marker, .crc files beside the parts and __HIVE_DEFAULT_PARTITION__ for NULL.
func TestParquetHive(t *testing.T) {
	duck := fstest.MapFS{
		"vendas/ano=2024/mes=1/data_0.parquet":  {Data: writeParquet(t, []sale{{1, 1050}, {2, 200}})},
		"vendas/ano=2024/mes=12/data_0.parquet": {Data: writeParquet(t, []sale{{3, 5}})},
		"vendas/ano=2025/mes=1/data_0.parquet":  {Data: writeParquet(t, []sale{{4, 100}})},
	}
	tbl := table([2]string{"ID", "number"}, [2]string{"VALOR", "number"}, [2]string{"ano", "number"}, [2]string{"mes", "number"})
	vals, texts, rows, err := readParquet(t, duck, "vendas", tbl)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]any{{1.0, 10.5, 2024.0, 1.0}, {2.0, 2.0, 2024.0, 1.0}, {3.0, 0.05, 2024.0, 12.0}, {4.0, 1.0, 2025.0, 1.0}}
	if diff := cmp.Diff(want, vals); diff != "" {
		t.Errorf("DuckDB's folders (-want +got):\n%s", diff)
	}
	if texts[2][3] != "12" || texts[3][2] != "2025" {
		t.Errorf("texts %q", texts)
	}
	if d := rows.Description(); d != "vendas: Parquet, particionado por ano e mes, 3 arquivos, 4 linhas" {
		t.Errorf("description %q", d)
	}
	if n := ParquetRows(duck, "vendas"); n != 4 {
		t.Errorf("ParquetRows = %d", n)
	}

	// pandas: a month written 01 is the text "01" in a text column, 1 in a number column; the
	// partition columns may come anywhere in the table.
	pandas := fstest.MapFS{
		"v/ano=2024/mes=01/0b1e2c54a1f04c8e9d7f3a6b5c4d2e10-0.parquet": {Data: writeParquet(t, []sale{{1, 100}})},
		"v/ano=2024/mes=02/5f6e7d8c9b0a41e2b3c4d5e6f7a8b9c0-0.parquet": {Data: writeParquet(t, []sale{{2, 200}})},
	}
	vals, _, _, err = readParquet(t, pandas, "v", table([2]string{"mes", "string"}, [2]string{"ID", "number"}, [2]string{"ano", "number"}, [2]string{"VALOR", "number"}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]any{{"01", 1.0, 2024.0, 1.0}, {"02", 2.0, 2024.0, 2.0}}, vals); diff != "" {
		t.Errorf("pandas' folders (-want +got):\n%s", diff)
	}

	// Spark: dates, a NULL partition, an escaped text, the writer's own files.
	snappy := parquet.Compression(&parquet.Snappy)
	spark := fstest.MapFS{
		"s/_SUCCESS": {Data: nil},
		"s/dia=2024-01-15/loja=Centro%2FSul/part-00000-7c1a4a0e-1f4b-4a55-9a3e-2f1d5d1b8c21.c000.snappy.parquet":          {Data: writeParquet(t, []sale{{1, 100}}, snappy)},
		"s/dia=2024-01-15/loja=Centro%2FSul/.part-00000-7c1a4a0e-1f4b-4a55-9a3e-2f1d5d1b8c21.c000.snappy.parquet.crc":     {Data: []byte("crc")},
		"s/dia=__HIVE_DEFAULT_PARTITION__/loja=Praia/part-00001-7c1a4a0e-1f4b-4a55-9a3e-2f1d5d1b8c21.c000.snappy.parquet": {Data: writeParquet(t, []sale{{2, 300}}, snappy)},
		"s/_temporary/0/part-9.parquet": {Data: []byte("not read")},
	}
	vals, texts, rows, err = readParquet(t, spark, "s", table([2]string{"ID", "number"}, [2]string{"VALOR", "number"}, [2]string{"dia", "date"}, [2]string{"loja", "string"}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]any{{1.0, 1.0, day(2024, 1, 15, 0, 0, 0), "Centro/Sul"}, {2.0, 3.0, nil, "Praia"}}, vals); diff != "" {
		t.Errorf("Spark's folders (-want +got):\n%s", diff)
	}
	if texts[0][2] != "2024-01-15" || rows.Description() != "s: Parquet, particionado por dia e loja, 2 arquivos, 2 linhas" {
		t.Errorf("texts %q, description %q", texts, rows.Description())
	}

	// DuckDB up to 1.4 wrote NULL: NULL in a number column, the text in a text column.
	old := fstest.MapFS{"o/ano=NULL/data_0.parquet": {Data: writeParquet(t, []sale{{1, 100}})}}
	if vals, _, _, err = readParquet(t, old, "o", table([2]string{"ID", "number"}, [2]string{"VALOR", "number"}, [2]string{"ano", "number"})); err != nil || vals[0][2] != nil {
		t.Errorf("ano=NULL as a number: %v %v", vals, err)
	}

	// What is refused, naming the folder and the column.
	_, _, _, err = readParquet(t, duck, "vendas", table([2]string{"ID", "number"}, [2]string{"VALOR", "number"}, [2]string{"ano", "number"}))
	wantParquetErr(t, err, "vendas", "mes", "particionada por ano e mes", `não tem a coluna "mes"`, "declare-a")
	_, _, _, err = readParquet(t, spark, "s", table([2]string{"ID", "number"}, [2]string{"VALOR", "number"}, [2]string{"dia", "date"}, [2]string{"loja", "number"}))
	wantParquetErr(t, err, "s/dia=2024-01-15/loja=Centro%2FSul", "loja", `a pasta loja=Centro/Sul dá o valor "Centro/Sul" à coluna "loja", que é número no app.yaml`)
	bad := fstest.MapFS{"b/dia=15-01-2024/p.parquet": {Data: writeParquet(t, []sale{{1, 1}})}}
	_, _, _, err = readParquet(t, bad, "b", table([2]string{"ID", "number"}, [2]string{"VALOR", "number"}, [2]string{"dia", "date"}))
	wantParquetErr(t, err, "b/dia=15-01-2024", "dia", "é data no app.yaml (data AAAA-MM-DD)")
	both := fstest.MapFS{"c/ID=1/p.parquet": {Data: writeParquet(t, []sale{{1, 1}})}}
	_, _, _, err = readParquet(t, both, "c", table([2]string{"ID", "number"}, [2]string{"VALOR", "number"}))
	wantParquetErr(t, err, "c/ID=1/p.parquet", "ID", "está no arquivo e também no nome das pastas")
	mixed := fstest.MapFS{
		"m/ano=2024/mes=1/p.parquet": {Data: writeParquet(t, []sale{{1, 1}})},
		"m/ano=2025/p.parquet":       {Data: writeParquet(t, []sale{{2, 2}})},
	}
	_, _, _, err = readParquet(t, mixed, "m", tbl)
	wantParquetErr(t, err, "m/ano=2025/p.parquet", "", "não estão todas sob as mesmas partições (ano=2024/mes=1/p.parquet e ano=2025/p.parquet)")
	other := fstest.MapFS{
		"x/ano=2024/p.parquet": {Data: writeParquet(t, []sale{{1, 1}})},
		"x/backup/p.parquet":   {Data: writeParquet(t, []sale{{1, 1}})},
	}
	_, _, _, err = readParquet(t, other, "x", tbl)
	wantParquetErr(t, err, "x/backup", "", `a subpasta "backup", que não é uma partição`)
}

// TestParquetTableIsTheAppFolder: a table whose file is "." is the app's own folder, its parts
// beside app.yaml (as lumo init writes a partitioned folder it is run on), also when the app
// folder is one of several.
func TestParquetTableIsTheAppFolder(t *testing.T) {
	fsys := fstest.MapFS{
		"workspace.yaml": {Data: []byte("tenants:\n  - key: t\n    name: T\n    users:\n      - {login: u, name: U, token: tok-u-123456}\n" +
			"    apps:\n      - {key: v, source: apps/vendas}\n")},
		"apps/vendas/app.yaml": {Data: []byte("name: Vendas\ntables:\n  - label: Vendas\n    name: vendas\n    kind: fact\n    file: \".\"\n    columns:\n" +
			"      - {name: ID, label: Id, type: number}\n      - {name: VALOR, label: Valor, type: number}\n      - {name: ano, label: Ano, type: number}\n")},
		"apps/vendas/ano=2024/data_0.parquet": {Data: writeParquet(t, []sale{{1, 1050}})},
	}
	ws, err := Load(fsys, "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := ws.Tenants[0].Apps[0].Source
	vals, _, _, err := readParquet(t, fsys, src.Files[0], src.Model.Tables[0])
	if err != nil || len(vals) != 1 || vals[0][2] != 2024.0 {
		t.Errorf("%q: %v %v", src.Files[0], vals, err)
	}
}
