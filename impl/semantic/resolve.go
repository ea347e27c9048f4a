package semantic

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// Target is what a ref names: a column or an expression (exactly one is set).
type Target struct {
	Column     *Column
	Expression *Expression
}

// RefError says why a ref does not resolve. Kind is RefUnknown, RefAmbiguous or RefSyntax.
type RefError struct {
	Ref         string
	Kind        string
	Suggestions []string
}

// Kinds of RefError.
const (
	RefUnknown   = "unknown"
	RefAmbiguous = "ambiguous"
	RefSyntax    = "syntax"
)

func (e *RefError) Error() string {
	switch e.Kind {
	case RefAmbiguous:
		return "A ref " + quote(e.Ref) + " é ambígua: duas colunas da tabela têm esse rótulo; use o nome físico: " + strings.Join(e.Suggestions, " ou ") + "."
	case RefSyntax:
		msg := "A ref " + quote(e.Ref) + " não está no formato Tabela.Coluna (com o rótulo que a Aplicação mostra) nem é o rótulo de uma expressão."
		return msg + suggestionTail(e.Suggestions)
	default:
		return "A ref " + quote(e.Ref) + " não existe nesta Aplicação." + suggestionTail(e.Suggestions)
	}
}

func suggestionTail(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return " Refs parecidas: " + strings.Join(s, ", ") + "."
}

func quote(s string) string { return "\"" + s + "\"" }

// Ref is the canonical ref of a column: Tabela.Rótulo, or Tabela.NOME_FÍSICO when another column
// of the same table shares its label.
func (c *Column) Ref() string {
	for _, o := range c.Table.Columns {
		if o != c && fold.Fold(o.Label) == fold.Fold(c.Label) {
			return c.Table.Label + "." + c.Name
		}
	}
	return c.Table.Label + "." + c.Label
}

// AllRefs lists the canonical refs of every column and expression of the app, in model order.
func (a *App) AllRefs() []string {
	var refs []string
	for _, t := range a.Tables {
		for _, c := range t.Columns {
			refs = append(refs, c.Ref())
		}
	}
	for _, e := range a.Expressions {
		refs = append(refs, e.Label)
	}
	return refs
}

// Resolve finds the column or expression a ref names, ignoring case and accents.
func (a *App) Resolve(ref string) (Target, error) {
	f := fold.Fold(ref)
	for _, e := range a.Expressions {
		if fold.Fold(e.Label) == f {
			return Target{Expression: e}, nil
		}
	}
	tableName, colName, ok := strings.Cut(ref, ".")
	if !ok || strings.ContainsAny(ref, "[]:") || strings.TrimSpace(colName) == "" {
		return Target{}, &RefError{Ref: ref, Kind: RefSyntax, Suggestions: a.Similar(ref, 5)}
	}
	ft, fc := fold.Fold(tableName), fold.Fold(colName)
	for _, t := range a.Tables {
		if fold.Fold(t.Label) != ft {
			continue
		}
		var byLabel []*Column
		for _, c := range t.Columns {
			if fold.Fold(c.Label) == fc {
				byLabel = append(byLabel, c)
			}
		}
		switch {
		case len(byLabel) == 1:
			return Target{Column: byLabel[0]}, nil
		case len(byLabel) > 1:
			var refs []string
			for _, c := range byLabel {
				refs = append(refs, c.Ref())
			}
			return Target{}, &RefError{Ref: ref, Kind: RefAmbiguous, Suggestions: refs}
		}
		// The physical name addresses a column only where its label is shared.
		for _, c := range t.Columns {
			if fold.Fold(c.Name) == fc && fold.Fold(c.Ref()) == f {
				return Target{Column: c}, nil
			}
		}
	}
	return Target{}, &RefError{Ref: ref, Kind: RefUnknown, Suggestions: a.Similar(ref, 5)}
}

// ResolveColumn is Resolve for places that take only a column (relationships, formulas).
func (a *App) ResolveColumn(ref string) (*Column, error) {
	t, err := a.Resolve(ref)
	if err != nil {
		return nil, err
	}
	if t.Column == nil {
		return nil, &RefError{Ref: ref, Kind: RefUnknown, Suggestions: a.Similar(ref, 5)}
	}
	return t.Column, nil
}

// Similar returns up to n refs of the app close to ref: substring matches of the folded text first
// (a bare column name finds its Tabela.Coluna), then the smallest edit distances.
func (a *App) Similar(ref string, n int) []string {
	return Similar(ref, a.AllRefs(), n)
}

// Similar ranks candidates by likeness to s, ignoring case and accents, and keeps at most n
// that are plausibly what was meant: a substring match first (the shorter text, at least
// minSubstring characters, inside the other; or s equal to a candidate's column name), then
// candidates within an edit distance of a third of s's length (at least 1), nearest first.
// Short texts need these bounds: two letters occur in many names, and a couple of edits turns
// any short label into another.
func Similar(s string, candidates []string, n int) []string {
	q := fold.Fold(strings.Trim(s, "[]"))
	q = strings.NewReplacer("].[", ".", ":", ".", "[", "", "]", "").Replace(q)
	maxDist := max(1, utf8.RuneCountInString(q)/3)
	qcol := q
	if _, c, ok := strings.Cut(q, "."); ok {
		qcol = c
	}
	type scored struct {
		ref   string
		score int
		order int
	}
	var list []scored
	for i, c := range candidates {
		fc := fold.Fold(c)
		score := editDistance(q, fc)
		_, col, _ := strings.Cut(fc, ".")
		// A bare column name is compared with the column part of the ref, so a table name
		// ("Lojas") does not count as containing a column ("Loja").
		if q != "" && (q == col || within(q, fc) || within(fc, q) || within(col, qcol)) {
			score = 0
		}
		if score > maxDist {
			continue
		}
		list = append(list, scored{c, score, i})
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score < list[j].score
		}
		return list[i].order < list[j].order
	})
	var out []string
	for _, s := range list {
		if len(out) == n {
			break
		}
		out = append(out, s.ref)
	}
	return out
}

// minSubstring is the shortest text whose occurrence inside another counts as a likeness.
const minSubstring = 3

// within reports whether part, long enough to mean something, occurs in whole.
func within(part, whole string) bool {
	return utf8.RuneCountInString(part) >= minSubstring && strings.Contains(whole, part)
}

// editDistance is the optimal string alignment distance: insertions, deletions, substitutions
// and swaps of adjacent characters ("bai" for "bia", a common slip) cost 1 each.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// rows i-2, i-1 and i of the dynamic programming table
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
