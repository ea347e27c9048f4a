package cadstore

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

// caderninho's SQLite connections keep temporary files in memory; another pool on the same file
// (lumo's) keeps SQLite's default.
func TestSQLiteTempStoreIsCaderninhos(t *testing.T) {
	ctx := context.Background()
	dsn := filepath.Join(t.TempDir(), "c.db")
	st, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.DB().Close()
	other, err := sqldb.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for _, c := range []struct {
		db   *sqldb.DB
		want int
	}{{st.DB(), 2}, {other, 0}} {
		var got int
		if err := c.db.SQL().QueryRowContext(ctx, "PRAGMA temp_store").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("temp_store = %d, want %d", got, c.want)
		}
	}
}
