package workspace

import (
	"bytes"
	"os"
	"strconv"
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace/wstest"
)

// benchTable is the sales table the benchmarks read.
func benchTable() *semantic.Table {
	return table([2]string{"ID", "number"}, [2]string{"DATA", "datetime"}, [2]string{"DIA", "date"}, [2]string{"CLIENTE", "string"},
		[2]string{"VALOR", "number"}, [2]string{"DESCONTO", "number"}, [2]string{"QTD", "number"})
}

// BenchmarkXLSXRows reads 100,000 sales (LUMO_BENCH_ROWS to change) of a workbook excelize
// writes (shared strings, R$ and % formats, date-formatted serials), with the text of every
// number and date as the import to PostgreSQL reads them:
//
//	go test ./impl/lumo/workspace -run '^$' -bench XLSXRows -benchtime 3x
func BenchmarkXLSXRows(b *testing.B) {
	n := benchN()
	var buf bytes.Buffer
	if err := wstest.SalesXLSX(&buf, n); err != nil {
		b.Fatal(err)
	}
	tbl := benchTable()
	fsys := fstest.MapFS{"t.xlsx": {Data: buf.Bytes()}}
	var cpu float64
	for b.Loop() {
		cpu0 := processCPU()
		rows, err := OpenRows(fsys, "t.xlsx", tbl, Format{})
		if err != nil {
			b.Fatal(err)
		}
		texts := 0
		for rows.Next() {
			for i, v := range rows.Values() {
				if v != nil {
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
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(n*b.N)/cpu, "rows/cpu-s")
	b.ReportMetric(float64(buf.Len())/(1<<20), "file-MiB")
}

// benchN is LUMO_BENCH_ROWS, 100,000 by default.
func benchN() int {
	if n, err := strconv.Atoi(os.Getenv("LUMO_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return 100_000
}
