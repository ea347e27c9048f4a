package query

import (
	"slices"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// UseRollups rewrites plan so that each block reads the smallest rollup of its fact that
// answers that block exactly: no segment, every group and every filter of the block on the rollup's
// dimensions (or its time column, cut by a bucket the grain keeps, filtered at boundaries of the
// grain), or on a calculated column reading only those, and every measure of the block
// derivable from its columns. A block no rollup answers keeps reading the base tables. The
// rewrite is a new plan (plan is left as it was) that differs only in Block.Rollup: how a rollup
// is read is the renderer's. Its tables (and so dataAsOf) stay those of the base query: the
// rollups were built from them in the same import.
func UseRollups(q *Query, plan *Plan) *Plan {
	var groups []*Target
	for _, c := range q.Out {
		if c.Group != nil {
			groups = append(groups, c.Group) // every block groups by all of them
		}
	}
	out := &Plan{Blocks: make([]*Block, len(plan.Blocks)), Notes: plan.Notes}
	for i, blk := range plan.Blocks {
		var best *semantic.Rollup
		for _, r := range q.App.Rollups {
			if r.Fact == blk.Base && r.SQLName != "" && !noSmaller(r) && answers(r, groups, blk.Where, blk.Measures) && (best == nil || r.Rows < best.Rows) {
				best = r
			}
		}
		rewritten := *blk
		rewritten.Rollup = best
		out.Blocks[i] = &rewritten
	}
	return out
}

// noSmaller reports a rollup that saves neither rows nor joins: as many rows as its fact, and
// only the fact's own columns. The fact, with an index on each column, answers as fast.
func noSmaller(r *semantic.Rollup) bool {
	if r.Fact.Rows == 0 || r.Rows < r.Fact.Rows {
		return false
	}
	for _, c := range r.Dimensions {
		if c.Table != r.Fact {
			return false
		}
	}
	return r.Time == nil || r.Time.Table == r.Fact
}

// timeBuckets are the buckets a rollup's time column keeps at each grain: the bucket of a
// month's (day's, hour's) start is the bucket of every moment in it.
var timeBuckets = map[string][]string{
	semantic.GrainMonth: {"month", "year", "month_of_year"},
	semantic.GrainDay:   {"day", "month", "year", "month_of_year", "day_of_week"},
	semantic.GrainHour:  {"day", "month", "year", "month_of_year", "day_of_week", "hour_of_day"},
}

// onTime reports whether t reads r's time column in a way its grain keeps: through a kept
// bucket, or as a raw value when the rollup holds it unchanged.
func onTime(r *semantic.Rollup, t *Target) bool {
	if r.Time == nil || t.Col != r.Time {
		return false
	}
	if t.Bucket == "" {
		return rawTime(r)
	}
	return slices.Contains(timeBuckets[r.Grain], t.Bucket)
}

// rawTime: the rollup's time column holds the raw values, a date cut by day being its own day.
func rawTime(r *semantic.Rollup) bool {
	return r.Time != nil && r.Time.Type == semantic.TypeDate && r.Grain == semantic.GrainDay
}

func isDim(r *semantic.Rollup, c *semantic.Column) bool { return slices.Contains(r.Dimensions, c) }

// raw reports whether every row value of c is in the rollup unchanged: a dimension, the time
// column when not cut, or a calculated column whose formula reads only such columns (it is then
// the same function of the same values, compiled over the rollup's columns).
func raw(r *semantic.Rollup, c *semantic.Column) bool {
	if c.Calc != nil {
		return rawFormula(r, c.Calc)
	}
	if c.Calculated() {
		return false // not bound: nothing to compile
	}
	return isDim(r, c) || (c == r.Time && rawTime(r))
}

// rawFormula: every column a row formula (a calculated column, a condition) reads is raw.
func rawFormula(r *semantic.Rollup, f semantic.Formula) bool {
	switch n := f.(type) {
	case *semantic.Number, *semantic.String:
		return true
	case *semantic.Ref:
		return n.Col != nil && raw(r, n.Col)
	case *semantic.Unary:
		return rawFormula(r, n.X)
	case *semantic.Binary:
		return rawFormula(r, n.Left) && rawFormula(r, n.Right)
	case *semantic.Compare:
		return rawFormula(r, n.Left) && rawFormula(r, n.Right)
	case *semantic.Logic:
		return rawFormula(r, n.Left) && rawFormula(r, n.Right)
	case *semantic.Like:
		return rawFormula(r, n.X)
	case *semantic.In:
		return rawFormula(r, n.X) // its list holds literals only
	case *semantic.Not:
		return rawFormula(r, n.X)
	case *semantic.If:
		return rawFormula(r, n.Cond) && rawFormula(r, n.Then) && rawFormula(r, n.Else)
	}
	return false
}

func answers(r *semantic.Rollup, groups []*Target, where []*Pred, measures []*Measure) bool {
	for _, g := range groups {
		if !raw(r, g.Col) && !onTime(r, g) {
			return false
		}
	}
	for _, p := range where {
		if p.Segment != nil || p.Exists != nil {
			return false // its related rows are not in the rollup
		}
		t := p.Target
		switch {
		case raw(r, t.Col), onTime(r, t):
			// A bucket of a raw value is the bucket of the same value.
		case r.Time != nil && t.Col == r.Time && t.Bucket == "" && r.Grain != semantic.GrainMonth && wholeDays(p):
			// A date-time compared with whole days only: its day's (hour's) start compares alike.
		case r.Time != nil && t.Col == r.Time && t.Bucket == "" && r.Grain == semantic.GrainMonth && monthBounds(p):
			// A date compared with month boundaries only: its month's start compares alike.
		default:
			return false
		}
	}
	for _, m := range measures {
		// A calculated measure stays on the base table: its row values (blank when any operand
		// is) are not a function of the stored per-group sums ([Valor] - [Custo] summed is not
		// sum(Valor) - sum(Custo) when one of them is blank on some rows).
		if m.Col.Calculated() {
			return false
		}
		// A condition over raw values holds for every fact row of a rollup row or for none.
		if m.Cond != nil && !rawFormula(r, m.Cond) {
			return false
		}
		measure := slices.Contains(r.Measures, m.Col)
		switch m.Agg {
		case "sum", "avg":
			if !measure {
				return false
			}
		case "min", "max":
			if !measure && !(isDim(r, m.Col) && m.Col.Type == semantic.TypeNumber) {
				return false
			}
		case "count":
			if !measure && !isDim(r, m.Col) && m.Col != r.Time {
				return false
			}
		case "count_distinct":
			if !isDim(r, m.Col) && !(m.Col == r.Time && rawTime(r)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// wholeDays: every value of p is a date without time (blank checks have none).
func wholeDays(p *Pred) bool {
	for _, v := range p.Values {
		if s, ok := v.(string); !ok || len(s) != len("2006-01-02") {
			return false
		}
	}
	return true
}

// monthBounds reports whether every bound pred compiles p to on a date or date-time column is the
// start of a month, so that the value cut to its month's start compares alike. pred compares
// with the value itself for >=, < and a between's start; with the next day for >, <= and a
// between's end on a date-time (the whole day), and on a date t <= d is t < d+1 and t > d is
// t >= d+1. So those bounds must be a month's last day. = and in match single days (never a
// whole month), but a blank value alone is IS NULL, which the cut keeps.
func monthBounds(p *Pred) bool {
	bound := func(v any, end bool) bool {
		s, ok := v.(string)
		if !ok || len(s) != len("2006-01-02") {
			return false
		}
		if end {
			if s == lastDay {
				return true // compiled as IS NOT NULL or as nothing
			}
			s = nextDay(s)
		}
		return strings.HasSuffix(s, "-01")
	}
	switch p.Op {
	case "is null", "is not null":
		return true
	case ">=", "<":
		return bound(p.Values[0], false)
	case ">", "<=":
		return bound(p.Values[0], true)
	case "between", "not between":
		return bound(p.Values[0], false) && bound(p.Values[1], true)
	case "=", "in", "!=", "not in":
		for _, v := range p.Values {
			if v != "" {
				return false
			}
		}
		return true
	}
	return false
}
