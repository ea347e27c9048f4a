package caderninho

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
)

func minorPtr(n int64) *int64 { return &n }

// TestTallyExact sums beyond 2^53 and past int64 exactly, per currency, counting unknown amounts
// and excluded records apart.
func TestTallyExact(t *testing.T) {
	tl := newTally()
	for _, r := range []*planRecord{
		{Currency: "BRL", minor: minorPtr(math.MaxInt64)},
		{Currency: "BRL", minor: minorPtr(1 << 53)},
		{Currency: "BRL", minor: minorPtr(1)},
		{Currency: "BRL"}, // unknown
		{Currency: "USD", minor: minorPtr(math.MinInt64)},
		{Currency: "USD", minor: minorPtr(-1)},
		{Currency: "BRL", minor: minorPtr(7), ExcludedFromTotals: true},
	} {
		tl.add(r)
	}
	want := []caderninhoapi.CurrencyTotal{
		{Currency: "BRL", KnownTotalMinor: "9232379236109516800", KnownCount: 3, UnknownCount: 1}, // 2^63-1 + 2^53 + 1
		{Currency: "USD", KnownTotalMinor: "-9223372036854775809", KnownCount: 2},
	}
	if d := cmp.Diff(want, listTotals(tl.totals)); d != "" {
		t.Errorf("totals (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]caderninhoapi.CurrencyTotal{{Currency: "BRL", KnownTotalMinor: "7", KnownCount: 1}}, listTotals(tl.excluded)); d != "" {
		t.Errorf("excluded (-want +got):\n%s", d)
	}
	if tl.count != 7 {
		t.Errorf("count %d, want 7", tl.count)
	}
}

// TestRecordOrder: most recent day first, then manual before bank, then higher id first.
func TestRecordOrder(t *testing.T) {
	r := &planRecord{Date: "2026-10-02", rank: 0, num: 5}
	for _, c := range []struct {
		day        string
		rank       int
		num        int64
		wantBefore bool
	}{
		{"2026-10-01", 1, 99, true},
		{"2026-10-03", 0, 1, false},
		{"2026-10-02", 1, 1, false},
		{"2026-10-02", 0, 4, true},
		{"2026-10-02", 0, 6, false},
		{"2026-10-02", 0, 5, false},
	} {
		if got := r.before(c.day, c.rank, c.num); got != c.wantBefore {
			t.Errorf("before(%s, %d, %d) = %v, want %v", c.day, c.rank, c.num, got, c.wantBefore)
		}
	}
}
