package features

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// leaks are fragments of internal text that must never reach a client. An answer may quote the
// client's own text back (a field it does not accept, a ref or a value it did not find), so a
// fragment that lies inside text the client sent is not counted: see leaksIn.
var leaks = []string{
	"SQLSTATE", "pq: ", "sqlite", "SQL logic", "syntax error", "panic", "goroutine", "runtime error",
	"invalid character", "json: ", "unexpected end of JSON", "decoding validated", "sql: ",
	"no such table", "no such column", "relation \"", "driver",
	// Go's own words: a client's field name can be "json", but these come only from Go
	"cannot unmarshal", "Go struct field", "Go value of type", "unexpected EOF", "deadline exceeded",
	"context canceled", "%!", "<nil>",
	// database packages and SQL (no short bare word: a cursor's base64 could hold it by chance)
	"database/sql", "modernc.org", "lib/pq", "duckdb", "SELECT ", "INSERT INTO", "DELETE FROM",
	"UPDATE ", "sqlite_master", "information_schema",
	// absolute paths on the server's machine
	"/tmp/", "/home/", "/root/", "/usr/", "/var/", "/work/",
}

// goSource is a Go source position (store.go:123); a field named "go" (fields[1].go: ...) is not one.
var goSource = regexp.MustCompile(`[A-Za-z0-9_]\.go:[0-9]`)

// checkNoLeak fails t when answer carries internal text, or when portuguese is set and it does
// not read as Portuguese. sent is the client's text the answer may quote back (clientText).
func checkNoLeak(t *testing.T, answer string, portuguese bool, sent []string) {
	t.Helper()
	for _, l := range leaksIn(answer, sent) {
		t.Errorf("the answer leaks internal text %q: %.300s", l, answer)
	}
	if portuguese && !strings.ContainsAny(answer, "ãçéíóúáõêâ") && !strings.Contains(answer, " de ") {
		t.Errorf("the message does not read as Portuguese: %.300s", answer)
	}
}

// leaksIn lists the fragments of leaks (and source positions) that answer carries as the server's
// own text. A fragment is the client's when every word of its core (the fragment without leading
// and trailing punctuation: "json" of "json: ", "relation" of `relation "`; a fragment of
// punctuation only is its own core) lies inside an occurrence, in answer, of one of sent in one of
// the forms a server quotes it in (see quotedForms), and that occurrence is a whole word or words
// of answer: not glued to a letter, digit or underscore on either side, so a client's "sql" does
// not excuse "sqlite" nor "sql: " in "mysql: ".
func leaksIn(answer string, sent []string) []string {
	type hit struct {
		what       string
		start, end int
	}
	var hits []hit
	for _, l := range leaks {
		for off := 0; ; {
			i := strings.Index(answer[off:], l)
			if i < 0 {
				break
			}
			hits = append(hits, hit{l, off + i, off + i + len(l)})
			off += i + len(l)
		}
	}
	for _, m := range goSource.FindAllStringIndex(answer, -1) {
		hits = append(hits, hit{"source position " + answer[m[0]:m[1]], m[0], m[1]})
	}
	if len(hits) == 0 {
		return nil
	}
	forms := quotedForms(sent)
	var out []string
	reported := map[string]bool{}
	for _, h := range hits {
		if reported[h.what] || coveredBy(answer, h.start, h.end, forms) {
			continue
		}
		reported[h.what] = true
		out = append(out, h.what)
	}
	return out
}

// coveredBy reports whether every word of the core of answer[start:end] lies inside a whole-word
// occurrence of one of forms.
func coveredBy(answer string, start, end int, forms []string) bool {
	whole, wholeEnd := start, end
	for start < end && !wordRune(runeAt(answer, start)) {
		start++
	}
	for end > start && !wordRune(runeBefore(answer, end)) {
		end--
	}
	if start == end { // punctuation only ("%!"): the whole fragment must be the client's
		return coveredOnce(answer, whole, wholeEnd, forms)
	}
	for i := start; i < end; {
		if !wordRune(runeAt(answer, i)) {
			_, n := utf8.DecodeRuneInString(answer[i:])
			i += n
			continue
		}
		j := i
		for j < end && wordRune(runeAt(answer, j)) {
			_, n := utf8.DecodeRuneInString(answer[j:])
			j += n
		}
		if !coveredOnce(answer, i, j, forms) {
			return false
		}
		i = j
	}
	return true
}

// coveredOnce reports whether one whole-word occurrence of one of forms spans answer[a:b].
func coveredOnce(answer string, a, b int, forms []string) bool {
	unit := answer[a:b]
	for _, f := range forms {
		if len(f) < len(unit) || !strings.Contains(f, unit) {
			continue
		}
		lo, hi := max(0, b-len(f)), min(len(answer), a+len(f))
		for off := lo; off < hi; {
			i := strings.Index(answer[off:hi], f)
			if i < 0 {
				break
			}
			p := off + i
			if p <= a && p+len(f) >= b && !glued(answer, p) && !glued(answer, p+len(f)) {
				return true
			}
			_, n := utf8.DecodeRuneInString(answer[p:])
			off = p + max(n, 1)
		}
	}
	return false
}

// glued reports whether answer joins two word characters at byte offset i.
func glued(answer string, i int) bool {
	return i > 0 && i < len(answer) && wordRune(runeBefore(answer, i)) && wordRune(runeAt(answer, i))
}

func wordRune(r rune) bool {
	return r != utf8.RuneError && (r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
}

func runeAt(s string, i int) rune {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r
}

func runeBefore(s string, i int) rune {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

// clientText is the text a client sent in a call: the tool's name and every key and string value
// of its arguments (decoded as the server decodes them: invalid UTF-8 becomes U+FFFD).
func clientText(tool string, args []byte) []string {
	var out []string
	if tool != "" {
		out = append(out, tool)
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return out
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				out = append(out, k)
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// maxShown is how many runes of a long key or value a message repeats before "… (N caracteres)"
// (schemacheck's abbreviate).
const maxShown = 80

// quotedForms are the ways a server writes each of ss in an answer: as it is or without leading
// and trailing white space (strings.TrimSpace: lumo trims refs and search terms), escaped as a Go
// string (%q, strconv.Quote) or as JSON (with and without HTML escaping), each without the quotes;
// and, for a string longer than maxShown runes, the same forms of its first maxShown runes.
func quotedForms(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(f string) {
		if f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	inner := func(q string) string { return strings.TrimSuffix(strings.TrimPrefix(q, `"`), `"`) }
	addAll := func(s string) {
		add(s)
		add(inner(strconv.Quote(s)))
		if b, err := json.Marshal(s); err == nil {
			add(inner(string(b)))
		}
		var buf bytes.Buffer
		e := json.NewEncoder(&buf)
		e.SetEscapeHTML(false)
		if e.Encode(s) == nil {
			add(inner(strings.TrimSuffix(buf.String(), "\n")))
		}
	}
	done := map[string]bool{}
	for _, s := range ss {
		for _, s := range []string{s, strings.TrimSpace(s)} {
			if s == "" || done[s] {
				continue
			}
			done[s] = true
			addAll(s)
			if r := []rune(s); len(r) > maxShown {
				addAll(string(r[:maxShown]))
			}
		}
	}
	return out
}

func TestLeakCheck(t *testing.T) {
	issue48 := "Argumentos inválidos para query:\n- appId: campo obrigatório ausente; informe appId.\n" +
		"- fields: campo obrigatório ausente; informe fields.\n" +
		"- json: campo não aceito aqui; remova-o (os campos aceitos são: appId, fields, filters, limit, orderBy)."
	long := strings.Repeat("a", 74) + "sqlite" + strings.Repeat("b", 30)
	for _, tc := range []struct {
		name, answer, tool, args string
		want                     []string // leaks reported
	}{
		{"issue 48: the client's unknown field json", issue48, "query", `{"json": ""}`, nil},
		{"the same answer when the client sent no json", issue48, "query", `{"appId": 1}`, []string{"json: "}},
		{"the client's json written with an escape", issue48, "query", `{"\u006ason": ""}`, nil},
		{"the client's json as a nested path segment", "fields[0].json: campo não aceito aqui", "query", `{"fields": [{"json": 1}]}`, nil},
		{"a string value named json", "fields[0].json: campo não aceito aqui", "query", `{"fields": ["json"]}`, nil},
		{"the client's sql does not excuse sqlite", "sqlite: campo não aceito aqui", "query", `{"sql": 1}`, []string{"sqlite"}},
		{"the client's sql excuses sql: ", "sql: campo não aceito aqui", "query", `{"sql": 1}`, nil},
		{"the client's qlite is glued to an s", "sqlite: campo não aceito aqui", "query", `{"qlite": 1}`, []string{"sqlite"}},
		{"the client's sql does not excuse mysql: ", "mysql: erro", "query", `{"sql": 1}`, []string{"sql: "}},
		{"Go's decoding error though the client sent json", "json: cannot unmarshal string into Go struct field Request.appId of type int64",
			"query", `{"json": "x"}`, []string{"cannot unmarshal", "Go struct field"}},
		{"a value quoted as a Go string", `O valor "pq: \"x\"\t" não existe em Vendas.Canal.`, "query", `{"filters": [{"value": "pq: \"x\"\t"}]}`, nil},
		{"a value quoted raw", `A ref "relation "x" não existe nesta Aplicação.`, "query", `{"fields": [{"ref": "relation \"x"}]}`, nil},
		{"a value quoted as JSON with HTML escaped", `por exemplo, {"ref":"pq: \u003cb\u003e"}`, "query", `{"ref": "pq: <b>"}`, nil},
		{"a database error naming a relation", `pq: relation "vendas" does not exist`, "query", `{"ref": "vendas"}`, []string{"pq: ", `relation "`}},
		{"a long key cut after sqlite", long[:80] + "… (110 caracteres): campo não aceito aqui", "query", `{"` + long + `": 1}`, nil},
		{"a long key does not excuse what follows its cut", long[:80] + "… (110 caracteres): driver", "query", `{"` + long + `": 1}`, []string{"driver"}},
		{"the tool's name", `unknown tool "query; SELECT 1"`, "query; SELECT 1", `{}`, nil},
		{"a field named like a source position", "store.go:12: campo não aceito aqui", "query", `{"store.go:12": 1}`, nil},
		{"a source position", "falhou em store.go:123", "query", `{"store": 1}`, []string{"source position e.go:1"}},
		{"a stack", "goroutine 7 [running]:\nmain.f()\n\t/work/main/x.go:12", "query", `{}`, []string{"goroutine", "/work/", "source position x.go:1"}},
		{"a path the client sent", `o arquivo "/tmp/a.ofx" não existe`, "plan_preview", `{"file": "/tmp/a.ofx"}`, nil},
		{"a path the server holds", `open /tmp/caderninho/a.ofx: no such file`, "plan_preview", `{"file": "a.ofx"}`, []string{"/tmp/"}},
		{"a format error", "o valor %!s(MISSING) não existe", "query", `{}`, []string{"%!"}},
		{"a format error the client sent", `o valor "%!s" não existe`, "query", `{"v": "%!s"}`, nil},
		{"two words each sent", `nenhum app para syntax error`, "search_catalog", `{"terms": ["syntax", "error"]}`, nil},
		{"not JSON", "json: erro", "query", `{"json"`, []string{"json: "}},
		{"a term trimmed", `10 resultados para "sqlite", "loja".`, "search_catalog", `{"terms": ["\tsqlite\n", "loja"]}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := leaksIn(tc.answer, clientText(tc.tool, []byte(tc.args)))
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("leaks %q, want %q", got, tc.want)
			}
			if tc.want == nil && len(leaksIn(tc.answer, nil)) == 0 {
				t.Errorf("the answer leaks nothing even when the client sent nothing: the case tests no excuse")
			}
		})
	}
}
