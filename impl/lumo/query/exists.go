package query

import (
	"slices"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// distinctExists writes filter p, which compares a column of related rows counting their distinct
// values (count_distinct(X), maybe onde C) with a number, as a test of the existence of another
// related row, where that is the same answer; ok is false everywhere else, and p keeps its
// related rows grouped (see relatedAgg).
//
// It holds where the block's row is itself one of the related rows of its row of rel.Of, so that
// its own X is one of the values counted: the block's base is rel.Rows, its joins reach rel.Of
// along rel's own relationships, the row meets C (sameRelated, implied), and its X is never
// blank (filled). The count is then at least 1, and it is 2 or more exactly when another related
// row meeting C has an X that is not the row's: count_distinct > 1 (or >= 2) is an EXISTS of
// such a row, a semi-join, and count_distinct = 1 (or <= 1, < 2) its NOT EXISTS, an anti-join
// (countSplit). A row without its row of rel.Of reads the count blank and no such filter keeps
// it: the EXISTS correlates on rel.Of's key, which is then NULL, and the NOT EXISTS is guarded by
// the row's presence.
//
// TPC-H Q21 asks so for the late line items of orders with more than one supplier and only one
// late supplier, and DuckDB's own SQL says EXISTS and NOT EXISTS over the order's other line
// items: with the two counts of distinct suppliers grouped per order, lumo's statement took
// 1.3-1.5x as long as DuckDB's own in DuckDB alone (SF 1), with the EXISTS the same time. Only on
// an engine that runs a correlated EXISTS as a semi-join (decorrelator): the row stores would
// run it once per row of the block, and keep the grouped joins.
func (b *builder) distinctExists(blk *Block, p *Pred) (cond string, ok bool) {
	if _, semi := b.e.(decorrelator); !semi || blk.Rollup != nil || p.Segment != nil || p.Exists != nil || p.Target.Bucket != "" {
		return "", false
	}
	n, isAgg := p.Target.Col.Calc.(*semantic.Aggregate)
	if !isAgg || n.Func != "count_distinct" || n.Rows == nil || n.Rows.All {
		return "", false
	}
	rel, x := n.Rows, n.Col
	if x.Table != blk.Base || x.Calc != nil || x.Type == semantic.TypeString {
		// A text's blank is also the empty text, and engines may compare texts otherwise than
		// DISTINCT tells them apart: left as counted.
		return "", false
	}
	exists, split := countSplit(p)
	if !split || !sameRelated(blk, rel) || !b.filled(blk, x) || !implied(blk, rel.Cond) {
		return "", false
	}
	mine := b.column(blk, x)
	_, rows := b.relatedRows(blk, rel, x.Tables(), func(sub *Block) []string {
		return []string{b.column(sub, x) + " <> " + mine}
	})
	test := "EXISTS (SELECT 1" + rows + ")"
	if exists {
		return test, true
	}
	if present := b.present(blk, rel.Of); present != "" && !innerJoins(blk)[rel.Of] {
		return "(" + present + " AND NOT " + test + ")", true
	}
	return "NOT " + test, true
}

// countSplit says whether filter p on a count k that is at least 1 keeps exactly the counts of 2
// or more (exists) or exactly the count 1 (not exists); split is false for any other filter.
// A count is a whole number, so k > 1.5 is k >= 2; a filter that also keeps blank counts (!=,
// not in) is not split.
func countSplit(p *Pred) (exists, split bool) {
	if len(p.Values) == 0 {
		return false, false
	}
	v, isNumber := p.Values[0].(float64)
	if !isNumber {
		return false, false
	}
	switch p.Op {
	case ">":
		return true, v >= 1 && v < 2
	case ">=":
		return true, v > 1 && v <= 2
	case "<=":
		return false, v >= 1 && v < 2
	case "<":
		return false, v > 1 && v <= 2
	case "=", "in":
		return false, len(p.Values) == 1 && v == 1
	}
	return false, false
}

// sameRelated says whether the block's rows are rows of rel.Rows that reach their row of rel.Of
// along rel's own relationships, so that each is one of the related rows of that row (those
// meeting rel.Cond).
func sameRelated(blk *Block, rel *semantic.Related) bool {
	if blk.Base != rel.Rows || rel.Rows == rel.Of {
		return false
	}
	t := rel.Of
	for range len(blk.Joins) { // one join per step back towards the base
		i := slices.IndexFunc(blk.Joins, func(j Join) bool { return j.Table == t })
		r := rel.Via[t]
		if i < 0 || r == nil {
			return false
		}
		on := blk.Joins[i].On
		if !slices.Equal(on.From, r.From) || !slices.Equal(on.To, r.To) {
			return false
		}
		if t = on.FromTable(); t == blk.Base {
			return true
		}
	}
	return false
}

// filled says whether data column c of the block's base is never blank in a row the block keeps:
// a filter on c keeps no blank, or c is part of a relationship from the base that the import
// found complete (no blank key) or that a filter needs matched (see filteredJoins), an equality
// no NULL meets.
func (b *builder) filled(blk *Block, c *semantic.Column) bool {
	for _, p := range blk.Where {
		if p.Segment == nil && p.Exists == nil && p.Target.Col == c && rejectsBlank(p) {
			return true
		}
	}
	needed := filteredJoins(blk)
	for _, j := range blk.Joins {
		if j.On.FromTable() == blk.Base && slices.Contains(j.On.From, c) && (j.On.Complete || needed[j.Table]) {
			return true
		}
	}
	if b.app != nil {
		for _, r := range b.app.Relationships {
			if r.Complete && slices.Contains(r.From, c) {
				return true
			}
		}
	}
	return false
}

// implied says whether every row the block keeps meets condition cond (nil: none): each of its
// conjuncts is [column] = value, a column of the base's own row, and the block has the filter
// column = value (or in (value)) on the same column and value, which keeps exactly the rows the
// conjunct holds for.
func implied(blk *Block, cond semantic.Formula) bool {
	if cond == nil {
		return true
	}
	for _, f := range conjuncts(cond) {
		c, ok := f.(*semantic.Compare)
		if !ok || c.Op != "=" {
			return false
		}
		col, value, ok := columnEquals(c.Left, c.Right)
		if !ok {
			col, value, ok = columnEquals(c.Right, c.Left)
		}
		if !ok || !onlyTable(col, blk.Base) {
			return false
		}
		if !slices.ContainsFunc(blk.Where, func(p *Pred) bool {
			return p.Segment == nil && p.Exists == nil && p.Target.Col == col && p.Target.Bucket == "" &&
				(p.Op == "=" || p.Op == "in") && len(p.Values) == 1 && p.Values[0] == value
		}) {
			return false
		}
	}
	return true
}

// columnEquals is, for a comparison's sides a column and a literal that is not blank (a number,
// or a filled text that is not a date), the column and the literal as a filter's value holds it.
func columnEquals(side, other semantic.Formula) (*semantic.Column, any, bool) {
	r, ok := side.(*semantic.Ref)
	if !ok || r.Col == nil {
		return nil, nil, false
	}
	switch v := other.(type) {
	case *semantic.Number:
		return r.Col, v.Value, true
	case *semantic.String:
		if v.Value != "" && v.Date == "" {
			return r.Col, v.Value, true
		}
	}
	return nil, nil, false
}
