package values_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/lumo/values"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

const peopleYAML = `name: Teste
tables:
  - label: Pessoas
    name: pessoas
    kind: dimension
    file: pessoas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Nome, type: string}
      - {name: CIDADE, label: Cidade, type: string}
      - {name: NASC, label: Nascimento, type: date}
      - {name: VISTO, label: Visto em, type: datetime}
      - {name: SALDO, label: Saldo, type: number, role: measure}
`

// Row 3 has an empty Cidade, row 7 one of two spaces, row 8 a NULL one; row 4 a NULL Nome.
const peopleCSV = `ID,NOME,CIDADE,NASC,VISTO,SALDO
1,São João,São Paulo,1990-05-01,2026-01-02 10:00:00,10.5
2,SAO JOAO,sao paulo,\N,2026-01-02 09:00:00,1
3,Sao Joao,,1980-01-01,\N,2
4,\N,Açaí,1990-05-01,2026-01-01 23:59:59,3
5,50% off,Rio,2000-12-31,2026-01-02 10:00:00,4
6,a_b,Rio,2000-12-31,\N,5
7,axb,  ,2000-12-31,\N,6
8,Ana,\N,1990-05-01,\N,7
`

func people(t *testing.T) (values.Reader, *semantic.App) {
	t.Helper()
	db := storetest.Open(t)
	a := importApp(t, db, peopleYAML, map[string]string{"pessoas.csv": peopleCSV}, nil)
	return reader(db), a
}

// onEachEngine runs f on the people app read from the row store and from its columnar copy (its
// tables, then its value tables): search_values reads wherever the app's queries do, and must
// answer alike.
func onEachEngine(t *testing.T, f func(t *testing.T, r values.Reader, a *semantic.App)) {
	t.Run("row store", func(t *testing.T) {
		r, a := people(t)
		f(t, r, a)
	})
	for _, valueTables := range []bool{false, true} {
		name := "columnar"
		if valueTables {
			name = "columnar value tables"
		}
		t.Run(name, func(t *testing.T) { onColumnar(t, valueTables, f) })
	}
}

func onColumnar(t *testing.T, valueTables bool, f func(t *testing.T, r values.Reader, a *semantic.App)) {
	db := storetest.Open(t)
	a := importApp(t, db, peopleYAML, map[string]string{"pessoas.csv": peopleCSV}, nil)
	col, err := columnar.Open(ctx, columnar.Options{})
	if errors.Is(err, columnar.ErrUnavailable) {
		t.Skip("a build without cgo has no columnar copy")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { col.Close() })
	if _, err := col.Sync(ctx, db); err != nil {
		t.Fatal(err)
	}
	if !col.Holds(a) {
		t.Fatal("the copy does not hold the app after a sync")
	}
	r := values.Reader{DB: col.DB().(*sql.DB), Dialect: sqldialect.DuckDB{}}
	if valueTables {
		r.Values = col.ValuesOf(a)
		read := 0
		for _, c := range a.Tables[0].Columns {
			if r.Values(c) != c.Table.SQLName {
				read++
			}
		}
		if read == 0 {
			t.Fatal("no column of the people app has a value table")
		}
	}
	f(t, r, a)
}

func s(v string) *string { return &v }

func TestDistinct(t *testing.T) {
	onEachEngine(t, func(t *testing.T, r values.Reader, a *semantic.App) {
		tests := []struct {
			ref   string
			words []string
			limit int
			want  values.Distinct
		}{
			// Text: blank (NULL and '' as one) first, then by folded text, then byte by byte.
			{"Pessoas.Nome", nil, 50, values.Distinct{Total: 8, Values: []*string{nil, s("50% off"), s("a_b"), s("Ana"), s("axb"), s("SAO JOAO"), s("Sao Joao"), s("São João")}}},
			{"Pessoas.Cidade", nil, 50, values.Distinct{Total: 6, Values: []*string{nil, s("  "), s("Açaí"), s("Rio"), s("São Paulo"), s("sao paulo")}}},
			{"Pessoas.Cidade", nil, 2, values.Distinct{Total: 6, Values: []*string{nil, s("  ")}}},
			{"Pessoas.Cidade", nil, 1, values.Distinct{Total: 6, Values: []*string{nil}}},
			// Every word, in any order, ignoring case and accents.
			{"Pessoas.Nome", []string{"joao", "sao"}, 50, values.Distinct{Total: 3, Values: []*string{s("SAO JOAO"), s("Sao Joao"), s("São João")}}},
			{"Pessoas.Nome", []string{"joao", "ana"}, 50, values.Distinct{Total: 0}},
			{"Pessoas.Cidade", []string{"paulo"}, 1, values.Distinct{Total: 2, Values: []*string{s("São Paulo")}}},
			// LIKE wildcards in words are literal.
			{"Pessoas.Nome", []string{"%"}, 50, values.Distinct{Total: 1, Values: []*string{s("50% off")}}},
			{"Pessoas.Nome", []string{"_"}, 50, values.Distinct{Total: 1, Values: []*string{s("a_b")}}},
			{"Pessoas.Nome", []string{"a_b"}, 50, values.Distinct{Total: 1, Values: []*string{s("a_b")}}},
			// Dates: NULL first, then by date; words are ignored.
			{"Pessoas.Nascimento", []string{"zzz"}, 50, values.Distinct{Total: 4, Values: []*string{nil, s("1980-01-01"), s("1990-05-01"), s("2000-12-31")}}},
			{"Pessoas.Visto em", nil, 3, values.Distinct{Total: 4, Values: []*string{nil, s("2026-01-01 23:59:59"), s("2026-01-02 09:00:00")}}},
		}
		for _, tt := range tests {
			got, err := r.Distinct(ctx, column(t, a, tt.ref), tt.words, tt.limit)
			if err != nil {
				t.Fatalf("%s %v: %v", tt.ref, tt.words, err)
			}
			if d := cmp.Diff(tt.want, got, cmp.Comparer(func(x, y []*string) bool { return cmp.Equal(strs(x), strs(y)) })); d != "" {
				t.Errorf("%s %v limit %d (-want +got):\n%s", tt.ref, tt.words, tt.limit, d)
			}
		}
		if _, err := r.Distinct(ctx, column(t, a, "Pessoas.Saldo"), nil, 50); err == nil {
			t.Error("Distinct of a number column did not fail")
		}
	})
}

// strs shows a page with "<blank>" for nil, for comparing and printing.
func strs(v []*string) []string {
	out := []string{}
	for _, p := range v {
		if p == nil {
			out = append(out, "<blank>")
		} else {
			out = append(out, *p)
		}
	}
	return out
}

func TestMatches(t *testing.T) {
	onEachEngine(t, func(t *testing.T, r values.Reader, a *semantic.App) {
		nome := column(t, a, "Pessoas.Nome")
		got, more, err := r.Matches(ctx, nome, []string{"a"}, 2)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{"a_b", "Ana"}, got); d != "" || !more {
			t.Errorf("Matches a, 2: more %v, (-want +got):\n%s", more, d)
		}
		got, more, err = r.Matches(ctx, nome, []string{"JOAO"}, 3)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{"SAO JOAO", "Sao Joao", "São João"}, got); d != "" || more {
			t.Errorf("Matches JOAO, 3: more %v, (-want +got):\n%s", more, d)
		}
		got, _, err = r.Matches(ctx, nome, []string{"jOÃo"}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{"SAO JOAO"}, got); d != "" {
			t.Errorf("Matches jOÃo, 1: (-want +got):\n%s", d)
		}
	})
}

func TestSample(t *testing.T) {
	onEachEngine(t, func(t *testing.T, r values.Reader, a *semantic.App) {
		tb := a.Tables[0]
		cols := []*semantic.Column{column(t, a, "Pessoas.Nome"), column(t, a, "Pessoas.Nascimento"),
			column(t, a, "Pessoas.Visto em"), column(t, a, "Pessoas.Saldo"), column(t, a, "Pessoas.Cidade")}
		got, err := r.Sample(ctx, tb, cols, 3)
		if err != nil {
			t.Fatal(err)
		}
		want := [][]any{
			{"São João", "1990-05-01", "2026-01-02 10:00:00", 10.5, "São Paulo"},
			{"SAO JOAO", nil, "2026-01-02 09:00:00", 1.0, "sao paulo"},
			{"Sao Joao", "1980-01-01", nil, 2.0, ""},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("Sample (-want +got):\n%s", d)
		}
		all, err := r.Sample(ctx, tb, cols, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 8 || all[7][0] != "Ana" {
			t.Errorf("Sample 10 of 8 rows: %v", all)
		}
	})
}

func TestSearch(t *testing.T) {
	onEachEngine(t, func(t *testing.T, r values.Reader, a *semantic.App) {
		cols := []*semantic.Column{column(t, a, "Pessoas.Nome"), column(t, a, "Pessoas.Cidade")}
		res, err := r.Search(ctx, cols, []string{"sao"}, 2, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		want := values.SearchResult{Searched: 2, Found: []values.Found{
			{Column: cols[0], Values: []string{"SAO JOAO", "Sao Joao"}, More: true},
			{Column: cols[1], Values: []string{"São Paulo", "sao paulo"}},
		}}
		if d := cmp.Diff(want, res, cmp.Comparer(func(x, y *semantic.Column) bool { return x == y })); d != "" {
			t.Errorf("Search (-want +got):\n%s", d)
		}
		res, err = r.Search(ctx, cols, []string{"rio"}, 8, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if res.Searched != 2 || len(res.Found) != 1 || res.Found[0].Column != cols[1] || res.TimedOut {
			t.Errorf("Search rio: %+v", res)
		}
		// No budget at all: nothing runs, everything is left out, in order.
		res, err = r.Search(ctx, cols, []string{"sao"}, 8, 0)
		if err != nil {
			t.Fatal(err)
		}
		if res.Searched != 0 || len(res.Found) != 0 || !res.TimedOut || len(res.LeftOut) != 2 || res.LeftOut[0] != cols[0] {
			t.Errorf("Search without budget: %+v", res)
		}
		// The caller's own cancellation is an error, not a partial result.
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := r.Search(cctx, cols, []string{"sao"}, 8, time.Minute); !errors.Is(err, context.Canceled) {
			t.Errorf("Search with a cancelled context: %v", err)
		}
	})
}

// TestSearchBudgetCancelsStatements searches columns of a view that never ends (a recursive CTE
// without a stop): only cancelling the running statements on the engine lets Search return. What
// the fast column found before the budget ran out comes back.
func TestSearchBudgetCancelsStatements(t *testing.T) {
	db := storetest.Open(t)
	a := importApp(t, db, peopleYAML, map[string]string{"pessoas.csv": peopleCSV}, nil)
	r := reader(db)
	view := `CREATE VIEW endless AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
		SELECT 'v' || i AS v, 'x' || i AS f FROM n`
	if _, err := db.SQL().ExecContext(ctx, view); err != nil {
		t.Fatal(err)
	}
	endless := &semantic.Table{Label: "Sem fim", Name: "endless", Kind: semantic.KindFact, SQLName: "endless"}
	cols := []*semantic.Column{column(t, a, "Pessoas.Nome")}
	for _, name := range []string{"A", "B", "C", "D", "E"} {
		c := &semantic.Column{Table: endless, Name: name, Label: name, Type: semantic.TypeString, Role: semantic.RoleDimension,
			SQLName: "v", FoldSQLName: "f"}
		endless.Columns = append(endless.Columns, c)
		cols = append(cols, c)
	}
	const budget = 300 * time.Millisecond
	start := time.Now()
	res, err := r.Search(ctx, cols, []string{"sao"}, 8, budget)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: search returned after %v with a %v budget", db.Engine(), elapsed.Round(time.Millisecond), budget)
	if elapsed > budget+5*time.Second {
		t.Errorf("search took %v with a %v budget", elapsed, budget)
	}
	if !res.TimedOut || res.Searched != 1 || len(res.Found) != 1 || res.Found[0].Column != cols[0] || len(res.LeftOut) != 5 {
		t.Errorf("result: %+v", res)
	}
	for i, c := range res.LeftOut {
		if c != cols[i+1] {
			t.Errorf("LeftOut[%d] = %s, want %s", i, c.Name, cols[i+1].Name)
		}
	}
	if isPostgres(db) {
		// The cancelled statements stopped on the server too.
		var running int
		q := `SELECT COUNT(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%endless%' AND pid <> pg_backend_pid()`
		if err := db.SQL().QueryRowContext(ctx, q).Scan(&running); err != nil {
			t.Fatal(err)
		}
		if running != 0 {
			t.Errorf("%d statements still running on the server", running)
		}
	}
	// The pool is still usable.
	if _, err := r.Distinct(ctx, cols[0], nil, 5); err != nil {
		t.Errorf("after the cancelled search: %v", err)
	}
}

// TestIndexesServeDistinct checks that the indexes made at import serve the reads: the distinct
// page and the count walk the (folded, value) index in its order, without a sort.
func TestIndexesServeDistinct(t *testing.T) {
	db := storetest.Open(t)
	a := importApp(t, db, peopleYAML, map[string]string{"pessoas.csv": peopleCSV}, nil)
	for _, ref := range []string{"Pessoas.Nome", "Pessoas.Nascimento"} {
		c := column(t, a, ref)
		for name, q := range values.DistinctSQL(reader(db), c, []string{"sao"}) {
			plan := explain(t, db, q, true)
			t.Logf("%s %s %s:\n%s", db.Engine(), ref, name, plan)
			index := "i" + strings.TrimPrefix(strings.SplitN(c.SQLName, "_", 2)[0], "c") + "_"
			if !strings.Contains(plan, index) || strings.Contains(strings.ToUpper(plan), "TEMP B-TREE") ||
				strings.Contains(plan, "Sort") {
				t.Errorf("%s %s: the plan does not walk index %s* in order:\n%s\n%s", ref, name, index, q, plan)
			}
		}
	}
}

// explain returns the plan of q with its arguments replaced by literals ('%sao%'). tiny runs it
// on PostgreSQL with sequential scans disabled, since a tiny table would otherwise be read whole;
// otherwise PostgreSQL runs the query (EXPLAIN ANALYZE) and reports the times.
func explain(t testing.TB, db *store.DB, q string, tiny bool) string {
	t.Helper()
	q = strings.ReplaceAll(strings.ReplaceAll(q, "$1", "'%sao%'"), "?1", "'%sao%'")
	tx, err := db.SQL().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	prefix := "EXPLAIN QUERY PLAN "
	if isPostgres(db) {
		prefix = "EXPLAIN (ANALYZE, BUFFERS) "
		if tiny {
			prefix = "EXPLAIN "
			if _, err := tx.ExecContext(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
				t.Fatal(err)
			}
		}
	}
	rows, err := tx.QueryContext(ctx, prefix+q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		if s, ok := vals[len(vals)-1].(string); ok {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n")
}

const registrosYAML = `name: Registros
tables:
  - label: Registros
    name: registros
    kind: fact
    file: registros.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Nome, type: string}
      - {name: CODIGO, label: Código, type: string}
      - {name: NOTA, label: Nota, type: string}
`

// registrosNames are the names Registros.Nome repeats: variants of case and accents (one folded
// copy, several values), LIKE wildcards, blanks (NULL, empty, spaces only).
var registrosNames = []string{"São João", "SAO JOAO", "Sao Joao", "são joão", "Ana", "ana", "Ána", "a_b", "axb", "50% off",
	"Íris", "iris", "Maria José", "José Maria", "Zé", `\N`, "", "  ", "Conceição", "conceicao", "Belém", "Belem",
	"x", "y", "z", "Lagoa", "Lagoa Santa", "Porto", "Porto Alegre", "Porto Velho"}

// registros imports Registros: n rows, Nome cycling through registrosNames, Código unique, Nota
// one of three texts, one too long for an index (so the column has none).
func registros(t *testing.T, n int) (*store.DB, *semantic.App) {
	t.Helper()
	db := storetest.Open(t)
	gen := func() lines {
		i := -1
		return func() (string, bool) {
			i++
			switch {
			case i == 0:
				return "ID,NOME,CODIGO,NOTA", true
			case i > n:
				return "", false
			}
			nota := []string{"curta", "média", strings.Repeat("longa ", 200)}[i%3]
			return fmt.Sprintf("%d,%s,R-%05d,%s", i, registrosNames[(i*7)%len(registrosNames)], i, nota), true
		}
	}
	return db, importApp(t, db, registrosYAML, nil, map[string]func() lines{"registros.csv": gen})
}

// TestLooseWalk checks that the loose walk finds what the plain scan finds, in the same order, and
// that the statistics pick it for a column whose values repeat, not for one whose values are unique.
func TestLooseWalk(t *testing.T) {
	db, a := registros(t, 3000)
	r := reader(db)
	nome, codigo, nota := column(t, a, "Registros.Nome"), column(t, a, "Registros.Código"), column(t, a, "Registros.Nota")
	for _, tt := range []struct {
		c    *semantic.Column
		want bool
	}{{nome, true}, {codigo, false}, {nota, false}} {
		got, err := values.WalksLoose(ctx, r, tt.c)
		if err != nil || got != tt.want {
			t.Errorf("%s: walks loose %v (%v), want %v", tt.c.Ref(), got, err, tt.want)
		}
	}
	for _, c := range []*semantic.Column{nome, codigo} {
		for _, words := range [][]string{{"a"}, {"joao"}, {"SÃO", "joão"}, {"porto"}, {"%"}, {"_"}, {"a_b"}, {"o"}, {"xyzzy"}, {"r-0299"}} {
			for _, limit := range []int{1, 3, 8, 100} {
				pw, pm, err := values.MatchesBy(ctx, r, c, words, limit, false)
				if err != nil {
					t.Fatal(err)
				}
				lw, lm, err := values.MatchesBy(ctx, r, c, words, limit, true)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(pw, lw); d != "" || pm != lm {
					t.Errorf("%s %q limit %d: more %v / %v (-plain +loose):\n%s", c.Ref(), words, limit, pm, lm, d)
				}
			}
		}
	}
	// Search reads the statistics of all its columns at once, and finds what the plain scan finds.
	res, err := r.Search(ctx, []*semantic.Column{nota, nome, codigo}, []string{"a"}, 8, 20*time.Second)
	if err != nil || res.TimedOut || res.Searched != 3 || len(res.Found) != 2 { // no Código has an "a"
		t.Fatalf("search: %+v, %v", res, err)
	}
	for _, f := range res.Found {
		want, more, err := values.MatchesBy(ctx, r, f.Column, []string{"a"}, 8, false)
		if d := cmp.Diff(want, f.Values); err != nil || d != "" || more != f.More {
			t.Errorf("search %s: more %v / %v, err %v (-plain +search):\n%s", f.Column.Ref(), more, f.More, err, d)
		}
	}
	// Spot check against the expectation: every value folding to "sao joao", byte order.
	got, more, err := r.Matches(ctx, nome, []string{"joao"}, 8)
	if d := cmp.Diff([]string{"SAO JOAO", "Sao Joao", "São João", "são joão"}, got); err != nil || d != "" || more {
		t.Errorf("Matches joao: more %v, err %v (-want +got):\n%s", more, err, d)
	}
	// Each step of the walk seeks the (folded, value) index; nothing is sorted.
	q := values.LooseSQL(r, nome, []string{"sao"})
	plan := explain(t, db, q, false)
	t.Logf("%s:\n%s\n%s", db.Engine(), q, plan)
	index := "i" + strings.TrimPrefix(strings.SplitN(nome.SQLName, "_", 2)[0], "c") + "_"
	if !strings.Contains(plan, index) || strings.Contains(strings.ToUpper(plan), "TEMP B-TREE") ||
		strings.Contains(plan, "Sort") || strings.Contains(plan, "Seq Scan") || strings.Contains(plan, "SCAN "+nome.Table.SQLName) {
		t.Errorf("the loose walk does not seek index %s*:\n%s", index, plan)
	}
}
