package ptbr

import (
	"math"
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

func TestNumberHugeAndNonFinite(t *testing.T) {
	for _, c := range []struct {
		f        float64
		decimals int
		want     string
	}{
		{1.7e308, 2, "1,70 × 10^308"}, {-math.MaxFloat64, 0, "-1,80 × 10^308"}, {1e15, 0, "1,00 × 10^15"},
		{-1.5e20, -1, "-1,50 × 10^20"}, {999999999999999, 0, "999.999.999.999.999"}, {1234.5, 2, "1.234,50"},
		{math.Inf(1), 2, "∞"}, {math.Inf(-1), 2, "-∞"}, {math.NaN(), 2, "indefinido"},
	} {
		if got := Number(c.f, c.decimals); got != c.want {
			t.Errorf("Number(%g, %d) = %q, want %q", c.f, c.decimals, got, c.want)
		}
	}
	if got := Measure(1.7e308, "BRL", 2); got != "R$ 1,70 × 10^308" {
		t.Errorf("Measure = %q", got)
	}
	if got := Measure(1.7e308, "percent", 2); got != "∞%" {
		t.Errorf("Measure percent = %q", got)
	}
}

// TestAmountSignBeforeSymbol: lumo's measures in a currency write the sign as caderninho's
// minor units do (-R$ 966,75), one pt-BR form for both servers.
func TestAmountSignBeforeSymbol(t *testing.T) {
	for _, c := range []struct {
		f        float64
		currency string
		want     string
	}{
		{-966.75, "BRL", "-R$ 966,75"}, {1234.5, "BRL", "R$ 1.234,50"}, {-0.001, "BRL", "R$ 0,00"}, {-10, "USD", "-US$ 10,00"},
	} {
		if got := Amount(c.f, c.currency); got != c.want {
			t.Errorf("Amount(%v, %s) = %q, want %q", c.f, c.currency, got, c.want)
		}
		if got, want := Measure(c.f, c.currency, 2), c.want; got != want {
			t.Errorf("Measure(%v, %s) = %q, want %q", c.f, c.currency, got, want)
		}
	}
	if got, want := Amount(-966.75, "BRL"), Money("-96675", "BRL"); got != want {
		t.Errorf("lumo writes %q, caderninho %q", got, want)
	}
}
