package semantic

import (
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzParseFormula: the parser never panics (nor overflows the stack), an error is a
// *FormulaError pointing inside the formula (or just past its end), and a parsed formula prints to
// text that parses back to the same tree.
//
//	go test ./impl/lumo/semantic -run '^$' -fuzz FuzzParseFormula -fuzztime 30s
func FuzzParseFormula(f *testing.F) {
	for _, seed := range []string{
		"sum([Vendas.VALOR_LIQ])",
		"SUM([Vendas.VALOR_LIQ]) / count_distinct([Vendas.ID]) * 100",
		"-(-(1.5 + avg([T.C]))) - min([T.D])",
		"max([T.a]) / (sum([T.b]) - 2)",
		"sum([T.",
		"sum([])",
		"((((((1))))))",
		"1 +* 2",
		"soma([T.C])",
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fm, err := ParseFormula(s)
		if err != nil {
			var fe *FormulaError
			if !errors.As(err, &fe) {
				t.Fatalf("not a *FormulaError: %T %v", err, err)
			}
			if fe.Position < 1 || fe.Position > utf8.RuneCountInString(s)+1 || fe.Expected == "" || fe.Found == "" {
				t.Fatalf("error out of the formula %q: %+v", s, fe)
			}
			return
		}
		again, err := ParseFormula(fm.String())
		if err != nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", s, fm.String(), err)
		}
		if again.String() != fm.String() {
			t.Fatalf("%q prints as %q, which parses to %q", s, fm.String(), again.String())
		}
		_ = FormulaAggregates(fm)
		_ = FormulaRefs(fm)
	})
}
