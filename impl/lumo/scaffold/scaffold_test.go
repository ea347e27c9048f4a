package scaffold

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/xuri/excelize/v2"

	"github.com/lumo-caderninho/mcp/impl/lumo/pgsource/pgtest"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

func write(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInitWritesAWorkspaceTheImporterReads: the result loads as a workspace; a column with one
// value that is not a number stays text; a 1.000-only amount column in a ";" file is declared
// with decimal ",".
func TestInitWritesAWorkspaceTheImporterReads(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "pedidos.csv", "PEDIDO_ID;CLIENTE_ID;TOTAL;OBS;QUANDO\n1;7;1.000;10;2026-01-05\n2;8;2.000;n/a;2026-01-06\n")
	write(t, dir, "clientes.csv", "CLIENTE_ID,NOME\n7,Ana\n8,Bia\n")
	res, err := Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Token) < 20 || !strings.HasPrefix(res.Token, "tok-") {
		t.Errorf("token %q", res.Token)
	}
	app, _ := os.ReadFile(res.App)
	for _, want := range []string{
		`csv: {decimal: ","}`,
		"{name: TOTAL, label: Total, type: number, role: measure, usage: 10}",
		"{name: OBS, label: Obs, type: string, role: dimension, usage: 5}",
		"{name: QUANDO, label: Quando, type: date, role: dimension, usage: 8}",
		"{from: Pedidos.Cliente ID, to: Clientes.Cliente ID}",
	} {
		if !strings.Contains(string(app), want) {
			t.Errorf("app.yaml lacks %q:\n%s", want, app)
		}
	}
	if _, err := workspace.Load(workspace.DirFS(dir), "workspace.yaml"); err != nil {
		t.Fatalf("the written workspace does not load: %v\n%s", err, app)
	}
	if _, err := Init(Options{Paths: []string{dir}}); err == nil || !strings.Contains(err.Error(), "já existe") {
		t.Errorf("a second init over the same folder: %v", err)
	}
}

func TestInitRefusals(t *testing.T) {
	dir := t.TempDir()
	other := t.TempDir()
	a := write(t, dir, "a.csv", "ID,V\n1,2\n")
	b := write(t, other, "b.csv", "ID,V\n1,2\n")
	bad := write(t, other, "c.csv", "Valor,,Valor\n1,2,3\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "informe arquivos (CSV, XLSX ou Parquet)"},
		{[]string{a, b}, "precisam estar na mesma pasta"},
		{[]string{filepath.Join(dir, "x.xlsx")}, "não encontrei"},
		{[]string{bad}, `c.csv: o cabeçalho (linha 1) tem problemas: a coluna 2 não tem nome; as colunas 1 e 3 se chamam "Valor"`},
		{[]string{t.TempDir()}, "a pasta não tem arquivos de dados"},
	} {
		if _, err := Init(Options{Paths: c.args}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Init(%v): %v, want %q", c.args, err, c.want)
		}
	}
}

// TestInitDegradesOnlyTheFailingColumn: a value past the sample that is not a number makes its
// own column text, not another column whose name it contains (LOJA_ID must not degrade ID).
func TestInitDegradesOnlyTheFailingColumn(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("ID,LOJA_ID,VALOR\n")
	for i := 1; i <= maxSample+10; i++ {
		loja := strconv.Itoa(i % 7)
		if i == maxSample+5 {
			loja = "sem loja"
		}
		fmt.Fprintf(&b, "%d,%s,%d.5\n", i, loja, i)
	}
	write(t, dir, "vendas.csv", b.String())
	res, err := Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	app, _ := os.ReadFile(res.App)
	for _, want := range []string{"{name: ID, label: ID, type: number", "{name: LOJA_ID, label: Loja ID, type: string"} {
		if !strings.Contains(string(app), want) {
			t.Errorf("app.yaml lacks %q:\n%s", want, app)
		}
	}
}

// read is the text of file in dir.
func read(t *testing.T, dir, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func contains(t *testing.T, what, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// TestInitNamesWhatItCannotUse: in a folder, a file that is no data, a CSV without a header of
// physical names, an old workbook, Excel's lock file, a hidden CSV and a subfolder without
// Parquet are skipped, each named with its reason; named on the command line, the same CSV stops
// Init with that reason, and nothing is written.
func TestInitNamesWhatItCannotUse(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "vendas.csv", "LOJA,VALOR\n1,10.5\n")
	write(t, dir, "notas.md", "# notas\n")
	bad := write(t, dir, "ruim.csv", "Valor,,Valor\n1,2,3\n")
	write(t, dir, "antiga.xls", "x")
	write(t, dir, "~$planilha.xlsx", "x")
	write(t, dir, ".oculto.csv", "A,B\n1,2\n")
	os.Mkdir(filepath.Join(dir, "fotos"), 0o755)
	res, err := Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tables) != 1 || res.Tables[0].Label != "Vendas" {
		t.Errorf("tables %v", res.Tables)
	}
	var b strings.Builder
	Report(&b, res)
	contains(t, "the report", b.String(),
		"notas.md: não é um arquivo que o lumo lê",
		`ruim.csv: o cabeçalho (linha 1) tem problemas: a coluna 2 não tem nome; as colunas 1 e 3 se chamam "Valor"`,
		"antiga.xls: é do formato antigo do Excel (.xls)",
		"~$planilha.xlsx: é o arquivo temporário que o Excel cria",
		".oculto.csv: é um arquivo oculto",
		"fotos/: a subpasta não tem arquivos .parquet",
	)
	os.Remove(res.App)
	os.Remove(res.Workspace)
	if _, err := Init(Options{Paths: []string{bad, filepath.Join(dir, "vendas.csv")}}); err == nil || !strings.Contains(err.Error(), `ruim.csv: o cabeçalho (linha 1) tem problemas`) {
		t.Errorf("a named file that cannot be used: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "app.yaml")); err == nil {
		t.Error("app.yaml written after a refusal")
	}
	if _, err := Init(Options{Paths: []string{filepath.Join(dir, "notas.md")}}); err == nil || !strings.Contains(err.Error(), "notas.md: não é um arquivo que o lumo lê") {
		t.Errorf("a named file that is no data: %v", err)
	}
}

// TestRelationshipsByNameAndValues: same-named columns join when every value of one is a value
// of the other, whose values are unique; one value missing from the dimension leaves them
// apart, saying which.
func TestRelationshipsByNameAndValues(t *testing.T) {
	for _, c := range []struct {
		vendas string
		made   []Relationship
		left   []Relationship
	}{
		{"LOJA,VALOR\n1,10.5\n2,3\n1,7\n", []Relationship{{"Vendas.Loja", "Lojas.Loja", "mesmo nome, e os 2 valores de Vendas estão em Lojas"}}, nil},
		{"LOJA,VALOR\n1,10.5\n7,3\n9,1\n9,2\n", nil, []Relationship{{"Vendas.Loja", "Lojas.Loja", `2 valores de Vendas não estão em Lojas ("7" e "9")`}}},
	} {
		dir := t.TempDir()
		write(t, dir, "lojas.csv", "LOJA,NOME\n1,Aurora\n2,Boa Vista\n3,Centro\n")
		write(t, dir, "vendas.csv", c.vendas)
		res, err := Init(Options{Paths: []string{dir}})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(res.Relationships) != fmt.Sprint(c.made) || fmt.Sprint(res.Declined) != fmt.Sprint(c.left) {
			t.Errorf("made %v, left %v; want %v, %v", res.Relationships, res.Declined, c.made, c.left)
		}
		app := read(t, dir, "app.yaml")
		if c.made != nil {
			contains(t, "app.yaml", app, "{name: LOJA, label: Loja, type: number, role: key}", "{from: Vendas.Loja, to: Lojas.Loja}", "kind: dimension")
		} else if strings.Contains(app, "relationships:") {
			t.Errorf("a relationship despite a missing value:\n%s", app)
		}
	}
}

// TestRelationshipsKeepOnePath: a fact reaching a dimension directly and through another fact
// keeps the direct relationship and says why the other is left out.
func TestRelationshipsKeepOnePath(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "lojas.csv", "LOJA,UF\nA,SP\nB,RJ\n")
	write(t, dir, "metas.csv", "LOJA,META\nA,100\nB,50\n")
	write(t, dir, "vendas.csv", "LOJA,VALOR\nA,1\nA,2\nB,3\n")
	res, err := Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	want := "[{Vendas.Loja Lojas.Loja mesmo nome, e os 2 valores de Vendas estão em Lojas} {Metas.Loja Lojas.Loja mesmo nome, e os 2 valores de Metas estão em Lojas}]"
	if fmt.Sprint(res.Relationships) != want {
		t.Errorf("made %v", res.Relationships)
	}
	if len(res.Declined) != 1 || !strings.Contains(res.Declined[0].Reason, "Vendas chegaria a Lojas por dois caminhos (Vendas → Lojas e Vendas → Metas → Lojas)") {
		t.Errorf("left out %v", res.Declined)
	}
}

// rewriteZip replaces old by new in part of the zip at path (what excelize cannot write: an
// Excel table's totals row, a table without header row).
func rewriteZip(t *testing.T, path, part, old, new string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	found := false
	for _, zf := range zr.File {
		rc, _ := zf.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		if zf.Name == part {
			found = strings.Contains(string(b), old)
			b = []byte(strings.Replace(string(b), old, new, 1))
		}
		w, _ := zw.Create(zf.Name)
		w.Write(b)
	}
	zr.Close()
	zw.Close()
	if !found {
		t.Fatalf("%s has no %q", part, old)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWorkbookRangesAndTables: an Excel table is read as its sheet and range, without its totals
// row; a name defined for a sheet as that sheet and the name; a name over one column or one cell,
// an Excel table without header row and a chart are named with the reason; a sheet a range
// covers is no table of its own; a sheet whose values run past its header reads the header's
// columns only.
func TestWorkbookRangesAndTables(t *testing.T) {
	dir := t.TempDir()
	f := excelize.NewFile()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.SetSheetName("Sheet1", "Dados"))
	must(f.SetSheetRow("Dados", "A1", &[]any{"PEDIDO", "LOJA", "VALOR"}))
	for i, r := range [][]any{{1, "A", 10.5}, {2, "B", 20}, {3, "A", 30}, {"Total", nil, 60.5}} {
		must(f.SetSheetRow("Dados", fmt.Sprintf("A%d", i+2), &r))
	}
	must(f.AddTable("Dados", &excelize.Table{Range: "A1:C5", Name: "Pedidos"}))
	must(f.SetSheetRow("Dados", "F1", &[]any{"sem", "cabecalho"}))
	must(f.SetSheetRow("Dados", "F2", &[]any{1, 2}))
	must(f.AddTable("Dados", &excelize.Table{Range: "F1:G2", Name: "Solta"}))
	_, err := f.NewSheet("Lojas")
	must(err)
	must(f.SetSheetRow("Lojas", "A1", &[]any{"Lojas cadastradas"}))
	must(f.SetSheetRow("Lojas", "A3", &[]any{"LOJA", "NOME"}))
	must(f.SetSheetRow("Lojas", "A4", &[]any{"A", "Aurora"}))
	must(f.SetSheetRow("Lojas", "A5", &[]any{"B", "Bela", nil, "nota solta"}))
	_, err = f.NewSheet("Metas")
	must(err)
	must(f.SetSheetRow("Metas", "B2", &[]any{"LOJA", "META"}))
	must(f.SetSheetRow("Metas", "B3", &[]any{"A", 100}))
	must(f.SetSheetRow("Metas", "B4", &[]any{"B", 50}))
	must(f.SetDefinedName(&excelize.DefinedName{Name: "MetasLoja", RefersTo: "Metas!$B$2:$C$4", Scope: "Metas"}))
	must(f.SetDefinedName(&excelize.DefinedName{Name: "ListaLojas", RefersTo: "Lojas!$A$4:$A$5"}))
	must(f.SetDefinedName(&excelize.DefinedName{Name: "Taxa", RefersTo: "Metas!$E$1"}))
	must(f.AddChartSheet("Grafico", &excelize.Chart{Type: excelize.Col, Series: []excelize.ChartSeries{{Name: "Metas!$C$2", Categories: "Metas!$B$3:$B$4", Values: "Metas!$C$3:$C$4"}}}))
	path := filepath.Join(dir, "loja.xlsx")
	must(f.SaveAs(path))
	rewriteZip(t, path, "xl/tables/table1.xml", `ref="A1:C5"`, `ref="A1:C5" totalsRowCount="1"`)
	rewriteZip(t, path, "xl/tables/table2.xml", `ref="F1:G2"`, `ref="F1:G2" headerRowCount="0"`)

	res, err := Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	app := read(t, dir, "app.yaml")
	contains(t, "app.yaml", app,
		"xlsx: {range: \"Dados!A1:C4\"}",
		"# loja.xlsx, tabela do Excel \"Pedidos\" (Dados!A1:C4): 3 linhas",
		"xlsx: {sheet: Lojas, range: \"A3:B1048576\"}",
		"xlsx: {sheet: Metas, range: MetasLoja}",
		"{from: Pedidos.Loja, to: Lojas.Loja}",
	)
	var b strings.Builder
	Report(&b, res)
	contains(t, "the report", b.String(),
		`loja.xlsx, tabela do Excel "Solta": a tabela não tem linha de cabeçalho`,
		`loja.xlsx, intervalo "ListaLojas": o nome aponta para Lojas!$A$4:$A$5, de uma coluna só`,
		`loja.xlsx, intervalo "Taxa": o nome aponta para uma célula só (Metas!$E$1)`,
		`loja.xlsx, planilha "Grafico": `,
	)
	if len(res.Tables) != 3 {
		t.Errorf("%d tables, want Pedidos, Lojas and Metas loja", len(res.Tables))
	}
	for _, tb := range res.Tables {
		if tb.Label == "Pedidos" && tb.Rows != 3 {
			t.Errorf("Pedidos has %d rows: the totals row is no data", tb.Rows)
		}
	}
}

// TestParquetFolderOfParts: a subfolder of part files (and a writer's marker) is one table; a
// folder holding only parts is that table, named after the folder.
func TestParquetFolderOfParts(t *testing.T) {
	type item struct {
		PEDIDO_ID int64 `parquet:"PEDIDO_ID"`
		PRECO     int64 `parquet:"PRECO,decimal(2:10)"`
		QUANDO    int64 `parquet:"QUANDO,timestamp(millisecond:utc)"`
	}
	dir := t.TempDir()
	parts := filepath.Join(dir, "itens")
	os.Mkdir(parts, 0o755)
	at := time.Date(2026, 10, 1, 9, 30, 0, 0, time.UTC).UnixMilli()
	for n, rows := range [][]item{{{1, 1050, at}, {1, 24990, at}}, {{2, 100000, at}}} {
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[item](&buf)
		w.Write(rows)
		w.Close()
		write(t, parts, fmt.Sprintf("part-%05d.parquet", n), buf.String())
	}
	write(t, parts, "_SUCCESS", "")
	res, err := Init(Options{Paths: []string{parts}})
	if err != nil || len(res.Tables) != 1 || res.Tables[0].Label != "Itens" || res.Tables[0].File != "." || res.Tables[0].Rows != 3 {
		t.Fatalf("init on the parts: %+v %v", res, err)
	}
	os.Remove(res.App)
	os.Remove(res.Workspace)
	res, err = Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tables) != 1 || res.Tables[0].Rows != 3 || res.Tables[0].Source != "itens/ (Parquet, 2 arquivos)" {
		t.Fatalf("tables %+v", res.Tables)
	}
	contains(t, "app.yaml", read(t, dir, "app.yaml"),
		"file: itens",
		"{name: PEDIDO_ID, label: Pedido ID, type: number, role: key}",
		"{name: PRECO, label: Preco, type: number, role: measure, usage: 10}",
		"{name: QUANDO, label: Quando, type: datetime, role: dimension, usage: 8}",
	)
}

// TestPostgresOptions: a DSN with a password, --table without --postgres and a password
// variable that is not set are refused before anything is read, never repeating the DSN.
func TestPostgresOptions(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Postgres: "postgres://leitor:segredo@erp/erp", Tables: []string{"vendas"}}, "passe o nome dela em --password-env"},
		{Options{Postgres: "postgres://leitor@erp/erp?password=segredo", Tables: []string{"vendas"}}, "passe o nome dela em --password-env"},
		{Options{Postgres: "postgres://leitor@erp/erp"}, "--postgres precisa de --table"},
		{Options{Tables: []string{"vendas"}}, "--table precisa de --postgres"},
		{Options{Postgres: "postgres://leitor@erp/erp", Tables: []string{"vendas"}, PasswordEnv: "LUMO_INIT_NAO_DEFINIDA"}, "LUMO_INIT_NAO_DEFINIDA (--password-env) não está definida"},
		{Options{Postgres: "postgres://leitor@127.0.0.1:1/erp", Tables: []string{"vendas; drop"}}, `--table "vendas; drop": escreva a tabela como no psql`},
	} {
		_, err := Init(c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Init(%+v): %v, want %q", c.o, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "segredo") {
			t.Errorf("the error repeats the password: %v", err)
		}
	}
}

// TestPostgresTables reads a source database's tables beside a CSV: a boolean is text
// (VERDADEIRO or FALSO, as a workbook's), a column whose name is no physical name is read under
// one through a query, and the password variable is named in workspace.yaml, its value nowhere.
func TestPostgresTables(t *testing.T) {
	dsn := pgtest.SourceDB(t, `CREATE SCHEMA erp;
		CREATE TABLE erp.clientes (id integer PRIMARY KEY, "Nome Completo" text, ativo boolean, desde date);
		INSERT INTO erp.clientes VALUES (1, 'Ana', true, '2020-01-02'), (2, 'Bia', false, NULL);`)
	dir := t.TempDir()
	write(t, dir, "pedidos.csv", "CLIENTE_ID,VALOR\n1,10.5\n1,2\n2,3\n")
	t.Setenv("LUMO_INIT_TESTE_SENHA", "senha-que-nao-aparece")
	res, err := Init(Options{Paths: []string{dir}, Postgres: dsn, Tables: []string{"erp.clientes"}, PasswordEnv: "LUMO_INIT_TESTE_SENHA"})
	if err != nil {
		t.Fatal(err)
	}
	app, ws := read(t, dir, "app.yaml"), read(t, dir, "workspace.yaml")
	contains(t, "app.yaml", app,
		`query: "SELECT \"id\", \"Nome Completo\" AS nome_completo, \"ativo\", \"desde\" FROM erp.clientes"}`,
		"{name: nome_completo, label: Nome completo, type: string, role: dimension, usage: 5}",
		"{name: ativo, label: Ativo, type: string, role: dimension, usage: 5}",
		"{name: desde, label: Desde, type: date, role: dimension, usage: 8}",
		"{from: Pedidos.Cliente ID, to: Clientes.Id}",
	)
	contains(t, "workspace.yaml", ws, "passwordEnv: LUMO_INIT_TESTE_SENHA")
	var b strings.Builder
	Report(&b, res)
	for what, text := range map[string]string{"app.yaml": app, "workspace.yaml": ws, "the report": b.String()} {
		if strings.Contains(text, "senha-que-nao-aparece") {
			t.Errorf("%s holds the password", what)
		}
	}
	if _, err := workspace.Load(workspace.DirFS(dir), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
}

// TestSheetValuesBesideTheHeader: a value to the right of the header's columns makes the table
// the range under the header; two-digit years with no day above 12 declare dd/mm/aa.
func TestSheetValuesBesideTheHeader(t *testing.T) {
	dir := t.TempDir()
	f := excelize.NewFile()
	f.SetSheetRow("Sheet1", "A1", &[]any{"LOJA", "VALOR"})
	f.SetSheetRow("Sheet1", "A2", &[]any{"A", 10})
	f.SetSheetRow("Sheet1", "A3", &[]any{"B", 20, nil, "conferir"})
	if err := f.SaveAs(filepath.Join(dir, "caixa.xlsx")); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "metas.csv", "MES;META\n01/09/26;1.000\n01/10/26;2.500,5\n")
	res, err := Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	contains(t, "app.yaml", read(t, dir, "app.yaml"),
		`- label: Caixa`,
		`xlsx: {sheet: Sheet1, range: "A1:B1048576"}`,
		"# só as colunas sob o cabeçalho: ao lado delas há valores sem nome de coluna",
		"csv: {dateFormat: dd/mm/aa}",
		"{name: MES, label: Mes, type: date, role: dimension, usage: 8}",
	)
	if res.Tables[0].Rows != 2 {
		t.Errorf("caixa has %d rows", res.Tables[0].Rows)
	}
}

// The folder's name gives the keys, so two folders' workspaces import side by side.
func TestFolderKey(t *testing.T) {
	for dir, want := range map[string]string{
		"/x/Vendas Sul 2026": "vendas-sul-2026", "/x/Ação & Cia.": "acao-cia", "/x/...": "dados", "/x/__": "dados",
		"/x/" + strings.Repeat("ab", 60): strings.Repeat("ab", 20), "/x/001": "001",
	} {
		if got := folderKey(dir); got != want {
			t.Errorf("%q: %q, want %q", dir, got, want)
		}
	}
}

// A lookup file with numbers (a product list with its price, stores with their area) is a
// dimension that the sales reach, not a second fact: its numbers are attributes. A header table
// with dates that its items reach stays a fact.
func TestLookupsWithNumbersAreDimensions(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "vendas.csv", "DIA;PRODUTO;LOJA;QTD;VALOR\n01/10/2026;P1;L1;2;R$ 21,00\n01/10/2026;P2;L1;1;R$ 99,90\n"+
		"02/10/2026;P1;L2;3;R$ 31,50\n03/10/2026;P3;L2;1;R$ 5,00\n")
	write(t, dir, "produtos.csv", "PRODUTO;NOME;PRECO\nP1;Caneta;R$ 10,50\nP2;Mochila;R$ 99,90\nP3;Borracha;R$ 5,00\n")
	write(t, dir, "lojas.csv", "LOJA;CIDADE;AREA_M2\nL1;Santos;120\nL2;Campinas;85,5\n")
	res, err := Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	app, _ := os.ReadFile(res.App)
	for _, want := range []string{
		"{name: PRECO, label: Preco, type: number, role: dimension, unit: BRL, usage: 5}",
		"{name: AREA_M2, label: Area M2, type: number, role: dimension, usage: 5}",
		"{name: VALOR, label: Valor, type: number, role: measure, unit: BRL, usage: 10}",
		"{from: Vendas.Produto, to: Produtos.Produto}",
		"{from: Vendas.Loja, to: Lojas.Loja}",
	} {
		if !strings.Contains(string(app), want) {
			t.Errorf("app.yaml lacks %q:\n%s", want, app)
		}
	}
	kinds := map[string]string{}
	for _, tb := range res.Tables {
		kinds[tb.Label] = tb.Kind
	}
	if kinds["Vendas"] != "fact" || kinds["Produtos"] != "dimension" || kinds["Lojas"] != "dimension" {
		t.Errorf("kinds %v", kinds)
	}
}

// TestHeadersAsTyped: a workbook's and a Parquet file's column names as people write them are
// read: the label keeps them, the physical name is derived, and the importer's reader (which
// Init runs over every row) finds each column by its header.
func TestHeadersAsTyped(t *testing.T) {
	dir := t.TempDir()
	f := excelize.NewFile()
	f.SetSheetRow("Sheet1", "A1", &[]any{"Loja nº", "Data da venda", "Valor (R$)"})
	f.SetSheetRow("Sheet1", "A2", &[]any{"Centro", time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), 10.5})
	f.SetSheetRow("Sheet1", "A3", &[]any{"Praia", time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC), 20})
	if err := f.SaveAs(filepath.Join(dir, "caixa.xlsx")); err != nil {
		t.Fatal(err)
	}
	type meta struct {
		Loja string `parquet:"Loja nº"`
		Meta int64  `parquet:"Meta do mês (R$),decimal(2:10)"`
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[meta](&buf)
	w.Write([]meta{{"Centro", 100050}, {"Praia", 2000}})
	w.Close()
	write(t, dir, "metas.parquet", buf.String())
	res, err := Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) > 0 {
		t.Errorf("skipped: %+v", res.Skipped)
	}
	contains(t, "app.yaml", read(t, dir, "app.yaml"),
		"{name: loja_no, header: Loja nº, label: Loja nº, type: string",
		"{name: data_da_venda, header: Data da venda, label: Data da venda, type: date",
		"{name: valor_r, header: Valor (R$), label: Valor (R$), type: number, role: measure, unit: BRL",
		"{name: meta_do_mes_r, header: Meta do mês (R$), label: Meta do mês (R$), type: number, role: dimension, unit: BRL",
		"{from: Caixa.Loja nº, to: Metas.Loja nº}",
	)
}

// TestAppAndClientOfTheFolder: the app is named after its folder, as its keys are, also when one
// table is all init kept; the report's client setups serve the user init made, not the demo's.
func TestAppAndClientOfTheFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Loja Centro")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "vendas.csv", "DIA;VALOR\n01/10/2026;10,50\n")
	write(t, dir, "ruim.csv", "Valor,,Valor\n1,2,3\n")
	res, err := Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	contains(t, "app.yaml", read(t, dir, "app.yaml"), "name: Loja centro\n", "- label: Vendas")
	var b strings.Builder
	Report(&b, res)
	contains(t, "the report", b.String(),
		"  claude mcp add lumo -- lumo serve --user voce-loja-centro\n",
		`"lumo": {"command": "lumo", "args": ["serve", "--user", "voce-loja-centro"]}`,
	)
	if strings.Contains(b.String(), "ana") {
		t.Errorf("the report names the demo's user:\n%s", b.String())
	}
}
