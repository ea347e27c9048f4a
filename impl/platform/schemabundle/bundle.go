// Package schemabundle makes self-contained copies of JSON Schemas whose $ref point into other files.
package schemabundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"reflect"
	"sort"
	"strings"
)

const defsPrefix = "/$defs/"

// Bundle returns a self-contained copy of the schema dir/file: every $ref of the form
// "other.json#/$defs/X" becomes "#/$defs/X" and each definition it needs (transitively, including
// the refs inside copied definitions) is copied into the document's own $defs. Nothing else in the
// document changes. A copied definition whose name is already taken by a different definition is an
// error. The output is compact JSON with sorted keys, so it is stable.
func Bundle(fsys fs.FS, dir, file string) (json.RawMessage, error) {
	b := &bundler{fsys: fsys, dir: dir, root: file, docs: map[string]map[string]any{}}
	doc, err := b.load(file)
	if err != nil {
		return nil, err
	}
	if err := b.rewrite(doc, file); err != nil {
		return nil, fmt.Errorf("bundling %s/%s: %w", dir, file, err)
	}
	if err := b.copyDefs(doc); err != nil {
		return nil, fmt.Errorf("bundling %s/%s: %w", dir, file, err)
	}
	return Marshal(doc)
}

// Tools lists the tool names in dir: the files named <tool>.input.json, sorted.
func Tools(fsys fs.FS, dir string) ([]string, error) {
	matches, err := fs.Glob(fsys, path.Join(dir, "*.input.json"))
	if err != nil {
		return nil, fmt.Errorf("listing tools in %s: %w", dir, err)
	}
	tools := make([]string, 0, len(matches))
	for _, m := range matches {
		tools = append(tools, strings.TrimSuffix(path.Base(m), ".input.json"))
	}
	sort.Strings(tools)
	return tools, nil
}

// Decode parses a JSON document keeping numbers exact (as json.Number).
func Decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

// Marshal encodes v as compact JSON with sorted object keys and without HTML escaping.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// defKey names one definition: the file that declares it and its name in that file's $defs.
type defKey struct{ file, name string }

type bundler struct {
	fsys    fs.FS
	dir     string
	root    string
	docs    map[string]map[string]any
	pending []defKey
	queued  map[defKey]bool
}

// load parses dir/file; every call returns a fresh copy, so callers may change it.
func (b *bundler) load(file string) (map[string]any, error) {
	data, err := fs.ReadFile(b.fsys, path.Join(b.dir, file))
	if err != nil {
		return nil, fmt.Errorf("reading schema: %w", err)
	}
	v, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("parsing %s/%s: %w", b.dir, file, err)
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("parsing %s/%s: not a JSON object", b.dir, file)
	}
	return doc, nil
}

// def returns a fresh copy of the definition k.
func (b *bundler) def(k defKey) (any, error) {
	doc, ok := b.docs[k.file]
	if !ok {
		var err error
		if doc, err = b.load(k.file); err != nil {
			return nil, err
		}
		b.docs[k.file] = doc
	}
	defs, _ := doc["$defs"].(map[string]any)
	d, ok := defs[k.name]
	if !ok {
		return nil, fmt.Errorf("%s has no $defs/%s", k.file, k.name)
	}
	return clone(d), nil
}

// rewrite points every cross-file $ref inside schema (which lives in file base) at the root's
// $defs and queues the definitions it needs.
func (b *bundler) rewrite(schema any, base string) error {
	return Walk(schema, func(m map[string]any) error {
		ref, ok := m["$ref"].(string)
		if !ok {
			return nil
		}
		target, frag, err := SplitRef(ref, base)
		if err != nil {
			return err
		}
		if target == b.root && base == b.root {
			if !strings.HasPrefix(ref, "#") {
				m["$ref"] = "#" + frag
			}
			return nil
		}
		name, ok := DefName(frag)
		if !ok {
			return fmt.Errorf("$ref %q in %s: only refs to %s<name> can be bundled", ref, base, defsPrefix)
		}
		m["$ref"] = "#" + defsPrefix + escapePointer(name)
		k := defKey{target, name}
		if b.queued == nil {
			b.queued = map[defKey]bool{}
		}
		if !b.queued[k] {
			b.queued[k] = true
			b.pending = append(b.pending, k)
		}
		return nil
	})
}

// copyDefs copies every queued definition (and those they need) into doc's $defs.
func (b *bundler) copyDefs(doc map[string]any) error {
	defs, _ := doc["$defs"].(map[string]any)
	from := map[string]defKey{}
	for name := range defs {
		from[name] = defKey{b.root, name}
	}
	for len(b.pending) > 0 {
		k := b.pending[0]
		b.pending = b.pending[1:]
		if k.file == b.root {
			if _, ok := defs[k.name]; !ok {
				return fmt.Errorf("%s has no $defs/%s", k.file, k.name)
			}
			continue
		}
		d, err := b.def(k)
		if err != nil {
			return err
		}
		if err := b.rewrite(d, k.file); err != nil {
			return err
		}
		if prev, ok := from[k.name]; ok {
			if !reflect.DeepEqual(defs[k.name], d) {
				return fmt.Errorf("$defs/%s of %s differs from $defs/%s of %s", k.name, k.file, k.name, prev.file)
			}
			continue
		}
		if defs == nil {
			defs = map[string]any{}
			doc["$defs"] = defs
		}
		defs[k.name] = d
		from[k.name] = k
	}
	return nil
}

// SplitRef resolves ref, found in file base, to the file it points into and its fragment
// (a JSON pointer such as "/$defs/X", or "" for the whole document). Only refs to sibling files
// (relative paths without scheme or host) are supported.
func SplitRef(ref, base string) (file, fragment string, err error) {
	u, err := url.Parse(ref)
	if err != nil {
		return "", "", fmt.Errorf("$ref %q in %s: %w", ref, base, err)
	}
	if u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/") {
		return "", "", fmt.Errorf("$ref %q in %s: only relative refs are supported", ref, base)
	}
	file = base
	if u.Path != "" {
		file = path.Join(path.Dir(base), u.Path)
	}
	return file, u.Fragment, nil
}

// DefName returns X for the fragment "/$defs/X" (unescaping the JSON pointer token).
func DefName(fragment string) (string, bool) {
	tok, ok := strings.CutPrefix(fragment, defsPrefix)
	if !ok || tok == "" || strings.Contains(tok, "/") {
		return "", false
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(tok), true
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// Walk calls visit for schema and every subschema inside it (depth first, parents before their
// subschemas). Values of keywords that hold data (const, enum, default, examples, ...) are not
// visited. visit may change the map it gets; the subschemas it then holds are visited.
func Walk(schema any, visit func(m map[string]any) error) error {
	m, ok := schema.(map[string]any)
	if !ok {
		return nil // a boolean schema
	}
	if err := visit(m); err != nil {
		return err
	}
	for _, kw := range sortedKeys(m) {
		v := m[kw]
		switch kw {
		case "$defs", "definitions", "properties", "patternProperties", "dependentSchemas":
			sub, _ := v.(map[string]any)
			for _, name := range sortedKeys(sub) {
				if err := Walk(sub[name], visit); err != nil {
					return err
				}
			}
		case "allOf", "anyOf", "oneOf", "prefixItems":
			sub, _ := v.([]any)
			for _, s := range sub {
				if err := Walk(s, visit); err != nil {
					return err
				}
			}
		case "items", "additionalProperties", "unevaluatedItems", "unevaluatedProperties",
			"contains", "propertyNames", "not", "if", "then", "else", "contentSchema":
			if err := Walk(v, visit); err != nil {
				return err
			}
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func clone(v any) any {
	switch v := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(v))
		for k, e := range v {
			c[k] = clone(e)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = clone(e)
		}
		return c
	default:
		return v
	}
}
