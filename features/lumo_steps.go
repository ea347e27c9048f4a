package features

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// lumoWorld is one scenario's state: its database, its client session and the last answer.
type lumoWorld struct {
	mcpWorld
	t             *testing.T
	db            *store.DB
	resource      string
	timeout       time.Duration // query time limit of the next connection (0 = default)
	publicURL     string        // --public-url of the next connection ("" = none)
	lastPermalink string
	page          reportPage
	queryLog      queryLog // the servers' debug log (see rollup_steps.go)
	// columnar is the scenario's columnar copy with LUMO_COLUMNAR=on: every query then reads it
	// (synced on a miss), so the scenario checks the columnar store's answers. Its file is
	// columnarPath, beside which the scenario's imports write their own files, as lumo import
	// does: the copy reads the tables, rollups and value tables from there.
	columnar     *columnar.Store
	columnarPath string
	// awaitCopy: the scenario's servers wait for the copy's sync as lumo serve does, instead of
	// syncing it themselves (see copywait_steps.go); stopKeep stops its background sync.
	awaitCopy bool
	stopKeep  func()
}

// importOptions are the options of the scenario's imports: with LUMO_COLUMNAR=on, a sink writing
// the import's own DuckDB file beside the scenario's copy, which on SQLite is the only store of
// the app rows, as lumo import does on the embedded default.
func (w *lumoWorld) importOptions() store.ImportOptions {
	if w.columnar == nil {
		return store.ImportOptions{}
	}
	return store.ImportOptions{Sink: columnar.Deferred(columnar.Options{Path: w.columnarPath}).ImportSink(),
		SinkOnly: w.db.Engine() != "postgres"}
}

// importWorkspace imports fsys's workspace.yaml into the scenario's database.
func (w *lumoWorld) importWorkspace(ctx context.Context, fsys fs.FS) (store.Summary, error) {
	return w.db.ImportWorkspaceWith(ctx, fsys, "workspace.yaml", w.importOptions())
}

// columnarOn says whether the scenarios run their queries on the columnar store.
func columnarOn() bool { return os.Getenv("LUMO_COLUMNAR") == "on" }

// service is svc on the scenario's store: with LUMO_COLUMNAR=on, its queries read the columnar copy.
func (w *lumoWorld) service(svc *lumo.Service) *lumo.Service {
	svc.DB = w.db
	if w.columnar != nil {
		svc.Columnar, svc.ColumnarSyncOnMiss = w.columnar, !w.awaitCopy
	}
	return svc
}

func initLumoSteps(t *testing.T, sc *godog.ScenarioContext) {
	w := &lumoWorld{t: t}
	w.mcpWorld.subst = w.ids
	w.addGenericSteps(sc)
	sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
		if !external() {
			w.db = storetest.Open(t)
			if columnarOn() {
				w.columnarPath = filepath.Join(t.TempDir(), "lumo.duckdb")
				c, err := columnar.Open(ctx, columnar.Options{Path: w.columnarPath})
				if err != nil {
					return ctx, fmt.Errorf("LUMO_COLUMNAR=on: %w", err)
				}
				w.columnar = c
			}
		}
		return ctx, nil
	})
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		if w.session != nil {
			w.session.Close()
			w.session = nil
		}
		if w.db != nil {
			w.db.Close()
		}
		if w.stopKeep != nil {
			w.stopKeep()
			w.stopKeep = nil
		}
		w.awaitCopy = false
		if w.columnar != nil {
			w.columnar.Close()
			w.columnar = nil
		}
		return ctx, engineRead(w.queryLog.take())
	})
	initToolSteps(&w.mcpWorld, sc)
	initValuesSteps(w, sc)
	initLimitsSteps(w, sc)
	initPermalinkSteps(w, sc)
	initAdminSteps(w, sc)
	initCSVSteps(w, sc)
	initInitSteps(w, sc)
	initRollupSteps(w, sc)
	initCopyWaitSteps(w, sc)
	sc.Step(`^the demo workspace is imported$`, w.demoImported)
	sc.Step(`^I am connected as "([^"]*)"$`, w.connectedAs)
	sc.Step(`^the query time limit is (\d+) (nanosecond|seconds)$`, func(n int, unit string) {
		w.timeout = time.Duration(n)
		if unit == "seconds" {
			w.timeout *= time.Second
		}
	})
	sc.Step(`^I read the resource "([^"]*)"$`, w.readResource)
	sc.Step(`^reading the resource "([^"]*)" fails$`, w.readResourceFails)
	sc.Step(`^the resource text is the text of "([^"]*)" with '(.*)'$`, w.resourceMatchesTool)
}

func (w *lumoWorld) demoImported(ctx context.Context) error {
	if external() { // a foreign target holds the fixture already
		return nil
	}
	if ok, err := pristine(ctx, w.db); err != nil {
		return err
	} else if ok {
		db, err := demoCopy(ctx, w.t, w.columnarPath)
		if err != nil {
			return err
		}
		if db != nil { // SQLite: the scenario's database is a copy of the imported demo
			w.db.Close()
			w.db = db
			return nil
		}
	}
	_, err := w.importWorkspace(ctx, demo.Lumo)
	return err
}

func (w *lumoWorld) connectedAs(ctx context.Context, login string) error {
	if external() {
		return w.connectTarget(ctx, login, fixtureToken)
	}
	u, err := w.db.UserByLogin(ctx, login)
	if err != nil {
		return fmt.Errorf("user %s: %w", login, err)
	}
	log := slog.New(slog.NewTextHandler(&w.queryLog, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, err := lumo.NewServer(w.service(&lumo.Service{Log: log, Identity: lumo.FixedUser(u), QueryTimeout: w.timeout,
		PublicURL: w.publicURL}),
		lumo.Options{ValidateOutput: true})
	if err != nil {
		return err
	}
	// Every call of the scenario runs over REST too, on a service of its own (its own answer
	// cache), and must answer the same (see sameOverREST).
	rest, err := lumo.NewREST(w.service(&lumo.Service{Log: log, Identity: lumo.FixedUser(u), QueryTimeout: w.timeout,
		PublicURL: w.publicURL}), lumo.Options{ValidateOutput: true}, 0, nil)
	if err != nil {
		return err
	}
	w.mirror = restMirror(rest, nil)
	return w.connect(ctx, srv)
}

// ids replaces placeholders by ids read straight from the database (not through the code under
// test): "$app:<key>" (quoted: a JSON number; bare: digits in text), <col:app:table:COLUMN> and
// <expr:app:Label> (digits, for result keys such as "<col:vendas-comercial:vendas:VALOR>_SUM").
func (w *lumoWorld) ids(s string) (string, error) {
	var err error
	ctx := context.Background()
	s = appPlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		key := appPlaceholder.FindStringSubmatch(m)[2]
		var id int64
		var e error
		if external() {
			id, e = externalAppID(key)
		} else {
			id, e = appID(ctx, w.db, key)
		}
		if e != nil {
			err = e
		}
		return strconv.FormatInt(id, 10)
	})
	s = idPlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		parts := strings.Split(strings.Trim(m, "<>"), ":")
		var id int64
		var e error
		if external() {
			e = errNeedsOwnSetup
		} else if parts[0] == "col" && len(parts) == 4 {
			id, e = columnID(ctx, w.db, parts[1], parts[2], parts[3])
		} else if parts[0] == "expr" && len(parts) == 3 {
			id, e = expressionID(ctx, w.db, parts[1], parts[2])
		} else {
			e = fmt.Errorf("bad placeholder %s", m)
		}
		if e != nil {
			err = e
		}
		return strconv.FormatInt(id, 10)
	})
	return s, err
}

var (
	appPlaceholder = regexp.MustCompile(`("?)\$app:([a-z0-9_-]+)("?)`)
	idPlaceholder  = regexp.MustCompile(`<(col|expr):[^<>]+>`)
)

func (w *lumoWorld) readResource(ctx context.Context, uri string) error {
	uri, err := w.ids(uri)
	if err != nil {
		return err
	}
	res, err := w.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return err
	}
	if len(res.Contents) != 1 {
		return fmt.Errorf("resource %s has %d contents", uri, len(res.Contents))
	}
	w.resource = res.Contents[0].Text
	return nil
}

func (w *lumoWorld) readResourceFails(ctx context.Context, uri string) error {
	uri, err := w.ids(uri)
	if err != nil {
		return err
	}
	if _, err := w.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
		return fmt.Errorf("reading %s succeeded", uri)
	}
	return nil
}

func (w *lumoWorld) resourceMatchesTool(ctx context.Context, tool, args string) error {
	if err := w.call(ctx, tool, args); err != nil {
		return err
	}
	if w.resource != w.text {
		return fmt.Errorf("resource text differs from %s text:\n%s", tool, cmp.Diff(w.text, w.resource))
	}
	return nil
}

// lookup walks a dotted path with [n] and [*] steps; multi reports whether [*] was used.
func lookup(v any, path string) (vals []any, multi bool) {
	cur := []any{v}
	for _, part := range splitPath(path) {
		var next []any
		for _, c := range cur {
			switch {
			case part == "[*]":
				multi = true
				if l, ok := c.([]any); ok {
					next = append(next, l...)
				}
			case strings.HasPrefix(part, "["):
				i, _ := strconv.Atoi(strings.Trim(part, "[]"))
				if l, ok := c.([]any); ok && i < len(l) {
					next = append(next, l[i])
				}
			default:
				if m, ok := c.(map[string]any); ok {
					if e, ok := m[part]; ok {
						next = append(next, e)
					}
				}
			}
		}
		cur = next
	}
	return cur, multi
}

func splitPath(p string) []string {
	var parts []string
	for _, seg := range strings.Split(p, ".") {
		for seg != "" {
			i := strings.Index(seg, "[")
			switch {
			case i < 0:
				parts, seg = append(parts, seg), ""
			case i > 0:
				parts, seg = append(parts, seg[:i]), seg[i:]
			default:
				j := strings.Index(seg, "]")
				parts, seg = append(parts, seg[:j+1]), seg[j+1:]
			}
		}
	}
	return parts
}

// subset reports whether want is deep-included in got (objects: every wanted key matches).
func subset(want, got any) bool {
	switch wv := want.(type) {
	case map[string]any:
		gm, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, e := range wv {
			g, ok := gm[k]
			if !ok || !subset(e, g) {
				return false
			}
		}
		return true
	case []any:
		gl, ok := got.([]any)
		if !ok || len(gl) != len(wv) {
			return false
		}
		for i := range wv {
			if !subset(wv[i], gl[i]) {
				return false
			}
		}
		return true
	}
	return cmp.Equal(want, got)
}
