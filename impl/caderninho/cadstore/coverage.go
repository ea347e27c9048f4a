package cadstore

import (
	"sort"
	"time"
)

// Period is an inclusive range of local days (YYYY-MM-DD).
type Period struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Merge sorts periods and joins those that overlap or touch (one ends the day before the other
// starts).
func Merge(periods [][2]string) []Period {
	ps := append([][2]string(nil), periods...)
	sort.Slice(ps, func(i, j int) bool { return ps[i][0] < ps[j][0] || (ps[i][0] == ps[j][0] && ps[i][1] < ps[j][1]) })
	var out []Period
	for _, p := range ps {
		if n := len(out); n > 0 && p[0] <= AddDays(out[n-1].To, 1) {
			if p[1] > out[n-1].To {
				out[n-1].To = p[1]
			}
			continue
		}
		out = append(out, Period{From: p[0], To: p[1]})
	}
	return out
}

// Gaps lists the days between the first and the last covered day that no period covers.
func Gaps(covered []Period) []Period {
	out := []Period{}
	for i := 1; i < len(covered); i++ {
		out = append(out, Period{From: AddDays(covered[i-1].To, 1), To: AddDays(covered[i].From, -1)})
	}
	return out
}

// Uncovered lists the days of want that covered does not cover.
func Uncovered(covered []Period, want Period) []Period {
	out := []Period{}
	next := want.From // first day not yet accounted for
	for _, c := range covered {
		if c.To < next {
			continue
		}
		if c.From > want.To {
			break
		}
		if c.From > next {
			out = append(out, Period{From: next, To: AddDays(c.From, -1)})
		}
		next = AddDays(c.To, 1)
		if next > want.To {
			return out
		}
	}
	if next <= want.To {
		out = append(out, Period{From: next, To: want.To})
	}
	return out
}

// AddDays moves a YYYY-MM-DD day by n days.
func AddDays(day string, n int) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return t.AddDate(0, 0, n).Format(time.DateOnly)
}
