// Package suggest finds, among the names a caller could have meant, the few close to what was
// typed, for "did you mean" suggestions in error messages.
package suggest

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// Similar ranks candidates by likeness to s, ignoring case and accents, and keeps at most n
// that are plausibly what was meant: a substring match first (the shorter text, at least
// minSubstring characters, inside the other; or s equal to a candidate's column name), then
// candidates within an edit distance of a third of s's length (at least 1), nearest first.
// Short texts need these bounds: two letters occur in many names, and a couple of edits turns
// any short label into another.
func Similar(s string, candidates []string, n int) []string {
	q := fold.Fold(strings.Trim(s, "[]"))
	q = strings.NewReplacer("].[", ".", ":", ".", "[", "", "]", "").Replace(q)
	maxDist := max(1, utf8.RuneCountInString(q)/3)
	qcol := q
	if _, c, ok := strings.Cut(q, "."); ok {
		qcol = c
	}
	type scored struct {
		ref   string
		score int
		order int
	}
	var list []scored
	for i, c := range candidates {
		fc := fold.Fold(c)
		score := editDistance(q, fc)
		_, col, _ := strings.Cut(fc, ".")
		// A bare column name is compared with the column part of the ref, so a table name
		// ("Lojas") does not count as containing a column ("Loja").
		if q != "" && (q == col || within(q, fc) || within(fc, q) || within(col, qcol)) {
			score = 0
		}
		if score > maxDist {
			continue
		}
		list = append(list, scored{c, score, i})
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score < list[j].score
		}
		return list[i].order < list[j].order
	})
	var out []string
	for _, s := range list {
		if len(out) == n {
			break
		}
		out = append(out, s.ref)
	}
	return out
}

// minSubstring is the shortest text whose occurrence inside another counts as a likeness.
const minSubstring = 3

// within reports whether part, long enough to mean something, occurs in whole.
func within(part, whole string) bool {
	return utf8.RuneCountInString(part) >= minSubstring && strings.Contains(whole, part)
}

// editDistance is the optimal string alignment distance: insertions, deletions, substitutions
// and swaps of adjacent characters ("bai" for "bia", a common slip) cost 1 each.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// rows i-2, i-1 and i of the dynamic programming table
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
