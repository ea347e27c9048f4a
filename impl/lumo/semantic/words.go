package semantic

import (
	"strconv"
	"strings"
)

// aggWords names the aggregations in Portuguese.
var aggWords = map[string]string{
	"sum": "soma", "avg": "média", "min": "mínimo", "max": "máximo", "count": "contagem", "count_distinct": "contagem distinta",
}

// CalcWords says how a calculated column is computed, in words: "calculada: Preço × (1 − Desconto)".
func CalcWords(c *Column) string {
	if !c.Calculated() {
		return ""
	}
	f := c.Calc
	if f == nil {
		var err error
		if f, err = ParseRowFormula(c.Formula); err != nil {
			return "calculada: " + c.Formula
		}
	}
	return "calculada: " + FormulaWords(f)
}

// ExpressionWords is an expression formula in words ("" when it does not parse):
// "soma de Vendas.Valor onde Situação = "Ativa" ÷ contagem de Vendas.Id".
func ExpressionWords(formula string) string {
	f, err := ParseFormula(formula)
	if err != nil {
		return ""
	}
	return FormulaWords(f)
}

// FormulaWords prints a formula for people: refs without brackets, × ÷ − ≠ ≤ ≥, the aggregations
// by their Portuguese names, se as "se … então … senão …", and only the parentheses the reading needs.
func FormulaWords(f Formula) string {
	var b strings.Builder
	words(&b, f, 0)
	return b.String()
}

// precedence of a node when printed, loosest first.
func precedence(f Formula) int {
	switch n := f.(type) {
	case *Logic:
		if n.Op == "ou" {
			return 1
		}
		return 2
	case *Not:
		return 3
	case *Compare, *Like, *In:
		return 4
	case *Binary:
		if n.Op == "+" || n.Op == "-" {
			return 5
		}
		return 6
	case *Unary:
		return 7
	case *If:
		return 0 // "se … senão …" reads to its end
	case *Aggregate:
		if n.Where != nil {
			return 0 // its condition reads to its end
		}
	}
	return 8
}

var opWords = map[string]string{"+": "+", "-": "−", "*": "×", "/": "÷", "=": "=", "<>": "≠", "<": "<", "<=": "≤", ">": ">", ">=": "≥", "e": "e", "ou": "ou"}

// words writes f, in parentheses when it binds looser than min.
func words(b *strings.Builder, f Formula, min int) {
	paren := precedence(f) < min
	if paren {
		b.WriteString("(")
		defer b.WriteString(")")
	}
	switch n := f.(type) {
	case *Number:
		b.WriteString(strings.Replace(n.Text, ".", ",", 1))
	case *String:
		b.WriteString(n.String())
	case *Ref:
		b.WriteString(n.Ref)
	case *Aggregate:
		b.WriteString(aggWords[n.Func] + " de " + n.Ref)
		if n.Rows != nil && n.Rows.All {
			b.WriteString(" em todas as linhas de " + n.Rows.Of.Label)
		}
		if n.Where != nil {
			b.WriteString(" onde ")
			words(b, n.Where, 1)
		}
	case *Whole:
		b.WriteString(aggWords[n.Func] + " no resultado inteiro de (")
		words(b, n.X, 0)
		b.WriteString(")")
	case *Unary:
		b.WriteString("−")
		words(b, n.X, 7)
	case *Not:
		b.WriteString("não ")
		words(b, n.X, 3)
	case *Slice:
		side := "primeiro"
		if n.Right {
			side = "último"
		}
		if n.N == 1 {
			b.WriteString("o " + side + " caractere de ")
		} else {
			b.WriteString("os " + strconv.Itoa(n.N) + " " + side + "s caracteres de ")
		}
		words(b, n.X, 8)
	case *If:
		b.WriteString("se ")
		words(b, n.Cond, 1)
		b.WriteString(" então ")
		words(b, n.Then, 1)
		b.WriteString(", senão ")
		words(b, n.Else, 1)
	case *Binary:
		binWords(b, n.Op, n.Left, n.Right)
	case *Compare:
		binWords(b, n.Op, n.Left, n.Right)
	case *Logic:
		binWords(b, n.Op, n.Left, n.Right)
	case *Like:
		words(b, n.X, 5)
		b.WriteString(" como " + n.Pattern.String())
	case *In:
		words(b, n.X, 5)
		// A number in words has a decimal comma: its list is separated by ;.
		sep := ", "
		for _, x := range n.List {
			if _, text := x.(*String); !text {
				sep = "; "
			}
		}
		b.WriteString(" em (")
		for i, x := range n.List {
			if i > 0 {
				b.WriteString(sep)
			}
			words(b, x, 0)
		}
		b.WriteString(")")
	}
}

func binWords(b *strings.Builder, op string, l, r Formula) {
	p := precedence(&Binary{Op: op})
	switch op {
	case "=", "<>", "<", "<=", ">", ">=":
		p = 4
	case "e":
		p = 2
	case "ou":
		p = 1
	}
	words(b, l, p)
	b.WriteString(" " + opWords[op] + " ")
	right := p
	if op == "-" || op == "/" || p == 4 {
		right = p + 1
	}
	words(b, r, right)
}
