package caderninho

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCursorIsTamperEvident(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	st := cursorState{Filters: "f", Revisions: map[string]int64{"casa": 4}, Day: "2026-10-11", ID: 186}
	c := encodeCursor(secret, st)
	got, ok := decodeCursor(secret, c)
	st.V = cursorVersion
	if !ok || !cmp.Equal(st, got) {
		t.Fatalf("round trip: %v %+v", ok, got)
	}
	if _, ok := decodeCursor([]byte("another installation's secret!!!"), c); ok {
		t.Error("accepted under another secret")
	}
	payload, sig, _ := strings.Cut(c, ".")
	forged := encodeCursor([]byte("x"), cursorState{Filters: "f", Revisions: map[string]int64{"casa": 5}, Day: "2026-10-11", ID: 186})
	fp, _, _ := strings.Cut(forged, ".")
	for _, bad := range []string{"", ".", payload, payload + ".", fp + "." + sig, payload + "." + sig[:len(sig)-2] + "AA", "a.b.c"} {
		if _, ok := decodeCursor(secret, bad); ok {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestNextClosing(t *testing.T) {
	for in, want := range map[string]string{
		"2026-10-31": "2026-11-30", "2026-11-30": "2026-12-31", "2026-01-30": "2026-02-28",
		"2026-01-15": "2026-02-15", "2026-12-10": "2027-01-10", "2024-01-29": "2024-02-29",
	} {
		if got := nextClosing(in); got != want {
			t.Errorf("nextClosing(%s) = %s, want %s", in, got, want)
		}
	}
}
