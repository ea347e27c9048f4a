package semantic

import (
	"fmt"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
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
	Why         string // for RefUnknown, why the ref names nothing, when lumo knows ("" = not said)
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
		if e.Why != "" {
			return "A ref " + quote(e.Ref) + " não existe nesta Aplicação: " + e.Why + suggestionTail(e.Suggestions)
		}
		return "A ref " + quote(e.Ref) + " não existe nesta Aplicação." + suggestionTail(e.Suggestions)
	}
}

// copyOriginalColumns are the columns of t's original when t is a role-playing copy.
func copyOriginalColumns(t *Table) []*Column {
	if t.CopyOf == nil {
		return nil
	}
	return t.CopyOf.Columns
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
		// A copy has every column of its original but the calculated ones BindCalculated left out
		// at import (they are not in the catalogue): a ref to one says why.
		for _, c := range copyOriginalColumns(t) {
			if c.Calculated() && fold.Fold(c.Label) == fc {
				return Target{}, &RefError{Ref: ref, Kind: RefUnknown, Suggestions: a.Similar(ref, 5),
					Why: fmt.Sprintf("a coluna calculada %s de %s ficou fora da cópia %s, porque a fórmula dela não se resolve a partir de %s (a importação avisou). "+
						"Use-a pela tabela original, ou declare-a em columns da cópia no app.yaml, com uma fórmula que se resolva a partir de %s.",
						quote(c.Label), t.CopyOf.Label, t.Label, t.Label, t.Label)}
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
	return suggest.Similar(ref, a.AllRefs(), n)
}
