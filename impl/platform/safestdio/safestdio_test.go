package safestdio

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"testing"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestFilterDropsOnlyTooDeepLines(t *testing.T) {
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	okDeep := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	in := `{"a":"[[[[ not nesting \" {{{"}` + "\n" + `{"jsonrpc":"2.0","id":7,"x":` + deep + "}\n" + okDeep + "\n" + `{"last":1}`
	var replies bytes.Buffer
	r := Filter(io.NopCloser(strings.NewReader(in)), &replies, quiet())
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":"[[[[ not nesting \" {{{"}` + "\n" + okDeep + "\n" + `{"last":1}`
	if string(out) != want {
		t.Errorf("filtered stream:\n%.200s\nwant:\n%.200s", out, want)
	}
	checkReply(t, replies.String(), `7`, -32600, "aninhada demais")
}

// repeat is a reader of n bytes of b, made as they are read (no n-byte buffer to start with).
type repeat struct {
	b byte
	n int
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	return k, nil
}

// TestFilterRefusesOverlongLines: a 17 MiB line is answered (with its id when it comes first,
// a parse error with a null id otherwise) and the next line still passes; reading it costs far
// less memory than the line.
func TestFilterRefusesOverlongLines(t *testing.T) {
	const size = 17 << 20
	for _, tc := range []struct {
		name, head, tail, id string
		code                 int
	}{
		{"id first", `{"jsonrpc":"2.0","id":"req-1","method":"tools/call","params":{"x":"`, `"}}`, `"req-1"`, -32600},
		{"id last", `{"jsonrpc":"2.0","method":"tools/call","params":{"x":"`, `"}},"id":9}`, `null`, -32700},
		{"not JSON", `aaaa`, ``, `null`, -32700},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := io.MultiReader(strings.NewReader(tc.head), &repeat{'a', size}, strings.NewReader(tc.tail+"\n"+`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n"))
			var replies bytes.Buffer
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			out, err := io.ReadAll(Filter(io.NopCloser(in), &replies, quiet()))
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n" {
				t.Errorf("passed through: %.200q", out)
			}
			checkReply(t, replies.String(), tc.id, tc.code, "grande demais")
			// the line is kept up to MaxLineBytes (to pass it whole or refuse it), then only read through
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2*MaxLineBytes+4<<20 {
				t.Errorf("reading the line allocated %d bytes", alloc)
			}
		})
	}
}

func TestFilterPassesLinesUpToTheLimit(t *testing.T) {
	line := `{"x":"` + strings.Repeat("a", MaxLineBytes-9) + `"}` + "\n"
	if len(line) != MaxLineBytes {
		t.Fatalf("line of %d bytes", len(line))
	}
	var replies bytes.Buffer
	out, err := io.ReadAll(Filter(io.NopCloser(strings.NewReader(line+line[:20]+"\n")), &replies, quiet()))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != MaxLineBytes+21 || replies.Len() != 0 {
		t.Errorf("passed %d bytes, replied %.200s", len(out), replies.String())
	}
}

func checkReply(t *testing.T, replies, id string, code int, text string) {
	t.Helper()
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if strings.Count(replies, "\n") != 1 || json.Unmarshal([]byte(replies), &r) != nil {
		t.Fatalf("want one JSON-RPC error line, got %.300q", replies)
	}
	if r.JSONRPC != "2.0" || string(r.ID) != id || r.Error.Code != code || !strings.Contains(r.Error.Message, text) {
		t.Errorf("reply %s, want id %s, code %d, a message with %q", replies, id, code, text)
	}
}

func TestDepth(t *testing.T) {
	for s, want := range map[string]int{`{}`: 1, `{"a":[1,{"b":[]}]}`: 4, `"[[["`: 0, `["\\"]`: 1, `plain`: 0} {
		if got := depth([]byte(s)); got != want {
			t.Errorf("depth(%s) = %d, want %d", s, got, want)
		}
	}
}

func TestFindID(t *testing.T) {
	for s, want := range map[string]string{
		`{"jsonrpc":"2.0","id":5,"method":"x"}`: `5`, `{"params":{"a":[1,{"id":3}]},"id":"b"}`: `"b"`,
		`{"id":{"x":1}}`: ``, `{"id":null}`: ``, `[1]`: ``, `{"params":{"a":"cut`: ``, `{"method":"x"}`: ``,
	} {
		if got := string(findID([]byte(s))); got != want {
			t.Errorf("findID(%s) = %s, want %s", s, got, want)
		}
	}
}
