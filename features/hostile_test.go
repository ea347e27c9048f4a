package features

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore/cadstoretest"
	caderninhodemo "github.com/lumo-caderninho/mcp/impl/caderninho/demo"
	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
	"github.com/lumo-caderninho/mcp/impl/lumo"
	lumodemo "github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// Outcomes a hostile call may have.
const (
	toolError = "isError"  // an isError result with a Portuguese message
	rpcError  = "rpc"      // a JSON-RPC error: a protocol-level problem
	answered  = "answered" // a legitimate answer (e.g. a SQL fragment searched as plain text) or a clear isError
	// sessionLost: go-sdk v1.8.0 refuses JSON nested deeper than 1000 levels by closing the
	// session (a read error ends the connection). Nothing is written and the server keeps serving
	// new sessions; on stdio the client must reconnect. Reported in the issue.
	sessionLost = "sessionLost"
)

// hostile is one malformed or hostile call.
type hostile struct {
	name string
	tool string
	args string // raw JSON of the arguments, sent as they are
	want string // toolError, rpcError or answered
	code string // the structured error code, when want is toolError and it matters
}

const (
	dropTable = `'; DROP TABLE x; --`
	orTrue    = `\" OR 1=1`
)

var (
	mb      = strings.Repeat("a", 1<<20)
	badUTF8 = "\xff\xfe\xc3\x28"
)

// list builds a JSON array of n copies of item.
func list(n int, item string) string {
	return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
}

// nested builds n levels of arrays around a number.
func nested(n int) string { return strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }

// nestedObjects builds n levels of {"a": ...}.
func nestedObjects(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }

// hostileCommon are the cases every tool of both servers gets.
func hostileCommon(tool string) []hostile {
	return []hostile{
		{name: "arguments are an array", tool: tool, args: `[1, 2]`, want: toolError},
		{name: "arguments are a string", tool: tool, args: `"x"`, want: toolError},
		{name: "arguments are a number", tool: tool, args: `42`, want: toolError},
		{name: "unknown field with a 1 MB name", tool: tool, args: `{"` + mb + `": 1}`, want: toolError, code: "INVALID_ARGUMENTS"},
		// the answer names the field back, and the name is the prefix of Go's decoding errors (issue #48)
		{name: "unknown field named json", tool: tool, args: `{"json": "", "sqlite": "pq: x"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "100k unknown fields", tool: tool, args: "{" + strings.TrimSuffix(func() string {
			var b strings.Builder
			for i := 0; i < 100000; i++ {
				fmt.Fprintf(&b, `"f%d":1,`, i)
			}
			return b.String()
		}(), ",") + "}", want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "9k levels of objects", tool: tool, args: `{"x": ` + nestedObjects(9000) + `}`, want: sessionLost},
		{name: "9k levels of arrays", tool: tool, args: `{"x": ` + nested(9000) + `}`, want: sessionLost},
		{name: "990 levels of objects", tool: tool, args: `{"x": ` + nestedObjects(990) + `}`, want: toolError, code: "INVALID_ARGUMENTS"},
	}
}

// runHostile sends every case on session and checks the answer, that nothing was written
// (snapshot before and after) and that the session still answers normal afterwards.
func runHostile(t *testing.T, ctx context.Context, connect func() *mcp.ClientSession, cases []hostile,
	snapshot func() string, normal mcp.CallToolParams) {
	t.Helper()
	session := connect()
	for _, tc := range cases {
		t.Run(tc.tool+"/"+tc.name, func(t *testing.T) {
			before := snapshot()
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: json.RawMessage(tc.args)})
			switch {
			case err != nil && tc.want == sessionLost:
				t.Logf("session closed, as go-sdk does for JSON deeper than 1000 levels: %v", err)
				session.Close()
				session = connect()
			case err != nil:
				if tc.want != rpcError {
					t.Errorf("JSON-RPC error %v, want %s", err, tc.want)
				}
				checkNoLeak(t, err.Error(), false, clientText(tc.tool, []byte(tc.args)))
			case res.IsError:
				if tc.want == rpcError || tc.want == sessionLost {
					t.Logf("isError instead of a JSON-RPC error (acceptable): %.200s", text(res))
				}
				checkToolError(t, res, tc.code, clientText(tc.tool, []byte(tc.args)))
			default:
				if tc.want != answered {
					t.Errorf("the call succeeded, want %s: %.300s", tc.want, text(res))
				}
				checkNoLeak(t, text(res), false, clientText(tc.tool, []byte(tc.args)))
			}
			if after := snapshot(); after != before {
				t.Errorf("the call wrote something:\nbefore %s\nafter  %s", before, after)
			}
			res, err = session.CallTool(ctx, &normal)
			if err != nil || res.IsError {
				t.Errorf("the session no longer answers %s: %v %v", normal.Name, err, text(res))
				session.Close()
				session = connect()
				res, err = session.CallTool(ctx, &normal)
				if err != nil || res.IsError {
					t.Fatalf("a new session does not answer either: %v %v", err, text(res))
				}
			}
		})
	}
	session.Close()
}

func text(res *mcp.CallToolResult) string {
	if res == nil || len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// checkToolError checks an isError result: a Portuguese message that leaks nothing (sent is the
// client's text it may quote back, see checkNoLeak), a structured error whose code is not INTERNAL
// (and is code, when code is set).
func checkToolError(t *testing.T, res *mcp.CallToolResult, code string, sent []string) {
	t.Helper()
	msg := text(res)
	if msg == "" {
		t.Fatal("isError without text")
	}
	checkNoLeak(t, msg, true, sent)
	b, _ := json.Marshal(res.StructuredContent)
	var sc struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &sc); err != nil || sc.Error.Code == "" || sc.Error.Message == "" {
		t.Errorf("isError without a structured error: %s", b)
	}
	if sc.Error.Code == "INTERNAL" {
		t.Errorf("an internal failure: %s", msg)
	}
	if code != "" && sc.Error.Code != code {
		t.Errorf("code %s, want %s: %.300s", sc.Error.Code, code, msg)
	}
	if len(msg) > 64<<10 {
		t.Errorf("the error text is %d bytes long: it repeats the input", len(msg))
	}
}

// database is what rowCounts reads: lumo's *store.DB or caderninho's *sqldb.DB.
type database interface {
	Engine() string
	SQL() *sql.DB
}

// rowCounts is the number of rows of every table of db, one line.
func rowCounts(t *testing.T, db database) string {
	t.Helper()
	ctx := context.Background()
	q := `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`
	if db.Engine() == "postgres" {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
	}
	rows, err := db.SQL().QueryContext(ctx, q)
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
	sort.Strings(tables)
	var b strings.Builder
	for _, tbl := range tables {
		var n int64
		if err := db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM "`+tbl+`"`).Scan(&n); err != nil && err != sql.ErrNoRows {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s=%d ", tbl, n)
	}
	return b.String()
}

func TestHostileInputsLumo(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, lumodemo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	connectAs := func(login string) func() *mcp.ClientSession {
		return func() *mcp.ClientSession {
			u, err := db.UserByLogin(ctx, login)
			if err != nil {
				t.Fatal(err)
			}
			srv, err := lumo.NewServer(&lumo.Service{DB: db, Log: log, Identity: lumo.FixedUser(u)}, lumo.Options{ValidateOutput: true})
			if err != nil {
				t.Fatal(err)
			}
			return connectInMemory(t, ctx, srv)
		}
	}
	// Carla's apps belong to another tenant: ana must not learn they exist.
	carla := connectAs("carla")()
	res, err := carla.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("carla's catalog: %v %s", err, text(res))
	}
	carla.Close()
	var catalog struct {
		Apps []struct {
			ID int64 `json:"id"`
		} `json:"apps"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &catalog); err != nil || len(catalog.Apps) == 0 {
		t.Fatalf("carla's catalog has no apps: %s", b)
	}
	other := catalog.Apps[0].ID
	app := int64(1)
	ana := connectAs("ana")()
	res, err = ana.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}})
	if err == nil && !res.IsError {
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &catalog)
		app = catalog.Apps[0].ID
	}
	ana.Close()
	q := func(fields string) string { return fmt.Sprintf(`{"appId": %d, "fields": %s}`, app, fields) }
	filter := func(f string) string {
		return fmt.Sprintf(`{"appId": %d, "fields": [{"ref": "Vendas.Canal"}], "filters": [%s]}`, app, f)
	}

	var cases []hostile
	for _, tool := range []string{"search_catalog", "get_app", "search_values", "query"} {
		cases = append(cases, hostileCommon(tool)...)
	}
	cases = append(cases, []hostile{
		// wrong types
		{name: "appId as text", tool: "get_app", args: `{"appId": "1"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "appId fractional", tool: "get_app", args: `{"appId": 1.5}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "appId huge", tool: "get_app", args: `{"appId": 1e300}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "appId 40 digits", tool: "get_app", args: `{"appId": 1234567890123456789012345678901234567890}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "appId negative", tool: "get_app", args: `{"appId": -1}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "appId boolean", tool: "get_app", args: `{"appId": true}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "appId null", tool: "get_app", args: `{"appId": null}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "terms as number", tool: "search_catalog", args: `{"terms": 123}`, want: toolError, code: "INVALID_ARGUMENTS"},
		// numbers the schema accepts: integer-valued floats are integers; what float64 cannot hold is refused
		{name: "appId 1.0", tool: "get_app", args: `{"appId": 1.0}`, want: answered},
		{name: "appId 1e0", tool: "get_app", args: `{"appId": 1e0}`, want: answered},
		{name: "appId 10e-1", tool: "get_app", args: `{"appId": 10e-1}`, want: answered},
		{name: "appId 1e309", tool: "get_app", args: `{"appId": 1e309}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "appId 400 digits", tool: "get_app", args: `{"appId": ` + strings.Repeat("9", 400) + `}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "appId 1e-400", tool: "get_app", args: `{"appId": 1e-400}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "limit 5e2", tool: "query", args: fmt.Sprintf(`{"appId": %d, "fields": [{"ref": "Vendas.Canal"}], "limit": 5e2}`, app), want: answered},
		{name: "limit 2.0", tool: "query", args: fmt.Sprintf(`{"appId": %d, "fields": [{"ref": "Vendas.Canal"}], "limit": 2.0}`, app), want: answered},
		{name: "filter value 1e309", tool: "query", args: filter(`{"ref": "Vendas.Quantidade", "op": ">", "value": 1e309}`), want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "filter value -1e309 in a list", tool: "query", args: filter(`{"ref": "Vendas.Quantidade", "op": "in", "value": [1, -1e309]}`), want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "filter value 400 digits", tool: "query", args: filter(`{"ref": "Vendas.Quantidade", "op": "=", "value": ` + strings.Repeat("1", 400) + `}`), want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "filter value 1e300", tool: "query", args: filter(`{"ref": "Vendas.Quantidade", "op": "<", "value": 1e300}`), want: answered},
		{name: "filter value 2.0", tool: "query", args: filter(`{"ref": "Vendas.Quantidade", "op": "=", "value": 2.0}`), want: answered},
		{name: "filter value 1e20", tool: "query", args: filter(`{"ref": "Vendas.Quantidade", "op": "<", "value": 1e20}`), want: answered},
		{name: "date 0000-01-01", tool: "query", args: filter(`{"ref": "Vendas.Data", "op": ">=", "value": "0000-01-01"}`), want: toolError, code: "INVALID_FILTER"},
		{name: "date between 0000-01-01", tool: "query", args: filter(`{"ref": "Metas.Mês", "op": "between", "value": ["0000-01-01", "2026-01-01"]}`), want: toolError},
		{name: "date 0001-01-01", tool: "query", args: filter(`{"ref": "Vendas.Data", "op": ">=", "value": "0001-01-01"}`), want: answered},
		{name: "date 9999-12-31", tool: "query", args: filter(`{"ref": "Vendas.Data", "op": "<=", "value": "9999-12-31"}`), want: answered},
		{name: "fields as text", tool: "query", args: q(`"Vendas.Valor"`), want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "ref as object", tool: "query", args: q(`[{"ref": {"a": 1}}]`), want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "limit as text", tool: "query", args: fmt.Sprintf(`{"appId": %d, "fields": [{"ref": "Vendas.Canal"}], "limit": "10"}`, app), want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "filter value as object", tool: "query", args: filter(`{"ref": "Vendas.Canal", "op": "=", "value": {"a": 1}}`), want: toolError},
		// huge strings and lists
		{name: "1 MB term", tool: "search_catalog", args: `{"terms": "` + mb + `"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "1 MB ref", tool: "query", args: q(`[{"ref": "` + mb + `"}]`), want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "1 MB contains", tool: "search_values", args: fmt.Sprintf(`{"appId": %d, "contains": "%s"}`, app, mb), want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "1 MB filter value", tool: "query", args: filter(`{"ref": "Vendas.Canal", "op": "=", "value": "` + mb + `"}`), want: answered},
		{name: "100k terms", tool: "search_catalog", args: `{"terms": ` + list(100000, `"a"`) + `}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "100k fields", tool: "query", args: q(list(100000, `{"ref": "Vendas.Canal"}`)), want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "100k in values", tool: "query", args: filter(`{"ref": "Vendas.Canal", "op": "in", "value": ` + list(100000, `"x"`) + `}`), want: answered},
		// deep nesting inside a known field
		{name: "9k levels in a filter value", tool: "query", args: filter(`{"ref": "Vendas.Canal", "op": "in", "value": ` + nested(9000) + `}`), want: sessionLost},
		{name: "990 levels in a filter value", tool: "query", args: filter(`{"ref": "Vendas.Canal", "op": "in", "value": ` + nested(990) + `}`), want: toolError},
		// invalid UTF-8
		{name: "invalid UTF-8 term", tool: "search_catalog", args: `{"terms": "` + badUTF8 + `"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "invalid UTF-8 ref", tool: "query", args: q(`[{"ref": "Vendas.` + badUTF8 + `"}]`), want: toolError},
		{name: "invalid UTF-8 contains", tool: "search_values", args: fmt.Sprintf(`{"appId": %d, "contains": "%s"}`, app, badUTF8), want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "lone surrogate escape in a filter value", tool: "query", args: filter(`{"ref": "Vendas.Canal", "op": "=", "value": "\ud800x"}`), want: answered},
		{name: "NUL escape in a filter value", tool: "query", args: filter(`{"ref": "Vendas.Canal", "op": "like", "value": "a\u0000b"}`), want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "escaped backslash-u0000 is plain text", tool: "query", args: filter(`{"ref": "Vendas.Canal", "op": "like", "value": "a\\u0000b"}`), want: answered},
		{name: "invalid UTF-8 filter value", tool: "query", args: filter(`{"ref": "Vendas.Canal", "op": "=", "value": "` + badUTF8 + `"}`), want: toolError, code: "INVALID_ARGUMENTS"},
		// SQL fragments
		{name: "SQL in a ref", tool: "query", args: q(`[{"ref": "Vendas.Canal` + dropTable + `"}]`), want: toolError},
		{name: "SQL as a table", tool: "query", args: q(`[{"ref": "Vendas` + dropTable + `.Canal"}]`), want: toolError},
		{name: "SQL OR in a ref", tool: "search_values", args: fmt.Sprintf(`{"appId": %d, "ref": "Vendas.Canal%s"}`, app, orTrue), want: toolError},
		{name: "SQL in an = value", tool: "query", args: filter(`{"ref": "Vendas.Canal", "op": "=", "value": "` + dropTable + `"}`), want: answered},
		{name: "SQL OR in a like value", tool: "query", args: filter(`{"ref": "Vendas.Canal", "op": "like", "value": "` + orTrue + `"}`), want: answered},
		{name: "SQL in contains", tool: "search_values", args: fmt.Sprintf(`{"appId": %d, "contains": "%s"}`, app, dropTable), want: answered},
		{name: "SQL in terms", tool: "search_catalog", args: `{"terms": ["` + dropTable + `", "` + orTrue + `"]}`, want: answered},
		{name: "SQL in orderBy", tool: "query", args: fmt.Sprintf(`{"appId": %d, "fields": [{"ref": "Vendas.Canal"}], "orderBy": [{"ref": "Vendas.Canal; DROP TABLE x", "dir": "desc"}]}`, app), want: toolError},
		// other tenants
		{name: "other tenant's app", tool: "get_app", args: fmt.Sprintf(`{"appId": %d}`, other), want: toolError, code: "NOT_FOUND"},
		{name: "other tenant's app in query", tool: "query", args: fmt.Sprintf(`{"appId": %d, "fields": [{"ref": "Vendas.Canal"}]}`, other), want: toolError, code: "NOT_FOUND"},
		{name: "other tenant's app in search_values", tool: "search_values", args: fmt.Sprintf(`{"appId": %d, "ref": "Vendas.Canal"}`, other), want: toolError, code: "NOT_FOUND"},
		{name: "other tenant's app in search_catalog", tool: "search_catalog", args: fmt.Sprintf(`{"appId": %d}`, other), want: toolError, code: "NOT_FOUND"},
		{name: "app that does not exist", tool: "get_app", args: `{"appId": 2147483647}`, want: toolError, code: "NOT_FOUND"},
		// protocol level
		{name: "unknown tool", tool: "drop_table", args: `{}`, want: rpcError},
		{name: "SQL as the tool name", tool: "query" + dropTable, args: `{}`, want: rpcError},
	}...)
	runHostile(t, ctx, connectAs("ana"), cases, func() string { return rowCounts(t, db) },
		mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}})
	checkLogsCarryNoValues(t, logs.String(), cases)

	// No existence leak: another tenant's app answers like one that does not exist.
	s := connectAs("ana")()
	defer s.Close()
	msg := func(id int64) string {
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "get_app", Arguments: map[string]any{"appId": id}})
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(text(res), fmt.Sprint(id), "N")
	}
	if a, b := msg(other), msg(2147483647); a != b {
		t.Errorf("another tenant's app answers differently from a missing one:\n%s\n%s", a, b)
	}
}

// demoCaderninho is a caderninho store holding the demo installation with its statements imported,
// and the folder of that installation.
func demoCaderninho(tb testing.TB, ctx context.Context) (*cadstore.Store, string) {
	tb.Helper()
	dir := tb.TempDir()
	if err := caderninhodemo.CopyCaderninho(dir); err != nil {
		tb.Fatal(err)
	}
	s := cadstoretest.Open(tb)
	inst, err := installation.Load(os.DirFS(dir), "installation.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := s.Register(ctx, inst, dir); err != nil {
		tb.Fatal(err)
	}
	if _, err := s.ImportConnections(ctx, nil); err != nil {
		tb.Fatal(err)
	}
	return s, dir
}

func connectInMemory(t *testing.T, ctx context.Context, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "hostile", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestHostileInputsCaderninho(t *testing.T) {
	ctx := context.Background()
	s, dir := demoCaderninho(t, ctx)
	logs := &lockedBuffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	connect := func() *mcp.ClientSession {
		svc := &caderninho.Service{Store: s, Log: log, Identity: caderninho.Fixed(caderninho.LocalAssistant)}
		srv, err := caderninho.NewServer(svc, caderninho.Options{ValidateOutput: true})
		if err != nil {
			t.Fatal(err)
		}
		return connectInMemory(t, ctx, srv)
	}

	// Real cursors: one to tamper with, one reused with other filters, one that expires.
	session := connect()
	page := func(args map[string]any) string {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "caderninho_transactions", Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("first page: %v %s", err, text(res))
		}
		b, _ := json.Marshal(res.StructuredContent)
		var v struct {
			NextCursor *string `json:"nextCursor"`
		}
		if err := json.Unmarshal(b, &v); err != nil || v.NextCursor == nil {
			t.Fatalf("first page has no nextCursor: %s", b)
		}
		return *v.NextCursor
	}
	cursor := page(map[string]any{"space": "casa", "limit": 2})
	expired := page(map[string]any{"limit": 3})
	session.Close()
	next, err := os.ReadFile(filepath.Join(dir, "next", "aurora-marina", "extrato-2026-11.ofx"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ofx", "aurora-marina", "extrato-2026-11.ofx"), next, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportConnections(ctx, nil); err != nil { // a new revision: expired is stale now
		t.Fatal(err)
	}
	cursor = page2(t, ctx, connect, cursor)
	tampered := []byte(cursor)
	tampered[len(tampered)/2] ^= 1
	if tampered[len(tampered)/2] < '0' || tampered[len(tampered)/2] > 'z' {
		tampered[len(tampered)/2] = 'A'
	}
	tx := func(extra string) string { return `{"space": "casa", "limit": 2, ` + extra + `}` }

	var cases []hostile
	for _, tool := range []string{"caderninho_accounts", "caderninho_transactions", "caderninho_bills", "caderninho_sync"} {
		cases = append(cases, hostileCommon(tool)...)
	}
	cases = append(cases, []hostile{
		// wrong types
		{name: "limit as text", tool: "caderninho_transactions", args: `{"limit": "10"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "accounts as text", tool: "caderninho_transactions", args: `{"accounts": "aurora-marina:1"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "impossible date", tool: "caderninho_transactions", args: `{"from": "2026-13-45"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "limit 2.0", tool: "caderninho_transactions", args: `{"limit": 2.0}`, want: answered},
		{name: "limit 5e1", tool: "caderninho_transactions", args: `{"limit": 5e1}`, want: answered},
		{name: "limit 1e309", tool: "caderninho_transactions", args: `{"limit": 1e309}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "limit 400 digits", tool: "caderninho_transactions", args: `{"limit": ` + strings.Repeat("9", 400) + `}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "waitSeconds 0e0", tool: "caderninho_sync", args: `{"idempotency_key": "chave-hostil-5", "waitSeconds": 0e0, "connections": ["banco-outro"]}`, want: toolError, code: "NOT_FOUND"},
		{name: "waitSeconds 1e309", tool: "caderninho_sync", args: `{"idempotency_key": "chave-hostil-6", "waitSeconds": 1e309}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "year 0000", tool: "caderninho_transactions", args: `{"from": "0000-01-01"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "year 0000 in to", tool: "plan_transactions", args: `{"to": "0000-01-01"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "year 0000 in plan_totals", tool: "plan_totals", args: `{"from": "0000-01-01"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "limit 3.0 in plan_transactions", tool: "plan_transactions", args: `{"limit": 3.0}`, want: answered},
		{name: "year 0001", tool: "caderninho_transactions", args: `{"from": "0001-01-01", "to": "9999-12-31"}`, want: answered},
		{name: "direction unknown", tool: "caderninho_transactions", args: `{"direction": "sideways"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "key as number", tool: "caderninho_sync", args: `{"idempotency_key": 12345678}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "waitSeconds negative", tool: "caderninho_sync", args: `{"idempotency_key": "chave-hostil-1", "waitSeconds": -1}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "sync without key", tool: "caderninho_sync", args: `{}`, want: toolError, code: "INVALID_ARGUMENTS"},
		// huge strings and lists
		{name: "1 MB text", tool: "caderninho_transactions", args: `{"text": "` + mb + `"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "1 MB cursor", tool: "caderninho_transactions", args: `{"cursor": "` + mb + `"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "1 MB idempotency key", tool: "caderninho_sync", args: `{"idempotency_key": "` + mb + `"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "100k accounts", tool: "caderninho_transactions", args: `{"accounts": ` + list(100000, `"aurora-marina:1"`) + `}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "100k connections", tool: "caderninho_sync", args: `{"idempotency_key": "chave-hostil-2", "connections": ` + list(100000, `"x"`) + `}`, want: toolError, code: "INVALID_ARGUMENTS"},
		// deep nesting inside a known field
		{name: "9k levels in accounts", tool: "caderninho_accounts", args: `{"accounts": ` + nested(9000) + `}`, want: sessionLost},
		{name: "990 levels in accounts", tool: "caderninho_accounts", args: `{"accounts": ` + nested(990) + `}`, want: toolError, code: "INVALID_ARGUMENTS"},
		// invalid UTF-8
		{name: "invalid UTF-8 text", tool: "caderninho_transactions", args: `{"text": "` + badUTF8 + `"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "NUL escape in text", tool: "caderninho_transactions", args: `{"text": "a\u0000b"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "invalid UTF-8 space", tool: "caderninho_transactions", args: `{"space": "` + badUTF8 + `"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "invalid UTF-8 account", tool: "caderninho_accounts", args: `{"accounts": ["aurora-marina:` + badUTF8 + `"]}`, want: toolError, code: "INVALID_ARGUMENTS"},
		// SQL fragments
		{name: "SQL in space", tool: "caderninho_transactions", args: `{"space": "casa` + dropTable + `"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "SQL in an account id", tool: "caderninho_transactions", args: `{"accounts": ["aurora-marina:1` + dropTable + `"]}`, want: toolError, code: "NOT_FOUND"},
		{name: "SQL OR in an account id", tool: "caderninho_bills", args: `{"accounts": ["x` + orTrue + `"]}`, want: toolError, code: "NOT_FOUND"},
		{name: "SQL in text", tool: "caderninho_transactions", args: `{"text": "` + dropTable + `"}`, want: answered},
		{name: "SQL OR in text", tool: "caderninho_transactions", args: `{"text": "` + orTrue + `"}`, want: answered},
		{name: "SQL in the key", tool: "caderninho_sync", args: `{"idempotency_key": "k` + dropTable + `"}`, want: toolError, code: "INVALID_ARGUMENTS"},
		{name: "SQL in a connection", tool: "caderninho_sync", args: `{"idempotency_key": "chave-hostil-3", "connections": ["x` + dropTable + `"]}`, want: toolError, code: "INVALID_ARGUMENTS"},
		// ids of nothing this installation holds
		{name: "another installation's space", tool: "caderninho_transactions", args: `{"space": "outra-casa"}`, want: toolError, code: "NOT_FOUND"},
		{name: "another installation's person", tool: "caderninho_accounts", args: `{"person": "carla"}`, want: toolError, code: "NOT_FOUND"},
		{name: "another installation's account", tool: "caderninho_transactions", args: `{"accounts": ["banco-outro:99999-9"]}`, want: toolError, code: "NOT_FOUND"},
		{name: "another installation's connection", tool: "caderninho_sync", args: `{"idempotency_key": "chave-hostil-4", "connections": ["banco-outro"]}`, want: toolError, code: "NOT_FOUND"},
		// cursors
		{name: "forged cursor", tool: "caderninho_transactions", args: tx(`"cursor": "abc"`), want: toolError, code: "INVALID_FILTER"},
		{name: "forged JSON cursor", tool: "caderninho_transactions", args: tx(`"cursor": "eyJmIjoiIiwiciI6e30sImQiOiIyMDI2LTAxLTAxIiwiaSI6MX0"`), want: toolError, code: "INVALID_FILTER"},
		{name: "tampered cursor", tool: "caderninho_transactions", args: tx(`"cursor": "` + string(tampered) + `"`), want: toolError, code: "INVALID_FILTER"},
		{name: "cursor with other filters", tool: "caderninho_transactions", args: `{"space": "casa", "limit": 2, "direction": "out", "cursor": "` + cursor + `"}`, want: toolError, code: "INVALID_FILTER"},
		{name: "expired cursor", tool: "caderninho_transactions", args: `{"limit": 3, "cursor": "` + expired + `"}`, want: toolError, code: "RESTART_REQUIRED"},
		{name: "SQL as a cursor", tool: "caderninho_transactions", args: tx(`"cursor": "` + dropTable + `"`), want: toolError, code: "INVALID_FILTER"},
		// protocol level
		{name: "unknown tool", tool: "plan_drop_everything", args: `{}`, want: rpcError},
	}...)
	snapshot := func() string {
		spaces, err := s.Spaces(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%v %s", spaces, rowCounts(t, s.DB()))
	}
	runHostile(t, ctx, connect, cases, snapshot, mcp.CallToolParams{Name: "caderninho_accounts", Arguments: map[string]any{}})
	checkLogsCarryNoValues(t, logs.String(), cases)
}

// lockedBuffer is a log destination that calls may write to at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// checkLogsCarryNoValues: the server's logs of the hostile calls name tools, codes and fields,
// never a value sent: no string of 6 characters or more and no number written with 6 characters
// or more (5 with an exponent: 1e309) from any case's arguments appears in them.
func checkLogsCarryNoValues(t *testing.T, logs string, cases []hostile) {
	t.Helper()
	seen := map[string]bool{}
	for _, tc := range cases {
		for _, v := range argumentValues(tc.args) {
			if seen[v] {
				continue
			}
			seen[v] = true
			if strings.Contains(logs, v) {
				t.Errorf("the logs carry %.60q, sent by %s/%s", v, tc.tool, tc.name)
			}
		}
	}
}

// argumentValues are the distinctive values of args: strings of 6+ characters (cut to their
// first 40, as a log would still show them), and numbers of 6+ characters (5+ with an
// exponent), as sent.
func argumentValues(args string) []string {
	if depth([]byte(args)) > 900 {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(args))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if r := []rune(x); len(r) >= 6 && utf8.ValidString(x) {
				out = append(out, string(r[:min(len(r), 40)]))
			}
		case json.Number:
			// short ones (1.0, 5e2) also occur in log lines' own numbers and random ids
			if (strings.ContainsAny(string(x), "eE") && len(x) >= 5) || len(x) >= 6 {
				out = append(out, string(x)[:min(len(x), 40)])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// page2 reads the page after cursor (same filters) and returns its nextCursor, so the cursor is
// of the current revision.
func page2(t *testing.T, ctx context.Context, connect func() *mcp.ClientSession, _ string) string {
	t.Helper()
	s := connect()
	defer s.Close()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "caderninho_transactions", Arguments: map[string]any{"space": "casa", "limit": 2}})
	if err != nil || res.IsError {
		t.Fatalf("first page: %v %s", err, text(res))
	}
	b, _ := json.Marshal(res.StructuredContent)
	var v struct {
		NextCursor *string `json:"nextCursor"`
	}
	if err := json.Unmarshal(b, &v); err != nil || v.NextCursor == nil {
		t.Fatalf("no nextCursor: %s", b)
	}
	return *v.NextCursor
}
