package bench

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
	"github.com/lumo-caderninho/mcp/schemas"
)

// Every call of the 22 questions is valid against the query tool's input schema, and each has
// its SQL.
func TestTPCHQuestionsMatchTheQuerySchema(t *testing.T) {
	set, err := schemacheck.Compile(schemas.FS, "lumo")
	if err != nil {
		t.Fatal(err)
	}
	qs, err := TPCHQuestions(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 22 {
		t.Fatalf("%d questions, want 22", len(qs))
	}
	for _, q := range qs {
		if !strings.Contains(q.SQL, "SELECT") || strings.Contains(q.SQL, fractionParam) {
			t.Errorf("%s: SQL %q", q.Name(), q.SQL)
		}
		for i := range q.Calls {
			args, err := q.callArgs(i, 1)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(args)
			if vs := set.ValidateJSON("query.input.json", b); len(vs) > 0 {
				t.Errorf("%s, call %d: %v", q.Name(), i+1, vs)
			}
		}
	}
}

// The embedded TPC-H app imports (one row per table here), and every call of the 22 questions
// resolves against it and plans: each ref, aggregate, segment and expression exists.
func TestTPCHModelImportsAndEveryCallResolves(t *testing.T) {
	ctx := context.Background()
	files := fstest.MapFS{}
	for _, name := range []string{"workspace.yaml", "app.yaml"} {
		b, err := fs.ReadFile(tpchFiles, "tpch/"+name)
		if err != nil {
			t.Fatal(err)
		}
		path := "workspace.yaml"
		if name == "app.yaml" {
			path = "apps/tpch/app.yaml"
		}
		files[path] = &fstest.MapFile{Data: b}
	}
	oneRow := map[string]string{
		"region":   "0,EUROPE,c",
		"nation":   "7,GERMANY,0,c",
		"supplier": "1,Supplier#000000001,addr,7,17-123-456-7890,100.50,Customer Complaints",
		"customer": "1,Customer#000000001,addr,7,17-123-456-7890,200.25,BUILDING,c",
		"part":     "1,forest green,Manufacturer#1,Brand#12,PROMO BRUSHED BRASS,15,SM BOX,901.00,c",
		"partsupp": "1,1,100,10.50,c",
		"orders":   "1,1,F,500.00,1994-03-01,1-URGENT,Clerk#000000001,0,special requests",
		"lineitem": "1,1,1,1,5,500.00,0.06,0.02,R,F,1994-03-02,1994-03-01,1994-03-05,DELIVER IN PERSON,AIR,c",
	}
	for _, tb := range tpchTables {
		var header []string
		for _, c := range strings.Split(tb.columns, ", ") {
			name, _, _ := strings.Cut(c, " ")
			header = append(header, name)
		}
		files["apps/tpch/"+tb.name+".csv"] = &fstest.MapFile{Data: []byte(strings.Join(header, ",") + "\n" + oneRow[tb.name] + "\n")}
	}
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, files, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, tpchLogin)
	if err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil || len(apps) != 1 {
		t.Fatalf("%d apps (%v), want 1", len(apps), err)
	}
	qs, err := TPCHQuestions(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		for i := range q.Calls {
			args, err := q.callArgs(i, apps[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			req := requestOf(t, args)
			a, err := query.Analyze(apps[0], req)
			if err != nil {
				t.Errorf("%s, call %d: %v", q.Name(), i+1, err)
				continue
			}
			plan, err := query.PlanQuery(a)
			if err != nil {
				t.Errorf("%s, call %d: plan: %v", q.Name(), i+1, err)
				continue
			}
			if os.Getenv("TPCH_SQL") == q.Name() { // TPCH_SQL=Q1 go test -v -run TestTPCHModel ./impl/lumo/bench: its DuckDB SQL

				st := query.RendererFor(sqldialect.DuckDB{}).Render(a, plan, nil)
				t.Logf("%s\n%v", st.SQL, st.Args)
			}
		}
	}
}

// requestOf is a query call's arguments as the query package's Request.
func requestOf(t *testing.T, args map[string]any) query.Request {
	t.Helper()
	b, _ := json.Marshal(args)
	var a struct {
		Fields  []struct{ Ref, Agg, Bucket string }
		Filters []struct {
			Ref, Agg, Bucket, Op, Segment string
			Value                         any
		}
		OrderBy []struct{ Ref, Agg, Bucket, Dir string }
		Limit   int
	}
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	req := query.Request{Limit: a.Limit}
	for _, f := range a.Fields {
		req.Fields = append(req.Fields, query.Item{Ref: f.Ref, Agg: f.Agg, Bucket: f.Bucket})
	}
	for _, f := range a.Filters {
		req.Filters = append(req.Filters, query.Filter{Item: query.Item{Ref: f.Ref, Agg: f.Agg, Bucket: f.Bucket},
			Op: f.Op, Value: f.Value, Segment: f.Segment})
	}
	for _, o := range a.OrderBy {
		req.OrderBy = append(req.OrderBy, query.Order{Item: query.Item{Ref: o.Ref, Agg: o.Agg, Bucket: o.Bucket}, Dir: o.Dir})
	}
	return req
}

// The comparison: numbers within lumo's precision, lumo's 500-row cut against DuckDB's whole
// answer, a question's own LIMIT, and the first difference named.
func TestTPCHCompareAnswers(t *testing.T) {
	lumo := func(total int, rows ...[]any) map[string]any {
		rs := make([]any, len(rows))
		for i, r := range rows {
			rs[i] = r
		}
		return map[string]any{"rows": rs, "totalRows": float64(total)}
	}
	for _, c := range []struct {
		name     string
		lumo     map[string]any
		want     [][]any
		compared string
		diff     string
	}{
		{"equal at 6 decimals", lumo(1, []any{"A", 0.123457, "1995"}), [][]any{{"A", 0.12345678, 1995.0}}, "1 row", ""},
		{"relative 1e-9", lumo(1, []any{3.5e11}), [][]any{{3.5e11 + 1}}, "1 row", ""},
		{"lumo's cut", lumo(3, []any{1.0}, []any{2.0}), [][]any{{1.0}, {2.0}, {3.0}}, "2 of 3 rows", ""},
		{"the question's limit", lumo(9, []any{1.0}), [][]any{{1.0}}, "1 of 9 rows", ""},
		{"fewer rows", lumo(2, []any{1.0}, []any{2.0}), [][]any{{1.0}, {2.0}, {3.0}}, "2 rows", "lumo has 2 rows (of 2), DuckDB 3"},
		{"a value", lumo(1, []any{"x", 0.1235}), [][]any{{"x", 0.1234}}, "1 row", "row 1, column 2: lumo 0.1235, DuckDB 0.1234"},
		{"blank", lumo(1, []any{nil}), [][]any{{"x"}}, "1 row", `row 1, column 1: lumo <nil>, DuckDB "x"`},
	} {
		compared, diff := compareAnswers(c.lumo, c.want)
		if compared != c.compared || diff != c.diff {
			t.Errorf("%s: %q, %q; want %q, %q", c.name, compared, diff, c.compared, c.diff)
		}
	}
}
