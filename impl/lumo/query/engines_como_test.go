package query_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// comoApp imports engineApp's rows with, for each valid pattern of likeCorpus, two calculated
// columns: C<i> = se([Texto] como "<pattern>"; 1; 0) and N<i> = se([Texto] não como ...; 1; 0),
// and E = se([Texto] em (...); 1; 0) over a few values.
func comoApp(t *testing.T, db *store.DB, patterns []string) {
	t.Helper()
	csv := "ID,TEXTO\n"
	for i, v := range engineTexts {
		s, ok := v.(string)
		if !ok {
			s = `\N`
		}
		csv += fmt.Sprintf("%d,%s\n", i+1, s)
	}
	more := "      - {name: TEXTO, label: Texto, type: string}\n"
	for i, p := range patterns {
		more += fmt.Sprintf("      - {name: C%d, label: C%d, type: number, formula: 'se([Texto] como \"%s\"; 1; 0)'}\n", i, i, p)
		more += fmt.Sprintf("      - {name: N%d, label: N%d, type: number, formula: 'se([Texto] não como \"%s\"; 1; 0)'}\n", i, i, p)
	}
	more += "      - {name: E, label: E, type: number, formula: 'se([Texto] em (\"ab\", \"São João\", \"\", \"日本\"); 1; 0)'}\n"
	more += "      - {name: F, label: F, type: number, formula: 'se(não [Texto] em (\"ab\", \"x\"); 1; 0)'}\n"
	// Flags of flags: a flag compared with a number inside se, under e and under não.
	more += "      - {name: G, label: G, type: number, formula: 'se([E] = 1 e 1 = [E]; 1; 0)'}\n"
	more += "      - {name: H, label: H, type: number, formula: 'se([F] = 0 ou [E] = 2; 1; 0)'}\n"
	more += "      - {name: K, label: K, type: number, formula: 'se(não ([E] = 1); 1; 0)'}\n"
	// = and em with filled texts, where only truth counts and under não.
	more += "      - {name: L, label: L, type: number, formula: 'se([Texto] = \"ab\" ou \"x\" = [Texto] ou [Texto] em (\"São João\", \"ß\"); 1; 0)'}\n"
	more += "      - {name: M, label: M, type: number, formula: 'se(não ([Texto] = \"ab\") e não [Texto] em (\"x\", \"ß\"); 1; 0)'}\n"
	if _, err := db.ImportWorkspace(context.Background(), storetest.OneTableWorkspace("Como", more, csv), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
}

// A formula's como keeps the same rows as the query's like on every engine: those of the
// reference matcher over folded text, a blank value (NULL or the empty text) matching no pattern
// (não como keeps it); em is = joined by ou: exact text, a blank value (NULL or the empty text)
// unknown, so neither em nor não em holds on it (se gives 0).
func TestComoAgreesWithReference(t *testing.T) {
	var patterns []string
	for _, p := range likeCorpus {
		if _, ok := likeRef(p, ""); ok {
			patterns = append(patterns, p)
		}
	}
	onBothEngines(t, func(t *testing.T, db *store.DB) {
		comoApp(t, db, patterns)
		ctx := context.Background()
		u, err := db.UserByLogin(ctx, "ana")
		if err != nil {
			t.Fatal(err)
		}
		apps, err := db.VisibleApps(ctx, u)
		if err != nil || len(apps) != 1 {
			t.Fatalf("reading the app: %v", err)
		}
		app := apps[0]
		idsWhere := func(label string, value float64) []float64 {
			_, res, err := runQuery(db, app, query.Request{
				Fields:  []query.Item{{Ref: "Itens.Id"}},
				Filters: []query.Filter{{Item: query.Item{Ref: "Itens." + label}, Op: "=", Value: value}},
				OrderBy: []query.Order{{Item: query.Item{Ref: "Itens.Id"}, Dir: "asc"}},
				Limit:   500,
			})
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			var got []float64
			for _, row := range res.Rows {
				got = append(got, row[0].(float64))
			}
			return got
		}
		ids := func(label string) []float64 { return idsWhere(label, 1) }
		for i, p := range patterns {
			var como, nao []float64
			for j, v := range engineTexts {
				s, isText := v.(string)
				match, _ := likeRef(p, s)
				if isText && s != "" && match {
					como = append(como, float64(j+1))
				} else {
					nao = append(nao, float64(j+1))
				}
			}
			if d := cmp.Diff(como, ids(fmt.Sprintf("C%d", i))); d != "" {
				t.Errorf("como %q: ids (-want +got):\n%s", p, d)
			}
			if d := cmp.Diff(nao, ids(fmt.Sprintf("N%d", i))); d != "" {
				t.Errorf("não como %q: ids (-want +got):\n%s", p, d)
			}
		}
		var em, notEm []float64
		for j, v := range engineTexts {
			s, ok := v.(string)
			// A blank (NULL or the empty text) is unknown either way: "" in the list matches nothing.
			if ok && (s == "ab" || s == "São João" || s == "日本") {
				em = append(em, float64(j+1))
			}
			if ok && s != "" && s != "ab" && s != "x" {
				notEm = append(notEm, float64(j+1))
			}
		}
		if d := cmp.Diff(em, ids("E")); d != "" {
			t.Errorf("em: ids (-want +got):\n%s", d)
		}
		if d := cmp.Diff(notEm, ids("F")); d != "" {
			t.Errorf("não em: ids (-want +got):\n%s", d)
		}
		// = 0 keeps exactly the other rows: se gives 0 where the condition is unknown. G is E, H is
		// F = 0, K is E = 0: a flag compared with a number is exact under e, ou and não.
		others := func(ids []float64) []float64 {
			var out []float64
			for j := range engineTexts {
				if !slices.Contains(ids, float64(j+1)) {
					out = append(out, float64(j+1))
				}
			}
			return out
		}
		var exact, notM []float64 // L's texts; M's: filled, and neither ab, x nor ß
		for j, v := range engineTexts {
			s, ok := v.(string)
			if ok && (s == "ab" || s == "x" || s == "São João" || s == "ß") {
				exact = append(exact, float64(j+1))
			}
			if ok && s != "" && s != "ab" && s != "x" && s != "ß" {
				notM = append(notM, float64(j+1))
			}
		}
		for label, want := range map[string][]float64{"G": em, "H": others(notEm), "K": others(em), "L": exact, "M": notM} {
			if d := cmp.Diff(want, ids(label)); d != "" {
				t.Errorf("%s = 1: ids (-want +got):\n%s", label, d)
			}
		}
		for label, one := range map[string][]float64{"E": em, "F": notEm, "G": em, "H": others(notEm), "K": others(em), "L": exact, "M": notM} {
			var zero []float64
			for j := range engineTexts {
				if !slices.Contains(one, float64(j+1)) {
					zero = append(zero, float64(j+1))
				}
			}
			if d := cmp.Diff(zero, idsWhere(label, 0)); d != "" {
				t.Errorf("%s = 0: ids (-want +got):\n%s", label, d)
			}
		}
	})
}

// A pattern the query's like refuses is refused at import, naming the column and the fix.
func TestComoRefusedAtImport(t *testing.T) {
	db, err := store.Open(context.Background(), t.TempDir()+"/lumo.db")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	more := "      - {name: TEXTO, label: Texto, type: string}\n" +
		"      - {name: C, label: C, type: number, formula: 'se([Texto] como \"c:\\temp%\"; 1; 0)'}\n"
	_, err = db.ImportWorkspace(context.Background(), storetest.OneTableWorkspace("Como", more, "ID,TEXTO\n1,a\n"), "workspace.yaml")
	want := `apps/app/app.yaml:10: tables[0].columns[2].formula: a fórmula da coluna calculada Itens.C não pôde ser usada: posição 17: no padrão de como, a \ do caractere 3 não vem antes de %, _ ou outra \`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `escreva "c:\\temp%"`) {
		t.Errorf("import error:\n got %v\nwant %s", err, want)
	}
}
