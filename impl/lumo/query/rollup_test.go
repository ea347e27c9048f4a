package query

import (
	"os"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// monthBounds accepts exactly the filters whose compiled bounds are month starts (see pred).
func TestMonthBounds(t *testing.T) {
	tests := []struct {
		op     string
		values []any
		want   bool
	}{
		{"between", []any{"2025-04-01", "2025-06-30"}, true},
		{"between", []any{"2025-04-01", "2024-02-29"}, true}, // a leap February's last day
		{"between", []any{"2025-04-01", "2025-02-28"}, true},
		{"between", []any{"2025-04-02", "2025-06-30"}, false},
		{"between", []any{"2025-04-01", "2025-06-29"}, false},
		{"between", []any{"2025-04-01", "2025-07-01"}, false},
		{"not between", []any{"2025-01-01", "2025-12-31"}, true},
		{"not between", []any{"2025-01-01", "2025-12-30"}, false},
		{">=", []any{"2025-04-01"}, true},
		{">=", []any{"2025-04-30"}, false},
		{"<", []any{"2025-04-01"}, true},
		{"<", []any{"2025-03-31"}, false},
		{">", []any{"2025-03-31"}, true},
		{">", []any{"2025-04-01"}, false},
		{"<=", []any{"2025-03-31"}, true},
		{"<=", []any{"9999-12-31"}, true},
		{"<=", []any{"2025-04-01"}, false},
		{">=", []any{"2025-04-01 00:00:00"}, false}, // a time: left to the base table
		{"=", []any{"2025-04-01"}, false},
		{"in", []any{"2025-04-01", "2025-05-01"}, false},
		{"=", []any{""}, true},
		{"!=", []any{""}, true},
		{"is null", nil, true},
		{"is not null", nil, true},
	}
	for _, tt := range tests {
		if got := monthBounds(&Pred{Op: tt.op, Values: tt.values}); got != tt.want {
			t.Errorf("%s %v: %v, want %v", tt.op, tt.values, got, tt.want)
		}
	}
}

// A rollup as big as its fact and holding only the fact's own columns is left for the fact; one
// that is smaller, or saves a join, is read.
func TestRollupNoSmallerThanItsFact(t *testing.T) {
	app := fixtureApp(t, os.DirFS("../../../features/testdata/rollups"))
	var fact *semantic.Table
	for _, tb := range app.Tables {
		if tb.Label == "Vendas" {
			fact = tb
		}
	}
	col := func(label string) *semantic.Column {
		for _, c := range fact.Columns {
			if c.Label == label {
				return c
			}
		}
		t.Fatalf("no column %s", label)
		return nil
	}
	daily, byUF := app.Rollups[0], app.Rollups[1]
	daily.Dimensions = []*semantic.Column{col("Situação"), col("Canal")} // the fact's own columns
	chosen := func(ref string) *semantic.Rollup {
		t.Helper()
		q, err := Analyze(app, Request{Fields: []Item{{Ref: ref}, {Ref: "Vendas.Valor", Agg: "sum"}}})
		if err != nil {
			t.Fatal(err)
		}
		plan, err := PlanQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		rewritten := UseRollups(q, plan)
		if plan.Blocks[0].Rollup != nil {
			t.Errorf("UseRollups changed the plan it was given")
		}
		return rewritten.Blocks[0].Rollup
	}
	fact.Rows, daily.Rows, byUF.Rows = 100, 99, 100
	if r := chosen("Vendas.Situação"); r != daily {
		t.Errorf("99 of 100 rows: read %v, want %s", r, daily.Name)
	}
	daily.Rows = 100
	if r := chosen("Vendas.Situação"); r != nil {
		t.Errorf("as big as its fact: read %s, want the fact", r.Name)
	}
	fact.Rows = 0 // not known: the rollup is read
	if r := chosen("Vendas.Situação"); r != daily {
		t.Errorf("fact rows unknown: read %v, want %s", r, daily.Name)
	}
	fact.Rows = 100
	if r := chosen("Lojas.UF"); r != byUF { // as big, but it saves the join to Lojas
		t.Errorf("by state: read %v, want %s", r, byUF.Name)
	}
}
