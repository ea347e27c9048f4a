package report

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo"
)

// chart is an inline SVG chart of one measure over one grouped column: bars for categories, a
// line for a date grouped by day, month or year (a time series). Compact is the same chart drawn
// for a phone (a narrower viewBox, fewer labels), which the page shows instead below 36rem, so
// that the chart fits the screen at 390 px with labels as legible as on a wide one.
type chart struct {
	Title             string
	Line              bool
	Compact           *chart
	Size              string // the SVG's class: "largo", or "compacto" for the phone's
	Width, Height     int
	Left, Right, Zero float64
	MaxText           string
	Marks             []mark
	Points            string
	Ticks             []tick
}

type mark struct {
	X, Y, W, H  float64
	Label, Text string
}

type tick struct {
	X, Y float64
	Text string
}

const (
	chartWidth, chartHeight = 720, 260
	plotTop, plotBottom     = 24.0, 224.0 // y range of the plot; labels go below
	plotLeft, plotRight     = 8.0, 712.0
	maxTicks                = 8 // labels of 12 characters at 13 px fit side by side
	// The phone's chart: 360 wide, drawn at about its own size in a 390 px screen's column.
	compactWidth, compactRight = 360, 352.0
	compactTicks               = 4
)

// layout is the horizontal size of a chart: its viewBox width, the plot's right edge and how
// many labels fit under it.
type layout struct {
	width int
	right float64
	ticks int
}

// newChart charts the first measured column against the first grouped one, with its compact
// twin, or nil when the result has no such pair or no row with a number.
func newChart(r *lumo.Report) *chart {
	c := drawChart(r, layout{chartWidth, plotRight, maxTicks})
	if c != nil {
		c.Size = "largo"
		c.Compact = drawChart(r, layout{compactWidth, compactRight, compactTicks})
		c.Compact.Size = "compacto"
	}
	return c
}

// drawChart draws the chart of r in the size l.
func drawChart(r *lumo.Report, l layout) *chart {
	x, y := -1, -1
	for i, c := range r.Columns {
		if c.Grouped && x < 0 {
			x = i
		}
		if !c.Grouped && y < 0 && isNumeric(r, i) {
			y = i
		}
	}
	if x < 0 || y < 0 {
		return nil
	}
	type point struct {
		label, text string
		key         string
		value       float64
	}
	var pts []point
	for _, row := range r.Rows {
		if !row[y].Number || math.IsInf(row[y].Value, 0) || math.IsNaN(row[y].Value) {
			continue // unknown (or not a finite number): nothing to draw
		}
		key := row[x].Text
		if row[x].Raw != "" {
			key = row[x].Raw // 2026-09, not set/2026: a time series in order
		}
		if row[x].Number {
			key = strconv.FormatFloat(row[x].Value, 'f', -1, 64)
			key = strings.Repeat("0", max(0, 20-len(key))) + key // numeric order as text
		}
		pts = append(pts, point{label: row[x].Text, text: row[y].Text, key: key, value: row[y].Value})
	}
	if len(pts) == 0 {
		return nil
	}
	xc, yc := r.Columns[x], r.Columns[y]
	c := &chart{Title: yc.Label + " por " + xc.Label, Width: l.width, Height: chartHeight,
		Left: plotLeft, Right: l.right,
		Line: (xc.Type == "date" || xc.Type == "datetime" || xc.Bucket == "day" || xc.Bucket == "month" || xc.Bucket == "year") &&
			xc.Bucket != "month_of_year" && xc.Bucket != "day_of_week" && xc.Bucket != "hour_of_day"}
	if c.Line {
		sort.SliceStable(pts, func(i, j int) bool { return pts[i].key < pts[j].key })
	}
	lo, hi := 0.0, 0.0
	maxAt := 0
	for i, p := range pts {
		lo, hi = min(lo, p.value), max(hi, p.value)
		if p.value > pts[maxAt].value {
			maxAt = i
		}
	}
	c.MaxText = pts[maxAt].text
	// Values are scaled by the largest magnitude first: near float64's limit hi-lo (and v-lo)
	// would overflow to +Inf and every coordinate would be NaN.
	scale := max(math.Abs(lo), math.Abs(hi))
	if scale == 0 {
		scale = 1
	}
	lo, hi = lo/scale, hi/scale
	if hi == lo {
		hi = lo + 1 // all zero: a flat chart on the baseline
	}
	yOf := func(v float64) float64 {
		y := plotBottom - (v/scale-lo)/(hi-lo)*(plotBottom-plotTop)
		return round1(min(max(y, plotTop), plotBottom)) // inside the plot, whatever rounding did
	}
	c.Zero = yOf(0)
	slot := (l.right - plotLeft) / float64(len(pts))
	every := (len(pts) + l.ticks - 1) / l.ticks
	var line []string
	for i, p := range pts {
		cx := round1(plotLeft + slot*(float64(i)+0.5))
		m := mark{Label: p.label, Text: p.text}
		if c.Line {
			m.X, m.Y = cx, yOf(p.value)
			line = append(line, ftoa(m.X)+","+ftoa(m.Y))
		} else {
			top, bottom := yOf(max(p.value, 0)), yOf(min(p.value, 0))
			w := max(slot*0.8, 1)
			m.X, m.Y, m.W, m.H = round1(cx-w/2), top, round1(w), round1(max(bottom-top, 1))
		}
		c.Marks = append(c.Marks, m)
		if i%every == 0 {
			c.Ticks = append(c.Ticks, tick{X: cx, Y: plotBottom + 20, Text: shorten(p.label, 12)})
		}
	}
	c.Points = strings.Join(line, " ")
	return c
}

func isNumeric(r *lumo.Report, col int) bool {
	for _, row := range r.Rows {
		if row[col].Number {
			return true
		}
	}
	return false
}

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
