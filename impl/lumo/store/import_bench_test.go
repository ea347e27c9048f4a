package store_test

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/pgsource/pgtest"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace/wstest"
)

// BenchmarkImportCSV imports the same 100,000 sales, written in the original format and as a
// pt-BR export (";", "R$ 1.234,50", "20%", dd/mm/aaaa, Windows-1252, detected), side by side,
// into a fresh database per iteration (SQLite, or LUMO_TEST_DB):
//
//	go test ./impl/lumo/store -run '^$' -bench ImportCSV -benchtime 3x -count 3
func BenchmarkImportCSV(b *testing.B) {
	const n = 100_000
	plain, ptbr := salesCSV(n)
	for _, f := range []struct{ name, csv string }{{"plain", plain}, {"pt-BR", ptbr}} {
		b.Run(f.name, func(b *testing.B) {
			fsys := fstest.MapFS{
				"workspace.yaml": {Data: []byte("tenants:\n  - key: b\n    name: B\n    users:\n      - {login: u, name: U, token: tok-u-bench}\n" +
					"    apps:\n      - {key: vendas, source: apps/vendas}\n")},
				"apps/vendas/app.yaml": {Data: []byte("name: Vendas\ntables:\n  - label: Vendas\n    name: vendas\n    kind: fact\n    file: vendas.csv\n    columns:\n" +
					"      - {name: ID, label: Id, type: number, role: key}\n      - {name: DATA, label: Data, type: datetime}\n" +
					"      - {name: DIA, label: Dia, type: date}\n      - {name: CLIENTE, label: Cliente, type: string}\n" +
					"      - {name: VALOR, label: Valor, type: number, role: measure}\n      - {name: DESCONTO, label: Desconto, type: number, role: measure}\n" +
					"      - {name: QTD, label: Qtd, type: number, role: measure}\n")},
				"apps/vendas/vendas.csv": {Data: []byte(f.csv)},
			}
			var wall, cpu float64
			for b.Loop() {
				b.StopTimer()
				db := storetest.Open(b)
				db.SQL().SetMaxOpenConns(1)
				b.StartTimer()
				start, cpu0 := time.Now(), processCPU()
				sum, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml")
				if err != nil {
					b.Fatal(err)
				}
				wall += time.Since(start).Seconds()
				cpu += processCPU() - cpu0
				if sum.Rows() != n {
					b.Fatalf("%d rows", sum.Rows())
				}
				b.StopTimer()
				db.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(n*b.N)/wall, "rows/s")
			b.ReportMetric(float64(n*b.N)/cpu, "rows/cpu-s")
		})
	}
}

// BenchmarkImportXLSX imports 100,000 sales (LUMO_BENCH_ROWS to change) from a workbook
// excelize writes into a fresh database per iteration (SQLite, or LUMO_TEST_DB), reporting rows
// per second and the process's peak RSS so far:
//
//	go test ./impl/lumo/store -run '^$' -bench ImportXLSX -benchtime 3x
func BenchmarkImportXLSX(b *testing.B) {
	var buf bytes.Buffer
	n := benchN()
	if err := wstest.SalesXLSX(&buf, n); err != nil {
		b.Fatal(err)
	}
	benchImport(b, "vendas.xlsx", buf.Bytes(), n)
}

// benchImport imports a workspace of one sales table read from file (data) n times.
func benchImport(b *testing.B, file string, data []byte, n int) {
	fsys := fstest.MapFS{
		"workspace.yaml": {Data: []byte("tenants:\n  - key: b\n    name: B\n    users:\n      - {login: u, name: U, token: tok-u-bench}\n" +
			"    apps:\n      - {key: vendas, source: apps/vendas}\n")},
		"apps/vendas/app.yaml": {Data: []byte("name: Vendas\ntables:\n  - label: Vendas\n    name: vendas\n    kind: fact\n    file: " + file + "\n    columns:\n" +
			wstest.SalesColumns)},
		"apps/vendas/" + file: {Data: data},
	}
	var wall, cpu float64
	for b.Loop() {
		b.StopTimer()
		db := storetest.Open(b)
		db.SQL().SetMaxOpenConns(1)
		b.StartTimer()
		start, cpu0 := time.Now(), processCPU()
		sum, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml")
		if err != nil {
			b.Fatal(err)
		}
		wall += time.Since(start).Seconds()
		cpu += processCPU() - cpu0
		if sum.Rows() != int64(n) {
			b.Fatalf("%d rows", sum.Rows())
		}
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/wall, "rows/s")
	b.ReportMetric(float64(n*b.N)/cpu, "rows/cpu-s")
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB")
}

// benchN is LUMO_BENCH_ROWS, 100,000 by default.
func benchN() int {
	if n, err := strconv.Atoi(os.Getenv("LUMO_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

// processCPU is this process's user + system CPU seconds (on PostgreSQL the server's work is
// not in it).
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// salesCSV writes n sales twice: in the original format and as a pt-BR export.
func salesCSV(n int) (plain, ptbr string) {
	var p, b strings.Builder
	p.WriteString("ID,DATA,DIA,CLIENTE,VALOR,DESCONTO,QTD\n")
	b.WriteString("ID;DATA;DIA;CLIENTE;VALOR;DESCONTO;QTD\n")
	clients := []string{"Ana Beatriz", "Renata Conceição", "João Araújo", "Loja Çapê"}
	for i := 1; i <= n; i++ {
		d, m, hh, mi := 1+i%28, 1+i%12, i%24, i%60
		cents, pct, c := (i*7919)%500000, i%100, clients[i%len(clients)]
		fmt.Fprintf(&p, "%d,2025-%02d-%02d %02d:%02d:00,2025-%02d-%02d,%s,%d.%02d,0.%02d,%d\n", i, m, d, hh, mi, m, d, c, cents/100, cents%100, pct, i%9)
		reais := fmt.Sprint(cents / 100)
		if len(reais) > 3 {
			reais = reais[:len(reais)-3] + "." + reais[len(reais)-3:]
		}
		var latin1 []byte
		for _, r := range c {
			latin1 = append(latin1, byte(r))
		}
		fmt.Fprintf(&b, "%d;%02d/%02d/2025 %02d:%02d:00;%02d/%02d/2025;%s;R$ %s,%02d;%d%%;%d\n", i, d, m, hh, mi, d, m, latin1, reais, cents%100, pct, i%9)
	}
	return p.String(), b.String()
}

// BenchmarkImportPostgresSource imports LUMO_BENCH_ROWS sales rows read from a table of another
// PostgreSQL database (app.yaml postgres:); skipped without one (LUMO_TEST_SOURCE_DB).
func BenchmarkImportPostgresSource(b *testing.B) {
	n := benchN()
	src := pgtest.SourceDB(b, `CREATE TABLE vendas (id int8, data timestamp, dia date, cliente text, valor numeric(12,2), desconto numeric(5,2), qtd int4);
		INSERT INTO vendas SELECT i, timestamp '2025-01-01' + i * interval '1 minute', date '2025-01-01' + i % 700,
			(ARRAY['Ana Beatriz', 'Renata Conceição', 'João Araújo', 'Loja Çapê'])[1 + i % 4], (i::int8 * 7919) % 500000 / 100.0, (i % 100) / 100.0, 1 + i % 5
		FROM generate_series(1, `+strconv.Itoa(n)+`) AS i;`)
	fsys := fstest.MapFS{
		"workspace.yaml": {Data: []byte("databases:\n  - {name: origem, dsn: \"" + src + "\"}\ntenants:\n  - key: b\n    name: B\n    users:\n      - {login: u, name: U, token: tok-u-bench}\n" +
			"    apps:\n      - {key: vendas, source: apps/vendas}\n")},
		"apps/vendas/app.yaml": {Data: []byte("name: Vendas\ntables:\n  - label: Vendas\n    name: vendas\n    kind: fact\n    postgres: {database: origem, table: vendas}\n    columns:\n" +
			wstest.SalesColumns)},
	}
	var wall float64
	for b.Loop() {
		b.StopTimer()
		db := storetest.Open(b)
		b.StartTimer()
		start := time.Now()
		sum, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml")
		if err != nil {
			b.Fatal(err)
		}
		wall += time.Since(start).Seconds()
		if sum.Rows() != int64(n) {
			b.Fatalf("%d rows", sum.Rows())
		}
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/wall, "rows/s")
}

// BenchmarkImportWideText imports LUMO_BENCH_ROWS rows of a table with three dimension texts and
// three free-text comments (long, nearly all distinct), the shape where the comments' indexes
// dominated the import.
func BenchmarkImportWideText(b *testing.B) {
	n := benchN()
	var data strings.Builder
	data.WriteString("ID,LOJA,CANAL,SITUACAO,OBS,ENDERECO,HISTORICO,VALOR\n")
	for i := range n {
		fmt.Fprintf(&data, "%d,Loja %d,Canal %d,Situação %d,Pedido %d entregue com atraso pela transportadora %d,Rua das Flores %d apartamento %d bloco B,Cliente ligou em %d pedindo segunda via do boleto %d,%d.%02d\n",
			i+1, i%50, i%4, i%5, i, i%97, i*7, i%300, i%28, i*13, i%1000, i%100)
	}
	fsys := fstest.MapFS{
		"workspace.yaml": {Data: []byte("tenants:\n  - key: b\n    name: B\n    users:\n      - {login: u, name: U, token: tok-u-bench}\n" +
			"    apps:\n      - {key: vendas, source: apps/vendas}\n")},
		"apps/vendas/app.yaml": {Data: []byte("name: Vendas\ntables:\n  - label: Vendas\n    name: vendas\n    kind: fact\n    file: vendas.csv\n    columns:\n" +
			"      - {name: ID, label: Id, type: number, role: key}\n      - {name: LOJA, label: Loja, type: string}\n" +
			"      - {name: CANAL, label: Canal, type: string}\n      - {name: SITUACAO, label: Situação, type: string}\n" +
			"      - {name: OBS, label: Observação, type: string}\n      - {name: ENDERECO, label: Endereço, type: string}\n" +
			"      - {name: HISTORICO, label: Histórico, type: string}\n      - {name: VALOR, label: Valor, type: number, role: measure}\n")},
		"apps/vendas/vendas.csv": {Data: []byte(data.String())},
	}
	var wall float64
	for b.Loop() {
		b.StopTimer()
		db := storetest.Open(b)
		b.StartTimer()
		start := time.Now()
		if _, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml"); err != nil {
			b.Fatal(err)
		}
		wall += time.Since(start).Seconds()
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/wall, "rows/s")
}
