package cadstore

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
	"github.com/lumo-caderninho/mcp/impl/caderninho/ofx"
)

// FuzzImportIsAllOrNothing imports a valid statement and a fuzzed one into one connection: either
// the connection imports (and holds at least the valid statement's transactions) or it fails and
// nothing of it is stored, not even the valid file. It never panics.
//
//	go test ./impl/caderninho/cadstore -run '^$' -fuzz FuzzImportIsAllOrNothing -fuzztime 60s -fuzzminimizetime 2s
func FuzzImportIsAllOrNothing(f *testing.F) {
	good, err := fs.ReadFile(demo.Caderninho, "ofx/sabia-rafael/poupanca-2026-08.ofx")
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range []string{"ofx/sabia-rafael/poupanca-2026-09.ofx", "ofx/aurora-atelie/extrato-usd-2026-08.ofx", "ofx/ipe-rafael/fatura-2026-08.ofx"} {
		b, err := fs.ReadFile(demo.Caderninho, p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(good)
	f.Add([]byte("OFXHEADER:100\n<OFX></OFX>"))
	inst := &installation.Installation{Timezone: "America/Sao_Paulo",
		People:      []*installation.Person{{Key: "p", Name: "P"}},
		Spaces:      []*installation.Space{{Key: "s", Name: "S"}},
		Connections: []*installation.Connection{{Key: "c", Institution: "Banco", Holder: "p", Space: "s", Source: "c"}}}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "c"), 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range map[string][]byte{"a.ofx": good, "b.ofx": data} {
			if err := os.WriteFile(filepath.Join(dir, "c", name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s, err := Open(ctx, ":memory:")
		if err != nil {
			t.Fatal(err)
		}
		db := s.DB()
		defer db.Close()
		if _, err := s.Register(ctx, inst, dir); err != nil {
			t.Fatal(err)
		}
		outs, err := s.ImportConnections(ctx, nil)
		if err != nil {
			t.Fatalf("internal error: %v", err)
		}
		var files, txs int
		if err := db.SQL().QueryRowContext(ctx, "SELECT (SELECT COUNT(*) FROM cad_files), (SELECT COUNT(*) FROM cad_transactions)").Scan(&files, &txs); err != nil {
			t.Fatal(err)
		}
		_, perr := ofx.Parse(data)
		var oe *ofx.Error
		switch o := outs[0]; o.Status {
		case StatusFailed:
			if files != 0 || txs != 0 {
				t.Fatalf("failed import left %d files and %d transactions", files, txs)
			}
			if o.Error == nil || o.Error.Message == "" {
				t.Fatalf("failure without a reason: %+v", o)
			}
		case StatusImported:
			// An empty file is no statement: it is left aside and named, never refused.
			if len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))) == 0 {
				if len(o.Ignored) != 1 || o.Ignored[0].File == nil || *o.Ignored[0].File != "b.ofx" {
					t.Fatalf("an empty file is not named as left aside: %+v", o.Ignored)
				}
			} else if errors.As(perr, &oe) {
				t.Fatalf("imported a file the reader refuses: %v", perr)
			}
			if txs < 7 || files < 1 || txs != o.NewTransactions {
				t.Fatalf("imported %d files, %d transactions; outcome %+v", files, txs, o)
			}
		default:
			t.Fatalf("outcome %+v", o)
		}
	})
}
