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
