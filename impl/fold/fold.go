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
	if f, ok := foldASCII(s); ok {
		return f
	}
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

// foldASCII is Fold for pure ASCII text (most imported values), without the Unicode
// normalisation that dominated import profiles; ok is false when s has other bytes.
func foldASCII(s string) (string, bool) {
	clean := true // already lower-case, single-spaced and trimmed: s itself is the answer
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return "", false
		case c >= 'A' && c <= 'Z':
			clean = false
		case asciiSpace(c):
			if c != ' ' || i == 0 || i == len(s)-1 || s[i+1] == ' ' {
				clean = false
			}
		}
	}
	if clean {
		return s, true
	}
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asciiSpace(c) {
			space = len(b) > 0
			continue
		}
		if space {
			b = append(b, ' ')
			space = false
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b), true
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// Words splits folded text into its words; "every word must appear" searches use it.
func Words(s string) []string { return strings.Fields(Fold(s)) }
