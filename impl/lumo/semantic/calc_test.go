package semantic

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseRowFormula(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[Preço] * (1 - [Desconto])", "([Preço] * (1 - [Desconto]))"},
		{"[Entrega] - [Pedido]", "([Entrega] - [Pedido])"},
		{"se([Entrega] > [Prometida]; 1; 0)", "se(([Entrega] > [Prometida]); 1; 0)"},
		{`SE([A] = "x" OU [B] <> "y" e NÃO [C] <= 2; "sim"; "não")`, `se((([A] = "x") ou (([B] <> "y") e não ([C] <= 2))); "sim"; "não")`},
		{`nao [A] >= 1 + 2 * 3`, `não ([A] >= (1 + (2 * 3)))`},
		{`"aspas "" dentro"`, `"aspas "" dentro"`},
		{"-[A] / [Produtos.Custo]", "(-[A] / [Produtos.Custo])"},
	}
	for _, tt := range tests {
		f, err := ParseRowFormula(tt.in)
		if err != nil {
			t.Errorf("ParseRowFormula(%q): %v", tt.in, err)
			continue
		}
		if got := f.String(); got != tt.want {
			t.Errorf("ParseRowFormula(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseRowFormulaErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[A] < [B] < [C]", `posição 11: esperava o fim da comparação (a < b < c não vale; junte duas comparações com e), mas encontrou "<"`},
		{"se([A] > 1; 2)", `posição 14: esperava ";" depois de o valor quando ela vale (se recebe três partes separadas por ;: condição; então; senão), mas encontrou ")"`},
		{`"aberto`, `posição 8: esperava " fechando o texto aberto na posição 1, mas encontrou o fim da fórmula`},
		{"Preço * 2", `posição 1: esperava uma ref entre colchetes ([Preço]), um número, um texto entre aspas, se(…), esquerda(…), direita(…) ou "(", mas encontrou "Preço"`},
		{"[]", `posição 1: esperava o rótulo de uma coluna dentro dos colchetes, mas encontrou "[]"`},
	}
	for _, tt := range tests {
		_, err := ParseRowFormula(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseRowFormula(%q) error:\n got %v\nwant %s", tt.in, err, tt.want)
		}
	}
	// A calculated column may aggregate related rows (membership_test.go); the condition of an
	// expression's onde may not aggregate.
	_, err := ParseFormula("sum([V.A]) onde sum([V.B]) > 1")
	if want := `posição 17: esperava uma ref, um número ou um texto: a condição de onde vale linha a linha e não agrega (uma coluna calculada pode agregar as linhas relacionadas de outra tabela), mas encontrou "sum"`; err == nil || err.Error() != want {
		t.Errorf("an aggregation in onde: %v", err)
	}
}

// onde binds to the aggregation before it: a share of two sums needs no parentheses.
func TestParseFormulaOnde(t *testing.T) {
	tests := []struct{ in, want string }{
		{`sum([V.Valor]) onde [Promo] = 1 / sum([V.Valor])`, `((sum([V.Valor]) onde ([Promo] = 1)) / sum([V.Valor]))`},
		{`count([V.Id]) onde ([P] = "Urgente" e não [S] = "Cancelada")`, `(count([V.Id]) onde (([P] = "Urgente") e não ([S] = "Cancelada")))`},
		{`sum([V.A]) onde [D] >= "2026-09-05" * 2`, `((sum([V.A]) onde ([D] >= "2026-09-05")) * 2)`},
		{`sum([V.A]) onde não [B] = -1`, `(sum([V.A]) onde não ([B] = -1))`},
	}
	for _, tt := range tests {
		f, err := ParseFormula(tt.in)
		if err != nil {
			t.Errorf("ParseFormula(%q): %v", tt.in, err)
			continue
		}
		if got := f.String(); got != tt.want {
			t.Errorf("ParseFormula(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if _, err := ParseFormula(`sum([V.A]) onde`); err == nil || !strings.Contains(err.Error(), "uma condição depois de onde") {
		t.Errorf("onde without a condition: %v", err)
	}
}

// A formula of 10,000 terms stops at the limit, at the first term past it.
func TestFormulaTermLimit(t *testing.T) {
	row := "[A]" + strings.Repeat(" + 1", 9999)
	_, err := ParseRowFormula(row)
	var fe *FormulaError
	if !errors.As(err, &fe) || fe.Position != 3+4*MaxFormulaTerms || !strings.Contains(fe.Expected, "no máximo 200 termos") {
		t.Fatalf("10,000 terms: %v", err)
	}
	expr := "sum([T.A])" + strings.Repeat(" + sum([T.A])", 9999)
	if _, err := ParseFormula(expr); err == nil || !strings.Contains(err.Error(), "no máximo 200 termos") {
		t.Fatalf("10,000 aggregations: %v", err)
	}
	if _, err := ParseRowFormula("[A]" + strings.Repeat(" + 1", MaxFormulaTerms-1)); err != nil {
		t.Fatalf("%d terms: %v", MaxFormulaTerms, err)
	}
}

func calcTestApp() *App {
	p := &Table{Label: "Pedidos", Kind: KindFact}
	pr := &Table{Label: "Produtos", Kind: KindDimension}
	cl := &Table{Label: "Clientes", Kind: KindDimension}
	col := func(t *Table, label, typ, formula string) *Column {
		c := &Column{Table: t, Name: strings.ToUpper(label), Label: label, Type: typ, Formula: formula, Scale: 2}
		t.Columns = append(t.Columns, c)
		return c
	}
	col(p, "Preço", TypeNumber, "")
	col(p, "Desconto", TypeNumber, "")
	col(p, "Pedido", TypeDate, "")
	col(p, "Entrega", TypeDate, "")
	col(p, "Nome", TypeString, "")
	fk := col(p, "Produto", TypeNumber, "")
	id := col(pr, "Id", TypeNumber, "")
	col(pr, "Custo", TypeNumber, "")
	col(cl, "Limite", TypeNumber, "")
	return &App{Tables: []*Table{p, pr, cl}, Relationships: []Relationship{{From: []*Column{fk}, To: []*Column{id}}}}
}

func TestBindCalculated(t *testing.T) {
	tests := []struct {
		formula, typ string
		want         string // error, or "" when it binds
	}{
		{"[Preço] * (1 - [Desconto])", TypeNumber, ""},
		{"[Entrega] - [Pedido]", TypeNumber, ""},
		{"[Preço] - [Produtos.Custo]", TypeNumber, ""},
		{`se([Pedido] >= "2026-09-01"; [Entrega]; [Pedido])`, TypeDate, ""},
		{`se([Preço] > 10; "caro"; [Nome])`, TypeString, ""},
		{"[Nome] + 1", TypeNumber, "posição 8: + vale só entre números, e [Nome] é texto"},
		{"[Pedido] > 3", TypeNumber, "posição 10: > compara valores do mesmo tipo, e [Pedido] é data enquanto 3 é número"},
		{"[Pedido] + 1", TypeNumber, "posição 10: + vale só entre números, e [Pedido] é data; com datas, só a diferença entre duas datas ([Entrega] - [Pedido], em dias)"},
		{"[Preço] * [Clientes.Limite]", TypeNumber, "posição 11: [Clientes.Limite] é da tabela Clientes, que Pedidos não alcança pelos relacionamentos (muitos para um); use colunas de Pedidos ou de uma tabela ligada a ela"},
		{"[Preco] * 2", TypeNumber, ""}, // refs ignore accents and case
		{"[Presso] * 2", TypeNumber, "posição 1: a coluna [Presso] não existe em Pedidos nem nas tabelas que ela alcança; colunas parecidas: [Preço]"},
		{"se([Preço]; 1; 0)", TypeNumber, "posição 4: a primeira parte de se é uma condição, como [Entrega] > [Prometida], e [Preço] é número"},
		{"se([Preço] > 1; 1; \"x\")", TypeNumber, `posição 20: as duas partes finais de se têm o mesmo tipo, e 1 é número enquanto "x" é texto`},
		{"[Preço] > 1 e 2", TypeNumber, "posição 13: e junta condições, e 2 é número, não uma condição; compare-a, como [A] > 0"},
		{"[Preço] * 2", TypeString, "posição 1: a fórmula dá número, mas type diz texto; troque type para number"},
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
}

func TestBindCalculatedCycleAndSize(t *testing.T) {
	a := calcTestApp()
	p := a.Tables[0]
	p.Columns = append(p.Columns,
		&Column{Table: p, Name: "A", Label: "A", Type: TypeNumber, Formula: "[B] + 1"},
		&Column{Table: p, Name: "B", Label: "B", Type: TypeNumber, Formula: "[C] * 2"},
		&Column{Table: p, Name: "C", Label: "C", Type: TypeNumber, Formula: "[A] - 1"})
	errs := a.BindCalculated()
	found := false
	for _, e := range errs {
		found = found || strings.Contains(e.Err.Error(), "as colunas calculadas formam um ciclo (A → B → C → A)")
	}
	if !found {
		t.Errorf("cycle not reported: %v", errs)
	}

	// Each level uses the one below twice: the expanded formula doubles at each level.
	b := calcTestApp()
	p = b.Tables[0]
	prev := "Preço"
	for i := range 12 {
		label := "L" + string(rune('a'+i))
		p.Columns = append(p.Columns, &Column{Table: p, Name: label, Label: label, Type: TypeNumber, Formula: "[" + prev + "] + [" + prev + "]"})
		prev = label
	}
	errs = b.BindCalculated()
	if len(errs) == 0 || !strings.Contains(errs[0].Err.Error(), "acima do limite de 2000 termos") {
		t.Errorf("expanded size not bounded: %v", errs)
	}
	if p.Columns[len(p.Columns)-3].Calc == nil {
		t.Error("a column under the limit was refused")
	}
}

func TestBindConditionAndTables(t *testing.T) {
	a := calcTestApp()
	p := a.Tables[0]
	m := &Column{Table: p, Name: "M", Label: "Margem", Type: TypeNumber, Formula: "[Preço] - [Produtos.Custo]"}
	p.Columns = append(p.Columns, m)
	if errs := a.BindCalculated(); len(errs) > 0 {
		t.Fatal(errs[0].Err)
	}
	if got := m.Tables(); len(got) != 2 || got[0] != p || got[1] != a.Tables[1] {
		t.Errorf("Tables() = %v", got)
	}
	if m.Scale != 2 {
		t.Errorf("scale = %d", m.Scale)
	}
	f, err := ParseFormula(`sum([Pedidos.Preço]) onde [Margem] > 0`)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := a.BindCondition(FormulaAggregates(f)[0].Where, p)
	if err != nil || len(tables) != 2 {
		t.Errorf("BindCondition = %v, %v", tables, err)
	}
	f, _ = ParseFormula(`sum([Pedidos.Preço]) onde [Margem]`)
	if _, err := a.BindCondition(FormulaAggregates(f)[0].Where, p); err == nil ||
		err.Error() != `posição 27: depois de onde vem uma condição, como [Situação] = "Ativa", e [Margem] é número` {
		t.Errorf("a number as condition: %v", err)
	}
}

func TestFormulaWords(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[Preço] * (1 - [Desconto])", "Preço × (1 − Desconto)"},
		{"([Preço] * 1) - [Desconto] - ([A] - [B])", "Preço × 1 − Desconto − (A − B)"},
		{"se([Entrega] > [Prometida]; 1; 0) * 2", "(se Entrega > Prometida então 1, senão 0) × 2"},
		{`não ([A] = "x" ou [B] <> 0.5) e [C] >= -1`, `não (A = "x" ou B ≠ 0,5) e C ≥ −1`},
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
	if got := ExpressionWords(`sum([V.Valor]) onde [Promo] = 1 / count([V.Id])`); got != "(soma de V.Valor onde Promo = 1) ÷ contagem de V.Id" {
		t.Errorf("ExpressionWords = %q", got)
	}
}

// A role-playing copy's calculated column reads the copy's own columns, even where the formula
// names the original table.
func TestBindCalculatedInACopy(t *testing.T) {
	a := calcTestApp()
	p := a.Tables[0]
	p.Columns = append(p.Columns, &Column{Table: p, Name: "L", Label: "Líquido", Type: TypeNumber, Formula: "[Pedidos.Preço] * (1 - [Desconto])"})
	cp := &Table{Label: "Pedidos antigos", Kind: KindFact, CopyOf: p}
	for _, oc := range p.Columns {
		c := *oc
		c.Table = cp
		cp.Columns = append(cp.Columns, &c)
	}
	a.Tables = append(a.Tables, cp)
	if errs := a.BindCalculated(); len(errs) > 0 {
		t.Fatal(errs[0].Err)
	}
	calc := cp.Columns[len(cp.Columns)-1]
	for _, r := range RowRefs(calc.Calc) {
		if r.Col.Table != cp {
			t.Errorf("%s reads %s of %s, not of the copy", calc.Ref(), r.Col.Label, r.Col.Table.Label)
		}
	}
}

// A copy without the original's relationship leaves out the inherited columns reading through it
// (and those using them), keeps the others, and binds a column of its own declared over the
// copy's place.
func TestBindCalculatedLeavesOutOfACopy(t *testing.T) {
	a := calcTestApp()
	p := a.Tables[0]
	p.Columns = append(p.Columns,
		&Column{Table: p, Name: "MARGEM", Label: "Margem", Type: TypeNumber, Formula: "[Preço] - [Produtos.Custo]"},
		&Column{Table: p, Name: "DOBRO", Label: "Dobro da margem", Type: TypeNumber, Formula: "[Margem] * 2"},
		&Column{Table: p, Name: "L", Label: "Líquido", Type: TypeNumber, Formula: "[Preço] * (1 - [Desconto])"})
	cp := &Table{Label: "Pedidos antigos", Kind: KindFact, CopyOf: p}
	for _, oc := range p.Columns {
		c := *oc
		c.Table, c.Inherited = cp, c.Calculated()
		cp.Columns = append(cp.Columns, &c)
	}
	cp.Columns = append(cp.Columns, &Column{Table: cp, Name: "METADE", Label: "Metade", Type: TypeNumber, Formula: "[Pedidos.Líquido] / 2"})
	a.Tables = append(a.Tables, cp)
	var left []string
	for _, e := range a.BindCalculated() {
		if !e.LeftOut {
			t.Fatalf("%s: %v", e.Column.Ref(), e.Err)
		}
		left = append(left, e.Column.Label+": "+e.Err.Error())
	}
	want := []string{
		"Margem: posição 11: [Produtos.Custo] é da tabela Produtos, que Pedidos antigos não alcança pelos relacionamentos (muitos para um); use colunas de Pedidos antigos ou de uma tabela ligada a ela",
		"Dobro da margem: posição 1: a coluna calculada [Margem] vem de Pedidos, mas fica fora da cópia Pedidos antigos: a fórmula dela não se resolve a partir de Pedidos antigos (posição 11: [Produtos.Custo] é da tabela Produtos, que Pedidos antigos não alcança pelos relacionamentos (muitos para um); use colunas de Pedidos antigos ou de uma tabela ligada a ela); declare-a em columns da cópia, com o name MARGEM e uma fórmula que se resolva a partir de Pedidos antigos",
	}
	if !slices.Equal(left, want) {
		t.Errorf("left out:\n%s\nwant:\n%s", strings.Join(left, "\n"), strings.Join(want, "\n"))
	}
	var labels []string
	for _, c := range cp.Columns {
		labels = append(labels, c.Label)
	}
	if got := strings.Join(labels, ", "); got != "Preço, Desconto, Pedido, Entrega, Nome, Produto, Líquido, Metade" {
		t.Errorf("the copy's columns are %s", got)
	}
	if metade := cp.Columns[len(cp.Columns)-1]; metade.Calc == nil || RowRefs(metade.Calc)[0].Col.Table != cp {
		t.Errorf("Metade is not bound over the copy's own Líquido")
	}
	if n := len(p.Columns); n != 9 {
		t.Errorf("the original has %d columns, want all 9", n)
	}
	// A ref to a left-out column says why it is not there; the original's still resolves.
	_, err := a.Resolve("Pedidos antigos.Margem")
	if want := `A ref "Pedidos antigos.Margem" não existe nesta Aplicação: a coluna calculada "Margem" de Pedidos ficou fora da cópia Pedidos antigos, ` +
		`porque a fórmula dela não se resolve a partir de Pedidos antigos (a importação avisou).`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Resolve of a left-out column: %v, want it to start with %s", err, want)
	}
	if _, err := a.Resolve("Pedidos.Margem"); err != nil {
		t.Errorf("the original's column: %v", err)
	}
}
