package ofx

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

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
	// where the peeked token starts
	peekPos, peekLine int
}

// mark is a place in the text: the start of a token, and its line.
type mark struct{ pos, line int }

// at is where the next token (the peeked one, if any) starts.
func (sc *scanner) at() mark {
	if sc.hasPeek {
		return mark{sc.peekPos, sc.peekLine}
	}
	return mark{sc.pos, sc.line}
}

// seek continues scanning at m, forgetting any peeked token.
func (sc *scanner) seek(m mark) {
	sc.pos, sc.line, sc.hasPeek = m.pos, m.line, false
}

func (sc *scanner) advance(n int) {
	sc.line += strings.Count(sc.s[sc.pos:sc.pos+n], "\n")
	sc.pos += n
}

// peek returns the next token without consuming it; the token is the scanner's until the next
// call (tokens are not copied: a large file has millions).
func (sc *scanner) peek() (*token, error) {
	if !sc.hasPeek {
		sc.peekPos, sc.peekLine = sc.pos, sc.line
		if err := sc.scan(&sc.peeked); err != nil {
			return nil, err
		}
		sc.hasPeek = true
	}
	return &sc.peeked, nil
}

func (sc *scanner) next() (token, error) {
	t, err := sc.peek()
	if err != nil {
		return token{}, err
	}
	sc.hasPeek = false
	return *t, nil
}

// skips are the comments, processing instructions (<?xml ...?>, <?OFX ...?>) and declarations,
// which are skipped.
var skips = [][2]string{{"<!--", "-->"}, {"<?", "?>"}, {"<!", ">"}}

func (sc *scanner) scan(t *token) error {
	for {
		if sc.pos >= len(sc.s) {
			*t = token{kind: tokEOF, line: sc.line}
			return nil
		}
		rest := sc.s[sc.pos:]
		if rest[0] != '<' {
			n := strings.IndexByte(rest, '<')
			if n < 0 {
				n = len(rest)
			}
			*t = token{kind: tokText, text: rest[:n], line: sc.line}
			sc.advance(n)
			return nil
		}
		if name, end, ok := plainTag(rest); ok {
			// The common tag, <NAME> or </NAME> in capitals: what tag would read, without its
			// searches.
			*t = token{kind: tokStart, name: name, line: sc.line}
			if rest[1] == '/' {
				t.kind = tokEnd
			}
			sc.pos += end + 1
			return nil
		}
		if len(rest) > 1 && (rest[1] == '!' || rest[1] == '?') {
			for _, skip := range skips {
				if strings.HasPrefix(rest, skip[0]) {
					end := strings.Index(rest, skip[1])
					if end < 0 {
						return errorf(sc.line, "%s sem o %s que o fecha", skip[0], skip[1])
					}
					sc.advance(end + len(skip[1]))
					rest = ""
					break
				}
			}
			if rest == "" {
				continue
			}
		}
		end, err := tag(rest, t, sc.line)
		if err != nil {
			return err
		}
		sc.pos += end + 1 // a tag has no newline
		return nil
	}
}

// tag reads the tag at the start of rest (not a comment nor a declaration) into t and returns the
// index of its '>'.
func tag(rest string, t *token, line int) (int, error) {
	end := strings.IndexByte(rest, '>')
	if end < 0 || strings.IndexByte(rest[1:end], '<') >= 0 || strings.IndexByte(rest[1:end], '\n') >= 0 {
		return 0, errorf(line, "tag sem o > que a fecha: %s", quote(rest, 20))
	}
	inner := rest[1:end]
	*t = token{kind: tokStart, line: line}
	if strings.HasPrefix(inner, "/") {
		t.kind, inner = tokEnd, inner[1:]
	} else if strings.HasSuffix(inner, "/") {
		t.self, inner = true, inner[:len(inner)-1]
	}
	name := strings.TrimSpace(inner)
	if !validName(name) {
		return 0, errorf(line, "nome de tag inválido: <%s>", quote(inner, 40))
	}
	t.name = strings.ToUpper(name)
	return end, nil
}

// plainTag reads a tag at the start of rest written <NAME> or </NAME>, NAME of capitals, digits,
// '.', '_' or '-' and at most 64 long: its name and the index of its '>'. Anything else (lower
// case, spaces, <NAME/>, a broken tag) is not plain: tag reads it.
func plainTag(rest string) (name string, end int, ok bool) {
	from := 1
	if len(rest) > 1 && rest[1] == '/' {
		from = 2
	}
	for i := from; i < len(rest) && i-from <= 64; i++ {
		c := rest[i]
		switch {
		case c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-':
		case c == '>' && i > from:
			return rest[from:i], i, true
		default:
			return "", 0, false
		}
	}
	return "", 0, false
}

func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
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
