package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/migrate"
)

// Ready reports whether the database answers and has every migration this binary knows.
func (db *DB) Ready(ctx context.Context) error {
	if err := db.sql.PingContext(ctx); err != nil {
		return fmt.Errorf("database unreachable: %w", err)
	}
	missing, err := migrate.Pending(ctx, db.sql, migrations)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return fmt.Errorf("migrations not applied: %s", strings.Join(missing, ", "))
	}
	return nil
}

// AppsInFile counts the apps whose rows only their import's DuckDB file holds
// (semantic.App.RowsInFile): a server without the columnar store cannot answer them.
func (db *DB) AppsInFile(ctx context.Context) (int, error) {
	var n int
	if err := db.sql.QueryRowContext(ctx, "SELECT COUNT(*) FROM lumo_apps WHERE rows_in_file <> 0").Scan(&n); err != nil {
		return 0, fmt.Errorf("counting the apps kept in DuckDB files: %w", err)
	}
	return n, nil
}
