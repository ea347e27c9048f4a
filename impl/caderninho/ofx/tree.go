package ofx

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// node is an OFX element: an aggregate with children, or a data element with a value.
type node struct {
	name     string
	value    string
	leaf     bool
	children []*node
	line     int
}

// child returns the first child named name, or nil.
func (n *node) child(name string) *node {
	for _, c := range n.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

// all returns every child named name.
func (n *node) all(name string) []*node {
	var out []*node
	for _, c := range n.children {
		if c.name == name {
			out = append(out, c)
		}
	}
	return out
}

// text returns the value of the child data element name ("" when absent) and its line.
func (n *node) text(name string) (string, int, bool) {
	c := n.child(name)
	if c == nil {
		return "", n.line, false
	}
	return c.value, c.line, true
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokStart
	tokEnd
	tokText
)

type token struct {
	kind tokKind
	name string // upper case
	self bool   // <NAME/>
	text string
	line int
}

// scanner splits the body into tags and text, counting lines. SGML (OFX 1.x) leaves data
// elements and some aggregates unclosed; XML (OFX 2.x) closes everything. Both go through here.
type scanner struct {
	s       string
	pos     int
	line    int
	peeked  token // when hasPeek; tokens are values: a large file has millions
	hasPeek bool
}

func (sc *scanner) advance(n int) {
	sc.line += strings.Count(sc.s[sc.pos:sc.pos+n], "\n")
	sc.pos += n
}

func (sc *scanner) peek() (token, error) {
	if !sc.hasPeek {
		t, err := sc.scan()
		if err != nil {
			return token{}, err
		}
		sc.peeked, sc.hasPeek = t, true
	}
	return sc.peeked, nil
}

func (sc *scanner) next() (token, error) {
	t, err := sc.peek()
	sc.hasPeek = false
	return t, err
}

func (sc *scanner) scan() (token, error) {
	for {
		if sc.pos >= len(sc.s) {
			return token{kind: tokEOF, line: sc.line}, nil
		}
		rest := sc.s[sc.pos:]
		if rest[0] != '<' {
			n := strings.IndexByte(rest, '<')
			if n < 0 {
				n = len(rest)
			}
			t := token{kind: tokText, text: rest[:n], line: sc.line}
			sc.advance(n)
			return t, nil
		}
		// Comments, processing instructions (<?xml ...?>, <?OFX ...?>) and declarations are skipped.
		for _, skip := range [][2]string{{"<!--", "-->"}, {"<?", "?>"}, {"<!", ">"}} {
			if strings.HasPrefix(rest, skip[0]) {
				end := strings.Index(rest, skip[1])
				if end < 0 {
					return token{}, errorf(sc.line, "%s sem o %s que o fecha", skip[0], skip[1])
				}
				sc.advance(end + len(skip[1]))
				rest = ""
				break
			}
		}
		if rest == "" {
			continue
		}
		end := strings.IndexByte(rest, '>')
		if end < 0 || strings.ContainsAny(rest[1:end], "<\n") {
			return token{}, errorf(sc.line, "tag sem o > que a fecha: %s", quote(rest, 20))
		}
		inner := rest[1:end]
		t := token{kind: tokStart, line: sc.line}
		if strings.HasPrefix(inner, "/") {
			t.kind, inner = tokEnd, inner[1:]
		} else if strings.HasSuffix(inner, "/") {
			t.self, inner = true, inner[:len(inner)-1]
		}
		name := strings.TrimSpace(inner)
		if !validName(name) {
			return token{}, errorf(sc.line, "nome de tag inválido: <%s>", quote(inner, 40))
		}
		t.name = strings.ToUpper(name)
		sc.advance(end + 1)
		return t, nil
	}
}

func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// MaxValueChars bounds the text of one data element (MEMO, NAME, FITID, ...): four times the
// longest the OFX specification allows (MEMO, 255), so what a statement shows in an answer stays
// small. A longer value refuses the file with its line.
const MaxValueChars = 1000

// maxDepth bounds nesting; real statements nest about 7 levels.
const maxDepth = 64

// buildTree parses the body of an OFX file (from its first tag) into a tree under a nameless root.
// A data element is a tag followed by text; an aggregate is a tag followed by other tags. A closing
// tag closes the innermost open element of that name; elements left open inside it must be empty
// (SGML data elements without a value). Anything else is an *Error.
func buildTree(text string) (*node, error) {
	start := strings.IndexByte(text, '<')
	sc := &scanner{s: text, pos: start, line: 1 + strings.Count(text[:start], "\n")}
	root := &node{line: 1}
	stack := []*node{root}
	for {
		t, err := sc.next()
		if err != nil {
			return nil, err
		}
		top := stack[len(stack)-1]
		switch t.kind {
		case tokEOF:
			for i := len(stack) - 1; i > 0; i-- {
				if len(stack[i].children) > 0 {
					return nil, errorf(stack[i].line, "a tag <%s> não foi fechada (o arquivo parece cortado)", stack[i].name)
				}
			}
			if len(root.children) == 0 {
				return nil, errorf(0, "não é um arquivo OFX: não há nenhum elemento")
			}
			return root, nil
		case tokText:
			if s := strings.TrimSpace(t.text); s != "" && len(stack) > 1 {
				return nil, errorf(t.line, "texto fora de um campo dentro de <%s>: %s", top.name, quote(s, 30))
			}
		case tokEnd:
			i := len(stack) - 1
			for i > 0 && stack[i].name != t.name {
				i--
			}
			if i == 0 {
				return nil, errorf(t.line, "</%s> fecha uma tag que não está aberta", t.name)
			}
			for j := len(stack) - 1; j > i; j-- {
				if len(stack[j].children) > 0 {
					return nil, errorf(stack[j].line, "a tag <%s> não foi fechada antes de </%s> na linha %d", stack[j].name, t.name, t.line)
				}
				stack[j].leaf = true
			}
			stack = stack[:i]
		case tokStart:
			n := &node{name: t.name, line: t.line}
			top.children = append(top.children, n)
			if t.self {
				n.leaf = true
				continue
			}
			nt, err := sc.peek()
			if err != nil {
				return nil, err
			}
			if nt.kind == tokText {
				sc.next()
				if v := strings.TrimSpace(nt.text); v != "" {
					if aggregates[n.name] {
						return nil, errorf(n.line, "<%s> deveria conter outros campos, mas tem o valor %s", n.name, quote(v, 30))
					}
					if c := utf8.RuneCountInString(v); c > MaxValueChars {
						return nil, errorf(n.line, "<%s> tem %s caracteres, acima do limite de %s por campo (o OFX prevê até 255 num MEMO "+
							"e 32 num NAME); gere o arquivo de novo no banco ou encurte o texto de <%s> nessa linha",
							n.name, ptbr.Int(int64(c)), ptbr.Int(MaxValueChars), n.name)
					}
					n.leaf, n.value = true, entities(v)
				}
				if nt, err = sc.peek(); err != nil {
					return nil, err
				}
			}
			if nt.kind == tokEnd && nt.name == n.name {
				sc.next()
				n.leaf = true
				continue
			}
			if n.leaf {
				continue
			}
			if len(stack) >= maxDepth {
				return nil, errorf(t.line, "tags aninhadas demais (mais de %d níveis)", maxDepth)
			}
			stack = append(stack, n)
		}
	}
}

var namedEntities = map[string]string{"amp": "&", "lt": "<", "gt": ">", "quot": `"`, "apos": "'", "nbsp": " "}

// entities replaces character references; an unknown or bare & stays as written (banks write
// "M&M" in SGML).
func entities(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		semi := strings.IndexByte(s, ';')
		if semi > 1 && semi <= 10 {
			ref := s[1:semi]
			if v, ok := namedEntities[strings.ToLower(ref)]; ok {
				b.WriteString(v)
				s = s[semi+1:]
				continue
			}
			if strings.HasPrefix(ref, "#") {
				var n uint64
				var err error
				if strings.HasPrefix(ref, "#x") || strings.HasPrefix(ref, "#X") {
					n, err = strconv.ParseUint(ref[2:], 16, 32)
				} else {
					n, err = strconv.ParseUint(ref[1:], 10, 32)
				}
				if err == nil && n > 0 && utf8.ValidRune(rune(n)) {
					b.WriteRune(rune(n))
					s = s[semi+1:]
					continue
				}
			}
		}
		b.WriteByte('&')
		s = s[1:]
	}
}

// quote shows at most n runes of s in a message.
func quote(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return strconv.Quote(string(r[:n]) + "…")
	}
	return strconv.Quote(s)
}
