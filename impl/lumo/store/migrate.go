package store

import (
	"context"
	"embed"

	"github.com/lumo-caderninho/mcp/impl/platform/migrate"
)

// migrations are lumo's: migrations/<version>.sql, recorded by version in schema_migrations.
//
//go:embed migrations/*.sql
var migrations embed.FS

// migrate applies, in one transaction, every lumo migration not yet in schema_migrations.
func (db *DB) migrate(ctx context.Context) error {
	return migrate.Apply(ctx, db.sql, db.dialect, migrations)
}
