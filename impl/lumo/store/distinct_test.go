package store

import (
	"math"
	"strconv"
	"testing"
)

func TestDistinctSketch(t *testing.T) {
	for _, n := range []int{1, 10, 1000, 50_000, 1_000_000} {
		s := newDistinctSketch()
		for i := range 2 * n { // every value twice: repeats do not count
			s.add("valor " + strconv.Itoa(i%n))
		}
		if got := s.estimate(); math.Abs(got-float64(n)) > 0.05*float64(n)+1 {
			t.Errorf("%d distinct values estimated as %.0f", n, got)
		}
	}
}
