// Package yamldoc reads a YAML file into the values JSON Schema validation expects, keeping each
// value's line so problems can name file, line and field.
package yamldoc

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/lumo-caderninho/mcp/impl/platform/printable"
)

// Error is one problem in a file, told to the operator: File as given, Line from 1 (0 when
// unknown), Field the YAML path (connections[2].holder), Message in Portuguese.
type Error struct {
	File    string
	Line    int
	Field   string
	Message string
}

// Error is the problem on one line; a file or field name that does not print as itself (a
// control character, a line break) is quoted with its escapes.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(printable.Name(e.File))
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(printable.Name(e.Field) + ": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// Errors is every problem found, ordered by line.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Sort orders the errors by file (first appearance) and line.
func (es Errors) Sort() {
	files := map[string]int{}
	for _, e := range es {
		if _, ok := files[e.File]; !ok {
			files[e.File] = len(files)
		}
	}
	sort.SliceStable(es, func(i, j int) bool {
		if fi, fj := files[es[i].File], files[es[j].File]; fi != fj {
			return fi < fj
		}
		return es[i].Line < es[j].Line
	})
}

// maxNodes bounds the values a document may expand to (aliases can multiply them).
const maxNodes = 1_000_000

// Doc is one parsed YAML file: its node tree (for lines) and its value as encoding/json would
// decode the same data (map[string]any, []any, string, int, float64, bool, nil).
type Doc struct {
	File  string
	Value any
	root  *yaml.Node
	errs  Errors
}

var yamlLine = regexp.MustCompile(`line (\d+): `)

// Read reads and parses a YAML file; problems (unreadable, invalid YAML, empty, repeated keys)
// come back as Errors.
func Read(fsys fs.FS, file string) (*Doc, Errors) {
	b, err := fs.ReadFile(fsys, file)
	if err != nil {
		msg := "o arquivo não pôde ser lido: " + err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			msg = "o arquivo não existe"
		}
		return nil, Errors{{File: file, Message: msg}}
	}
	var n yaml.Node
	if err := yaml.Unmarshal(b, &n); err != nil {
		line := 0
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		detail := yamlLine.ReplaceAllString(strings.TrimPrefix(err.Error(), "yaml: "), "")
		return nil, Errors{{File: file, Line: line, Message: "o YAML não pôde ser lido (" + detail + "); confira a indentação e as aspas"}}
	}
	d := &Doc{File: file, root: &n}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		d.root = n.Content[0]
	}
	if n.Kind == 0 || d.root.Kind == yaml.DocumentNode || d.root.ShortTag() == "!!null" {
		return nil, Errors{{File: file, Message: "o arquivo está vazio"}}
	}
	budget := maxNodes
	v, err := d.convert(d.root, nil, &budget)
	if err != nil {
		return nil, append(d.errs, &Error{File: file, Message: err.Error()})
	}
	if len(d.errs) > 0 {
		return nil, d.errs
	}
	d.Value = v
	return d, nil
}

func (d *Doc) convert(n *yaml.Node, path []string, budget *int) (any, error) {
	if *budget--; *budget < 0 {
		return nil, fmt.Errorf("o documento se expande para mais de %d valores; simplifique as âncoras (&) e aliases (*)", maxNodes)
	}
	switch n.Kind {
	case yaml.AliasNode:
		return d.convert(n.Alias, path, budget)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return d.convert(n.Content[0], path, budget)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for i, c := range n.Content {
			v, err := d.convert(c, append(path, strconv.Itoa(i)), budget)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		lines := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			for k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			key := k.Value
			p := append(path[:len(path):len(path)], key)
			if first, dup := lines[key]; dup {
				d.errs = append(d.errs, &Error{File: d.File, Line: n.Content[i].Line, Field: FieldName(p),
					Message: fmt.Sprintf("a chave %q aparece de novo (a primeira está na linha %d); deixe uma só", key, first)})
				continue
			}
			lines[key] = n.Content[i].Line
			v, err := d.convert(n.Content[i+1], p, budget)
			if err != nil {
				return nil, err
			}
			out[key] = v
		}
		return out, nil
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err == nil {
			return b, nil
		}
	case "!!int":
		var i int64
		if err := n.Decode(&i); err == nil {
			return int(i), nil
		}
		var f float64
		if err := n.Decode(&f); err == nil {
			return f, nil
		}
	case "!!float":
		var f float64
		if err := n.Decode(&f); err == nil {
			return f, nil
		}
	}
	return n.Value, nil
}

// Line finds the line of the value at path (JSON pointer tokens), stopping at the deepest node
// that exists, so a missing field points at the object that should hold it.
func (d *Doc) Line(path []string) int {
	n := d.root
	line := n.Line
	for _, tok := range path {
		for n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		switch n.Kind {
		case yaml.MappingNode:
			found := false
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == tok {
					line, n, found = n.Content[i].Line, n.Content[i+1], true
					break
				}
			}
			if !found {
				return line
			}
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Content) {
				return line
			}
			n = n.Content[i]
			line = n.Line
		default:
			return line
		}
	}
	return line
}

// ErrAt builds an error for the field at path.
func (d *Doc) ErrAt(path []string, format string, args ...any) *Error {
	return &Error{File: d.File, Line: d.Line(path), Field: FieldName(path), Message: fmt.Sprintf(format, args...)}
}

// FieldName spells JSON pointer tokens the way people read them: connections[2].holder.
func FieldName(path []string) string {
	var b strings.Builder
	for _, t := range path {
		if _, err := strconv.Atoi(t); err == nil {
			b.WriteString("[" + t + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

// Path builds a path from keys (string) and indexes (int).
func Path(parts ...any) []string {
	out := make([]string, len(parts))
	for i, x := range parts {
		switch v := x.(type) {
		case string:
			out[i] = v
		case int:
			out[i] = strconv.Itoa(v)
		default:
			panic(fmt.Sprintf("yamldoc: path part %T", x))
		}
	}
	return out
}
