//go:build !cgo

package columnar

import (
	"context"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
)

// Available says whether this build links DuckDB.
const Available = false

// Store is never opened in a build without cgo.
type Store struct{}

// Open says ErrUnavailable.
func Open(context.Context, Options) (*Store, error) { return nil, ErrUnavailable }

// Deferred is never called in a build without cgo (check Available).
func Deferred(Options) *Store { return nil }

func (*Store) Holds(*semantic.App) bool                        { return false }
func (*Store) DB() query.Querier                               { return nil }
func (*Store) Path() string                                    { return "" }
func (*Store) Sync(context.Context, *store.DB) (Synced, error) { return Synced{}, ErrUnavailable }
func (*Store) Keep(context.Context, *store.DB, time.Duration)  {}
func (*Store) Kick()                                           {}
func (*Store) FirstSyncEnded() bool                            { return true }
func (*Store) Await(context.Context, *semantic.App) error      { return ErrUnavailable }
func (*Store) Close() error                                    { return nil }
func (*Store) ImportSink() store.DataSink                      { return nil }

// ValuesOf names each column's own table: there is no copy.
func (*Store) ValuesOf(*semantic.App) func(*semantic.Column) string {
	return func(c *semantic.Column) string { return c.Table.SQLName }
}

// RowsMover is never called in a build without cgo (check Available).
// Held holds no values: there is no copy.
func (*Store) Held(context.Context, *semantic.App) func(*semantic.Column) map[string]bool {
	return func(*semantic.Column) map[string]bool { return nil }
}

func (*Store) RowsMover() store.RowsMover { return nil }
