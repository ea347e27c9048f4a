package safestdio

import (
	"io"
	"log/slog"
	"strings"
	"testing"
)

func TestFilterDropsOnlyTooDeepLines(t *testing.T) {
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	okDeep := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	in := `{"a":"[[[[ not nesting \" {{{"}` + "\n" + `{"x":` + deep + "}\n" + okDeep + "\n" + `{"last":1}`
	r := Filter(io.NopCloser(strings.NewReader(in)), slog.New(slog.NewTextHandler(io.Discard, nil)))
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":"[[[[ not nesting \" {{{"}` + "\n" + okDeep + "\n" + `{"last":1}`
	if string(out) != want {
		t.Errorf("filtered stream:\n%.200s\nwant:\n%.200s", out, want)
	}
}

func TestDepth(t *testing.T) {
	for s, want := range map[string]int{`{}`: 1, `{"a":[1,{"b":[]}]}`: 4, `"[[["`: 0, `["\\"]`: 1, `plain`: 0} {
		if got := depth([]byte(s)); got != want {
			t.Errorf("depth(%s) = %d, want %d", s, got, want)
		}
	}
}
