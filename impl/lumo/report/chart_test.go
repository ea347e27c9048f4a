package report

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo"
)

// TestChartCoordinatesStayInThePlot: values near float64's limit (whose differences overflow),
// infinities and NaN never give negative, NaN or out-of-plot coordinates.
func TestChartCoordinatesStayInThePlot(t *testing.T) {
	for name, values := range map[string][]float64{
		"near the limit, both signs": {1.7e308, -1.7e308, 0, 1e308},
		"near the limit, positive":   {math.MaxFloat64, math.MaxFloat64 / 2, 1},
		"with infinities and NaN":    {math.Inf(1), 5, math.NaN(), math.Inf(-1), -3},
		"tiny":                       {5e-324, -5e-324},
		"ordinary":                   {10, 20, -5},
	} {
		for _, bucket := range []string{"", "month"} {
			t.Run(name+"/"+bucket, func(t *testing.T) {
				r := &lumo.Report{Columns: []lumo.ReportColumn{{Label: "Mês", Type: "date", Grouped: true, Bucket: bucket}, {Label: "Total", Type: "number"}}}
				if bucket == "" {
					r.Columns[0].Type = "string"
				}
				for i, v := range values {
					r.Rows = append(r.Rows, []lumo.ReportCell{{Text: "2026-0" + strconv.Itoa(i+1)}, {Text: "x", Number: true, Value: v}})
				}
				c := newChart(r)
				if c == nil {
					t.Fatal("no chart")
				}
				check := func(what string, v float64) {
					if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > chartWidth {
						t.Errorf("%s = %v", what, v)
					}
				}
				check("zero", c.Zero)
				for _, m := range c.Marks {
					check("x", m.X)
					check("y", m.Y)
					check("w", m.W)
					check("h", m.H)
					if m.Y < plotTop || m.Y+m.H > plotBottom+1 {
						t.Errorf("mark %+v leaves the plot", m)
					}
				}
				if strings.Contains(c.Points, "NaN") || strings.Contains(c.Points, "-") {
					t.Errorf("points %q", c.Points)
				}
			})
		}
	}
}

// TestCompactChartFitsItsViewBox: the phone's chart keeps every mark inside its 360-wide viewBox
// and labels at most 4 points, so 12-character labels at 13 px do not overlap.
func TestCompactChartFitsItsViewBox(t *testing.T) {
	r := &lumo.Report{Columns: []lumo.ReportColumn{{Label: "Mês", Type: "date", Grouped: true, Bucket: "month"}, {Label: "Total", Type: "number"}}}
	for i := range 12 {
		r.Rows = append(r.Rows, []lumo.ReportCell{{Text: "2026-" + strconv.Itoa(10+i)}, {Text: "x", Number: true, Value: float64(i * 10)}})
	}
	c := newChart(r)
	if c == nil || c.Compact == nil {
		t.Fatal("no chart, or no compact chart")
	}
	if c.Width != chartWidth || c.Size != "largo" || c.Compact.Width != compactWidth || c.Compact.Size != "compacto" {
		t.Fatalf("sizes %d %q, compact %d %q", c.Width, c.Size, c.Compact.Width, c.Compact.Size)
	}
	if len(c.Compact.Marks) != 12 || len(c.Compact.Ticks) > compactTicks {
		t.Errorf("compact: %d marks, %d ticks", len(c.Compact.Marks), len(c.Compact.Ticks))
	}
	for _, m := range c.Compact.Marks {
		if m.X < 0 || m.X > compactRight {
			t.Errorf("compact mark at x %v, outside 0..%v", m.X, compactRight)
		}
	}
	if c.Compact.Right > compactWidth || c.Compact.Title != c.Title || c.Compact.Line != c.Line {
		t.Errorf("compact %+v differs from the wide chart %+v", c.Compact, c)
	}
}

// TestLineChartOrdersMonthsByTheirValue: a month reads set/2026 on the page, but the line runs in
// the order of its value (2026-09 before 2026-10 before 2027-01), not of its text.
func TestLineChartOrdersMonthsByTheirValue(t *testing.T) {
	r := &lumo.Report{Columns: []lumo.ReportColumn{{Label: "Data (mês)", Type: "string", Grouped: true, Bucket: "month"}, {Label: "Total", Type: "number"}}}
	for _, m := range [][2]string{{"2027-01", "jan/2027"}, {"2026-09", "set/2026"}, {"2026-10", "out/2026"}} {
		r.Rows = append(r.Rows, []lumo.ReportCell{{Text: m[1], Raw: m[0]}, {Text: "1", Number: true, Value: 1}})
	}
	c := newChart(r)
	if c == nil || !c.Line {
		t.Fatalf("chart %+v, want a line", c)
	}
	var got []string
	for _, m := range c.Marks {
		got = append(got, m.Label)
	}
	if want := "set/2026 out/2026 jan/2027"; strings.Join(got, " ") != want {
		t.Errorf("points %q, want %q", strings.Join(got, " "), want)
	}
}
