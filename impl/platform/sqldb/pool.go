package sqldb

import (
	"context"
	"database/sql"
	"flag"
	"fmt"

	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// RegisterPoolFlag adds --db-max-conns to fs and returns its value (0: automatic).
func RegisterPoolFlag(fs *flag.FlagSet) *int {
	return fs.Int("db-max-conns", 0, "conexões abertas com o banco ao mesmo tempo; chamadas e verificações de token "+
		"além delas esperam a vez (0 = automático: o dobro das chamadas simultâneas mais 8, até metade do max_connections do PostgreSQL)")
}

// BoundPool caps the connections the pool opens: n, or when n is 0, want capped at half of the
// PostgreSQL server's max_connections (the rest stays for other replicas, administration and
// the server's own). Without a bound, a burst of requests opened a connection each until
// PostgreSQL refused them all ("too many clients"); bounded, requests wait for a connection.
// A tighter bound already set (an in-memory SQLite database: one) stays. It returns the bound.
func BoundPool(ctx context.Context, pool *sql.DB, engine string, n, want int) (int, error) {
	if n < 0 || n > 10000 {
		return 0, fmt.Errorf("--db-max-conns precisa ficar entre 0 (automático) e 10000; veio %d", n)
	}
	if n == 0 {
		n = want
		if engine == sqldialect.PostgresName {
			var limit int
			if err := pool.QueryRowContext(ctx, "SELECT current_setting('max_connections')::int").Scan(&limit); err != nil {
				return 0, fmt.Errorf("reading PostgreSQL's max_connections: %w", err)
			}
			n = min(n, max(limit/2, 2))
		}
	}
	if cur := pool.Stats().MaxOpenConnections; cur > 0 && cur < n {
		return cur, nil
	}
	pool.SetMaxOpenConns(n)
	pool.SetMaxIdleConns(min(poolIdle, n))
	return n, nil
}
