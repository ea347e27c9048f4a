package values_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/bench/genfs"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/values"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
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

// lines generates a file's lines one by one, as text; ok is false after the last.
type lines func() (line string, ok bool)

// asBytes adapts a text line generator to genfs.
func asBytes(f func() lines) func() genfs.Lines {
	return func() genfs.Lines {
		next := f()
		return func() ([]byte, bool) {
			line, ok := next()
			return []byte(line), ok
		}
	}
}

// importApp imports a workspace whose only app is appYAML with its CSVs (fixed text in csv,
// generated in gen, paths relative to the app folder) and returns the app as ana sees it.
func importApp(tb testing.TB, db *store.DB, appYAML string, csv map[string]string, gen map[string]func() lines) *semantic.App {
	tb.Helper()
	g := genfs.FS{Files: fstest.MapFS{
		"workspace.yaml":    {Data: []byte(workspaceYAML)},
		"apps/app/app.yaml": {Data: []byte(appYAML)},
	}, Generated: map[string]func() genfs.Lines{}}
	for name, text := range csv {
		g.Files["apps/app/"+name] = &fstest.MapFile{Data: []byte(text)}
	}
	for name, f := range gen {
		g.Generated["apps/app/"+name] = asBytes(f)
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
