package semantic

import (
	"fmt"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// Related is the rows of table Rows that reach table Of through relationships, many to one (a
// customer's orders, an order's items, the supply offers of a part), keeping only those meeting
// Cond when it is set. A segment asks whether a row of Of has any; an aggregate in a calculated
// column of Of aggregates them. Both compile to a correlated subquery over Rows, joined along Via
// to the table holding the relationship into Of and to the tables Cond reads.
type Related struct {
	Rows, Of   *Table
	Via        map[*Table]*Relationship // Reach(Rows)
	Cond       Formula                  // bound; nil for every related row
	CondTables []*Table                 // the tables Cond reads, Rows first
	// All is every row of Rows, which is Of (meeting Cond when set), whatever row reads them
	// and whatever the question filters: a calculated column's aggregate over its own table
	// (the average balance of every customer). It compiles to an uncorrelated subquery and has
	// no Key.
	All bool
}

// Key is the relationship by which the related rows reach Of: its To columns are Of's, and each
// related row has the values of its From columns there. nil when All.
func (r *Related) Key() *Relationship {
	if r.All {
		return nil
	}
	return r.Via[r.Of]
}

// Segment is a named filter of the rows of Table (Cube's segments): those that some row of
// Related reaches through the relationships (a semi-join), or, Without, those no such row
// reaches (an anti-join), counting only the rows of Related meeting Where when it is written.
// A query filter names it by Label ({"segment": "Clientes sem pedidos"}); it compiles to EXISTS
// or NOT EXISTS over Related in the same statement.
type Segment struct {
	Label       string
	Description string
	Table       *Table
	Related     *Table
	Without     bool
	Where       string // a row condition over Related, as app.yaml writes it ("" for none)
	Rows        *Related
}

// Reaching lists the tables, other than t, whose rows reach t through relationships, in model order.
func (a *App) Reaching(t *Table) []*Table {
	var out []*Table
	for _, x := range a.Tables {
		if _, ok := a.Reach(x)[t]; ok && x != t {
			out = append(out, x)
		}
	}
	return out
}

// relate is the rows of rows reaching of, or why there are none to relate (in Portuguese,
// naming what to write instead).
func (a *App) relate(rows, of *Table) (*Related, string) {
	names := func() string {
		var labels []string
		for _, t := range a.Reaching(of) {
			labels = append(labels, t.Label)
		}
		if len(labels) == 0 {
			return fmt.Sprintf("nenhuma tabela aponta para %s pelos relacionamentos", of.Label)
		}
		return fmt.Sprintf("apontam para %s: %s", of.Label, strings.Join(labels, ", "))
	}
	if rows == of {
		return nil, fmt.Sprintf("as linhas relacionadas vêm de outra tabela, cujas linhas apontam para %s pelos relacionamentos (muitos para um); %s", of.Label, names())
	}
	via := a.Reach(rows)
	if _, ok := via[of]; !ok {
		return nil, fmt.Sprintf("as linhas de %s não apontam para %s pelos relacionamentos (muitos para um), então nenhuma linha de %s tem linhas de %s relacionadas; %s",
			rows.Label, of.Label, of.Label, rows.Label, names())
	}
	return &Related{Rows: rows, Of: of, Via: via}, ""
}

// TableByLabel finds a table by label, ignoring case and accents.
func (a *App) TableByLabel(label string) *Table {
	for _, t := range a.Tables {
		if fold.Fold(t.Label) == fold.Fold(label) {
			return t
		}
	}
	return nil
}

// SegmentError says why a segment does not fit the model: Field is the field of its app.yaml
// entry at fault (related is "with" or "without"), Err a message or a *FormulaError or
// *BindError of its where.
type SegmentError struct {
	Field string
	Err   error
}

func (e *SegmentError) Error() string { return e.Err.Error() }

// BindSegment resolves s.Rows from s.Table, s.Related and s.Where; the app's calculated columns
// must be bound.
func (a *App) BindSegment(s *Segment) error {
	field := "with"
	if s.Without {
		field = "without"
	}
	rel, why := a.relate(s.Related, s.Table)
	if rel == nil {
		return &SegmentError{Field: field, Err: fmt.Errorf("%s", why)}
	}
	if s.Where != "" {
		f, err := ParseRowFormula(s.Where)
		if err != nil {
			return &SegmentError{Field: "where", Err: err}
		}
		tables, err := a.BindCondition(f, s.Related)
		if err != nil {
			return &SegmentError{Field: "where", Err: err}
		}
		rel.Cond, rel.CondTables = f, tables
	}
	s.Rows = rel
	return nil
}

// SegmentByLabel finds a segment by label, ignoring case and accents.
func (a *App) SegmentByLabel(label string) *Segment {
	for _, s := range a.Segments {
		if fold.Fold(s.Label) == fold.Fold(label) {
			return s
		}
	}
	return nil
}

// SegmentWords says what a segment keeps, in words: "Clientes sem linhas em Pedidos",
// "Peças com linhas em PeçaFornecedor onde Nação do fornecedor.Nação = "Brasil"".
func SegmentWords(s *Segment) string {
	w := s.Table.Label + " com linhas em " + s.Related.Label
	if s.Without {
		w = s.Table.Label + " sem linhas em " + s.Related.Label
	}
	if s.Where == "" {
		return w
	}
	if s.Rows != nil && s.Rows.Cond != nil {
		return w + " onde " + FormulaWords(s.Rows.Cond)
	}
	return w + " onde " + s.Where
}
