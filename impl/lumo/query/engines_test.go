package query_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
)

// onBothEngines runs f on a fresh SQLite database, and on a fresh PostgreSQL schema when
// LUMO_TEST_DB is a postgres URL (the subtest skips, saying so, otherwise).
func onBothEngines(t *testing.T, f func(t *testing.T, db *store.DB)) {
	t.Run("sqlite", func(t *testing.T) {
		db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "lumo.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		f(t, db)
	})
	t.Run("postgres", func(t *testing.T) {
		if !sqldb.IsPostgres(os.Getenv(storetest.EnvDSN)) {
			t.Skip("runs on PostgreSQL too with LUMO_TEST_DB=postgres://...")
		}
		f(t, storetest.Open(t))
	})
}

// engineTexts and engineNames are the Texto and Nome columns of table Itens (nil is NULL); row i
// has Id i+1. Texto holds the wildcards and the escape character as data; Nome feeds the
// similar-value suggestions (more than 50 values share a word, so the candidate cut matters).
var (
	engineTexts = []any{
		`100%`, `100`, `1000`, `100 %`, `a_b`, `axb`, `a\b`, `ab`, `a%b`, `a\\b`, `\`, `%`, `_`,
		`São João`, `SAO JOAO`, `Ação`, `acao`, `ÁGUA_FRIA`, `50% OFF`, `x`, ``, nil, `  Ab  `, `日本`,
		`ß`, `C:\Temp\x`, `a\%b`, `under_score_`, `_lead`, `abc`, `AÇÃO\`, `a  b`,
	}
	engineNames = func() []any {
		names := []any{`a\b`, `a\bc`, `abc`, `x\`, `x`, `50%`, `50`, `5_0`, `C:\Temp`, `c:temp`, `São João`,
			`Sao Joao`, `São José`, `Itém especial`, ``, nil, `100%`, `1000`}
		for i := 60; i >= 1; i-- { // inserted out of order
			names = append(names, fmt.Sprintf("item %02d", i))
		}
		return names
	}()
)

// engineApp imports an app with table Itens (Id, Texto, Nome) and returns it as ana sees it.
func engineApp(t *testing.T, db *store.DB) *semantic.App {
	t.Helper()
	ctx := context.Background()
	csv := "ID,TEXTO,NOME\n"
	cell := func(list []any, i int) string {
		if i >= len(list) || list[i] == nil {
			return `\N`
		}
		return list[i].(string)
	}
	for i := range max(len(engineTexts), len(engineNames)) {
		csv += fmt.Sprintf("%d,%s,%s\n", i+1, cell(engineTexts, i), cell(engineNames, i))
	}
	fsys := storetest.OneTableWorkspace("Motores", `      - {name: TEXTO, label: Texto, type: string}
      - {name: NOME, label: Nome, type: string}
`, csv)

	if _, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil || len(apps) != 1 {
		t.Fatalf("reading the app: %v (%d apps)", err, len(apps))
	}
	return apps[0]
}

// runQuery runs req on app the way the query tool does.
func runQuery(db *store.DB, app *semantic.App, req query.Request) (*query.Query, *query.Result, error) {
	ctx := context.Background()
	q, err := query.Analyze(app, req)
	if err != nil {
		return nil, nil, err
	}
	if err := query.CheckValues(ctx, db.SQL(), db.Dialect(), query.ValueSource{}, q); err != nil {
		return nil, nil, err
	}
	plan, err := query.PlanQuery(q)
	if err != nil {
		return nil, nil, err
	}
	res, err := query.Execute(ctx, db.SQL(), q, plan, query.RendererFor(db.Dialect()).Render(q, plan, nil))
	return q, res, err
}

// likeCorpus are like patterns (Go raw strings: every \ is one backslash in the value).
var likeCorpus = []string{
	// wildcards
	`100%`, `%`, `%%`, `_`, `__`, `_%`, `%_`, `%_%`, `_b`, `a_`, `a_b`, `%b`, `a%`, `a%b`, `a_ao`, `日_`, `___`,
	// escapes
	`100\%`, `%\%`, `%\%%`, `\%`, `\_`, `a\_b`, `%\_%`, `\_%`, `%\_`, `a\\b`, `a\\\\b`, `\\`, `%\\%`, `%\\`,
	`c:\\temp\\%`, `a\\\%b`, `50\% off`, `água\_fria`, `%ção\\`,
	// a lone backslash: before another character or at the end
	`a\b`, `a\`, `\`, `c:\temp%`, `%\\\`, `a\ `, `\a`, `%\ção`,
	// accents, case and white space
	`ab`, `AB`, `são joão`, `SAO%`, `%JOÃO`, `ação`, `ACAO`, `%ção`, `água_fria`, `ÁGUA\_FRIA`, `  100   %  `, `a b`,
	`ß`, `ss`,
	// plain text, empty and blank
	`x`, `y`, `100 %`, ``, ` `,
}

// likeRef is the reference for the pattern language: ok is false when the pattern is refused
// (empty, or a \ that is not before %, _ or \). It folds the pattern and each value and matches
// them by dynamic programming over characters, independently of any SQL engine.
func likeRef(pattern, value string) (match, ok bool) {
	if pattern == "" {
		return false, false
	}
	r := []rune(pattern)
	for i := 0; i < len(r); i++ {
		if r[i] == '\\' {
			if i+1 == len(r) || !strings.ContainsRune(`%_\`, r[i+1]) {
				return false, false
			}
			i++
		}
	}
	type tok struct {
		r    rune
		wild bool // r is % or _ unescaped
	}
	var toks []tok
	pr := []rune(fold.Fold(pattern))
	for i := 0; i < len(pr); i++ {
		switch {
		case pr[i] == '\\':
			i++
			toks = append(toks, tok{r: pr[i]})
		case pr[i] == '%' || pr[i] == '_':
			toks = append(toks, tok{r: pr[i], wild: true})
		default:
			toks = append(toks, tok{r: pr[i]})
		}
	}
	v := []rune(fold.Fold(value))
	// m[i][j]: the first i tokens match the first j characters.
	m := make([][]bool, len(toks)+1)
	for i := range m {
		m[i] = make([]bool, len(v)+1)
	}
	m[0][0] = true
	for i := 1; i <= len(toks); i++ {
		t := toks[i-1]
		for j := 0; j <= len(v); j++ {
			switch {
			case t.wild && t.r == '%':
				m[i][j] = m[i-1][j] || (j > 0 && m[i][j-1])
			case t.wild: // _
				m[i][j] = j > 0 && m[i-1][j-1]
			default:
				m[i][j] = j > 0 && m[i-1][j-1] && v[j-1] == t.r
			}
		}
	}
	return m[len(toks)][len(v)], true
}

// Every like and not like pattern keeps the same rows on every engine: those of the reference
// matcher over folded text, a blank row (NULL or the empty text) never matching, % included (so
// not like keeps it), or it is refused naming filters[0].value.
func TestLikePatternsAgreeWithReference(t *testing.T) {
	if len(likeCorpus) < 44 {
		t.Fatalf("the corpus has %d patterns; keep at least 44", len(likeCorpus))
	}
	onBothEngines(t, func(t *testing.T, db *store.DB) {
		app := engineApp(t, db)
		for _, pattern := range likeCorpus {
			for _, op := range []string{"like", "not like"} {
				var want []float64
				valid := true
				for i := range max(len(engineTexts), len(engineNames)) {
					var s string
					isText := false
					if i < len(engineTexts) {
						s, isText = engineTexts[i].(string)
					}
					match, ok := likeRef(pattern, s)
					valid = ok
					filled := isText && s != ""
					if filled && match == (op == "like") || !filled && op == "not like" {
						want = append(want, float64(i+1))
					}
				}
				_, res, err := runQuery(db, app, query.Request{
					Fields:  []query.Item{{Ref: "Itens.Id"}},
					Filters: []query.Filter{{Item: query.Item{Ref: "Itens.Texto"}, Op: op, Value: pattern}},
					OrderBy: []query.Order{{Item: query.Item{Ref: "Itens.Id"}, Dir: "asc"}},
					Limit:   500,
				})
				if !valid {
					var qe *query.Error
					if !errors.As(err, &qe) || qe.Code != query.CodeInvalidFilter || !strings.HasPrefix(qe.Message, "filters[0]") {
						t.Errorf("%s %q: want INVALID_FILTER naming filters[0], got %v", op, pattern, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s %q: %v", op, pattern, err)
					continue
				}
				var got []float64
				for _, row := range res.Rows {
					got = append(got, row[0].(float64))
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("%s %q: ids (-want +got):\n%s", op, pattern, d)
				}
			}
		}
	})
}

// The message that refuses a lone backslash names the value, says the language and offers the
// pattern with that backslash doubled.
func TestLikeLoneBackslashIsRefusedWithTheFix(t *testing.T) {
	onBothEngines(t, func(t *testing.T, db *store.DB) {
		app := engineApp(t, db)
		for pattern, fixed := range map[string]string{`a\b`: `a\\b`, `a\`: `a\\`, `%\\\`: `%\\\\`, `c:\temp\%`: `c:\\temp\%`} {
			_, _, err := runQuery(db, app, query.Request{
				Fields:  []query.Item{{Ref: "Itens.Id"}},
				Filters: []query.Filter{{Item: query.Item{Ref: "Itens.Texto"}, Op: "not like", Value: pattern}},
			})
			var qe *query.Error
			if !errors.As(err, &qe) || qe.Code != query.CodeInvalidFilter {
				t.Fatalf("%q: want INVALID_FILTER, got %v", pattern, err)
			}
			for _, part := range []string{"filters[0].value:", `\%, \_ e \\`, "escreva \\\\"} {
				if !strings.Contains(qe.Message, part) {
					t.Errorf("%q: message lacks %q: %s", pattern, part, qe.Message)
				}
			}
			if d := cmp.Diff([]string{fixed}, qe.Suggestions); d != "" {
				t.Errorf("%q: suggestions (-want +got):\n%s", pattern, d)
			}
		}
	})
}

// suggestRef is what a value that is not in Nome gets, computed in Go from the column's values:
// the values that fold to it (several: refused, listing up to 5), else the first 50 in code point
// order that contain one of its folded words literally, ranked by suggest.Similar, else the
// first 500 filled values ranked so.
func suggestRef(v string) (code string, suggestions []string) {
	var all []string
	for _, n := range engineNames {
		if s, ok := n.(string); ok && !slices.Contains(all, s) {
			all = append(all, s)
		}
	}
	slices.Sort(all) // Go compares strings bytewise: code point order
	var same []string
	for _, s := range all {
		if s == v {
			return "", nil
		}
		if fold.Fold(s) == fold.Fold(v) {
			same = append(same, s)
		}
	}
	switch {
	case len(same) == 1:
		return "", nil
	case len(same) > 1:
		return query.CodeValueNotFound, same[:min(5, len(same))]
	}
	var cands []string
	for _, s := range all {
		for _, w := range fold.Words(v) {
			if strings.Contains(fold.Fold(s), w) {
				cands = append(cands, s)
				break
			}
		}
	}
	out := suggest.Similar(v, cands[:min(50, len(cands))], 5)
	if len(out) == 0 {
		var filled []string
		for _, s := range all {
			if s != "" {
				filled = append(filled, s)
			}
		}
		out = suggest.Similar(v, filled[:min(500, len(filled))], 5)
	}
	return query.CodeValueNotFound, out
}

// A value that does not exist gets the same similar values, in the same order, on every engine:
// those of the reference, whatever wildcards or backslashes it holds.
func TestValueSuggestionsAgreeAcrossEngines(t *testing.T) {
	probes := []string{
		`item 7`, `item 61`, `itém`, `a\bd`, `a\`, `x\\`, `\`, `50%x`, `5_`, `%`, `_`, `c:\temp`, `C:\TEMP\`,
		`sao joao`, `são jose`, `zzz`, `100\%`, `10_0`, `a\b`, `ESPECIAL`,
	}
	onBothEngines(t, func(t *testing.T, db *store.DB) {
		app := engineApp(t, db)
		for _, v := range probes {
			for _, op := range []string{"=", "in"} {
				value := any(v)
				if op == "in" {
					value = []any{v}
				}
				_, _, err := runQuery(db, app, query.Request{
					Fields:  []query.Item{{Ref: "Itens.Id", Agg: "count"}},
					Filters: []query.Filter{{Item: query.Item{Ref: "Itens.Nome"}, Op: op, Value: value}},
				})
				wantCode, want := suggestRef(v)
				var qe *query.Error
				switch {
				case wantCode == "" && err != nil:
					t.Errorf("%s %q: %v", op, v, err)
				case wantCode == "":
				case !errors.As(err, &qe) || qe.Code != wantCode:
					t.Errorf("%s %q: want %s, got %v", op, v, wantCode, err)
				default:
					if d := cmp.Diff(want, qe.Suggestions, cmpopts.EquateEmpty()); d != "" {
						t.Errorf("%s %q: suggestions (-want +got):\n%s", op, v, d)
					}
				}
			}
		}
	})
}

// The values of several checked columns are looked up together, a statement per 1,000 values
// across them: each column's corrections (case, accents) and notes come out as when each was
// checked alone, also where a column's values straddle two statements.
func TestValueChecksOfSeveralColumnsInOneLookup(t *testing.T) {
	names := []any{"ITEM 02"}
	for range 997 {
		names = append(names, "item 01")
	}
	onBothEngines(t, func(t *testing.T, db *store.DB) {
		app := engineApp(t, db)
		q, res, err := runQuery(db, app, query.Request{
			Fields: []query.Item{{Ref: "Itens.Id", Agg: "count"}},
			Filters: []query.Filter{
				{Item: query.Item{Ref: "Itens.Texto"}, Op: "in", Value: []any{"x", "AGUA_FRIA"}},
				{Item: query.Item{Ref: "Itens.Nome"}, Op: "in", Value: names},
				{Item: query.Item{Ref: "Itens.Nome"}, Op: "!=", Value: "sao jose"},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			`Itens.Texto: o valor "AGUA_FRIA" foi lido como "ÁGUA_FRIA" (diferença de caixa ou acento).`,
			`Itens.Nome: o valor "ITEM 02" foi lido como "item 02" (diferença de caixa ou acento).`,
			`Itens.Nome: o valor "sao jose" foi lido como "São José" (diferença de caixa ou acento).`,
		}
		if d := cmp.Diff(want, q.Notes); d != "" {
			t.Errorf("notes (-want +got):\n%s", d)
		}
		// Texto x is row 20, whose Nome is item 41; ÁGUA_FRIA row 18, Nome 1000: neither is item 01
		// or 02, so no row is counted (and a count over no row is no row).
		if len(res.Rows) != 0 {
			t.Errorf("rows: %v, want none", res.Rows)
		}
	})
}

// statementCounter counts the statements run through it.
type statementCounter struct {
	query.Querier
	n int
}

func (c *statementCounter) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	c.n++
	return c.Querier.QueryContext(ctx, q, args...)
}

// TestValueChecksOfHeldValues: a value the source holds in memory needs no statement; one it
// lacks is read from the database and corrected as any other; a column it holds nothing of is
// looked up.
func TestValueChecksOfHeldValues(t *testing.T) {
	onBothEngines(t, func(t *testing.T, db *store.DB) {
		app := engineApp(t, db)
		src := query.ValueSource{Held: func(c *semantic.Column) map[string]bool {
			if c.Ref() == "Itens.Nome" {
				return map[string]bool{"item 01": true, "item 02": true}
			}
			return nil
		}}
		check := func(filters ...query.Filter) (*query.Query, int) {
			t.Helper()
			q, err := query.Analyze(app, query.Request{Fields: []query.Item{{Ref: "Itens.Id", Agg: "count"}}, Filters: filters})
			if err != nil {
				t.Fatal(err)
			}
			counter := &statementCounter{Querier: db.SQL()}
			if err := query.CheckValues(context.Background(), counter, db.Dialect(), src, q); err != nil {
				t.Fatal(err)
			}
			return q, counter.n
		}
		nome := query.Item{Ref: "Itens.Nome"}
		if q, n := check(query.Filter{Item: nome, Op: "in", Value: []any{"item 01", "item 02"}}); n != 0 || len(q.Notes) != 0 {
			t.Errorf("held values: %d statements, notes %v; want none", n, q.Notes)
		}
		q, n := check(query.Filter{Item: nome, Op: "in", Value: []any{"item 01", "ITEM 02"}},
			query.Filter{Item: query.Item{Ref: "Itens.Texto"}, Op: "=", Value: "x"})
		want := []string{`Itens.Nome: o valor "ITEM 02" foi lido como "item 02" (diferença de caixa ou acento).`}
		if d := cmp.Diff(want, q.Notes); d != "" {
			t.Errorf("notes (-want +got):\n%s", d)
		}
		if n != 2 { // Texto's lookup, and ITEM 02's spelling
			t.Errorf("%d statements, want 2", n)
		}
	})
}
