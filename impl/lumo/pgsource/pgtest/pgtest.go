// Package pgtest makes a throwaway PostgreSQL database for tests of app tables loaded from a
// database: LUMO_TEST_SOURCE_DB (or else LUMO_TEST_DB) names the server; without either, the
// test is skipped with a message saying how to run it.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	_ "github.com/lib/pq" // the "postgres" driver

	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

// ErrNoPostgres says no server is configured, and how to configure one.
var ErrNoPostgres = errors.New("no PostgreSQL for a source database: set LUMO_TEST_SOURCE_DB (or LUMO_TEST_DB) to postgres://... to run this")

// SourceDB creates an empty database, runs setup in it and returns its DSN; the database is
// dropped when t ends. Without a server, t is skipped with ErrNoPostgres's message.
func SourceDB(t testing.TB, setup string) string {
	t.Helper()
	dsn, drop, err := Create(setup)
	if errors.Is(err, ErrNoPostgres) {
		t.Skip(err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	return dsn
}

// Create is SourceDB for callers without a testing.TB: drop removes the database.
func Create(setup string) (dsn string, drop func(), err error) {
	admin := os.Getenv("LUMO_TEST_SOURCE_DB")
	if admin == "" {
		admin = os.Getenv("LUMO_TEST_DB")
	}
	if !strings.HasPrefix(admin, "postgres://") && !strings.HasPrefix(admin, "postgresql://") {
		return "", nil, ErrNoPostgres
	}
	dsn, dropDB, err := sqldb.ScratchDatabase(context.Background(), admin, "lumo_source_")
	if err != nil {
		return "", nil, err
	}
	drop = func() { dropDB() }
	if setup != "" {
		src, err := sql.Open("postgres", dsn)
		if err == nil {
			_, err = src.ExecContext(context.Background(), setup)
			src.Close()
		}
		if err != nil {
			drop()
			return "", nil, fmt.Errorf("setting up the source database: %w", err)
		}
	}
	return dsn, drop, nil
}
