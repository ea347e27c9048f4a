package cadstore

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/caderninho/ofx"
)

// A huge file dropped in a connection's folder is refused by its size without being read whole:
// a 1 GiB (sparse) OFX costs the import at most its parser's limit in memory.
func TestHugeStatementIsNotReadWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "enorme.ofx")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, _, _, fe := readStatement(statementFile{name: "enorme.ofx", path: path}, "")
	runtime.ReadMemStats(&after)
	if fe == nil || !strings.Contains(fe.Message, "mais de 64 MB") {
		t.Fatalf("a 1 GiB statement: %+v", fe)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 3*ofx.MaxSize {
		t.Errorf("reading it allocated %d MiB; the bound is %d MiB", got>>20, ofx.MaxSize>>20)
	}
}
