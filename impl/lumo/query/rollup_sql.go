package query

import (
	"slices"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// How a block that UseRollups sent to a rollup reads it: the rollup's table as t0, with no
// joins, each column routed to the rollup column holding it and each measure's partials summed
// (or taken the min, max or distinct count of) from the pre-aggregated columns.

// rollupColumn is the rollup column holding c's value (a dimension, or the time cut to the
// grain), or with fold its folded copy.
func (b *builder) rollupColumn(r *semantic.Rollup, c *semantic.Column, fold bool) string {
	name := semantic.RollupTime()
	if c != r.Time {
		i := slices.Index(r.Dimensions, c)
		name = semantic.RollupDim(i)
		if fold {
			name = semantic.RollupDimFold(i)
		}
	}
	return "t0." + b.ident(name)
}

// rollupAgg is a measure's partial read from the rollup's pre-aggregated columns. Under a
// condition (onde), which UseRollups routed only when it reads raw dimension values, each
// rollup row counts entirely or not at all: its partials go through CASE WHEN.
func (b *builder) rollupAgg(blk *Block, m *Measure, part int) string {
	r := blk.Rollup
	when := func(v string) string {
		if m.Cond == nil {
			return v
		}
		return "CASE WHEN " + b.holds(blk, m.Cond) + " THEN " + v + " END"
	}
	if i := slices.Index(r.Measures, m.Col); i >= 0 {
		switch m.Agg {
		case "avg":
			if part == 0 {
				return "SUM(" + when("t0."+b.ident(semantic.RollupSum(i))) + ")"
			}
			return "SUM(" + when("t0."+b.ident(semantic.RollupCount(i))) + ")"
		case "sum":
			return "SUM(" + when("t0."+b.ident(semantic.RollupSum(i))) + ")"
		case "count":
			return "SUM(" + when("t0."+b.ident(semantic.RollupCount(i))) + ")"
		case "min":
			return "MIN(" + when("t0."+b.ident(semantic.RollupMin(i))) + ")"
		case "max":
			return "MAX(" + when("t0."+b.ident(semantic.RollupMax(i))) + ")"
		}
	}
	col := counted(m.Agg, m.Col, b.rollupColumn(r, m.Col, false))
	switch m.Agg {
	case "count": // the rows whose value is filled
		filled := col + " IS NOT NULL"
		if m.Cond != nil {
			filled = "(" + b.holds(blk, m.Cond) + ") AND " + filled
		}
		return "SUM(CASE WHEN " + filled + " THEN t0." + b.ident(semantic.RollupRows()) + " END)"
	case "count_distinct":
		return "COUNT(DISTINCT " + when(col) + ")"
	}
	return upperAgg(m.Agg) + "(" + when(col) + ")"
}

func upperAgg(agg string) string {
	if agg == "min" {
		return "MIN"
	}
	return "MAX"
}
