package values_test

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/lumo/values"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

const bigYAML = `name: Pedidos
tables:
  - label: Pedidos
    name: pedidos
    kind: fact
    file: pedidos.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: DATA, label: Data, type: date}
      - {name: CODIGO, label: Código, type: string}
      - {name: CLIENTE, label: Cliente, type: string}
      - {name: CIDADE, label: Cidade, type: string}
      - {name: SITUACAO, label: Situação, type: string}
      - {name: VALOR, label: Valor, type: number, role: measure, unit: BRL}
`

var (
	firstNames = []string{"Ana", "João", "José", "Maria", "Sérgio", "Luíza", "Otávio", "Débora", "Íris", "Tânia",
		"Paulo", "Renata", "Fernanda", "Gustavo", "Letícia", "Natália", "Marta", "Bruno", "Carla", "Davi"}
	lastNames = []string{"Souza", "Lima", "Conceição", "Gonçalves", "Araújo", "Câmara", "Brandão", "Fontes", "Moura", "Sá",
		"Rocha", "Dias", "Reis", "Nunes", "Alves", "Cruz", "Pereira", "Ribeiro", "Magalhães", "Assunção"}
	cities = []string{"São Paulo", "Ribeirão Preto", "Maceió", "Belo Horizonte", "Goiânia", "Curitiba", "Belém",
		"São João del-Rei", "Florianópolis", "Niterói", "Vitória", "Cuiabá", "Macapá", "Jundiaí", "São Luís", "Aracaju"}
	situations = []string{"Ativa", "Cancelada", "Pendente", "Devolvida", "", `\N`}
)

// bigRows generates n rows of pedidos.csv deterministically: CODIGO is unique per row (1M distinct
// values), CLIENTE has 10.400 distinct names, CIDADE 16, SITUACAO 5 and the blank, DATA 1.826 days.
func bigRows(n int) func() lines {
	return func() lines {
		i := -1
		day0 := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
		return func() (string, bool) {
			i++
			if i == 0 {
				return "ID,DATA,CODIGO,CLIENTE,CIDADE,SITUACAO,VALOR", true
			}
			if i > n {
				return "", false
			}
			day := day0.AddDate(0, 0, (i*7919)%1826).Format("2006-01-02")
			code := fmt.Sprintf("PED-%07d", (i*48271)%1000003) // a permutation: unique below 1.000.003
			client := firstNames[i%20] + " " + string(rune('A'+(i/20)%26)) + ". " + lastNames[(i/520)%20]
			return strconv.Itoa(i) + "," + day + "," + code + "," + client + "," + cities[(i*13)%16] + "," +
				situations[i%6] + "," + strconv.FormatFloat(float64(i%100000)/100, 'f', 2, 64), true
		}
	}
}

// BenchmarkValues1M measures the reads of search_values on a fresh store holding 1.000.000 rows
// loaded and indexed by the importer (SQLite, or PostgreSQL when LUMO_TEST_DB is set), and on its
// columnar copy, with its value tables (as search_values reads it) and without.
//
//	go test -run '^$' -bench Values1M -benchtime 20x ./impl/lumo/values
func BenchmarkValues1M(b *testing.B) {
	const n = 1_000_000
	db := storetest.Open(b)
	start := time.Now()
	a := importApp(b, db, bigYAML, nil, map[string]func() lines{"pedidos.csv": bigRows(n)})
	b.Logf("%s: %d rows imported and indexed in %v", db.Engine(), n, time.Since(start).Round(time.Millisecond))
	r := reader(db)
	col := func(label string) *semantic.Column { return column(b, a, "Pedidos."+label) }
	code, client, city, situation, date := col("Código"), col("Cliente"), col("Cidade"), col("Situação"), col("Data")
	text := []*semantic.Column{city, client, situation, code}
	if os.Getenv("LUMO_BENCH_PLANS") != "" {
		for _, c := range []*semantic.Column{code, situation, date} {
			for name, q := range values.DistinctSQL(r, c, []string{"sao"}) {
				b.Logf("%s %s %s:\n%s\n%s", db.Engine(), c.Ref(), name, q, explain(b, db, q, false))
			}
		}
		for _, c := range []*semantic.Column{client, situation} {
			loose, err := values.WalksLoose(ctx, r, c)
			q := values.LooseSQL(r, c, []string{"sao"})
			b.Logf("%s %s loose walk (chosen: %v, %v):\n%s\n%s", db.Engine(), c.Ref(), loose, err, q, explain(b, db, q, false))
		}
	}

	col2, err := columnar.Open(ctx, columnar.Options{})
	if errors.Is(err, columnar.ErrUnavailable) {
		b.Log("a build without cgo has no columnar copy: the row store only")
	} else if err != nil {
		b.Fatal(err)
	}
	readers := []struct {
		name string
		r    values.Reader
	}{{"rowstore", r}}
	if col2 != nil {
		b.Cleanup(func() { col2.Close() })
		start := time.Now()
		if _, err := col2.Sync(ctx, db); err != nil {
			b.Fatal(err)
		}
		b.Logf("copied into DuckDB in %v", time.Since(start).Round(time.Millisecond))
		duck := values.Reader{DB: col2.DB().(*sql.DB), Dialect: sqldialect.DuckDB{}}
		withValues := duck
		withValues.Values = col2.ValuesOf(a)
		readers = append(readers, struct {
			name string
			r    values.Reader
		}{"columnar", withValues}, struct {
			name string
			r    values.Reader
		}{"columnar-scan", duck}) // without value tables
	}
	for _, rd := range readers {
		r := rd.r
		distinct := func(c *semantic.Column, want int64, words ...string) func(*testing.B) {
			return func(b *testing.B) {
				for b.Loop() {
					d, err := r.Distinct(ctx, c, words, 50)
					if err != nil {
						b.Fatal(err)
					}
					if d.Total != want {
						b.Fatalf("total %d, want %d", d.Total, want)
					}
				}
			}
		}
		search := func(found int, words ...string) func(*testing.B) {
			return func(b *testing.B) {
				for b.Loop() {
					res, err := r.Search(ctx, text, words, 8, 20*time.Second)
					if err != nil {
						b.Fatal(err)
					}
					if res.TimedOut || len(res.Found) != found {
						b.Fatalf("search %v: %+v", words, res)
					}
				}
			}
		}
		b.Run(rd.name+"/distinct/codigo_1M_values", distinct(code, n))
		b.Run(rd.name+"/distinct/cliente_10k_values", distinct(client, 10400))
		b.Run(rd.name+"/distinct/situacao_6_values", distinct(situation, 5))
		b.Run(rd.name+"/distinct/data_1826_days", distinct(date, 1826))
		b.Run(rd.name+"/distinct/cliente_contains_joao", distinct(client, 520, "joao"))
		b.Run(rd.name+"/distinct/codigo_contains_one", distinct(code, 1, "ped-0012345"))
		b.Run(rd.name+"/distinct/codigo_contains_none", distinct(code, 0, "xyzzy"))
		b.Run(rd.name+"/search/4_columns_sao", search(1, "sao"))
		b.Run(rd.name+"/search/4_columns_joao_a", search(1, "joao", "a."))
		b.Run(rd.name+"/search/4_columns_none", search(0, "xyzzy"))
		b.Run(rd.name+"/sample/10_rows", func(b *testing.B) {
			for b.Loop() {
				rows, err := r.Sample(ctx, a.Tables[0], text, 10)
				if err != nil || len(rows) != 10 {
					b.Fatal(len(rows), err)
				}
			}
		})
	}
}
