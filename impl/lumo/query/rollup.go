package query

import (
	"slices"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// UseRollups sends a single-block query to the smallest rollup of its fact that answers it
// exactly: every group and filter on the rollup's dimensions (or its time column, cut by a
// bucket the grain keeps, filtered at day boundaries) and every measure derivable from its
// columns. Any other query keeps reading the base tables. The plan's tables (and so dataAsOf)
// stay those of the base query: the rollup was built from them in the same import.
func UseRollups(q *Query, plan *Plan) {
	if len(plan.Blocks) != 1 {
		return
	}
	blk := plan.Blocks[0]
	var best *semantic.Rollup
	for _, r := range q.App.Rollups {
		if r.Fact == blk.Base && r.SQLName != "" && answers(q, r) && (best == nil || r.Rows < best.Rows) {
			best = r
		}
	}
	blk.Rollup = best
}

// timeBuckets are the buckets a rollup's time column keeps at each grain: the bucket of a day's
// (or hour's) start is the bucket of every moment in it.
var timeBuckets = map[string][]string{
	semantic.GrainDay:  {"day", "month", "year", "month_of_year", "day_of_week"},
	semantic.GrainHour: {"day", "month", "year", "month_of_year", "day_of_week", "hour_of_day"},
}

// onTime reports whether t reads r's time column in a way its grain keeps: through a kept
// bucket, or as a raw value when the column is a date (a date is its own day).
func onTime(r *semantic.Rollup, t *Target) bool {
	if r.Time == nil || t.Col != r.Time {
		return false
	}
	if t.Bucket == "" {
		return r.Time.Type == semantic.TypeDate
	}
	return slices.Contains(timeBuckets[r.Grain], t.Bucket)
}

func isDim(r *semantic.Rollup, c *semantic.Column) bool { return slices.Contains(r.Dimensions, c) }

func answers(q *Query, r *semantic.Rollup) bool {
	for _, c := range q.Out {
		if c.Group != nil && !isDim(r, c.Group.Col) && !onTime(r, c.Group) {
			return false
		}
	}
	for _, p := range q.Where {
		t := p.Target
		switch {
		case isDim(r, t.Col), onTime(r, t):
		case r.Time != nil && t.Col == r.Time && t.Bucket == "" && wholeDays(p):
			// A date-time compared with whole days only: its day's start compares alike.
		default:
			return false
		}
	}
	for _, m := range q.Measures {
		if m.Cond != nil || m.Col.Calculated() {
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
			if !isDim(r, m.Col) && !(m.Col == r.Time && m.Col.Type == semantic.TypeDate) {
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

// rollupColumn is the rollup column holding c's value (a dimension, or the time cut to the grain).
func rollupColumn(r *semantic.Rollup, c *semantic.Column, fold bool) string {
	if c == r.Time {
		return semantic.RollupTime()
	}
	i := slices.Index(r.Dimensions, c)
	if fold {
		return semantic.RollupDimFold(i)
	}
	return semantic.RollupDim(i)
}

// rollupAgg is a measure's partial read from the rollup's pre-aggregated columns.
func (b *builder) rollupAgg(r *semantic.Rollup, m *Measure, part int) string {
	if i := slices.Index(r.Measures, m.Col); i >= 0 {
		switch m.Agg {
		case "avg":
			if part == 0 {
				return "SUM(t0." + b.ident(semantic.RollupSum(i)) + ")"
			}
			return "SUM(t0." + b.ident(semantic.RollupCount(i)) + ")"
		case "sum":
			return "SUM(t0." + b.ident(semantic.RollupSum(i)) + ")"
		case "count":
			return "SUM(t0." + b.ident(semantic.RollupCount(i)) + ")"
		case "min":
			return "MIN(t0." + b.ident(semantic.RollupMin(i)) + ")"
		case "max":
			return "MAX(t0." + b.ident(semantic.RollupMax(i)) + ")"
		}
	}
	col := "t0." + b.ident(rollupColumn(r, m.Col, false))
	switch m.Agg {
	case "count": // the rows whose value is filled
		return "SUM(CASE WHEN " + col + " IS NOT NULL THEN t0." + b.ident(semantic.RollupRows()) + " END)"
	case "count_distinct":
		return "COUNT(DISTINCT " + col + ")"
	}
	return upperAgg(m.Agg) + "(" + col + ")"
}

func upperAgg(agg string) string {
	if agg == "min" {
		return "MIN"
	}
	return "MAX"
}
