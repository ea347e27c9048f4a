package semantic

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseFormula(t *testing.T) {
	tests := []struct {
		in   string
		want string // String() of the tree
		refs []string
	}{
		{"sum([Vendas.VALOR_LIQ])", "sum([Vendas.VALOR_LIQ])", []string{"Vendas.VALOR_LIQ"}},
		{"(sum([Vendas.VALOR_LIQ]) - sum([Vendas.Custo])) / sum([Vendas.VALOR_LIQ])",
			"((sum([Vendas.VALOR_LIQ]) - sum([Vendas.Custo])) / sum([Vendas.VALOR_LIQ]))",
			[]string{"Vendas.VALOR_LIQ", "Vendas.Custo"}},
		{"sum([Vendas.Valor da venda]) / count_distinct([Vendas.Id])",
			"(sum([Vendas.Valor da venda]) / count_distinct([Vendas.Id]))",
			[]string{"Vendas.Valor da venda", "Vendas.Id"}},
		{"1 + 2 * 3", "(1 + (2 * 3))", nil},
		{"1 - 2 - 3", "((1 - 2) - 3)", nil},
		{"8 / 4 / 2", "((8 / 4) / 2)", nil},
		{"(1 + 2) * 3", "((1 + 2) * 3)", nil},
		{"-sum([T.A]) * 100", "(-sum([T.A]) * 100)", []string{"T.A"}},
		{"- -1", "--1", nil},
		{"2 * -3", "(2 * -3)", nil},
		{"0.25", "0.25", nil},
		{"  SUM( [ Vendas.Situação ] )\n", "sum([Vendas.Situação])", []string{"Vendas.Situação"}},
		{"avg([T.A])+min([T.B])-max([T.C])+count([T.D])", "(((avg([T.A]) + min([T.B])) - max([T.C])) + count([T.D]))",
			[]string{"T.A", "T.B", "T.C", "T.D"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			f, err := ParseFormula(tt.in)
			if err != nil {
				t.Fatalf("ParseFormula(%q): %v", tt.in, err)
			}
			if got := f.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if diff := cmp.Diff(tt.refs, FormulaRefs(f)); diff != "" {
				t.Errorf("FormulaRefs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseFormulaTree(t *testing.T) {
	f, err := ParseFormula("sum([A.B]) / -2.5")
	if err != nil {
		t.Fatal(err)
	}
	want := &Binary{Op: "/", Position: 12,
		Left:  &Aggregate{Func: "sum", Ref: "A.B", Position: 1},
		Right: &Unary{Op: "-", Position: 14, X: &Number{Value: 2.5, Text: "2.5", Position: 15}},
	}
	if diff := cmp.Diff(Formula(want), f); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	if f.Pos() != 1 {
		t.Errorf("Pos() = %d, want 1", f.Pos())
	}
}

func TestParseFormulaErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"", `posição 1: esperava uma agregação como sum([Tabela.Coluna]) ou um número, mas encontrou o fim da fórmula`},
		{"sum([A.B]", `posição 10: esperava ")" fechando sum (a agregação recebe uma ref só), mas encontrou o fim da fórmula`},
		{"sum([A.B]) +", `posição 13: esperava uma agregação como sum([Tabela.Coluna]), um número ou "(", mas encontrou o fim da fórmula`},
		{"soma([A.B])", `posição 1: esperava uma agregação: sum, avg, min, max, count ou count_distinct (ou, para comparar com o resultado inteiro, sum_all, avg_all, min_all ou max_all), mas encontrou "soma"`},
		{"sum(A.B)", `posição 5: esperava uma ref entre colchetes, como sum([Tabela.Coluna]), mas encontrou "A"`},
		{"sum[A.B]", `posição 4: esperava "(" depois de sum, mas encontrou "[A.B]"`},
		{"sum([])", `posição 5: esperava uma ref Tabela.Coluna dentro dos colchetes, mas encontrou "[]"`},
		{"sum([A.B)", `posição 10: esperava "]" fechando a ref aberta na posição 5, mas encontrou o fim da fórmula`},
		{"sum([A.[B]])", `posição 8: esperava "]" fechando a ref aberta na posição 5, mas encontrou "["`},
		{"sum([Vendas].[Valor])", `posição 13: esperava ")" fechando sum (a agregação recebe uma ref só), mas encontrou "."`},
		{"[A.B]", `posição 1: esperava uma agregação em volta da ref, como sum([A.B]), mas encontrou "[A.B]"`},
		{"(1 + 2", `posição 7: esperava ")" ou um operador (+ - * /), mas encontrou o fim da fórmula`},
		{"1 + 2)", `posição 6: esperava um operador (+ - * /) ou o fim da fórmula, mas encontrou ")"`},
		{"1. + 2", `posição 3: esperava um algarismo depois do ponto decimal, mas encontrou " "`},
		{"1,5", `posição 2: esperava um operador (+ - * /) ou o fim da fórmula, mas encontrou ","`},
		{"sum([A.B]) % 2", `posição 12: esperava um operador (+ - * /) ou o fim da fórmula, mas encontrou "%"`},
		{"é + sum([A.B])", `posição 1: esperava uma agregação: sum, avg, min, max, count ou count_distinct (ou, para comparar com o resultado inteiro, sum_all, avg_all, min_all ou max_all), mas encontrou "é"`},
		{"sum([A.B]) sum([A.C])", `posição 12: esperava um operador (+ - * /) ou o fim da fórmula, mas encontrou "sum"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseFormula(tt.in)
			if err == nil {
				t.Fatalf("ParseFormula(%q) = nil error, want %q", tt.in, tt.want)
			}
			var fe *FormulaError
			if !errors.As(err, &fe) {
				t.Fatalf("error %T is not *FormulaError", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestParseFormulaDepth(t *testing.T) {
	deep := ""
	for range 200 {
		deep += "("
	}
	if _, err := ParseFormula(deep + "1"); err == nil {
		t.Fatal("want an error for 200 nested parentheses")
	}
	ok := ""
	for range 50 {
		ok += "("
	}
	ok += "1"
	for range 50 {
		ok += ")"
	}
	if _, err := ParseFormula(ok); err != nil {
		t.Fatalf("50 nested parentheses: %v", err)
	}
}

func TestFormulaAggregates(t *testing.T) {
	f, err := ParseFormula("sum([A.X]) / count_distinct([A.Y]) + sum([A.X])")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range FormulaAggregates(f) {
		got = append(got, a.Func+" "+a.Ref)
	}
	want := []string{"sum A.X", "count_distinct A.Y", "sum A.X"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FormulaAggregates (-want +got):\n%s", diff)
	}
}

func TestParseFormulaWhole(t *testing.T) {
	tests := []struct {
		in    string
		want  string
		refs  []string
		words string
	}{
		{"sum([P.Valor]) / sum_all(sum([P.Valor]))", "(sum([P.Valor]) / sum_all(sum([P.Valor])))", []string{"P.Valor"},
			"soma de P.Valor ÷ soma no resultado inteiro de (soma de P.Valor)"},
		{"MAX_ALL(sum([L.Receita])) - sum([L.Receita])", "(max_all(sum([L.Receita])) - sum([L.Receita]))", []string{"L.Receita"},
			"máximo no resultado inteiro de (soma de L.Receita) − soma de L.Receita"},
		{"sum([C.Saldo]) - avg_all(sum([C.Saldo]) / count([C.Id]))", "(sum([C.Saldo]) - avg_all((sum([C.Saldo]) / count([C.Id]))))",
			[]string{"C.Saldo", "C.Id"}, "soma de C.Saldo − média no resultado inteiro de (soma de C.Saldo ÷ contagem de C.Id)"},
		{"min_all(sum([V.X]) onde [S] = \"A\") * 2", `(min_all((sum([V.X]) onde ([S] = "A"))) * 2)`, []string{"V.X"},
			`mínimo no resultado inteiro de (soma de V.X onde S = "A") × 2`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			f, err := ParseFormula(tt.in)
			if err != nil {
				t.Fatalf("ParseFormula(%q): %v", tt.in, err)
			}
			if got := f.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			if diff := cmp.Diff(tt.refs, FormulaRefs(f)); diff != "" {
				t.Errorf("FormulaRefs (-want +got):\n%s", diff)
			}
			if got := FormulaWords(f); got != tt.words {
				t.Errorf("FormulaWords = %q, want %q", got, tt.words)
			}
		})
	}
	f, err := ParseFormula("sum([A.B]) / sum_all(sum([A.B]))")
	if err != nil {
		t.Fatal(err)
	}
	want := &Binary{Op: "/", Position: 12,
		Left:  &Aggregate{Func: "sum", Ref: "A.B", Position: 1},
		Right: &Whole{Func: "sum", Position: 14, X: &Aggregate{Func: "sum", Ref: "A.B", Position: 22}},
	}
	if diff := cmp.Diff(Formula(want), f); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
}

func TestParseFormulaWholeErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"sum_all(max_all(sum([A.B])))", `posição 9: esperava uma agregação como sum([Tabela.Coluna]) dentro de sum_all (aberto na posição 1): max_all não pode ficar dentro de outra função sobre o resultado inteiro, mas encontrou "max_all"`},
		{"sum([A.B]) / avg_all(1 + sum([A.B]) * min_all(sum([A.B])))", `posição 39: esperava uma agregação como sum([Tabela.Coluna]) dentro de avg_all (aberto na posição 14): min_all não pode ficar dentro de outra função sobre o resultado inteiro, mas encontrou "min_all"`},
		{"sum_all(2)", `posição 9: esperava uma agregação dentro de sum_all, como sum_all(sum([Tabela.Coluna])): ele agrega os valores dos grupos da resposta, mas encontrou uma conta sem agregação`},
		{"sum_all([A.B])", `posição 9: esperava uma agregação em volta da ref, como sum([A.B]), mas encontrou "[A.B]"`},
		{"sum_all sum([A.B])", `posição 9: esperava "(" depois de sum_all, como sum_all(sum([Tabela.Coluna])), mas encontrou "sum"`},
		{"sum_all(sum([A.B])", `posição 19: esperava ")" fechando sum_all, ou um operador (+ - * /), mas encontrou o fim da fórmula`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseFormula(tt.in)
			if err == nil {
				t.Fatalf("ParseFormula(%q) = nil error, want %q", tt.in, tt.want)
			}
			var fe *FormulaError
			if !errors.As(err, &fe) {
				t.Fatalf("error %T is not *FormulaError", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
	if _, err := ParseRowFormula("[A] / sum_all([B])"); err == nil || !strings.Contains(err.Error(), "sum_all vale só numa expressão") {
		t.Errorf("ParseRowFormula with sum_all: %v, want a refusal naming expressions", err)
	}
}
