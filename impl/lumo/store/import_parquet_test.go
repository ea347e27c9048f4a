package store_test

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace/wstest"
)

// TestImportParquetFolder imports a sales table from a folder of Parquet parts (SQLite, or
// LUMO_TEST_DB): every row loads, the import names the files it read, and the progress total
// comes from the parts' footers before any row is read.
func TestImportParquetFolder(t *testing.T) {
	fsys := fstest.MapFS{
		"workspace.yaml": {Data: []byte("tenants:\n  - key: b\n    name: B\n    users:\n      - {login: u, name: U, token: tok-u-parquet}\n" +
			"    apps:\n      - {key: vendas, source: apps/vendas}\n")},
		"apps/vendas/app.yaml": {Data: []byte("name: Vendas\ntables:\n  - label: Vendas\n    name: vendas\n    kind: fact\n    file: vendas\n    columns:\n" +
			wstest.SalesColumns)},
	}
	for i, n := range []int{1500, 700} {
		var buf bytes.Buffer
		if err := wstest.SalesParquet(&buf, n, 1000); err != nil {
			t.Fatal(err)
		}
		fsys["apps/vendas/vendas/part-"+string(rune('0'+i))+".parquet"] = &fstest.MapFile{Data: buf.Bytes()}
	}
	db := storetest.Open(t)
	var calls []store.Progress
	sum, err := db.ImportWorkspaceProgress(ctx, fsys, "workspace.yaml", func(p store.Progress) { calls = append(calls, p) })
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rows() != 2200 || len(sum.Tables) != 1 || sum.Tables[0].CSV != "apps/vendas/vendas: Parquet, 2 arquivos, 2.200 linhas" {
		t.Fatalf("%d rows, tables %+v", sum.Rows(), sum.Tables)
	}
	if len(calls) == 0 || calls[0].TotalRows != 2200 || calls[len(calls)-1].Rows != 2200 {
		t.Fatalf("progress %+v", calls)
	}
}

// BenchmarkImportParquet imports 100,000 sales (LUMO_BENCH_ROWS to change) from a Parquet file
// parquet-go writes into a fresh database per iteration (SQLite, or LUMO_TEST_DB), reporting
// rows per second and the process's peak RSS so far:
//
//	go test ./impl/lumo/store -run '^$' -bench ImportParquet -benchtime 3x
func BenchmarkImportParquet(b *testing.B) {
	var buf bytes.Buffer
	n := benchN()
	if err := wstest.SalesParquet(&buf, n, 128<<10); err != nil {
		b.Fatal(err)
	}
	benchImport(b, "vendas.parquet", buf.Bytes(), n)
}
