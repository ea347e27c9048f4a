package store

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
)

// Ready reports whether the database answers and has every migration this binary knows.
func (db *DB) Ready(ctx context.Context) error {
	if err := db.sql.PingContext(ctx); err != nil {
		return fmt.Errorf("database unreachable: %w", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	applied := map[string]bool{}
	rows, err := db.sql.QueryContext(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return fmt.Errorf("reading schema_migrations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return fmt.Errorf("reading schema_migrations: %w", err)
		}
		applied[v] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading schema_migrations: %w", err)
	}
	var missing []string
	for _, name := range names {
		if v := strings.TrimSuffix(strings.TrimPrefix(name, "migrations/"), ".sql"); !applied[v] {
			missing = append(missing, v)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("migrations not applied: %s", strings.Join(missing, ", "))
	}
	return nil
}
