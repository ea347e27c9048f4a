package sqldb

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
)

// ScratchDatabase creates an empty PostgreSQL database, named prefix and a random suffix, on the
// server of adminDSN (a postgres:// URL whose user may create databases), and returns its DSN
// (adminDSN's with the new database) and drop, which removes it, connections and all. Benchmarks
// and tests use it for a database of their own.
func ScratchDatabase(ctx context.Context, adminDSN, prefix string) (dsn string, drop func() error, err error) {
	u, err := url.Parse(adminDSN)
	if err != nil || !IsPostgres(adminDSN) {
		return "", nil, fmt.Errorf("%q is not a postgres:// URL", adminDSN)
	}
	admin, err := sql.Open("postgres", adminDSN)
	if err != nil {
		return "", nil, err
	}
	var b [6]byte
	rand.Read(b[:])
	name := prefix + hex.EncodeToString(b[:])
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("creating database %s: %w", name, err)
	}
	u.Path = "/" + name
	return u.String(), func() error {
		defer admin.Close()
		if _, err := admin.ExecContext(context.Background(), "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("dropping database %s: %w", name, err)
		}
		return nil
	}, nil
}
