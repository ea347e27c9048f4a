package pgsource

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/pgsource/pgtest"
)

// BenchmarkRows reads LUMO_BENCH_ROWS (default 100,000) sales rows from a source table, with no
// import behind them: what reading a source costs lumo and the source server.
func BenchmarkRows(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(getenv("LUMO_BENCH_ROWS")); err == nil && v > 0 {
		n = v
	}
	dsn := pgtest.SourceDB(b, `CREATE TABLE vendas (id int8, data timestamp, dia date, cliente text, valor numeric(12,2), desconto numeric(5,2), qtd int4);
		INSERT INTO vendas SELECT i, timestamp '2025-01-01' + i * interval '1 minute', date '2025-01-01' + i % 700,
			(ARRAY['Ana Beatriz', 'Renata Conceição', 'João Araújo', 'Loja Çapê'])[1 + i % 4], (i::int8 * 7919) % 500000 / 100.0, (i % 100) / 100.0, 1 + i % 5
		FROM generate_series(1, `+strconv.Itoa(n)+`) AS i; ANALYZE vendas;`)
	tab := table("ID:number", "DATA:datetime", "DIA:date", "CLIENTE:string", "VALOR:number", "DESCONTO:number", "QTD:number")
	var wall float64
	for b.Loop() {
		start := time.Now()
		r, err := Open(context.Background(), source(dsn, "vendas", ""), tab)
		if err != nil {
			b.Fatal(err)
		}
		for r.Next() {
		}
		if err := r.Err(); err != nil {
			b.Fatal(err)
		}
		r.Close()
		wall += time.Since(start).Seconds()
	}
	b.ReportMetric(float64(n*b.N)/wall, "rows/s")
}

func getenv(k string) string { return os.Getenv(k) }
