package semantic

import "strings"

// CheckPattern checks a like pattern (the query's like, a formula's como): % is any run of
// characters, _ exactly one, and \ makes the next %, _ or \ literal. A \ before anything else, or
// at the end, makes the pattern mean different things on different engines, so it is refused: at
// is the 1-based character of the first such \ (0 when the pattern is fine) and fixed the pattern
// with every such \ doubled.
func CheckPattern(pattern string) (fixed string, at int) {
	var b strings.Builder
	r := []rune(pattern)
	for i := 0; i < len(r); i++ {
		b.WriteRune(r[i])
		if r[i] != '\\' {
			continue
		}
		if i+1 < len(r) && strings.ContainsRune(`%_\`, r[i+1]) {
			i++
			b.WriteRune(r[i])
			continue
		}
		if at == 0 {
			at = i + 1
		}
		b.WriteRune('\\')
	}
	return b.String(), at
}
