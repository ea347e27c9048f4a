package query

import "testing"

// round gives the same figure whichever side of an exact midpoint summation noise left a value
// on (a rollup adds in another order than the base table), and keeps every decimal of scale.
func TestRoundIgnoresSummationNoise(t *testing.T) {
	for _, tt := range []struct {
		in    float64
		scale int
		want  float64
	}{
		{0.07185250000000024, 6, 0.071853},
		{0.07185249999999998, 6, 0.071853},
		{-0.07185249999999998, 6, -0.071853},
		{0.0718524, 6, 0.071852},
		{1437.0499999999997, 2, 1437.05},
		{1234567890123.45, 2, 1234567890123.45},
		{7797029.700000001, 2, 7797029.7},
		{2.5, 0, 3},
		{-2.5, 0, -3},
		{1e-30, 2, 0},
		{-1e-9, 2, 0},
		{0.3333333333333333, 10, 0.3333333333},
		{1e300, 2, 1e300},
	} {
		if got := round(tt.in, tt.scale); got != tt.want {
			t.Errorf("round(%v, %d) = %v, want %v", tt.in, tt.scale, got, tt.want)
		}
	}
}
