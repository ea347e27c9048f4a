package cadstore

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCoverage(t *testing.T) {
	covered := Merge([][2]string{{"2026-09-01", "2026-09-30"}, {"2026-08-01", "2026-08-31"}, {"2026-08-29", "2026-09-02"}, {"2026-11-05", "2026-11-10"}})
	if d := cmp.Diff([]Period{{"2026-08-01", "2026-09-30"}, {"2026-11-05", "2026-11-10"}}, covered); d != "" {
		t.Errorf("Merge (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]Period{{"2026-10-01", "2026-11-04"}}, Gaps(covered)); d != "" {
		t.Errorf("Gaps (-want +got):\n%s", d)
	}
	for _, tt := range []struct {
		want Period
		out  []Period
	}{
		{Period{"2026-08-15", "2026-09-15"}, []Period{}},
		{Period{"2026-07-01", "2026-08-10"}, []Period{{"2026-07-01", "2026-07-31"}}},
		{Period{"2026-09-20", "2026-12-31"}, []Period{{"2026-10-01", "2026-11-04"}, {"2026-11-11", "2026-12-31"}}},
		{Period{"2027-01-01", "2027-01-02"}, []Period{{"2027-01-01", "2027-01-02"}}},
	} {
		if d := cmp.Diff(tt.out, Uncovered(covered, tt.want)); d != "" {
			t.Errorf("Uncovered(%v) (-want +got):\n%s", tt.want, d)
		}
	}
	if d := cmp.Diff([]Period{{"2026-01-01", "2026-01-31"}}, Uncovered(nil, Period{"2026-01-01", "2026-01-31"})); d != "" {
		t.Errorf("Uncovered without coverage:\n%s", d)
	}
}
