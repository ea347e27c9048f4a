//go:build cgo

package columnar

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/duckdb/duckdb-go/v2" // the "duckdb" database/sql driver

	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// Available says whether this build links DuckDB.
const Available = true

// loadsTable stamps every copied table with the LoadID it was copied at; originTable holds the
// identity of the database the copy was made from (store.DB.Identity).
const (
	loadsTable  = "lumo_columnar_loads"
	originTable = "lumo_columnar_origin"
)

// Store is a columnar copy.
type Store struct {
	opts Options
	log  *slog.Logger

	mu    sync.RWMutex
	db    *sql.DB               // nil until the copy is opened
	path  string                // the file open, of opts.Path's slots
	loads map[string]int64      // copied table → LoadID, as in loadsTable
	held  map[string]heldValues // value table → its values, read at a load (see Held)
	// origin is the database the copy was made from, as in originTable; bound says a Sync of this
	// process has checked it against the database it reads: until then the copy answers nothing.
	origin string
	bound  bool
	// views are the tables read from an import's own file (see loads.go; their load is
	// their stamp in loads); attached are those files, by load.
	views    map[string]bool
	attached map[int64]*attachment

	syncing sync.Mutex    // one Sync at a time
	kick    chan struct{} // wakes Keep
	// The Syncs begun and ended, the error of the last one ended, and a channel closed (and
	// replaced) at the end of each: Await waits on them. Under mu.
	began, ended uint64
	syncErr      error
	syncEnd      chan struct{}
}

// Open opens (creating it if missing) the DuckDB copy at o.Path, with DuckDB bounded by o. A
// file another process holds open fails (HeldByAnother): DuckDB lets one process write a file.
func Open(ctx context.Context, o Options) (*Store, error) {
	s := Deferred(o)
	if err := s.open(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Deferred is the copy at o.Path, opened by the first Sync that finds an app to copy, in the
// first of o.Slots files no other process holds: a server with no app never starts DuckDB,
// which costs some 20 MB resident even when empty.
func Deferred(o Options) *Store {
	if o.MemoryLimit == "" {
		o.MemoryLimit = DefaultMemoryLimit
	}
	if o.Threads <= 0 {
		o.Threads = DefaultThreads
	}
	if o.Slots <= 0 || o.Path == "" {
		o.Slots = 1
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Store{opts: o, log: o.Log, loads: map[string]int64{}, held: map[string]heldValues{}, kick: make(chan struct{}, 1), syncEnd: make(chan struct{})}
}

// open opens the first slot no other process holds, unless the copy is open.
func (s *Store) open(ctx context.Context) error {
	if s.db != nil {
		return nil
	}
	var err error
	for i := 1; i <= s.opts.Slots; i++ {
		path := SlotPath(s.opts.Path, i)
		if err = s.openFile(ctx, path); !HeldByAnother(err) {
			break
		}
	}
	if HeldByAnother(err) && s.opts.Slots > 1 {
		return fmt.Errorf("other lumo processes hold every copy of this database (%s and %d more): %w", s.opts.Path, s.opts.Slots-1, err)
	}
	return err
}

// openFile opens the copy at path and reads its stamps.
func (s *Store) openFile(ctx context.Context, path string) error {
	db, err := openDuck(ctx, path, s.opts)
	if err != nil {
		return err
	}
	for _, st := range []string{
		"CREATE TABLE IF NOT EXISTS " + loadsTable + " (sql_name VARCHAR PRIMARY KEY, load_id BIGINT NOT NULL)",
		"CREATE TABLE IF NOT EXISTS " + originTable + " (database_id VARCHAR NOT NULL)",
	} {
		if _, err := db.ExecContext(ctx, st); err != nil {
			db.Close()
			return fmt.Errorf("opening the columnar copy %s: %s: %w", path, st, err)
		}
	}
	if err := dropViews(ctx, db); err != nil {
		db.Close()
		return fmt.Errorf("opening the columnar copy %s: %w", path, err)
	}
	loads := map[string]int64{}
	rows, err := db.QueryContext(ctx, "SELECT sql_name, load_id FROM "+loadsTable)
	if err != nil {
		db.Close()
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var id int64
		if err := rows.Scan(&name, &id); err != nil {
			db.Close()
			return err
		}
		loads[name] = id
	}
	if err := rows.Err(); err != nil {
		db.Close()
		return err
	}
	var origin string
	if err := db.QueryRowContext(ctx, "SELECT database_id FROM "+originTable).Scan(&origin); err != nil && err != sql.ErrNoRows {
		db.Close()
		return err
	}
	if err := dropStaged(ctx, db); err != nil {
		db.Close()
		return err
	}
	s.mu.Lock()
	s.db, s.path, s.loads, s.origin, s.bound = db, path, loads, origin, false
	s.held = map[string]heldValues{}
	s.views, s.attached = map[string]bool{}, map[int64]*attachment{}
	s.mu.Unlock()
	s.log.Info("columnar copy", "path", path, "memory_limit", s.opts.MemoryLimit, "threads", s.opts.Threads)
	return nil
}

// openDuck opens the DuckDB file at path ("" in memory), bounded as o says: its memory limit,
// threads and the folder it spills to (beside the file unless o.TempDir says).
func openDuck(ctx context.Context, path string, o Options) (*sql.DB, error) {
	tempDir := o.TempDir
	if tempDir == "" && path != "" {
		tempDir = path + ".tmp"
	}
	db, err := sql.Open("duckdb", path)
	if err != nil {
		return nil, err
	}
	settings := []string{
		setMemoryLimit(o.MemoryLimit),
		fmt.Sprintf("SET GLOBAL threads = %d", o.Threads),
	}
	if tempDir != "" {
		settings = append(settings, "SET GLOBAL temp_directory = '"+strings.ReplaceAll(tempDir, "'", "''")+"'")
	}
	for _, st := range settings {
		if _, err := db.ExecContext(ctx, st); err != nil {
			db.Close()
			return nil, fmt.Errorf("opening %s: %s: %w", path, st, err)
		}
	}
	return db, nil
}

// setMemoryLimit is the statement that bounds a DuckDB to limit.
func setMemoryLimit(limit string) string {
	return "SET GLOBAL memory_limit = '" + strings.ReplaceAll(limit, "'", "") + "'"
}

// limitUnits are the units a DuckDB memory limit is written in.
var limitUnits = map[string]float64{"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}

// halfLimit is half of a DuckDB memory limit (as "256MB" or "1 GiB"), in KB (limit itself when it
// does not read as one). An import's file is written within half of --columnar-memory: appending holds
// memory DuckDB does not count, so the whole import stays within the limit plus 150 MB
// (TPC-H SF 1 peaked at 480-510 MiB with DuckDB at 256MB, 384 MiB at 128MB, as fast).
func halfLimit(limit string) string { return partLimit(limit, 0.5) }

// partLimit is share of a DuckDB memory limit, in KB, as halfLimit.
func partLimit(limit string, share float64) string {
	number := strings.TrimRight(limit, "KMGTiB ")
	n, err := strconv.ParseFloat(number, 64)
	unit, ok := limitUnits[strings.TrimSpace(limit[len(number):])]
	if err != nil || !ok {
		return limit
	}
	return strconv.FormatFloat(math.Ceil(n*unit*share/1e3), 'f', 0, 64) + "KB"
}

// Close closes the copy.
func (s *Store) Close() error {
	if s.db == nil {
		return nil
	}
	return s.db.Close()
}

// DB is where the queries of the apps the copy Holds run, rendered for sqldialect.DuckDB.
func (s *Store) DB() query.Querier {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.db == nil {
		return nil // not a nil *sql.DB in an interface
	}
	return s.db
}

// Path is the file of the copy, "" until it is opened.
func (s *Store) Path() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.path
}

// Holds says whether every data table and rollup of app is copied at app's LoadID, from the
// database a Sync of this process last read.
func (s *Store) Holds(app *semantic.App) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.holds(app)
}

// holds is Holds under mu.
func (s *Store) holds(app *semantic.App) bool {
	if !s.bound {
		return false
	}
	current := func(name string) bool {
		id, ok := s.loads[name]
		return ok && id == app.LoadID
	}
	for _, t := range app.Tables {
		if !current(t.SQLName) {
			return false
		}
	}
	for _, r := range app.Rollups {
		if !current(r.SQLName) {
			return false
		}
	}
	return true
}

// Await waits until the copy holds app at its LoadID, waking Keep (Kick) to sync it, and
// returns nil then. It returns the sync's error at once when the last sync failed and none runs
// (Keep tries again a minute later: the caller reads the database meanwhile), ErrReplaced when a sync begun
// after the wait holds another import of the app, and ctx's error when ctx ends first. Only
// Keep syncs: a caller that gives up leaves no copy half done.
func (s *Store) Await(ctx context.Context, app *semantic.App) error {
	s.mu.RLock()
	since := s.began
	s.mu.RUnlock()
	for {
		s.mu.RLock()
		held, began, ended, err, end := s.holds(app), s.began, s.ended, s.syncErr, s.syncEnd
		s.mu.RUnlock()
		switch {
		case held:
			return nil
		case err != nil && began == ended: // and none running: Keep waits its minute
			return err
		case ended > since:
			return ErrReplaced
		}
		s.Kick()
		select {
		case <-end:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// FirstSyncEnded says whether a Sync of this process has ended (whatever its outcome): until then
// a server's copy holds nothing it has checked, and its questions wait for it.
func (s *Store) FirstSyncEnded() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.ended > 0
}

// syncEnded records the end of the Sync begun last, with its error, and wakes Await.
func (s *Store) syncEnded(err *error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended, s.syncErr = s.began, *err
	close(s.syncEnd)
	s.syncEnd = make(chan struct{})
}

// Sync brings the copy to src's current import: a copy made from another database than src (by
// its identity) is discarded first; then it brings every data table and rollup whose stamp is not its app's LoadID to it, reading the models in
// one read-only transaction of src: a data table from its import's file (loads.go) when there is
// one, every other table by copying its rows in the same transaction; and it drops the tables no
// such app uses and deletes the files of replaced imports. A table is swapped in one DuckDB
// transaction with its stamp, so a reader sees the old table or the new one.
func (s *Store) Sync(ctx context.Context, src *store.DB) (done Synced, err error) {
	s.syncing.Lock()
	defer s.syncing.Unlock()
	s.mu.Lock()
	s.began++
	s.mu.Unlock()
	defer s.syncEnded(&err)
	err = src.EveryApp(ctx, func(tx *sql.Tx, apps []*semantic.App) error {
		current := map[int64]bool{}
		for _, app := range apps {
			current[app.LoadID] = true
		}
		defer s.removeStale(current)
		if len(apps) == 0 && s.db == nil {
			return nil // nothing to copy: DuckDB stays unopened
		}
		if err := s.open(ctx); err != nil {
			return err
		}
		identity, err := s.bind(ctx, src, tx)
		if err != nil {
			return err
		}
		c := &copier{ctx: ctx, s: s, src: tx, srcDialect: src.Dialect(), numbers: map[[2]string]duckColumn{}}
		s.writeLoads(c, apps, identity, &done)
		want, err := s.copyAll(c, apps, identity, &done)
		if werr := c.wait(0); err == nil { // the last tables' writers, committing
			err = werr
		}
		if err != nil {
			return err
		}
		if err := s.buildValues(ctx, apps, identity, want, &done); err != nil {
			return err
		}
		dropped, err := s.drop(ctx, want)
		done.Dropped = dropped
		s.detachUnread(ctx)
		return err
	})
	if err == nil && s.db != nil {
		s.checkpoint(ctx)
	}
	return done, err
}

// checkpoint writes what a sync changed from DuckDB's log into the file. DuckDB checkpoints by
// itself only past 16 MB of log, and until then keeps every table written since in memory, outside
// its buffer pool (35 MB for the demo's 40,000 rows, 8 MB once checkpointed); a restart also
// replays less. A failed checkpoint (a long reader holding a table) is retried by DuckDB later.
func (s *Store) checkpoint(ctx context.Context) {
	if _, err := s.db.ExecContext(ctx, "CHECKPOINT"); err != nil {
		s.log.Debug("columnar copy: checkpoint after the sync failed", "err", err)
	}
}

// bind discards the copy when it was made from another database than src's (read in tx), and
// records src's as its origin, which it returns.
func (s *Store) bind(ctx context.Context, src *store.DB, tx *sql.Tx) (string, error) {
	id, err := src.Identity(ctx, tx)
	if err != nil {
		return "", err
	}
	s.mu.RLock()
	same := s.origin == id
	s.mu.RUnlock()
	if !same {
		s.mu.Lock()
		s.bound = false // before the first table goes: Holds says no until the copy is rebuilt
		s.mu.Unlock()
		if err := s.discard(ctx, id); err != nil {
			return "", fmt.Errorf("discarding the columnar copy of another database: %w", err)
		}
	}
	s.mu.Lock()
	s.bound = true
	s.mu.Unlock()
	return id, nil
}

// discard drops every copied table and view and its stamp and records origin, in one DuckDB
// transaction, and detaches every import's file.
func (s *Store) discard(ctx context.Context, origin string) error {
	s.mu.RLock()
	names := make([]string, 0, len(s.loads))
	for name := range s.loads {
		names = append(names, name)
	}
	was := s.origin
	s.mu.RUnlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, name := range names {
		if _, err := tx.ExecContext(ctx, s.dropStatement(name)); err != nil {
			return err
		}
	}
	for _, st := range []string{"DELETE FROM " + loadsTable, "DELETE FROM " + originTable} {
		if _, err := tx.ExecContext(ctx, st); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO "+originTable+" VALUES (?)", origin); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.mu.Lock()
	s.loads, s.origin, s.views = map[string]int64{}, origin, map[string]bool{}
	s.held = map[string]heldValues{} // another database's loads may reuse their numbers
	s.mu.Unlock()
	s.detachUnread(ctx)
	if len(names) > 0 {
		s.log.Warn("columnar copy: made from another database than the one lumo reads now; discarded", "tables", len(names),
			"was", was, "now", origin)
	}
	return nil
}

// writeLoads writes the file of each load whose apps' rows are in the database, when neither a
// file nor the copy holds them, from c's transaction as the upgrade does (rowsMover.writeLoad): in
// a DuckDB of its own at half the memory limit, while the copy's runs at the other half. copyAll
// then reads its tables from the file, as from an import's. Appending into the copy itself held
// memory past its limit that DuckDB never handed back (a PostgreSQL server copying 10M rows peaked
// at 438 / 419 / 424 MiB in the copy, query and load phases). A load whose file cannot be written is
// copied into the copy, as before.
func (s *Store) writeLoads(c *copier, apps []*semantic.App, identity string, done *Synced) {
	if s.opts.Path == "" {
		return
	}
	var missing []*semantic.App
	for _, app := range apps {
		if !app.RowsInFile && !s.holdsAt(c, app) && s.attach(c.ctx, app.LoadID, identity) == nil {
			missing = append(missing, app)
		}
	}
	loads, byLoad := groupByLoad(missing)
	for _, loadID := range loads {
		var tables []string
		var rows int64
		err := s.halved(c.ctx, func() (err error) {
			tables, rows, err = (&rowsMover{s: s}).writeLoad(c.ctx, c.src, c.srcDialect, loadID, identity, byLoad[loadID])
			return err
		})
		if err != nil {
			s.log.Warn("columnar copy: a load's file cannot be written; its tables are copied into the copy", "load", loadID, "err", err)
			continue
		}
		done.Copied, done.Rows = append(done.Copied, tables...), done.Rows+rows
	}
}

// holdsAt says whether the copy holds every data table and rollup of app at app's load.
func (s *Store) holdsAt(c *copier, app *semantic.App) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, j := range tableJobs(c, app) {
		if id, ok := s.loads[j.name]; !ok || id != app.LoadID {
			return false
		}
	}
	return true
}

// halved runs f with the copy's DuckDB at half its memory limit, the other half f's.
func (s *Store) halved(ctx context.Context, f func() error) error {
	set := func(limit string) {
		if _, err := s.db.ExecContext(context.WithoutCancel(ctx), setMemoryLimit(limit)); err != nil {
			s.log.Debug("columnar copy: setting the memory limit", "limit", limit, "err", err)
		}
	}
	set(halfLimit(s.opts.MemoryLimit))
	defer set(s.opts.MemoryLimit)
	return f()
}

// copyAll brings every data table and rollup of apps whose stamp is not its app's LoadID to it:
// a data table from its import's file when identity's database wrote one (a view), through c
// otherwise; it adds them to done and returns the names of all the apps' tables.
func (s *Store) copyAll(c *copier, apps []*semantic.App, identity string, done *Synced) (map[string]bool, error) {
	want := map[string]bool{}
	for _, app := range apps {
		for _, j := range tableJobs(c, app) {
			if want[j.name] {
				continue
			}
			want[j.name] = true
			s.mu.RLock()
			id, ok := s.loads[j.name]
			s.mu.RUnlock()
			if ok && id == app.LoadID {
				continue
			}
			if a := s.attachFor(c.ctx, j, app, identity); a != nil {
				if err := s.view(c.ctx, j.name, a, app.LoadID); err != nil {
					return nil, err
				}
				done.Attached = append(done.Attached, j.name)
				continue
			}
			if app.RowsInFile { // the database holds no row to copy
				return nil, &MissingFileError{App: app.ID, Table: j.name, Path: loadFile(LoadsDir(s.opts.Path), app.LoadID)}
			}
			cols, err := j.cols()
			if err != nil {
				return nil, err
			}
			n, err := c.copy(j.name, cols, app.LoadID)
			if err != nil {
				return nil, err
			}
			done.Copied, done.Rows = append(done.Copied, j.name), done.Rows+n
		}
	}
	return want, nil
}

// drop drops the copied tables not in want.
func (s *Store) drop(ctx context.Context, want map[string]bool) (int, error) {
	s.mu.RLock()
	var stale []string
	for name := range s.loads {
		if !want[name] {
			stale = append(stale, name)
		}
	}
	s.mu.RUnlock()
	for _, name := range stale {
		if err := s.dropTable(ctx, name); err != nil {
			return 0, err
		}
	}
	return len(stale), nil
}

// dropTable drops a copied table (or view) and its stamp in one DuckDB transaction.
func (s *Store) dropTable(ctx context.Context, name string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, s.dropStatement(name)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM "+loadsTable+" WHERE sql_name = ?", name); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.unview(name)
	s.mu.Lock()
	delete(s.loads, name)
	delete(s.held, name)
	s.mu.Unlock()
	return nil
}

// Kick asks Keep to sync now.
func (s *Store) Kick() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Keep syncs the copy with src until ctx ends: at once, then whenever src's import counter moves
// (checked every poll) or Kick asks. A failed sync is logged and tried again at the next move,
// kick or minute.
func (s *Store) Keep(ctx context.Context, src *store.DB, poll time.Duration) {
	var last int64 = -1
	retry := time.Time{}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		gen, err := src.Generation(ctx)
		due := err == nil && gen != last || !retry.IsZero() && time.Now().After(retry)
		if due {
			start := time.Now()
			done, err := s.Sync(ctx, src)
			switch {
			case ctx.Err() != nil:
				return
			case err != nil:
				s.log.Error("columnar copy: sync failed; the database answers the apps whose rows it holds until a sync succeeds", "err", err)
				last, retry = gen, time.Now().Add(time.Minute) // not again at every poll
			default:
				last, retry = gen, time.Time{}
				if len(done.Copied) > 0 || len(done.Attached) > 0 || done.Dropped > 0 {
					s.log.Info("columnar copy: synced", "tables", len(done.Copied), "rows", done.Rows, "attached", len(done.Attached),
						"dropped", done.Dropped, "ms", time.Since(start).Milliseconds())
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-s.kick:
			if retry.IsZero() { // a failing sync waits its minute, however many queries miss
				last = -1
			}
		}
	}
}

// stagedSuffix marks a table an import was writing into the copy itself, as imports did before
// each wrote a file of its own.
const stagedSuffix = "__lumo_import"

// dropStaged drops the tables such an import was writing when its process ended.
func dropStaged(ctx context.Context, db *sql.DB) error {
	staged, err := names(ctx, db, "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND ends_with(table_name, ?)", stagedSuffix)
	if err != nil {
		return err
	}
	for _, name := range staged {
		if _, err := db.ExecContext(ctx, "DROP TABLE IF EXISTS "+sqldialect.DuckDB{}.QuoteIdent(name)); err != nil {
			return err
		}
	}
	return nil
}

// names is the one text column of query's rows.
func names(ctx context.Context, db *sql.DB, query string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, rows.Err()
}
