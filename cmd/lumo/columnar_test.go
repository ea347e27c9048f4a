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
	"os/exec"
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
// writes the app rows into its own DuckDB file beside the SQLite file, and nowhere else; lumo
// serve answers queries from it, a second server on the same database takes the next copy
// (DuckDB lets one process hold a file) and reads the same file, every answer equals the one a
// server gave from rows in the database, and a server without DuckDB refuses those apps.
func TestColumnarCopyFromImportToServe(t *testing.T) {
	ctx := context.Background()
	bin, dir, ws, dsn := demoBeside(t)
	// With --columnar off nothing is copied, no DuckDB file is made, and the rows stay in the
	// database (as an earlier lumo kept them).
	out, err := lumoCLI(t, bin, "import", "--db", dsn, "--columnar", "off", filepath.Join(ws, "workspace.yaml"))
	if err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "lumo.duckdb")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("an import with --columnar off made a DuckDB file: %v", err)
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
	off := startReplica(t, bin, dsn, "--user", "bruno", "--columnar", "off")
	want := restQuery(t, off.url, args) // from the rows in the database
	if !strings.Contains(off.logs.String(), `"engine":"sqlite"`) {
		t.Errorf("--columnar off did not run the query on the database:\n%s", off.logs)
	}

	// By default the import writes the rows into its own file alone; the
	// tables the database held go (an upgrade), and SQLite gives their space back.
	held, err := os.Stat(dsn)
	if err != nil {
		t.Fatal(err)
	}
	out, err = lumoCLI(t, bin, "import", "--db", dsn, filepath.Join(ws, "workspace.yaml"))
	if err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	if want := "Os dados desses tenants saíram do banco: 10 tabelas e rollups que o banco guardava agora estão só no arquivo DuckDB da importação; o banco devolveu "; !strings.Contains(out, want) {
		t.Fatalf("the import's output lacks %q:\n%s", want, out)
	}
	if after, err := os.Stat(dsn); err != nil || 2*after.Size() > held.Size() {
		t.Errorf("the database file is %d bytes after the rows left it, %d before (%v)", after.Size(), held.Size(), err)
	}
	// Every table, rollup and value table is in the import's own file: the sync copies nothing.
	if want := "Cópia colunar atualizada em " + filepath.Join(dir, "lumo.duckdb") + ": 10 tabelas gravadas durante a importação em " +
		filepath.Join(dir, "lumo.loads") + ", nada copiado do banco, em "; !strings.Contains(out, want) {
		t.Fatalf("the import's output lacks %q:\n%s", want, out)
	}
	db, err = store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	var dataTables int
	err = db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'lumo%' AND name NOT LIKE 'sqlite%' AND name <> 'schema_migrations'").Scan(&dataTables)
	db.Close()
	if err != nil || dataTables != 0 {
		t.Fatalf("after the default import the database holds %d tables besides the catalogue (%v), want none", dataTables, err)
	}
	// A server without DuckDB cannot answer those apps: one already running says so in
	// Portuguese, and a new one refuses to start.
	if got := restError(t, off.url, args); !strings.Contains(got, "COLUMNAR_REQUIRED") || !strings.Contains(got, "arquivo DuckDB da importação") {
		t.Errorf("a --columnar off server after the import answered %s, want COLUMNAR_REQUIRED", got)
	}
	refused := exec.Command(bin, "serve", "--db", dsn, "--columnar", "off")
	if msg, err := refused.CombinedOutput(); err == nil || !strings.Contains(string(msg), "guardam os dados só no arquivo DuckDB da importação") {
		t.Errorf("lumo serve --columnar off on apps kept in DuckDB files: %v\n%s", err, msg)
	}
	// lumo call reads those files too.
	if out, err := lumoCLI(t, bin, "call", "--db", dsn, "--user", "bruno", "query", args); err != nil || !strings.Contains(out, "Centro") {
		t.Errorf("lumo call after the import: %v\n%s", err, out)
	}

	// Every server reads the import's file.
	first := startReplica(t, bin, dsn, "--user", "bruno")
	second := startReplica(t, bin, dsn, "--user", "bruno")
	for _, r := range []*replica{first, second} {
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(r.logs.String(), `"msg":"columnar copy: synced"`) &&
			!strings.Contains(r.logs.String(), `"path":"`+filepath.Join(dir, "lumo.duckdb")+`"`); {
			if time.Now().After(deadline) {
				t.Fatalf("no columnar copy synced:\n%s", r.logs)
			}
			time.Sleep(50 * time.Millisecond)
		}
		got := restQuery(t, r.url, args)
		if diff := cmp.Diff(want["rows"], got["rows"]); diff != "" || got["totalRows"] != want["totalRows"] {
			t.Errorf("the import's file answers otherwise than the database did (-database +file):\n%s", diff)
		}
		if !strings.Contains(r.logs.String(), `"engine":"duckdb"`) || strings.Contains(r.logs.String(), `"engine":"sqlite"`) {
			t.Errorf("the query did not run on the columnar copy:\n%s", r.logs)
		}
	}
	if !strings.Contains(second.logs.String(), filepath.Join(dir, "lumo-2.duckdb")) {
		t.Errorf("the second server did not take the second copy:\n%s", second.logs)
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

// restError is the body of a query over the REST mirror at base that fails.
func restError(t *testing.T, base, args string) string {
	t.Helper()
	status, body := restPost(t, base, args)
	if status == http.StatusOK {
		t.Fatalf("REST query answered 200: %s", body)
	}
	return string(body)
}

// restPost posts a query over the REST mirror at base and returns its status and body.
func restPost(t *testing.T, base, args string) (int, []byte) {
	t.Helper()
	resp, err := http.Post(base+"/tools/query", "application/json", bytes.NewBufferString(args))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

// restQuery is the structured answer of query over the REST mirror at base.
func restQuery(t *testing.T, base, args string) map[string]any {
	t.Helper()
	status, body := restPost(t, base, args)
	if status != http.StatusOK {
		t.Fatalf("REST query: %d %s", status, body)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestServeMovesRowsOut: a database whose rows an earlier lumo kept in SQLite (here an import
// with --columnar off) gets them moved into the import's DuckDB file by the first lumo serve on
// the embedded default, which says so, and answers as before.
func TestServeMovesRowsOut(t *testing.T) {
	bin, _, ws, dsn := demoBeside(t)
	if out, err := lumoCLI(t, bin, "import", "--db", dsn, "--columnar", "off", filepath.Join(ws, "workspace.yaml")); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	args := `{"appId": 1, "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}]}`
	before, err := lumoCLI(t, bin, "call", "--db", dsn, "--user", "ana", "query", args)
	if err != nil {
		t.Fatalf("call: %v\n%s", err, before)
	}
	r := startReplica(t, bin, dsn, "--user", "ana")
	if logs := r.logs.String(); !strings.Contains(logs, `"msg":"app rows moved out of the database into DuckDB files","tables":10,`) {
		t.Fatalf("the server did not say it moved the 10 tables:\n%s", logs)
	}
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	var left int
	err = db.SQL().QueryRow("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'lumo%' AND name NOT LIKE 'sqlite%' AND name <> 'schema_migrations'").Scan(&left)
	db.Close()
	if err != nil || left != 0 {
		t.Fatalf("after the move the database holds %d tables besides the catalogue (%v)", left, err)
	}
	if after, err := lumoCLI(t, bin, "call", "--db", dsn, "--user", "ana", "query", args); err != nil || after != before {
		t.Errorf("after the move lumo call answers otherwise (%v):\n%s\nbefore:\n%s", err, after, before)
	}
}

// demoBeside is the built binary and, in a new folder dir, a copy of the demo workspace (ws) and
// the path of a database beside it (dsn).
func demoBeside(t *testing.T) (bin, dir, ws, dsn string) {
	t.Helper()
	bin, dir = buildLumo(t), t.TempDir()
	ws = filepath.Join(dir, "ws")
	if err := os.CopyFS(ws, demo.Lumo); err != nil {
		t.Fatal(err)
	}
	return bin, dir, ws, filepath.Join(dir, "lumo.db")
}
