package semantic

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// Formula is a node of a parsed formula. An expression formula (ParseFormula) is built of
// *Number, *Aggregate, *Unary and *Binary; a row formula (ParseRowFormula: a calculated column, or
// the condition of an aggregate's onde) of *Number, *String, *Ref, *Unary, *Binary, *Compare,
// *Like, *In, *Logic, *Not, *If and *Slice, and, in a calculated column, *Aggregate over the rows of a
// related table. Parentheses leave no node; they only shape the tree.
type Formula interface {
	// Pos is the 1-based character (not byte) position where the node starts in the formula text.
	Pos() int
	// String prints the node back, every binary operation in parentheses.
	String() string
	formula()
}

// Number is a numeric literal (dot decimal, no sign: a minus is a Unary).
type Number struct {
	Value    float64
	Text     string // as written, e.g. "100" or "0.5"
	Position int
}

// String is a text literal between double quotes ("" inside stands for one quote). Date is set by
// binding when the literal is compared with a date column: it is then that date ("date" or
// "datetime").
type String struct {
	Value    string
	Position int
	Date     string
}

// Ref is a column of the row, as written between brackets (trimmed); Col is set by binding.
type Ref struct {
	Ref      string
	Position int
	Col      *Column
}

// Aggregate is an aggregate call over one column: Func is sum, avg, min, max, count or
// count_distinct (lower case), Ref the text between the brackets, trimmed, not yet resolved.
// Where, when not nil, is the row condition after onde: only rows meeting it are aggregated.
// In a calculated column it aggregates the rows of another table related to the row (a
// customer's orders: count([Pedidos.Id])); binding then sets Col, the aggregated column, and
// Rows, the related rows (Where their condition).
type Aggregate struct {
	Func     string
	Ref      string
	Where    Formula
	Position int
	Col      *Column
	Rows     *Related
}

// Whole is an aggregate over the whole result, written sum_all(X), avg_all(X), min_all(X) or
// max_all(X) in an expression: X, an expression formula with aggregations, is computed per group
// of the answer, then Func (sum, avg, min or max) of those values over every group the
// question's row filters keep, before the filters on aggregated values and before the limit.
// Without grouping fields there is one group, and sum_all(X) is X. Wholes do not nest.
type Whole struct {
	Func     string
	X        Formula
	Position int
}

// Unary is a negation; Op is always "-".
type Unary struct {
	Op       string
	X        Formula
	Position int
}

// Binary is an arithmetic operation; Op is "+", "-", "*" or "/". Days is set by binding on a
// difference of two dates, which is in days.
type Binary struct {
	Op          string
	Left, Right Formula
	Position    int // position of the operator
	Days        bool
}

// Compare is a comparison; Op is "=", "<>", "<", "<=", ">" or ">=". Kind, set by binding, is the
// type both sides hold: number, string or date (dates and date-times together).
type Compare struct {
	Op          string
	Left, Right Formula
	Position    int // position of the operator
	Kind        string
}

// Like is como: the text of X matches Pattern as the query's like matches, ignoring case, accents
// and repeated spaces: % is any run of characters, _ exactly one, and \%, \_, \\ a literal %, _
// and \. A blank X (no value, or the empty text) matches no pattern, even "%": the condition is
// then false, never unknown, so não [X] como "%" holds exactly on the blank values, as the
// query's not like keeps them.
type Like struct {
	X        Formula
	Pattern  *String
	Position int // position of como
}

// In is em: X equals one of List, literals of X's type; the same as = with each joined by ou
// (exact text, a blank X unknown). Kind, set by binding, is the type compared: number, string or
// date (dates and date-times together).
type In struct {
	X        Formula
	List     []Formula
	Position int // position of em
	Kind     string
}

// Logic joins two conditions; Op is "e" or "ou".
type Logic struct {
	Op          string
	Left, Right Formula
	Position    int // position of the operator
}

// Not negates a condition (não).
type Not struct {
	X        Formula
	Position int
}

// If is se(condição; então; senão): Then where the condition holds, Else otherwise (also when
// the condition is unknown, a blank value compared).
type If struct {
	Cond, Then, Else Formula
	Position         int
}

// Slice is esquerda(X; N) or direita(X; N): the first (Right false) or last N characters of
// the text X, blank when X is blank. N is a whole number from 1 to MaxSliceChars. Its value is
// part of a text, so it has no folded copy: como and like do not apply to it (= and em do).
type Slice struct {
	Right    bool
	X        Formula
	N        int
	Position int
}

// MaxSliceChars bounds esquerda and direita's count of characters.
const MaxSliceChars = 1000

func (n *Number) Pos() int    { return n.Position }
func (n *String) Pos() int    { return n.Position }
func (n *Ref) Pos() int       { return n.Position }
func (n *Aggregate) Pos() int { return n.Position }
func (n *Unary) Pos() int     { return n.Position }
func (n *Whole) Pos() int     { return n.Position }
func (n *Binary) Pos() int    { return n.Left.Pos() }
func (n *Compare) Pos() int   { return n.Left.Pos() }
func (n *Like) Pos() int      { return n.X.Pos() }
func (n *In) Pos() int        { return n.X.Pos() }
func (n *Logic) Pos() int     { return n.Left.Pos() }
func (n *Not) Pos() int       { return n.Position }
func (n *If) Pos() int        { return n.Position }
func (n *Slice) Pos() int     { return n.Position }

func (n *Number) String() string { return n.Text }
func (n *String) String() string { return `"` + strings.ReplaceAll(n.Value, `"`, `""`) + `"` }
func (n *Ref) String() string    { return "[" + n.Ref + "]" }
func (n *Aggregate) String() string {
	s := n.Func + "([" + n.Ref + "])"
	if n.Where != nil {
		return "(" + s + " onde " + n.Where.String() + ")"
	}
	return s
}
func (n *Unary) String() string { return n.Op + n.X.String() }
func (n *Whole) String() string { return n.Func + "_all(" + n.X.String() + ")" }
func (n *Binary) String() string {
	return "(" + n.Left.String() + " " + n.Op + " " + n.Right.String() + ")"
}
func (n *Compare) String() string {
	return "(" + n.Left.String() + " " + n.Op + " " + n.Right.String() + ")"
}
func (n *Like) String() string {
	return "(" + n.X.String() + " como " + n.Pattern.String() + ")"
}
func (n *In) String() string {
	items := make([]string, len(n.List))
	for i, x := range n.List {
		items[i] = x.String()
	}
	return "(" + n.X.String() + " em (" + strings.Join(items, ", ") + "))"
}
func (n *Logic) String() string {
	return "(" + n.Left.String() + " " + n.Op + " " + n.Right.String() + ")"
}
func (n *Not) String() string { return "não " + n.X.String() }
func (n *If) String() string {
	return "se(" + n.Cond.String() + "; " + n.Then.String() + "; " + n.Else.String() + ")"
}
func (n *Slice) String() string {
	return n.Func() + "(" + n.X.String() + "; " + strconv.Itoa(n.N) + ")"
}

// Func is the function's name, esquerda or direita.
func (n *Slice) Func() string {
	if n.Right {
		return "direita"
	}
	return "esquerda"
}

func (*Number) formula()    {}
func (*String) formula()    {}
func (*Ref) formula()       {}
func (*Aggregate) formula() {}
func (*Unary) formula()     {}
func (*Whole) formula()     {}
func (*Binary) formula()    {}
func (*Compare) formula()   {}
func (*Like) formula()      {}
func (*In) formula()        {}
func (*Logic) formula()     {}
func (*Not) formula()       {}
func (*If) formula()        {}
func (*Slice) formula()     {}

var (
	_ Formula = (*Number)(nil)
	_ Formula = (*String)(nil)
	_ Formula = (*Ref)(nil)
	_ Formula = (*Aggregate)(nil)
	_ Formula = (*Unary)(nil)
	_ Formula = (*Whole)(nil)
	_ Formula = (*Binary)(nil)
	_ Formula = (*Compare)(nil)
	_ Formula = (*Like)(nil)
	_ Formula = (*In)(nil)
	_ Formula = (*Logic)(nil)
	_ Formula = (*Not)(nil)
	_ Formula = (*If)(nil)
	_ Formula = (*Slice)(nil)
)

// formulaFuncs are the aggregate functions a formula may call.
var formulaFuncs = []string{"sum", "avg", "min", "max", "count", "count_distinct"}

// wholeFuncs are the functions over the whole result an expression may call (see Whole), each
// the aggregation it applies to the groups' values.
var wholeFuncs = map[string]string{"sum_all": "sum", "avg_all": "avg", "min_all": "min", "max_all": "max"}

// maxFormulaDepth bounds nesting (parentheses, minus signs, não and se) so a hostile formula
// cannot exhaust the stack.
const maxFormulaDepth = 100

// MaxFormulaTerms bounds the terms of one formula (numbers, texts, refs and aggregations): each
// is a node of the SQL the formula compiles to, and SQLite refuses an expression over 1,000 deep.
const MaxFormulaTerms = 200

// FormulaError says where a formula stops making sense and what was expected there.
type FormulaError struct {
	Formula  string
	Position int    // 1-based character position
	Expected string // Portuguese, e.g. `")"` or "um número"
	Found    string // Portuguese, e.g. `"+"` or "o fim da fórmula"
}

func (e *FormulaError) Error() string {
	return fmt.Sprintf("posição %d: esperava %s, mas encontrou %s", e.Position, e.Expected, e.Found)
}

// ParseFormula parses an expression formula: aggregate calls over one bracketed ref
// (sum([Vendas.VALOR_LIQ])), each optionally followed by onde and a row condition
// (sum([Vendas.Valor]) onde [Situação] = "Ativa"), numbers, + - * /, parentheses and unary
// minus, with the usual precedence. onde binds to the aggregation just before it; its condition
// is one comparison, não and a condition, or any condition between parentheses, so
// sum([V]) onde [P] = 1 / sum([V]) divides the filtered sum by the whole one. sum_all, avg_all,
// min_all and max_all take an expression formula and aggregate its values over the whole result
// (see Whole): sum([V]) / sum_all(sum([V])) is each group's share. Function names and words
// ignore case. Errors are *FormulaError.
func ParseFormula(s string) (Formula, error) {
	p := &formulaParser{src: s}
	if err := p.scan(); err != nil {
		return nil, err
	}
	if p.tok.kind == tokEOF {
		return nil, p.fail("uma agregação como sum([Tabela.Coluna]) ou um número")
	}
	f, err := p.arith(0)
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEOF {
		if p.isWord("e") || p.isWord("ou") {
			return nil, p.fail(`um operador (+ - * /) ou o fim da fórmula (para juntar condições de onde, ponha-as entre parênteses: onde ([A] = 1 e [B] = 2))`)
		}
		return nil, p.fail(`um operador (+ - * /) ou o fim da fórmula`)
	}
	return f, nil
}

// ParseRowFormula parses the formula of a calculated column, computed row by row: refs to
// columns between brackets ([Preço], [Produtos.Preço]), numbers, texts between double quotes,
// + - * / (a date minus a date is the days between them), comparisons = <> < <= > >=, como and
// em, e, ou, não, se(condição; então; senão), with parentheses, and aggregations of the rows of
// another table related to the row (count([Pedidos.Id]), sum([Pedidos.Valor]) onde [Situação] =
// "Ativa"). Precedence, loosest first: ou, e, não, comparisons (one per operand: a < b < c is
// refused), + -, * /, unary minus.
func ParseRowFormula(s string) (Formula, error) {
	p := &formulaParser{src: s, row: true, related: true}
	if err := p.scan(); err != nil {
		return nil, err
	}
	if p.tok.kind == tokEOF {
		return nil, p.fail("uma ref como [Preço], um número ou um texto entre aspas")
	}
	f, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEOF {
		return nil, p.fail(`um operador (+ - * / = <> < <= > >= e ou) ou o fim da fórmula`)
	}
	return f, nil
}

// FormulaAggregates lists every aggregate call of f, left to right.
func FormulaAggregates(f Formula) []*Aggregate {
	var out []*Aggregate
	Walk(f, func(n Formula) {
		if a, ok := n.(*Aggregate); ok {
			out = append(out, a)
		}
	})
	return out
}

// RowRefs lists every column ref of a row formula (or of the conditions of an expression
// formula), left to right.
func RowRefs(f Formula) []*Ref {
	var out []*Ref
	Walk(f, func(n Formula) {
		if r, ok := n.(*Ref); ok {
			out = append(out, r)
		}
	})
	return out
}

// Walk calls visit on f and on every node below it, parents first, left to right.
func Walk(f Formula, visit func(Formula)) {
	if f == nil {
		return
	}
	visit(f)
	switch n := f.(type) {
	case *Aggregate:
		Walk(n.Where, visit)
	case *Unary:
		Walk(n.X, visit)
	case *Whole:
		Walk(n.X, visit)
	case *Not:
		Walk(n.X, visit)
	case *Binary:
		Walk(n.Left, visit)
		Walk(n.Right, visit)
	case *Compare:
		Walk(n.Left, visit)
		Walk(n.Right, visit)
	case *Like:
		Walk(n.X, visit)
		Walk(n.Pattern, visit)
	case *In:
		Walk(n.X, visit)
		for _, x := range n.List {
			Walk(x, visit)
		}
	case *Logic:
		Walk(n.Left, visit)
		Walk(n.Right, visit)
	case *If:
		Walk(n.Cond, visit)
		Walk(n.Then, visit)
		Walk(n.Else, visit)
	case *Slice:
		Walk(n.X, visit)
	}
}

// FormulaRefs lists the distinct refs of f's aggregations (as written) in order of first appearance.
func FormulaRefs(f Formula) []string {
	var refs []string
	seen := map[string]bool{}
	for _, a := range FormulaAggregates(f) {
		if !seen[a.Ref] {
			seen[a.Ref] = true
			refs = append(refs, a.Ref)
		}
	}
	return refs
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokNumber
	tokString
	tokIdent
	tokRef
	tokLParen
	tokRParen
	tokSemi
	tokComma
	tokOp  // + - * /
	tokCmp // = <> < <= > >=
	tokInvalid
)

type token struct {
	kind tokKind
	text string // as written (for tokRef: the brackets' content, trimmed; for tokString: the value)
	pos  int    // 1-based character position
}

type formulaParser struct {
	src   string
	off   int // byte offset of the next unread rune
	pos   int // characters consumed so far
	tok   token
	row   bool // refs, texts, comparisons and se allowed; aggregations only with related
	terms int
	// related allows, in row mode, aggregations of related rows (a calculated column's); the
	// condition of an expression's onde is a row formula without them.
	related bool
	whole   *Whole // the sum_all(…) (or avg_all, min_all, max_all) being read, if any
}

// fail reports that the current token is not what was expected.
func (p *formulaParser) fail(expected string) *FormulaError {
	return &FormulaError{Formula: p.src, Position: p.tok.pos, Expected: expected, Found: describe(p.tok)}
}

func describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "o fim da fórmula"
	case tokRef:
		return strconv.Quote("[" + t.text + "]")
	case tokString:
		return "o texto " + strconv.Quote(t.text)
	}
	return strconv.Quote(t.text)
}

// isWord reports whether the current token is the word w (case and accents ignored).
func (p *formulaParser) isWord(w string) bool {
	return p.tok.kind == tokIdent && fold.Fold(p.tok.text) == w
}

func (p *formulaParser) deep(depth int) error {
	if depth > maxFormulaDepth {
		return &FormulaError{Formula: p.src, Position: p.tok.pos,
			Expected: fmt.Sprintf("no máximo %d níveis de parênteses, sinais, não ou se", maxFormulaDepth),
			Found:    "mais que isso"}
	}
	return nil
}

// term counts one more term of the formula.
func (p *formulaParser) term() error {
	p.terms++
	if p.terms > MaxFormulaTerms {
		return &FormulaError{Formula: p.src, Position: p.tok.pos,
			Expected: fmt.Sprintf("no máximo %d termos (números, textos, refs e agregações) numa fórmula; divida a conta em colunas calculadas ou expressões menores", MaxFormulaTerms),
			Found:    fmt.Sprintf("o termo %d", p.terms)}
	}
	return nil
}

func (p *formulaParser) or(depth int) (Formula, error) {
	left, err := p.and(depth)
	if err != nil {
		return nil, err
	}
	for p.isWord("ou") {
		op := p.tok
		if err := p.scan(); err != nil {
			return nil, err
		}
		right, err := p.and(depth)
		if err != nil {
			return nil, err
		}
		left = &Logic{Op: "ou", Left: left, Right: right, Position: op.pos}
	}
	return left, nil
}

func (p *formulaParser) and(depth int) (Formula, error) {
	left, err := p.not(depth)
	if err != nil {
		return nil, err
	}
	for p.isWord("e") {
		op := p.tok
		if err := p.scan(); err != nil {
			return nil, err
		}
		right, err := p.not(depth)
		if err != nil {
			return nil, err
		}
		left = &Logic{Op: "e", Left: left, Right: right, Position: op.pos}
	}
	return left, nil
}

func (p *formulaParser) not(depth int) (Formula, error) {
	if err := p.deep(depth); err != nil {
		return nil, err
	}
	if p.isWord("nao") {
		op := p.tok
		if err := p.scan(); err != nil {
			return nil, err
		}
		x, err := p.not(depth + 1)
		if err != nil {
			return nil, err
		}
		return &Not{X: x, Position: op.pos}, nil
	}
	return p.compare(depth, p.arith)
}

// compare reads operand [op operand], operand [não] como "padrão" or operand [não] em (lista),
// each operand by side.
func (p *formulaParser) compare(depth int, side func(int) (Formula, error)) (Formula, error) {
	left, err := side(depth)
	if err != nil {
		return nil, err
	}
	if p.isWord("como") || p.isWord("em") {
		return p.membership(left)
	}
	if p.isWord("nao") {
		not := p.tok
		if err := p.scan(); err != nil {
			return nil, err
		}
		if !p.isWord("como") && !p.isWord("em") {
			return nil, p.fail(`como ou em depois de não ([Tipo] não como "PROMO%", [UF] não em ("SP", "RJ")); para negar uma comparação, escreva não antes dela`)
		}
		x, err := p.membership(left)
		if err != nil {
			return nil, err
		}
		return &Not{X: x, Position: not.pos}, nil
	}
	if p.tok.kind != tokCmp {
		return left, nil
	}
	op := p.tok
	if err := p.scan(); err != nil {
		return nil, err
	}
	right, err := side(depth)
	if err != nil {
		return nil, err
	}
	if p.tok.kind == tokCmp {
		return nil, p.fail(`o fim da comparação (a < b < c não vale; junte duas comparações com e)`)
	}
	return &Compare{Op: op.text, Left: left, Right: right, Position: op.pos}, nil
}

// membership reads what follows an operand at como (a pattern between quotes) or em (a list of
// literals between parentheses, separated by , or ;).
func (p *formulaParser) membership(x Formula) (Formula, error) {
	op := p.tok
	if err := p.scan(); err != nil {
		return nil, err
	}
	var f Formula
	if fold.Fold(op.text) == "como" {
		if p.tok.kind != tokString {
			return nil, p.fail(`um padrão entre aspas depois de como, como [Tipo] como "PROMO%" (% é qualquer sequência de caracteres, _ um caractere só)`)
		}
		if err := p.term(); err != nil {
			return nil, err
		}
		f = &Like{X: x, Pattern: &String{Value: p.tok.text, Position: p.tok.pos}, Position: op.pos}
		if err := p.scan(); err != nil {
			return nil, err
		}
	} else {
		list, err := p.list()
		if err != nil {
			return nil, err
		}
		f = &In{X: x, List: list, Position: op.pos}
	}
	if p.tok.kind == tokCmp || p.isWord("como") || p.isWord("em") {
		return nil, p.fail(`o fim da comparação (uma comparação por vez; junte duas com e)`)
	}
	return f, nil
}

// list reads em's list: "(", literals (numbers, possibly negative, or texts) separated by , or ;,
// then ")".
func (p *formulaParser) list() ([]Formula, error) {
	if p.tok.kind != tokLParen {
		return nil, p.fail(`"(" e a lista de valores depois de em, como [Segmento] em ("A", "B")`)
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	if p.tok.kind == tokRParen {
		return nil, p.fail(`ao menos um valor na lista de em, como [Segmento] em ("A", "B")`)
	}
	var list []Formula
	for {
		t := p.tok
		var item Formula
		switch {
		case t.kind == tokString:
			item = &String{Value: t.text, Position: t.pos}
		case t.kind == tokNumber:
			v, err := strconv.ParseFloat(t.text, 64)
			if err != nil {
				return nil, p.fail("um número")
			}
			item = &Number{Value: v, Text: t.text, Position: t.pos}
		case t.kind == tokOp && t.text == "-":
			if err := p.scan(); err != nil {
				return nil, err
			}
			if p.tok.kind != tokNumber {
				return nil, p.fail("um número depois do sinal - na lista de em")
			}
			v, err := strconv.ParseFloat(p.tok.text, 64)
			if err != nil {
				return nil, p.fail("um número")
			}
			item = &Unary{Op: "-", X: &Number{Value: v, Text: p.tok.text, Position: p.tok.pos}, Position: t.pos}
		default:
			return nil, p.fail(`um valor da lista de em: um número ou um texto entre aspas (a lista leva só valores fixos, não refs nem contas)`)
		}
		if err := p.term(); err != nil {
			return nil, err
		}
		list = append(list, item)
		if err := p.scan(); err != nil {
			return nil, err
		}
		switch p.tok.kind {
		case tokComma, tokSemi:
			if err := p.scan(); err != nil {
				return nil, err
			}
			continue
		case tokRParen:
			return list, p.scan()
		}
		return nil, p.fail(`"," e outro valor, ou ")" fechando a lista de em`)
	}
}

func (p *formulaParser) arith(depth int) (Formula, error) {
	left, err := p.product(depth)
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tokOp && (p.tok.text == "+" || p.tok.text == "-") {
		op := p.tok
		if err := p.scan(); err != nil {
			return nil, err
		}
		right, err := p.product(depth)
		if err != nil {
			return nil, err
		}
		left = &Binary{Op: op.text, Left: left, Right: right, Position: op.pos}
	}
	return left, nil
}

func (p *formulaParser) product(depth int) (Formula, error) {
	left, err := p.unary(depth)
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tokOp && (p.tok.text == "*" || p.tok.text == "/") {
		op := p.tok
		if err := p.scan(); err != nil {
			return nil, err
		}
		right, err := p.unary(depth)
		if err != nil {
			return nil, err
		}
		left = &Binary{Op: op.text, Left: left, Right: right, Position: op.pos}
	}
	return left, nil
}

func (p *formulaParser) unary(depth int) (Formula, error) {
	if err := p.deep(depth); err != nil {
		return nil, err
	}
	if p.tok.kind == tokOp && p.tok.text == "-" {
		op := p.tok
		if err := p.scan(); err != nil {
			return nil, err
		}
		x, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return &Unary{Op: "-", X: x, Position: op.pos}, nil
	}
	return p.primary(depth)
}

func (p *formulaParser) primary(depth int) (Formula, error) {
	t := p.tok
	switch t.kind {
	case tokNumber:
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, &FormulaError{Formula: p.src, Position: t.pos, Expected: "um número", Found: describe(t)}
		}
		if err := p.term(); err != nil {
			return nil, err
		}
		if err := p.scan(); err != nil {
			return nil, err
		}
		return &Number{Value: v, Text: t.text, Position: t.pos}, nil
	case tokLParen:
		if err := p.scan(); err != nil {
			return nil, err
		}
		var x Formula
		var err error
		if p.row {
			x, err = p.or(depth + 1)
		} else {
			x, err = p.arith(depth + 1)
		}
		if err != nil {
			return nil, err
		}
		if p.tok.kind != tokRParen {
			if p.row {
				return nil, p.fail(`")" ou um operador`)
			}
			return nil, p.fail(`")" ou um operador (+ - * /)`)
		}
		if err := p.scan(); err != nil {
			return nil, err
		}
		return x, nil
	case tokIdent:
		if p.row {
			if p.isWord("se") {
				return p.ifCall(depth)
			}
			if p.isWord("esquerda") || p.isWord("direita") {
				return p.sliceCall(depth)
			}
			if isAggregate(t.text) && p.related {
				return p.call(depth)
			}
			if isAggregate(t.text) {
				return nil, p.fail("uma ref, um número ou um texto: a condição de onde vale linha a linha e não agrega (uma coluna calculada pode agregar as linhas relacionadas de outra tabela)")
			}
			if _, ok := wholeFuncs[strings.ToLower(t.text)]; ok {
				return nil, p.fail(fmt.Sprintf("uma ref, um número ou um texto: %s vale só numa expressão (expressions), não numa coluna calculada nem numa condição de onde", strings.ToLower(t.text)))
			}
			return nil, p.fail(fmt.Sprintf(`uma ref entre colchetes ([%s]), um número, um texto entre aspas, se(…), esquerda(…), direita(…) ou "("`, t.text))
		}
		if _, ok := wholeFuncs[strings.ToLower(t.text)]; ok {
			return p.wholeCall(depth)
		}
		return p.call(depth)
	case tokRef:
		if p.row {
			if err := p.term(); err != nil {
				return nil, err
			}
			if t.text == "" {
				return nil, p.fail("o rótulo de uma coluna dentro dos colchetes")
			}
			if err := p.scan(); err != nil {
				return nil, err
			}
			return &Ref{Ref: t.text, Position: t.pos}, nil
		}
		return nil, p.fail(fmt.Sprintf("uma agregação em volta da ref, como sum(%s)", "["+t.text+"]"))
	case tokString:
		if p.row {
			if err := p.term(); err != nil {
				return nil, err
			}
			if err := p.scan(); err != nil {
				return nil, err
			}
			return &String{Value: t.text, Position: t.pos}, nil
		}
	}
	if p.row {
		return nil, p.fail(`uma ref como [Preço], um número, um texto entre aspas, se(…) ou "("`)
	}
	return nil, p.fail(`uma agregação como sum([Tabela.Coluna]), um número ou "("`)
}

func isAggregate(name string) bool {
	fn := strings.ToLower(name)
	for _, f := range formulaFuncs {
		if f == fn {
			return true
		}
	}
	return false
}

// ifCall reads se(condição; então; senão).
func (p *formulaParser) ifCall(depth int) (Formula, error) {
	if err := p.deep(depth + 1); err != nil {
		return nil, err
	}
	start := p.tok.pos
	if err := p.scan(); err != nil {
		return nil, err
	}
	if p.tok.kind != tokLParen {
		return nil, p.fail(`"(" depois de se, como se([Entrega] > [Prometida]; 1; 0)`)
	}
	var parts [3]Formula
	words := []string{"a condição", "o valor quando ela vale", "o valor quando não vale"}
	for i := range parts {
		if err := p.scan(); err != nil {
			return nil, err
		}
		x, err := p.or(depth + 1)
		if err != nil {
			return nil, err
		}
		parts[i] = x
		want := tokSemi
		if i == 2 {
			want = tokRParen
		}
		if p.tok.kind != want {
			if i == 2 {
				return nil, p.fail(`")" fechando se (se recebe três partes: condição; então; senão)`)
			}
			return nil, p.fail(fmt.Sprintf(`";" depois de %s (se recebe três partes separadas por ;: condição; então; senão)`, words[i]))
		}
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	return &If{Cond: parts[0], Then: parts[1], Else: parts[2], Position: start}, nil
}

// sliceCall reads esquerda(texto; n) or direita(texto; n).
func (p *formulaParser) sliceCall(depth int) (Formula, error) {
	if err := p.deep(depth + 1); err != nil {
		return nil, err
	}
	start, right := p.tok.pos, p.isWord("direita")
	fn := "esquerda"
	if right {
		fn = "direita"
	}
	if err := p.term(); err != nil {
		return nil, err
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	if p.tok.kind != tokLParen {
		return nil, p.fail(fmt.Sprintf(`"(" depois de %s, como %s([Telefone]; 2)`, fn, fn))
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	x, err := p.or(depth + 1)
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokSemi {
		return nil, p.fail(fmt.Sprintf(`";" e quantos caracteres (%s recebe duas partes: o texto; quantos caracteres)`, fn))
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	count := p.tok
	n, err := strconv.Atoi(count.text)
	if count.kind != tokNumber || err != nil || n < 1 || n > MaxSliceChars {
		return nil, p.fail(fmt.Sprintf("quantos caracteres: um número inteiro de 1 a %d", MaxSliceChars))
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	if p.tok.kind != tokRParen {
		return nil, p.fail(fmt.Sprintf(`")" fechando %s`, fn))
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	return &Slice{Right: right, X: x, N: n, Position: start}, nil
}

func (p *formulaParser) call(depth int) (Formula, error) {
	name := p.tok
	fn := strings.ToLower(name.text)
	if !isAggregate(fn) {
		return nil, p.fail("uma agregação: " + strings.Join(formulaFuncs[:len(formulaFuncs)-1], ", ") + " ou " + formulaFuncs[len(formulaFuncs)-1] +
			" (ou, para comparar com o resultado inteiro, sum_all, avg_all, min_all ou max_all)")
	}
	if err := p.term(); err != nil {
		return nil, err
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	if p.tok.kind != tokLParen {
		return nil, p.fail(fmt.Sprintf(`"(" depois de %s`, fn))
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	if p.tok.kind != tokRef {
		return nil, p.fail(fmt.Sprintf("uma ref entre colchetes, como %s([Tabela.Coluna])", fn))
	}
	ref := p.tok
	if ref.text == "" {
		return nil, p.fail("uma ref Tabela.Coluna dentro dos colchetes")
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	if p.tok.kind != tokRParen {
		return nil, p.fail(fmt.Sprintf(`")" fechando %s (a agregação recebe uma ref só)`, fn))
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	a := &Aggregate{Func: fn, Ref: ref.text, Position: name.pos}
	if p.isWord("onde") {
		if err := p.scan(); err != nil {
			return nil, err
		}
		row := p.row
		p.row = true
		cond, err := p.condition(depth + 1)
		p.row = row
		if err != nil {
			return nil, err
		}
		a.Where = cond
	}
	return a, nil
}

// wholeCall reads sum_all(X), avg_all(X), min_all(X) or max_all(X): X an expression formula
// with at least one aggregation and no other whole inside.
func (p *formulaParser) wholeCall(depth int) (Formula, error) {
	if err := p.deep(depth + 1); err != nil {
		return nil, err
	}
	name := p.tok
	fn := strings.ToLower(name.text)
	if p.whole != nil {
		outer := p.whole.Func + "_all"
		return nil, p.fail(fmt.Sprintf("uma agregação como sum([Tabela.Coluna]) dentro de %s (aberto na posição %d): %s não pode ficar dentro de outra função sobre o resultado inteiro", outer, p.whole.Position, fn))
	}
	if err := p.term(); err != nil {
		return nil, err
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	if p.tok.kind != tokLParen {
		return nil, p.fail(fmt.Sprintf(`"(" depois de %s, como %s(sum([Tabela.Coluna]))`, fn, fn))
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	w := &Whole{Func: wholeFuncs[fn], Position: name.pos}
	p.whole = w
	x, err := p.arith(depth + 1)
	p.whole = nil
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokRParen {
		return nil, p.fail(fmt.Sprintf(`")" fechando %s, ou um operador (+ - * /)`, fn))
	}
	if len(FormulaAggregates(x)) == 0 {
		return nil, &FormulaError{Formula: p.src, Position: x.Pos(),
			Expected: fmt.Sprintf("uma agregação dentro de %s, como %s(sum([Tabela.Coluna])): ele agrega os valores dos grupos da resposta", fn, fn),
			Found:    "uma conta sem agregação"}
	}
	if err := p.scan(); err != nil {
		return nil, err
	}
	w.X = x
	return w, nil
}

// condition is what follows onde: não and a condition, or operand [comparison operand], each
// operand a term (a ref, a literal, a minus sign, or anything between parentheses).
func (p *formulaParser) condition(depth int) (Formula, error) {
	if err := p.deep(depth); err != nil {
		return nil, err
	}
	if p.isWord("nao") {
		op := p.tok
		if err := p.scan(); err != nil {
			return nil, err
		}
		x, err := p.condition(depth + 1)
		if err != nil {
			return nil, err
		}
		return &Not{X: x, Position: op.pos}, nil
	}
	if p.tok.kind == tokEOF {
		return nil, p.fail(`uma condição depois de onde, como [Situação] = "Ativa"`)
	}
	return p.compare(depth, p.unary)
}

// next reads one rune, or returns -1 at the end.
func (p *formulaParser) next() rune {
	if p.off >= len(p.src) {
		return -1
	}
	r, n := utf8.DecodeRuneInString(p.src[p.off:])
	p.off += n
	p.pos++
	return r
}

func (p *formulaParser) peek() rune {
	if p.off >= len(p.src) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.off:])
	return r
}

// scan advances p.tok to the next token.
func (p *formulaParser) scan() error {
	for unicode.IsSpace(p.peek()) {
		p.next()
	}
	start := p.pos + 1
	startOff := p.off
	r := p.next()
	switch {
	case r < 0:
		p.tok = token{kind: tokEOF, pos: start}
	case r == '(':
		p.tok = token{kind: tokLParen, text: "(", pos: start}
	case r == ')':
		p.tok = token{kind: tokRParen, text: ")", pos: start}
	case r == ';':
		p.tok = token{kind: tokSemi, text: ";", pos: start}
	case r == ',':
		p.tok = token{kind: tokComma, text: ",", pos: start}
	case strings.ContainsRune("+-*/", r):
		p.tok = token{kind: tokOp, text: string(r), pos: start}
	case r == '=':
		p.tok = token{kind: tokCmp, text: "=", pos: start}
	case r == '<' || r == '>':
		op := string(r)
		if c := p.peek(); c == '=' || (r == '<' && c == '>') {
			p.next()
			op += string(c)
		}
		p.tok = token{kind: tokCmp, text: op, pos: start}
	case r == '"':
		var b strings.Builder
		for {
			c := p.next()
			switch {
			case c < 0:
				return &FormulaError{Formula: p.src, Position: p.pos + 1, Expected: `" fechando o texto aberto na posição ` + strconv.Itoa(start), Found: "o fim da fórmula"}
			case c == '"' && p.peek() == '"':
				p.next()
				b.WriteRune('"')
			case c == '"':
				p.tok = token{kind: tokString, text: b.String(), pos: start}
				return nil
			default:
				b.WriteRune(c)
			}
		}
	case r >= '0' && r <= '9':
		for c := p.peek(); c >= '0' && c <= '9'; c = p.peek() {
			p.next()
		}
		if p.peek() == '.' {
			p.next()
			if c := p.peek(); c < '0' || c > '9' {
				found := "o fim da fórmula"
				if c >= 0 {
					found = strconv.Quote(string(c))
				}
				return &FormulaError{Formula: p.src, Position: p.pos + 1, Expected: "um algarismo depois do ponto decimal", Found: found}
			}
			for c := p.peek(); c >= '0' && c <= '9'; c = p.peek() {
				p.next()
			}
		}
		p.tok = token{kind: tokNumber, text: p.src[startOff:p.off], pos: start}
	case r == '_' || unicode.IsLetter(r):
		for c := p.peek(); c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c); c = p.peek() {
			p.next()
		}
		p.tok = token{kind: tokIdent, text: p.src[startOff:p.off], pos: start}
	case r == '[':
		for {
			c := p.next()
			switch c {
			case -1:
				return &FormulaError{Formula: p.src, Position: p.pos + 1, Expected: `"]" fechando a ref aberta na posição ` + strconv.Itoa(start), Found: "o fim da fórmula"}
			case '[':
				return &FormulaError{Formula: p.src, Position: p.pos, Expected: `"]" fechando a ref aberta na posição ` + strconv.Itoa(start), Found: `"["`}
			case ']':
				inner := p.src[startOff+1 : p.off-1]
				p.tok = token{kind: tokRef, text: strings.TrimSpace(inner), pos: start}
				return nil
			}
		}
	default:
		// Any other character is reported by the parser, which knows what it expected there.
		p.tok = token{kind: tokInvalid, text: string(r), pos: start}
	}
	return nil
}
