package query

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// Statement is SQL with its bind arguments. Result columns: one per Out column (o0..), then the
// capped total (n_total), then one per summary key (s0..).
type Statement struct {
	SQL         string
	Args        []any
	SummaryKeys []string
	// wide, on DuckDB, renders the statement with its products computed in 38 digits and its
	// numbers (literals, filter values) as DOUBLE, for when DuckDB refuses this one's arithmetic
	// as past 18 digits (see duckdbEngine.times and decimalLiteral); nil when it has neither.
	wide func() *Statement
}

// builder is one statement being rendered: its engine, the arguments bound so far, and the
// columns whose distinct count walks their index.
type builder struct {
	app  *semantic.App
	e    engine
	args []any
	walk map[*semantic.Column]bool
	subs int // correlated subqueries written so far: the n-th aliases its tables s<n>_0, s<n>_1, ...
	// grouped are the related-row aggregates the statement being written reads from a grouped
	// join (see relatedAgg), per block of the plan; fromWhere adds their joins.
	grouped map[*Block][]groupedAgg
	// pairs, when set, is the block's one count_distinct, counted from the block's distinct
	// (groups, value) pairs (see distinctPairs) instead of in a second pass over the rows.
	pairs *Measure
	// wholes numbers the aggregates over the whole result (sum_all, ...) of the query's
	// expressions: the n-th is column w<n> of stage w (see Render). inSummary is set while the
	// summary is written, where a whole is read from w as a scalar.
	wholes    map[*semantic.Whole]int
	inSummary bool
	products  bool // a row formula's product was written (see duckdbEngine.times)
	decimals  bool // a number was bound as an exact decimal (see decimalArg)
	// read are the tables whose columns the statement being written reads, per block (see
	// column), for bridged.
	read map[*Block]map[*semantic.Table]bool
	// keyed are, per block of related rows, the tables it reaches only for their key, left out
	// (see keyedOut): column reads their key from the columns it equals.
	keyed map[*Block]bridges
	// conds are, per block of related rows, the condition its rows meet (a segment's where),
	// for narrowed.
	conds map[*Block]semantic.Formula
	// totals are the aggregates over the result's rows (f) that the total and the summary read,
	// computed together in one pass (see overResult).
	totals []string
}

// overResult is aggregate agg over the result's rows, read from the one row that computes all of
// them together (z): one pass over f, where a scalar subquery per value made each a pipeline
// of its own (on DuckDB, a 4-row TPC-H Q1 spent 25 of its 90 ms on its summary's eight).
func (b *builder) overResult(agg string) string {
	i := slices.Index(b.totals, agg)
	if i < 0 {
		i = len(b.totals)
		b.totals = append(b.totals, agg)
	}
	return "z.a" + itoa(i)
}

// groupedAgg is a related-row aggregate read from a LEFT JOIN of its rows grouped by the
// relationship key: its alias and the join (a segment's keys, without n; see segmentJoin).
type groupedAgg struct {
	n     *semantic.Aggregate
	alias string
	join  string
}

func (b *builder) arg(v any) string {
	b.args = append(b.args, v)
	return b.e.Placeholder(len(b.args))
}

func (b *builder) ident(s string) string { return b.e.QuoteIdent(s) }

func itoa(i int) string { return strconv.Itoa(i) }

// Render writes the statement, the same on every engine but for what its engine spells.
func (r renderer) Render(q *Query, plan *Plan, walk map[*semantic.Column]bool) *Statement {
	b := &builder{app: q.App, e: r.e, walk: walk}
	var groups []*OutCol
	for _, c := range q.Out {
		if c.Group != nil {
			groups = append(groups, c)
		}
	}
	var sb strings.Builder
	if len(plan.Blocks) == 1 {
		b.pairs = b.distinctPairs(q, plan.Blocks[0], groups)
	}
	switch {
	case b.pairs != nil:
		sb.WriteString("WITH d AS MATERIALIZED (" + b.pairsBlock(plan.Blocks[0], q, groups) + "),\n  r AS MATERIALIZED (")
		sb.WriteString(b.fromPairs(q, groups))
	case len(plan.Blocks) == 1:
		sb.WriteString("WITH r AS MATERIALIZED (")
		sb.WriteString(b.block(plan.Blocks[0], q, groups, plan.Blocks[0].Measures))
	default:
		sb.WriteString("WITH r AS MATERIALIZED (")
		var gs, ms []string
		for i := range groups {
			gs = append(gs, "g"+itoa(i))
		}
		for _, m := range q.Measures {
			for _, p := range partials(m) {
				ms = append(ms, "MAX("+p+") AS "+p)
			}
		}
		sb.WriteString("SELECT " + strings.Join(append(gs, ms...), ", ") + " FROM (")
		for i, blk := range plan.Blocks {
			if i > 0 {
				sb.WriteString(" UNION ALL ")
			}
			sb.WriteString(b.block(blk, q, groups, blk.Measures))
		}
		sb.WriteString(") u")
		if len(gs) > 0 {
			sb.WriteString(" GROUP BY " + strings.Join(gs, ", "))
		} else {
			sb.WriteString(" HAVING COUNT(*) > 0")
		}
	}
	// The aggregates over the whole result are window aggregates over the grouped rows, in a
	// stage of their own: f's WHERE (the filters on aggregated values) runs before its window
	// functions would, and the wholes are over every group, kept or not.
	rows := "r"
	if wholes := queryWholes(q); len(wholes) > 0 {
		b.wholes = map[*semantic.Whole]int{}
		sb.WriteString("), w AS MATERIALIZED (SELECT r.*")
		for i, w := range wholes {
			b.wholes[w.n] = i
			sb.WriteString(", " + strings.ToUpper(w.n.Func) + "(" + b.formula(w.x, w.n.X, b.measureValue) + ") OVER () AS w" + itoa(i))
		}
		sb.WriteString(" FROM r")
		rows = "w"
	}
	sb.WriteString("), f AS MATERIALIZED (SELECT " + rows + ".*")
	for i, c := range q.Out {
		sb.WriteString(", " + b.outExpr(c, groups) + " AS o" + itoa(i))
	}
	sb.WriteString(" FROM " + rows)
	sb.WriteString(whereClause(b.havingConds(q)))
	sb.WriteString(")\nSELECT ")
	var sel []string
	for i := range q.Out {
		sel = append(sel, "o"+itoa(i))
	}
	sel = append(sel, b.overResult("COUNT(*)")+" AS n_total")
	st := &Statement{}
	for _, c := range q.Out {
		if c.Measure == nil && c.Expr == nil {
			continue
		}
		var e string
		if c.Measure != nil {
			e = b.summary(c.Measure, q, plan, groups)
		} else {
			b.inSummary = true
			e = b.formula(c.Expr, c.Expr.Tree, func(m *Measure) string { return b.summary(m, q, plan, groups) })
			b.inSummary = false
		}
		sel = append(sel, e+" AS s"+itoa(len(st.SummaryKeys)))
		st.SummaryKeys = append(st.SummaryKeys, c.Key)
	}
	totals := make([]string, len(b.totals))
	for i, t := range b.totals {
		totals[i] = t + " AS a" + itoa(i)
	}
	sb.WriteString(strings.Join(sel, ", ") + " FROM f CROSS JOIN (SELECT " + strings.Join(totals, ", ") + " FROM f) z ORDER BY ")
	var order []string
	used := map[*OutCol]bool{}
	for _, o := range q.Order {
		used[o.Col] = true
		order = append(order, b.orderTerm(q, o.Col, o.Desc))
	}
	for _, c := range groups {
		if !used[c] {
			order = append(order, b.orderTerm(q, c, false))
		}
	}
	if len(order) == 0 {
		order = append(order, "1")
	}
	sb.WriteString(strings.Join(order, ", ") + " LIMIT " + b.arg(q.Limit))
	st.SQL, st.Args = sb.String(), b.args
	if d, ok := r.e.(duckdbEngine); ok && (b.products || b.decimals) && !d.wide {
		d.wide = true
		st.wide = func() *Statement { return renderer{d}.Render(q, plan, walk) }
	}
	return st
}

func (b *builder) orderTerm(q *Query, c *OutCol, desc bool) string {
	i := 0
	for j, o := range q.Out {
		if o == c {
			i = j
		}
	}
	term := "f.o" + itoa(i)
	switch {
	case c.Type == semantic.TypeString:
		term = b.e.binary(term)
	case c.Group == nil:
		// By the value as answered (rounded to the column's scale): values answered equal tie, and
		// the next keys order them, on every engine alike.
		term = b.e.round(term, c.Scale)
	}
	if desc {
		return term + " DESC NULLS LAST"
	}
	return term + " ASC NULLS LAST"
}

// partials names the columns a measure keeps per group, from which its value and its total over
// all groups derive.
func partials(m *Measure) []string {
	if m.Agg == "avg" {
		return []string{"s" + itoa(m.idx), "c" + itoa(m.idx)}
	}
	return []string{"m" + itoa(m.idx)}
}

// havingConds are the query's filters on aggregated values, over the partials of a group (m0,
// s0, c0, ...).
func (b *builder) havingConds(q *Query) []string {
	var conds []string
	for _, p := range q.Having {
		target := ""
		if p.Measure != nil {
			target = b.havingValue(b.measureValue(p.Measure), p.Measure.scale())
		} else {
			target = b.havingValue(b.formula(p.Expr, p.Expr.Tree, b.measureValue), exprScale)
		}
		conds = append(conds, b.pred(p, target, "", "number"))
	}
	return conds
}

// havingValue is an aggregate's value v, answered at scale decimals, as a filter on it compares
// it: rounded as answered, so a filter finds the number the answer shows and every engine agrees
// whatever its float noise. A value answered at exprScale decimals or more (an average, an
// expression) that is under 1 in magnitude is compared at twice exprScale: its answered decimals
// can hide that it passes the filter's number (a share of 0.0001004 is answered 0.000100 but is
// above 0.0001, as TPC-H Q11 asks), and below 1 a double's noise is far under 12 decimals.
func (b *builder) havingValue(v string, scale int) string {
	if scale < exprScale {
		return b.e.round(v, scale) // sums, minima and maxima of columns of that scale: exact at it
	}
	return "CASE WHEN ABS(" + v + ") < 1 THEN " + b.e.round(v, 2*exprScale) + " ELSE " + b.e.round(v, scale) + " END"
}

// measureValue is a measure's value in a group, from its partials in r.
func (b *builder) measureValue(m *Measure) string {
	i := itoa(m.idx)
	switch m.Agg {
	case "avg":
		return "(s" + i + " / NULLIF(" + b.e.float("c"+i) + ", 0))"
	case "count", "count_distinct":
		return "COALESCE(m" + i + ", 0)"
	}
	return "m" + i
}

func (b *builder) outExpr(c *OutCol, groups []*OutCol) string {
	switch {
	case c.Group != nil:
		for i, g := range groups {
			if g == c {
				return "g" + itoa(i)
			}
		}
	case c.Measure != nil:
		return b.measureValue(c.Measure)
	}
	return b.formula(c.Expr, c.Expr.Tree, b.measureValue)
}

// formula writes an expression tree, each aggregate spelled by agg; division by zero is NULL.
func (b *builder) formula(x *Expr, f semantic.Formula, agg func(*Measure) string) string {
	switch n := f.(type) {
	case *semantic.Number:
		return b.arg(n.Value)
	case *semantic.Aggregate:
		return b.e.float(agg(x.Aggs[n]))
	case *semantic.Whole:
		// The same value in every group; the summary reads it once from w, which holds every
		// group (NULL only when there is none).
		w := "w" + itoa(b.wholes[n])
		if b.inSummary {
			return "(SELECT MAX(" + w + ") FROM w)"
		}
		return w
	case *semantic.Unary:
		return "(" + n.Op + b.formula(x, n.X, agg) + ")"
	case *semantic.Binary:
		l, r := b.formula(x, n.Left, agg), b.formula(x, n.Right, agg)
		if n.Op == "/" {
			return "(" + l + " / NULLIF(" + r + ", 0))"
		}
		return "(" + l + " " + n.Op + " " + r + ")"
	}
	panic(fmt.Sprintf("query: unknown formula node %T", f))
}

// scanKeys are the keys of an aggregation over a whole table (or its filtered rows) grouped by
// key columns, as the engine should group them (see scanGrouper).
func (b *builder) scanKeys(keys []string) []string {
	sg, ok := b.e.(scanGrouper)
	if !ok {
		return keys
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = sg.scanKey(k)
	}
	return out
}

// wholeAgg is an aggregate over the whole result of one of the query's expressions.
type wholeAgg struct {
	x *Expr
	n *semantic.Whole
}

// queryWholes lists the aggregates over the whole result of the expressions the query answers or
// filters on, each once, in the order the query names them.
func queryWholes(q *Query) []wholeAgg {
	var out []wholeAgg
	seen := map[*semantic.Whole]bool{}
	add := func(x *Expr) {
		if x == nil {
			return
		}
		semantic.Walk(x.Tree, func(f semantic.Formula) {
			if n, ok := f.(*semantic.Whole); ok && !seen[n] {
				seen[n] = true
				out = append(out, wholeAgg{x, n})
			}
		})
	}
	for _, c := range q.Out {
		add(c.Expr)
	}
	for _, p := range q.Having {
		add(p.Expr)
	}
	return out
}

// summary is a measure's total over every row of the result (not only the returned ones).
func (b *builder) summary(m *Measure, q *Query, plan *Plan, groups []*OutCol) string {
	i := itoa(m.idx)
	switch m.Agg {
	case "sum":
		return b.overResult("SUM(m" + i + ")")
	case "avg":
		return "(" + b.overResult("SUM(s"+i+")") + " / NULLIF(" + b.e.float(b.overResult("SUM(c"+i+")")) + ", 0))"
	case "min":
		return b.overResult("MIN(m" + i + ")")
	case "max":
		return b.overResult("MAX(m" + i + ")")
	case "count":
		return "COALESCE(" + b.overResult("SUM(m"+i+")") + ", 0)"
	}
	// count_distinct does not add up across groups: count again over the rows of the result.
	var blk *Block
	for _, bl := range plan.Blocks {
		for _, bm := range bl.Measures {
			if bm == m {
				blk = bl
			}
		}
	}
	having := len(q.Having) > 0 && len(groups) > 0
	need := m.tables()
	for _, p := range blk.Where {
		need = append(need, p.tables()...)
	}
	if having {
		for _, g := range groups {
			need = append(need, g.Group.Col.Tables()...)
		}
	}
	if w, ok := b.e.(looseWalker); ok && b.walk[m.Col] && walkable(q, blk, m) {
		return w.looseCount(m.Col)
	}
	if b.pairs == m {
		return "(SELECT COUNT(DISTINCT v) FROM d)"
	}
	// The expressions first, then the FROM, which joins the related-row aggregates they read.
	b.startStatement(blk)
	col := b.measured(blk, m)
	var kept string
	if having {
		var eq, fGroups, values []string
		var numeric []bool
		for gi, g := range groups {
			_, value := b.groupTarget(blk, g.Group)
			eq = append(eq, b.e.nullSafeEq("f.g"+itoa(gi), value))
			fGroups, values = append(fGroups, "f.g"+itoa(gi)), append(values, value)
			numeric = append(numeric, valueKind(g.Group.Col, g.Group.Bucket) == "number")
		}
		kept = "EXISTS (SELECT 1 FROM f WHERE " + strings.Join(eq, " AND ") + ")"
		if k, ok := b.e.(keptGrouper); ok {
			kept = k.inKept(fGroups, values, numeric)
		}
	}
	from, where := b.fromWhere(blk, need, false)
	if having {
		where = append(where, kept)
	}
	return b.e.countDistinct(col, from, where)
}

// distinctPairs is the count_distinct of a single-block query that is counted, with its
// summary, from the distinct pairs of groups and value (one pass over the rows, then passes over
// the pairs, where the summary would count the rows again): for a block with groups, one
// count_distinct (of a column that repeats: not a key, whose values are nearly all distinct and
// whose pairs would be as many as the rows), the other measures adding up across pairs (sum,
// count, avg, min, max), and no HAVING (whose summary counts only the groups kept) nor loose
// walk (which counts without reading the rows). nil otherwise.
func (b *builder) distinctPairs(q *Query, blk *Block, groups []*OutCol) *Measure {
	if len(groups) == 0 || len(q.Having) > 0 || blk.Rollup != nil {
		return nil
	}
	var distinct *Measure
	for _, m := range blk.Measures {
		if m.Agg != "count_distinct" {
			continue
		}
		if distinct != nil || m.Col.Role == semantic.RoleKey {
			return nil
		}
		if _, ok := b.e.(looseWalker); ok && b.walk[m.Col] && walkable(q, blk, m) {
			return nil
		}
		distinct = m
	}
	return distinct
}

// pairsBlock is the block grouped by its groups' keys and the distinct count's value v, with
// the other measures' partials per pair (their groups' values g0.., as block writes them).
func (b *builder) pairsBlock(blk *Block, q *Query, groups []*OutCol) string {
	b.startStatement(blk)
	var sel, keys []string
	for i, g := range groups {
		key, value := b.groupTarget(blk, g.Group)
		keys = append(keys, key)
		sel = append(sel, value+" AS g"+itoa(i))
	}
	v := b.measured(blk, b.pairs)
	sel = append(sel, v+" AS v")
	for _, m := range q.Measures {
		if m == b.pairs {
			continue
		}
		col := b.measured(blk, m)
		switch m.Agg {
		case "avg":
			sel = append(sel, "SUM("+col+") AS s"+itoa(m.idx), "COUNT("+col+") AS c"+itoa(m.idx))
		default:
			sel = append(sel, strings.ToUpper(m.Agg)+"("+col+") AS m"+itoa(m.idx))
		}
	}
	from, where := b.fromWhere(blk, nil, false)
	return "SELECT " + strings.Join(sel, ", ") + from + whereClause(where) + " GROUP BY " + strings.Join(append(keys, v), ", ")
}

// fromPairs is r over d: the groups, the distinct count as the pairs with a value, and the
// other measures' partials added up.
func (b *builder) fromPairs(q *Query, groups []*OutCol) string {
	var sel, gs []string
	for i := range groups {
		gs = append(gs, "g"+itoa(i))
	}
	sel = append(sel, gs...)
	for _, m := range q.Measures {
		i := itoa(m.idx)
		switch {
		case m == b.pairs:
			sel = append(sel, "COUNT(v) AS m"+i)
		case m.Agg == "avg":
			sel = append(sel, "SUM(s"+i+") AS s"+i, "SUM(c"+i+") AS c"+i)
		case m.Agg == "min" || m.Agg == "max":
			sel = append(sel, strings.ToUpper(m.Agg)+"(m"+i+") AS m"+i)
		default: // sum, count
			sel = append(sel, "SUM(m"+i+") AS m"+i)
		}
	}
	return "SELECT " + strings.Join(sel, ", ") + " FROM d GROUP BY " + strings.Join(gs, ", ")
}

// startStatement begins a statement over blk, a block of the plan: the related-row aggregates
// its expressions read become grouped joins of its FROM.
func (b *builder) startStatement(blk *Block) {
	if b.grouped == nil {
		b.grouped = map[*Block][]groupedAgg{}
	}
	b.grouped[blk] = []groupedAgg{}
	if b.read == nil {
		b.read = map[*Block]map[*semantic.Table]bool{}
	}
	b.read[blk] = map[*semantic.Table]bool{}
}

// WalkColumns lists the measures' columns the engine's loose walk can count (see walkable).
func (r renderer) WalkColumns(q *Query, plan *Plan) []*semantic.Column {
	if _, ok := r.e.(looseWalker); !ok {
		return nil
	}
	var cols []*semantic.Column
	seen := map[*semantic.Column]bool{}
	for _, blk := range plan.Blocks {
		for _, m := range blk.Measures {
			if walkable(q, blk, m) && !seen[m.Col] {
				seen[m.Col] = true
				cols = append(cols, m.Col)
			}
		}
	}
	return cols
}

// walkable: the walk reads every row of the column's table, so it counts the summary only when
// that is what the DISTINCT count reads: no filter, no HAVING, and the column on the block's base
// table (a column of a joined table counts only the values some base row reaches).
func walkable(q *Query, blk *Block, m *Measure) bool {
	return m.Agg == "count_distinct" && len(blk.Where) == 0 && blk.Rollup == nil &&
		len(q.Having) == 0 && m.Col.Type == semantic.TypeString && m.Col.FoldSQLName != "" &&
		m.Col.Table == blk.Base
}

// block is one aggregation: groups g0.., the partials of its measures, NULL for the other blocks'.
func (b *builder) block(blk *Block, q *Query, groups []*OutCol, own []*Measure) string {
	if sql, ok := b.eagerBlock(blk, q, groups, own); ok {
		return sql
	}
	b.startStatement(blk)
	var sel, gexprs []string
	for i, g := range groups {
		key, value := b.groupTarget(blk, g.Group)
		gexprs = append(gexprs, key)
		sel = append(sel, value+" AS g"+itoa(i))
	}
	mine := map[*Measure]bool{}
	for _, m := range own {
		mine[m] = true
	}
	for _, m := range q.Measures {
		names := partials(m)
		if !mine[m] {
			for _, n := range names {
				sel = append(sel, b.e.float("NULL")+" AS "+n) // typed: the UNION's branches agree
			}
			continue
		}
		if blk.Rollup != nil {
			for k, n := range names {
				sel = append(sel, b.rollupAgg(blk, m, k)+" AS "+n)
			}
			continue
		}
		col := b.measured(blk, m)
		switch m.Agg {
		case "avg":
			sel = append(sel, "SUM("+col+") AS "+names[0], "COUNT("+col+") AS "+names[1])
		case "count_distinct":
			sel = append(sel, "COUNT(DISTINCT "+col+") AS "+names[0])
		default:
			sel = append(sel, strings.ToUpper(m.Agg)+"("+col+") AS "+names[0])
		}
	}
	from, where := b.fromWhere(blk, nil, true)
	sql := "SELECT " + strings.Join(sel, ", ") + from + whereClause(where)
	if len(gexprs) > 0 {
		sql += " GROUP BY " + strings.Join(gexprs, ", ")
	} else {
		sql += " HAVING COUNT(*) > 0"
	}
	return sql
}

// eagerBlock is block aggregated before its joins (eager aggregation): every relationship is many
// to one, so when the measures read only the base table and each group and filter reads either
// the base table or a table it joins, the base rows can be aggregated by the foreign keys of the
// first joins (and the base's own groups) and only those partial rows joined: a join of a few
// hundred groups where it was of every row, which DuckDB's optimizer does not do by itself. The
// partials combine exactly (sums of sums, sums of counts, minimum of minimums...); a
// count_distinct, a segment, an existence filter, related rows or a rollup keep block's plan.
func (b *builder) eagerBlock(blk *Block, q *Query, groups []*OutCol, own []*Measure) (string, bool) {
	base := blk.Base
	if blk.Rollup != nil || len(blk.Joins) == 0 {
		return "", false
	}
	for _, m := range own {
		if m.Agg == "count_distinct" || !onlyTable(m.Col, base) || !tablesAre(m.condTables, base) || hasRelated(m.Cond) {
			return "", false
		}
	}
	joined := func(t *Target) bool { return t.Col.Table != base && t.Col.Calc == nil }
	outer := false // some group or filter reads a joined table
	for _, g := range groups {
		switch {
		case onlyTable(g.Group.Col, base):
		case joined(g.Group):
			outer = true
		default:
			return "", false
		}
	}
	for _, p := range blk.Where {
		switch {
		case p.Segment != nil || p.Exists != nil:
			return "", false
		case onlyTable(p.Target.Col, base):
		case joined(p.Target):
			outer = true
		default:
			return "", false
		}
	}
	if !outer || len(filteredJoins(blk)) > 0 {
		// A filter that joins its tables inner lets the engine start from the rows it keeps
		// and prune the fact by them, which beats aggregating every fact row first (DuckDB,
		// 10M rows: 0.09 s against 0.16 s, even when the filter keeps every row).
		return "", false
	}
	b.startStatement(blk)
	// The inner aggregation: the first joins' keys, the base's groups, the measures' partials;
	// the outer one combines them (out), or, where each partial row is a group (see
	// partialsAreGroups), takes them as they are (plain).
	// The groups, measures and filters are written first: the joins bridged leaves out are those
	// whose table nothing of them reads.
	var in, inKeys []string
	var out, plain, outKeys []string
	for i, g := range groups {
		if onlyTable(g.Group.Col, base) {
			key, value := b.groupTarget(blk, g.Group)
			in, inKeys = append(in, value+" AS g"+itoa(i)), append(inKeys, key)
			out, outKeys = append(out, "e.g"+itoa(i)+" AS g"+itoa(i)), append(outKeys, "e.g"+itoa(i))
			continue
		}
		key, value := b.groupTarget(blk, g.Group)
		out, outKeys = append(out, value+" AS g"+itoa(i)), append(outKeys, key)
	}
	plain = append(plain, out...)
	combine := func(agg, name string) {
		out, plain = append(out, agg+"(e."+name+") AS "+name), append(plain, "e."+name+" AS "+name)
	}
	mine := map[*Measure]bool{}
	for _, m := range own {
		mine[m] = true
	}
	for _, m := range q.Measures {
		names := partials(m)
		if !mine[m] {
			for _, n := range names {
				null := b.e.float("NULL") + " AS " + n
				out, plain = append(out, null), append(plain, null)
			}
			continue
		}
		col := b.measured(blk, m)
		switch m.Agg {
		case "avg":
			in = append(in, "SUM("+col+") AS "+names[0], "COUNT("+col+") AS "+names[1])
			combine("SUM", names[0])
			combine("SUM", names[1])
		case "count":
			in = append(in, "COUNT("+col+") AS "+names[0])
			combine("SUM", names[0])
		default: // sum, min, max
			in = append(in, strings.ToUpper(m.Agg)+"("+col+") AS "+names[0])
			combine(strings.ToUpper(m.Agg), names[0])
		}
	}
	var inWhere, outWhere []string
	for _, p := range blk.Where {
		if onlyTable(p.Target.Col, base) {
			inWhere = append(inWhere, b.filter(blk, p))
		} else {
			outWhere = append(outWhere, b.filter(blk, p))
		}
	}
	through := b.bridged(blk, nil)
	// The first joins, those from the base (or from a table bridged from it), join on keys of e.
	var keys, keyExprs []string
	onKeys := map[int][]string{} // per first join, its keys in e
	for j, jn := range blk.Joins {
		if through.leftOut(jn) || through.resolve(jn.On.From[0]).Table != base {
			continue
		}
		for k, c := range jn.On.From {
			name := "k" + itoa(j) + "_" + itoa(k)
			key := b.column(blk, through.resolve(c))
			keys, keyExprs = append(keys, key+" AS "+name), append(keyExprs, key)
			onKeys[j] = append(onKeys[j], "e."+name+" = "+b.column(blk, jn.On.To[k]))
		}
	}
	in, inKeys = append(keys, in...), append(keyExprs, inKeys...)
	facts := "SELECT " + strings.Join(in, ", ") + " FROM " + b.ident(base.SQLName) + " " + blk.alias[base] + whereClause(inWhere) +
		" GROUP BY " + strings.Join(b.scanKeys(inKeys), ", ")
	whole := partialsAreGroups(blk, groups, through)
	if b.havingFirst(blk, q, own, whole) {
		facts = "SELECT * FROM (" + facts + ") p" + whereClause(b.havingConds(q))
	}
	from := " FROM (" + facts + ") e"
	for j, jn := range blk.Joins {
		if through.leftOut(jn) {
			continue
		}
		on, first := onKeys[j]
		if !first {
			for k := range jn.On.From {
				on = append(on, b.column(blk, through.resolve(jn.On.From[k]))+" = "+b.column(blk, jn.On.To[k]))
			}
		}
		from += " LEFT JOIN " + b.ident(jn.Table.SQLName) + " " + blk.alias[jn.Table] + " ON " + strings.Join(on, " AND ")
	}
	if whole {
		// TPC-H Q15, the line items' revenue per supplier grouped by the supplier: no second
		// aggregation (33 -> 28 ms in DuckDB alone).
		return "SELECT " + strings.Join(plain, ", ") + from + whereClause(outWhere), true
	}
	sql := "SELECT " + strings.Join(out, ", ") + from + whereClause(outWhere)
	if len(outKeys) > 0 {
		sql += " GROUP BY " + strings.Join(outKeys, ", ")
	} else {
		sql += " HAVING COUNT(*) > 0"
	}
	return sql, true
}

// havingFirst says whether eagerBlock may apply the query's filters on aggregated values to the
// base's partial rows, before the joins (see partialsFilterer): when each partial row is the whole
// of one group of the answer, so that its partials are the group's and the filters keep or drop
// it as they would the group (whole, from partialsAreGroups). The f stage applies them again, a
// no-op then.
func (b *builder) havingFirst(blk *Block, q *Query, own []*Measure, whole bool) bool {
	if _, ok := b.e.(partialsFilterer); !ok || len(q.Having) == 0 {
		return false
	}
	// Another block's measures: a group's values come from other fact rows too.
	if len(own) != len(q.Measures) {
		return false
	}
	// An aggregate over the whole result reads every group, those the filters drop included.
	if len(queryWholes(q)) > 0 {
		return false
	}
	// Only filters on a measure (not on an expression): the narrow case, measured.
	for _, p := range q.Having {
		if p.Measure == nil {
			return false
		}
	}
	return whole
}

// partialsAreGroups says whether each partial row of eagerBlock is the whole of one group of the
// answer, so that its partials are the group's. through are the joins eagerBlock leaves out.
func partialsAreGroups(blk *Block, groups []*OutCol, through bridges) bool {
	// A one side that holds a key twice repeats the partial row, added up twice in its group
	// (or in two groups).
	for _, j := range blk.Joins {
		if !j.On.Unique {
			return false
		}
	}
	// Two partial rows must never share a group: for each join from the base, its key is a group
	// (the base's key itself, or the one side's when the import found every key, so that no
	// key that matches nothing, nor a blank one, falls into the blank group with another). A
	// group of a plain number column is the column's value; a text column's blanks are one
	// group with NULL, a date's is cut to the day.
	grouped := map[*semantic.Column]bool{}
	for _, g := range groups {
		if g.Group.Bucket == "" && g.Group.Col.Calc == nil && g.Group.Col.Type == semantic.TypeNumber {
			grouped[g.Group.Col] = true
		}
	}
	all := func(cols []*semantic.Column) bool {
		return !slices.ContainsFunc(cols, func(c *semantic.Column) bool { return !grouped[c] })
	}
	// The partial rows are keyed by the first joins' keys, in the base (a join left out, being
	// complete and unique, hands its key on to the join after it).
	for _, j := range blk.Joins {
		if through.leftOut(j) || through.resolve(j.On.From[0]).Table != blk.Base {
			continue
		}
		from := make([]*semantic.Column, len(j.On.From))
		for k, c := range j.On.From {
			from[k] = through.resolve(c)
		}
		if !all(from) && !(j.On.Complete && all(j.On.To)) {
			return false
		}
	}
	return true
}

// onlyTable says whether c's value reads only table t's row: a column of t, or a calculated
// column of t over t's columns alone, with no related rows.
func onlyTable(c *semantic.Column, t *semantic.Table) bool {
	return tablesAre(c.Tables(), t) && (c.Calc == nil || !hasRelated(c.Calc))
}

func tablesAre(tables []*semantic.Table, t *semantic.Table) bool {
	for _, x := range tables {
		if x != t {
			return false
		}
	}
	return true
}

// conjuncts are the conditions f joins with e at its top: each holds wherever f holds.
func conjuncts(f semantic.Formula) []semantic.Formula {
	if l, ok := f.(*semantic.Logic); ok && l.Op == "e" {
		return append(conjuncts(l.Left), conjuncts(l.Right)...)
	}
	return []semantic.Formula{f}
}

// formulaTables are the tables whose columns a row formula reads, itself or through the
// calculated columns it uses.
func formulaTables(f semantic.Formula) []*semantic.Table {
	var tables []*semantic.Table
	semantic.Walk(f, func(n semantic.Formula) {
		if r, ok := n.(*semantic.Ref); ok {
			tables = concatTables(tables, r.Col.Tables())
		}
	})
	return tables
}

// hasWhole says whether a formula reads an aggregate over the whole result, itself or through
// the calculated columns it uses.
func hasWhole(f semantic.Formula) bool {
	return reads(f, func(n semantic.Formula) bool { _, ok := n.(*semantic.Whole); return ok })
}

// hasRelated says whether a row formula reads related rows (an aggregate over them), itself or
// through the calculated columns it uses.
func hasRelated(f semantic.Formula) bool {
	return reads(f, func(n semantic.Formula) bool { _, ok := n.(*semantic.Aggregate); return ok })
}

// reads says whether a node of f, or of a calculated column f uses, is one of kind.
func reads(f semantic.Formula, kind func(semantic.Formula) bool) bool {
	found := false
	semantic.Walk(f, func(n semantic.Formula) {
		if kind(n) {
			found = true
		} else if x, ok := n.(*semantic.Ref); ok && x.Col.Calc != nil && reads(x.Col.Calc, kind) {
			found = true
		}
	})
	return found
}

// fromWhere is the block's FROM and WHERE. With need, only the joins on the paths to those tables:
// a LEFT JOIN along a relationship keeps every row of its left side (perhaps repeated), so the
// other joins cannot change which values a distinct count sees. With bridge, the joins bridged
// finds are left out: the statement's other parts are written, so its reads are known.
func (b *builder) fromWhere(blk *Block, need []*semantic.Table, bridge bool) (string, []string) {
	where := b.where(blk) // first: its expressions may join related-row aggregates
	keep := make([]bool, len(blk.Joins))
	needed := map[*semantic.Table]bool{}
	for _, t := range need {
		needed[t] = true
	}
	for i := len(blk.Joins) - 1; i >= 0; i-- { // each join's left table was joined before it
		j := blk.Joins[i]
		if need == nil || needed[j.Table] {
			keep[i] = true
			needed[j.On.FromTable()] = true
		}
	}
	from := " FROM " + b.ident(blk.Base.SQLName) + " " + blk.alias[blk.Base]
	if blk.Rollup != nil {
		from = " FROM " + b.ident(blk.Rollup.SQLName) + " t0"
	}
	inner := innerJoins(blk)
	through := b.keyed[blk]
	if bridge && blk.Rollup == nil {
		through = b.bridged(blk, keep)
	}
	for i, j := range blk.Joins {
		if !keep[i] || blk.Rollup != nil || through.leftOut(j) {
			continue
		}
		on := make([]string, len(j.On.From))
		for k := range j.On.From {
			on[k] = b.column(blk, through.resolve(j.On.From[k])) + " = " + b.column(blk, j.On.To[k])
		}
		from += joinKind(inner[j.Table]) + b.ident(j.Table.SQLName) + " " + blk.alias[j.Table] + " ON " + strings.Join(on, " AND ")
	}
	for _, g := range b.grouped[blk] {
		from += g.join
	}
	return from, where
}

// bridges maps each key column of a table a statement leaves out (see bridged) to the column of
// the join's left side it equals.
type bridges map[*semantic.Column]*semantic.Column

// leftOut says whether join j is one left out.
func (t bridges) leftOut(j Join) bool { return t[j.On.To[0]] != nil }

// resolve is c, or, for a left-out table's key column, the column it equals in a table joined.
func (t bridges) resolve(c *semantic.Column) *semantic.Column {
	for t[c] != nil {
		c = t[c]
	}
	return c
}

// bridged are the joins of the block (of those kept; every one when keep is nil) that fromWhere
// and eagerBlock leave out: each reaches a table whose columns the statement does not read but
// whose key the joins after it read, along a relationship the import found complete and unique,
// so that every row of its left side finds exactly one row there, holding the same key. A join
// after it is written from the left side's columns instead (TPC-H line items reach a part
// through their offer's key, which is theirs).
func (b *builder) bridged(blk *Block, keep []bool) bridges {
	kept := func(i int) bool { return keep == nil || keep[i] }
	through := bridges{}
joins:
	for i, j := range blk.Joins {
		if !kept(i) || !j.On.Complete || !j.On.Unique || b.read[blk][j.Table] {
			continue
		}
		used := false
		for k := i + 1; k < len(blk.Joins); k++ {
			if !kept(k) || blk.Joins[k].On.FromTable() != j.Table {
				continue
			}
			for _, c := range blk.Joins[k].On.From {
				if !slices.Contains(j.On.To, c) {
					continue joins // a join after it reads another of its columns
				}
			}
			used = true
		}
		if used {
			for k, c := range j.On.To {
				through[c] = j.On.From[k]
			}
		}
	}
	return through
}

// innerJoins are the tables of the block's joins that may be joined with an INNER JOIN, which
// keeps the rows a LEFT JOIN keeps: those a filter needs (see filteredJoins), and those reached
// along a complete relationship (the import found every key's row) from a row that is there.
// Said in the SQL, the engines can then reorder those joins and drop fact rows early: DuckDB and
// SQLite make inner only the join right under a filter, never the ones before it.
func innerJoins(blk *Block) map[*semantic.Table]bool {
	inner := filteredJoins(blk)
	for _, j := range blk.Joins { // each join's left table was joined before it
		if j.On.Complete && (j.On.FromTable() == blk.Base || inner[j.On.FromTable()]) {
			inner[j.Table] = true
		}
	}
	return inner
}

// filteredJoins are the joined tables a filter needs: one that keeps no blank value of a plain
// column drops every row whose join to that column's table, or to a table on the way to it,
// found nothing, as an inner join does.
func filteredJoins(blk *Block) map[*semantic.Table]bool {
	inner := map[*semantic.Table]bool{}
	for _, p := range blk.Where {
		if rejectsBlank(p) {
			for _, t := range p.Target.Col.Tables() {
				inner[t] = true
			}
		}
	}
	for i := len(blk.Joins) - 1; i >= 0; i-- { // each join's left table was joined before it
		if j := blk.Joins[i]; inner[j.Table] {
			inner[j.On.FromTable()] = true
		}
	}
	delete(inner, blk.Base) // a filter on the base's own columns joins nothing
	return inner
}

// rejectsBlank says whether filter p keeps no row where its target is NULL, as on a row whose
// join to the target's table found nothing: a filter on a plain column that asks for values,
// never for the blank.
func rejectsBlank(p *Pred) bool {
	if p.Segment != nil || p.Exists != nil || p.Target.Col.Calc != nil {
		return false
	}
	blank := slices.ContainsFunc(p.Values, func(v any) bool { return v == "" })
	switch p.Op {
	case "is not null", "between", "like", ">", "<", ">=", "<=":
		return true
	case "=", "in":
		return !blank
	case "!=", "not in":
		return blank
	}
	return false
}

func joinKind(inner bool) string {
	if inner {
		return " JOIN "
	}
	return " LEFT JOIN "
}

// where is the block's filters.
func (b *builder) where(blk *Block) []string {
	var where []string
	for _, p := range blk.Where {
		switch {
		case p.Segment != nil:
			where = append(where, b.segment(blk, p.Segment))
		case p.Exists != nil:
			// The filter on the related rows, in a subquery of their own (their distinct keys, or
			// EXISTS): each row of the block once, however many related rows meet it.
			if b.keysJoined(blk) {
				where = append(where, b.segmentJoin(blk, p.Exists, p)+".k0 IS NOT NULL")
				continue
			}
			_, rows := b.relatedRows(blk, p.Exists, p.Target.Col.Tables(), func(sub *Block) []string {
				return []string{b.filter(sub, p)}
			})
			where = append(where, "EXISTS (SELECT 1"+rows+")")
		default:
			if cond, ok := b.distinctExists(blk, p); ok {
				where = append(where, cond)
				continue
			}
			where = append(where, b.filter(blk, p))
		}
	}
	return where
}

// flagFilter is a filter = or in on a calculated flag (see flag): the flag's condition.
func (b *builder) flagFilter(blk *Block, p *Pred) (string, bool) {
	if p.Op != "=" && p.Op != "in" {
		return "", false
	}
	values := make([]float64, len(p.Values))
	for i, v := range p.Values {
		f, isNumber := v.(float64)
		if !isNumber {
			return "", false // the blank
		}
		values[i] = f
	}
	return b.flag(blk, p.Target.Col.Calc, values)
}

// flag is, for a formula se(C; a; b) of two whole numbers (a flag: a where C holds, b elsewhere),
// whether its value is one of values, written as C itself (or C IS NOT TRUE, for b), where only
// a condition's truth counts (a WHERE conjunct, a CASE WHEN: an unknown C keeps no row, as se's
// b does); false when f is no such flag or values hold both or neither of a and b. The engines
// cannot see through the CASE: on DuckDB, TPC-H Q12's two flags = 1 took 43 ms as CASE and 39 as
// conditions (and COALESCE(C, FALSE) in a WHERE cost Q19's large OR 43%). The flag is never
// blank, so the condition is exact.
func (b *builder) flag(blk *Block, f semantic.Formula, values []float64) (string, bool) {
	if r, ok := f.(*semantic.Ref); ok && r.Col.Calc != nil {
		f = r.Col.Calc
	}
	n, ok := f.(*semantic.If)
	if !ok {
		return "", false
	}
	a, aOK := n.Then.(*semantic.Number)
	c, cOK := n.Else.(*semantic.Number)
	if !aOK || !cOK || a.Value != math.Trunc(a.Value) || c.Value != math.Trunc(c.Value) {
		return "", false // whole numbers, which no column's rounding (Exact, Scale) moves
	}
	then, other := slices.Contains(values, a.Value), slices.Contains(values, c.Value)
	if then == other {
		return "", false // decided before C is written: writing binds its literals
	}
	cond := "(" + b.holds(blk, n.Cond) + ")"
	if other {
		return "(" + cond + " IS NOT TRUE)", true
	}
	return cond, true
}

// holds is condition f over the block's row where only its truth counts (a WHERE conjunct, a
// CASE WHEN), unknown and false alike keeping no row: there, through e and ou, a flag compared
// with one of its numbers is its condition (see flag). Anywhere else (under não, as a value) a
// condition is row's.
func (b *builder) holds(blk *Block, f semantic.Formula) string {
	switch n := f.(type) {
	case *semantic.Logic:
		return "(" + b.holds(blk, n.Left) + logicOp(n) + b.holds(blk, n.Right) + ")"
	case *semantic.Compare:
		if n.Op != "=" {
			break
		}
		for _, side := range [][2]semantic.Formula{{n.Left, n.Right}, {n.Right, n.Left}} {
			if v, ok := side[1].(*semantic.Number); ok {
				if cond, ok := b.flag(blk, side[0], []float64{v.Value}); ok {
					return cond
				}
			}
			if !filledText(side[1]) {
				continue
			}
			if col, ok := b.textColumn(blk, side[0]); ok {
				return "(" + col + " = " + b.e.binary(b.row(blk, side[1])) + ")"
			}
		}
	case *semantic.In:
		if slices.ContainsFunc(n.List, func(v semantic.Formula) bool { return !filledText(v) }) {
			break
		}
		col, ok := b.textColumn(blk, n.X)
		if !ok {
			break
		}
		items := make([]string, len(n.List))
		for i, v := range n.List {
			items[i] = b.e.binary(b.row(blk, v))
		}
		return "(" + col + " IN (" + strings.Join(items, ", ") + "))"
	}
	return b.row(blk, f)
}

// logicOp is e or ou in SQL.
func logicOp(n *semantic.Logic) string {
	if n.Op == "ou" {
		return " OR "
	}
	return " AND "
}

// textColumn is f's text data column as stored (compared as the engine compares texts exactly),
// when f is one, for holds: there = and em with filled texts need no blank rule (the empty text
// equals none of them, so the row is kept by neither), and the plain column lets the engine
// filter as it scans (DuckDB pushes no filter through NULLIF). Called only once the literals
// passed: writing a column marks its table read.
func (b *builder) textColumn(blk *Block, f semantic.Formula) (string, bool) {
	r, ok := f.(*semantic.Ref)
	if !ok || r.Col.Calc != nil || r.Col.Type != semantic.TypeString {
		return "", false
	}
	return b.e.binary(b.column(blk, r.Col)), true
}

// filledText says whether f is a text literal that is not blank (nor a date).
func filledText(f semantic.Formula) bool {
	s, ok := f.(*semantic.String)
	return ok && s.Value != "" && s.Date == ""
}

// filter is a column filter's condition on the block's row.
func (b *builder) filter(blk *Block, p *Pred) string {
	kind := valueKind(p.Target.Col, p.Target.Bucket)
	fold := ""
	switch {
	case p.Target.Bucket != "":
	case p.Target.Col.Calc != nil:
		if cond, ok := b.flagFilter(blk, p); ok {
			return cond
		}
		if (p.Op == "like" || p.Op == "not like") && foldable(p.Target.Col.Calc) {
			fold = b.foldedRow(blk, p.Target.Col.Calc) // binds its texts: only where it is read
		}
	case p.Target.Col.FoldSQLName != "":
		fold = b.folded(blk, p.Target.Col)
	}
	target := ""
	if !readsOnlyFolded(p) || p.Target.Col.Calc == nil {
		// A calculated target would bind texts the condition never reads, and PostgreSQL refuses
		// a parameter of unknown type.
		target = b.target(blk, p.Target)
	}
	return b.pred(p, target, fold, kind)
}

// readsOnlyFolded says whether p's condition reads only the folded value of a calculated column
// (see pred): like, and not like with a pattern that cannot match "".
func readsOnlyFolded(p *Pred) bool {
	return p.Op == "like" || p.Op == "not like" && !matchesEmpty(fold.Fold(p.Values[0].(string)))
}

// relatedRows writes the FROM and WHERE of a correlated subquery over the rows of rel.Rows that
// reach the block's row of rel.Of (and meet rel.Cond): rel.Rows as its base, joined along its
// relationships to the table holding the key into rel.Of, to the tables the condition reads and
// to those in need, with aliases of its own. It returns the subquery's block, for what it selects.
//
// inside, when not nil, writes what the subquery reads over its block (more conditions, which it
// returns, or the value it aggregates): it runs before the FROM is written, so that the related
// rows those read join the subquery's FROM too (see subFrom).
func (b *builder) relatedRows(blk *Block, rel *semantic.Related, need []*semantic.Table, inside func(sub *Block) []string) (*Block, string) {
	key := rel.Key()
	sub, _ := b.relatedBlock(rel, need)
	conds := make([]string, 0, len(key.From)+1)
	for k := range key.From {
		conds = append(conds, b.column(sub, key.From[k])+" = "+b.column(blk, key.To[k]))
	}
	if rel.Cond != nil {
		conds = append(conds, b.holds(sub, rel.Cond))
	}
	if inside != nil {
		conds = append(conds, inside(sub)...)
	}
	return sub, b.subFrom(sub) + whereClause(conds)
}

// allRows is the aggregated value and the FROM and WHERE of an uncorrelated subquery over every
// row of an aggregate's own table (meeting its condition): the same on every row, so every
// engine computes it once per statement.
func (b *builder) allRows(n *semantic.Aggregate) (x, rows string) {
	rel := n.Rows
	sub := newBlock(rel.Rows, rel.Via, concatTables(rel.CondTables, n.Col.Tables()))
	b.subStatement(sub)
	x = b.column(sub, n.Col)
	var conds []string
	if rel.Cond != nil {
		conds = append(conds, b.holds(sub, rel.Cond))
	}
	return x, b.subFrom(sub) + whereClause(conds)
}

// relatedBlock is the block over rel.Rows joined to the table holding the key into rel.Of, to
// the tables rel's condition reads and to those in need, with aliases of its own (prefix s<n>_).
// Its statement is started: the related rows its expressions read become grouped joins of its
// FROM, which subFrom writes once they are written (a condition reading another column of
// related rows was a correlated subquery per row, quadratic on the row stores).
func (b *builder) relatedBlock(rel *semantic.Related, need []*semantic.Table) (sub *Block, prefix string) {
	read := concatTables(rel.CondTables, need)
	sub = newBlock(rel.Rows, rel.Via, concatTables([]*semantic.Table{rel.Key().FromTable()}, read))
	prefix = b.subStatement(sub)
	if out := keyedOut(sub, rel.Key(), read); len(out) > 0 {
		if b.keyed == nil {
			b.keyed = map[*Block]bridges{}
		}
		b.keyed[sub] = out
	}
	if rel.Cond != nil {
		if b.conds == nil {
			b.conds = map[*Block]semantic.Formula{}
		}
		b.conds[sub] = rel.Cond
	}
	return sub, prefix
}

// keyedOut are the joins of a block of related rows to a table whose columns are read only as
// the key into the related table (or by the joins after it, as their key), along a relationship
// the import found complete and unique: every related row finds exactly one row there, holding
// the same key, so the key is read from the related row's own columns and the join is left out
// (TPC-H line items, grouped by their part through their offer's key, which is theirs). read
// are the tables the block's other expressions read.
func keyedOut(sub *Block, key *semantic.Relationship, read []*semantic.Table) bridges {
	out := bridges{}
	for i, j := range sub.Joins {
		if !j.On.Complete || !j.On.Unique || slices.Contains(read, j.Table) {
			continue
		}
		onlyKey := func(cols []*semantic.Column) bool {
			for _, c := range cols {
				if c.Table == j.Table && !slices.Contains(j.On.To, c) {
					return false
				}
			}
			return true
		}
		ok := onlyKey(key.From)
		for _, later := range sub.Joins[i+1:] {
			ok = ok && onlyKey(later.On.From)
		}
		if ok {
			for k, c := range j.On.To {
				out[c] = j.On.From[k]
			}
		}
	}
	return out
}

// subStatement gives a subquery's block aliases of its own (prefix s<n>_, returned) and starts
// its statement.
func (b *builder) subStatement(sub *Block) (prefix string) {
	b.subs++
	prefix = "s" + itoa(b.subs) + "_"
	for t, a := range sub.alias {
		sub.alias[t] = prefix + strings.TrimPrefix(a, "t")
	}
	b.startStatement(sub)
	return prefix
}

// narrowed keeps, of rel's rows in sub, those reaching a row of rel.Of that the block's filters
// keep: the filters reading rel.Of or the tables it reaches (each row of the block joins them
// through rel.Of, by the one path import allows) say which of its rows the block can join, so
// the related rows of the others need not be read or grouped (the parts of one brand, not all
// of them, for each part's average quantity). The answer is the same: the join matches only keys
// the block holds. Zero when no filter says so.
func (b *builder) narrowed(blk, sub *Block, rel *semantic.Related) narrowing {
	if b.app == nil {
		return narrowing{}
	}
	reach := b.app.Reach(rel.Of)
	var preds, plain []*Pred
	var need, plainNeed []*semantic.Table
	ownRows := false // a filter on the block's own rows that rel.Of does not reach
	for _, p := range blk.Where {
		if p.Segment != nil || p.Exists != nil {
			continue
		}
		c := p.Target.Col
		if c.Calc != nil && hasRelated(c.Calc) {
			continue // only plain filters: one on related rows would be read again for each
		}
		plain, plainNeed = append(plain, p), concatTables(plainNeed, c.Tables())
		if reachesAll(reach, c.Tables()) {
			preds, need = append(preds, p), concatTables(need, c.Tables())
		} else if slices.Contains(c.Tables(), blk.Base) {
			ownRows = true
		}
	}
	if _, semi := b.e.(decorrelator); semi && ownRows && blk.Rollup == nil {
		// A filter on the block's own rows that rel.Of does not reach (a late line item) keeps
		// fewer keys still: those of the rows of rel.Of the block's filtered rows reach, a
		// semi-join DuckDB runs before grouping (the orders with a late line item of a Saudi
		// supplier, not every finished order, for their counts of suppliers; TPC-H Q21's own
		// filters on those counts are EXISTS instead, see distinctExists). Filters on other
		// tables alone seldom keep fewer keys than the narrowing below, and the semi-join reads
		// the block's rows once more (TPC-H Q2: 1.04x DuckDB's own SQL without it, 1.66x with
		// it), as would the row stores.
		via := map[*semantic.Table]*semantic.Relationship{}
		for _, j := range blk.Joins { // the block's own paths
			via[j.Table] = &j.On
		}
		self := newBlock(blk.Base, via, concatTables([]*semantic.Table{rel.Of}, plainNeed))
		prefix := b.subStatement(self)
		conds := make([]string, len(plain))
		for i, p := range plain {
			conds[i] = b.filter(self, p)
		}
		key := b.keyOf(self, rel)
		from, _ := b.fromWhere(self, nil, true) // its reads are written: the joins it bridges left out
		return b.keyIn(sub, rel, prefix, key, from, conds)
	}
	// So do the parts of a block of related rows' own condition that read no related rows: the
	// offers of "forest" parts, not every offer, for each offer's quantity shipped (TPC-H Q20).
	var own []semantic.Formula
	if c := b.conds[blk]; c != nil {
		for _, f := range conjuncts(c) {
			if tables := formulaTables(f); !hasRelated(f) && !hasWhole(f) && reachesAll(reach, tables) {
				own, need = append(own, f), concatTables(need, tables)
			}
		}
	}
	if len(preds) == 0 && len(own) == 0 {
		return narrowing{}
	}
	of := newBlock(rel.Of, reach, need)
	prefix := b.subStatement(of)
	conds := make([]string, len(preds), len(preds)+len(own))
	for i, p := range preds {
		conds[i] = b.filter(of, p)
	}
	for _, f := range own {
		conds = append(conds, b.holds(of, f))
	}
	return b.keyIn(sub, rel, prefix, b.keyOf(of, rel), b.subFrom(of), conds)
}

// narrowing keeps the rows of a block of related rows that reach a row the question keeps (see
// narrowed): a condition for its WHERE, or on DuckDB a join for its FROM. Zero keeps them all.
type narrowing struct{ cond, join string }

// in adds n to a related block's FROM and conditions.
func (n narrowing) in(from string, conds []string) (string, []string) {
	if n.cond != "" {
		conds = append(conds, n.cond)
	}
	return from + n.join, conds
}

// keyOf is the key into rel.Of, read in a block that joins rel.Of.
func (b *builder) keyOf(blk *Block, rel *semantic.Related) []string {
	key := rel.Key()
	cols := make([]string, len(key.To))
	for k, c := range key.To {
		cols[k] = b.column(blk, c)
	}
	return cols
}

// keyIn keeps the rows of sub whose key into rel.Of is one of those SELECT key from WHERE conds
// gives, that subquery's aliases starting with prefix. On DuckDB a key of one column joins the
// distinct keys rather than testing IN: its inner join hands the keys kept to the related
// table's scan as a filter, where the semi-join of IN probes every row (TPC-H Q17: 25 ms, as
// DuckDB's own SQL, against 34 ms). A key of two columns gets no such filter, and the join then
// plans worse than the semi-join (Q20: 45 ms against 37). The answer is the same: each row of
// sub joins at most one distinct key, and a blank key joins none, as it is IN none.
func (b *builder) keyIn(sub *Block, rel *semantic.Related, prefix string, key []string, from string, conds []string) narrowing {
	mine := make([]string, len(key))
	for k, c := range rel.Key().From {
		mine[k] = b.column(sub, c)
	}
	if _, semi := b.e.(decorrelator); semi && len(key) == 1 {
		alias := prefix + "n"
		return narrowing{join: " JOIN (SELECT DISTINCT " + key[0] + " AS n0" + from + whereClause(conds) + ") " + alias +
			" ON " + mine[0] + " = " + alias + ".n0"}
	}
	left := mine[0]
	if len(mine) > 1 {
		left = "(" + strings.Join(mine, ", ") + ")"
	}
	return narrowing{cond: left + " IN (SELECT " + strings.Join(key, ", ") + from + whereClause(conds) + ")"}
}

// subFrom is the FROM of a related block, with the grouped joins its expressions asked for.
func (b *builder) subFrom(sub *Block) string {
	from, _ := b.fromWhere(sub, nil, false)
	return from
}

// present is a condition holding where the block's row has a row of t: "" when t is the block's
// base, else the join that brought t having matched (its key filled: an equality never matches
// NULL). A row without its row of t is in no segment of t, and reads blank what t's related rows
// would give, as every column of t.
func (b *builder) present(blk *Block, t *semantic.Table) string {
	if t == blk.Base {
		return ""
	}
	for _, j := range blk.Joins {
		if j.Table == t {
			return b.column(blk, j.On.To[0]) + " IS NOT NULL"
		}
	}
	return ""
}

// segment keeps the block's rows whose row of the segment's table some related row reaches
// (EXISTS), or, without, has a row of the table that none reaches (NOT EXISTS).
//
// In a statement that takes grouped joins, the keys of the segment's related rows are read once,
// as a LEFT JOIN of their distinct keys (a semi-join, or an anti-join where it does not match),
// instead of an EXISTS per row of the block, which the row stores run as a correlated subquery.
func (b *builder) segment(blk *Block, s *semantic.Segment) string {
	if b.keysJoined(blk) {
		alias := b.segmentJoin(blk, s.Rows, nil)
		if !s.Without {
			return alias + ".k0 IS NOT NULL"
		}
		if p := b.present(blk, s.Table); p != "" {
			return "(" + p + " AND " + alias + ".k0 IS NULL)"
		}
		return alias + ".k0 IS NULL"
	}
	_, rows := b.relatedRows(blk, s.Rows, nil, nil)
	exists := "EXISTS (SELECT 1" + rows + ")"
	if !s.Without {
		return exists
	}
	if p := b.present(blk, s.Table); p != "" {
		return "(" + p + " AND NOT " + exists + ")"
	}
	return "NOT " + exists
}

// keysJoined says whether a test of related rows' existence in blk joins their distinct keys
// (segmentJoin) rather than running an EXISTS: in a statement that takes grouped joins, on an
// engine that would run the EXISTS once per row of the block.
func (b *builder) keysJoined(blk *Block) bool {
	_, grouped := b.grouped[blk]
	_, semi := b.e.(decorrelator)
	return grouped && blk.Rollup == nil && !semi
}

// segmentJoin joins to the block the distinct keys by which rel's rows (those meeting its
// condition, and filter when not nil) reach the block's row of rel.Of, and returns the join's
// alias: its k0 is NULL exactly where the row has none.
func (b *builder) segmentJoin(blk *Block, rel *semantic.Related, filter *Pred) string {
	key := rel.Key()
	var need []*semantic.Table
	if filter != nil {
		need = filter.Target.Col.Tables()
	}
	sub, prefix := b.relatedBlock(rel, need)
	var conds []string
	if rel.Cond != nil {
		conds = append(conds, b.holds(sub, rel.Cond))
	}
	if filter != nil {
		conds = append(conds, b.filter(sub, filter))
	}
	narrow := b.narrowed(blk, sub, rel)
	alias := prefix + "s"
	sel, on := make([]string, len(key.From)), make([]string, len(key.From))
	for k := range key.From {
		sel[k] = b.column(sub, key.From[k]) + " AS k" + itoa(k)
		on[k] = alias + ".k" + itoa(k) + " = " + b.column(blk, key.To[k])
	}
	from, conds := narrow.in(b.subFrom(sub), conds)
	join := " LEFT JOIN (SELECT DISTINCT " + strings.Join(sel, ", ") + from + whereClause(conds) + ") " + alias +
		" ON " + strings.Join(on, " AND ")
	b.grouped[blk] = append(b.grouped[blk], groupedAgg{alias: alias, join: join})
	return alias
}

// groupedAgg is relatedAgg read from a LEFT JOIN of the related rows grouped by the relationship
// key, which the block's FROM gets (once per aggregate and statement): one pass over the related
// rows, where a correlated subquery runs once per row of the block (PostgreSQL does not
// decorrelate it). The answer is the same: a key's group is exactly the rows the subquery would
// see, and a row without a group reads what no related row gives.
func (b *builder) groupedAgg(blk *Block, n *semantic.Aggregate) string {
	var g *groupedAgg
	for i := range b.grouped[blk] {
		if b.grouped[blk][i].n == n {
			g = &b.grouped[blk][i]
		}
	}
	if g == nil {
		rel := n.Rows
		key := rel.Key()
		sub, prefix := b.relatedBlock(rel, n.Col.Tables())
		var conds []string
		if rel.Cond != nil {
			conds = append(conds, b.holds(sub, rel.Cond))
		}
		narrow := b.narrowed(blk, sub, rel)
		x := counted(n.Func, n.Col, b.column(sub, n.Col))
		from, conds := narrow.in(b.subFrom(sub), conds)
		agg := strings.ToUpper(n.Func) + "(" + x + ")"
		if n.Func == "count_distinct" {
			agg = "COUNT(DISTINCT " + x + ")"
		}
		alias := prefix + "g"
		var keys, on []string
		for k := range key.From {
			kx := b.column(sub, key.From[k])
			keys = append(keys, kx)
			on = append(on, alias+".k"+itoa(k)+" = "+b.column(blk, key.To[k]))
		}
		sel := make([]string, len(keys))
		for k, kx := range keys {
			sel[k] = kx + " AS k" + itoa(k)
		}
		join := " LEFT JOIN (SELECT " + strings.Join(sel, ", ") + ", " + agg + " AS v" + from + whereClause(conds) +
			" GROUP BY " + strings.Join(b.scanKeys(keys), ", ") + ") " + alias + " ON " + strings.Join(on, " AND ")
		b.grouped[blk] = append(b.grouped[blk], groupedAgg{n: n, alias: alias, join: join})
		g = &b.grouped[blk][len(b.grouped[blk])-1]
	}
	v := g.alias + ".v"
	switch n.Func {
	case "count", "count_distinct", "sum":
		v = "COALESCE(" + v + ", 0)"
	}
	if present := b.present(blk, n.Rows.Of); present != "" {
		return "(CASE WHEN " + present + " THEN " + v + " END)"
	}
	return v
}

// relatedAgg is a calculated column's aggregation of the rows related to the block's row (a
// customer's orders), as a correlated scalar subquery. Without related rows (or none with a
// value), count, count_distinct and sum give 0 and avg, min and max blank; a block row without
// its row of the column's table (a fact row whose customer is missing) gives blank, as every
// column of that table.
func (b *builder) relatedAgg(blk *Block, n *semantic.Aggregate) string {
	if _, ok := b.grouped[blk]; ok && blk.Rollup == nil && !n.Rows.All {
		return b.groupedAgg(blk, n)
	}
	present := b.present(blk, n.Rows.Of)
	var x, rows string
	if n.Rows.All {
		x, rows = b.allRows(n)
	} else {
		_, rows = b.relatedRows(blk, n.Rows, n.Col.Tables(), func(sub *Block) []string {
			x = b.column(sub, n.Col)
			return nil
		})
	}
	x = counted(n.Func, n.Col, x)
	var v string
	switch n.Func {
	case "count":
		v = "(SELECT COUNT(" + x + ")" + rows + ")"
	case "count_distinct":
		v = "(SELECT COUNT(DISTINCT " + x + ")" + rows + ")"
	case "sum":
		v = "COALESCE((SELECT SUM(" + x + ")" + rows + "), 0)"
	default: // avg, min, max: NULL over no rows
		return "(SELECT " + strings.ToUpper(n.Func) + "(" + x + ")" + rows + ")"
	}
	if present != "" {
		return "(CASE WHEN " + present + " THEN " + v + " END)"
	}
	return v
}

// column is a column's value in a row of the block: the data column, or a calculated column's
// formula compiled in place.
func (b *builder) column(blk *Block, c *semantic.Column) string {
	if c.Calc != nil { // over a rollup, its formula reads the rollup's columns (see raw)
		if c.Exact {
			return b.e.exact(b.row(blk, c.Calc), c.Scale)
		}
		return b.row(blk, c.Calc)
	}
	if blk.Rollup != nil { // UseRollups routed only columns the rollup holds
		return b.rollupColumn(blk.Rollup, c, false)
	}
	c = b.keyed[blk].resolve(c)
	if r := b.read[blk]; r != nil {
		r[c.Table] = true
	}
	return blk.alias[c.Table] + "." + b.ident(c.SQLName)
}

// folded is a text data column's folded copy in a row of the block.
func (b *builder) folded(blk *Block, c *semantic.Column) string {
	if blk.Rollup != nil {
		return b.rollupColumn(blk.Rollup, c, true)
	}
	if r := b.read[blk]; r != nil {
		r[c.Table] = true
	}
	return blk.alias[c.Table] + "." + b.ident(c.FoldSQLName)
}

// measured is what a measure aggregates: its column, or, under a condition (onde), its column
// where the condition holds and NULL elsewhere, which every aggregate skips.
func (b *builder) measured(blk *Block, m *Measure) string {
	col := counted(m.Agg, m.Col, b.column(blk, m.Col))
	if m.Cond == nil {
		return col
	}
	return "CASE WHEN " + b.holds(blk, m.Cond) + " THEN " + col + " END"
}

// decimalArg binds a number written text (digits, maybe a point and more digits, maybe a sign)
// as the exact decimal it reads, on an engine that computes on exact decimals and when it fits
// one (see decimalLiterals); "" leaves it to the caller.
func (b *builder) decimalArg(text string) string {
	d, ok := b.e.(decimalLiterals)
	if !ok {
		return ""
	}
	typ := d.decimalLiteral(strings.TrimPrefix(text, "-"))
	if typ == "" {
		return ""
	}
	b.decimals = true
	return "CAST(" + b.arg(text) + " AS " + typ + ")"
}

// blankless is a text expression with the empty text as NULL: a count or distinct count follows the
// blank rule (blank is NULL or the empty text) and counts neither.
func blankless(expr string) string {
	if isBlankless(expr) {
		return expr // already is: a NULLIF over a NULLIF is work per row for nothing (TPC-H Q22's country code)
	}
	return "NULLIF(" + expr + ", '')"
}

// unblank is expr without its blankless NULLIF, when it is one (see isBlankless).
func unblank(expr string) string {
	if !isBlankless(expr) {
		return expr
	}
	return strings.TrimSuffix(strings.TrimPrefix(expr, "NULLIF("), ", '')")
}

// isBlankless says whether expr is one blankless NULLIF as a whole, its first parenthesis closing
// at its end (not two of them joined by ||). Quotes inside hold no parenthesis that matters: a
// text literal is always a bind parameter.
func isBlankless(expr string) bool {
	if !strings.HasPrefix(expr, "NULLIF(") || !strings.HasSuffix(expr, ", '')") {
		return false
	}
	depth := 0
	for i, c := range expr {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i == len(expr)-1
			}
		}
	}
	return false
}

// counted is what agg aggregates of c's expression expr: when agg counts a text column, whose
// blank is NULL or the empty text alike (as filters read it), the empty text as NULL, which no
// count counts.
func counted(agg string, c *semantic.Column, expr string) string {
	if (agg == "count" || agg == "count_distinct") && c.Type == semantic.TypeString {
		return blankless(expr)
	}
	return expr
}

// row compiles a bound row formula (a calculated column, a condition) over the block's aliases.
// Literals are bind parameters; a division by zero is NULL; a blank operand makes the result
// blank (NULL), and a condition on it unknown, which se and onde treat as not holding.
func (b *builder) row(blk *Block, f semantic.Formula) string {
	switch n := f.(type) {
	case *semantic.Number:
		if x := b.decimalArg(n.Text); x != "" {
			return x
		}
		return b.e.typed(b.arg(n.Value), semantic.TypeNumber)
	case *semantic.String:
		typ := semantic.TypeString
		if n.Date != "" {
			typ = n.Date
		}
		return b.e.typed(b.arg(n.Value), typ)
	case *semantic.Ref:
		if n.Col.Type == semantic.TypeString {
			// One blank: the empty text is blank as NULL is, so a comparison, em or se on it is
			// unknown (not holding) and a text formula gives NULL for it.
			return blankless(b.column(blk, n.Col))
		}
		return b.column(blk, n.Col)
	case *semantic.Unary:
		return "(-" + b.row(blk, n.X) + ")"
	case *semantic.Binary:
		l, r := b.row(blk, n.Left), b.row(blk, n.Right)
		switch {
		case n.Days:
			return b.e.dayDiff(l, r)
		case n.Op == "/":
			return "(" + l + " / NULLIF(" + r + ", 0))"
		case n.Op == "*":
			b.products = true
			return b.e.times(l, r)
		}
		return "(" + l + " " + n.Op + " " + r + ")"
	case *semantic.Compare:
		l, r := b.row(blk, n.Left), b.row(blk, n.Right)
		if n.Kind == semantic.TypeString {
			l, r = b.e.binary(l), b.e.binary(r)
		}
		return "(" + l + " " + n.Op + " " + r + ")"
	case *semantic.Aggregate:
		return b.relatedAgg(blk, n)
	case *semantic.Like:
		return b.likeRow(blk, n)
	case *semantic.In:
		x := b.row(blk, n.X)
		if n.Kind == semantic.TypeString {
			x = b.e.binary(x)
		}
		items := make([]string, len(n.List))
		for i, v := range n.List {
			items[i] = b.row(blk, v)
		}
		return "(" + x + " IN (" + strings.Join(items, ", ") + "))"
	case *semantic.Logic:
		return "(" + b.row(blk, n.Left) + logicOp(n) + b.row(blk, n.Right) + ")"
	case *semantic.Not:
		return "(NOT " + b.row(blk, n.X) + ")"
	case *semantic.If:
		return "(CASE WHEN " + b.holds(blk, n.Cond) + " THEN " + b.row(blk, n.Then) + " ELSE " + b.row(blk, n.Else) + " END)"
	case *semantic.Slice: // N is a bound whole number, written in the SQL
		// The end of "" is "", which the outer NULLIF makes blank: the text's own NULLIF is work
		// per row for nothing (TPC-H Q22: 41 -> 36 ms).
		return blankless(b.e.textEnd(unblank(b.row(blk, n.X)), n.N, n.Right))
	}
	panic(fmt.Sprintf("query: unknown row formula node %T", f))
}

// likeRow is a formula's como: the folded text matched against the folded pattern, as the
// query's like matches (see pred), and false, never NULL, on a blank value, so that não keeps
// exactly the blank rows. Blankness is read on a data column's value, or on the folded text of
// any other text, which is NULL and empty exactly when the value is.
func (b *builder) likeRow(blk *Block, n *semantic.Like) string {
	var value, folded string
	if r, ok := n.X.(*semantic.Ref); ok && r.Col.Calc == nil {
		value, folded = b.column(blk, r.Col), b.folded(blk, r.Col)
	} else {
		folded = b.foldedRow(blk, n.X)
		value = folded
	}
	text := fold.Fold(n.Pattern.Value)
	match := b.likeMatch(folded, text, false)
	if !matchesEmpty(text) {
		return "COALESCE(" + match + ", 1 = 0)"
	}
	return "COALESCE(" + value + " <> '' AND " + match + ", 1 = 0)"
}

// matchesEmpty says whether a LIKE pattern matches the empty text: only when it is all %. A
// pattern that does not needs no blank test on the value beside it (which would make the engine
// read the value too): the folded text of "" is "", and of NULL, NULL.
func matchesEmpty(pattern string) bool { return strings.Trim(pattern, "%") == "" }

// foldable reports whether a text row formula's folded value (lower case, no accents, as
// fold.Fold) can be written in SQL exactly: a text formula's value is always one of its literals
// or the value of a text column, so its folded value is that literal folded (here, in Go) or that
// column's stored folded copy, chosen by the same conditions.
func foldable(f semantic.Formula) bool {
	switch n := f.(type) {
	case *semantic.String:
		return n.Date == ""
	case *semantic.Ref:
		if n.Col.Calc != nil {
			return foldable(n.Col.Calc)
		}
		return n.Col.Type == semantic.TypeString && n.Col.FoldSQLName != ""
	case *semantic.If:
		return foldable(n.Then) && foldable(n.Else)
	}
	return false
}

// foldedRow is the folded value of a foldable text row formula over the block's aliases.
func (b *builder) foldedRow(blk *Block, f semantic.Formula) string {
	switch n := f.(type) {
	case *semantic.String:
		return b.e.typed(b.arg(fold.Fold(n.Value)), semantic.TypeString)
	case *semantic.Ref:
		if n.Col.Calc != nil {
			return b.foldedRow(blk, n.Col.Calc)
		}
		return b.folded(blk, n.Col)
	case *semantic.If:
		return "(CASE WHEN " + b.holds(blk, n.Cond) + " THEN " + b.foldedRow(blk, n.Then) + " ELSE " + b.foldedRow(blk, n.Else) + " END)"
	}
	panic(fmt.Sprintf("query: formula node %T has no folded value", f))
}

func (b *builder) target(blk *Block, t *Target) string {
	return b.e.bucket(b.column(blk, t.Col), t.Bucket)
}

// groupTarget is a group's key to GROUP BY and its value, written over the key. A text group
// has one blank: NULL and the empty text are one group, whose value is NULL.
func (b *builder) groupTarget(blk *Block, t *Target) (key, value string) {
	col := b.column(blk, t.Col)
	if t.Col.Type == semantic.TypeString && t.Bucket == "" {
		col = blankless(col)
	}
	return b.e.bucketGroup(col, t.Bucket)
}

// pred writes one condition on target. Blank semantics: = "" is NULL or empty text; != "" is
// neither; !=, not in, not like and not between with filled values keep blank rows, and =, in,
// like and between with filled values (any pattern, even %) leave them out.
func (b *builder) pred(p *Pred, target, folded, kind string) string {
	isText := kind == "text"
	blank := func() string {
		if isText {
			return "(" + target + " IS NULL OR " + target + " = '')"
		}
		return target + " IS NULL"
	}
	filled := func() string {
		if isText {
			return "(" + target + " IS NOT NULL AND " + target + " <> '')"
		}
		return target + " IS NOT NULL"
	}
	cmpTarget := target
	if isText {
		cmpTarget = b.e.binary(target)
	}
	val := func(v any) string {
		if f, ok := v.(float64); ok && kind == "number" {
			if x := b.decimalArg(strconv.FormatFloat(f, 'f', -1, 64)); x != "" {
				return x
			}
		}
		ph := b.arg(v)
		if kind == "date" || kind == "datetime" {
			return b.e.typed(ph, kind)
		}
		return ph
	}
	// A date-only value on a date-time column means the whole day: [d, d+1).
	wholeDay := func(v any) bool {
		s, ok := v.(string)
		return ok && kind == "datetime" && len(s) == 10
	}
	// before and after compare with the start of the next day; after the last day a date can hold
	// (9999-12-31) there is none, and "10000-01-01" would sort before it as text on SQLite.
	before := func(v any) string {
		if v.(string) == lastDay {
			return target + " IS NOT NULL"
		}
		return target + " < " + val(nextDay(v.(string)))
	}
	after := func(v any) string {
		if v.(string) == lastDay {
			return "1 = 0"
		}
		return target + " >= " + val(nextDay(v.(string)))
	}
	switch p.Op {
	case "is null":
		return target + " IS NULL"
	case "is not null":
		return target + " IS NOT NULL"
	case "=", "in", "!=", "not in":
		// Plain values go in one flat IN list and whole days are ranges ORed in a shallow tree:
		// SQLite refuses an expression deeper than 1,000, and a chain of ORs is as deep as it is long.
		var parts, plain []string
		hasBlank := false
		for _, v := range p.Values {
			switch {
			case v == "":
				hasBlank = true
			case wholeDay(v):
				parts = append(parts, "("+target+" >= "+val(v)+" AND "+before(v)+")")
			default:
				plain = append(plain, val(v))
			}
		}
		negate := p.Op == "!=" || p.Op == "not in"
		if isText && !negate {
			// A filled value is never blank, so a calculated text compares as computed: the
			// engine filters it as it scans, which it does not through NULLIF (TPC-H Q22's
			// country code: 76 -> 60 ms). Only where kept rows matter: a false for a blank
			// row, not NULL, would change a negation.
			cmpTarget = b.e.binary(unblank(target))
		}
		switch len(plain) {
		case 0:
		case 1:
			parts = append(parts, cmpTarget+" = "+plain[0])
		default:
			parts = append(parts, cmpTarget+" IN ("+strings.Join(plain, ", ")+")")
		}
		if !negate {
			if hasBlank {
				parts = append(parts, blank())
			}
			return "(" + anyOf(parts) + ")"
		}
		if hasBlank {
			cond := filled()
			if len(parts) > 0 {
				cond = "(" + cond + " AND NOT (" + anyOf(parts) + "))"
			}
			return cond
		}
		return "(" + target + " IS NULL OR NOT (" + anyOf(parts) + "))"
	case "between":
		lo := cmpTarget + " >= " + val(p.Values[0])
		if wholeDay(p.Values[1]) {
			return "(" + lo + " AND " + before(p.Values[1]) + ")"
		}
		return "(" + lo + " AND " + cmpTarget + " <= " + val(p.Values[1]) + ")"
	case "not between":
		lo := target + " IS NULL OR " + cmpTarget + " < " + val(p.Values[0])
		if wholeDay(p.Values[1]) {
			return "(" + lo + " OR " + after(p.Values[1]) + ")"
		}
		return "(" + lo + " OR " + cmpTarget + " > " + val(p.Values[1]) + ")"
	case "like", "not like":
		// A blank row (NULL or the empty text) matches no pattern, as it equals no filled value:
		// like leaves it out even with %, not like keeps it (an empty pattern is refused).
		// Blankness is read on the value, as = "" reads it, or, for a like on a calculated column,
		// which renders only the folded text, on that (NULL and empty exactly when the value is).
		// A pattern that cannot match "" needs no blank test (matchesEmpty): DuckDB then reads
		// only the folded text (Q14 of TPC-H: 45 -> 30 ms). The pattern passed checkPattern: its
		// \ escapes mean the same on every engine.
		text := fold.Fold(p.Values[0].(string))
		match := b.likeMatch(folded, text, p.Op == "not like") // binds the pattern: once
		value := target
		if value == "" {
			value = folded
		}
		switch {
		case p.Op == "like" && !matchesEmpty(text):
			return "(" + match + ")"
		case p.Op == "like":
			return "(" + value + " <> '' AND " + match + ")"
		case !matchesEmpty(text):
			return "(" + folded + " IS NULL OR " + match + ")"
		}
		return "(" + value + " IS NULL OR " + value + " = '' OR " + match + ")"
	case ">", "<=":
		v := p.Values[0]
		if wholeDay(v) { // after the day / up to the end of the day
			if p.Op == "<=" {
				return before(v)
			}
			return after(v)
		}
		return cmpTarget + " " + p.Op + " " + val(v)
	}
	return cmpTarget + " " + p.Op + " " + val(p.Values[0]) // <, >=: the day's start is right
}

// whereClause is " WHERE " and the conditions ANDed, or nothing without any.
func whereClause(conds []string) string {
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// anyOf joins conditions with OR, halving long lists into parenthesised groups so that the
// expression tree stays about 20 deep for any number of conditions.
func anyOf(conds []string) string {
	if len(conds) <= 16 {
		return strings.Join(conds, " OR ")
	}
	h := len(conds) / 2
	return "(" + anyOf(conds[:h]) + ") OR (" + anyOf(conds[h:]) + ")"
}

// likeMatch is folded LIKE (not: NOT LIKE) the folded pattern text, written on an affixMatcher
// as the function that matches it when the pattern only anchors a fixed text (see affix).
func (b *builder) likeMatch(folded, text string, not bool) string {
	neg := ""
	if not {
		neg = "NOT "
	}
	if _, ok := b.e.(affixMatcher); ok {
		if fn, fixed, ok := affix(text); ok {
			return neg + fn + "(" + folded + ", " + b.arg(fixed) + ")"
		}
	}
	return folded + " " + neg + "LIKE " + b.arg(text) + b.likeEscape(text)
}

// affix is the function that matches what LIKE pattern p matches, and the fixed text it takes:
// prefix for "x%", suffix for "%x", contains for "%x%", where x is filled and holds no
// wildcard and no escape.
func affix(p string) (fn, fixed string, ok bool) {
	after := strings.TrimPrefix(p, "%")
	fixed = strings.TrimSuffix(after, "%")
	lead, trail := len(after) < len(p), len(fixed) < len(after)
	switch {
	case fixed == "" || strings.ContainsAny(fixed, "%_"+sqldialect.LikeEscape):
		return "", "", false
	case lead && trail:
		return "contains", fixed, true
	case lead:
		return "suffix", fixed, true
	case trail:
		return "prefix", fixed, true
	}
	return "", "", false
}

// likeEscape follows a LIKE on pattern: without it SQLite has no escape character and
// PostgreSQL has \. On DuckDB, whose LIKE has none, it is left out where pattern holds no \:
// with it DuckDB leaves its fast paths for the generic matcher (TPC-H Q13's NOT LIKE
// '%special%requests%' over 1.5M orders: 224-267 ms with it, 98-117 ms without).
func (b *builder) likeEscape(pattern string) string {
	if _, ok := b.e.(escapelessLike); ok && !strings.Contains(pattern, sqldialect.LikeEscape) {
		return ""
	}
	return " ESCAPE '" + sqldialect.LikeEscape + "'"
}

// lastDay is the last day a date may be (the schemas' bound).
const lastDay = "9999-12-31"

func nextDay(s string) string {
	t, _ := time.Parse("2006-01-02", s)
	return t.AddDate(0, 0, 1).Format("2006-01-02")
}
