// Package fold normalises text for accent- and case-insensitive matching, identically on every engine.
package fold

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Fold lower-cases s, strips combining marks (accents) and collapses runs of white space,
// so "  São  JOÃO " and "sao joao" fold to the same text.
func Fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Words splits folded text into its words; "every word must appear" searches use it.
func Words(s string) []string { return strings.Fields(Fold(s)) }
