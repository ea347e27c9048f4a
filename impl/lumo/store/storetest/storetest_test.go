package storetest

import (
	"context"
	"testing"
)

func TestOpenIsFreshAndMigrated(t *testing.T) {
	t.Parallel()
	for range 2 {
		db := Open(t)
		var n int
		if err := db.SQL().QueryRowContext(context.Background(), "SELECT COUNT(*) FROM lumo_tenants").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("fresh database has %d tenants", n)
		}
		if _, err := db.SQL().ExecContext(context.Background(),
			"INSERT INTO lumo_tenants (id, tenant_key, name, imported_at) VALUES (1, 'x', 'X', 'now')"); err != nil {
			t.Fatal(err)
		}
	}
}
