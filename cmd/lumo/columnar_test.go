//go:build cgo

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
)

// TestColumnarCopyFromImportToServe runs the built binary on the embedded default: lumo import
// writes lumo.duckdb beside the SQLite file, lumo serve answers queries from it, a second server
// on the same database takes the next copy (DuckDB lets one process hold a file) and syncs it
// itself, and every answer equals the one of a server with --columnar off.
func TestColumnarCopyFromImportToServe(t *testing.T) {
	ctx := context.Background()
	bin := buildLumo(t)
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.CopyFS(ws, demo.Lumo); err != nil {
		t.Fatal(err)
	}
	dsn := filepath.Join(dir, "lumo.db")
	// The demo's tables are under --columnar-from 100000: nothing is copied, and no DuckDB file is made.
	out, err := lumoCLI(t, bin, "import", "--db", dsn, "--columnar-from", "100000", filepath.Join(ws, "workspace.yaml"))
	if err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	if want := "Cópia colunar: nada a copiar, nenhum app tem tabela com 100.000 linhas ou mais (--columnar-from)"; !strings.Contains(out, want) {
		t.Fatalf("the import's output lacks %q:\n%s", want, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "lumo.duckdb")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("an import with nothing to copy made a DuckDB file: %v", err)
	}
	// By default (--columnar-from 0) every app is copied.
	out, err = lumoCLI(t, bin, "import", "--db", dsn, filepath.Join(ws, "workspace.yaml"))
	if err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	// Every table, rollup and value table is in the import's own file: the sync copies nothing.
	if want := "Cópia colunar atualizada em " + filepath.Join(dir, "lumo.duckdb") + ": 10 tabelas gravadas durante a importação em " +
		filepath.Join(dir, "lumo.loads") + ", nada copiado do banco, em "; !strings.Contains(out, want) {
		t.Fatalf("the import's output lacks %q:\n%s", want, out)
	}
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	var appID int64
	err = db.SQL().QueryRowContext(ctx, "SELECT id FROM lumo_apps WHERE app_key = 'vendas-comercial'").Scan(&appID)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	args := fmt.Sprintf(`{"appId": %d, "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor da venda", "agg": "sum"},
		{"ref": "Vendas.Data", "bucket": "month"}], "orderBy": [{"ref": "Vendas.Valor da venda", "agg": "sum", "dir": "desc"}], "limit": 50}`, appID)

	t.Setenv("LUMO_LOG_LEVEL", "debug")
	// By default every query reads the copy, however small its tables.
	first := startReplica(t, bin, dsn, "--user", "bruno")
	off := startReplica(t, bin, dsn, "--user", "bruno", "--columnar", "off")
	second := startReplica(t, bin, dsn, "--user", "bruno")
	small := startReplica(t, bin, dsn, "--user", "bruno", "--columnar-from", "100000")
	want := restQuery(t, off.url, args)
	for _, r := range []*replica{first, second} {
		// The second server copies the data itself: until then its queries read the database.
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(r.logs.String(), `"msg":"columnar copy: synced"`) &&
			!strings.Contains(r.logs.String(), `"path":"`+filepath.Join(dir, "lumo.duckdb")+`"`); {
			if time.Now().After(deadline) {
				t.Fatalf("no columnar copy synced:\n%s", r.logs)
			}
			time.Sleep(50 * time.Millisecond)
		}
		got := restQuery(t, r.url, args)
		if diff := cmp.Diff(want["rows"], got["rows"]); diff != "" || got["totalRows"] != want["totalRows"] {
			t.Errorf("the columnar copy answers otherwise than the database (-database +copy):\n%s", diff)
		}
		if !strings.Contains(r.logs.String(), `"engine":"duckdb"`) {
			t.Errorf("the query did not run on the columnar copy:\n%s", r.logs)
		}
	}
	if !strings.Contains(second.logs.String(), filepath.Join(dir, "lumo-2.duckdb")) {
		t.Errorf("the second server did not take the second copy:\n%s", second.logs)
	}
	if strings.Contains(small.logs.String(), `"msg":"columnar copy",`) {
		t.Errorf("a server whose apps are all under --columnar-from opened DuckDB:\n%s", small.logs)
	}
	for _, r := range []*replica{off, small} {
		if got := restQuery(t, r.url, args); !cmp.Equal(want["rows"], got["rows"]) {
			t.Errorf("answers differ between servers reading the database: %v, %v", want["rows"], got["rows"])
		}
		if !strings.Contains(r.logs.String(), `"engine":"sqlite"`) || strings.Contains(r.logs.String(), `"engine":"duckdb"`) {
			t.Errorf("--columnar off, and queries of tables under --columnar-from, run on the database:\n%s", r.logs)
		}
	}
	// While servers hold lumo.duckdb and lumo-2.duckdb, an import writes its own file, which
	// both read without copying its tables.
	attached := regexp.MustCompile(`"msg":"columnar copy: synced"[^\n]*"attached":[1-9]`)
	before := map[*replica]int{}
	for _, r := range []*replica{first, second} {
		before[r] = len(attached.FindAllString(r.logs.String(), -1))
	}
	out, err = lumoCLI(t, bin, "import", "--db", dsn, filepath.Join(ws, "workspace.yaml"))
	if err != nil || !strings.Contains(out, "aberta por um lumo serve em execução: em instantes ele passa a ler, sem cópia, ") {
		t.Fatalf("import while a server holds the copy: %v\n%s", err, out)
	}
	for _, r := range []*replica{first, second} {
		for deadline := time.Now().Add(30 * time.Second); len(attached.FindAllString(r.logs.String(), -1)) <= before[r]; {
			if time.Now().After(deadline) {
				t.Fatalf("the server did not read the import's file:\n%s", r.logs)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if got := restQuery(t, r.url, args); !cmp.Equal(want["rows"], got["rows"]) {
			t.Errorf("after the import the copy answers otherwise than before: %v, %v", want["rows"], got["rows"])
		}
	}
}

// restQuery is the structured answer of query over the REST mirror at base.
func restQuery(t *testing.T, base, args string) map[string]any {
	t.Helper()
	resp, err := http.Post(base+"/tools/query", "application/json", bytes.NewBufferString(args))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("REST query: %d %s", resp.StatusCode, body)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
