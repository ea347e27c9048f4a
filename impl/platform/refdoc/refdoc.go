// Package refdoc renders the reference page of each tool from its published schemas (the tool's
// description, its arguments and result fields with types, bounds and descriptions, and the
// examples the schemas carry; Markdown committed under gen/docs, HTML served at /docs/), and of
// each configuration file from its schema (every field with type, default, bounds and example).
package refdoc

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Tool is what tools/list says of a tool besides its schemas.
type Tool struct {
	Name, Title, Description string
	ReadOnly                 bool
}

// Doc is one tool's reference.
type Doc struct {
	Server string
	Tool   Tool
	Input  Section
	Output []Section // the result shapes, then the error
	// Calls and Results are the schemas' examples, as indented JSON.
	Calls, Results []string
}

// Section is a table of fields.
type Section struct {
	Title       string
	Description string
	Fields      []Field
}

// Field is one row: a property, with its path from the section's root.
type Field struct {
	Path        string // e.g. fields[].ref
	Type        string
	Required    bool
	Description string
	Bounds      string
}

// maxDepth bounds how deep nested objects are described (a cycle of $refs ends there too).
const maxDepth = 6

// Build reads the tool's bundled input and output schemas (self-contained, with local $defs).
func Build(server string, t Tool, input, output []byte) (*Doc, error) {
	var in, out map[string]any
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, fmt.Errorf("%s input schema: %w", t.Name, err)
	}
	if err := json.Unmarshal(output, &out); err != nil {
		return nil, fmt.Errorf("%s output schema: %w", t.Name, err)
	}
	d := &Doc{Server: server, Tool: t}
	inW := walker{root: in}
	d.Input = Section{Title: "Argumentos", Description: str(in["description"])}
	inW.fields(&d.Input, in, "", 0)
	outW := walker{root: out}
	branches := []any{out}
	if one, ok := out["oneOf"].([]any); ok {
		branches = one
	}
	results := 0
	for _, b := range branches {
		if !isError(outW.resolve(b)) {
			results++
		}
	}
	n := 0
	for _, b := range branches {
		s := outW.resolve(b)
		sec := Section{Title: "Resultado", Description: str(s["description"])}
		switch {
		case isError(s):
			sec.Title = "Erro"
		case results > 1:
			n++
			sec.Title = fmt.Sprintf("Resultado %d", n)
			if t := str(s["title"]); t != "" {
				sec.Title = t
			} else if k, v, ok := outW.discriminator(s); ok {
				sec.Title = fmt.Sprintf("Resultado com %s = %s", k, jsonText(v))
			}
		}
		outW.fields(&sec, s, "", 0)
		d.Output = append(d.Output, sec)
	}
	if len(branches) == 1 && str(out["description"]) != "" {
		d.Output[0].Description = str(out["description"])
	}
	var err error
	if d.Calls, err = examples(in, func(ex any) any { return map[string]any{"name": t.Name, "arguments": ex} }); err != nil {
		return nil, err
	}
	if d.Results, err = examples(out, func(ex any) any { return ex }); err != nil {
		return nil, err
	}
	return d, nil
}

// discriminator is the first property of s that holds a constant, which tells its shapes apart.
func (w walker) discriminator(s map[string]any) (string, any, bool) {
	props, _ := s["properties"].(map[string]any)
	for _, k := range sortedKeys(props) {
		if c, ok := w.resolve(props[k])["const"]; ok {
			return k, c, true
		}
	}
	return "", nil, false
}

// isError says whether s is the error document: its only property is error.
func isError(s map[string]any) bool {
	props, _ := s["properties"].(map[string]any)
	_, ok := props["error"]
	return ok && len(props) == 1
}

func examples(s map[string]any, wrap func(any) any) ([]string, error) {
	list, _ := s["examples"].([]any)
	var out []string
	for _, ex := range list {
		b, err := json.MarshalIndent(wrap(ex), "", "  ")
		if err != nil {
			return nil, err
		}
		out = append(out, string(b))
	}
	return out, nil
}

type walker struct{ root map[string]any }

// resolve follows local $refs (#/$defs/name), merging the referring schema's own description.
func (w walker) resolve(v any) map[string]any {
	s, _ := v.(map[string]any)
	for range maxDepth {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		if !ok {
			return s
		}
		defs, _ := w.root["$defs"].(map[string]any)
		target, _ := defs[name].(map[string]any)
		if target == nil {
			return s
		}
		merged := map[string]any{}
		for k, v := range target {
			merged[k] = v
		}
		for k, v := range s {
			if k != "$ref" {
				merged[k] = v
			}
		}
		s = merged
	}
	return s
}

// fields adds a row per property of s (an object), descending into objects and arrays of objects.
func (w walker) fields(sec *Section, s map[string]any, prefix string, depth int) {
	if depth > maxDepth {
		return
	}
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	for _, r := range list(s["required"]) {
		required[str(r)] = true
	}
	for _, name := range sortedKeys(props) {
		p := w.resolve(props[name])
		path := prefix + name
		sec.Fields = append(sec.Fields, Field{Path: path, Type: w.typeOf(p), Required: required[name],
			Description: w.description(p), Bounds: bounds(p)})
		w.descend(sec, p, path, depth)
	}
}

func (w walker) descend(sec *Section, p map[string]any, path string, depth int) {
	switch {
	case p["properties"] != nil:
		w.fields(sec, p, path+".", depth+1)
	case p["items"] != nil:
		items := w.resolve(p["items"])
		if items["properties"] != nil {
			w.fields(sec, items, path+"[].", depth+1)
		}
		for _, b := range list(items["oneOf"]) { // items of several shapes: each shape's fields
			if bs := w.resolve(b); bs["properties"] != nil {
				w.fields(sec, bs, path+"[].", depth+1)
			}
		}
	}
	for _, b := range list(p["oneOf"]) {
		if bs := w.resolve(b); bs["properties"] != nil {
			w.fields(sec, bs, path+".", depth+1)
		}
	}
}

// description is the field's, or, for a field that is one of several shapes, the shapes'.
func (w walker) description(p map[string]any) string {
	return strings.TrimSpace(str(p["description"]))
}

// typeOf names a schema's type in Portuguese, following oneOf and array items.
func (w walker) typeOf(p map[string]any) string {
	if c, ok := p["const"]; ok {
		return "constante " + jsonText(c)
	}
	if e := list(p["enum"]); len(e) > 0 {
		var vs []string
		for _, v := range e {
			vs = append(vs, jsonText(v))
		}
		return "um de " + strings.Join(vs, ", ")
	}
	if one := list(p["oneOf"]); len(one) > 0 {
		var ts []string
		for _, b := range one {
			if t := w.typeOf(w.resolve(b)); !slices.Contains(ts, t) {
				ts = append(ts, t)
			}
		}
		return strings.Join(ts, " ou ")
	}
	var names []string
	for _, t := range typeList(p["type"]) {
		switch t {
		case "array":
			item := "valores"
			if it := w.resolve(p["items"]); it != nil {
				item = w.typeOf(it)
			}
			if item == "objeto" {
				item = "objetos"
			}
			names = append(names, "lista de "+item)
		case "null":
			names = append(names, "null")
		default:
			names = append(names, typeName(t, str(p["format"])))
		}
	}
	if len(names) == 0 {
		if p["properties"] != nil {
			return "objeto"
		}
		return "qualquer valor"
	}
	return strings.Join(names, " ou ")
}

func typeName(t, format string) string {
	n := map[string]string{"string": "texto", "integer": "inteiro", "number": "número", "boolean": "booleano",
		"object": "objeto", "null": "null"}[t]
	if n == "" {
		n = t
	}
	switch format {
	case "date":
		return n + " (data aaaa-mm-dd)"
	case "date-time":
		return n + " (data e hora RFC 3339)"
	case "":
		return n
	}
	return n + " (" + format + ")"
}

// bounds lists a schema's limits in words.
func bounds(p map[string]any) string {
	var b []string
	if r := rangeText(p["minimum"], p["maximum"], "", ""); r != "" {
		b = append(b, r)
	}
	if v, ok := p["exclusiveMinimum"]; ok {
		b = append(b, "maior que "+jsonText(v))
	}
	if v, ok := p["exclusiveMaximum"]; ok {
		b = append(b, "menor que "+jsonText(v))
	}
	if r := rangeText(p["minLength"], p["maxLength"], " caractere", " caracteres"); r != "" {
		b = append(b, r)
	}
	if r := rangeText(p["minItems"], p["maxItems"], " item", " itens"); r != "" {
		b = append(b, r)
	}
	if v, ok := p["pattern"]; ok {
		b = append(b, "formato "+jsonText(v))
	}
	if v, ok := p["default"]; ok {
		b = append(b, "se ausente, "+jsonText(v))
	}
	if it, ok := p["items"].(map[string]any); ok {
		if ib := bounds(it); ib != "" {
			b = append(b, "cada item: "+ib)
		}
	}
	return strings.Join(b, "; ")
}

// rangeText says "de 1 a 200 caracteres", "até 20 itens" or "ao menos 1"; unit is singular, units plural.
func rangeText(lo, hi any, unit, units string) string {
	u := func(v any) string {
		if f, ok := v.(float64); ok && f == 1 {
			return unit
		}
		return units
	}
	switch {
	case lo != nil && hi != nil:
		return "de " + jsonText(lo) + " a " + jsonText(hi) + u(hi)
	case hi != nil:
		return "até " + jsonText(hi) + u(hi)
	case lo != nil:
		return "ao menos " + jsonText(lo) + u(lo)
	}
	return ""
}

func typeList(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			out = append(out, str(x))
		}
		return out
	}
	return nil
}

func list(v any) []any { l, _ := v.([]any); return l }

func str(v any) string { s, _ := v.(string); return s }

func jsonText(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
