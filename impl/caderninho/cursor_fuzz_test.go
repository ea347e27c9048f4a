package caderninho

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzDecodeCursor: decoding any text never panics; a cursor this secret did not sign is refused
// (one changed character is enough); an accepted one re-encodes to a cursor that decodes to the
// same state.
//
//	go test ./impl/caderninho -run '^$' -fuzz FuzzDecodeCursor -fuzztime 30s
func FuzzDecodeCursor(f *testing.F) {
	secret := []byte("fuzz secret")
	good := encodeCursor(secret, cursorState{Filters: filterDigest("a", 1), Revisions: map[string]int64{"casa": 3}, Day: "2026-09-30", Rank: 1, ID: 42})
	f.Add(good)
	f.Add(encodeCursor([]byte("other secret"), cursorState{Filters: "x", Day: "2026-01-01", ID: 1}))
	f.Add(strings.Replace(good, "A", "B", 1))
	f.Add("")
	f.Add(".")
	f.Add("eyJ2IjoxfQ.AAAA")
	f.Add(good + "." + good)
	f.Fuzz(func(t *testing.T, s string) {
		st, ok := decodeCursor(secret, s)
		if !ok {
			return
		}
		if st.V != cursorVersion {
			t.Fatalf("accepted a cursor of version %d", st.V)
		}
		again, ok := decodeCursor(secret, encodeCursor(secret, st))
		if !ok || !reflect.DeepEqual(st, again) {
			t.Fatalf("re-encoded cursor decodes to %+v (%v), want %+v", again, ok, st)
		}
		if _, ok := decodeCursor([]byte("other secret"), s); ok {
			t.Fatalf("a cursor signed with one secret passes with another: %q", s)
		}
	})
}
