package values_test

import (
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// TestDistinctWalkSummary: on PostgreSQL the count_distinct summary counted by the loose index
// walk equals the DISTINCT count, on values with NULLs, ”, blanks and case and accent variants;
// the statistics offer the walk for the repeating column only. It also checks that a walk that
// skips the values folding alike, or starts at the NULLs, would be caught.
func TestDistinctWalkSummary(t *testing.T) {
	db, a := registros(t, 3000)
	if !isPostgres(db) {
		t.Skip("the loose walk summary is PostgreSQL's: set LUMO_TEST_DB=postgres://...")
	}
	r := reader(db)
	nome, codigo := column(t, a, "Registros.Nome"), column(t, a, "Registros.Código")
	tbl, f, v := r.Dialect.QuoteIdent(nome.Table.SQLName), r.Dialect.QuoteIdent(nome.FoldSQLName), r.Dialect.QuoteIdent(nome.SQLName)
	// The data has what the walk must count: NULLs, '', values that fold alike; and a folded
	// copy is NULL exactly when its value is.
	var nulls, empty, variants, badFold int
	err := db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FILTER (WHERE `+v+` IS NULL), COUNT(*) FILTER (WHERE `+v+` = ''),
		(SELECT COUNT(DISTINCT `+v+`) FROM `+tbl+` WHERE `+f+` = 'sao joao'),
		COUNT(*) FILTER (WHERE (`+v+` IS NULL) <> (`+f+` IS NULL)) FROM `+tbl).Scan(&nulls, &empty, &variants, &badFold)
	if err != nil || nulls == 0 || empty == 0 || variants != 4 || badFold != 0 {
		t.Fatalf("fixture: %d NULL, %d empty, %d variants of sao joao, %d NULL mismatches of the folded copy (%v)",
			nulls, empty, variants, badFold, err)
	}

	req := query.Request{Fields: []query.Item{{Ref: "Registros.Nota"},
		{Ref: "Registros.Nome", Agg: "count_distinct"}, {Ref: "Registros.Código", Agg: "count_distinct"}}}
	q, err := query.Analyze(a, req)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := query.PlanQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	render := query.RendererFor(r.Dialect)
	cols := render.WalkColumns(q, plan)
	loose, err := r.WalkLoose(ctx, cols)
	if err != nil || len(cols) != 2 || cols[0] != nome || cols[1] != codigo || !loose[0] || loose[1] {
		t.Fatalf("walk columns %v, loose %v (%v): want Nome by the walk, Código (unique) not", cols, loose, err)
	}
	summary := func(walk map[*semantic.Column]bool, edit func(string) string) map[string]any {
		t.Helper()
		st := render.Render(q, plan, walk)
		if got, want := strings.Count(st.SQL, "RECURSIVE"), len(walk); got != want {
			t.Fatalf("%d walks in the statement, want %d:\n%s", got, want, st.SQL)
		}
		if edit != nil {
			st.SQL = edit(st.SQL)
		}
		res, err := query.Execute(ctx, db.SQL(), q, plan, st)
		if err != nil {
			t.Fatalf("%v\n%s", err, st.SQL)
		}
		return res.Summary
	}
	k1, k2 := q.Out[1].Key, q.Out[2].Key
	want := summary(nil, nil)
	var direct float64
	// The blank rule: the empty text is not counted, as NULL is not.
	if err := db.SQL().QueryRowContext(ctx, `SELECT COUNT(DISTINCT NULLIF(`+v+`, '')) FROM `+tbl).Scan(&direct); err != nil {
		t.Fatal(err)
	}
	if want[k1] != direct {
		t.Fatalf("DISTINCT summary %v, COUNT(DISTINCT) %v", want, direct)
	}
	for _, walk := range []map[*semantic.Column]bool{{nome: true}, {nome: true, codigo: true}} {
		if got := summary(walk, nil); got[k1] != want[k1] || got[k2] != want[k2] {
			t.Errorf("walk %d columns: summary %v, DISTINCT summary %v", len(walk), got, want)
		}
	}
	// Walks that miscount differ: one that starts at the NULL pair, one that skips values that
	// fold alike.
	for name, edit := range map[string]func(string) string{
		"from NULL": func(s string) string { return strings.Replace(s, " WHERE "+f+" IS NOT NULL", "", 1) },
		"by folded copy only": func(s string) string {
			return strings.Replace(s, "("+f+", "+v+") > (d.f, d.v)", f+" > d.f", 1)
		},
	} {
		if got := summary(map[*semantic.Column]bool{nome: true}, edit); got[k1] == want[k1] {
			t.Errorf("a walk %s counts %v too: the test cannot tell", name, got[k1])
		}
	}
}
