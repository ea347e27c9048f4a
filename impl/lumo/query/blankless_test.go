package query

import "testing"

// blankless wraps an expression once: over one that is already a whole NULLIF(..., ”) it adds
// nothing, over anything else (two NULLIFs joined, a NULLIF inside) it wraps.
func TestBlanklessWrapsOnce(t *testing.T) {
	for expr, want := range map[string]string{
		`t0."c"`:             `NULLIF(t0."c", '')`,
		`NULLIF(t0."c", '')`: `NULLIF(t0."c", '')`,
		`NULLIF(LEFT(NULLIF(t0."c", ''), 2), '')`: `NULLIF(LEFT(NULLIF(t0."c", ''), 2), '')`,
		`NULLIF(a, '') || NULLIF(b, '')`:          `NULLIF(NULLIF(a, '') || NULLIF(b, ''), '')`,
		`LEFT(NULLIF(t0."c", ''), 2)`:             `NULLIF(LEFT(NULLIF(t0."c", ''), 2), '')`,
	} {
		if got := blankless(expr); got != want {
			t.Errorf("blankless(%s) = %s, want %s", expr, got, want)
		}
	}
}
