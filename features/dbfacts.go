package features

import (
	"context"
	"fmt"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
)

// Ids of catalogue objects, read straight from the catalogue tables by their workspace names, so
// expectations do not go through the code under test.

func appID(ctx context.Context, db *store.DB, key string) (int64, error) {
	return oneID(ctx, db, "SELECT id FROM lumo_apps WHERE app_key = ?", key)
}

// columnID finds a column by app key, physical table name and physical column name.
func columnID(ctx context.Context, db *store.DB, app, table, column string) (int64, error) {
	return oneID(ctx, db, `SELECT c.id FROM lumo_columns c JOIN lumo_tables t ON t.id = c.table_id
		JOIN lumo_apps a ON a.id = t.app_id WHERE a.app_key = ? AND t.name = ? AND c.name = ?`, app, table, column)
}

// expressionID finds an expression by app key and label.
func expressionID(ctx context.Context, db *store.DB, app, label string) (int64, error) {
	return oneID(ctx, db, `SELECT e.id FROM lumo_expressions e JOIN lumo_apps a ON a.id = e.app_id
		WHERE a.app_key = ? AND e.label = ?`, app, label)
}

func oneID(ctx context.Context, db *store.DB, q string, args ...any) (int64, error) {
	if db.Engine() == "postgres" {
		n := 0
		out := []byte{}
		for i := 0; i < len(q); i++ {
			if q[i] == '?' {
				n++
				out = append(out, fmt.Sprintf("$%d", n)...)
				continue
			}
			out = append(out, q[i])
		}
		q = string(out)
	}
	rows, err := db.SQL().QueryContext(ctx, q, args...)
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
		return 0, fmt.Errorf("%v matches %d catalogue rows", args, len(ids))
	}
	return ids[0], rows.Err()
}
