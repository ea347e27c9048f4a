package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/workspace/wstest"
)

// BenchmarkParquetRows reads 100,000 sales (LUMO_BENCH_ROWS to change) of a Parquet file
// parquet-go writes (Snappy, row groups of 128k rows, decimals, a dictionary of clients) and,
// beside it, the same sales as a CSV in the original format, both from files in a temporary
// folder, with the text of every number and date as the import to PostgreSQL reads them:
//
//	LUMO_BENCH_ROWS=1000000 go test ./impl/lumo/workspace -run '^$' -bench ParquetRows -benchtime 3x
func BenchmarkParquetRows(b *testing.B) {
	n := benchN()
	dir := b.TempDir()
	f, err := os.Create(filepath.Join(dir, "t.parquet"))
	if err != nil {
		b.Fatal(err)
	}
	if err := wstest.SalesParquet(f, n, 128<<10); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	plain, _ := benchRows(n)
	if err := os.WriteFile(filepath.Join(dir, "t.csv"), plain, 0o644); err != nil {
		b.Fatal(err)
	}
	tbl := benchTable()
	fsys := os.DirFS(dir)
	for _, file := range []string{"t.parquet", "t.csv"} {
		b.Run(filepath.Ext(file)[1:], func(b *testing.B) {
			var cpu float64
			for b.Loop() {
				cpu0 := processCPU()
				rows, err := OpenRows(fsys, file, tbl, Format{})
				if err != nil {
					b.Fatal(err)
				}
				texts := 0
				for rows.Next() {
					for i, v := range rows.Values() {
						if v != nil && tbl.Columns[i].Type != "string" {
							texts += len(rows.Text(i))
						}
					}
				}
				if err := rows.Err(); err != nil {
					b.Fatal(err)
				}
				rows.Close()
				cpu += processCPU() - cpu0
				if rows.Count() != int64(n) || texts == 0 {
					b.Fatalf("%d rows, %s", rows.Count(), rows.Description())
				}
			}
			st, _ := fs.Stat(fsys, file)
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(n*b.N)/cpu, "rows/cpu-s")
			b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
		})
	}
}
