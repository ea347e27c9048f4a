//go:build cgo

package lumo

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

// clientsWorkspace is two tenants, each with one user who sees one app "clientes" holding one row.
// Two workspaces made by it give their apps and tables the same ids in two fresh databases, so
// their copied tables have the same names.
func clientsWorkspace(tenants ...[3]string) fstest.MapFS { // each: tenant key, user login, "client,value"
	ws := "tenants:\n"
	fs := fstest.MapFS{}
	for _, tn := range tenants {
		ws += fmt.Sprintf(`  - key: %[1]s
    name: %[1]s
    users:
      - {login: %[2]s, name: %[2]s, token: tok-%[2]s-origin}
    desks:
      - {name: Mesa, members: [%[2]s]}
    apps:
      - {key: clientes, source: apps/%[1]s, desk: Mesa}
`, tn[0], tn[1])
		fs["apps/"+tn[0]+"/app.yaml"] = &fstest.MapFile{Data: []byte(`name: Clientes
tables:
  - label: Clientes
    name: clientes
    kind: fact
    file: clientes.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: CLIENTE, label: Cliente, type: string}
      - {name: VALOR, label: Valor, type: number, role: measure}
`)}
		fs["apps/"+tn[0]+"/clientes.csv"] = &fstest.MapFile{Data: []byte("ID,CLIENTE,VALOR\n1," + tn[2] + "\n")}
	}
	fs["workspace.yaml"] = &fstest.MapFile{Data: []byte(ws)}
	return fs
}

var (
	// The database the copies were made from, and the one an operator puts at its address.
	oldTenants = clientsWorkspace([3]string{"alfa", "ana", "Segredo Alfa S.A.,987654.32"}, [3]string{"omega", "olga", "Omega Oculto,5"})
	newTenants = clientsWorkspace([3]string{"beta", "bea", "Beta Ltda,10"}, [3]string{"gama", "gil", "Gama ME,7"})
)

type loginKey struct{}

// replica is one lumo server: its database pool, its columnar copy (a file of its own) and its
// Service, whose result cache is on.
type replica struct {
	db   *store.DB
	copy *columnar.Store
	svc  *Service
}

func openReplica(t *testing.T, dsn, copyPath string) *replica {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	c, err := columnar.Open(ctx, columnar.Options{Path: copyPath})
	if err != nil {
		t.Fatal(err)
	}
	r := &replica{db: db, copy: c}
	r.svc = &Service{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Columnar: c, ColumnarSyncOnMiss: true,
		Identity: func(ctx context.Context, _ *mcp.RequestExtra) (*store.User, error) {
			return r.db.UserByLogin(ctx, ctx.Value(loginKey{}).(string))
		}}
	t.Cleanup(r.close)
	return r
}

func (r *replica) close() {
	if r.db != nil {
		r.copy.Close()
		r.db.Close()
		r.db = nil
	}
}

// reconnect is the replica reopening its database pool (a SQLite file replaced under a running
// process is still its old file), its columnar copy left open as it was.
func (r *replica) reconnect(t *testing.T, dsn string) {
	t.Helper()
	r.db.Close()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	r.db, r.svc.DB = db, db
}

// answer is what login's app answers for clients and their summed values, one "client value" a row.
func (r *replica) answer(t *testing.T, login string) string {
	t.Helper()
	ctx := context.WithValue(context.Background(), loginKey{}, login)
	u, err := r.db.UserByLogin(ctx, login)
	if err != nil {
		t.Fatal(err)
	}
	apps, err := r.db.VisibleApps(ctx, u)
	if err != nil || len(apps) != 1 {
		t.Fatalf("%s sees %d apps (%v)", login, len(apps), err)
	}
	out, err := r.svc.Query(ctx, &lumoapi.QueryInput{AppId: lumoapi.AppId(apps[0].ID),
		Fields: []lumoapi.Field{{Ref: "Clientes.Cliente"}, {Ref: "Clientes.Valor", Agg: lumoapi.NewOptAgg(lumoapi.AggSum)}}})
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, row := range out.Rows {
		rows = append(rows, fmt.Sprintf("%s %v", row[0].String, row[1].Float64))
	}
	return strings.Join(rows, "; ")
}

func importInto(t *testing.T, dsn string, ws fstest.MapFS) {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if ws == nil {
		return // migrated, empty
	}
	if _, err := db.ImportWorkspace(context.Background(), ws, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
}

// operatorDatabase is the database at one address, which an operator can delete and make anew,
// back up and restore, as the test's engine (LUMO_TEST_DB) allows.
type operatorDatabase struct {
	dsn    string
	schema string // PostgreSQL: the schema standing for the database
	backup string
}

func (d *operatorDatabase) admin(t *testing.T) *sql.DB {
	t.Helper()
	a, err := sql.Open("postgres", d.dsn)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (d *operatorDatabase) exec(t *testing.T, statements ...string) {
	t.Helper()
	a := d.admin(t)
	defer a.Close()
	for _, st := range statements {
		if _, err := a.Exec(st); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
	}
}

// recreate deletes the database and makes an empty one at the same address (rm lumo.db; DROP
// DATABASE and CREATE DATABASE under the same DSN).
func (d *operatorDatabase) recreate(t *testing.T) {
	t.Helper()
	if d.schema != "" {
		d.exec(t, "DROP SCHEMA "+d.schema+" CASCADE", "CREATE SCHEMA "+d.schema)
		return
	}
	for _, f := range []string{d.dsn, d.dsn + "-wal", d.dsn + "-shm"} {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}

// takeBackup copies the database as it is now.
func (d *operatorDatabase) takeBackup(t *testing.T) {
	t.Helper()
	if d.schema == "" {
		d.backup = d.dsn + ".bak"
		db, err := sql.Open("sqlite", d.dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec("VACUUM INTO ?", d.backup); err != nil {
			t.Fatal(err)
		}
		return
	}
	d.backup = d.schema + "_bak"
	a := d.admin(t)
	defer a.Close()
	rows, err := a.Query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'", d.schema)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	rows.Close()
	st := []string{"CREATE SCHEMA " + d.backup}
	for _, tb := range tables {
		st = append(st, fmt.Sprintf(`CREATE TABLE %[1]s."%[3]s" (LIKE %[2]s."%[3]s" INCLUDING ALL)`, d.backup, d.schema, tb),
			fmt.Sprintf(`INSERT INTO %[1]s."%[3]s" SELECT * FROM %[2]s."%[3]s"`, d.backup, d.schema, tb))
	}
	d.exec(t, st...)
	t.Cleanup(func() { d.exec(t, "DROP SCHEMA IF EXISTS "+d.backup+" CASCADE") })
}

// restore puts the backup in the database's place.
func (d *operatorDatabase) restore(t *testing.T) {
	t.Helper()
	if d.schema != "" {
		d.exec(t, "DROP SCHEMA "+d.schema+" CASCADE", "ALTER SCHEMA "+d.backup+" RENAME TO "+d.schema)
		return
	}
	d.recreate(t)
	b, err := os.ReadFile(d.backup)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d.dsn, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestColumnarCopyIsBoundToItsDatabase: a columnar copy answers only for the database it was made
// from. After an operator deletes the database and imports again (rm lumo.db, or DROP and CREATE
// DATABASE under the same DSN), or restores a backup and imports before any sync, a new tenant's
// user must get its own rows, never the old database's, from a server restarted on its old copy
// file and from a replica that kept running (its copy and, on PostgreSQL, its pool and caches).
func TestColumnarCopyIsBoundToItsDatabase(t *testing.T) {
	paths := []struct {
		name   string
		before func(d *operatorDatabase, t *testing.T) // with the fresh database at the address
		change func(d *operatorDatabase, t *testing.T) // after the old tenants were imported and copied
	}{
		{"database made anew at the same address", func(*operatorDatabase, *testing.T) {}, (*operatorDatabase).recreate},
		{"backup restored, then imported before a sync", (*operatorDatabase).takeBackup, (*operatorDatabase).restore},
	}
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			dsn := storetest.DSN(t)
			d := &operatorDatabase{dsn: dsn}
			if sqldb.IsPostgres(dsn) {
				u, err := url.Parse(dsn)
				if err != nil {
					t.Fatal(err)
				}
				d.schema = u.Query().Get("search_path")
			}
			dir := t.TempDir()
			importInto(t, dsn, nil)
			p.before(d, t)
			importInto(t, dsn, oldTenants)

			restarted := openReplica(t, dsn, filepath.Join(dir, "restarted.duckdb"))
			running := openReplica(t, dsn, filepath.Join(dir, "running.duckdb"))
			for _, r := range []*replica{restarted, running} {
				if got := r.answer(t, "ana"); got != "Segredo Alfa S.A. 987654.32" {
					t.Fatalf("before: ana gets %q", got)
				}
				if got := r.answer(t, "olga"); got != "Omega Oculto 5" {
					t.Fatalf("before: olga gets %q", got)
				}
				if !r.copy.Holds(mustApp(t, r.db, "ana")) {
					t.Fatal("before: the copy does not hold ana's app, so this test would prove nothing")
				}
			}
			restarted.close()
			if sqldb.IsPostgres(dsn) {
				// DROP SCHEMA waits for no one: the running replica's pool stays open through it.
				p.change(d, t)
			} else {
				running.db.Close()
				p.change(d, t)
			}
			importInto(t, dsn, newTenants)
			if !sqldb.IsPostgres(dsn) {
				running.reconnect(t, dsn)
			}
			restarted = openReplica(t, dsn, filepath.Join(dir, "restarted.duckdb"))

			for name, r := range map[string]*replica{"restarted on its old copy": restarted, "running": running} {
				if got := r.answer(t, "bea"); got != "Beta Ltda 10" {
					t.Errorf("%s: bea gets %q, want %q", name, got, "Beta Ltda 10")
				}
				if got := r.answer(t, "gil"); got != "Gama ME 7" {
					t.Errorf("%s: gil gets %q, want %q", name, got, "Gama ME 7")
				}
				if !r.copy.Holds(mustApp(t, r.db, "bea")) {
					t.Errorf("%s: the copy was not rebuilt for the new database", name)
				}
				// Nothing of the old database is left in the copy: its two data tables (d...)
				// and their value tables, tables or views of a file the new database's sync
				// wrote, every one stamped by that sync.
				var n, unstamped int
				if err := r.copy.DB().(*sql.DB).QueryRowContext(context.Background(),
					"SELECT COUNT(*) FILTER (WHERE name LIKE 'd%'), COUNT(*) FILTER (WHERE name NOT IN (SELECT sql_name FROM lumo_columnar_loads)) "+
						"FROM (SELECT table_name AS name FROM duckdb_tables() WHERE database_name = current_database() "+
						"UNION ALL SELECT view_name FROM duckdb_views() WHERE database_name = current_database() AND NOT internal) "+
						"WHERE name NOT LIKE 'lumo_columnar_%'").Scan(&n, &unstamped); err != nil {
					t.Fatal(err)
				}
				if n != 2 || unstamped != 0 {
					t.Errorf("%s: the copy holds %d data tables (want the new database's 2) and %d tables no sync stamped", name, n, unstamped)
				}
			}
			if _, err := restarted.db.UserByLogin(context.Background(), "ana"); err == nil {
				t.Error("the old tenant's user is still in the new database: the test did not change it")
			}
		})
	}
}

func mustApp(t *testing.T, db *store.DB, login string) *semantic.App {
	return storetest.OnlyApp(t, db, login)
}
