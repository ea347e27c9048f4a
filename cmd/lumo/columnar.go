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
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo"
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
	from    *int64 // serve only
}

func registerColumnarFlags(fs *flag.FlagSet) *columnarFlags {
	return &columnarFlags{
		path: fs.String("columnar", "", "arquivo DuckDB da cópia colunar dos dados, onde as consultas rodam (padrão: ao lado do banco SQLite, lumo.duckdb; "+
			"com PostgreSQL, na pasta de dados do lumo); off = consultas só no banco"),
		memory:  fs.String("columnar-memory", columnar.DefaultMemoryLimit, "memória máxima do DuckDB (ex.: 256MB, 1GB); o que passar vai para a pasta .tmp ao lado do arquivo"),
		threads: fs.Int("columnar-threads", columnar.DefaultThreads, "threads do DuckDB por consulta (1 a 64)"),
	}
}

// registerColumnarServeFlags adds serve's own: which queries the copy answers.
func registerColumnarServeFlags(fs *flag.FlagSet) *columnarFlags {
	f := registerColumnarFlags(fs)
	f.from = fs.Int64("columnar-from", lumo.DefaultColumnarFrom, "linhas que a maior tabela (ou rollup) lida por uma consulta precisa ter para ela rodar na cópia colunar; as menores rodam no banco, que as responde antes (0 = todas na cópia)")
	return f
}

// serviceFrom is --columnar-from as lumo.Service.ColumnarFrom.
func (f *columnarFlags) serviceFrom() int64 {
	if *f.from == 0 {
		return -1
	}
	return *f.from
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
	if f.from != nil && *f.from < 0 {
		return fmt.Errorf("--columnar-from %d: use 0 (todas as consultas na cópia) ou um número de linhas", *f.from)
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

// slotPath is slot i (from 1) of base: lumo.duckdb, lumo-2.duckdb, ...
func slotPath(base string, i int) string {
	if i == 1 {
		return base
	}
	return strings.TrimSuffix(base, ".duckdb") + "-" + strconv.Itoa(i) + ".duckdb"
}

// heldByAnother says whether err is DuckDB refusing a file another process holds.
func heldByAnother(err error) bool {
	return err != nil && strings.Contains(err.Error(), "Could not set lock")
}

func (f *columnarFlags) options(path string) columnar.Options {
	return columnar.Options{Path: path, MemoryLimit: *f.memory, Threads: *f.threads}
}

// openColumnar opens serve's columnar copy of db (dsn), the first slot no other process holds,
// and keeps it synced until ctx ends. nil, with the reason logged once, when queries read the
// database only: --columnar off, a build without cgo, every slot held, or DuckDB failing.
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
	for i := 1; i <= maxSlots; i++ {
		path := slotPath(base, i)
		o := f.options(path)
		o.Log = log
		c, err := columnar.Open(ctx, o)
		if heldByAnother(err) {
			continue
		}
		if err != nil {
			log.Error("columnar copy unavailable: queries read the database", "path", path, "err", err)
			return nil
		}
		log.Info("columnar copy", "path", path, "memory_limit", *f.memory, "threads", *f.threads)
		go c.Keep(ctx, db, time.Second)
		return c
	}
	log.Warn("columnar copy unavailable: other lumo processes hold every copy of this database; queries read the database",
		"first", base, "copies", maxSlots)
	return nil
}

// syncAfterImport brings the embedded default's copy (the first slot, beside the SQLite file)
// to the import just committed, and says what it did. The import stands whatever happens here:
// a server that runs holds the file and syncs it itself, and any server syncs a stale copy at
// start, reading the database meanwhile.
func syncAfterImport(ctx context.Context, f *columnarFlags, dsn string, db *store.DB) string {
	if *f.path == "off" || !columnar.Available || sqldb.IsPostgres(dsn) && *f.path == "" {
		return ""
	}
	base, err := f.basePath(dsn)
	if err != nil {
		return "Cópia colunar não atualizada: " + err.Error()
	}
	c, err := columnar.Open(ctx, f.options(base))
	if heldByAnother(err) {
		return "Cópia colunar " + base + " aberta por um lumo serve em execução: ele a atualiza sozinho em instantes."
	}
	if err != nil {
		return "Cópia colunar não atualizada (o lumo serve a refaz ao iniciar): " + err.Error()
	}
	defer c.Close()
	start := time.Now()
	done, err := c.Sync(ctx, db)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = errors.New("passou do tempo limite (--timeout)")
		}
		return "Cópia colunar não atualizada (o lumo serve a refaz ao iniciar): " + err.Error()
	}
	return fmt.Sprintf("Cópia colunar atualizada em %s: %s, %s, em %s.", base,
		ptbr.Count(len(done.Copied), "tabela copiada", "tabelas copiadas"), ptbr.Count(int(done.Rows), "linha", "linhas"), seconds(time.Since(start).Seconds()))
}
