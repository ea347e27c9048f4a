package bench

import (
	"sort"
	"time"
)

// Timing is a sample's p50 and p99 in milliseconds.
type Timing struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P99 float64 `json:"p99_ms"`
}

func timing(d []time.Duration) Timing {
	if len(d) == 0 {
		return Timing{}
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	at := func(q float64) float64 {
		i := int(q*float64(len(s)-1) + 0.5)
		return float64(s[i].Microseconds()) / 1000
	}
	return Timing{N: len(s), P50: at(0.50), P99: at(0.99)}
}

func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}
