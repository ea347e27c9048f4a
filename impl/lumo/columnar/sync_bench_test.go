//go:build cgo

package columnar_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/bench"
	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
)

// BenchmarkSync copies the benchmark's sales (100,000 rows and their rollups) from a SQLite row
// store into a fresh DuckDB file, as lumo import and lumo serve do.
func BenchmarkSync(b *testing.B) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "lumo.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ImportWorkspace(ctx, bench.Workspace(100_000), "workspace.yaml"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		c, err := columnar.Open(ctx, columnar.Options{Path: filepath.Join(b.TempDir(), "c"+string(rune('a'+i%26))+".duckdb")})
		if err != nil {
			b.Fatal(err)
		}
		done, err := c.Sync(ctx, db)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(done.Rows)/b.Elapsed().Seconds()*float64(i+1), "rows/s")
		c.Close()
	}
}
