package pgsource

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/pgsource/pgtest"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

const setup = `
CREATE TABLE vendas (
	id int4, pedido int8, valor numeric(12,2), taxa float8, cliente text, uf varchar(2),
	dia date, momento timestamp, registrado timestamptz
);
INSERT INTO vendas VALUES
	(1, 9000000000, 1234.56, 0.125, 'João', 'SP', '2026-09-30', '2026-09-30 08:15:30.75', '2026-09-30 08:15:00-03'),
	(2, NULL, -10.00, NULL, 'Conceição', NULL, NULL, NULL, NULL),
	(3, 7, 0.99, 2, 'Ana “Aninha”', 'RJ', '0001-01-01', '9999-12-31 23:59:59', '2026-01-01 00:00:00+00');
CREATE SCHEMA erp;
CREATE TABLE erp.itens (codigo int4, "Nome" text);
INSERT INTO erp.itens VALUES (10, 'Caneta'), (11, 'Lápis');
CREATE TABLE ruins (id int4, valor numeric, dia date, ativo boolean);
INSERT INTO ruins VALUES (1, 'NaN', 'infinity', true);
`

func table(cols ...string) *semantic.Table {
	t := &semantic.Table{Name: "t"}
	for _, c := range cols {
		name, typ, _ := strings.Cut(c, ":")
		t.Columns = append(t.Columns, &semantic.Column{Table: t, Name: name, Type: typ})
	}
	return t
}

func source(dsn, table, query string) *workspace.PostgresTable {
	return &workspace.PostgresTable{Database: &workspace.Database{Name: "erp", DSN: dsn, TimeZone: workspace.DefaultTimeZone}, Table: table, Query: query}
}

func readAll(t *testing.T, r workspace.Rows) [][]string {
	t.Helper()
	defer r.Close()
	var out [][]string
	for r.Next() {
		row := make([]string, len(r.Columns()))
		for i, v := range r.Values() {
			row[i] = "NULL"
			if v != nil {
				row[i] = fmt.Sprintf("%T %s", v, r.Text(i))
			}
		}
		out = append(out, row)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTypes: each source type arrives as its app.yaml type, numerics with their exact text and
// scale, timestamps to the second (timestamptz as the wall clock in São Paulo), NULLs as nil.
func TestTypes(t *testing.T) {
	dsn := pgtest.SourceDB(t, setup)
	tab := table("ID:number", "PEDIDO:number", "VALOR:number", "TAXA:number", "CLIENTE:string", "UF:string",
		"DIA:date", "MOMENTO:datetime", "REGISTRADO:datetime", "ID:string")
	tab.Columns[9].Name = "id" // the same source column again, as text: a code
	r, err := Open(context.Background(), source(dsn, "vendas", ""), tab)
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now().Add(-time.Second)
	first := r
	got := readAll(t, r)
	want := [][]string{
		{"float64 1", "float64 9000000000", "float64 1234.56", "float64 0.125", "string João", "string SP",
			"time.Time 2026-09-30", "time.Time 2026-09-30 08:15:30", "time.Time 2026-09-30 08:15:00", "string 1"},
		{"float64 2", "NULL", "float64 -10.00", "NULL", "string Conceição", "NULL", "NULL", "NULL", "NULL", "string 2"},
		{"float64 3", "float64 7", "float64 0.99", "float64 2", "string Ana “Aninha”", "string RJ",
			"time.Time 0001-01-01", "time.Time 9999-12-31 23:59:59", "time.Time 2025-12-31 21:00:00", "string 3"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows\n got %v\nwant %v", got, want)
	}
	if got := r.Scales(); got[2] != 2 || got[3] != 3 {
		t.Errorf("scales %v", got)
	}
	if got := r.Description(); got != "banco erp, tabela vendas: 3 linhas" {
		t.Errorf("description %q", got)
	}
	utc := source(dsn, "vendas", "")
	utc.Database.TimeZone = "UTC"
	r, err = Open(context.Background(), utc, table("REGISTRADO:datetime"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(readAll(t, r)); got != "[[time.Time 2026-09-30 11:15:00] [NULL] [time.Time 2026-01-01 00:00:00]]" {
		t.Errorf("in UTC: %s", got)
	}
	bad := source(dsn, "vendas", "")
	bad.Database.TimeZone = "Brasil/Nada"
	if _, err := Open(context.Background(), bad, table("ID:number")); err == nil || !strings.Contains(err.Error(), `o fuso "Brasil/Nada" (timeZone do banco "erp") não é aceito pelo PostgreSQL`) {
		t.Errorf("unknown zone: %v", err)
	}
	if at := first.(*rows).LoadedAt(); at.Before(before) || at.After(time.Now()) {
		t.Errorf("loadedAt %v", at)
	}
}

// TestQueryAndSchema: a SELECT and a schema-qualified table; a source column whose name differs
// only in case is found.
func TestQueryAndSchema(t *testing.T) {
	dsn := pgtest.SourceDB(t, setup)
	r, err := Open(context.Background(), source(dsn, "erp.itens", ""), table("CODIGO:number", "NOME:string"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(readAll(t, r)); got != "[[float64 10 string Caneta] [float64 11 string Lápis]]" {
		t.Errorf("table: %s", got)
	}
	calc := table("CODIGO:number", "DOBRO:number", "NOME:string")
	calc.Columns[1].Formula = "[CODIGO] * 2" // computed by the query, not read from the source
	r, err = Open(context.Background(), source(dsn, "erp.itens", ""), calc)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(readAll(t, r)); got != "[[float64 10 string Caneta] [float64 11 string Lápis]]" {
		t.Errorf("with a calculated column: %s", got)
	}
	r, err = Open(context.Background(), source(dsn, "", "SELECT uf, sum(valor) AS total FROM vendas WHERE uf IS NOT NULL GROUP BY uf ORDER BY uf"),
		table("UF:string", "TOTAL:number"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(readAll(t, r)); got != "[[string RJ float64 0.99] [string SP float64 1234.56]]" {
		t.Errorf("query: %s", got)
	}
}

// TestBooleans: a boolean is VERDADEIRO or FALSO in a text column and 1 or 0 in a number
// column, as a workbook's and a Parquet file's are.
func TestBooleans(t *testing.T) {
	dsn := pgtest.SourceDB(t, `CREATE TABLE clientes (id int4, ativo boolean);
		INSERT INTO clientes VALUES (1, true), (2, false), (3, NULL);`)
	r, err := Open(context.Background(), source(dsn, "", "SELECT id, ativo, ativo AS n FROM clientes ORDER BY id"), table("ID:number", "ATIVO:string", "N:number"))
	if err != nil {
		t.Fatal(err)
	}
	want := "[[float64 1 string VERDADEIRO float64 1] [float64 2 string FALSO float64 0] [float64 3 NULL NULL]]"
	if got := fmt.Sprint(readAll(t, r)); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	cols, err := Describe(context.Background(), source(dsn, "clientes", ""))
	if err != nil || len(cols) != 2 || cols[1].Type != semantic.TypeString {
		t.Errorf("Describe: %+v %v; a boolean reads as text", cols, err)
	}
}

// TestRefused: what does not fit is refused naming the source, the row and the column.
func TestRefused(t *testing.T) {
	dsn := pgtest.SourceDB(t, setup)
	for _, c := range []struct {
		src  *workspace.PostgresTable
		tab  *semantic.Table
		want string
	}{
		{source(dsn, "vendas", ""), table("ID:number", "PRECO:number"),
			`banco erp, tabela vendas: PRECO: a origem não tem a coluna "PRECO"; ela tem id, pedido, valor`},
		{source(dsn, "vendas", ""), table("CLIENTE:number"),
			"banco erp, tabela vendas: CLIENTE: a coluna é text na origem, e o app.yaml a declara number (número); mude o type no app.yaml ou converta-a na consulta"},
		{source(dsn, "vendas", ""), table("MOMENTO:date"), "a coluna é timestamp na origem, e o app.yaml a declara date"},
		{source(dsn, "ruins", ""), table("ATIVO:date"), "a coluna é bool na origem"},
		{source(dsn, "ruins", ""), table("VALOR:number"), `banco erp, tabela ruins:1: VALOR: o valor "NaN" não é um número finito`},
		{source(dsn, "ruins", ""), table("DIA:date"), `banco erp, tabela ruins:1: DIA: o valor "infinity" não é uma data entre 0001-01-01 e 9999-12-31`},
		{source(dsn, "nada", ""), table("ID:number"), `banco erp, tabela nada: a leitura falhou: pq: relation "nada" does not exist`},
		{source(dsn, "", "SELEC 1"), table("ID:number"), "banco erp, consulta: a leitura falhou: pq: syntax error"},
		{source(dsn, "", "SELECT 1 AS id; DROP TABLE vendas"), table("ID:number"), "banco erp, consulta: a leitura falhou: pq: syntax error"},
		{source(dsn, "", "SELECT 1 AS id FROM vendas FOR UPDATE"), table("ID:number"), "read-only transaction"},
		// A query that closes the parenthesis lumo wraps it in and adds commands: one prepared
		// statement holds one command, so nothing after the first runs.
		{source(dsn, "", "SELECT 1 AS id FROM vendas) x; COMMIT; DELETE FROM vendas; SELECT * FROM (SELECT 1 AS id"), table("ID:number"),
			"cannot insert multiple commands into a prepared statement"},
		{source(dsn, "", "SELECT 1 AS id) x; COMMIT; DROP TABLE vendas; SELECT * FROM (SELECT 1 AS id"), table("ID:number"),
			"cannot insert multiple commands into a prepared statement"},
		{source(dsn, "", "SELECT 1 AS id) x; COPY vendas TO PROGRAM 'touch /tmp/lumo-pwned'; SELECT * FROM (SELECT 1 AS id"), table("ID:number"),
			"cannot insert multiple commands into a prepared statement"},
		{source(dsn, "", "SELECT set_config('transaction_read_only', 'off', true)::int AS id"), table("ID:number"),
			"transaction read-write mode must be set before any query"},
		{source(dsn, "", "SELECT 1 AS id FROM (SELECT set_config('default_transaction_read_only', 'off', false)) s, LATERAL (SELECT 1 FROM vendas) v UNION ALL SELECT 1 FROM (DELETE FROM vendas RETURNING 1) d"),
			table("ID:number"), "syntax error"},
	} {
		r, err := Open(context.Background(), c.src, c.tab)
		if err == nil {
			for r.Next() {
			}
			err = r.Err()
			r.Close()
		}
		var we *workspace.Error
		if err == nil || !errors.As(err, &we) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v\nwant %s", c.src.Where(), c.tab.Columns[0].Name, err, c.want)
		}
	}
	// A long pg_sleep is cancelled by the import's time limit (TestTimeLimit); here a short one is harmless.
	r, err := Open(context.Background(), source(dsn, "", "SELECT 1 AS id FROM pg_sleep(0.1)"), table("ID:number"))
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, r)
	// None of the refused queries' DROP, DELETE or COPY ran.
	db, _ := sql.Open("postgres", dsn)
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM vendas").Scan(&n); err != nil || n != 3 {
		t.Errorf("vendas after the refusals: %d, %v", n, err)
	}
}

// TestTimeLimit: a query that never ends is cancelled on the server when the import's time is up.
func TestTimeLimit(t *testing.T) {
	dsn := pgtest.SourceDB(t, setup)
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := Open(ctx, source(dsn, "", "SELECT id FROM vendas, pg_sleep(3600)"), table("ID:number"))
	if err == nil {
		for r.Next() {
		}
		err = r.Err()
		r.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "a leitura passou do tempo limite da importação e foi cancelada no banco") {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
	db, _ := sql.Open("postgres", dsn)
	defer db.Close()
	var running int
	for range 50 { // the cancel reaches the backend asynchronously
		if err := db.QueryRow("SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(3600)%' AND pid <> pg_backend_pid()").Scan(&running); err != nil {
			t.Fatal(err)
		}
		if running == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if running != 0 {
		t.Errorf("the source query still runs on the server")
	}
}

// TestPassword: the password comes from the environment, is required when named, and never
// appears in an error.
func TestPassword(t *testing.T) {
	dsn := pgtest.SourceDB(t, setup)
	const secret = "S3nh4-Secreta-9f7c"
	src := source(dsn, "vendas", "")
	src.Database.PasswordEnv = "LUMO_TEST_ERP_SENHA"
	_, err := Open(context.Background(), src, table("ID:number"))
	if err == nil || !strings.Contains(err.Error(), "a variável de ambiente LUMO_TEST_ERP_SENHA (passwordEnv do banco \"erp\") não está definida") {
		t.Fatalf("without the variable: %v", err)
	}
	t.Setenv("LUMO_TEST_ERP_SENHA", secret)
	r, err := Open(context.Background(), src, table("ID:number"))
	if err != nil {
		t.Fatal(err) // trust auth here: the password is sent and not needed
	}
	r.Close()
	src.Table = "nada"
	_, err = Open(context.Background(), src, table("ID:number"))
	if err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("error %v", err)
	}
	bad := *src.Database
	bad.DSN = strings.Replace(dsn, "127.0.0.1", "127.0.0.1:1", 1) // nothing listens on port 1
	if strings.Contains(dsn, "127.0.0.1:") {
		bad.DSN = dsn[:strings.Index(dsn, "127.0.0.1:")] + "127.0.0.1:1" + dsn[strings.Index(dsn, "127.0.0.1:")+len("127.0.0.1:5432"):]
	}
	src.Database = &bad
	_, err = Open(context.Background(), src, table("ID:number"))
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), `não foi possível conectar ao banco "erp"`) {
		t.Errorf("unreachable: %v", err)
	}
}
