package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

// reindexBudget bounds the time Open spends building missing data-table indexes, so a big
// database still opens promptly; whatever is left is built at the next open.
const reindexBudget = 2 * time.Minute

// Option tunes Open.
type Option func(*openOptions)

type openOptions struct {
	log           *slog.Logger
	reindexBudget time.Duration
}

// WithLogger sends Open's notices (indexes built or left for later) to log instead of
// slog.Default().
func WithLogger(log *slog.Logger) Option { return func(o *openOptions) { o.log = log } }

// WithReindexBudget changes how long Open may spend building missing indexes (0 skips it).
func WithReindexBudget(d time.Duration) Option { return func(o *openOptions) { o.reindexBudget = d } }

// dataColumn is an indexable column of a loaded data table, from the catalogue.
type dataColumn struct {
	table string
	indexColumn
}

// ensureIndexes creates the data-table indexes a database loaded by an older version lacks
// (import makes them, so only tables imported before an index existed miss one). Each index is
// CREATE INDEX IF NOT EXISTS, so concurrent opens and reopens are harmless. A failure only costs
// speed, so it is logged, never returned; the budget stops the work between statements.
func (db *DB) ensureIndexes(ctx context.Context, o openOptions) {
	if o.reindexBudget <= 0 {
		return
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, o.reindexBudget)
	defer cancel()
	built, left, err := db.buildMissingIndexes(ctx, o.log)
	switch {
	case err != nil && ctx.Err() != nil:
		o.log.Warn("missing data-table indexes left for the next open", "built", built, "left", left,
			"budget", o.reindexBudget.String())
	case err != nil:
		o.log.Warn("building missing data-table indexes", "built", built, telemetry.ErrAttr(err))
	case built > 0:
		o.log.Info("built missing data-table indexes", "built", built, "took", time.Since(start).Round(time.Millisecond).String())
	}
}

// buildMissingIndexes creates the missing indexes table by table, analysing each table it
// changed, and says how many it built and how many remain.
func (db *DB) buildMissingIndexes(ctx context.Context, log *slog.Logger) (built, left int, err error) {
	cols, err := db.loadedDataColumns(ctx)
	if err != nil {
		return 0, 0, err
	}
	existing, err := db.dataIndexes(ctx)
	if err != nil {
		return 0, 0, err
	}
	trgm, err := trgmSchema(ctx, db.dialect, db.sql)
	if err != nil {
		return 0, 0, err
	}
	type job struct {
		table, name, ddl string
		col              dataColumn
	}
	var jobs []job
	for _, c := range cols {
		if q := btreeIndex(db.dialect, c.table, c.indexColumn); q != "" && !existing[indexName("i", c.sqlName)] {
			jobs = append(jobs, job{c.table, indexName("i", c.sqlName), q, c})
		}
		if q := trgmIndex(db.dialect, c.table, c.indexColumn, trgm); q != "" && !existing[indexName("g", c.sqlName)] {
			jobs = append(jobs, job{c.table, indexName("g", c.sqlName), q, c})
		}
	}
	keys, err := db.relationshipKeys(ctx)
	if err != nil {
		return 0, 0, err
	}
	for _, k := range keys {
		if name := keyIndexName(k.cols); !existing[name] {
			jobs = append(jobs, job{table: k.table, name: name, ddl: keyIndex(db.dialect, k.table, k.cols)})
		}
	}
	// Table by table, so each table is analysed once, after its last index.
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].table < jobs[j].table })
	for i, j := range jobs {
		if j.name[0] == 'i' && j.col.foldName != "" {
			// Import leaves columns with texts too long for a btree entry unindexed; so does this.
			long, err := db.hasLongText(ctx, j.col)
			if err != nil {
				return built, len(jobs) - i, err
			}
			if long {
				continue
			}
		}
		if _, err := db.sql.ExecContext(ctx, j.ddl); err != nil {
			return built, len(jobs) - i, fmt.Errorf("creating index %s on %s: %w", j.name, j.table, err)
		}
		built++
		log.Debug("built missing data-table index", "table", j.table, "index", j.name)
		if i+1 == len(jobs) || jobs[i+1].table != j.table {
			for _, q := range analyze(db.dialect, j.table) {
				if _, err := db.sql.ExecContext(ctx, q); err != nil {
					return built, len(jobs) - i - 1, fmt.Errorf("analysing %s: %w", j.table, err)
				}
			}
		}
	}
	return built, 0, nil
}

// loadedDataColumns lists the text and date columns of every data table loaded into the
// database once (copies share their original's table; an app whose rows are in its import's
// DuckDB file has none here), in table order.
func (db *DB) loadedDataColumns(ctx context.Context) ([]dataColumn, error) {
	rows, err := db.sql.QueryContext(ctx, db.q(`SELECT DISTINCT t.sql_name, c.sql_name, c.fold_sql_name, c.col_type
		FROM lumo_tables t JOIN lumo_columns c ON c.table_id = t.id JOIN lumo_apps a ON a.id = t.app_id
		WHERE t.row_count IS NOT NULL AND a.rows_in_file = 0 AND c.formula = '' AND c.free_text = 0 AND c.col_type IN (?, ?, ?)
		ORDER BY t.sql_name, c.sql_name`), "string", "date", "datetime")
	if err != nil {
		return nil, fmt.Errorf("listing data columns: %w", err)
	}
	defer rows.Close()
	var out []dataColumn
	for rows.Next() {
		var c dataColumn
		if err := rows.Scan(&c.table, &c.sqlName, &c.foldName, &c.colType); err != nil {
			return nil, fmt.Errorf("listing data columns: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// dataKey is a relationship key of a loaded data table: the SQL names of its columns, in pair
// order.
type dataKey struct {
	table string
	cols  []string
}

// relationshipKeys lists the keys every relationship joins on, on both sides (a composite key
// as one, in pair order), once per data table and key (copies of apps share their original's
// tables and keys).
func (db *DB) relationshipKeys(ctx context.Context) ([]dataKey, error) {
	const pairs = `SELECT %s, ft.sql_name, fc.sql_name, tt.sql_name, tc.sql_name,
			ft.row_count IS NOT NULL AND a.rows_in_file = 0, tt.row_count IS NOT NULL AND a.rows_in_file = 0
		FROM %s
		JOIN lumo_apps a ON a.id = r.app_id
		JOIN lumo_columns fc ON fc.id = r.from_column_id JOIN lumo_tables ft ON ft.id = fc.table_id
		JOIN lumo_columns tc ON tc.id = r.to_column_id JOIN lumo_tables tt ON tt.id = tc.table_id`
	rows, err := db.sql.QueryContext(ctx, fmt.Sprintf(pairs, "r.app_id, r.pos, 0", "lumo_relationships r")+
		" UNION ALL "+fmt.Sprintf(pairs, "r.app_id, r.pos, r.pair", "lumo_relationship_keys r")+" ORDER BY 1, 2, 3")
	if err != nil {
		return nil, fmt.Errorf("listing relationship keys: %w", err)
	}
	defer rows.Close()
	var out []dataKey
	seen := map[string]bool{}
	var from, to dataKey
	var fromLoaded, toLoaded bool
	flush := func() {
		for _, k := range []struct {
			loaded bool
			key    dataKey
		}{{fromLoaded, from}, {toLoaded, to}} {
			id := k.key.table + "\x00" + strings.Join(k.key.cols, ",")
			if k.loaded && len(k.key.cols) > 0 && !seen[id] {
				seen[id] = true
				out = append(out, k.key)
			}
		}
	}
	for rows.Next() {
		var app, pos, pair int64
		var fromTable, fromCol, toTable, toCol string
		var fl, tl bool
		if err := rows.Scan(&app, &pos, &pair, &fromTable, &fromCol, &toTable, &toCol, &fl, &tl); err != nil {
			return nil, fmt.Errorf("listing relationship keys: %w", err)
		}
		if pair == 0 {
			flush()
			from, to = dataKey{table: fromTable}, dataKey{table: toTable}
			fromLoaded, toLoaded = fl, tl
		}
		from.cols = append(from.cols, fromCol)
		to.cols = append(to.cols, toCol)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing relationship keys: %w", err)
	}
	flush()
	return out, nil
}

// dataIndexes is the set of index names in the database's schema.
func (db *DB) dataIndexes(ctx context.Context) (map[string]bool, error) {
	q := "SELECT name FROM sqlite_master WHERE type = 'index'"
	if db.Engine() == sqldialect.PostgresName {
		q = "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
	}
	rows, err := db.sql.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("listing indexes: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, fmt.Errorf("listing indexes: %w", err)
		}
		out[name] = true
	}
	return out, rows.Err()
}

// hasLongText reports whether a text column holds a value (original or folded) longer than
// indexMaxLen bytes.
func (db *DB) hasLongText(ctx context.Context, c dataColumn) (bool, error) {
	d := db.dialect
	size := func(col string) string {
		if d.Name() == sqldialect.PostgresName {
			return "octet_length(" + d.QuoteIdent(col) + ")"
		}
		return "length(CAST(" + d.QuoteIdent(col) + " AS BLOB))"
	}
	var one int
	err := db.sql.QueryRowContext(ctx, db.q("SELECT 1 FROM "+d.QuoteIdent(c.table)+" WHERE "+size(c.sqlName)+" > ? OR "+
		size(c.foldName)+" > ? LIMIT 1"), indexMaxLen, indexMaxLen).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("measuring texts of %s.%s: %w", c.table, c.sqlName, err)
	}
	return true, nil
}
