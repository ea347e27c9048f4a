//go:build cgo

package columnar

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestCellDecimalIsFormatFloat: a decimal's unscaled integer is the digits FormatFloat writes, on
// the fast path and off it (ties, values past 2^53 and past an int64 in a DECIMAL(38)).
func TestCellDecimalIsFormatFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0.1 + 0.2, 2.675, -2.675, 1.005, 0.125, -0.125, 0.5, 1.5, 2.5, -0.5, 1e-9, -1e-9, 0, math.Copysign(0, -1),
		9999999999999.99, -9999999999999.99, 1234567890123.455, 4503599627370495.5, 1e20, -3.1e22}
	for range 20_000 {
		scale := r.IntN(5)
		xs = append(xs, math.Round(r.NormFloat64()*math.Pow10(r.IntN(14)))/math.Pow10(scale+r.IntN(2)), r.NormFloat64()*1e6)
	}
	for scale := range 11 {
		c := newCell(duckColumn{typ: "DECIMAL(38," + strconv.Itoa(scale) + ")", scale: scale})
		for _, x := range xs {
			v, err := c.decimal(x)
			if err != nil {
				t.Fatalf("%v at scale %d: %v", x, scale, err)
			}
			want, _ := new(big.Rat).SetString(strconv.FormatFloat(x, 'f', scale, 64))
			got := new(big.Rat).SetFrac(bigOf(v), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
			if got.Cmp(want) != 0 {
				t.Fatalf("%v at scale %d: %s, want %s", x, scale, got.FloatString(scale), want.FloatString(scale))
			}
		}
	}
	c := newCell(duckColumn{typ: "DECIMAL(18,2)", scale: 2})
	if _, err := c.decimal(1e17); err == nil {
		t.Error("1e17 fits no DECIMAL(18,2)")
	}
}

func bigOf(v any) *big.Int {
	switch x := v.(type) {
	case int64:
		return big.NewInt(x)
	case *big.Int:
		return x
	}
	panic(fmt.Sprintf("%T", v))
}
