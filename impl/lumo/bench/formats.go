package bench

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lib/pq"
	"github.com/parquet-go/parquet-go"
	"github.com/xuri/excelize/v2"
	"golang.org/x/sync/errgroup"
	"golang.org/x/text/encoding/charmap"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
)

// The import-format bench: the same sales rows written as each file format a user brings, each
// imported by the real `lumo import` in a process of its own on each engine, so its peak RSS is
// the import's alone.

// FormatsConfig is one run of the import-format bench.
type FormatsConfig struct {
	Formats     []string // names from Formats()
	Rows        int
	Engines     []string
	PostgresDSN string
	Lumo        string // the lumo binary
	Log         io.Writer
	// Rollups imports the sales app with its four rollups (without them by default).
	Rollups bool
}

// FormatReport is one format imported on one engine.
type FormatReport struct {
	Format        string  `json:"format"`
	Engine        string  `json:"engine"`
	Rows          int     `json:"rows"`
	FileMiB       float64 `json:"fileMiB"`
	Seconds       float64 `json:"seconds"`
	RowsPerSecond float64 `json:"rowsPerSecond"`
	PeakRSSMiB    float64 `json:"peakRssMiB"`
	Detected      string  `json:"detected,omitempty"` // the line the import printed for the file
	// FirstAnswer is how long `lumo call` took to answer the value by UF once the import ended
	// (a process of its own: it opens the database and the import's file): with Seconds, from
	// the files to an answer.
	FirstAnswer float64 `json:"firstAnswerSeconds,omitempty"`
	// DuckDBAlone is, for a format DuckDB reads itself (CSV, Parquet), how long DuckDB alone took
	// from the same files to the same answer (see duckdbAlone), in this run; 0 for the others.
	DuckDBAlone float64 `json:"duckdbAloneSeconds,omitempty"`
}

// FormatsReport is the whole run.
type FormatsReport struct {
	Rows    int            `json:"rows"`
	Rollups bool           `json:"rollups"`
	CPUs    int            `json:"cpus"`
	Started time.Time      `json:"started"`
	Results []FormatReport `json:"results"`
}

// fileFormat writes the sales table as one format: file is its name in the app folder. A
// database source has source instead, which fills a database and says how app.yaml names it.
type fileFormat struct {
	file   string
	words  string // what the file holds, for the report
	write  func(path string, rows int) error
	source func(ctx context.Context, c FormatsConfig) (*dbSource, error)
	// duckdb is DuckDB's own reader of the format ("" when it has none here), and parts the
	// pattern of a folder's files.
	duckdb, parts string
}

// dbSource is a database the sales table is read from: the lines workspace.yaml and the
// table's entry in app.yaml get, its size on disk, and how to drop it.
type dbSource struct {
	workspace, table string
	bytes            int64
	drop             func()
}

var fileFormats = map[string]fileFormat{
	"csv":      {file: "vendas.csv", words: "CSV: ',' and decimal point, UTF-8, ISO dates", write: writeCSV, duckdb: "read_csv"},
	"csv-ptbr": {file: "vendas.csv", words: `pt-BR CSV: ';', "1.234,56", Windows-1252, dd/mm/aaaa HH:mm, detected`, write: writePtBRCSV},
	"xlsx":     {file: "vendas.xlsx", words: "XLSX written by excelize's stream writer: numbers, inline strings, date cells", write: writeXLSX},
	"parquet":  {file: "vendas.parquet", words: "Parquet written by parquet-go: Snappy, row groups of 128k rows, decimal(12,2), timestamp(ms), dictionary texts", write: writeParquet, duckdb: "read_parquet"},
	"parquet-folder": {file: "vendas", words: "a folder of Parquet parts of at most 10M rows each (`part-000.parquet`, ...), written as `parquet`'s, two at a time",
		write: writeParquetFolder, duckdb: "read_parquet", parts: "*.parquet"},
	"postgres-source": {words: "a table of another PostgreSQL database (numeric(12,2), timestamp, text), read by postgres: in app.yaml",
		source: pgSalesSource},
}

// Formats are the format names the bench knows, in report order.
func Formats() []string {
	return []string{"csv", "csv-ptbr", "xlsx", "parquet", "parquet-folder", "postgres-source"}
}

// RunFormats writes each format once and imports it on every engine.
func RunFormats(ctx context.Context, c FormatsConfig) (*FormatsReport, error) {
	rep := &FormatsReport{Rows: c.Rows, Rollups: c.Rollups, CPUs: cpus(), Started: time.Now().UTC()}
	for _, name := range c.Formats {
		f, ok := fileFormats[name]
		if !ok {
			return rep, fmt.Errorf("--formats: %q is not a format (use %s)", name, strings.Join(Formats(), ", "))
		}
		results, err := runFormat(ctx, c, name, f)
		rep.Results = append(rep.Results, results...)
		if err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// runFormat writes the workspace in format f once and imports it on each engine.
func runFormat(ctx context.Context, c FormatsConfig, name string, f fileFormat) ([]FormatReport, error) {
	dir, err := os.MkdirTemp("", "lumo-bench-"+name+"-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintf(c.Log, "lumo-bench: writing %d rows as %s\n", c.Rows, name)
	var src *dbSource
	if f.source != nil {
		if src, err = f.source(ctx, c); err != nil {
			return nil, fmt.Errorf("%s: filling the source: %w", name, err)
		}
		defer src.drop()
	}
	size, err := writeFormatWorkspace(dir, f, c.Rows, src, c.Rollups)
	if err != nil {
		return nil, fmt.Errorf("%s: writing: %w", name, err)
	}
	var alone float64
	if f.duckdb != "" && columnar.Available {
		if alone, err = duckdbAlone(ctx, dir, f); err != nil {
			return nil, fmt.Errorf("%s, DuckDB alone: %w", name, err)
		}
		fmt.Fprintf(c.Log, "lumo-bench: %s, DuckDB alone: from the files to the answer in %.1f s\n", name, alone)
	}
	var out []FormatReport
	for _, engine := range c.Engines {
		r, err := importFormat(ctx, c, dir, engine)
		if err != nil {
			return out, fmt.Errorf("%s on %s: %w", name, engine, err)
		}
		r.Format, r.FileMiB, r.DuckDBAlone = name, float64(size)/(1<<20), alone
		fmt.Fprintf(c.Log, "lumo-bench: %s on %s: %.0f rows/s, peak RSS %.0f MiB\n", name, engine, r.RowsPerSecond, r.PeakRSSMiB)
		fmt.Fprintf(c.Log, "lumo-bench: %s on %s: the first answer %.2f s after the import\n", name, engine, r.FirstAnswer)
		out = append(out, r)
	}
	return out, nil
}

// duckdbAlone is how long DuckDB alone takes from the workspace's files in dir to the answer
// firstAnswer asks lumo for (the value of the sales by UF): it loads the app's four tables with
// its own readers (types sniffed) into a new file, with lumo's default memory limit and threads,
// checkpoints, and answers, in this process.
func duckdbAlone(ctx context.Context, dir string, f fileFormat) (float64, error) {
	app := filepath.Join(dir, "apps", "vendas")
	path := filepath.Join(dir, "alone.duckdb")
	defer os.Remove(path)
	defer os.Remove(path + ".wal")
	start := time.Now()
	db, err := sql.Open("duckdb", path) // registered by impl/lumo/columnar in cgo builds
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	sales := filepath.Join(app, f.file)
	if f.parts != "" {
		sales = filepath.Join(sales, f.parts)
	}
	stmts := []string{
		"SET GLOBAL memory_limit = '" + columnar.DefaultMemoryLimit + "'",
		fmt.Sprintf("SET GLOBAL threads = %d", columnar.DefaultThreads),
		fmt.Sprintf("CREATE TABLE vendas AS SELECT * FROM %s('%s')", f.duckdb, sales),
	}
	for _, t := range []string{"lojas", "produtos", "metas"} {
		stmts = append(stmts, fmt.Sprintf("CREATE TABLE %s AS SELECT * FROM read_csv('%s')", t, filepath.Join(app, t+".csv")))
	}
	stmts = append(stmts, "CHECKPOINT")
	for _, st := range stmts {
		if _, err := db.ExecContext(ctx, st); err != nil {
			return 0, fmt.Errorf("%s: %w", st, err)
		}
	}
	rows, err := sqlAnswer(ctx, db, "SELECT l.UF, SUM(v.VALOR) FROM vendas v LEFT JOIN lojas l ON v.LOJA_ID = l.ID GROUP BY l.UF ORDER BY 1")
	if err != nil {
		return 0, err
	}
	if len(rows) == 0 {
		return 0, errors.New("DuckDB alone: no row for the value by UF")
	}
	return time.Since(start).Seconds(), nil
}

// writeFormatWorkspace writes the bench workspace with its sales table in format f, with the
// sales app's rollups or without; it returns the sales file's size.
func writeFormatWorkspace(dir string, f fileFormat, rows int, src *dbSource, rollups bool) (int64, error) {
	app := filepath.Join(dir, "apps", "vendas")
	if err := os.MkdirAll(app, 0o755); err != nil {
		return 0, err
	}
	ws, table := workspaceYAML(0), "file: "+f.file
	if src != nil {
		ws, table = src.workspace+ws, src.table
	}
	// Without rollups by default: their build is the same SQL whatever the format, and would
	// only blur what reading each format costs.
	model := salesAppNoRollups
	if rollups {
		model = salesAppYAML
	}
	files := map[string]string{
		filepath.Join(dir, "workspace.yaml"): ws,
		filepath.Join(app, "app.yaml"):       strings.Replace(model, "file: vendas.csv", table, 1),
		filepath.Join(app, "lojas.csv"):      storesCSV(),
		filepath.Join(app, "produtos.csv"):   productsCSV(),
		filepath.Join(app, "metas.csv"):      targetsCSV(),
	}
	for p, data := range files {
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			return 0, err
		}
	}
	if src != nil {
		return src.bytes, nil
	}
	p := filepath.Join(app, f.file)
	if err := f.write(p, rows); err != nil {
		return 0, err
	}
	var size int64
	err := filepath.WalkDir(p, func(_ string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			info, err := e.Info()
			if err != nil {
				return err
			}
			size += info.Size()
		}
		return err
	})
	return size, err
}

// importFormat runs `lumo import` of dir's workspace into a fresh database of engine.
func importFormat(ctx context.Context, c FormatsConfig, dir, engine string) (FormatReport, error) {
	dsn, drop, err := freshDB(ctx, engine, c.PostgresDSN)
	if err != nil {
		return FormatReport{}, err
	}
	defer drop()
	cmd := exec.CommandContext(ctx, c.Lumo, "import", "--db", dsn, filepath.Join(dir, "workspace.yaml"))
	var out, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return FormatReport{}, err
	}
	// The child's VmHWM, polled: wait4's ru_maxrss would report this process's own peak, which
	// the child inherits through the vfork that os/exec uses before its exec.
	var peak float64
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()

wait:
	for {
		select {
		case err = <-done:
			break wait
		case <-tick.C:
			peak = max(peak, memoryOf(cmd.Process.Pid).PeakMiB)
		}
	}
	if err != nil {
		return FormatReport{}, fmt.Errorf("lumo import: %w\n%s%s", err, out.String(), stderr.String())
	}
	secs := time.Since(start).Seconds()
	r := FormatReport{Engine: engine, Rows: c.Rows, Seconds: secs, RowsPerSecond: float64(c.Rows) / secs, PeakRSSMiB: peak}
	if r.FirstAnswer, err = firstAnswer(ctx, c.Lumo, dsn); err != nil {
		return r, err
	}
	lines := strings.Split(out.String(), "\n")
	for i, line := range lines { // "  bench/vendas vendas: N linhas", then how it was read
		if strings.Contains(line, "/"+AppKey+" vendas:") && i+1 < len(lines) {
			r.Detected = strings.TrimSpace(lines[i+1])
			break
		}
	}
	return r, nil
}

// firstAnswer is how long `lumo call` takes to answer the value of the sales by UF from the
// database at dsn, in a process of its own.
func firstAnswer(ctx context.Context, lumo, dsn string) (float64, error) {
	cmd := exec.CommandContext(ctx, lumo, "call", "--db", dsn, "--user", Login, "query",
		`{"appId": 1, "fields": [{"ref": "Lojas.UF"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}]}`)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	secs := time.Since(start).Seconds()
	if err != nil || !strings.Contains(string(out), "| UF |") {
		return 0, fmt.Errorf("lumo call query: %v\n%s", err, out)
	}
	return secs, nil
}

// sale is row i (from 1) of the sales table: the values salesRows writes as CSV.
type sale struct {
	id, store, product, qty int
	at                      time.Time
	client, status, channel string // status "" is the blank (NULL)
	valueCents, costCents   int
}

func saleAt(i int) sale {
	minute := (i * 7919) % (730 * 24 * 60)
	c := (i * 31) % clients
	v := 500 + (i*48271)%99500
	s := sale{id: i, store: 1 + (i*13)%stores, product: 1 + (i*17)%products, qty: 1 + i%5,
		at:     day0.Add(time.Duration(minute) * time.Minute),
		client: firstNames[c%20] + " " + string(rune('A'+(c/20)%26)) + ". " + lastNames[(c/520)%20],
		status: situations[i%len(situations)], channel: channels[(i/3)%len(channels)],
		valueCents: v, costCents: v * 6 / 10}
	if s.status == `\N` {
		s.status = ""
	}
	return s
}

func writeCSV(path string, rows int) error {
	return writeLines(path, func(w *bufio.Writer) error {
		next := salesRows(rows)()
		for {
			line, ok := next()
			if !ok {
				return nil
			}
			w.Write(line)
			w.WriteByte('\n')
		}
	})
}

// writePtBRCSV writes the rows the way a Brazilian Excel or ERP exports them: ";" between
// values, "1.234,56" amounts, dd/mm/aaaa HH:mm dates, Windows-1252 text and empty blanks.
func writePtBRCSV(path string, rows int) error {
	enc := charmap.Windows1252.NewEncoder()
	return writeLines(path, func(w *bufio.Writer) error {
		w.WriteString("ID;DATA;LOJA_ID;PRODUTO_ID;CLIENTE;SITUACAO;CANAL;VALOR;CUSTO;QTD\r\n")
		var b []byte
		for i := 1; i <= rows; i++ {
			s := saleAt(i)
			b = strconv.AppendInt(b[:0], int64(s.id), 10)
			b = append(b, ';')
			b = s.at.AppendFormat(b, "02/01/2006 15:04")
			b = append(b, ';')
			b = strconv.AppendInt(b, int64(s.store), 10)
			b = append(b, ';')
			b = strconv.AppendInt(b, int64(s.product), 10)
			b = append(b, ';')
			b = append(b, s.client...)
			b = append(b, ';')
			b = append(b, s.status...)
			b = append(b, ';')
			b = append(b, s.channel...)
			b = append(b, ';')
			b = appendBRL(b, s.valueCents)
			b = append(b, ';')
			b = appendBRL(b, s.costCents)
			b = append(b, ';')
			b = strconv.AppendInt(b, int64(s.qty), 10)
			b = append(b, '\r', '\n')
			out, err := enc.Bytes(b)
			if err != nil {
				return err
			}
			w.Write(out)
		}
		return nil
	})
}

// appendBRL writes cents as 1.234,56.
func appendBRL(b []byte, cents int) []byte {
	units := strconv.Itoa(cents / 100)
	for i, d := range units {
		if i > 0 && (len(units)-i)%3 == 0 {
			b = append(b, '.')
		}
		b = append(b, byte(d))
	}
	return append(b, ',', byte('0'+cents%100/10), byte('0'+cents%10))
}

func writeXLSX(path string, rows int) error {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		return err
	}
	header := []any{"ID", "DATA", "LOJA_ID", "PRODUTO_ID", "CLIENTE", "SITUACAO", "CANAL", "VALOR", "CUSTO", "QTD"}
	if err := sw.SetRow("A1", header); err != nil {
		return err
	}
	row := make([]any, len(header))
	for i := 1; i <= rows; i++ {
		s := saleAt(i)
		row[0], row[1], row[2], row[3] = s.id, s.at, s.store, s.product
		row[4], row[5], row[6] = s.client, nil, s.channel
		if s.status != "" {
			row[5] = s.status
		}
		row[7], row[8], row[9] = float64(s.valueCents)/100, float64(s.costCents)/100, s.qty
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := sw.SetRow(cell, row); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.SaveAs(path)
}

// parquetSale is a sale as parquet-go writes it: amounts as exact decimals, the moment as a
// timestamp of local time (no zone, as the CSV's), texts dictionary-encoded.
type parquetSale struct {
	ID        int64   `parquet:"ID"`
	DATA      int64   `parquet:"DATA,timestamp(millisecond)"`
	LOJAID    int32   `parquet:"LOJA_ID"`
	PRODUTOID int32   `parquet:"PRODUTO_ID"`
	CLIENTE   string  `parquet:"CLIENTE,dict"`
	SITUACAO  *string `parquet:"SITUACAO,dict,optional"`
	CANAL     string  `parquet:"CANAL,dict"`
	VALOR     int64   `parquet:"VALOR,decimal(2:12)"`
	CUSTO     int64   `parquet:"CUSTO,decimal(2:12)"`
	QTD       int32   `parquet:"QTD"`
}

func writeParquet(path string, rows int) error { return writeParquetRows(path, 1, rows) }

// partRows bounds the rows of one part of writeParquetFolder.
const partRows = 10_000_000

// writeParquetFolder writes rows sales as the folder path of Parquet parts of at most partRows
// rows.
func writeParquetFolder(path string, rows int) error { return writeParquetParts(path, rows, partRows) }

// writeParquetParts writes rows sales as the folder path of Parquet parts of at most per rows,
// two at a time.
func writeParquetParts(path string, rows, per int) error {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return err
	}
	var g errgroup.Group
	g.SetLimit(2)
	for k := 0; k*per < rows; k++ {
		g.Go(func() error {
			return writeParquetRows(filepath.Join(path, fmt.Sprintf("part-%03d.parquet", k)), k*per+1, min((k+1)*per, rows))
		})
	}
	return g.Wait()
}

// writeParquetRows writes sales first to last (saleAt's numbers) as the Parquet file path.
func writeParquetRows(path string, first, last int) error {
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(file, 1<<20)
	pw := parquet.NewGenericWriter[parquetSale](w, parquet.MaxRowsPerRowGroup(128<<10), parquet.Compression(&parquet.Snappy))
	batch := make([]parquetSale, 0, 1024)
	for i := first; i <= last; i++ {
		s := saleAt(i)
		ps := parquetSale{ID: int64(s.id), DATA: s.at.UnixMilli(), LOJAID: int32(s.store), PRODUTOID: int32(s.product),
			CLIENTE: s.client, CANAL: s.channel, VALOR: int64(s.valueCents), CUSTO: int64(s.costCents), QTD: int32(s.qty)}
		if s.status != "" {
			status := s.status
			ps.SITUACAO = &status
		}
		batch = append(batch, ps)
		if len(batch) == cap(batch) || i == last {
			if _, err := pw.Write(batch); err != nil {
				file.Close()
				return err
			}
			batch = batch[:0]
		}
	}
	err = pw.Close()
	if err == nil {
		err = w.Flush()
	}
	return errors.Join(err, file.Close())
}

func writeLines(path string, write func(*bufio.Writer) error) error {
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(file, 1<<20)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	return errors.Join(err, file.Close())
}

// Markdown writes the report as one table.
func (r *FormatsReport) Markdown(w io.Writer) {
	model := "without rollups"
	if r.Rollups {
		model = "with the four rollups"
	}
	fmt.Fprintf(w, "## lumo-bench --formats: %d sales rows per format, %s, %d CPUs (%s)\n\n", r.Rows, model, r.CPUs, r.Started.Format(time.RFC3339))
	fmt.Fprintln(w, "| format | engine | file MiB | import s | rows/s | peak RSS MiB | first answer s | files to first answer s | DuckDB alone s | ratio |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, x := range r.Results {
		fmt.Fprintf(w, "| %s | %s | %.0f | %.1f | **%.0f** | %.0f |", x.Format, x.Engine, x.FileMiB, x.Seconds, x.RowsPerSecond, x.PeakRSSMiB)
		fmt.Fprintf(w, " %.2f | **%.1f** |", x.FirstAnswer, x.Seconds+x.FirstAnswer)
		if x.DuckDBAlone > 0 {
			fmt.Fprintf(w, " %.1f | **%.2f** |", x.DuckDBAlone, (x.Seconds+x.FirstAnswer)/x.DuckDBAlone)
		} else {
			fmt.Fprint(w, " | |")
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	for _, name := range Formats() {
		for _, x := range r.Results {
			if x.Format == name {
				fmt.Fprintf(w, "- %s: %s; the import printed `%s`\n", name, fileFormats[name].words, x.Detected)
				break
			}
		}
	}
}

// pgSalesSource makes a database beside --pg holding the sales rows, as a user's ERP would.
func pgSalesSource(ctx context.Context, c FormatsConfig) (*dbSource, error) {
	dsn, drop, err := freshDB(ctx, "postgres", c.PostgresDSN)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			drop()
		}
	}()
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `CREATE TABLE vendas (id int8, data timestamp, loja_id int4, produto_id int4,
		cliente text, situacao text, canal text, valor numeric(12,2), custo numeric(12,2), qtd int4)`); err != nil {
		return nil, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, pq.CopyIn("vendas", "id", "data", "loja_id", "produto_id", "cliente", "situacao", "canal", "valor", "custo", "qtd"))
	if err != nil {
		return nil, err
	}
	for i := 1; i <= c.Rows; i++ {
		s := saleAt(i)
		var status any
		if s.status != "" {
			status = s.status
		}
		if _, err := st.ExecContext(ctx, s.id, s.at, s.store, s.product, s.client, status, s.channel,
			string(appendCents(nil, s.valueCents)), string(appendCents(nil, s.costCents)), s.qty); err != nil {
			return nil, err
		}
	}
	if _, err := st.ExecContext(ctx); err != nil {
		return nil, err
	}
	if err := st.Close(); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	var size int64
	if err := db.QueryRowContext(ctx, "SELECT pg_total_relation_size('vendas')").Scan(&size); err != nil {
		return nil, err
	}
	ok = true
	return &dbSource{
		workspace: "databases:\n  - {name: origem, dsn: \"" + dsn + "\", timeZone: UTC}\n",
		table:     "postgres: {database: origem, table: vendas}",
		bytes:     size, drop: drop,
	}, nil
}
