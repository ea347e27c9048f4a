// Package faults kills and starves the real binaries: kill -9 in the middle of an import must
// leave the database in the state before it or after it, never between, and the next import and
// the server must work as if nothing happened.
package faults

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binary builds cmd/<name> once per test run and returns its path.
func binary(t *testing.T, name string) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "faults-bin-")
		if buildErr != nil {
			return
		}
		for _, n := range []string{"lumo", "caderninho"} {
			out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, n), "github.com/lumo-caderninho/mcp/cmd/"+n).CombinedOutput()
			if err != nil {
				buildErr = fmt.Errorf("go build %s: %v\n%s", n, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(binDir, name)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// run runs a binary to completion and fails the test unless it succeeds.
func run(t *testing.T, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, out)
	}
	return string(out)
}

// killed runs a binary and kills it with SIGKILL after delay. finished is true when it ended on
// its own first.
func killed(t *testing.T, delay time.Duration, bin string, args ...string) (finished bool) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s ended with %v before the kill:\n%s", filepath.Base(bin), err, out.String())
		}
		return true
	case <-time.After(delay):
		cmd.Process.Kill() // SIGKILL: no deferred cleanup, no rollback by the process
		<-done
		return false
	}
}

// timed runs a binary to completion and returns how long it took.
func timed(t *testing.T, bin string, args ...string) time.Duration {
	t.Helper()
	start := time.Now()
	run(t, bin, args...)
	return time.Since(start)
}

// fingerprint describes what a database holds, independent of generated names: the row count of
// each catalogue table (prefix) by name, and the multiset of row counts of every other table (the
// data tables, whatever they are called), with those of the DuckDB files the catalogue names for
// lumo's apps whose rows are there alone. skip names bookkeeping tables that grow on every run.
func fingerprint(t *testing.T, dsn, prefix string, skip ...string) string {
	t.Helper()
	ctx := context.Background()
	db, err := sqldb.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("opening the database after the kill: %v", err)
	}
	defer db.Close()
	q := `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`
	if db.Engine() == "postgres" {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
	}
	names := query[string](t, db.SQL(), q)
	var catalogue, data []string
	for _, n := range names {
		if n == "lumo_migrations" || n == "schema_migrations" || contains(skip, n) {
			continue
		}
		c := query[int64](t, db.SQL(), `SELECT COUNT(*) FROM "`+n+`"`)[0]
		if strings.HasPrefix(n, prefix) {
			catalogue = append(catalogue, fmt.Sprintf("%s=%d", n, c))
		} else {
			data = append(data, fmt.Sprint(c))
		}
	}
	if prefix == "lumo_" && db.Engine() != "postgres" {
		data = append(data, loadFileCounts(t, db.SQL(), dsn)...)
	}
	sort.Strings(data)
	return strings.Join(catalogue, " ") + " data=" + strings.Join(data, ",")
}

// loadFileCounts are the row counts of the tables in the import files (beside the SQLite file
// dsn) of the loads of the apps whose rows are there alone.
func loadFileCounts(t *testing.T, db *sql.DB, dsn string) []string {
	t.Helper()
	var counts []string
	for _, load := range query[int64](t, db, "SELECT DISTINCT load_id FROM lumo_apps WHERE rows_in_file = 1 ORDER BY 1") {
		path := filepath.Join(columnar.LoadsDir(columnar.PathBeside(dsn)), fmt.Sprintf("load-%d.duckdb", load))
		file, err := sql.Open("duckdb", path+"?access_mode=read_only")
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range query[string](t, file, "SELECT table_name FROM duckdb_tables() WHERE table_name NOT LIKE 'lumo%' ORDER BY 1") {
			counts = append(counts, fmt.Sprint(query[int64](t, file, `SELECT COUNT(*) FROM "`+name+`"`)[0]))
		}
		file.Close()
	}
	return counts
}

func query[T any](t *testing.T, db *sql.DB, q string) []T {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// killPoints spreads n kills over a run that takes about full.
func killPoints(full time.Duration, n int) []time.Duration {
	var ds []time.Duration
	for i := 1; i <= n; i++ {
		ds = append(ds, full*time.Duration(i)/time.Duration(n+1))
	}
	return ds
}

// crashImport is the shared scenario: import old, then kill -9 imports of new at points spread
// over a full run, checking after each that the database holds old or new; then the next import
// completes and a tool call through the binary answers. grow (may be nil) turns the old source into
// the new one after the old import. Adding "kill -9 during a write" is one more call with a write
// command as new.
func crashImport(t *testing.T, bin, prefix string, skip []string, importOld []string, grow func(), importNew []string, serve []string, kills int) {
	t.Helper()
	dsn := storetest.DSN(t)
	run(t, bin, append([]string{"import", "--db", dsn}, importOld...)...)
	old := fingerprint(t, dsn, prefix, skip...)
	if grow != nil {
		grow()
	}
	scratch := storetest.DSN(t)
	full := timed(t, bin, append([]string{"import", "--db", scratch}, importNew...)...)
	want := fingerprint(t, scratch, prefix, skip...)
	t.Logf("a full import takes %v", full.Round(time.Millisecond))
	if old == want {
		t.Fatalf("the old and new states are the same; the test would prove nothing: %s", old)
	}
	interrupted := 0
	for _, d := range killPoints(full, kills) {
		finished := killed(t, d, bin, append([]string{"import", "--db", dsn}, importNew...)...)
		got := fingerprint(t, dsn, prefix, skip...)
		switch {
		case finished && got != want:
			t.Fatalf("a finished import left %s, want %s", got, want)
		case finished:
			// ended before the kill: the state is the new one, and the next kill starts from it
			old = want
		case got != old && got != want:
			t.Fatalf("kill -9 after %v left a state between old and new:\n got %s\n old %s\n new %s", d, got, old, want)
		default:
			interrupted++
			t.Logf("kill -9 after %v: the database holds the %s state", d.Round(time.Millisecond), map[bool]string{true: "new", false: "old"}[got == want])
		}
	}
	if interrupted == 0 {
		t.Errorf("no import was interrupted: every run finished before its kill")
	}
	run(t, bin, append([]string{"import", "--db", dsn}, importNew...)...)
	if got := fingerprint(t, dsn, prefix, skip...); got != want {
		t.Fatalf("after the kills, the import gives %s, want %s", got, want)
	}
	out := run(t, bin, append([]string{"call", "--db", dsn}, serve...)...)
	if strings.Contains(out, "Erro interno") {
		t.Fatalf("the server does not serve after the kills:\n%s", out)
	}
}

// lumoWorkspace writes a workspace of one tenant and one app whose fact table has rows rows.
func lumoWorkspace(t *testing.T, dir string, rows int) string {
	t.Helper()
	app := filepath.Join(dir, "apps", "vendas")
	if err := os.MkdirAll(app, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "workspace.yaml"), `tenants:
  - key: t1
    name: Tenant Um
    users:
      - {login: ana, name: Ana, token: tok-ana-falhas}
    desks:
      - {name: Vendas, members: [ana]}
    apps:
      - {key: vendas, source: apps/vendas, desk: Vendas, publishedAt: "2026-09-01T09:00:00-03:00"}
`)
	write(t, filepath.Join(app, "app.yaml"), `name: Vendas
description: Vendas geradas para o teste de falhas.
tables:
  - label: Vendas
    name: vendas
    kind: fact
    file: vendas.csv
    loadedAt: "2026-10-15T03:00:00-03:00"
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: DATA, label: Data, type: datetime}
      - {name: CLIENTE, label: Cliente, type: string}
      - {name: VALOR, label: Valor, type: number, role: measure, unit: BRL}
`)
	var b strings.Builder
	b.WriteString("ID,DATA,CLIENTE,VALOR\n")
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&b, "%d,2026-%02d-%02d %02d:%02d,Cliente %d,%d.%02d\n", i, i%12+1, i%28+1, i%24, i%60, i%997, i%5000, i%100)
	}
	write(t, filepath.Join(app, "vendas.csv"), b.String())
	return filepath.Join(dir, "workspace.yaml")
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestKillDuringLumoImport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills real processes; skipped with -short")
	}
	bin := binary(t, "lumo")
	small := lumoWorkspace(t, t.TempDir(), 1000)
	large := lumoWorkspace(t, t.TempDir(), 100000)
	// The larger workspace lives in another folder, so its import replaces the first one's tenant.
	crashImport(t, bin, "lumo_", []string{"lumo_ids", "lumo_rate_log"}, []string{small}, nil, []string{"--replace", large},
		[]string{"--user", "ana", "search_catalog", `{}`}, 4)
}

// ofxStatement is one OFX statement of n transactions for account acct in month (1..12).
func ofxStatement(acct string, month, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:UTF-8\nCHARSET:NONE\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n"+
		"<OFX>\n<SIGNONMSGSRSV1>\n<SONRS>\n<STATUS><CODE>0<SEVERITY>INFO</STATUS>\n<DTSERVER>2026%02d28235959\n<LANGUAGE>POR\n</SONRS>\n</SIGNONMSGSRSV1>\n"+
		"<BANKMSGSRSV1>\n<STMTTRNRS>\n<TRNUID>1\n<STATUS><CODE>0<SEVERITY>INFO</STATUS>\n<STMTRS>\n<CURDEF>BRL\n<BANKACCTFROM>\n<BANKID>0777\n<ACCTID>%s\n<ACCTTYPE>CHECKING\n</BANKACCTFROM>\n"+
		"<BANKTRANLIST>\n<DTSTART>2026%02d01\n<DTEND>2026%02d28\n", month, acct, month, month)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>2026%02d%02d\n<TRNAMT>-%d,%02d\n<FITID>F%02d%06d\n<MEMO>COMPRA %d\n</STMTTRN>\n",
			month, i%28+1, i%900+1, i%100, month, i, i%313)
	}
	b.WriteString("</BANKTRANLIST>\n<LEDGERBAL>\n<BALAMT>1000,00\n")
	fmt.Fprintf(&b, "<DTASOF>2026%02d28\n</LEDGERBAL>\n</STMTRS>\n</STMTTRNRS>\n</BANKMSGSRSV1>\n</OFX>\n", month)
	return b.String()
}

// caderninhoInstallation writes an installation with one connection holding statements for the
// months from..to of n transactions each.
func caderninhoInstallation(t *testing.T, dir string, from, to, n int) string {
	t.Helper()
	src := filepath.Join(dir, "ofx", "banco")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "installation.yaml"), `timezone: America/Sao_Paulo
people:
  - {key: ana, name: Ana}
spaces:
  - {key: casa, name: Casa, categories: [Mercado]}
connections:
  - {key: banco, institution: Banco Aurora, holder: ana, space: casa, source: ofx/banco}
`)
	for m := from; m <= to; m++ {
		write(t, filepath.Join(src, fmt.Sprintf("extrato-2026-%02d.ofx", m)), ofxStatement("12345-6", m, n))
	}
	return filepath.Join(dir, "installation.yaml")
}

func TestKillDuringCaderninhoImport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills real processes; skipped with -short")
	}
	bin := binary(t, "caderninho")
	dir := t.TempDir()
	path := caderninhoInstallation(t, dir, 1, 1, 3000)
	// The bank's next statements arrive in the same folder.
	grow := func() { caderninhoInstallation(t, dir, 2, 6, 3000) }
	crashImport(t, bin, "cad_", []string{"cad_ids", "cad_syncs"}, []string{path}, grow, []string{path},
		[]string{"caderninho_accounts", `{}`}, 4)
}
