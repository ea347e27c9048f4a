package workspace

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"
)

// xmlScanner reads the tags and texts of an XML part of a workbook in one pass, without
// building a tree: encoding/xml allocates for every token and reads a text of any length whole,
// while a sheet has millions of small tags and a hostile one a text of a gigabyte. Texts are
// bounded (errTooLong), and so are tags.
type xmlScanner struct {
	br    *bufio.Reader
	lt    bool   // the '<' of the next tag was already read (by text)
	tag   []byte // the current tag between '<' and '>', without them
	name  []byte // its local name (no namespace prefix), inside tag
	end   bool   // </name>
	empty bool   // <name/>
	text  []byte // the last text read
	err   error
}

var (
	errTooLong  = errors.New("value too long")
	errBadXML   = errors.New("malformed XML")
	maxTagBytes = 1 << 16
)

func newXMLScanner(r io.Reader) *xmlScanner {
	return &xmlScanner{br: bufio.NewReaderSize(r, 64<<10)}
}

// next moves to the next start, end or empty-element tag, skipping texts, comments, processing
// instructions and CDATA before it. It returns false at the end of the part or on an error.
func (s *xmlScanner) next() bool {
	for {
		if !s.lt {
			for {
				_, err := s.br.ReadSlice('<')
				if err == nil {
					break
				}
				if err != bufio.ErrBufferFull {
					if err != io.EOF {
						s.err = err
					}
					return false
				}
			}
		}
		s.lt = false
		if !s.readTag() {
			return false
		}
		t := s.tag
		if len(t) == 0 {
			s.err = errBadXML
			return false
		}
		switch t[0] {
		case '?':
			continue
		case '!':
			if !s.skipSpecial() {
				return false
			}
			continue
		case '/':
			s.end, s.empty = true, false
			t = t[1:]
			for len(t) > 0 && isSpace(t[len(t)-1]) {
				t = t[:len(t)-1]
			}
		default:
			s.end = false
			s.empty = t[len(t)-1] == '/'
		}
		n := 0
		for n < len(t) && !isSpace(t[n]) && t[n] != '/' {
			n++
		}
		name := t[:n]
		if i := bytes.LastIndexByte(name, ':'); i >= 0 {
			name = name[i+1:]
		}
		s.name = name
		return true
	}
}

// readTag reads up to the '>' that ends the tag (not one inside a quoted attribute value).
func (s *xmlScanner) readTag() bool {
	s.tag = s.tag[:0]
	var quote byte
	for {
		chunk, err := s.br.ReadSlice('>')
		if err != nil && err != bufio.ErrBufferFull {
			if err == io.EOF {
				err = errBadXML
			}
			s.err = err
			return false
		}
		start := len(s.tag)
		s.tag = append(s.tag, chunk...)
		if len(s.tag) > maxTagBytes {
			s.err = errTooLong
			return false
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if s.tag[0] == '!' { // a comment or CDATA: no attributes
			s.tag = s.tag[:len(s.tag)-1]
			return true
		}
		for _, c := range s.tag[start:] {
			switch {
			case quote == 0 && (c == '"' || c == '\''):
				quote = c
			case c == quote:
				quote = 0
			}
		}
		if quote == 0 {
			s.tag = s.tag[:len(s.tag)-1]
			return true
		}
	}
}

// skipSpecial skips the rest of a comment or CDATA section whose start is in tag (a
// declaration such as DOCTYPE ends at its '>').
func (s *xmlScanner) skipSpecial() bool {
	var prefix, term string
	switch {
	case bytes.HasPrefix(s.tag, []byte("!--")):
		prefix, term = "!--", "--"
	case bytes.HasPrefix(s.tag, []byte("![CDATA[")):
		prefix, term = "![CDATA[", "]]"
	default:
		return true
	}
	tail := append([]byte(nil), s.tag[len(prefix):]...)
	for !bytes.HasSuffix(tail, []byte(term)) {
		chunk, err := s.br.ReadSlice('>')
		if err != nil && err != bufio.ErrBufferFull {
			s.err = errBadXML
			return false
		}
		if len(tail) > 4 {
			tail = tail[len(tail)-4:]
		}
		tail = append(tail, chunk...)
		if err == nil {
			if bytes.HasSuffix(tail[:len(tail)-1], []byte(term)) {
				return true
			}
			tail = append(tail[:0], '>') // a '>' inside, not the end
		}
	}
	return true
}

// is says whether the current tag is a start (or empty) tag named name.
func (s *xmlScanner) is(name string) bool { return !s.end && string(s.name) == name }

// isEnd says whether the current tag is the end tag of name.
func (s *xmlScanner) isEnd(name string) bool { return s.end && string(s.name) == name }

// attr is the value of the current tag's attribute named name (local name), decoded, and
// whether it is there. It points into a buffer the next call may overwrite.
func (s *xmlScanner) attr(name string) ([]byte, bool) {
	sp := 0
	for sp < len(s.tag) && !isSpace(s.tag[sp]) {
		sp++
	}
	t := s.tag[sp:]
	for {
		i := 0
		for i < len(t) && isSpace(t[i]) {
			i++
		}
		t = t[i:]
		eq := bytes.IndexByte(t, '=')
		if eq < 0 {
			return nil, false
		}
		k := eq
		for k > 0 && isSpace(t[k-1]) {
			k--
		}
		key := t[:k]
		if c := bytes.LastIndexByte(key, ':'); c >= 0 {
			key = key[c+1:]
		}
		rest := t[eq+1:]
		for len(rest) > 0 && isSpace(rest[0]) {
			rest = rest[1:]
		}
		if len(rest) == 0 || (rest[0] != '"' && rest[0] != '\'') {
			return nil, false
		}
		end := bytes.IndexByte(rest[1:], rest[0])
		if end < 0 {
			return nil, false
		}
		val := rest[1 : 1+end]
		if string(key) == name {
			if bytes.IndexByte(val, '&') >= 0 {
				out, ok := unescape(nil, val)
				if !ok {
					return nil, false
				}
				return out, true
			}
			return val, true
		}
		t = rest[2+end:]
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// readText reads the text of the current element, which must be a start tag (an empty one has
// none), up to the next tag: entities decoded, CDATA kept as it is, at most limit bytes. It
// leaves the scanner before that tag, so next reads it.
func (s *xmlScanner) readText(limit int) ([]byte, bool) {
	s.text = s.text[:0]
	if s.empty || s.end {
		return s.text, true
	}
	for {
		chunk, err := s.br.ReadSlice('<')
		if err != nil && err != bufio.ErrBufferFull {
			if err == io.EOF {
				err = errBadXML
			}
			s.err = err
			return nil, false
		}
		raw := chunk
		if err == nil {
			raw = chunk[:len(chunk)-1]
		}
		if len(s.text)+len(raw) > 6*limit+64 { // an entity takes up to 6 bytes per byte it stands for
			s.err = errTooLong
			return nil, false
		}
		s.text = append(s.text, raw...)
		if err == bufio.ErrBufferFull {
			continue
		}
		// A CDATA section goes on as text.
		if p, _ := s.br.Peek(8); bytes.Equal(p, []byte("![CDATA[")) {
			s.br.Discard(8)
			mark := len(s.text)
			s.text = append(s.text, "\x00CDATA"...) // a mark unescape skips
			for {
				c, err := s.br.ReadSlice('>')
				if err != nil && err != bufio.ErrBufferFull {
					s.err = errBadXML
					return nil, false
				}
				s.text = append(s.text, c...)
				if len(s.text)-mark > limit+16 {
					s.err = errTooLong
					return nil, false
				}
				if bytes.HasSuffix(s.text, []byte("]]>")) {
					s.text = s.text[:len(s.text)-3]
					break
				}
			}
			s.text = append(s.text, "\x00"...)
			continue
		}
		s.lt = true
		break
	}
	out, ok := unescape(s.text[:0:0], s.text)
	if !ok {
		s.err = errBadXML
		return nil, false
	}
	if len(out) > limit {
		s.err = errTooLong
		return nil, false
	}
	s.text = append(s.text[:0], out...)
	return s.text, true
}

// unescape appends b with its entities decoded to out; a CDATA section (between "\x00CDATA"
// and "\x00", as readText marks it) is copied as it is.
func unescape(out, b []byte) ([]byte, bool) {
	if bytes.IndexByte(b, '&') < 0 && bytes.IndexByte(b, 0) < 0 {
		return append(out, b...), true
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch c {
		case 0:
			j := bytes.IndexByte(b[i+1:], 0)
			if j < 0 {
				return nil, false
			}
			out = append(out, b[i+6:i+1+j]...)
			i += 1 + j
		case '&':
			j := bytes.IndexByte(b[i:], ';')
			if j < 0 {
				return nil, false
			}
			ent := b[i+1 : i+j]
			switch string(ent) {
			case "amp":
				out = append(out, '&')
			case "lt":
				out = append(out, '<')
			case "gt":
				out = append(out, '>')
			case "quot":
				out = append(out, '"')
			case "apos":
				out = append(out, '\'')
			default:
				if len(ent) < 2 || ent[0] != '#' {
					return nil, false
				}
				var n uint64
				var err error
				if ent[1] == 'x' || ent[1] == 'X' {
					n, err = strconv.ParseUint(string(ent[2:]), 16, 32)
				} else {
					n, err = strconv.ParseUint(string(ent[1:]), 10, 32)
				}
				if err != nil || !utf8.ValidRune(rune(n)) {
					return nil, false
				}
				out = utf8.AppendRune(out, rune(n))
			}
			i += j
		default:
			out = append(out, c)
		}
	}
	return out, true
}

// skipElement skips the rest of the current element (a start tag) up to its end tag.
func (s *xmlScanner) skipElement() bool {
	if s.empty || s.end {
		return true
	}
	depth := 1
	for s.next() {
		switch {
		case s.end:
			depth--
		case !s.empty:
			depth++
		}
		if depth == 0 {
			return true
		}
	}
	return false
}
