package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// User is someone who signs in to lumo, with the tenant they belong to.
type User struct {
	ID, TenantID int64
	TenantKey    string
	Login        string
	Name         string
}

const userSelect = `SELECT u.id, u.tenant_id, t.tenant_key, u.login, u.name
	FROM lumo_users u JOIN lumo_tenants t ON t.id = u.tenant_id `

// UserByLogin finds a user by login (logins are unique across tenants). ErrNotFound if none.
func (db *DB) UserByLogin(ctx context.Context, login string) (*User, error) {
	return db.user(ctx, "WHERE u.login = ?", strings.ToLower(strings.TrimSpace(login)))
}

// UserByToken finds the user whose token is token, the workspace one or one issued with
// IssueToken, comparing SHA-256 digests (the token itself is never stored). ErrNotFound if
// none. Nothing is cached, so a revoked token fails at its next request on every replica.
func (db *DB) UserByToken(ctx context.Context, token string) (*User, error) {
	if token == "" {
		return nil, ErrNotFound
	}
	h := tokenHash(token)
	return db.user(ctx, "WHERE u.token_sha256 = ? OR u.id = (SELECT k.user_id FROM lumo_tokens k WHERE k.token_sha256 = ?)", h, h)
}

func (db *DB) user(ctx context.Context, where string, args ...any) (*User, error) {
	u := &User{}
	err := db.queryRow(ctx, db.q(userSelect+where), args...).Scan(&u.ID, &u.TenantID, &u.TenantKey, &u.Login, &u.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("reading user: %w", err)
	}
	return u, nil
}

// visibleApps selects the ids of the apps a user sees: those of the desks they belong to and
// their own personal copies whose data app (the origin whose tables a copy reads) is on one of
// those desks too, within their tenant: whoever loses an origin loses its copies with it.
// Arguments: tenant id, user id, user id, user id.
const visibleApps = `SELECT a.id FROM lumo_apps a WHERE a.tenant_id = ? AND (
	a.desk_id IN (SELECT m.desk_id FROM lumo_desk_members m WHERE m.user_id = ?)
	OR (a.owner_id = ? AND EXISTS (SELECT 1 FROM lumo_apps d WHERE d.id = a.data_app_id
		AND d.desk_id IN (SELECT m.desk_id FROM lumo_desk_members m WHERE m.user_id = ?))))`

// VisibleApps returns the full models of the apps u sees, ordered by id.
func (db *DB) VisibleApps(ctx context.Context, u *User) ([]*semantic.App, error) {
	return db.apps(ctx, u, 0)
}

// App returns one app u sees. ErrNotFound when it does not exist or u does not see it: the two
// cases are indistinguishable on purpose.
func (db *DB) App(ctx context.Context, u *User, appID int64) (*semantic.App, error) {
	if appID <= 0 {
		return nil, ErrNotFound
	}
	apps, err := db.apps(ctx, u, appID)
	if err != nil {
		return nil, err
	}
	if len(apps) == 0 {
		return nil, ErrNotFound
	}
	return apps[0], nil
}

// apps loads the models of the apps u sees; only appID when it is not 0.
func (db *DB) apps(ctx context.Context, u *User, appID int64) ([]*semantic.App, error) {
	if u == nil {
		return nil, ErrNotFound
	}
	key := modelKey{user: u.ID, tenant: u.TenantID, app: appID}
	gen, err := db.importGeneration(ctx)
	if err != nil {
		return nil, err
	}
	if apps, ok := db.models.get(gen, key); ok {
		return apps, nil
	}
	scope := visibleApps
	args := []any{u.TenantID, u.ID, u.ID, u.ID}
	if appID != 0 {
		scope += " AND a.id = ?"
		args = append(args, appID)
	}
	// One read-only transaction, so every query sees the same import.
	tx, err := db.readTx(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	// Read again inside the transaction: the models below belong to exactly this generation.
	if gen, err = scanGeneration(tx.QueryRowContext(ctx, importGenerationSQL)); err != nil {
		return nil, err
	}
	apps, err := db.loadModels(ctx, tx, scope, args)
	if err != nil {
		return nil, err
	}
	db.models.put(gen, key, apps)
	return apps, nil
}

// readTx starts a read-only transaction that sees one import throughout.
func (db *DB) readTx(ctx context.Context) (*sql.Tx, error) {
	opts := &sql.TxOptions{ReadOnly: true}
	if db.Engine() == "postgres" {
		opts.Isolation = sql.LevelRepeatableRead
	}
	tx, err := db.sql.BeginTx(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("starting to read apps: %w", err)
	}
	return tx, nil
}

// loadModels reads, in tx, the models of the apps scope (a query of their ids, with args)
// selects, in id order.
func (db *DB) loadModels(ctx context.Context, tx *sql.Tx, scope string, args []any) ([]*semantic.App, error) {
	l := &modelLoader{db: db, tx: tx, scope: scope, args: args, apps: map[int64]*semantic.App{},
		tables: map[int64]*semantic.Table{}, cols: map[int64]*semantic.Column{}}
	steps := []struct {
		what string
		f    func(context.Context) error
	}{
		{"apps", l.loadApps},
		{"tables", l.loadTables},
		{"columns", l.loadColumns},
		{"relationships", l.loadRelationships},
		{"expressions", l.loadExpressions},
		{"indicators", l.loadIndicators},
		{"rollups", l.loadRollups},
		{"calculated columns", l.bindCalculated},
		{"segments", l.loadSegments},
	}
	for _, s := range steps {
		if err := s.f(ctx); err != nil {
			return nil, fmt.Errorf("reading app %s: %w", s.what, err)
		}
		if len(l.order) == 0 {
			return nil, nil
		}
	}
	return l.order, nil
}

// EveryApp calls fn with the models of every app of every tenant and the read-only transaction
// they were read in, so what fn reads from the data tables is of the same import as the models
// (a columnar copy reads them this way).
func (db *DB) EveryApp(ctx context.Context, fn func(tx *sql.Tx, apps []*semantic.App) error) error {
	tx, err := db.readTx(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	apps, err := db.loadModels(ctx, tx, "SELECT id FROM lumo_apps", nil)
	if err != nil {
		return err
	}
	return fn(tx, apps)
}

// modelLoader reads the catalogue rows of a set of apps (scope, a query of their ids) and wires
// them into models.
type modelLoader struct {
	db     *DB
	tx     *sql.Tx
	scope  string
	args   []any
	order  []*semantic.App
	apps   map[int64]*semantic.App
	tables map[int64]*semantic.Table
	cols   map[int64]*semantic.Column
}

// each runs query (with the scope's arguments) and calls scan for every row.
func (l *modelLoader) each(ctx context.Context, query string, scan func(*sql.Rows) error) error {
	rows, err := l.tx.QueryContext(ctx, l.db.q(query), l.args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (l *modelLoader) loadApps(ctx context.Context) error {
	return l.each(ctx, `SELECT a.id, a.app_key, a.name, a.description, d.name, o.id, o.name, a.published_at, COALESCE(a.load_id, 0), a.rows_in_file
		FROM lumo_apps a
		LEFT JOIN lumo_desks d ON d.id = a.desk_id
		LEFT JOIN lumo_apps o ON o.id = a.clone_of
		WHERE a.id IN (`+l.scope+`) ORDER BY a.id`, func(r *sql.Rows) error {
		a := &semantic.App{}
		var desk, origName, published sql.NullString
		var origID sql.NullInt64
		var inFile int
		if err := r.Scan(&a.ID, &a.Key, &a.Name, &a.Description, &desk, &origID, &origName, &published, &a.LoadID, &inFile); err != nil {
			return err
		}
		a.RowsInFile = inFile != 0
		if desk.Valid {
			a.Desk = &desk.String
		}
		if origID.Valid {
			a.ClonedFrom = &semantic.AppRef{ID: origID.Int64, Name: origName.String}
		}
		t, err := parseTime(published)
		if err != nil {
			return fmt.Errorf("app %d published_at: %w", a.ID, err)
		}
		a.PublishedAt = t
		l.apps[a.ID] = a
		l.order = append(l.order, a)
		return nil
	})
}

func (l *modelLoader) loadTables(ctx context.Context) error {
	copyOf := map[*semantic.Table]int64{}
	err := l.each(ctx, `SELECT tb.id, tb.app_id, tb.label, tb.name, tb.kind, tb.loaded_at, tb.sql_name, tb.copy_of, tb.row_count
		FROM lumo_tables tb WHERE tb.app_id IN (`+l.scope+`) ORDER BY tb.app_id, tb.pos`, func(r *sql.Rows) error {
		t := &semantic.Table{}
		var appID int64
		var loaded sql.NullString
		var orig, rows sql.NullInt64
		if err := r.Scan(&t.ID, &appID, &t.Label, &t.Name, &t.Kind, &loaded, &t.SQLName, &orig, &rows); err != nil {
			return err
		}
		t.Rows = rows.Int64
		if orig.Valid {
			copyOf[t] = orig.Int64
		}
		lt, err := parseTime(loaded)
		if err != nil {
			return fmt.Errorf("table %d loaded_at: %w", t.ID, err)
		}
		t.LoadedAt = lt
		a := l.apps[appID]
		a.Tables = append(a.Tables, t)
		l.tables[t.ID] = t
		return nil
	})
	if err != nil {
		return err
	}
	for t, id := range copyOf {
		if t.CopyOf = l.tables[id]; t.CopyOf == nil {
			return fmt.Errorf("table %d is a copy of table %d, which is not in its app", t.ID, id)
		}
	}
	return nil
}

func (l *modelLoader) loadColumns(ctx context.Context) error {
	return l.each(ctx, `SELECT c.id, c.table_id, c.name, c.label, c.col_type, c.role, c.unit, c.usage, c.description,
			c.scale, c.sql_name, c.fold_sql_name, c.formula
		FROM lumo_columns c JOIN lumo_tables tb ON tb.id = c.table_id
		WHERE tb.app_id IN (`+l.scope+`) ORDER BY c.table_id, c.pos`, func(r *sql.Rows) error {
		c := &semantic.Column{}
		var tableID int64
		if err := r.Scan(&c.ID, &tableID, &c.Name, &c.Label, &c.Type, &c.Role, &c.Unit, &c.Usage, &c.Description,
			&c.Scale, &c.SQLName, &c.FoldSQLName, &c.Formula); err != nil {
			return err
		}
		c.Table = l.tables[tableID]
		c.Table.Columns = append(c.Table.Columns, c)
		l.cols[c.ID] = c
		return nil
	})
}

func (l *modelLoader) loadRelationships(ctx context.Context) error {
	if err := l.each(ctx, `SELECT r.app_id, r.from_column_id, r.to_column_id, r.complete, r.key_unique
		FROM lumo_relationships r WHERE r.app_id IN (`+l.scope+`) ORDER BY r.app_id, r.pos`, func(r *sql.Rows) error {
		var appID, from, to, complete, unique int64
		if err := r.Scan(&appID, &from, &to, &complete, &unique); err != nil {
			return err
		}
		a := l.apps[appID]
		a.Relationships = append(a.Relationships, semantic.Relationship{From: []*semantic.Column{l.cols[from]}, To: []*semantic.Column{l.cols[to]},
			Complete: complete != 0, Unique: unique != 0})
		return nil
	}); err != nil {
		return err
	}
	// The further pairs of composite relationships, in pair order after the first.
	return l.each(ctx, `SELECT k.app_id, k.pos, k.from_column_id, k.to_column_id
		FROM lumo_relationship_keys k WHERE k.app_id IN (`+l.scope+`) ORDER BY k.app_id, k.pos, k.pair`, func(r *sql.Rows) error {
		var appID, pos, from, to int64
		if err := r.Scan(&appID, &pos, &from, &to); err != nil {
			return err
		}
		a := l.apps[appID]
		if pos < 0 || int(pos) >= len(a.Relationships) {
			return fmt.Errorf("relationship key of app %d names relationship %d, which does not exist", appID, pos)
		}
		rel := &a.Relationships[pos]
		rel.From = append(rel.From, l.cols[from])
		rel.To = append(rel.To, l.cols[to])
		return nil
	})
}

func (l *modelLoader) loadExpressions(ctx context.Context) error {
	return l.each(ctx, `SELECT e.id, e.app_id, e.label, e.formula, e.unit
		FROM lumo_expressions e WHERE e.app_id IN (`+l.scope+`) ORDER BY e.app_id, e.pos`, func(r *sql.Rows) error {
		e := &semantic.Expression{}
		var appID int64
		if err := r.Scan(&e.ID, &appID, &e.Label, &e.Formula, &e.Unit); err != nil {
			return err
		}
		a := l.apps[appID]
		a.Expressions = append(a.Expressions, e)
		return nil
	})
}

// bindCalculated binds the formulas of the calculated columns; import checked them, so a problem
// here means the catalogue does not match its import.
func (l *modelLoader) bindCalculated(context.Context) error {
	for _, a := range l.order {
		if errs := a.BindCalculated(); len(errs) > 0 {
			return fmt.Errorf("app %d column %s: %w", a.ID, errs[0].Column.Ref(), errs[0].Err)
		}
	}
	return nil
}

// loadSegments reads the segments and binds them (after the calculated columns, which their
// conditions may read); import checked them, so a problem here means the catalogue does not
// match its import.
func (l *modelLoader) loadSegments(ctx context.Context) error {
	return l.each(ctx, `SELECT s.app_id, s.label, s.description, s.table_id, s.related_table_id, s.without, s.where_formula
		FROM lumo_segments s WHERE s.app_id IN (`+l.scope+`) ORDER BY s.app_id, s.pos`, func(r *sql.Rows) error {
		sg := &semantic.Segment{}
		var appID, table, related, without int64
		if err := r.Scan(&appID, &sg.Label, &sg.Description, &table, &related, &without, &sg.Where); err != nil {
			return err
		}
		sg.Table, sg.Related, sg.Without = l.tables[table], l.tables[related], without != 0
		if sg.Table == nil || sg.Related == nil {
			return fmt.Errorf("segment %q of app %d names a table not in its app", sg.Label, appID)
		}
		a := l.apps[appID]
		if err := a.BindSegment(sg); err != nil {
			return fmt.Errorf("app %d segment %q: %w", appID, sg.Label, err)
		}
		a.Segments = append(a.Segments, sg)
		return nil
	})
}

func (l *modelLoader) loadRollups(ctx context.Context) error {
	type key struct {
		app int64
		pos int
	}
	byKey := map[key]*semantic.Rollup{}
	if err := l.each(ctx, `SELECT r.app_id, r.pos, r.name, r.fact_table_id, r.time_column_id, r.grain, r.sql_name, r.row_count
		FROM lumo_rollups r WHERE r.app_id IN (`+l.scope+`) ORDER BY r.app_id, r.pos`, func(rows *sql.Rows) error {
		r := &semantic.Rollup{}
		var k key
		var fact int64
		var timeCol sql.NullInt64
		if err := rows.Scan(&k.app, &k.pos, &r.Name, &fact, &timeCol, &r.Grain, &r.SQLName, &r.Rows); err != nil {
			return err
		}
		if r.Fact = l.tables[fact]; r.Fact == nil {
			return fmt.Errorf("rollup %s of app %d reads table %d, which is not in its app", r.Name, k.app, fact)
		}
		if timeCol.Valid {
			if r.Time = l.cols[timeCol.Int64]; r.Time == nil {
				return fmt.Errorf("rollup %s of app %d names column %d, which is not in its app", r.Name, k.app, timeCol.Int64)
			}
		}
		a := l.apps[k.app]
		a.Rollups = append(a.Rollups, r)
		byKey[k] = r
		return nil
	}); err != nil {
		return err
	}
	return l.each(ctx, `SELECT c.app_id, c.pos, c.role, c.column_id
		FROM lumo_rollup_columns c WHERE c.app_id IN (`+l.scope+`) ORDER BY c.app_id, c.pos, c.role, c.idx`, func(rows *sql.Rows) error {
		var k key
		var role string
		var id int64
		if err := rows.Scan(&k.app, &k.pos, &role, &id); err != nil {
			return err
		}
		r, c := byKey[k], l.cols[id]
		if r == nil || c == nil {
			return fmt.Errorf("rollup column %d of app %d does not match its rollup", id, k.app)
		}
		if role == semantic.RoleDimension {
			r.Dimensions = append(r.Dimensions, c)
		} else {
			r.Measures = append(r.Measures, c)
		}
		return nil
	})
}

func (l *modelLoader) loadIndicators(ctx context.Context) error {
	return l.each(ctx, `SELECT i.app_id, i.name, i.description, i.fields, i.filters, i.problem
		FROM lumo_indicators i WHERE i.app_id IN (`+l.scope+`) ORDER BY i.app_id, i.pos`, func(r *sql.Rows) error {
		ind := &semantic.Indicator{}
		var appID int64
		var fields, filters string
		if err := r.Scan(&appID, &ind.Name, &ind.Description, &fields, &filters, &ind.Problem); err != nil {
			return err
		}
		var err error
		if ind.Fields, err = parseItems(fields); err != nil {
			return fmt.Errorf("indicator %q fields: %w", ind.Name, err)
		}
		if ind.Filters, err = parseItems(filters); err != nil {
			return fmt.Errorf("indicator %q filters: %w", ind.Name, err)
		}
		a := l.apps[appID]
		a.Indicators = append(a.Indicators, ind)
		return nil
	})
}

// parseItems decodes indicator fields or filters; an empty list is nil, as in a fresh model.
func parseItems(s string) ([]map[string]any, error) {
	var items []map[string]any
	if err := json.Unmarshal([]byte(s), &items); err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, nil
	}
	return items, nil
}

func parseTime(s sql.NullString) (*time.Time, error) {
	if !s.Valid || s.String == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, s.String)
	if err != nil {
		return nil, err
	}
	return &t, nil
}
