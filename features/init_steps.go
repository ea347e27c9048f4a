package features

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"golang.org/x/text/encoding/charmap"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cucumber/godog"
	"github.com/parquet-go/parquet-go"
	"github.com/xuri/excelize/v2"

	"github.com/lumo-caderninho/mcp/impl/lumo/pgsource/pgtest"
	"github.com/lumo-caderninho/mcp/impl/lumo/scaffold"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

// initWorld runs lumo init on a folder of files made by other tools (copies of fixtures,
// workbooks written by excelize, Parquet written by parquet-go, CSV written as given) and on
// tables of a throwaway PostgreSQL database, then imports what it wrote.
type initWorld struct {
	w        *lumoWorld
	dir      string
	res      *scaffold.Result
	report   string
	dsn      string // the source database, when a step made one
	drop     func()
	env      string // the variable holding the database's password
	password string
}

func initInitSteps(w *lumoWorld, sc *godog.ScenarioContext) {
	i := &initWorld{w: w}
	sc.Step(`^a folder holding the files "([^"]*)" of "([^"]*)"$`, i.folderHolding)
	sc.Step(`^a folder holding "([^"]*)" written by (?:excelize|parquet-go)(?:: .*)?$`, i.folderWritten)
	sc.Step(`^the folder also holds "([^"]*)" written by (?:excelize|parquet-go)(?:: .*)?$`, i.written)
	sc.Step(`^(?:a|the) folder (?:holding|also holds) the file "([^"]*)":$`, i.file)
	sc.Step(`^(?:a|the) folder (?:holding|also holds) the file "([^"]*)" in Windows-1252:$`, i.file1252)
	sc.Step(`^a PostgreSQL source database holding:$`, i.sourceDB)
	sc.Step(`^lumo init runs on that folder$`, func() error { return i.run(nil) })
	sc.Step(`^lumo init runs on "([^"]*)" in that folder$`, i.runOn)
	sc.Step(`^lumo init on "([^"]*)" in that folder fails with:$`, i.failsOn)
	sc.Step(`^lumo init runs on that folder with --postgres and --table "([^"]*)", the password in ([A-Z_]+)$`, i.runPostgres)
	sc.Step(`^the app\.yaml it wrote has the lines:$`, i.appHas)
	sc.Step(`^the report says:$`, i.reportSays)
	sc.Step(`^no file it wrote, nor the report, holds the password$`, i.passwordNowhere)
	sc.Step(`^the workspace it wrote is imported$`, i.imported)
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		if i.env != "" {
			os.Unsetenv(i.env)
		}
		if i.drop != nil {
			i.drop()
		}
		*i = initWorld{w: w}
		return ctx, nil
	})
}

// folder makes the scenario's folder, once.
func (i *initWorld) folder() (string, error) {
	if external() {
		return "", errNeedsOwnSetup
	}
	if i.dir == "" {
		i.dir = filepath.Join(i.w.t.TempDir(), "dados") // the folder names the tenant, the app and the login
		if err := os.Mkdir(i.dir, 0o755); err != nil {
			return "", err
		}
	}
	return i.dir, nil
}

func (i *initWorld) folderHolding(list, from string) error {
	dir, err := i.folder()
	if err != nil {
		return err
	}
	for _, f := range strings.Split(list, ", ") {
		b, err := os.ReadFile(filepath.Join(from, f))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (i *initWorld) folderWritten(name string) error { return i.written(name) }

// written writes name into the folder with its generator (initFixtures).
func (i *initWorld) written(name string) error {
	dir, err := i.folder()
	if err != nil {
		return err
	}
	gen, ok := initFixtures[name]
	if !ok {
		return fmt.Errorf("no generator for %q", name)
	}
	return gen(filepath.Join(dir, name))
}

func (i *initWorld) file(name string, doc *godog.DocString) error {
	dir, err := i.folder()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), []byte(doc.Content+"\n"), 0o644)
}

// file1252 writes doc in Windows-1252, as Excel on Windows saves a CSV.
func (i *initWorld) file1252(name string, doc *godog.DocString) error {
	b, err := charmap.Windows1252.NewEncoder().String(doc.Content + "\n")
	if err != nil {
		return err
	}
	dir, err := i.folder()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), []byte(b), 0o644)
}

// sourceDB makes a throwaway PostgreSQL database holding what doc creates; without a server
// configured the scenario is skipped, saying how to run it.
func (i *initWorld) sourceDB(doc *godog.DocString) error {
	if external() {
		return errNeedsOwnSetup
	}
	dsn, drop, err := pgtest.Create(doc.Content)
	if errors.Is(err, pgtest.ErrNoPostgres) {
		i.w.t.Log(err.Error())
		return fmt.Errorf("%v: %w", err, godog.ErrSkip)
	}
	if err != nil {
		return err
	}
	i.dsn, i.drop = dsn, drop
	return nil
}

// runOn runs init on sub, a path inside the scenario's folder.
func (i *initWorld) runOn(sub string) error {
	return i.run(&scaffold.Options{Paths: []string{filepath.Join(i.dir, filepath.FromSlash(sub))}})
}

// failsOn checks that init on sub, inside the scenario's folder, stops with doc's text (the
// folder's path written as <folder>).
func (i *initWorld) failsOn(sub string, doc *godog.DocString) error {
	_, err := scaffold.Init(scaffold.Options{Paths: []string{filepath.Join(i.dir, filepath.FromSlash(sub))}})
	want := strings.ReplaceAll(strings.TrimSpace(doc.Content), "<folder>", i.dir)
	if err == nil || !strings.Contains(err.Error(), want) {
		return fmt.Errorf("lumo init on %s: %v\nwant %s", sub, err, want)
	}
	return nil
}

func (i *initWorld) run(o *scaffold.Options) (err error) {
	if o == nil {
		o = &scaffold.Options{}
	}
	if len(o.Paths) == 0 {
		o.Paths = []string{i.dir}
	}
	i.res, err = scaffold.Init(*o)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	scaffold.Report(&b, i.res)
	i.report = b.String()
	return nil
}

// runPostgres runs init on the folder and the source database's tables, with a fresh random
// password in env (the test server trusts local connections, so any password does).
func (i *initWorld) runPostgres(tables, env string) error {
	if i.dsn == "" {
		return errors.New("no source database: a step must say what it holds first")
	}
	var b [12]byte
	rand.Read(b[:])
	i.env, i.password = env, "senha-"+hex.EncodeToString(b[:])
	os.Setenv(env, i.password)
	return i.run(&scaffold.Options{Postgres: i.dsn, Tables: strings.Split(tables, ","), PasswordEnv: env})
}

func (i *initWorld) appHas(doc *godog.DocString) error {
	b, err := os.ReadFile(i.res.App)
	if err != nil {
		return err
	}
	return hasLines("app.yaml", string(b), doc.Content)
}

func (i *initWorld) reportSays(doc *godog.DocString) error {
	return hasLines("the report", i.report, doc.Content)
}

// hasLines checks that text holds every line of want, spaces around them aside.
func hasLines(what, text, want string) error {
	for _, line := range strings.Split(strings.TrimSpace(want), "\n") {
		if !strings.Contains(text, strings.TrimSpace(line)) {
			return fmt.Errorf("%s lacks %q:\n%s", what, strings.TrimSpace(line), text)
		}
	}
	return nil
}

func (i *initWorld) passwordNowhere() error {
	if strings.Contains(i.report, i.password) {
		return errors.New("the report shows the password")
	}
	for _, f := range []string{i.res.App, i.res.Workspace} {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), i.password) {
			return fmt.Errorf("%s holds the password", f)
		}
		if !strings.Contains(string(b), "passwordEnv: "+i.env) && f == i.res.Workspace {
			return fmt.Errorf("%s does not name %s:\n%s", f, i.env, b)
		}
	}
	return nil
}

// imported imports the written workspace as `lumo import` does, confined to its folder (with
// the password variable still set, when there is one).
func (i *initWorld) imported(ctx context.Context) error {
	_, err := i.w.importWorkspace(ctx, workspace.DirFS(i.res.Dir))
	return err
}

// initFixtures write the files of init.feature, by name, with other tools than lumo's readers:
// excelize for workbooks, parquet-go for Parquet. init.feature lists what each holds.
var initFixtures = map[string]func(path string) error{
	"vendas.xlsx":    vendasWorkbook,
	"lojas.xlsx":     lojasWorkbook,
	"itens":          itensParts,
	"vendas":         duckdbVendas,
	"entregas":       sparkEntregas,
	"formatada.xlsx": formattedWorkbook,
	"pedidos.xlsx":   textDatesWorkbook,
	"produtos.parquet": func(path string) error {
		type produto struct {
			PRODUTO   string `parquet:"PRODUTO"`
			NOME      string `parquet:"NOME"`
			CATEGORIA string `parquet:"CATEGORIA"`
		}
		return writeParquet(path, []produto{
			{"P1", "Caneta", "Papelaria"}, {"P2", "Mochila", "Acessórios"}, {"P3", "Notebook", "Eletrônicos"}, {"P4", "Régua", "Papelaria"},
		})
	},
}

// brl is the currency format Excel's pt-BR templates use.
var brl = &excelize.Style{CustomNumFmt: ptrTo(`"R$" #,##0.00`)}

func ptrTo[T any](v T) *T { return &v }

func day(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

// vendasWorkbook writes vendas.xlsx: the sheet Vendas (a title on row 1, the header on row 3,
// dates, R$ prices and a TOTAL formula with its value stored, as Excel stores it), the sheet
// Cadastro holding the Excel table Lojas, the sheet Metas holding the range named Metas and the
// one-cell name Taxa, and the sheet Notas, which is no table.
func vendasWorkbook(path string) error {
	f := excelize.NewFile()
	defer f.Close()
	money, err := f.NewStyle(brl)
	if err != nil {
		return err
	}
	date, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	if err != nil {
		return err
	}
	if err := f.SetSheetName("Sheet1", "Vendas"); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter("Vendas")
	if err != nil {
		return err
	}
	rows := [][]any{{"Vendas de outubro"}, nil, {"PEDIDO", "DIA", "LOJA", "QTD", "PRECO", "TOTAL"}}
	for n, v := range []struct {
		dia   time.Time
		loja  string
		qtd   int
		preco float64
	}{
		{day(2026, 10, 1), "Centro", 2, 10.50},
		{day(2026, 10, 1), "Bairro", 1, 99.90},
		{day(2026, 10, 2), "Centro", 3, 5.25},
		{day(2026, 10, 3), "Praia", 10, 1.99},
		{day(2026, 10, 3), "Centro", 1, 1234.56},
	} {
		r := n + 4
		rows = append(rows, []any{n + 1, excelize.Cell{StyleID: date, Value: v.dia}, v.loja, v.qtd,
			excelize.Cell{StyleID: money, Value: v.preco},
			excelize.Cell{StyleID: money, Formula: fmt.Sprintf("D%d*E%d", r, r), Value: float64(v.qtd) * v.preco}})
	}
	if err := streamRows(sw, rows); err != nil {
		return err
	}
	for _, s := range []string{"Cadastro", "Metas", "Notas"} {
		if _, err := f.NewSheet(s); err != nil {
			return err
		}
	}
	if sw, err = f.NewStreamWriter("Cadastro"); err != nil {
		return err
	}
	if err := streamRows(sw, lojasRows, &excelize.Table{Range: "A1:C4", Name: "Lojas"}); err != nil {
		return err
	}
	if sw, err = f.NewStreamWriter("Metas"); err != nil {
		return err
	}
	meta := func(v float64) excelize.Cell { return excelize.Cell{StyleID: money, Value: v} }
	if err := streamRows(sw, [][]any{nil, {nil, "LOJA", "META", nil, 0.05}, {nil, "Centro", meta(1000)}, {nil, "Bairro", meta(500)}, {nil, "Praia", meta(300)}}); err != nil {
		return err
	}
	for name, ref := range map[string]string{"Metas": "Metas!$B$2:$C$5", "Taxa": "Metas!$E$2"} {
		if err := f.SetDefinedName(&excelize.DefinedName{Name: name, RefersTo: ref}); err != nil {
			return err
		}
	}
	if err := f.SetCellValue("Notas", "A1", "Conferido por Ana em 05/10"); err != nil {
		return err
	}
	return f.SaveAs(path)
}

// lojasRows are the stores of both workbooks.
var lojasRows = [][]any{{"LOJA", "CIDADE", "UF"}, {"Centro", "São Paulo", "SP"}, {"Bairro", "Campinas", "SP"}, {"Praia", "Niterói", "RJ"}}

// lojasWorkbook writes lojas.xlsx: one sheet, Lojas, with the header on row 1.
func lojasWorkbook(path string) error {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Lojas"); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter("Lojas")
	if err != nil {
		return err
	}
	if err := streamRows(sw, lojasRows); err != nil {
		return err
	}
	return f.SaveAs(path)
}

// textDatesWorkbook writes pedidos.xlsx: one sheet Pedidos whose DIA cells are texts written
// dd/mm/aaaa (as a sheet pasted from another system keeps them), not date serials.
func textDatesWorkbook(path string) error {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Pedidos"); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter("Pedidos")
	if err != nil {
		return err
	}
	return errors.Join(streamRows(sw, [][]any{{"PEDIDO", "DIA", "VALOR"},
		{1, "30/09/2026", 100.5}, {2, "01/10/2026", 20}, {3, "31/10/2026", 3.25}, {4, "02/11/2026", 7}}), f.SaveAs(path))
}

// streamRows writes rows from A1 down, a nil row left empty, then the Excel tables, and
// flushes: excelize's stream writer stores a formula's value as a number, as Excel does.
func streamRows(sw *excelize.StreamWriter, rows [][]any, tables ...*excelize.Table) error {
	for n, r := range rows {
		if r == nil {
			continue
		}
		cell, _ := excelize.CoordinatesToCellName(1, n+1)
		if err := sw.SetRow(cell, r); err != nil {
			return err
		}
	}
	for _, t := range tables {
		if err := sw.AddTable(t); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// item is a line of an order, as itens/ holds it: a DECIMAL(10,2) price in cents, a UTC
// TIMESTAMP in milliseconds and a DATE (days since 1970) that may be NULL.
type item struct {
	PEDIDO_ID int64  `parquet:"PEDIDO_ID"`
	PRODUTO   string `parquet:"PRODUTO"`
	QTD       int32  `parquet:"QTD"`
	PRECO     int64  `parquet:"PRECO,decimal(2:10)"`
	VENDIDO   int64  `parquet:"VENDIDO_EM,timestamp(millisecond:utc)"`
	ENTREGA   *int32 `parquet:"ENTREGA,optional,date"`
}

// itensParts writes the folder itens: two part files and a writer's _SUCCESS marker.
func itensParts(path string) error {
	at := func(d, m, hh, mi, ss int) int64 {
		return time.Date(2026, time.Month(m), d, hh, mi, ss, 0, time.UTC).UnixMilli()
	}
	on := func(d, m int) *int32 { v := int32(day(2026, m, d).Unix() / 86400); return &v }
	parts := [][]item{{
		{1, "P1", 2, 1050, at(1, 10, 9, 30, 0), on(3, 10)},
		{1, "P2", 1, 24990, at(1, 10, 9, 30, 0), on(3, 10)},
		{2, "P1", 5, 1050, at(2, 10, 14, 0, 0), nil},
	}, {
		{3, "P3", 1, 100000, at(5, 10, 18, 45, 10), on(10, 10)},
		{4, "P2", 2, 24990, at(1, 11, 8, 0, 0), on(2, 11)},
	}}
	if err := os.Mkdir(path, 0o755); err != nil {
		return err
	}
	for n, rows := range parts {
		if err := writeParquet(filepath.Join(path, fmt.Sprintf("part-%05d.parquet", n)), rows); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(path, "_SUCCESS"), nil, 0o644)
}

func writeParquet[T any](path string, rows []T) error {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf)
	if _, err := w.Write(rows); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// venda is a row of vendas/, as DuckDB writes it partitioned by ano and mes: the partition
// columns are in the folders' names, not in the files.
type venda struct {
	PEDIDO_ID int64  `parquet:"PEDIDO_ID"`
	LOJA      string `parquet:"LOJA"`
	VALOR     int64  `parquet:"VALOR,decimal(2:12)"`
}

// duckdbVendas writes the folder vendas as DuckDB's COPY vendas TO 'vendas' (FORMAT parquet,
// PARTITION_BY (ano, mes)) lays it out: ano=2025/mes=12/data_0.parquet, the month without a
// leading zero.
func duckdbVendas(path string) error {
	for dir, rows := range map[string][]venda{
		"ano=2025/mes=12": {{1, "Centro", 10000}, {2, "Praia", 5050}},
		"ano=2026/mes=1":  {{3, "Centro", 20000}, {4, "Centro", 1025}},
		"ano=2026/mes=2":  {{5, "Praia", 30000}},
	} {
		if err := os.MkdirAll(filepath.Join(path, dir), 0o755); err != nil {
			return err
		}
		if err := writeParquet(filepath.Join(path, dir, "data_0.parquet"), rows); err != nil {
			return err
		}
	}
	return nil
}

// entrega is a row of entregas/, as Spark writes it partitioned by dia.
type entrega struct {
	PEDIDO_ID int64 `parquet:"PEDIDO_ID"`
	PRAZO     int32 `parquet:"PRAZO"`
}

// sparkEntregas writes the folder entregas as Spark's df.write.partitionBy("dia") does: a
// _SUCCESS marker, part-00000-<uuid>.c000.snappy.parquet files (Snappy pages) with .crc
// checksums beside them, and __HIVE_DEFAULT_PARTITION__ for the rows without a day.
func sparkEntregas(path string) error {
	const uuid = "5e0c7a1d-3b2f-4c8e-9a61-0d4f2b7c9e13"
	for dir, rows := range map[string][]entrega{
		"dia=2026-01-05":                 {{3, 2}, {4, 1}},
		"dia=2026-02-10":                 {{5, 3}},
		"dia=__HIVE_DEFAULT_PARTITION__": {{1, 7}},
	} {
		if err := os.MkdirAll(filepath.Join(path, dir), 0o755); err != nil {
			return err
		}
		name := "part-00000-" + uuid + ".c000.snappy.parquet"
		var buf bytes.Buffer
		w := parquet.NewGenericWriter[entrega](&buf, parquet.Compression(&parquet.Snappy))
		if _, err := w.Write(rows); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(path, dir, name), buf.Bytes(), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(path, dir, "."+name+".crc"), []byte("crc"), 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(path, "_SUCCESS"), nil, 0o644)
}

// formattedWorkbook writes formatada.xlsx as people format a sheet, merged cells styled over
// their range (so the cells a merge covers are empty styled cells, and the ranges are in the
// sheet's <mergeCells>, as Excel writes them):
//   - Vendas: the title "Vendas de outubro" merged over A1:E1; groups of columns on row 2, "Onde
//     e quando" over B2:C2 and "Valores" over D2:E2; the header on row 3; three sales.
//   - Metas: the header's META merged over B1:C1, with values under B and C.
func formattedWorkbook(path string) error {
	f := excelize.NewFile()
	defer f.Close()
	center, err := f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{Horizontal: "center"}, Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	date, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	if err != nil {
		return err
	}
	var errs []error
	merge := func(sheet, from, to, text string) {
		errs = append(errs, f.SetCellValue(sheet, from, text), f.MergeCell(sheet, from, to), f.SetCellStyle(sheet, from, to, center))
	}
	errs = append(errs, f.SetSheetName("Sheet1", "Vendas"))
	merge("Vendas", "A1", "E1", "Vendas de outubro")
	merge("Vendas", "B2", "C2", "Onde e quando")
	merge("Vendas", "D2", "E2", "Valores")
	errs = append(errs, f.SetSheetRow("Vendas", "A3", &[]any{"PEDIDO", "DIA", "LOJA", "QTD", "VALOR"}))
	for n, r := range [][]any{{1, day(2026, 10, 1), "Centro", 2, 21.0}, {2, day(2026, 10, 1), "Praia", 1, 99.9}, {3, day(2026, 10, 2), "Centro", 3, 15.75}} {
		cell := fmt.Sprintf("A%d", n+4)
		errs = append(errs, f.SetSheetRow("Vendas", cell, &r), f.SetCellStyle("Vendas", fmt.Sprintf("B%d", n+4), fmt.Sprintf("B%d", n+4), date))
	}
	_, err = f.NewSheet("Metas")
	errs = append(errs, err, f.SetCellValue("Metas", "A1", "LOJA"))
	merge("Metas", "B1", "C1", "META")
	errs = append(errs, f.SetSheetRow("Metas", "A2", &[]any{"Centro", 1000, "revisar"}))
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return f.SaveAs(path)
}
