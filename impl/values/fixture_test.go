package values_test

import (
	"context"
	"io"
	"io/fs"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lumo-caderninho/mcp/impl/semantic"
	"github.com/lumo-caderninho/mcp/impl/sqldialect"
	"github.com/lumo-caderninho/mcp/impl/store"
	"github.com/lumo-caderninho/mcp/impl/values"
)

var ctx = context.Background()

// workspaceYAML is a one-tenant, one-user workspace with the app in apps/app.
const workspaceYAML = `tenants:
  - key: t1
    name: Tenant
    users:
      - {login: ana, name: Ana, token: tok-ana-values}
    desks:
      - {name: Mesa, members: [ana]}
    apps:
      - {key: app, source: apps/app, desk: Mesa}
`

// lines generates a file's lines one by one; ok is false after the last.
type lines func() (line string, ok bool)

// genFS is a workspace whose small files are in files and whose large CSVs are generated while
// the importer reads them, in constant memory.
type genFS struct {
	files     fstest.MapFS
	generated map[string]func() lines
}

func (g genFS) Open(name string) (fs.File, error) {
	if gen, ok := g.generated[name]; ok {
		return &genFile{name: name, next: gen()}, nil
	}
	return g.files.Open(name)
}

type genFile struct {
	name string
	next lines
	buf  []byte
	done bool
}

func (f *genFile) Read(p []byte) (int, error) {
	for len(f.buf) < len(p) && !f.done {
		line, ok := f.next()
		if !ok {
			f.done = true
			break
		}
		f.buf = append(f.buf, line...)
		f.buf = append(f.buf, '\n')
	}
	if len(f.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}

func (f *genFile) Stat() (fs.FileInfo, error) { return genInfo(f.name), nil }
func (f *genFile) Close() error               { return nil }

type genInfo string

func (i genInfo) Name() string       { return string(i) }
func (i genInfo) Size() int64        { return 0 }
func (i genInfo) Mode() fs.FileMode  { return 0o444 }
func (i genInfo) ModTime() time.Time { return time.Time{} }
func (i genInfo) IsDir() bool        { return false }
func (i genInfo) Sys() any           { return nil }

// importApp imports a workspace whose only app is appYAML with its CSVs (fixed text in csv,
// generated in gen, paths relative to the app folder) and returns the app as ana sees it.
func importApp(tb testing.TB, db *store.DB, appYAML string, csv map[string]string, gen map[string]func() lines) *semantic.App {
	tb.Helper()
	g := genFS{files: fstest.MapFS{
		"workspace.yaml":    {Data: []byte(workspaceYAML)},
		"apps/app/app.yaml": {Data: []byte(appYAML)},
	}, generated: map[string]func() lines{}}
	for name, text := range csv {
		g.files["apps/app/"+name] = &fstest.MapFile{Data: []byte(text)}
	}
	for name, f := range gen {
		g.generated["apps/app/"+name] = f
	}
	if _, err := db.ImportWorkspace(ctx, g, "workspace.yaml"); err != nil {
		tb.Fatalf("importing: %v", err)
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		tb.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil || len(apps) != 1 {
		tb.Fatalf("reading the app: %v (%d apps)", err, len(apps))
	}
	return apps[0]
}

func reader(db *store.DB) values.Reader {
	return values.Reader{DB: db.SQL(), Dialect: db.Dialect()}
}

func column(tb testing.TB, a *semantic.App, ref string) *semantic.Column {
	tb.Helper()
	c, err := a.ResolveColumn(ref)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func isPostgres(db *store.DB) bool { return db.Engine() == sqldialect.PostgresName }
