package ofx

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestPlainTagReadsAsTag backs scan's shortcut: wherever a tag starts in the corpus, its broken
// variants and the edge cases below, a tag plainTag takes is read by it as tag reads it.
func TestPlainTagReadsAsTag(t *testing.T) {
	taken := 0
	check := func(rest string) {
		name, end, ok := plainTag(rest)
		if !ok {
			return
		}
		taken++
		var tok token
		gend, err := tag(rest, &tok, 1)
		kind := tokStart
		if rest[1] == '/' {
			kind = tokEnd
		}
		if err != nil || gend != end || tok.name != name || tok.kind != kind || tok.self {
			t.Fatalf("%q: plainTag %q %d, tag %+v %d %v", quote(rest, 30), name, end, tok, gend, err)
		}
	}
	long := strings.Repeat("A", 64)
	edges := []string{"<A>", "</A>", "<>", "</>", "<" + long + ">", "</" + long + ">", "<" + long + "A>", "<a>", "<Ab>", "<A/>",
		"<A >", "< A>", "<A\n>", "<A<B>", "<A.B_C-1>", "<A", "</", "<!-- -->", "<?xml?>", "<A&>"}
	for _, e := range edges {
		check(e)
	}
	if _, _, ok := plainTag("<" + long + ">"); !ok {
		t.Error("a 64-letter name is plain")
	}
	for _, e := range []string{"<" + long + "A>", "<a>", "<A/>", "<A >", "<>", "</>", "<A"} {
		if _, _, ok := plainTag(e); ok {
			t.Errorf("%q is not plain", e)
		}
	}
	for name, text := range corpus(t) {
		variants := mutations(text)
		variants[name] = text
		for _, v := range variants {
			for i := strings.IndexByte(v, '<'); i >= 0; {
				check(v[i:])
				j := strings.IndexByte(v[i+1:], '<')
				if j < 0 {
					break
				}
				i += 1 + j
			}
		}
	}
	t.Logf("%d plain tags", taken)
}

// TestOpenVisitingSeesEveryTransaction: OpenVisiting's fn is given, statement by statement, the
// transactions Transactions reads, and its error is Open's.
func TestOpenVisitingSeesEveryTransaction(t *testing.T) {
	files := 0
	for name, text := range corpus(t) {
		var seen [][]Transaction
		f, err := OpenVisiting([]byte(text), func(i int, tr *Transaction) error {
			for len(seen) <= i {
				seen = append(seen, nil)
			}
			seen[i] = append(seen[i], *tr)
			return nil
		})
		if err != nil {
			continue // a corpus file that is refused on purpose
		}
		files++
		for i := range f.Statements {
			var read []Transaction
			if err := f.Transactions(i, func(tr *Transaction) error { read = append(read, *tr); return nil }); err != nil {
				t.Fatal(err)
			}
			var got []Transaction
			if i < len(seen) {
				got = seen[i]
			}
			if len(read) != f.Count(i) || !reflect.DeepEqual(got, read) {
				t.Fatalf("%s, statement %d: visited %d transactions, read %d (count %d), or they differ", name, i, len(got), len(read), f.Count(i))
			}
		}
	}
	if files < 3 {
		t.Fatalf("only %d corpus files opened", files)
	}
	stop := errors.New("stop")
	if _, err := OpenVisiting([]byte(largeStatement(10)), func(int, *Transaction) error { return stop }); err != stop {
		t.Fatalf("fn's error: got %v", err)
	}
}
