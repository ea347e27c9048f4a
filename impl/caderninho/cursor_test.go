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
