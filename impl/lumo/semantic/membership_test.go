package semantic

import (
	"errors"
	"strings"
	"testing"
)

// como and em parse at the level of a comparison, in calculated columns and in onde.
func TestParseComoEm(t *testing.T) {
	row := []struct{ in, want string }{
		{`[Tipo] como "PROMO%"`, `([Tipo] como "PROMO%")`},
		{`[Segmento] em ("A", "B")`, `([Segmento] em ("A", "B"))`},
		{`[Segmento] EM ("A"; "B")`, `([Segmento] em ("A", "B"))`},
		{`[Prioridade] em (1, -2, 3.50)`, `([Prioridade] em (1, -2, 3.50))`},
		{`[Tipo] não como "PROMO%"`, `não ([Tipo] como "PROMO%")`},
		{`não [Tipo] como "PROMO%" e [UF] nao em ("SP")`, `(não ([Tipo] como "PROMO%") e não ([UF] em ("SP")))`},
		{`se([Tipo] como "%\%%" ou [A] + 1 em (2); 1; 0)`, `se((([Tipo] como "%\%%") ou (([A] + 1) em (2))); 1; 0)`},
	}
	for _, tt := range row {
		f, err := ParseRowFormula(tt.in)
		if err != nil {
			t.Errorf("ParseRowFormula(%q): %v", tt.in, err)
			continue
		}
		if got := f.String(); got != tt.want {
			t.Errorf("ParseRowFormula(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	expr := []struct{ in, want string }{
		{`sum([V.Valor]) onde [Tipo] como "PROMO%" / sum([V.Valor])`, `((sum([V.Valor]) onde ([Tipo] como "PROMO%")) / sum([V.Valor]))`},
		{`count([V.Id]) onde [Segmento] não em ("A", "B")`, `(count([V.Id]) onde não ([Segmento] em ("A", "B")))`},
	}
	for _, tt := range expr {
		f, err := ParseFormula(tt.in)
		if err != nil {
			t.Errorf("ParseFormula(%q): %v", tt.in, err)
			continue
		}
		if got := f.String(); got != tt.want {
			t.Errorf("ParseFormula(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseComoEmErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`[Segmento] em ()`, `posição 16: esperava ao menos um valor na lista de em, como [Segmento] em ("A", "B"), mas encontrou ")"`},
		{`[Segmento] em "A"`, `posição 15: esperava "(" e a lista de valores depois de em, como [Segmento] em ("A", "B"), mas encontrou o texto "A"`},
		{`[Segmento] em ("A", [B])`, `posição 21: esperava um valor da lista de em: um número ou um texto entre aspas (a lista leva só valores fixos, não refs nem contas), mas encontrou "[B]"`},
		{`[Segmento] em ("A" "B")`, `posição 20: esperava "," e outro valor, ou ")" fechando a lista de em, mas encontrou o texto "B"`},
		{`[Tipo] como PROMO`, `posição 13: esperava um padrão entre aspas depois de como, como [Tipo] como "PROMO%" (% é qualquer sequência de caracteres, _ um caractere só), mas encontrou "PROMO"`},
		{`[Tipo] como "A%" = 1`, `posição 18: esperava o fim da comparação (uma comparação por vez; junte duas com e), mas encontrou "="`},
		{`[Tipo] não = "A"`, `posição 12: esperava como ou em depois de não ([Tipo] não como "PROMO%", [UF] não em ("SP", "RJ")); para negar uma comparação, escreva não antes dela, mas encontrou "="`},
	}
	for _, tt := range tests {
		_, err := ParseRowFormula(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseRowFormula(%q) error:\n got %v\nwant %s", tt.in, err, tt.want)
		}
	}
}

func TestBindComoEm(t *testing.T) {
	tests := []struct {
		formula, typ string
		want         string // error, or "" when it binds
	}{
		{`se([Nome] como "ana%"; 1; 0)`, TypeNumber, ""},
		{`se([Nome] não como "%silva"; "outro"; [Nome])`, TypeString, ""},
		{`se([Preço] em (1, 2.5, -3); 1; 0)`, TypeNumber, ""},
		{`se([Pedido] em ("2026-09-01", "2026-09-02"); 1; 0)`, TypeNumber, ""},
		{`se([Nome] em ("A"; "B"); 1; 0)`, TypeNumber, ""},
		{`se([Preço] como "1%"; 1; 0)`, TypeNumber, `posição 12: como compara um texto com um padrão, e [Preço] é número; para número ou data use =, em ou uma comparação (<, >=)`},
		{`se([Nome] como ""; 1; 0)`, TypeNumber, `posição 16: o padrão de como está vazio; escreva o texto procurado, com % para qualquer sequência de caracteres ("PROMO%", "%cupom%"), ou compare com = ""`},
		{`se([Nome] como "a\b"; 1; 0)`, TypeNumber, `posição 16: no padrão de como, a \ do caractere 2 não vem antes de %, _ ou outra \: em como, % é qualquer sequência de caracteres, _ é um caractere só, e \%, \_ e \\ procuram %, _ e \ literais; escreva "a\\b"`},
		{`se([Nome] em ("A", 1); 1; 0)`, TypeNumber, `posição 20: a lista de em mistura números e textos: em compara [Nome], que é texto, com valores do mesmo tipo, e 1 é número; deixe na lista só textos entre aspas`},
		{`se([Preço] em ("1"); 1; 0)`, TypeNumber, `posição 16: em compara [Preço], que é número, com valores do mesmo tipo, e "1" é texto; deixe na lista só números`},
		{`se([Pedido] em ("01/09/2026"); 1; 0)`, TypeNumber, `posição 17: o texto "01/09/2026" é comparado com uma data e não é uma data no formato AAAA-MM-DD`},
		{`se([Pedido] em (1); 1; 0)`, TypeNumber, `posição 17: em compara [Pedido], que é data, com valores do mesmo tipo, e 1 é número; deixe na lista só datas entre aspas no formato AAAA-MM-DD, como ("2026-09-01", "2026-09-02")`},
		{`[Nome] como "a%"`, TypeNumber, `posição 1: a fórmula é uma condição (vale ou não vale), e uma coluna guarda um valor; escreva se(condição; 1; 0) para contar, ou se(condição; "sim"; "não")`},
	}
	for _, tt := range tests {
		a := calcTestApp()
		c := &Column{Table: a.Tables[0], Name: "X", Label: "Calculada", Type: tt.typ, Formula: tt.formula}
		a.Tables[0].Columns = append(a.Tables[0].Columns, c)
		errs := a.BindCalculated()
		got := ""
		if len(errs) > 0 {
			got = errs[0].Err.Error()
		}
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.formula, got, tt.want)
		}
		if tt.want == "" && (c.Calc == nil || len(errs) > 0) {
			t.Errorf("%s: not bound", tt.formula)
		}
	}
	// In onde, como reads the aggregated table's text columns.
	a := calcTestApp()
	f, err := ParseFormula(`count([Pedidos.Preço]) onde [Nome] como "%a%"`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.BindCondition(FormulaAggregates(f)[0].Where, a.Tables[0]); err != nil {
		t.Errorf("como in onde: %v", err)
	}
}

func TestComoEmWords(t *testing.T) {
	tests := []struct{ in, want string }{
		{`se([Tipo] como "PROMO%"; 1; 0)`, `se Tipo como "PROMO%" então 1, senão 0`},
		{`se([Segmento] não em ("A", "B"); 1; 0)`, `se não Segmento em ("A", "B") então 1, senão 0`},
		{`se([Nota] em (1.5, 2); 1; 0)`, `se Nota em (1,5; 2) então 1, senão 0`},
	}
	for _, tt := range tests {
		f, err := ParseRowFormula(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormulaWords(f); got != tt.want {
			t.Errorf("FormulaWords(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// An aggregate of the column's own table reads every row of that table (meeting onde).
func TestBindOwnTableAggregate(t *testing.T) {
	tests := []struct{ formula, want string }{
		{"[Custo] / sum([Custo])", ""},
		{"avg([Produtos.Custo]) onde [Id] > 1", ""},
		{"count([Id]) onde [Custo] > avg([Custo])", ""},
		{"sum([Calculada])", "posição 1: as colunas calculadas formam um ciclo (Calculada → Calculada): uma delas precisa ser calculada sem depender das outras"},
		{"sum([Id]) onde [Preço] > 1", "posição 16: a coluna [Preço] não existe em Produtos nem nas tabelas que ela alcança; use o rótulo de uma coluna de Produtos ou Tabela.Coluna"},
	}
	for _, tt := range tests {
		a := calcTestApp()
		pr := a.Tables[1]
		c := &Column{Table: pr, Name: "X", Label: "Calculada", Type: TypeNumber, Formula: tt.formula}
		pr.Columns = append(pr.Columns, c)
		got := ""
		if errs := a.BindCalculated(); len(errs) > 0 {
			got = errs[0].Err.Error()
		}
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.formula, got, tt.want)
		}
		if tt.want != "" {
			continue
		}
		for _, ag := range FormulaAggregates(c.Calc) {
			if ag.Rows == nil || !ag.Rows.All || ag.Rows.Rows != pr || ag.Rows.Of != pr || ag.Rows.Key() != nil {
				t.Errorf("%s: not every row of Produtos: %+v", tt.formula, ag.Rows)
			}
		}
	}
}

// A calculated column may aggregate the rows of another table that reach its table.
func TestBindRelatedAggregate(t *testing.T) {
	tests := []struct {
		formula, typ string
		want         string // error, or "" when it binds
	}{
		{"count([Pedidos.Preço])", TypeNumber, ""},
		{`sum([Pedidos.Preço]) onde ([Nome] como "a%" e [Produtos.Custo] > 1)`, TypeNumber, ""},
		{"max([Pedidos.Entrega])", TypeDate, ""},
		{`se(count_distinct([Pedidos.Nome]) = 0; "sem"; "com")`, TypeString, ""},
		{"avg([Pedidos.Preço]) / [Custo]", TypeNumber, ""},

		{"count([Clientes.Limite])", TypeNumber, "posição 1: count([Clientes.Limite]): as linhas de Clientes não apontam para Produtos pelos relacionamentos (muitos para um), então nenhuma linha de Produtos tem linhas de Clientes relacionadas; apontam para Produtos: Pedidos"},
		{"count([Pedido.Preço])", TypeNumber, "posição 1: em count([Pedido.Preço]), a ref não é uma coluna: escreva Tabela.Coluna de uma tabela cujas linhas apontam para Produtos pelos relacionamentos, como count([Pedidos.Preço]); apontam para Produtos: Pedidos; refs parecidas: Pedidos.Preço"},
		{"sum([Pedidos.Nome])", TypeNumber, "posição 1: sum vale só para coluna numérica, e Pedidos.Nome é texto; use count ou count_distinct"},
		{"min([Pedidos.Nome])", TypeString, "posição 1: min vale para número ou data, e Pedidos.Nome é texto; use count ou count_distinct"},
		{"count([Pedidos.Preço]) onde [Preço]", TypeNumber, `posição 29: depois de onde vem uma condição sobre as linhas de Pedidos, como [Situação] = "Ativa", e [Preço] é número`},
		{"max([Pedidos.Entrega])", TypeNumber, "posição 1: a fórmula dá data, mas type diz número; troque type para date"},
	}
	for _, tt := range tests {
		a := calcTestApp()
		pr := a.Tables[1]
		c := &Column{Table: pr, Name: "X", Label: "Calculada", Type: tt.typ, Formula: tt.formula}
		pr.Columns = append(pr.Columns, c)
		errs := a.BindCalculated()
		got := ""
		if len(errs) > 0 {
			got = errs[0].Err.Error()
		}
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.formula, got, tt.want)
		}
		if tt.want == "" {
			if c.Calc == nil {
				t.Errorf("%s: not bound", tt.formula)
				continue
			}
			// The column reads only its own table: the related rows have a subquery of their own.
			if got := c.Tables(); len(got) != 1 || got[0] != pr {
				t.Errorf("%s: Tables() = %v", tt.formula, got)
			}
			for _, ag := range FormulaAggregates(c.Calc) {
				if ag.Col == nil || ag.Rows == nil || ag.Rows.Rows != a.Tables[0] || ag.Rows.Of != pr || ag.Rows.Key() == nil {
					t.Errorf("%s: aggregate not bound: %+v", tt.formula, ag)
				}
			}
		}
	}
	// A cycle through related rows is found like any other.
	a := calcTestApp()
	p, pr := a.Tables[0], a.Tables[1]
	p.Columns = append(p.Columns, &Column{Table: p, Name: "A", Label: "A", Type: TypeNumber, Formula: "[Produtos.B] + 1"})
	pr.Columns = append(pr.Columns, &Column{Table: pr, Name: "B", Label: "B", Type: TypeNumber, Formula: "sum([Pedidos.A])"})
	errs := a.BindCalculated()
	if len(errs) == 0 || !strings.Contains(errs[0].Err.Error(), "as colunas calculadas formam um ciclo (A → B → A)") {
		t.Errorf("cycle through related rows: %v", errs)
	}
}

func TestBindSegment(t *testing.T) {
	a := calcTestApp()
	p, pr, cl := a.Tables[0], a.Tables[1], a.Tables[2]
	s := &Segment{Label: "Produtos vendidos", Table: pr, Related: p, Where: `[Nome] como "a%"`}
	if err := a.BindSegment(s); err != nil || s.Rows == nil || s.Rows.Key() == nil || s.Rows.Cond == nil {
		t.Fatalf("BindSegment: %v %+v", err, s.Rows)
	}
	if got := SegmentWords(s); got != `Produtos com linhas em Pedidos onde Nome como "a%"` {
		t.Errorf("SegmentWords = %q", got)
	}
	for _, tt := range []struct {
		s     *Segment
		field string
		want  string
	}{
		{&Segment{Table: pr, Related: cl, Without: true}, "without", "as linhas de Clientes não apontam para Produtos"},
		{&Segment{Table: pr, Related: p, Where: "[Preço] +"}, "where", "posição 10: esperava"},
		{&Segment{Table: pr, Related: p, Where: "[Preço]"}, "where", "depois de onde vem uma condição"},
	} {
		err := a.BindSegment(tt.s)
		var se *SegmentError
		if !errors.As(err, &se) || se.Field != tt.field || !strings.Contains(se.Error(), tt.want) {
			t.Errorf("%+v: %v", tt.s, err)
		}
	}
}
