// Package printable writes names that come from outside (of files, folders, a data file's
// columns) into terminal and log lines as text, quoted with Go's escapes when they hold a control
// character, a line break or bytes that are not UTF-8, so that a name can neither run a
// terminal's escape code nor start a line of its own.
package printable

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Name is name as is when every character of it prints as itself, and quoted ("a\nb.csv")
// otherwise.
func Name(name string) string {
	if Plain(name) {
		return name
	}
	return strconv.Quote(name)
}

// Plain reports whether every character of s prints as itself on one line: valid UTF-8 without
// control characters, line or paragraph separators, or other characters that do not print.
func Plain(s string) bool {
	return utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return r != ' ' && !strconv.IsPrint(r) }) < 0
}

// Text is s, text of one line or many, with each character that does not print as itself but
// line breaks and tabs written as its escape (\x1b, \u2028): the lines stay lines, and none of
// them can run a terminal's escape code.
func Text(s string) string {
	if Plain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1: // a byte that is not UTF-8
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t' || r == ' ' || strconv.IsPrint(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// HasControl reports whether s holds a control character (a line break, a tab, a terminal's
// escape) or bytes that are not UTF-8: what the name of a file or folder may not hold.
func HasControl(s string) bool {
	return !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0
}
