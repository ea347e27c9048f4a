package query

import (
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// BenchmarkPlan analyzes and plans every golden request (with the rollup rewrite for rollup_).
func BenchmarkPlan(b *testing.B) {
	cases := goldenCases(b)
	for b.Loop() {
		for _, c := range cases {
			c.planned(b)
		}
	}
}

// BenchmarkRender renders every golden plan on each engine.
func BenchmarkRender(b *testing.B) {
	type planned struct {
		q    *Query
		plan *Plan
		walk map[*semantic.Column]bool
	}
	var plans []planned
	for _, c := range goldenCases(b) {
		q, plan, walk := c.planned(b)
		plans = append(plans, planned{q, plan, walk})
	}
	for _, d := range []sqldialect.Dialect{sqldialect.SQLite{}, sqldialect.Postgres{}} {
		r := RendererFor(d)
		b.Run(d.Name(), func(b *testing.B) {
			for b.Loop() {
				for _, p := range plans {
					r.Render(p.q, p.plan, p.walk)
				}
			}
		})
	}
}
