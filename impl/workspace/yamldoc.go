package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxYAMLNodes bounds the values a document may expand to (aliases can multiply them).
const maxYAMLNodes = 1_000_000

// doc is one parsed YAML file: its node tree (for line numbers) and its value as JSON would
// decode it (for schema validation and decoding).
type doc struct {
	file  string
	root  *yaml.Node // the top value node
	value any
	errs  []*Error
}

var yamlLine = regexp.MustCompile(`line (\d+): `)

// readDoc reads and parses a YAML file. Problems are returned as *Error values for the file.
func readDoc(fsys fs.FS, file string) (*doc, []*Error) {
	b, err := fs.ReadFile(fsys, file)
	if err != nil {
		msg := "o arquivo não pôde ser lido: " + err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			msg = "o arquivo não existe"
		}
		return nil, []*Error{{File: file, Message: msg}}
	}
	var n yaml.Node
	if err := yaml.Unmarshal(b, &n); err != nil {
		line := 0
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		detail := yamlLine.ReplaceAllString(strings.TrimPrefix(err.Error(), "yaml: "), "")
		return nil, []*Error{{File: file, Line: line, Message: "o YAML não pôde ser lido (" + detail + "); confira a indentação e as aspas"}}
	}
	d := &doc{file: file, root: &n}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		d.root = n.Content[0]
	}
	if n.Kind == 0 || d.root.Kind == yaml.DocumentNode || d.root.ShortTag() == "!!null" {
		return nil, []*Error{{File: file, Message: "o arquivo está vazio"}}
	}
	budget := maxYAMLNodes
	v, err := d.convert(d.root, nil, &budget)
	if err != nil {
		return nil, append(d.errs, &Error{File: file, Message: err.Error()})
	}
	if len(d.errs) > 0 {
		return nil, d.errs
	}
	d.value = v
	return d, nil
}

// convert turns a node into the value encoding/json would produce for the same data:
// map[string]any, []any, string, int, float64, bool or nil. Timestamps stay text.
func (d *doc) convert(n *yaml.Node, path []string, budget *int) (any, error) {
	if *budget--; *budget < 0 {
		return nil, fmt.Errorf("o documento se expande para mais de %d valores; simplifique as âncoras (&) e aliases (*)", maxYAMLNodes)
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
				d.errs = append(d.errs, &Error{File: d.file, Line: n.Content[i].Line, Field: fieldName(p),
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

// line finds the line of the value at path (JSON pointer tokens). It stops at the deepest node
// that exists, so a missing field points at the object that should hold it. Map entries answer
// with the key's line.
func (d *doc) line(path []string) int {
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

// errAt builds an error for the field at path.
func (d *doc) errAt(path []string, format string, args ...any) *Error {
	return &Error{File: d.file, Line: d.line(path), Field: fieldName(path), Message: fmt.Sprintf(format, args...)}
}

// fieldName spells JSON pointer tokens the way people read them: tables[0].columns[2].type.
func fieldName(path []string) string {
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

// p builds a path from keys and indexes.
func p(parts ...any) []string {
	out := make([]string, len(parts))
	for i, x := range parts {
		switch v := x.(type) {
		case string:
			out[i] = v
		case int:
			out[i] = strconv.Itoa(v)
		default:
			panic(fmt.Sprintf("workspace: path part %T", x))
		}
	}
	return out
}
