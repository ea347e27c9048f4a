package query

import "testing"

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
