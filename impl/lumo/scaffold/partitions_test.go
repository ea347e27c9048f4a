package scaffold

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

// venda is a row of a partitioned table's parts: the partition columns are not in the files.
type venda struct {
	PEDIDO int64 `parquet:"PEDIDO"`
	VALOR  int64 `parquet:"VALOR,decimal(2:12)"`
}

// writeParts writes rows at each path under dir (making its folders), as a writer of
// partitioned Parquet does.
func writeParts(t *testing.T, dir string, parts map[string][]venda) {
	t.Helper()
	for p, rows := range parts {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[venda](&buf)
		if _, err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
		w.Close()
		write(t, filepath.Dir(full), filepath.Base(full), buf.String())
	}
}

// importedRows reads table label of the workspace Init wrote in dir with the importer's reader,
// each row's values as texts ("NULL" for none).
func importedRows(t *testing.T, dir, label string) []string {
	t.Helper()
	ws, err := workspace.Load(workspace.DirFS(dir), "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, app := range ws.Tenants[0].Apps {
		src := app.Source
		for i, tb := range src.Model.Tables {
			if tb.Label != label {
				continue
			}
			rows, err := workspace.OpenRows(workspace.DirFS(dir), src.Files[i], tb, src.Formats[i])
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var out []string
			for rows.Next() {
				var vals []string
				for j, v := range rows.Values() {
					s := "NULL"
					if v != nil {
						s = rows.Text(j)
					}
					vals = append(vals, rows.Columns()[j].Name+"="+s)
				}
				out = append(out, strings.Join(vals, " "))
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			return out
		}
	}
	t.Fatalf("no table %q", label)
	return nil
}

// TestParquetPartitions: a Hive-partitioned folder, as DuckDB, pandas and Spark write it, is
// one table whose partition keys are columns: integers where every value is one, ISO dates,
// text otherwise, NULL for __HIVE_DEFAULT_PARTITION__; grouping columns, never measures.
func TestParquetPartitions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dados")
	// pandas/pyarrow: ano=2024/mes=01/<uuid>.parquet.
	writeParts(t, filepath.Join(dir, "vendas"), map[string][]venda{
		"ano=2024/mes=01/8f2c1e0b7a6d4c3b9e1f2a3b4c5d6e7f-0.parquet": {{1, 1050}, {2, 200}},
		"ano=2024/mes=02/8f2c1e0b7a6d4c3b9e1f2a3b4c5d6e7f-0.parquet": {{3, 500}},
		"ano=2025/mes=01/8f2c1e0b7a6d4c3b9e1f2a3b4c5d6e7f-0.parquet": {{4, 100}},
	})
	// Spark: dates and a store, one NULL, a marker and checksums.
	writeParts(t, filepath.Join(dir, "entregas"), map[string][]venda{
		"dia=2024-01-15/loja=Centro/part-00000-2b7e1c3a-9f0d-4e8b-a1c2-d3e4f5a6b7c8.c000.snappy.parquet":                {{1, 1}},
		"dia=2024-01-16/loja=Praia/part-00000-2b7e1c3a-9f0d-4e8b-a1c2-d3e4f5a6b7c8.c000.snappy.parquet":                 {{2, 2}},
		"dia=__HIVE_DEFAULT_PARTITION__/loja=Praia/part-00001-2b7e1c3a-9f0d-4e8b-a1c2-d3e4f5a6b7c8.c000.snappy.parquet": {{3, 3}},
	})
	write(t, filepath.Join(dir, "entregas"), "_SUCCESS", "")
	write(t, filepath.Join(dir, "entregas", "dia=2024-01-15", "loja=Centro"), ".part-00000-2b7e1c3a-9f0d-4e8b-a1c2-d3e4f5a6b7c8.c000.snappy.parquet.crc", "x")
	res, err := Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tables) != 2 || len(res.Skipped) > 0 {
		t.Fatalf("tables %+v, skipped %+v", res.Tables, res.Skipped)
	}
	app := read(t, dir, "app.yaml")
	contains(t, "app.yaml", app,
		"# vendas/ (Parquet, particionado por ano e mes, 3 arquivos): 4 linhas",
		"file: vendas",
		"{name: ano, label: Ano, type: number, role: dimension, usage: 5}",
		"{name: mes, label: Mes, type: number, role: dimension, usage: 5}",
		"{name: dia, label: Dia, type: date, role: dimension, usage: 8}",
		"{name: loja, label: Loja, type: string, role: dimension, usage: 5}",
		"name: Dados\n",
	)
	got := importedRows(t, dir, "Vendas")
	if want := "PEDIDO=1 VALOR=10.50 ano=2024 mes=1"; got[0] != want {
		t.Errorf("Vendas rows %q, want first %q", got, want)
	}
	got = importedRows(t, dir, "Entregas")
	if want := "PEDIDO=3 VALOR=0.03 dia=NULL loja=Praia"; len(got) != 3 || got[2] != want {
		t.Errorf("Entregas rows %q, want last %q", got, want)
	}

	// The partitioned folder itself is one table, named after it, and so is a folder of
	// parts, even of one: the workspace is written beside them.
	vendas := filepath.Join(t.TempDir(), "vendas")
	writeParts(t, vendas, map[string][]venda{"ano=2024/mes=1/data_0.parquet": {{1, 1}}, "ano=2024/mes=2/data_0.parquet": {{2, 2}}})
	res, err = Init(Options{Paths: []string{vendas}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tables) != 1 || res.Tables[0].Label != "Vendas" || res.Tables[0].Rows != 2 || res.Tables[0].Source != "vendas/ (Parquet, particionado por ano e mes, 2 arquivos)" {
		t.Fatalf("tables %+v", res.Tables[0])
	}
	contains(t, "app.yaml", read(t, vendas, "app.yaml"), `file: "."`, "name: Vendas\n")
	if got := importedRows(t, vendas, "Vendas"); len(got) != 2 || got[1] != "PEDIDO=2 VALOR=0.02 ano=2024 mes=2" {
		t.Errorf("rows %q", got)
	}
	itens := filepath.Join(t.TempDir(), "itens")
	writeParts(t, itens, map[string][]venda{"part-0.parquet": {{1, 1}}})
	res, err = Init(Options{Paths: []string{itens}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tables) != 1 || res.Tables[0].Label != "Itens" {
		t.Errorf("a folder of one part: %+v", res.Tables[0])
	}

	// One level down is a partition, not a table: init says where the table is.
	if _, err := Init(Options{Paths: []string{filepath.Join(vendas, "ano=2024")}}); err == nil ||
		!strings.Contains(err.Error(), "ano=2024: a pasta é uma partição (ano=2024) de uma tabela Parquet particionada; rode o lumo init em "+vendas) {
		t.Errorf("init on a partition: %v", err)
	}
}
