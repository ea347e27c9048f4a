// Package migrate applies a server's embedded SQL migrations to the shared database, recording
// each one by name in the one schema_migrations table, and tells which of them are still pending.
package migrate

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// A server's migrations are the files migrations/<version>.sql of the fs.FS it passes (its
// //go:embed migrations/*.sql), applied in the order of their names; the version recorded in
// schema_migrations is the file name without .sql, so a file must never be renamed.

// statementEnd splits a migration file into statements: a semicolon that ends a line.
var statementEnd = regexp.MustCompile(`;[ \t]*(\r?\n|$)`)

// migrationLock is the PostgreSQL advisory lock key that serialises concurrent migrations.
const migrationLock = 7_360_118_221

// Apply applies, in one transaction, every migration of fsys not yet in schema_migrations.
func Apply(ctx context.Context, db *sql.DB, dialect sqldialect.Dialect, fsys fs.FS) error {
	names, err := list(fsys)
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("starting migrations: %w", err)
	}
	defer tx.Rollback()
	if dialect.Name() == "postgres" {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", migrationLock); err != nil {
			return fmt.Errorf("locking migrations: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version VARCHAR(200) PRIMARY KEY,
		applied_at VARCHAR(40) NOT NULL)`); err != nil {
		return fmt.Errorf("creating schema_migrations: %w", err)
	}
	applied := map[string]bool{}
	rows, err := tx.QueryContext(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return fmt.Errorf("reading schema_migrations: %w", err)
	}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return fmt.Errorf("reading schema_migrations: %w", err)
		}
		applied[v] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading schema_migrations: %w", err)
	}
	for _, name := range names {
		version := versionOf(name)
		if applied[version] {
			continue
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return fmt.Errorf("reading migration %s: %w", version, err)
		}
		for i, stmt := range statementEnd.Split(string(b), -1) {
			if strings.TrimSpace(stripComments(stmt)) == "" {
				continue
			}
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("applying migration %s, statement %d: %w", version, i+1, err)
			}
		}
		if _, err := tx.ExecContext(ctx, sqldialect.Rebind(dialect, "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)"),
			version, time.Now().UTC().Format(time.RFC3339)); err != nil {
			return fmt.Errorf("recording migration %s: %w", version, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("committing migrations: %w", err)
	}
	return nil
}

// Pending lists, in order, the migrations of fsys that schema_migrations does not record.
func Pending(ctx context.Context, db *sql.DB, fsys fs.FS) ([]string, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	applied := map[string]bool{}
	rows, err := db.QueryContext(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("reading schema_migrations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("reading schema_migrations: %w", err)
		}
		applied[v] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading schema_migrations: %w", err)
	}
	var missing []string
	for _, name := range names {
		if v := versionOf(name); !applied[v] {
			missing = append(missing, v)
		}
	}
	return missing, nil
}

// list is the migration files of fsys in the order they apply.
func list(fsys fs.FS) ([]string, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, fmt.Errorf("listing migrations: %w", err)
	}
	sort.Strings(names)
	return names, nil
}

// versionOf is the version a migration file records: its name without the folder and .sql.
func versionOf(name string) string {
	return strings.TrimSuffix(strings.TrimPrefix(name, "migrations/"), ".sql")
}

// stripComments drops -- comment lines, to tell an empty statement from a real one.
func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}
