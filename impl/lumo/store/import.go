package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// Summary says what an import loaded.
type Summary struct {
	Tenants int
	Users   int
	Desks   int
	Apps    int         // personal copies included
	Tables  []TableLoad // one per data table filled from a CSV, in file order
	// Notes say, with file and line, what the import left out without refusing an app: the
	// calculated columns a role-playing copy inherits but cannot resolve from its place.
	Notes []string
	// Issued tokens (lumo admin) of the file's tenants: kept for users still listed, dropped
	// ("tenant/login (label)") with the users the file no longer lists.
	TokensKept    int
	TokensDropped []string
	// Replaced are the file's tenants that were already in the database, as they were.
	Replaced []Replaced
	// Sunk is how many tables (data and rollups) ImportOptions.Sink holds (made readable at commit); SinkErr
	// what it could not take.
	Sunk    int
	SinkErr error
	// MovedOut is how many data tables and rollups of the replaced tenants the database held and
	// no longer holds, their rows now in the import's file alone (SinkOnly: an upgrade from a
	// version that kept the rows in the database); ReclaimedBytes the space SQLite gave back.
	MovedOut       int
	ReclaimedBytes int64
}

// Replaced is a tenant an import replaced: where it was imported from before ("" when that
// import did not say), when, and its apps then.
type Replaced struct {
	Tenant     string
	Origin     string
	ImportedAt string
	Apps       []string
}

// When is when the tenant was imported, in Brasília time as answers give times: 04/12/2026 07:07
// (horário de Brasília).
func (r Replaced) When() string {
	t, err := time.Parse(time.RFC3339, r.ImportedAt)
	if err != nil {
		return r.ImportedAt
	}
	return ptbr.DateTime(t) + " (horário de Brasília)"
}

// ImportOptions say how an import treats what is already stored.
type ImportOptions struct {
	// Sink, when set, takes the data tables' rows as they load (see DataSink).
	Sink DataSink
	// SinkOnly keeps the data tables' rows and rollups in Sink alone: the database keeps the
	// catalogue, marks the apps (semantic.App.RowsInFile), and holds no app row. The import runs
	// its checks of the rows (relationships, keys, rollups) on the sink's file, and fails when
	// the sink leaves out or fails a table.
	SinkOnly bool
	// Origin is where the workspace.yaml is (an absolute path), kept with its tenants. A tenant
	// already imported from another origin is refused unless Replace: two folders initialised
	// alike must not replace each other silently. "" checks nothing and keeps nothing.
	Origin   string
	Replace  bool
	Progress func(Progress)
}

// TableLoad is one data table an import filled.
type TableLoad struct {
	Tenant  string // tenant key
	App     string // app key
	Table   string // physical name in app.yaml
	SQLName string
	Rows    int64
	// CSV is how the file was read, declared in app.yaml or detected: `apps/vendas/vendas.csv:
	// separador ";", decimal ",", Windows-1252, datas dd/mm/aaaa`.
	CSV string
}

// Rows is the number of rows loaded into all tables.
func (s Summary) Rows() int64 {
	var n int64
	for _, t := range s.Tables {
		n += t.Rows
	}
	return n
}

// ImportWorkspace loads and checks the workspace at path in fsys (see workspace.Load), then, in
// one transaction, replaces everything previously imported for the tenants the file names
// (their data tables and catalogue rows) and loads every CSV. On any failure nothing changes.
// Problems in the files come back as workspace.Errors or *workspace.Error, naming file, line and
// field. Ids of tenants, users, desks, apps, tables, columns and expressions are kept for the
// same natural keys.
func (db *DB) ImportWorkspace(ctx context.Context, fsys fs.FS, path string) (Summary, error) {
	return db.ImportWorkspaceProgress(ctx, fsys, path, nil)
}

// Progress is how far an import's data load is: rows loaded so far and the rows the CSVs hold
// (counted by lines before loading; a quoted line break makes it a slight over-estimate).
type Progress struct {
	Rows, TotalRows int64
}

// progressEvery is how many rows pass between two progress calls.
const progressEvery = 1000

// ImportWorkspaceProgress is ImportWorkspace calling progress (when not nil) as rows load,
// every progressEvery rows and at the end of each table.
func (db *DB) ImportWorkspaceProgress(ctx context.Context, fsys fs.FS, path string, progress func(Progress)) (Summary, error) {
	return db.ImportWorkspaceWith(ctx, fsys, path, ImportOptions{Progress: progress})
}

// ImportWorkspaceWith is ImportWorkspace with options.
func (db *DB) ImportWorkspaceWith(ctx context.Context, fsys fs.FS, path string, o ImportOptions) (Summary, error) {
	switch {
	case o.SinkOnly && o.Sink == nil:
		return Summary{}, errors.New("an import that keeps its rows in the sink alone needs a sink")
	case o.SinkOnly && db.Engine() == "postgres":
		return Summary{}, errors.New("PostgreSQL keeps the app data of record: its import keeps the rows")
	}
	progress := o.Progress
	ws, err := workspace.Load(fsys, path)
	if err != nil {
		return Summary{}, err
	}
	select {
	case db.importing <- struct{}{}:
		defer func() { <-db.importing }()
	case <-ctx.Done():
		return Summary{}, fmt.Errorf("waiting for another import: %w", ctx.Err())
	}
	// The transaction runs on a connection of its own, which loadTable reaches the driver of
	// (COPY rows written as text, without database/sql's per-row work).
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return Summary{}, fmt.Errorf("starting import: %w", err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return Summary{}, fmt.Errorf("starting import: %w", err)
	}
	defer tx.Rollback()
	if db.Engine() == "postgres" {
		// The connections ask for plans made per execution (sqldb.Open, for the queries), and the
		// foreign-key triggers' cached plans obey it too: every catalogue row's check was planned
		// again. The import's statements gain nothing from that.
		if _, err := tx.ExecContext(ctx, "SET LOCAL plan_cache_mode = auto"); err != nil {
			return Summary{}, fmt.Errorf("starting import: %w", err)
		}
	}
	im := &importer{db: db, conn: conn, tx: tx, fsys: fsys, ws: ws, now: time.Now().UTC().Truncate(time.Second), progress: progress,
		origin: o.Origin, replace: o.Replace, sink: o.Sink, sinkOnly: o.SinkOnly}
	sum, err := im.run(ctx)
	if err == nil && o.Sink != nil { // before the catalogue names the load: see DataSink
		identity, ierr := db.Identity(ctx, tx)
		if ierr == nil {
			sum.Sunk, ierr = o.Sink.Commit(ctx, im.loadID, identity)
		}
		sum.SinkErr = ierr
		if ierr != nil && o.SinkOnly {
			err = fmt.Errorf("writing the app data into its DuckDB file: %w", ierr)
		}
	}
	if err == nil {
		if err = tx.Commit(); err != nil {
			err = fmt.Errorf("committing import: %w", err)
		}
	}
	if err != nil {
		if o.Sink != nil {
			o.Sink.Abort()
		}
		return Summary{}, err
	}
	db.generationMoved()
	if sum.MovedOut > 0 {
		sum.ReclaimedBytes = db.reclaim(ctx)
	}
	return sum, nil
}

// reclaim gives the operating system back the space of the data tables an import dropped from
// SQLite, when they were most of the file (a VACUUM rewrites what stays: the catalogue, and the
// rows of tenants the import left as they were); the bytes it freed, 0 when it did not run.
func (db *DB) reclaim(ctx context.Context) int64 {
	if db.Engine() == "postgres" {
		return 0 // autovacuum's work
	}
	var free, pages, size int64
	if db.sql.QueryRowContext(ctx, "PRAGMA freelist_count").Scan(&free) != nil ||
		db.sql.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages) != nil ||
		db.sql.QueryRowContext(ctx, "PRAGMA page_size").Scan(&size) != nil || 2*free < pages {
		return 0
	}
	if _, err := db.sql.ExecContext(ctx, "VACUUM"); err != nil {
		return 0 // the space stays free inside the file, for later rows
	}
	// In WAL mode the file shrinks once the rewritten pages are checkpointed into it.
	db.sql.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return free * size
}

type importer struct {
	complete map[string]bool // by pApp.relationshipKey, from checkRelationships
	unique   map[string]bool // by pApp.relationshipKey, from checkRelationships
	origin   string          // ImportOptions.Origin
	replace  bool
	db       *DB
	conn     *sql.Conn // tx's connection
	tx       *sql.Tx
	fsys     fs.FS
	ws       *workspace.Workspace
	now      time.Time
	loadID   int64 // the import counter after this import moved it: the apps' load_id
	sink     DataSink
	sinkOnly bool // ImportOptions.SinkOnly: the rows go to sink alone

	tenants []*pTenant
	apps    []*pApp // sources first, then personal copies: the order rows are inserted

	progress func(Progress)
	done     Progress

	keys map[*pTable][][]string // per data table, the relationship keys to index (column SQL names)

	rollups   map[*semantic.Rollup]*builtRollup // built with their source app, shared by its copies
	preBudget *int                              // groups the rollups grouped while facts load may still hold
}

// countRows counts the data lines of every CSV and the rows of every Parquet table to load,
// for the progress total.
func (im *importer) countRows() {
	for _, a := range im.apps {
		if a.data != a {
			continue
		}
		for _, t := range a.tables {
			if t.file == "" {
				continue
			}
			st, err := fs.Stat(im.fsys, t.file)
			if err != nil {
				continue // the load reports it
			}
			switch workspace.FileKind(t.file, st.IsDir()) {
			case workspace.KindParquet:
				// The footers say how many rows there are, without reading them.
				t.estimate = workspace.ParquetRows(im.fsys, t.file)
				im.done.TotalRows += t.estimate
				continue
			case workspace.KindXLSX:
				continue // a workbook's rows are not lines: its count is not in the total
			}
			f, err := im.fsys.Open(t.file)
			if err != nil {
				continue // the load reports it
			}
			buf := make([]byte, 64<<10)
			var lines int64
			var last byte = '\n'
			for {
				n, err := f.Read(buf)
				for _, c := range buf[:n] {
					if c == '\n' {
						lines++
					}
				}
				if n > 0 {
					last = buf[n-1]
				}
				if err != nil {
					break
				}
			}
			f.Close()
			if last != '\n' {
				lines++
			}
			t.estimate = max(lines-1, 0)
			im.done.TotalRows += t.estimate
		}
	}
}

// loaded reports one more row (end marks a table's end).
func (im *importer) loaded(end bool) {
	if im.progress == nil {
		return
	}
	if !end {
		im.done.Rows++
	}
	if end || im.done.Rows%progressEvery == 0 {
		im.progress(im.done)
	}
}

type pTenant struct {
	id    int64
	ws    *workspace.Tenant
	users map[string]*pUser
	desks map[string]*pDesk
	apps  map[string]*pApp
}

type pUser struct {
	id int64
	ws *workspace.User
}

type pDesk struct {
	id int64
	ws *workspace.Desk
}

// checkRelationships finds which relationships are complete: every row of the many side has
// its row on the one side, no key blank or matching nothing (im.complete, by relationshipKey).
// One anti-join per data relationship, on the key indexes planKeys made; a query joins a
// complete relationship inner, which lets the engine reorder its joins and prune the fact early.
// It also finds those whose one side repeats no filled key (im.unique): a join along them
// repeats no row of the many side.
func (im *importer) checkRelationships(ctx context.Context) error {
	im.complete = map[string]bool{}
	im.unique = map[string]bool{}
	for _, a := range im.apps {
		for _, r := range a.model.Relationships {
			key := a.relationshipKey(r)
			if _, done := im.complete[key]; done || key == "" {
				continue
			}
			from, fromCols := a.physical(r.From)
			to, toCols := a.physical(r.To)
			rows, d, err := im.rowsReader(ctx, from, to)
			if err != nil {
				return err
			}
			q := d.QuoteIdent
			on := make([]string, len(fromCols))
			for k := range fromCols {
				on[k] = "o." + q(toCols[k]) + " = m." + q(fromCols[k])
			}
			query := "SELECT 1 FROM " + q(from) + " m WHERE NOT EXISTS (SELECT 1 FROM " + q(to) + " o WHERE " +
				strings.Join(on, " AND ") + ") LIMIT 1"
			var one int
			switch err := rows.QueryRowContext(ctx, query).Scan(&one); {
			case errors.Is(err, sql.ErrNoRows):
				im.complete[key] = true
			case err != nil:
				return fmt.Errorf("checking the keys of %s against %s: %w", from, to, err)
			default:
				im.complete[key] = false
			}
			filled := make([]string, len(toCols))
			for k := range toCols {
				filled[k] = q(toCols[k]) + " IS NOT NULL"
			}
			repeated := "SELECT 1 FROM " + q(to) + " WHERE " + strings.Join(filled, " AND ") + " GROUP BY " +
				strings.Join(quoted(q, toCols), ", ") + " HAVING COUNT(*) > 1 LIMIT 1"
			switch err := rows.QueryRowContext(ctx, repeated).Scan(&one); {
			case errors.Is(err, sql.ErrNoRows):
				im.unique[key] = true
			case err != nil:
				return fmt.Errorf("checking that the keys of %s are unique: %w", to, err)
			default:
				im.unique[key] = false
			}
		}
	}
	return nil
}

// rowsReader is where the import reads the rows of its data tables and rollups, once loaded, and
// the dialect to write for it: its own transaction, or, when the database keeps no app row
// (SinkOnly), the sink's file once it holds them.
func (im *importer) rowsReader(ctx context.Context, tables ...string) (rowQuerier, sqldialect.Dialect, error) {
	if !im.sinkOnly {
		return im.tx, im.db.dialect, nil
	}
	db, err := im.sink.Reader(ctx, tables...)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s in the DuckDB file: %w", strings.Join(tables, ", "), err)
	}
	return db, sqldialect.DuckDB{}, nil
}

func quoted(q func(string) string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = q(n)
	}
	return out
}

// physical is the data table and columns that hold a's columns cols (of one table), as
// nameTables named them: its original's for a role-playing copy, its source app's for a copy of
// an app.
func (a *pApp) physical(cols []*semantic.Column) (string, []string) {
	for _, t := range a.tables {
		if t.t != cols[0].Table {
			continue
		}
		names := make([]string, len(cols))
		for k, c := range cols {
			for _, pc := range t.cols {
				if pc.c == c {
					names[k] = pc.sqlName
				}
			}
			if names[k] == "" {
				return "", nil
			}
		}
		return t.sqlName, names
	}
	return "", nil
}

// relationshipKey names r by the data columns it joins, "" when they are not all found.
func (a *pApp) relationshipKey(r semantic.Relationship) string {
	from, fromCols := a.physical(r.From)
	to, toCols := a.physical(r.To)
	if from == "" || to == "" {
		return ""
	}
	return from + "(" + strings.Join(fromCols, ",") + ")>" + to + "(" + strings.Join(toCols, ",") + ")"
}

type pApp struct {
	id     int64
	tenant *pTenant
	ws     *workspace.App
	model  *semantic.App
	data   *pApp // the app whose data tables this one reads (itself for a source app)
	tables []*pTable
	exprs  []int64                    // id per model expression
	cols   map[*semantic.Column]int64 // this app's id of each model column
}

type pTable struct {
	id       int64
	t        *semantic.Table
	orig     *pTable // the table of the same app a role-playing copy reads (nil for one with data)
	file     string  // "" = never loaded, unless pg
	pg       *workspace.PostgresTable
	format   workspace.Format
	csv      string // how the file was read (workspace.Rows.Description)
	sqlName  string
	loadedAt *time.Time
	rows     *int64
	estimate int64 // rows its file holds, counted before loading (0 unknown)
	cols     []*pColumn
	dataList []*pColumn // dataCols, once listed
	pre      []*preAgg  // rollups grouped while the rows load
}

// hasData says whether t is loaded: from a file or from a database.
func (t *pTable) hasData() bool { return t.file != "" || t.pg != nil }

// source names where t's rows come from, for errors.
func (t *pTable) source() string {
	if t.pg != nil {
		return t.pg.Where()
	}
	return t.file
}

type pColumn struct {
	id       int64
	c        *semantic.Column
	sqlName  string
	foldName string
	scale    int
	unit     string // the unit the values showed (R$, US$, %), for a column without one in app.yaml
	maxLen   int    // longest text loaded (bytes, original or folded), for indexTable
	// Texts loaded, their bytes and their distinct count (a sketch of it, or the count DuckDB
	// estimated when it loaded the table), for freeText.
	texts, textBytes int64
	distinct         *distinctSketch
	distinctLoaded   float64
	freeText         bool // judged free text by indexTable: no (folded, value) btree
}

func (im *importer) run(ctx context.Context) (Summary, error) {
	// Serialise imports: this row stays locked until the transaction ends.
	if err := im.db.moveGeneration(ctx, im.tx); err != nil {
		return Summary{}, fmt.Errorf("locking for import: %w", err)
	}
	if err := im.tx.QueryRowContext(ctx, importGenerationSQL).Scan(&im.loadID); err != nil {
		return Summary{}, fmt.Errorf("reading the import counter: %w", err)
	}
	if err := im.checkOtherTenants(ctx); err != nil {
		return Summary{}, err
	}
	replaced, err := im.checkOrigins(ctx)
	if err != nil {
		return Summary{}, err
	}
	oldTenants, ids, err := im.oldIDs(ctx)
	if err != nil {
		return Summary{}, err
	}
	im.plan(ids)
	if err := ids.assign(ctx, im.db, im.tx); err != nil {
		return Summary{}, err
	}
	im.nameTables()
	im.planKeys()
	if im.progress != nil || im.sink != nil {
		im.countRows()
	}
	saved, err := im.saveTokens(ctx, oldTenants)
	if err != nil {
		return Summary{}, err
	}
	moved, err := deleteTenants(ctx, im.db, im.tx, oldTenants)
	if err != nil {
		return Summary{}, err
	}
	trgm, err := im.trgmSchema(ctx)
	if err != nil {
		return Summary{}, err
	}
	sum := Summary{Tenants: len(im.tenants), Replaced: replaced}
	if im.sinkOnly {
		sum.MovedOut = moved // their rows now go to the import's file
	}
	for _, a := range im.apps {
		if a.data != a {
			continue
		}
		if !im.sinkOnly { // the rollups are grouped in the sink's file, from its tables
			im.planPreAggs(a)
		}
		for _, n := range a.ws.Source.Notes {
			if !slices.Contains(sum.Notes, n) { // an app folder published twice says it once
				sum.Notes = append(sum.Notes, n)
			}
		}
		for _, t := range a.tables {
			if t.orig != nil {
				continue // reads its original's data table
			}
			if err := im.createTable(ctx, t); err != nil {
				return Summary{}, err
			}
			if !t.hasData() {
				if err := im.sinkEmpty(ctx, t); err != nil {
					return Summary{}, err
				}
				continue
			}
			if err := im.loadTable(ctx, t); err != nil {
				return Summary{}, err
			}
			if err := im.indexTable(ctx, t, trgm); err != nil {
				return Summary{}, err
			}
			sum.Tables = append(sum.Tables, TableLoad{Tenant: a.tenant.ws.Key, App: a.ws.Key, Table: t.t.Name, SQLName: t.sqlName, Rows: *t.rows, CSV: t.csv})
		}
		if err := im.buildRollups(ctx, a); err != nil {
			return Summary{}, err
		}
	}
	if err := im.checkRelationships(ctx); err != nil {
		return Summary{}, err
	}
	if err := im.insertCatalogue(ctx); err != nil {
		return Summary{}, err
	}
	if err := im.restoreTokens(ctx, saved, &sum); err != nil {
		return Summary{}, err
	}
	for _, t := range im.tenants {
		sum.Users += len(t.users)
		sum.Desks += len(t.desks)
		sum.Apps += len(t.apps)
	}
	return sum, nil
}

// checkOrigins reads the file's tenants already in the database, and refuses, unless
// im.replace, those imported from another workspace than im.origin.
func (im *importer) checkOrigins(ctx context.Context) ([]Replaced, error) {
	keys := make([]any, len(im.ws.Tenants))
	for i, t := range im.ws.Tenants {
		keys[i] = t.Key
	}
	if len(keys) == 0 {
		return nil, nil
	}
	rows, err := im.tx.QueryContext(ctx, im.db.q(`SELECT t.tenant_key, COALESCE(t.workspace_path, ''), t.imported_at, COALESCE(a.app_key, '')
		FROM lumo_tenants t LEFT JOIN lumo_apps a ON a.tenant_id = t.id AND a.owner_id IS NULL
		WHERE t.tenant_key IN (?`+strings.Repeat(", ?", len(keys)-1)+`) ORDER BY t.tenant_key, a.app_key`), keys...)
	if err != nil {
		return nil, fmt.Errorf("reading the tenants being replaced: %w", err)
	}
	defer rows.Close()
	var out []Replaced
	for rows.Next() {
		var r Replaced
		var app string
		if err := rows.Scan(&r.Tenant, &r.Origin, &r.ImportedAt, &app); err != nil {
			return nil, fmt.Errorf("reading the tenants being replaced: %w", err)
		}
		if n := len(out); n == 0 || out[n-1].Tenant != r.Tenant {
			out = append(out, r)
		}
		if app != "" {
			out[len(out)-1].Apps = append(out[len(out)-1].Apps, app)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the tenants being replaced: %w", err)
	}
	if im.origin == "" || im.replace {
		return out, nil
	}
	var errs workspace.Errors
	for _, r := range out {
		if r.Origin == "" || r.Origin == im.origin {
			continue
		}
		for ti, t := range im.ws.Tenants {
			if t.Key != r.Tenant {
				continue
			}
			errs = append(errs, &workspace.Error{File: im.ws.File, Field: fmt.Sprintf("tenants[%d].key", ti), Message: fmt.Sprintf(
				"o tenant %q já está no banco, importado de %s em %s (Aplicações: %s), e este arquivo o substituiria; "+
					"para substituí-lo, repita com lumo import --replace; para manter os dois, troque a key do tenant, "+
					"as das Aplicações e os logins neste arquivo", r.Tenant, r.Origin, r.When(), strings.Join(r.Apps, ", "))})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// checkOtherTenants refuses logins and tokens already used by tenants the file does not replace.
func (im *importer) checkOtherTenants(ctx context.Context) error {
	inFile := map[string]bool{}
	for _, t := range im.ws.Tenants {
		inFile[t.Key] = true
	}
	type owner struct{ login, tenant string }
	logins := map[string]string{}
	tokens := map[string]owner{}
	rows, err := im.tx.QueryContext(ctx, `SELECT u.login, u.token_sha256, t.tenant_key
		FROM lumo_users u JOIN lumo_tenants t ON t.id = u.tenant_id`)
	if err != nil {
		return fmt.Errorf("reading users of other tenants: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var login, hash, tenant string
		if err := rows.Scan(&login, &hash, &tenant); err != nil {
			return fmt.Errorf("reading users of other tenants: %w", err)
		}
		if !inFile[tenant] {
			logins[login] = tenant
			tokens[hash] = owner{login, tenant}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading users of other tenants: %w", err)
	}
	var errs workspace.Errors
	for ti, t := range im.ws.Tenants {
		for ui, u := range t.Users {
			field := fmt.Sprintf("tenants[%d].users[%d]", ti, ui)
			if other, ok := logins[u.Login]; ok {
				errs = append(errs, &workspace.Error{File: im.ws.File, Line: u.Line, Field: field + ".login", Message: fmt.Sprintf(
					"o login %q já existe no tenant %q, que já está no banco e não vem neste arquivo; use outro login (cada login é único entre todos os tenants)", u.Login, other)})
			}
			if other, ok := tokens[tokenHash(u.Token)]; ok {
				errs = append(errs, &workspace.Error{File: im.ws.File, Line: u.Line, Field: field + ".token", Message: fmt.Sprintf(
					"o token já é usado por %q, do tenant %q; dê a cada usuário um token próprio", other.login, other.tenant)})
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// tokenHash is how tokens are kept: the hex SHA-256, never the token.
func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// oldIDs reads the ids the file's tenants had, by natural key, and those tenants' ids.
func (im *importer) oldIDs(ctx context.Context) ([]int64, *idAlloc, error) {
	ids := newIDAlloc()
	inFile := map[string]bool{}
	for _, t := range im.ws.Tenants {
		inFile[t.Key] = true
	}
	var tenantIDs []int64
	rows, err := im.tx.QueryContext(ctx, "SELECT id, tenant_key FROM lumo_tenants")
	if err != nil {
		return nil, nil, fmt.Errorf("reading tenants: %w", err)
	}
	for rows.Next() {
		var id int64
		var key string
		if err := rows.Scan(&id, &key); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("reading tenants: %w", err)
		}
		if inFile[key] {
			tenantIDs = append(tenantIDs, id)
			ids.remember("tenant", key, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("reading tenants: %w", err)
	}
	if len(tenantIDs) == 0 {
		return nil, ids, nil
	}
	in := inList(len(tenantIDs))
	queries := []struct{ kind, sql string }{
		{"user", `SELECT t.tenant_key || '/' || u.login, u.id FROM lumo_users u
			JOIN lumo_tenants t ON t.id = u.tenant_id WHERE t.id IN (` + in + `)`},
		{"desk", `SELECT t.tenant_key || '/' || d.name, d.id FROM lumo_desks d
			JOIN lumo_tenants t ON t.id = d.tenant_id WHERE t.id IN (` + in + `)`},
		{"app", `SELECT t.tenant_key || '/' || a.app_key, a.id FROM lumo_apps a
			JOIN lumo_tenants t ON t.id = a.tenant_id WHERE t.id IN (` + in + `)`},
		{"table", `SELECT t.tenant_key || '/' || a.app_key || '/' || tb.name, tb.id FROM lumo_tables tb
			JOIN lumo_apps a ON a.id = tb.app_id
			JOIN lumo_tenants t ON t.id = a.tenant_id WHERE t.id IN (` + in + `)`},
		{"column", `SELECT t.tenant_key || '/' || a.app_key || '/' || tb.name || '/' || c.name, c.id FROM lumo_columns c
			JOIN lumo_tables tb ON tb.id = c.table_id
			JOIN lumo_apps a ON a.id = tb.app_id
			JOIN lumo_tenants t ON t.id = a.tenant_id WHERE t.id IN (` + in + `)`},
		{"expression", `SELECT t.tenant_key || '/' || a.app_key || '/' || e.label, e.id FROM lumo_expressions e
			JOIN lumo_apps a ON a.id = e.app_id
			JOIN lumo_tenants t ON t.id = a.tenant_id WHERE t.id IN (` + in + `)`},
	}
	args := int64Args(tenantIDs)
	for _, q := range queries {
		rows, err := im.tx.QueryContext(ctx, im.db.q(q.sql), args...)
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s ids: %w", q.kind, err)
		}
		for rows.Next() {
			var key string
			var id int64
			if err := rows.Scan(&key, &id); err != nil {
				rows.Close()
				return nil, nil, fmt.Errorf("reading %s ids: %w", q.kind, err)
			}
			ids.remember(q.kind, key, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, fmt.Errorf("reading %s ids: %w", q.kind, err)
		}
	}
	return tenantIDs, ids, nil
}

func int64Args(ids []int64) []any {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return args
}

// plan builds the rows to insert and requests their ids.
func (im *importer) plan(ids *idAlloc) {
	var copies []*pApp
	for _, wt := range im.ws.Tenants {
		t := &pTenant{ws: wt, users: map[string]*pUser{}, desks: map[string]*pDesk{}, apps: map[string]*pApp{}}
		im.tenants = append(im.tenants, t)
		ids.request("tenant", wt.Key, &t.id)
		for _, u := range wt.Users {
			pu := &pUser{ws: u}
			t.users[u.Login] = pu
			ids.request("user", wt.Key+"/"+u.Login, &pu.id)
		}
		for _, d := range wt.Desks {
			pd := &pDesk{ws: d}
			t.desks[d.Name] = pd
			ids.request("desk", wt.Key+"/"+d.Name, &pd.id)
		}
		for _, wa := range wt.Apps {
			a := &pApp{tenant: t, ws: wa, model: wa.Source.Model, cols: map[*semantic.Column]int64{}}
			t.apps[wa.Key] = a
			appKey := wt.Key + "/" + wa.Key
			ids.request("app", appKey, &a.id)
			byModel := map[*semantic.Table]*pTable{}
			for i, st := range a.model.Tables {
				pt := &pTable{t: st, file: wa.Source.Files[i], format: wa.Source.Formats[i], pg: wa.Source.Postgres[i]}
				a.tables = append(a.tables, pt)
				byModel[st] = pt
				ids.request("table", appKey+"/"+st.Name, &pt.id)
				for _, sc := range st.Columns {
					pc := &pColumn{c: sc}
					pt.cols = append(pt.cols, pc)
					ids.request("column", appKey+"/"+st.Name+"/"+sc.Name, &pc.id)
				}
			}
			for _, pt := range a.tables {
				if pt.t.CopyOf != nil {
					pt.orig = byModel[pt.t.CopyOf]
				}
			}
			a.exprs = make([]int64, len(a.model.Expressions))
			for i, e := range a.model.Expressions {
				ids.request("expression", appKey+"/"+e.Label, &a.exprs[i])
			}
			if wa.CloneOf == "" {
				a.data = a
				im.apps = append(im.apps, a)
			} else {
				copies = append(copies, a)
			}
		}
		for _, a := range copies {
			if a.tenant == t {
				a.data = t.apps[a.ws.CloneOf]
			}
		}
	}
	im.apps = append(im.apps, copies...)
}

// nameTables sets the SQL names once ids are known: a source app's tables get their own data
// tables; a copy of an app, and a role-playing copy of a table, read their original's.
func (im *importer) nameTables() {
	for _, a := range im.apps {
		for i, t := range a.tables {
			for _, c := range t.cols {
				a.cols[c.c] = c.id
			}
			if a.data != a {
				src := a.data.tables[i]
				t.sqlName = src.sqlName
				for j, c := range t.cols {
					c.sqlName, c.foldName = src.cols[j].sqlName, src.cols[j].foldName
				}
				continue
			}
			if t.orig != nil {
				continue // below, once the original has its names
			}
			t.sqlName = sqlName("d", t.id, t.t.Name, "")
			for _, c := range t.dataCols() {
				c.sqlName = sqlName("c", c.id, c.c.Name, "")
				if c.c.Type == semantic.TypeString {
					c.foldName = sqlName("c", c.id, c.c.Name, "_f")
				}
			}
		}
		if a.data != a {
			continue
		}
		for _, t := range a.tables {
			if t.orig != nil {
				t.sqlName = t.orig.sqlName
				for _, c := range t.cols { // a copy's column reads its original's of the same name
					if c.c.Calculated() {
						continue // computed by the query: an inherited one, or the copy's own
					}
					if oc := t.orig.column(c.c.Name); oc != nil {
						c.sqlName, c.foldName = oc.sqlName, oc.foldName
					}
				}
			}
		}
	}
}

// dataCols are the columns of t with data in its data table: all but the calculated ones.
func (t *pTable) dataCols() []*pColumn {
	if t.dataList == nil {
		t.dataList = []*pColumn{}
		for _, c := range t.cols {
			if !c.c.Calculated() {
				t.dataList = append(t.dataList, c)
			}
		}
	}
	return t.dataList
}

// column is t's column of physical name name (nil when none): a role-playing copy's columns are
// matched to its original's by name, as the copy may leave some out and add its own.
func (t *pTable) column(name string) *pColumn {
	for _, c := range t.cols {
		if strings.EqualFold(c.c.Name, name) {
			return c
		}
	}
	return nil
}

// data is the table whose data table and load t reads: its original for a role-playing copy.
func (t *pTable) data() *pTable {
	if t.orig != nil {
		return t.orig
	}
	return t
}

// planKeys lists, per data table, the keys the relationships of its app join on: the to side's
// key and the from side's foreign key, each once (a composite key as one list, in pair order).
func (im *importer) planKeys() {
	im.keys = map[*pTable][][]string{}
	seen := map[*pTable]map[string]bool{}
	add := func(t *pTable, cols []string) {
		k := strings.Join(cols, ",")
		if seen[t] == nil {
			seen[t] = map[string]bool{}
		}
		if !seen[t][k] {
			seen[t][k] = true
			im.keys[t] = append(im.keys[t], cols)
		}
	}
	for _, a := range im.apps {
		if a.data != a {
			continue
		}
		byTable := map[*semantic.Table]*pTable{}
		byColumn := map[*semantic.Column]*pColumn{}
		for _, t := range a.tables {
			byTable[t.t] = t
			for _, c := range t.cols {
				byColumn[c.c] = c
			}
		}
		for _, r := range a.model.Relationships {
			for _, side := range [][]*semantic.Column{r.From, r.To} {
				cols := make([]string, len(side))
				for i, c := range side {
					cols[i] = byColumn[c].sqlName
				}
				add(byTable[side[0].Table].data(), cols)
			}
		}
	}
}

// sqlName is prefix + id + "_" + the lower-case physical name (letters, digits and _ only) +
// suffix, cut to PostgreSQL's 63 bytes. The id makes it unique; the name only helps people.
func sqlName(prefix string, id int64, name, suffix string) string {
	head := prefix + strconv.FormatInt(id, 10) + "_"
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r == '_' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	body := b.String()
	if room := 63 - len(head) - len(suffix); len(body) > room {
		body = body[:max(room, 0)]
	}
	return head + body + suffix
}

// deleteTenants drops the data tables and every catalogue row of the tenants being replaced,
// including the users' issued tokens. It returns how many data tables and rollups the database
// held for them (none for apps whose rows are in their import's file).
func deleteTenants(ctx context.Context, db *DB, tx *sql.Tx, tenantIDs []int64) (int, error) {
	if len(tenantIDs) == 0 {
		return 0, nil
	}
	in := inList(len(tenantIDs))
	args := int64Args(tenantIDs)
	rows, err := tx.QueryContext(ctx, db.q(`SELECT tb.sql_name, a.rows_in_file FROM lumo_tables tb
		JOIN lumo_apps a ON a.id = tb.app_id
		WHERE a.data_app_id = a.id AND a.tenant_id IN (`+in+`)
		UNION ALL SELECT r.sql_name, a.rows_in_file FROM lumo_rollups r
		JOIN lumo_apps a ON a.id = r.app_id
		WHERE a.data_app_id = a.id AND a.tenant_id IN (`+in+`)`), append(args, args...)...)
	if err != nil {
		return 0, fmt.Errorf("listing old data tables: %w", err)
	}
	var tables []string
	for rows.Next() {
		var name string
		var inFile int
		if err := rows.Scan(&name, &inFile); err != nil {
			rows.Close()
			return 0, fmt.Errorf("listing old data tables: %w", err)
		}
		if inFile == 0 {
			tables = append(tables, name)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("listing old data tables: %w", err)
	}
	for _, name := range tables {
		if _, err := tx.ExecContext(ctx, "DROP TABLE IF EXISTS "+db.dialect.QuoteIdent(name)); err != nil {
			return 0, fmt.Errorf("dropping data table %s: %w", name, err)
		}
	}
	// Copies first: they reference their origins.
	if err := deleteAppCatalogue(ctx, db, tx, "SELECT id FROM lumo_apps WHERE clone_of IS NOT NULL AND tenant_id IN ("+in+")", args...); err != nil {
		return 0, err
	}
	if err := deleteAppCatalogue(ctx, db, tx, "SELECT id FROM lumo_apps WHERE tenant_id IN ("+in+")", args...); err != nil {
		return 0, err
	}
	deletes := []struct{ what, sql string }{
		{"desk members", "DELETE FROM lumo_desk_members WHERE desk_id IN (SELECT id FROM lumo_desks WHERE tenant_id IN (" + in + "))"},
		{"desks", "DELETE FROM lumo_desks WHERE tenant_id IN (" + in + ")"},
		{"tokens", "DELETE FROM lumo_tokens WHERE user_id IN (SELECT id FROM lumo_users WHERE tenant_id IN (" + in + "))"},
		{"users", "DELETE FROM lumo_users WHERE tenant_id IN (" + in + ")"},
		{"tenants", "DELETE FROM lumo_tenants WHERE id IN (" + in + ")"},
	}
	for _, d := range deletes {
		if _, err := tx.ExecContext(ctx, db.q(d.sql), args...); err != nil {
			return 0, fmt.Errorf("deleting old %s: %w", d.what, err)
		}
	}
	return len(tables), nil
}

// savedToken is an issued token kept across a re-import.
type savedToken struct {
	tenant, login, hash, label, created string
}

// saveTokens reads the issued tokens of the tenants being replaced, to restore those of the
// users the file still lists (admin-issued tokens must survive a re-import).
func (im *importer) saveTokens(ctx context.Context, tenantIDs []int64) ([]savedToken, error) {
	if len(tenantIDs) == 0 {
		return nil, nil
	}
	rows, err := im.tx.QueryContext(ctx, im.db.q(`SELECT t.tenant_key, u.login, k.token_sha256, k.label, k.created_at
		FROM lumo_tokens k JOIN lumo_users u ON u.id = k.user_id JOIN lumo_tenants t ON t.id = u.tenant_id
		WHERE t.id IN (`+inList(len(tenantIDs))+`) ORDER BY t.tenant_key, u.login, k.label`), int64Args(tenantIDs)...)
	if err != nil {
		return nil, fmt.Errorf("reading issued tokens: %w", err)
	}
	defer rows.Close()
	var out []savedToken
	for rows.Next() {
		var s savedToken
		if err := rows.Scan(&s.tenant, &s.login, &s.hash, &s.label, &s.created); err != nil {
			return nil, fmt.Errorf("reading issued tokens: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// restoreTokens re-inserts the saved tokens of users still in the file; the others are
// dropped with their user and reported by login in the summary.
func (im *importer) restoreTokens(ctx context.Context, saved []savedToken, sum *Summary) error {
	byKey := map[string]*pTenant{}
	for _, t := range im.tenants {
		byKey[t.ws.Key] = t
	}
	for _, s := range saved {
		t := byKey[s.tenant]
		u := t.users[s.login]
		if u == nil {
			sum.TokensDropped = append(sum.TokensDropped, s.tenant+"/"+s.login+" ("+s.label+")")
			continue
		}
		if _, err := im.tx.ExecContext(ctx, im.db.q("INSERT INTO lumo_tokens (token_sha256, user_id, label, created_at) VALUES (?, ?, ?, ?)"),
			s.hash, u.id, s.label, s.created); err != nil {
			return fmt.Errorf("restoring issued tokens: %w", err)
		}
		sum.TokensKept++
	}
	return nil
}

// insertCatalogue writes the catalogue rows of every tenant, user, desk and app.
func (im *importer) insertCatalogue(ctx context.Context) error {
	ins := func(what, query string) (*sql.Stmt, error) {
		st, err := im.tx.PrepareContext(ctx, im.db.q(query))
		if err != nil {
			return nil, fmt.Errorf("preparing insert of %s: %w", what, err)
		}
		return st, nil
	}
	type stmt struct {
		what, sql string
		st        *sql.Stmt
	}
	stmts := map[string]*stmt{
		"tenant":       {what: "tenants", sql: "INSERT INTO lumo_tenants (id, tenant_key, name, imported_at, workspace_path) VALUES (?, ?, ?, ?, ?)"},
		"user":         {what: "users", sql: "INSERT INTO lumo_users (id, tenant_id, login, name, token_sha256) VALUES (?, ?, ?, ?, ?)"},
		"desk":         {what: "desks", sql: "INSERT INTO lumo_desks (id, tenant_id, name) VALUES (?, ?, ?)"},
		"member":       {what: "desk members", sql: "INSERT INTO lumo_desk_members (desk_id, user_id) VALUES (?, ?)"},
		"app":          {what: "apps", sql: "INSERT INTO lumo_apps (id, tenant_id, app_key, name, description, desk_id, owner_id, clone_of, data_app_id, published_at, load_id, rows_in_file) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"},
		"table":        {what: "tables", sql: "INSERT INTO lumo_tables (id, app_id, pos, label, name, kind, loaded_at, sql_name, row_count, copy_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"},
		"column":       {what: "columns", sql: "INSERT INTO lumo_columns (id, table_id, pos, name, label, col_type, role, unit, usage, description, scale, sql_name, fold_sql_name, formula, free_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"},
		"relationship": {what: "relationships", sql: "INSERT INTO lumo_relationships (app_id, pos, from_column_id, to_column_id, complete, key_unique) VALUES (?, ?, ?, ?, ?, ?)"},
		"pair":         {what: "relationship keys", sql: "INSERT INTO lumo_relationship_keys (app_id, pos, pair, from_column_id, to_column_id) VALUES (?, ?, ?, ?, ?)"},
		"expression":   {what: "expressions", sql: "INSERT INTO lumo_expressions (id, app_id, pos, label, formula, unit) VALUES (?, ?, ?, ?, ?, ?)"},
		"indicator":    {what: "indicators", sql: "INSERT INTO lumo_indicators (app_id, pos, name, description, fields, filters, problem) VALUES (?, ?, ?, ?, ?, ?, ?)"},
	}
	stmts["rollup"] = &stmt{what: "rollups", sql: "INSERT INTO lumo_rollups (app_id, pos, name, fact_table_id, time_column_id, grain, sql_name, row_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"}
	stmts["rollup column"] = &stmt{what: "rollup columns", sql: "INSERT INTO lumo_rollup_columns (app_id, pos, role, idx, column_id) VALUES (?, ?, ?, ?, ?)"}
	stmts["segment"] = &stmt{what: "segments", sql: "INSERT INTO lumo_segments (app_id, pos, label, description, table_id, related_table_id, without, where_formula) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"}
	for _, s := range stmts {
		st, err := ins(s.what, s.sql)
		if err != nil {
			return err
		}
		defer st.Close()
		s.st = st
	}
	exec := func(kind string, args ...any) error {
		s := stmts[kind]
		if _, err := s.st.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("inserting %s: %w", s.what, err)
		}
		return nil
	}
	imported := im.now.Format(time.RFC3339)
	for _, t := range im.tenants {
		if err := exec("tenant", t.id, t.ws.Key, t.ws.Name, imported, sql.NullString{String: im.origin, Valid: im.origin != ""}); err != nil {
			return err
		}
		for _, u := range t.ws.Users {
			if err := exec("user", t.users[u.Login].id, t.id, u.Login, u.Name, tokenHash(u.Token)); err != nil {
				return err
			}
		}
		for _, d := range t.ws.Desks {
			desk := t.desks[d.Name]
			if err := exec("desk", desk.id, t.id, d.Name); err != nil {
				return err
			}
			for _, m := range d.Members {
				if err := exec("member", desk.id, t.users[m].id); err != nil {
					return err
				}
			}
		}
	}
	for _, a := range im.apps {
		var desk, owner, cloneOf, published any
		if a.ws.Desk != "" {
			desk = a.tenant.desks[a.ws.Desk].id
		}
		if a.ws.CloneOf != "" {
			owner, cloneOf = a.tenant.users[a.ws.Owner].id, a.data.id
		} else if a.ws.PublishedAt != nil {
			published = a.ws.PublishedAt.Format(time.RFC3339)
		}
		if err := exec("app", a.id, a.tenant.id, a.ws.Key, a.model.Name, a.model.Description, desk, owner, cloneOf, a.data.id, published, im.loadID, boolInt(im.sinkOnly)); err != nil {
			return err
		}
		for i, t := range a.tables {
			src := a.data.tables[i].data()
			var loaded, rows, copyOf any
			if t.orig != nil {
				copyOf = t.orig.id
			}
			if src.loadedAt != nil {
				loaded = src.loadedAt.Format(time.RFC3339)
			}
			if src.rows != nil {
				rows = *src.rows
			}
			if err := exec("table", t.id, a.id, i, t.t.Label, t.t.Name, t.t.Kind, loaded, t.sqlName, rows, copyOf); err != nil {
				return err
			}
			for j, c := range t.cols {
				sc := c.c
				sd := src.column(sc.Name) // what its data showed: the same column of the data table's table
				if sd == nil || (sc.Calculated() && !sd.c.Calculated()) {
					sd = &pColumn{} // a calculated column of a copy's own
				}
				unit := sc.Unit
				if unit == "" {
					unit = sd.unit
				}
				if err := exec("column", c.id, t.id, j, sc.Name, sc.Label, sc.Type, sc.Role, unit, sc.Usage, sc.Description,
					sd.scale, c.sqlName, c.foldName, sc.Formula, boolInt(sd.freeText)); err != nil {
					return err
				}
			}
		}
		for i, r := range a.model.Relationships {
			if err := exec("relationship", a.id, i, a.cols[r.From[0]], a.cols[r.To[0]], boolInt(im.complete[a.relationshipKey(r)]), boolInt(im.unique[a.relationshipKey(r)])); err != nil {
				return err
			}
			for k := 1; k < len(r.From); k++ {
				if err := exec("pair", a.id, i, k, a.cols[r.From[k]], a.cols[r.To[k]]); err != nil {
					return err
				}
			}
		}
		for i, e := range a.model.Expressions {
			if err := exec("expression", a.exprs[i], a.id, i, e.Label, e.Formula, e.Unit); err != nil {
				return err
			}
		}
		for i, ind := range a.model.Indicators {
			fields, err := itemsJSON(ind.Fields)
			if err != nil {
				return fmt.Errorf("encoding fields of indicator %q: %w", ind.Name, err)
			}
			filters, err := itemsJSON(ind.Filters)
			if err != nil {
				return fmt.Errorf("encoding filters of indicator %q: %w", ind.Name, err)
			}
			if err := exec("indicator", a.id, i, ind.Name, ind.Description, fields, filters, ind.Problem); err != nil {
				return err
			}
		}
		for i, sg := range a.model.Segments {
			table, related := a.tables[indexOfTable(a.model.Tables, sg.Table)].id, a.tables[indexOfTable(a.model.Tables, sg.Related)].id
			if err := exec("segment", a.id, i, sg.Label, sg.Description, table, related, boolInt(sg.Without), sg.Where); err != nil {
				return err
			}
		}
		for i, r := range a.model.Rollups {
			built := im.rollups[r]
			var timeCol any
			if r.Time != nil {
				timeCol = a.cols[r.Time]
			}
			if err := exec("rollup", a.id, i, r.Name, a.tables[indexOfTable(a.model.Tables, r.Fact)].id, timeCol, r.Grain, built.sqlName, built.rows); err != nil {
				return err
			}
			for role, cols := range map[string][]*semantic.Column{semantic.RoleDimension: r.Dimensions, semantic.RoleMeasure: r.Measures} {
				for k, c := range cols {
					if err := exec("rollup column", a.id, i, role, k, a.cols[c]); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

func itemsJSON(items []map[string]any) (string, error) {
	if items == nil {
		items = []map[string]any{}
	}
	b, err := json.Marshal(items)
	return string(b), err
}

// boolInt is b as the 0 or 1 an INTEGER flag column holds on both engines.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
