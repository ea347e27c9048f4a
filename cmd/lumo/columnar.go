package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

// columnarFlags are the flags of the columnar copy (serve and import).
type columnarFlags struct {
	path    *string
	memory  *string
	threads *int
}

func registerColumnarFlags(fs *flag.FlagSet) *columnarFlags {
	return &columnarFlags{
		path: fs.String("columnar", "", "arquivo DuckDB da cópia colunar dos dados, onde as consultas rodam (padrão: ao lado do banco SQLite, lumo.duckdb; "+
			"com PostgreSQL, na pasta de dados do lumo); off = consultas só no banco"),
		memory:  fs.String("columnar-memory", columnar.DefaultMemoryLimit, "memória máxima do DuckDB (ex.: 256MB, 1GB); o que passar vai para a pasta .tmp ao lado do arquivo"),
		threads: fs.Int("columnar-threads", columnar.DefaultThreads, "threads do DuckDB por consulta (1 a 64)"),
	}
}

var memoryLimit = regexp.MustCompile(`^[0-9]+(\.[0-9]+)? ?(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$`)

// check refuses values DuckDB would misread.
func (f *columnarFlags) check() error {
	if !memoryLimit.MatchString(*f.memory) {
		return fmt.Errorf("--columnar-memory %q: use um número e uma unidade, como 256MB ou 1GB", *f.memory)
	}
	if *f.threads < 1 || *f.threads > 64 {
		return fmt.Errorf("--columnar-threads %d: use de 1 a 64", *f.threads)
	}
	return nil
}

// maxSlots bounds the copies of one database: each lumo process that serves it keeps its own
// (DuckDB lets one process hold a file), in the first free of these files.
const maxSlots = 8

// basePath is the first slot's file for the database dsn: beside a SQLite file; for PostgreSQL,
// in lumo's data folder, named by the database (its DSN hashed, so no password reaches a name).
func (f *columnarFlags) basePath(dsn string) (string, error) {
	if *f.path != "" {
		return *f.path, nil
	}
	if dsn == "" {
		var err error
		if dsn, err = store.DefaultDSN(); err != nil {
			return "", err
		}
	}
	if sqldb.IsPostgres(dsn) {
		dir, err := sqldb.DataDir("lumo")
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256([]byte(dsn))
		return dir + "/columnar-" + hex.EncodeToString(sum[:6]) + ".duckdb", nil
	}
	return columnar.PathBeside(strings.TrimPrefix(strings.SplitN(dsn, "?", 2)[0], "file:")), nil
}

// options are the copy's at path.
func (f *columnarFlags) options(path string) columnar.Options {
	return columnar.Options{Path: path, MemoryLimit: *f.memory, Threads: *f.threads}
}

// columnarOffWhy says why openColumnar gave no copy, in the operator's words.
func columnarOffWhy(f *columnarFlags) string {
	switch {
	case *f.path == "off":
		return "--columnar off"
	case !columnar.Available:
		return "binário sem cgo, sem DuckDB"
	}
	return "a cópia colunar não abriu; veja o log"
}

// openColumnar is serve's columnar copy of db (dsn), kept synced until ctx ends: DuckDB opens
// the first of maxSlots files no other process holds at the first app to copy.
// nil, with the reason logged once, when queries read the database only: --columnar off or a
// build without cgo.
func openColumnar(ctx context.Context, f *columnarFlags, dsn string, db *store.DB, log *slog.Logger) *columnar.Store {
	if *f.path == "off" {
		log.Info("columnar copy off (--columnar off): queries read the database")
		return nil
	}
	if !columnar.Available {
		log.Info(columnar.ErrUnavailable.Error())
		return nil
	}
	base, err := f.basePath(dsn)
	if err != nil {
		log.Error("columnar copy unavailable: queries read the database", "err", err)
		return nil
	}
	o := f.options(base)
	o.Slots, o.Log = maxSlots, log
	log.Info("columnar copy: DuckDB opens at the first app to copy", "first", base)
	c := columnar.Deferred(o)
	go c.Keep(ctx, db, time.Second)
	return c
}

// importCopy is the copy lumo import brings up to date on the embedded default (the first slot,
// beside the SQLite file): its ImportSink writes the data tables as the import reads them, and
// groups their rollups and value tables, into a file of the import's own (columnar.LoadsDir),
// which every copy reads, and syncAfterImport copies the rest. nil, with why when it matters, when there is none: --columnar
// off, a build without cgo, PostgreSQL (each replica copies for itself).
func importCopy(f *columnarFlags, dsn string) (*columnar.Store, string) {
	if *f.path == "off" || !columnar.Available || sqldb.IsPostgres(dsn) && *f.path == "" {
		return nil, ""
	}
	base, err := f.basePath(dsn)
	if err != nil {
		return nil, "Cópia colunar não atualizada: " + err.Error()
	}
	o := f.options(base)
	o.Log = slog.New(slog.DiscardHandler) // the import says what happened in its own words
	return columnar.Deferred(o), ""
}

// callColumnar is lumo call's copy, in the first free slot (a running server may hold the first),
// synced before the call: it reads the import's files, and on PostgreSQL copies what changed
// since the last call, so a call answers with the server's engine. nil when DuckDB is off or
// not linked.
func callColumnar(f *columnarFlags, dsn string) *columnar.Store {
	if *f.path == "off" || !columnar.Available {
		return nil
	}
	base, err := f.basePath(dsn)
	if err != nil {
		return nil
	}
	o := f.options(base)
	o.Slots, o.Log = maxSlots, slog.New(slog.DiscardHandler)
	return columnar.Deferred(o)
}

// sinkInto has an import write its data tables, rollups and value tables into its own DuckDB
// file through c, importCopy's copy: on the embedded default that file is the only store of the
// app rows; PostgreSQL keeps them as the data of record.
func sinkInto(opts *store.ImportOptions, c *columnar.Store, dsn string) {
	opts.Sink = c.ImportSink()
	opts.SinkOnly = !sqldb.IsPostgres(dsn)
}

// moveRowsOut moves, at a server's start on the embedded default, the rows an earlier lumo kept
// in SQLite into the files lumo import now writes (store.DB.MoveRowsOut), and logs what it moved.
// A failure is logged and changes nothing: the server answers from the database's rows, as before.
func moveRowsOut(ctx context.Context, f *columnarFlags, dsn string, db *store.DB, log *slog.Logger) {
	if sqldb.IsPostgres(dsn) {
		return // PostgreSQL keeps the data of record
	}
	c, _ := importCopy(f, dsn)
	if c == nil {
		return
	}
	defer c.Close()
	start := time.Now()
	moved, reclaimed, err := db.MoveRowsOut(ctx, c.RowsMover())
	switch {
	case err != nil:
		log.Error("the app rows stay in the database: moving them into DuckDB files failed", "err", err)
	case moved > 0:
		base, _ := f.basePath(dsn)
		log.Info("app rows moved out of the database into DuckDB files", "tables", moved, "dir", columnar.LoadsDir(base),
			"reclaimed_bytes", reclaimed, "seconds", time.Since(start).Seconds())
	}
}

// importOptions are the options of an import lumo makes itself (the demo, at the first start),
// with the copy importCopy gives, and the function that closes it once the import is done.
func importOptions(f *columnarFlags, dsn string) (store.ImportOptions, func()) {
	var opts store.ImportOptions
	c, _ := importCopy(f, dsn)
	if c == nil {
		return opts, func() {}
	}
	sinkInto(&opts, c, dsn)
	return opts, func() { c.Close() }
}

// syncAfterImport brings c, the copy importCopy gave, to the import just committed, copying what
// the import's sink did not write (apps it left out, a table it failed), and says what it did. The import
// stands whatever happens here: a server that runs holds the file and syncs it itself, and any
// server syncs a stale copy at start, reading the database meanwhile.
func syncAfterImport(ctx context.Context, c *columnar.Store, f *columnarFlags, dsn string, db *store.DB, sum store.Summary) string {
	base, _ := f.basePath(dsn)
	started := time.Now()
	done, err := c.Sync(ctx, db)
	switch {
	case columnar.HeldByAnother(err) && sum.Sunk > 0:
		return "Cópia colunar " + base + " aberta por um lumo serve em execução: em instantes ele passa a ler, sem cópia, " +
			ptbr.Count(sum.Sunk, "tabela gravada", "tabelas gravadas") + " durante a importação em " + columnar.LoadsDir(base) + "."
	case columnar.HeldByAnother(err):
		return "Cópia colunar " + base + " aberta por um lumo serve em execução: ele a atualiza sozinho em instantes."
	case errors.Is(err, context.DeadlineExceeded):
		return "Cópia colunar não atualizada (o lumo serve a refaz ao iniciar): passou do tempo limite (--timeout)"
	case err != nil:
		return "Cópia colunar não atualizada (o lumo serve a refaz ao iniciar): " + err.Error()
	case c.Path() == "":
		return "Cópia colunar: nada a copiar, nenhum app importado."
	}
	line := fmt.Sprintf("Cópia colunar atualizada em %s: ", base)
	if sum.Sunk > 0 {
		line += ptbr.Count(sum.Sunk, "tabela gravada", "tabelas gravadas") + " durante a importação em " + columnar.LoadsDir(base) + ", "
	}
	if len(done.Copied) == 0 {
		line += "nada copiado do banco"
	} else {
		line += ptbr.Count(len(done.Copied), "tabela copiada", "tabelas copiadas") + ", " + ptbr.Count(int(done.Rows), "linha copiada", "linhas copiadas")
	}
	line += ", em " + seconds(time.Since(started).Seconds()) + "."
	if sum.SinkErr != nil {
		line += " Copiadas depois por não terem sido gravadas: " + sum.SinkErr.Error()
	}
	return line
}
