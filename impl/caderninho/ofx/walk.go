package ofx

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// The body of a file is an element tree: a data element is a tag followed by text; an aggregate
// is a tag followed by other tags. A closing tag closes the innermost open element of that name;
// elements left open inside it must be empty (SGML data elements without a value). The tree of a
// large file would be many times the file, so it is never built: check reads the whole body once
// for the errors of its shape, then elements are read again from the text as they are visited
// (node), each visit scanning only the element it reads.

// bigSpan is the content size from which check remembers where an element ends, so later visits
// jump over it instead of scanning it again. Few elements are that large (a statement, its
// transaction list), so the memory stays small.
const bigSpan = 64 << 10

// frame is an open element while checking.
type frame struct {
	name    string
	line    int
	kids    bool
	content mark
}

// body is a checked file body, ready to be visited.
type body struct {
	src  string
	root *node
	ends map[int]mark // content start of a large element -> the token that ends it
	// scratch collects the children of one element at a time; txKids holds those of the
	// transaction being read, reused for the next one
	scratch, txKids []node
	// visit, when set, is given every transaction as the check reads it, with the index of its
	// statement (read: the statements read so far)
	visit func(i int, t *Transaction) error
	read  int
	// org and fid are the first sign-on's FI (see institution)
	org, fid string
}

// check reads the body of an OFX file (from its first tag) and returns the error of its shape
// that building its tree would have met first, or the body ready to be visited. Anything else
// than the tree described above is an *Error.
func check(text string) (*body, error) {
	start := strings.IndexByte(text, '<')
	sc := &scanner{s: text, pos: start, line: 1 + strings.Count(text[:start], "\n")}
	b := &body{src: text, ends: map[int]mark{}}
	b.root = &node{line: 1, open: true, content: mark{sc.pos, sc.line}}
	stack := []frame{{line: 1}}
	closed := func(f frame, at mark) {
		if at.pos-f.content.pos >= bigSpan {
			b.ends[f.content.pos] = at
		}
	}
	for {
		at := sc.at()
		t, err := sc.next()
		if err != nil {
			return nil, err
		}
		top := &stack[len(stack)-1]
		switch t.kind {
		case tokEOF:
			for i := len(stack) - 1; i > 0; i-- {
				if stack[i].kids {
					return nil, errorf(stack[i].line, "a tag <%s> não foi fechada (o arquivo parece cortado)", stack[i].name)
				}
			}
			if !stack[0].kids {
				return nil, errorf(0, "não é um arquivo OFX: não há nenhum elemento")
			}
			for i := len(stack) - 1; i > 0; i-- {
				closed(stack[i], at)
			}
			return b, nil
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
				if stack[j].kids {
					return nil, errorf(stack[j].line, "a tag <%s> não foi fechada antes de </%s> na linha %d", stack[j].name, t.name, t.line)
				}
			}
			for j := len(stack) - 1; j >= i; j-- {
				closed(stack[j], at)
			}
			stack = stack[:i]
		case tokStart:
			top.kids = true
			if t.self {
				continue
			}
			nt, err := sc.peek()
			if err != nil {
				return nil, err
			}
			leaf := false
			if nt.kind == tokText {
				sc.next()
				if v := strings.TrimSpace(nt.text); v != "" {
					if aggregates[t.name] {
						return nil, errorf(t.line, "<%s> deveria conter outros campos, mas tem o valor %s", t.name, quote(v, 30))
					}
					if c := utf8.RuneCountInString(v); c > MaxValueChars {
						return nil, errorf(t.line, "<%s> tem %s caracteres, acima do limite de %s por campo (o OFX prevê até 255 num MEMO "+
							"e 32 num NAME); gere o arquivo de novo no banco ou encurte o texto de <%s> nessa linha",
							t.name, ptbr.Int(int64(c)), ptbr.Int(MaxValueChars), t.name)
					}
					leaf = true
				}
				if nt, err = sc.peek(); err != nil {
					return nil, err
				}
			}
			if nt.kind == tokEnd && nt.name == t.name {
				sc.next()
				continue
			}
			if leaf {
				continue
			}
			if len(stack) >= maxDepth {
				return nil, errorf(t.line, "tags aninhadas demais (mais de %d níveis)", maxDepth)
			}
			stack = append(stack, frame{name: t.name, line: t.line, content: sc.at()})
		}
	}
}

// node is an element of a checked body, found by visiting its parent.
type node struct {
	name    string
	value   string
	line    int
	open    bool // it stayed open after its tag: it may have children
	content mark // where its children start, when open
	end     mark // the token that ends it, once its children were all visited
	ended   bool
	kids    []node // all its children, once visited, when they are few
	hasKids bool
}

// maxKept is how many children of an element are kept after a visit: the fields of a
// transaction or a statement. An element with more (a transaction list) is scanned at each visit.
const maxKept = 64

// each visits n's children in order until fn returns false or an error. c is fn's during the
// call only: a caller that keeps a child keeps a copy (a large statement has millions).
func (b *body) each(n *node, fn func(c *node) (bool, error)) error {
	if n.hasKids {
		for i := range n.kids {
			if more, err := fn(&n.kids[i]); err != nil || !more {
				return err
			}
		}
		return nil
	}
	if !n.open {
		return nil
	}
	if !n.ended {
		// Keep the children of a small element: its fields are looked up one by one. One
		// element is collected at a time (fn does not descend), so the buffer is shared.
		kids, few, err := b.collect(n, b.scratch[:0])
		b.scratch = kids[:0]
		if err != nil {
			return err
		}
		if few {
			n.kids, n.hasKids = slices.Clone(kids), true
			return b.each(n, fn)
		}
	}
	return b.scan(n, fn)
}

// collect appends n's children to kids while they are at most maxKept, and says whether they
// were (then n is ended and kids holds them all).
func (b *body) collect(n *node, kids []node) ([]node, bool, error) {
	err := b.scan(n, func(c *node) (bool, error) {
		kids = append(kids, *c)
		return len(kids) <= maxKept, nil
	})
	return kids, err == nil && len(kids) <= maxKept, err
}

// scan visits n's children by reading its content again, as check read it.
func (b *body) scan(n *node, fn func(c *node) (bool, error)) error {
	// The elements opened inside n and still open. The body was checked: a closing tag that
	// closes none of them closes n or one of its parents.
	var open [8]string
	names := open[:0]
	sc := &scanner{s: b.src, pos: n.content.pos, line: n.content.line}
	c := new(node) // each direct child in turn
	for {
		at := sc.at()
		t, err := sc.next()
		if err != nil {
			return err
		}
		switch t.kind {
		case tokEOF:
			n.end, n.ended = at, true
			return nil
		case tokEnd:
			i := len(names) - 1
			for i >= 0 && names[i] != t.name {
				i--
			}
			if i < 0 {
				n.end, n.ended = at, true
				return nil
			}
			names = names[:i]
		case tokStart:
			direct := len(names) == 0
			if direct {
				*c = node{name: t.name, line: t.line}
			}
			if t.self {
				if direct {
					if more, err := fn(c); err != nil || !more {
						return err
					}
				}
				continue
			}
			nt, err := sc.peek()
			if err != nil {
				return err
			}
			leaf := false
			if nt.kind == tokText {
				sc.next()
				if v := strings.TrimSpace(nt.text); v != "" {
					leaf = true
					if direct {
						c.value = entities(v)
					}
				}
				if nt, err = sc.peek(); err != nil {
					return err
				}
			}
			if nt.kind == tokEnd && nt.name == t.name {
				sc.next()
				leaf = true
			}
			content := sc.at()
			if direct {
				if !leaf {
					c.open, c.content = true, content
				}
				if more, err := fn(c); err != nil || !more {
					return err
				}
			}
			if leaf {
				continue
			}
			names = append(names, t.name)
			// Jump over what was read already: a child fn visited through, or a large element.
			if direct && c.ended {
				sc.seek(c.end)
			} else if end, ok := b.ends[content.pos]; ok {
				sc.seek(end)
			}
		}
	}
}

// child returns n's first child named name, or nil.
func (b *body) child(n *node, name string) (*node, error) {
	var found *node
	err := b.each(n, func(c *node) (bool, error) {
		if c.name == name {
			cp := *c
			found = &cp
			return false, nil
		}
		return true, nil
	})
	return found, err
}

// all visits every child of n named name.
func (b *body) all(n *node, name string, fn func(c *node) error) error {
	return b.each(n, func(c *node) (bool, error) {
		if c.name != name {
			return true, nil
		}
		return true, fn(c)
	})
}

// text returns the value of n's child data element name ("" when absent) and its line (n's when
// absent).
func (b *body) text(n *node, name string) (value string, line int, ok bool, err error) {
	line = n.line
	err = b.each(n, func(c *node) (bool, error) {
		if c.name == name {
			value, line, ok = c.value, c.line, true
			return false, nil
		}
		return true, nil
	})
	return value, line, ok, err
}
