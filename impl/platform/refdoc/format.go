package refdoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// Format is the reference of a file format (workspace.yaml, app.yaml, installation.yaml), built
// from its JSON Schema: what the file is, whole examples as YAML, and a table per kind of object
// the file holds, each field with its type, whether it is required, its default, bounds, an
// example and its description.
type Format struct {
	Server      string
	File        string // the file people write: app.yaml
	Schema      string // the schema's file: app.schema.json
	Description string
	Examples    []string // whole documents, as YAML
	Objects     []Object // the root first, then each nested kind in the order fields name them
}

// Object is one kind of object in the file: the root, the items of a list (tables[]) or an
// object field (tables[].csv), or one shape of it where the schema has two (if/then/else).
type Object struct {
	Path        string // tables[].columns[]; "" for the root
	Variant     string // the shape, as "com `copyOf`"; "" when there is one
	Description string
	Rules       []string // constraints between fields, in words
	Fields      []FormatField
}

// FormatField is one row of an Object's table.
type FormatField struct {
	Name        string
	Type        string
	Objects     []int // indexes in Format.Objects of the objects the field holds
	Required    bool
	Default     string // YAML, "" when none
	Bounds      string
	Example     string // YAML, "" when none
	Description string
}

// FormatFile names the file a format schema describes: app.schema.json -> app.yaml.
func FormatFile(schemaFile string) string {
	return strings.TrimSuffix(schemaFile, ".schema.json") + ".yaml"
}

// BuildFormat reads the schema (self-contained, with local $defs) of schemaFile.
func BuildFormat(server, schemaFile string, schema []byte) (*Format, error) {
	root, err := decodeOrdered(schema)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", schemaFile, err)
	}
	o, ok := root.(*object)
	if !ok {
		return nil, fmt.Errorf("%s: not a JSON object", schemaFile)
	}
	f := &Format{Server: server, File: FormatFile(schemaFile), Schema: schemaFile, Description: o.str("description")}
	for _, ex := range o.list("examples") {
		y, err := blockYAML(ex)
		if err != nil {
			return nil, fmt.Errorf("%s: example: %w", schemaFile, err)
		}
		f.Examples = append(f.Examples, y)
	}
	w := &formatWalker{root: o, f: f}
	w.object(o, "", "", 0)
	return f, nil
}

type formatWalker struct {
	root *object
	f    *Format
}

// object adds the Object s (at path, in shape variant) and, after it, the objects its fields hold;
// it returns the indexes of what it added for s itself (two when s has two shapes).
func (w *formatWalker) object(s *object, path, variant string, depth int) []int {
	s = w.resolve(s)
	if depth > maxDepth || s == nil {
		return nil
	}
	if ifs := w.resolve(s.obj("if")); ifs != nil {
		// Two shapes: then when the if's required fields are there, else without them.
		var names []string
		for _, r := range ifs.list("required") {
			names = append(names, "`"+str(r)+"`")
		}
		with := strings.Join(names, " e ")
		var out []int
		// The shape without the marker fields first: it is the common one (a table with data).
		for _, b := range []struct{ key, v string }{{"else", "sem " + with}, {"then", "com " + with}} {
			if bs := w.resolve(s.obj(b.key)); bs != nil {
				v := b.v
				if variant != "" {
					v = variant + ", " + v
				}
				desc := bs.str("description")
				if desc == "" {
					desc = s.str("description")
				}
				out = append(out, w.shape(bs, path, v, desc, depth)...)
			}
		}
		return out
	}
	return w.shape(s, path, variant, s.str("description"), depth)
}

func (w *formatWalker) shape(s *object, path, variant, desc string, depth int) []int {
	i := len(w.f.Objects)
	w.f.Objects = append(w.f.Objects, Object{Path: path, Variant: variant, Description: desc, Rules: rules(w, s)})
	props := s.obj("properties")
	required := map[string]bool{}
	for _, r := range s.list("required") {
		required[str(r)] = true
	}
	var fields []FormatField
	if props != nil {
		for _, name := range props.keys {
			p := w.resolve(props.obj(name))
			ff := FormatField{Name: name, Type: w.typeOf(p), Required: required[name], Bounds: formatBounds(p),
				Description: p.str("description")}
			if d, ok := p.vals["default"]; ok {
				ff.Default = flowYAML(d)
			}
			if ex := p.list("examples"); len(ex) > 0 {
				ff.Example = flowYAML(ex[0])
			}
			sub := path + name
			if path != "" {
				sub = path + "." + name
			}
			switch {
			case p.obj("properties") != nil || p.obj("if") != nil:
				ff.Objects = w.object(p, sub, variant, depth+1)
			case p.obj("items") != nil:
				if it := w.resolve(p.obj("items")); it != nil && (it.obj("properties") != nil || it.obj("if") != nil) {
					ff.Objects = w.object(it, sub+"[]", variant, depth+1)
				}
			}
			fields = append(fields, ff)
		}
	}
	w.f.Objects[i].Fields = fields
	return []int{i}
}

// resolve follows local $refs, the referring schema's own keywords winning.
func (w *formatWalker) resolve(s *object) *object {
	for range maxDepth {
		if s == nil {
			return nil
		}
		name, ok := strings.CutPrefix(s.str("$ref"), "#/$defs/")
		if !ok {
			return s
		}
		target := w.root.obj("$defs").obj(name)
		if target == nil {
			return s
		}
		merged := &object{vals: map[string]any{}}
		for _, k := range target.keys {
			merged.set(k, target.vals[k])
		}
		for _, k := range s.keys {
			if k != "$ref" {
				merged.set(k, s.vals[k])
			}
		}
		s = merged
	}
	return s
}

// typeOf names the type in Portuguese, as the tools' pages do. Branches that only constrain
// which fields go together (oneOf of required lists) say nothing of the type and are left out.
func (w *formatWalker) typeOf(p *object) string {
	m := plain(p).(map[string]any)
	if it := p.obj("items"); it != nil {
		m["items"] = plain(w.resolve(it))
	}
	return walker{root: plain(w.root).(map[string]any)}.typeOf(typeOnly(m).(map[string]any))
}

// typeOnly is s without the oneOf whose branches name no type (constraints between fields),
// in s and in its items.
func typeOnly(v any) any {
	s, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(s))
	for k, e := range s {
		out[k] = e
	}
	if one, ok := s["oneOf"].([]any); ok {
		constraint := true
		for _, b := range one {
			bm, _ := b.(map[string]any)
			for _, k := range []string{"type", "$ref", "properties", "const", "enum", "items"} {
				if _, has := bm[k]; has {
					constraint = false
				}
			}
		}
		if constraint {
			delete(out, "oneOf")
		}
	}
	if it, ok := s["items"]; ok {
		out["items"] = typeOnly(it)
	}
	return out
}

// formatBounds are the tools' bounds without the default (a column of its own here), plus
// uniqueness.
func formatBounds(p *object) string {
	m := plain(p).(map[string]any)
	delete(m, "default")
	b := bounds(m)
	if p.vals["uniqueItems"] == true {
		if b != "" {
			b += "; "
		}
		b += "sem itens repetidos"
	}
	return b
}

// rules says in words what the object's schema requires across fields: not both of two fields,
// exactly one of some sets, no other field.
func rules(w *formatWalker, s *object) []string {
	var out []string
	if n := w.resolve(s.obj("not")); n != nil && len(n.list("required")) > 1 {
		out = append(out, "Não aceita "+codeList(n.list("required"), " e ")+" juntos.")
	}
	if one := s.list("oneOf"); len(one) > 0 {
		var forms []string
		for _, b := range one {
			bs, _ := b.(*object)
			if bs == nil || len(bs.list("required")) == 0 {
				forms = nil
				break
			}
			form := codeList(bs.list("required"), " e ")
			var without []any
			if n := bs.obj("not"); n != nil {
				without = append(without, n.list("required")...)
				for _, a := range n.list("anyOf") {
					if ao, ok := a.(*object); ok {
						without = append(without, ao.list("required")...)
					}
				}
			}
			if len(without) > 0 {
				form += " (sem " + codeList(without, " nem ") + ")"
			}
			forms = append(forms, form)
		}
		if len(forms) > 0 {
			out = append(out, "Precisa de exatamente uma destas formas: "+strings.Join(forms, "; ")+".")
		}
	}
	if s.vals["additionalProperties"] == false {
		out = append(out, "Nenhum outro campo é aceito.")
	}
	return out
}

func codeList(names []any, sep string) string {
	var out []string
	for _, n := range names {
		out = append(out, "`"+str(n)+"`")
	}
	return strings.Join(out, sep)
}

// FormatMarkdown renders f as a Markdown page.
func FormatMarkdown(f *Format) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", f.File)
	fmt.Fprintf(&b, "**%s** · arquivo de configuração · schema `schemas/%s/%s`\n\n", f.Server, f.Server, f.Schema)
	if f.Description != "" {
		b.WriteString(f.Description + "\n\n")
	}
	for i, ex := range f.Examples {
		fmt.Fprintf(&b, "## Exemplo%s\n\n```yaml\n%s```\n\n", ordinal(i, len(f.Examples)), ex)
	}
	b.WriteString("## Campos\n\n")
	headings := f.headings()
	for i, o := range f.Objects {
		fmt.Fprintf(&b, "### %s\n\n", headings[i])
		if o.Description != "" && (i > 0 || o.Description != f.Description) {
			b.WriteString(o.Description + "\n\n")
		}
		for _, r := range o.Rules {
			b.WriteString(r + "\n")
		}
		if len(o.Rules) > 0 {
			b.WriteString("\n")
		}
		if len(o.Fields) == 0 {
			b.WriteString("Nenhum campo.\n\n")
			continue
		}
		b.WriteString("| Campo | Tipo | Obrigatório | Padrão | Limites | Exemplo | Descrição |\n|---|---|---|---|---|---|---|\n")
		for _, fl := range o.Fields {
			typ := cell(fl.Type)
			var links []string
			for _, j := range fl.Objects {
				links = append(links, "["+headings[j]+"](#"+Slug(headings[j])+")")
			}
			if len(links) > 0 {
				typ += " (" + strings.Join(links, ", ") + ")"
			}
			req := "não"
			if fl.Required {
				req = "sim"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s |\n", fl.Name, typ, req, codeCell(fl.Default),
				cell(fl.Bounds), codeCell(fl.Example), cell(fl.Description))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Gerado de `schemas/%s/%s` (`%s schemas doc %s`); os exemplos passam pelo schema.\n", f.Server, f.Schema, f.Server, f.File)
	return b.String()
}

// headings are the Objects' section titles, unique on the page.
func (f *Format) headings() []string {
	out := make([]string, len(f.Objects))
	for i, o := range f.Objects {
		h := "Raiz do arquivo"
		if o.Path != "" {
			h = "`" + o.Path + "`"
		}
		if o.Variant != "" {
			h += " " + o.Variant
		}
		out[i] = h
	}
	return out
}

// Slug is the anchor GitHub gives a heading: lower case, everything but letters, marks, digits,
// connector punctuation (_), spaces and - dropped, spaces as -.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r) || unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func codeCell(s string) string {
	if s == "" {
		return "—"
	}
	return "`" + cell(s) + "`"
}

// object is a JSON object that keeps its keys' order, so that pages list fields and examples
// show keys as the schema writes them.
type object struct {
	keys []string
	vals map[string]any // *object, []any, string, json.Number, bool or nil
}

func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) obj(k string) *object {
	if o == nil {
		return nil
	}
	v, _ := o.vals[k].(*object)
	return v
}

func (o *object) list(k string) []any {
	if o == nil {
		return nil
	}
	v, _ := o.vals[k].([]any)
	return v
}

func (o *object) str(k string) string {
	if o == nil {
		return ""
	}
	return strings.TrimSpace(str(o.vals[k]))
}

func decodeOrdered(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch d {
	case '{':
		o := &object{vals: map[string]any{}}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o.set(k.(string), v)
		}
		_, err = dec.Token()
		return o, err
	case '[':
		l := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		_, err = dec.Token()
		return l, err
	}
	return nil, fmt.Errorf("unexpected %v", d)
}

// plain is v as encoding/json decodes it (maps, float64), for the tools' helpers.
func plain(v any) any {
	switch x := v.(type) {
	case *object:
		if x == nil {
			return map[string]any{}
		}
		m := make(map[string]any, len(x.keys))
		for _, k := range x.keys {
			m[k] = plain(x.vals[k])
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = plain(e)
		}
		return l
	case json.Number:
		f, _ := x.Float64()
		return f
	}
	return v
}

// maxFlow is the longest collection a whole example writes on one line.
const maxFlow = 100

// blockYAML writes a whole example as a person would: block style, with each collection that
// holds only scalars and fits on a line written on one ({name: Data, type: date}).
func blockYAML(v any) (string, error) {
	var b strings.Builder
	writeBlock(&b, v, 0)
	out := b.String()
	var check any
	if err := yaml.Unmarshal([]byte(out), &check); err != nil {
		return "", fmt.Errorf("the YAML written does not parse: %w", err)
	}
	return out, nil
}

// writeBlock writes the object or list v at indent, one entry a line.
func writeBlock(b *strings.Builder, v any, indent int) {
	pad := strings.Repeat(" ", indent)
	switch x := v.(type) {
	case *object:
		for _, k := range x.keys {
			val := x.vals[k]
			if f, ok := fitsFlow(val, indent+len(k)+2); ok {
				fmt.Fprintf(b, "%s%s: %s\n", pad, scalarYAML(k, false), f)
				continue
			}
			fmt.Fprintf(b, "%s%s:\n", pad, scalarYAML(k, false))
			writeBlock(b, val, indent+2)
		}
	case []any:
		for _, e := range x {
			if f, ok := fitsFlow(e, indent+2); ok {
				fmt.Fprintf(b, "%s- %s\n", pad, f)
				continue
			}
			// A list item that is an object: its first key on the dash's line.
			var item strings.Builder
			writeBlock(&item, e, indent+2)
			fmt.Fprintf(b, "%s- %s", pad, strings.TrimPrefix(item.String(), pad+"  "))
		}
	}
}

// fitsFlow is v on one line when it is a scalar, or a collection of scalars (or of such
// collections) that fits within maxFlow columns from col.
func fitsFlow(v any, col int) (string, bool) {
	switch v.(type) {
	case *object, []any:
		if !flat(v, 0) {
			return "", false
		}
		s := flowYAML(v)
		return s, col+len(s) <= maxFlow
	}
	return flowYAML(v), true
}

func flat(v any, depth int) bool {
	switch x := v.(type) {
	case *object:
		if depth > 1 {
			return false
		}
		for _, k := range x.keys {
			if !flat(x.vals[k], depth+1) {
				return false
			}
		}
	case []any:
		if depth > 1 {
			return false
		}
		for _, e := range x {
			if !flat(e, depth+1) {
				return false
			}
		}
	}
	return true
}

// flowYAML is v on one line, in YAML's flow style: {a: 1, b: [x, y]}.
func flowYAML(v any) string { return flowValue(v, false) }

// flowValue writes v; inFlow says it sits inside a flow collection, where , [ ] { } need quotes.
func flowValue(v any, inFlow bool) string {
	switch x := v.(type) {
	case *object:
		parts := make([]string, len(x.keys))
		for i, k := range x.keys {
			parts[i] = scalarYAML(k, true) + ": " + flowValue(x.vals[k], true)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = flowValue(e, true)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return scalarYAML(x, inFlow)
	case json.Number:
		return string(x)
	case bool:
		return fmt.Sprint(x)
	}
	return "null"
}

// scalarYAML writes s plain when YAML reads it back as the same text, else single-quoted, or
// double-quoted (a JSON string is a YAML double-quoted scalar) when it holds control characters.
func scalarYAML(s string, flow bool) string {
	if plainOK(s, flow) {
		var back any
		if err := yaml.Unmarshal([]byte("v: "+s), &back); err == nil {
			if m, ok := back.(map[string]any); ok && m["v"] == s {
				return s
			}
		}
	}
	if !strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'" // as people quote in YAML
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSpace(b.String())
}

func plainOK(s string, flow bool) bool {
	if s == "" || s != strings.TrimSpace(s) || strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`") {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") || strings.ContainsAny(s, "\n\t\r") {
		return false
	}
	return !flow || !strings.ContainsAny(s, ",[]{}")
}
