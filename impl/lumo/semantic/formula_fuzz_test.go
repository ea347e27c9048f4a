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
		`sum([V.Valor]) onde [Promo] = 1 / sum([V.Valor])`,
		`count([V.Id]) onde ([P] = "Urgente" e não [S] <> "x""y")`,
		`sum([V.A]) onde não -[B] >= (1 + [C]) * 2`,
		`[Preço] * (1 - [Desconto])`,
		`se([Entrega] > [Prometida]; 1; 0)`,
		`se(não ([A] = "a" ou [B] <= 2) e [C] < [D]; "x"; se([E]; 1; 2))`,
		`[A] < [B] < [C]`,
		`se([A]; 1`,
		`"sem fim`,
		`se([Tipo] como "PROMO%" e [UF] não em ("SP"; "RJ"); 1; 0)`,
		`count([V.Id]) onde não [Segmento] em (1, -2.5) / count([V.Id])`,
		`[A] em ()`,
		`[A] como "x" como "y"`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkParse(t, s, ParseFormula)
		checkParse(t, s, ParseRowFormula)
	})
}

// checkParse runs one parser over s: an error points inside s, and a tree prints to text that
// parses back to the same tree and prints in words without panicking.
func checkParse(t *testing.T, s string, parse func(string) (Formula, error)) {
	{
		fm, err := parse(s)
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
		again, err := parse(fm.String())
		if err != nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", s, fm.String(), err)
		}
		if again.String() != fm.String() {
			t.Fatalf("%q prints as %q, which parses to %q", s, fm.String(), again.String())
		}
		_ = FormulaAggregates(fm)
		_ = FormulaRefs(fm)
		_ = RowRefs(fm)
		_ = FormulaWords(fm)
	}
}
