// Package fold normalises text for accent- and case-insensitive matching, identically on every engine.
package fold

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold lower-cases s, strips combining marks (accents) and collapses runs of white space,
// so "  São  JOÃO " and "sao joao" fold to the same text.
func Fold(s string) string {
	if f, ok := foldASCII(s); ok {
		return f
	}
	if f, ok := foldLatin(s); ok {
		return f
	}
	return foldUnicode(s)
}

// foldUnicode is Fold by the full algorithm (decompose, drop marks, lower-case); the shortcuts
// above must agree with it.
func foldUnicode(s string) string {
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
	return foldLatin(s) // pure ASCII always folds there
}

// latinEnd bounds the runes foldLatin knows: Latin-1 Supplement and Latin Extended-A and -B,
// which hold the accented letters of Portuguese and most western names.
const latinEnd = 0x250

// latinEntry is what Fold makes of one rune below latinEnd.
type latinEntry struct {
	folded string // the rune decomposed, its marks dropped, lower-cased ("" when nothing is left)
	space  bool   // white space: collapses with its neighbours
	slow   bool   // not a plain mapping: left to the full algorithm
}

// latin maps every non-ASCII rune below latinEnd, computed from the full algorithm itself, so
// the two cannot disagree. Decomposing such a rune yields a base letter below latinEnd and
// combining marks (all Mn, which Fold drops), so folding a text of these runes rune by rune
// equals folding the whole normalised text (canonical reordering only moves the dropped marks).
var latin = func() (t [latinEnd - 0x80]latinEntry) {
	for r := rune(0x80); r < latinEnd; r++ {
		e := &t[r-0x80]
		if unicode.IsSpace(r) {
			e.space = true
			continue
		}
		var b strings.Builder
		for _, d := range norm.NFD.String(string(r)) {
			switch {
			case unicode.Is(unicode.Mn, d):
				continue
			case unicode.IsSpace(d):
				e.slow = true
			}
			b.WriteRune(unicode.ToLower(d))
		}
		e.folded = b.String()
	}
	return t
}()

// foldLatin is Fold for text of ASCII and runes below latinEnd (nearly every Portuguese name or
// word), by table instead of Unicode normalisation; ok is false for any other text (or invalid
// UTF-8).
func foldLatin(s string) (string, bool) {
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
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
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= latinEnd || (r == utf8.RuneError && size == 1) {
			return "", false
		}
		i += size
		e := &latin[r-0x80]
		switch {
		case e.slow:
			return "", false
		case e.space:
			space = len(b) > 0
			continue
		case e.folded == "":
			continue
		}
		if space {
			b = append(b, ' ')
			space = false
		}
		b = append(b, e.folded...)
	}
	return string(b), true
}

// Latin says whether Fold maps rune r, past ASCII, to a text of its own wherever it stands: a
// rune below Latin Extended-B's end, not white space (which collapses with its neighbours), so a
// text of ASCII and such runes folds rune by rune.
func Latin(r rune) bool {
	if r < 0x80 || r >= latinEnd {
		return false
	}
	e := latin[r-0x80]
	return !e.space && !e.slow
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// Words splits folded text into its words; "every word must appear" searches use it.
func Words(s string) []string { return strings.Fields(Fold(s)) }
