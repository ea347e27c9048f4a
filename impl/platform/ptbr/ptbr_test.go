package ptbr

import (
	"testing"
	"time"
)

func TestFormats(t *testing.T) {
	ts := time.Date(2026, 10, 15, 6, 0, 0, 0, time.UTC)
	for got, want := range map[string]string{
		DateTime(ts):                   "15/10/2026 03:00",
		Date(ts):                       "15/10/2026",
		ISO(ts):                        "2026-10-15T03:00:00-03:00",
		Int(1000000):                   "1.000.000",
		Int(-4695447):                  "-4.695.447",
		Int(999):                       "999",
		Count(1, "linha", "linhas"):    "1 linha",
		Count(2500, "linha", "linhas"): "2.500 linhas",
		List([]string{"a", "b", "c"}):  "a, b e c",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
