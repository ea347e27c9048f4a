package features

import (
	"context"
	"fmt"

	"github.com/lumo-caderninho/mcp/impl/store"
)

// appID reads an app's id by its workspace key straight from the catalogue tables, so expectations do
// not go through the code under test.
func appID(ctx context.Context, db *store.DB, key string) (int64, error) {
	q := "SELECT id FROM lumo_apps WHERE app_key = ?"
	if db.Engine() == "postgres" {
		q = "SELECT id FROM lumo_apps WHERE app_key = $1"
	}
	rows, err := db.SQL().QueryContext(ctx, q, key)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return 0, err
		}
		ids = append(ids, id)
	}
	if len(ids) != 1 {
		return 0, fmt.Errorf("app key %q matches %d apps", key, len(ids))
	}
	return ids[0], rows.Err()
}
