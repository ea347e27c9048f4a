package semantic

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Formula is a node of a parsed expression formula: *Number, *Aggregate, *Unary or *Binary.
// Parentheses leave no node; they only shape the tree.
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

// Aggregate is an aggregate call over one column: Func is sum, avg, min, max, count or
// count_distinct (lower case), Ref the text between the brackets, trimmed, not yet resolved.
type Aggregate struct {
	Func     string
	Ref      string
	Position int
}

// Unary is a negation; Op is always "-".
type Unary struct {
	Op       string
	X        Formula
	Position int
}

// Binary is an arithmetic operation; Op is "+", "-", "*" or "/".
type Binary struct {
	Op          string
	Left, Right Formula
	Position    int // position of the operator
}

func (n *Number) Pos() int    { return n.Position }
func (n *Aggregate) Pos() int { return n.Position }
func (n *Unary) Pos() int     { return n.Position }
func (n *Binary) Pos() int    { return n.Left.Pos() }

func (n *Number) String() string    { return n.Text }
func (n *Aggregate) String() string { return n.Func + "([" + n.Ref + "])" }
func (n *Unary) String() string     { return n.Op + n.X.String() }
func (n *Binary) String() string {
	return "(" + n.Left.String() + " " + n.Op + " " + n.Right.String() + ")"
}

func (*Number) formula()    {}
func (*Aggregate) formula() {}
func (*Unary) formula()     {}
func (*Binary) formula()    {}

var (
	_ Formula = (*Number)(nil)
	_ Formula = (*Aggregate)(nil)
	_ Formula = (*Unary)(nil)
	_ Formula = (*Binary)(nil)
)

// formulaFuncs are the aggregate functions a formula may call.
var formulaFuncs = []string{"sum", "avg", "min", "max", "count", "count_distinct"}

// maxFormulaDepth bounds nesting (parentheses and minus signs) so a hostile formula cannot
// exhaust the stack.
const maxFormulaDepth = 100

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
// (sum([Vendas.VALOR_LIQ])), numbers, + - * /, parentheses and unary minus, with the usual
// precedence. Function names ignore case. Errors are *FormulaError.
func ParseFormula(s string) (Formula, error) {
	p := &formulaParser{src: s}
	if err := p.scan(); err != nil {
		return nil, err
	}
	if p.tok.kind == tokEOF {
		return nil, p.fail("uma agregação como sum([Tabela.Coluna]) ou um número")
	}
	f, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEOF {
		return nil, p.fail(`um operador (+ - * /) ou o fim da fórmula`)
	}
	return f, nil
}

// FormulaAggregates lists every aggregate call of f, left to right.
func FormulaAggregates(f Formula) []*Aggregate {
	var out []*Aggregate
	var walk func(Formula)
	walk = func(f Formula) {
		switch n := f.(type) {
		case *Aggregate:
			out = append(out, n)
		case *Unary:
			walk(n.X)
		case *Binary:
			walk(n.Left)
			walk(n.Right)
		}
	}
	walk(f)
	return out
}

// FormulaRefs lists the distinct refs of f (as written) in order of first appearance.
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
	tokIdent
	tokRef
	tokLParen
	tokRParen
	tokOp
	tokInvalid
)

type token struct {
	kind tokKind
	text string // as written (for tokRef: the brackets' content, trimmed)
	pos  int    // 1-based character position
}

type formulaParser struct {
	src string
	off int // byte offset of the next unread rune
	pos int // characters consumed so far
	tok token
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
	}
	return strconv.Quote(t.text)
}

func (p *formulaParser) expr(depth int) (Formula, error) {
	left, err := p.term(depth)
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tokOp && (p.tok.text == "+" || p.tok.text == "-") {
		op := p.tok
		if err := p.scan(); err != nil {
			return nil, err
		}
		right, err := p.term(depth)
		if err != nil {
			return nil, err
		}
		left = &Binary{Op: op.text, Left: left, Right: right, Position: op.pos}
	}
	return left, nil
}

func (p *formulaParser) term(depth int) (Formula, error) {
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
	if depth > maxFormulaDepth {
		return nil, &FormulaError{Formula: p.src, Position: p.tok.pos,
			Expected: fmt.Sprintf("no máximo %d níveis de parênteses ou sinais", maxFormulaDepth),
			Found:    "mais que isso"}
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
		if err := p.scan(); err != nil {
			return nil, err
		}
		return &Number{Value: v, Text: t.text, Position: t.pos}, nil
	case tokLParen:
		if err := p.scan(); err != nil {
			return nil, err
		}
		x, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.tok.kind != tokRParen {
			return nil, p.fail(`")" ou um operador (+ - * /)`)
		}
		if err := p.scan(); err != nil {
			return nil, err
		}
		return x, nil
	case tokIdent:
		return p.call()
	case tokRef:
		return nil, p.fail(fmt.Sprintf("uma agregação em volta da ref, como sum(%s)", "["+t.text+"]"))
	}
	return nil, p.fail(`uma agregação como sum([Tabela.Coluna]), um número ou "("`)
}

func (p *formulaParser) call() (Formula, error) {
	name := p.tok
	fn := strings.ToLower(name.text)
	known := false
	for _, f := range formulaFuncs {
		known = known || f == fn
	}
	if !known {
		return nil, p.fail("uma agregação: " + strings.Join(formulaFuncs[:len(formulaFuncs)-1], ", ") + " ou " + formulaFuncs[len(formulaFuncs)-1])
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
	return &Aggregate{Func: fn, Ref: ref.text, Position: name.pos}, nil
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
	case strings.ContainsRune("+-*/", r):
		p.tok = token{kind: tokOp, text: string(r), pos: start}
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
