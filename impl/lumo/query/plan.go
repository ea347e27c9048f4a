package query

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// Block is one aggregation over a base table and the tables it reaches through relationships.
// A query over several fact tables has one block per fact, joined afterwards on the shared
// groups, so no measure is multiplied by another fact's rows.
type Block struct {
	Base     *semantic.Table
	Joins    []Join // in join order: each joins a table reached from an earlier one
	Measures []*Measure
	Where    []*Pred
	alias    map[*semantic.Table]string
	// Rollup, when set, is read instead of Base and Joins (see UseRollups).
	Rollup *semantic.Rollup
}

// Join is one LEFT JOIN along a relationship (many-to-one, from the fact side).
type Join struct {
	Table *semantic.Table
	On    semantic.Relationship
}

// Plan is how a query runs: its blocks, and notes about filters that apply to some blocks only.
type Plan struct {
	Blocks []*Block
	Notes  []string
}

func reachesAll(via map[*semantic.Table]*semantic.Relationship, tables []*semantic.Table) bool {
	for _, t := range tables {
		if _, ok := via[t]; !ok {
			return false
		}
	}
	return true
}

// PlanQuery decides the blocks of q.
func PlanQuery(q *Query) (*Plan, error) {
	app := q.App
	var groupTables, whereTables, measureTables []*semantic.Table
	for _, c := range q.Out {
		if c.Group != nil {
			groupTables = concatTables(groupTables, c.Group.Col.Tables())
		}
	}
	for _, p := range q.Where {
		whereTables = concatTables(whereTables, p.tables())
	}
	for _, m := range q.Measures {
		measureTables = concatTables(measureTables, m.tables())
	}
	var facts []*semantic.Table
	for _, t := range concatTables(measureTables, groupTables, whereTables) {
		if t.Kind == semantic.KindFact {
			facts = appendTable(facts, t)
		}
	}
	all := concatTables(measureTables, groupTables, whereTables)
	if len(facts) <= 1 {
		base, via := chooseBase(app, facts, all)
		if base == nil {
			return planExists(q, measureTables, groupTables)
		}
		b := newBlock(base, via, all)
		b.Measures = q.Measures
		b.Where = q.Where
		return &Plan{Blocks: []*Block{b}}, nil
	}
	// Several facts: each measure belongs to its fact (a dimension's measure to the first fact
	// reaching it); groups must be reachable from every block.
	plan := &Plan{}
	blocks := map[*semantic.Table]*Block{}
	vias := map[*semantic.Table]map[*semantic.Table]*semantic.Relationship{}
	for _, f := range facts {
		vias[f] = app.Reach(f)
	}
	for _, m := range q.Measures {
		home := m.Col.Table
		if home.Kind != semantic.KindFact {
			home = nil
			for _, f := range facts {
				if reachesAll(vias[f], m.tables()) {
					home = f
					break
				}
			}
			if home == nil {
				return nil, noPath(app, append(m.tables(), facts...))
			}
		} else if !reachesAll(vias[home], m.tables()) {
			return nil, noPath(app, m.tables())
		}
		b := blocks[home]
		if b == nil {
			b = &Block{Base: home}
			blocks[home] = b
			plan.Blocks = append(plan.Blocks, b)
		}
		b.Measures = append(b.Measures, m)
	}
	if len(plan.Blocks) == 0 {
		return nil, noPath(app, all)
	}
	for _, b := range plan.Blocks {
		via := vias[b.Base]
		if !reachesAll(via, groupTables) {
			var missing []*semantic.Table
			for _, t := range groupTables {
				if _, ok := via[t]; !ok {
					missing = append(missing, t)
				}
			}
			return nil, noPath(app, append([]*semantic.Table{b.Base}, missing...))
		}
		needed := append([]*semantic.Table{}, groupTables...)
		for _, m := range b.Measures {
			needed = concatTables(needed, m.tables())
		}
		for _, p := range q.Where {
			if reachesAll(via, p.tables()) {
				b.Where = append(b.Where, p)
				needed = concatTables(needed, p.tables())
			}
		}
		nb := newBlock(b.Base, via, needed)
		b.Joins, b.alias = nb.Joins, nb.alias
	}
	// A filter no block reaches tests existence where a block reaches a table its rows point to.
	for _, p := range q.Where {
		reached := false
		for _, b := range plan.Blocks {
			reached = reached || slices.Contains(b.Where, p)
		}
		if reached || p.Segment != nil {
			continue
		}
		for _, b := range plan.Blocks {
			via := vias[b.Base]
			if p.Exists == nil {
				p.Exists = existsFor(app, via, p)
				if p.Exists == nil {
					continue
				}
				p.Words = p.words()
			}
			if _, ok := via[p.Exists.Of]; ok {
				b.Where = append(b.Where, p)
				needed := concatTables(groupTables, p.tables())
				for _, m := range b.Measures {
					needed = concatTables(needed, m.tables())
				}
				for _, bp := range b.Where {
					needed = concatTables(needed, bp.tables())
				}
				nb := newBlock(b.Base, via, needed)
				b.Joins, b.alias = nb.Joins, nb.alias
			}
		}
		if p.Exists != nil {
			plan.Notes = append(plan.Notes, existsNote(p))
		}
	}
	for _, p := range q.Where {
		var in, out []string
		for _, b := range plan.Blocks {
			found := false
			for _, bp := range b.Where {
				found = found || bp == p
			}
			if found {
				in = append(in, b.Base.Label)
			} else {
				out = append(out, b.Base.Label)
			}
		}
		// The filter as the error and the note name it, and the table it reads.
		named, said, table := "O filtro "+p.Words, "O filtro "+p.Words, p.tables()[0]
		if p.Segment != nil {
			named, said = "O segmento "+p.Segment.Label, "O segmento "+p.Segment.Label
		} else {
			named, table = "O filtro "+p.Target.Col.Ref(), p.Target.Col.Table
		}
		switch {
		case len(in) == 0:
			var bases []*semantic.Table
			for _, b := range plan.Blocks {
				bases = append(bases, b.Base)
			}
			return nil, errorf(CodeNoJoinPath, pathHints(app, p, bases), "%s não combina com %s: a Aplicação não tem relacionamento entre essas tabelas.",
				named, strings.Join(out, " e "))
		case len(out) > 0:
			plan.Notes = append(plan.Notes, said+" vale só para "+strings.Join(in, " e ")+
				"; "+strings.Join(out, " e ")+" não tem relacionamento com "+table.Label+".")
		}
	}
	return plan, nil
}

// planExists plans a single-block query whose filters read a table the block does not reach:
// the block is chosen for the measures and groups, and each such filter tests existence (see
// existsFor); a filter that cannot is NO_JOIN_PATH.
func planExists(q *Query, measureTables, groupTables []*semantic.Table) (*Plan, error) {
	app := q.App
	core := concatTables(measureTables, groupTables)
	var facts []*semantic.Table
	for _, t := range core {
		if t.Kind == semantic.KindFact {
			facts = appendTable(facts, t)
		}
	}
	var all []*semantic.Table
	for _, p := range q.Where {
		all = concatTables(all, p.tables())
	}
	all = concatTables(core, all)
	base, via := chooseBase(app, facts, core)
	if base == nil || len(facts) > 1 {
		return nil, noPath(app, all)
	}
	plan := &Plan{}
	needed := core
	for _, p := range q.Where {
		if !reachesAll(via, p.tables()) {
			if p.Segment != nil {
				return nil, noPath(app, all)
			}
			if p.Exists = existsFor(app, via, p); p.Exists == nil {
				return nil, errorf(CodeNoJoinPath, pathHints(app, p, []*semantic.Table{base}),
					"O filtro %s não combina com %s: a Aplicação não tem relacionamento entre essas tabelas.", p.Target.Col.Ref(), base.Label)
			}
			p.Words = p.words()
			plan.Notes = append(plan.Notes, existsNote(p))
		}
		needed = concatTables(needed, p.tables())
	}
	b := newBlock(base, via, needed)
	b.Measures, b.Where = q.Measures, q.Where
	plan.Blocks = []*Block{b}
	return plan, nil
}

// existsFor is the existence test a column filter becomes in a block that does not reach the
// filter's table T but reaches a table whose rows T's rows point to (many to one: the items of
// an order): the block's rows whose row of that table has some row of T meeting the filter.
// Of the tables the block reaches, the one nearest to T is taken (the order, not its customer);
// nil when there is none.
func existsFor(app *semantic.App, via map[*semantic.Table]*semantic.Relationship, p *Pred) *semantic.Related {
	if p.Target == nil {
		return nil
	}
	home := p.Target.Col.Table
	reach := app.Reach(home)
	var best *semantic.Table
	bestDist := 0
	for _, t := range app.Tables { // in model order, so that ties go the same way every time
		if _, ok := via[t]; !ok || t == home {
			continue
		}
		if _, ok := reach[t]; !ok {
			continue
		}
		d := 0
		for x := t; x != home; x = reach[x].FromTable() {
			d++
		}
		if best == nil || d < bestDist {
			best, bestDist = t, d
		}
	}
	if best == nil {
		return nil
	}
	return &semantic.Related{Rows: home, Of: best, Via: reach}
}

// existsNote says how an existence filter counts.
func existsNote(p *Pred) string {
	return fmt.Sprintf("O filtro em %s vale para cada linha de %s que tem alguma linha de %s em que %s; cada linha de %s conta uma vez.",
		p.Target.Col.Ref(), p.Exists.Of.Label, p.Exists.Rows.Label, p.valueWords(), p.Exists.Of.Label)
}

// pathHints are the ways to make a filter on p's table combine with tables: the relationships
// to declare, and the segments of the app over p's table.
func pathHints(app *semantic.App, p *Pred, tables []*semantic.Table) []string {
	hints := relationshipHints(app, concatTables(p.tables(), tables))
	for _, s := range app.Segments {
		if p.Target != nil && s.Related == p.Target.Col.Table && len(hints) < 5 {
			hints = append(hints, fmt.Sprintf("Ou filtre pelo segmento %q ({\"segment\": %q}), que escolhe as linhas de %s por linhas de %s.",
				s.Label, s.Label, s.Table.Label, s.Related.Label))
		}
	}
	return hints
}

// chooseBase picks the table a single-block query starts from: the fact, else an involved table,
// else any table of the app, from which every involved table is reachable.
func chooseBase(app *semantic.App, facts, involved []*semantic.Table) (*semantic.Table, map[*semantic.Table]*semantic.Relationship) {
	candidates := append(append([]*semantic.Table{}, facts...), involved...)
	for _, t := range app.Tables {
		if t.Kind == semantic.KindFact {
			candidates = append(candidates, t)
		}
	}
	candidates = append(candidates, app.Tables...)
	for _, c := range candidates {
		via := app.Reach(c)
		if reachesAll(via, involved) {
			return c, via
		}
	}
	return nil, nil
}

// newBlock joins, from base, every table on the paths to the needed tables.
func newBlock(base *semantic.Table, via map[*semantic.Table]*semantic.Relationship, needed []*semantic.Table) *Block {
	b := &Block{Base: base, alias: map[*semantic.Table]string{base: "t0"}}
	var add func(t *semantic.Table)
	add = func(t *semantic.Table) {
		if _, done := b.alias[t]; done {
			return
		}
		r := via[t]
		add(r.FromTable())
		b.alias[t] = "t" + itoa(len(b.alias))
		b.Joins = append(b.Joins, Join{Table: t, On: *r})
	}
	for _, t := range needed {
		add(t)
	}
	return b
}

func noPath(app *semantic.App, tables []*semantic.Table) *Error {
	var names []string
	seen := map[string]bool{}
	for _, t := range tables {
		if !seen[t.Label] {
			seen[t.Label] = true
			names = append(names, t.Label)
		}
	}
	sort.Strings(names)
	return errorf(CodeNoJoinPath, relationshipHints(app, tables), "As tabelas %s não combinam: a Aplicação não tem relacionamento que as ligue nesta consulta.",
		strings.Join(names, ", "))
}

// relationshipHints are the relationships app.yaml could declare so that the tables combine:
// for two of them that do not reach one another, a column of one and a column of the other
// with the same label or physical name (case and accents aside) and type, from the fact's side
// (the many side) to the other. Without such a pair, one hint says how to write one.
func relationshipHints(app *semantic.App, tables []*semantic.Table) []string {
	var hints []string
	seen := map[string]bool{}
	for _, a := range tables {
		reach := app.Reach(a)
		for _, b := range tables {
			if _, ok := reach[b]; ok || a == b || (b.Kind == semantic.KindFact && a.Kind != semantic.KindFact) {
				continue
			}
			if _, ok := app.Reach(b)[a]; ok {
				continue
			}
			for _, ca := range a.Columns {
				for _, cb := range b.Columns {
					if ca.Calculated() || cb.Calculated() || ca.Type != cb.Type ||
						(fold.Fold(ca.Label) != fold.Fold(cb.Label) && !strings.EqualFold(ca.Name, cb.Name)) {
						continue
					}
					h := fmt.Sprintf("Para ligar %s a %s, declare em relationships do app.yaml: {from: %s, to: %s}, e importe de novo.",
						a.Label, b.Label, ca.Ref(), cb.Ref())
					if !seen[h] && len(hints) < 5 {
						seen[h] = true
						hints = append(hints, h)
					}
				}
			}
		}
	}
	if len(hints) == 0 {
		hints = append(hints, "Declare em relationships do app.yaml a coluna de uma tabela que aponta para a chave da outra ({from: Tabela.Coluna, to: Outra.Chave}) e importe de novo; get_app mostra os relacionamentos que a Aplicação já tem.")
	}
	return hints
}

func appendTable(list []*semantic.Table, t *semantic.Table) []*semantic.Table {
	for _, e := range list {
		if e == t {
			return list
		}
	}
	return append(list, t)
}

func concatTables(lists ...[]*semantic.Table) []*semantic.Table {
	var out []*semantic.Table
	for _, l := range lists {
		for _, t := range l {
			out = appendTable(out, t)
		}
	}
	return out
}

// SubqueryTables lists the tables the query reads in subqueries of its own rather than in its
// blocks' joins: the related rows of its segments, of its existence filters (once planned) and of
// the calculated columns that aggregate related rows (with the tables joined to reach them or to test their conditions). dataAsOf
// counts them too.
func SubqueryTables(q *Query) []*semantic.Table {
	var out []*semantic.Table
	seen := map[*semantic.Column]bool{}
	var formula func(f semantic.Formula)
	related := func(rel *semantic.Related) {
		out = appendTable(out, rel.Rows)
		if !rel.All {
			for t := rel.Key().FromTable(); t != rel.Rows; t = rel.Via[t].FromTable() {
				out = appendTable(out, t)
			}
		}
		out = concatTables(out, rel.CondTables)
		formula(rel.Cond)
	}
	column := func(c *semantic.Column) {
		if c.Calc != nil && !seen[c] {
			seen[c] = true
			formula(c.Calc)
		}
	}
	formula = func(f semantic.Formula) {
		semantic.Walk(f, func(n semantic.Formula) {
			switch x := n.(type) {
			case *semantic.Ref:
				column(x.Col)
			case *semantic.Aggregate:
				if x.Rows != nil {
					related(x.Rows)
					column(x.Col)
				}
			}
		})
	}
	for _, c := range q.Out {
		if c.Group != nil {
			column(c.Group.Col)
		}
	}
	for _, p := range q.Where {
		switch {
		case p.Segment != nil:
			related(p.Segment.Rows)
		case p.Exists != nil:
			related(p.Exists)
			out = concatTables(out, p.Target.Col.Tables())
			column(p.Target.Col)
		default:
			column(p.Target.Col)
		}
	}
	for _, m := range q.Measures {
		column(m.Col)
		formula(m.Cond)
	}
	return out
}
