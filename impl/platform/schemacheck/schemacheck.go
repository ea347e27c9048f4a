// Package schemacheck validates JSON values against the embedded JSON Schemas and reports every
// violation in Portuguese, naming the field.
package schemacheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

const base = "mem://schemas/"

// Set is the compiled schemas of one directory (e.g. "lumo").
type Set struct {
	dir      string
	compiled map[string]*jsonschema.Schema
	raw      map[string]any // file -> document, to name the accepted fields of an object

	mu       sync.Mutex // guards compiler and at
	compiler *jsonschema.Compiler
	at       map[string]*jsonschema.Schema // "file#pointer" -> the subschema there, see ValidateAt
}

// Violation is one problem found in a value.
type Violation struct {
	Path    []string // JSON pointer tokens of the offending value
	Field   string   // the same path for people: fields[0].agg
	Message string   // Portuguese, says what to do
}

func (v Violation) String() string { return v.Field + ": " + v.Message }

// Compile loads and compiles every *.json schema of dir in fsys.
func Compile(fsys fs.FS, dir string) (*Set, error) {
	files, err := fs.Glob(fsys, path.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.RegisterFormat(&jsonschema.Format{Name: "date", Validate: validateDate})
	s := &Set{dir: dir, compiled: map[string]*jsonschema.Schema{}, raw: map[string]any{}, compiler: c,
		at: map[string]*jsonschema.Schema{}}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("parsing schema %s: %w", f, err)
		}
		if err := c.AddResource(base+f, doc); err != nil {
			return nil, fmt.Errorf("adding schema %s: %w", f, err)
		}
		s.raw[path.Base(f)] = doc
	}
	for _, f := range files {
		sch, err := c.Compile(base + f)
		if err != nil {
			return nil, fmt.Errorf("compiling schema %s: %w", f, err)
		}
		s.compiled[path.Base(f)] = sch
	}
	return s, nil
}

// validateDate is the format "date" (RFC 3339 full-date) from year 0001: year 0000 exists in
// RFC 3339 but not in PostgreSQL's calendar (nor in the Gregorian one), so no tool accepts it.
func validateDate(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil // the format applies to strings only
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil || len(s) != 10 {
		return errors.New("not a date")
	}
	if strings.HasPrefix(s, "0000") {
		return errors.New("year 0000")
	}
	return nil
}

// Has reports whether the set holds schema file.
func (s *Set) Has(file string) bool { return s.compiled[file] != nil }

// ValidateJSON decodes data exactly (numbers stay json.Number) and validates it against file.
// A document that is not JSON is reported as one violation at the root.
func (s *Set) ValidateJSON(file string, data []byte) []Violation {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return []Violation{{Field: rootField, Message: "o conteúdo não é um JSON válido: " + err.Error()}}
	}
	return s.Validate(file, v)
}

// Validate checks v (as decoded by jsonschema.UnmarshalJSON, or plain Go JSON values) against file.
func (s *Set) Validate(file string, v any) []Violation {
	sch := s.compiled[file]
	if sch == nil {
		panic("schemacheck: unknown schema " + s.dir + "/" + file)
	}
	return s.validate(sch, v)
}

// ValidateAt checks v against the subschema of file at pointer, a JSON pointer such as
// /$defs/column/properties/name ("" is the whole schema): what a schema's examples are checked
// with. The subschema is compiled on first use.
func (s *Set) ValidateAt(file, pointer string, v any) ([]Violation, error) {
	if s.compiled[file] == nil {
		return nil, fmt.Errorf("unknown schema %s/%s", s.dir, file)
	}
	key := file + "#" + pointer
	s.mu.Lock()
	sch := s.at[key]
	if sch == nil {
		var err error
		if sch, err = s.compiler.Compile(base + path.Join(s.dir, file) + "#" + pointer); err != nil {
			s.mu.Unlock()
			return nil, fmt.Errorf("compiling %s: %w", key, err)
		}
		s.at[key] = sch
	}
	s.mu.Unlock()
	return s.validate(sch, v), nil
}

func (s *Set) validate(sch *jsonschema.Schema, v any) []Violation {
	v = normalise(v)
	err := sch.Validate(v)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []Violation{{Field: rootField, Message: "valor inválido"}}
	}
	var out []Violation
	seen := map[string]bool{}
	for _, leaf := range s.leaves(ve) {
		for _, v := range s.describe(leaf, v) {
			if k := v.String(); !seen[k] {
				seen[k] = true
				out = append(out, v)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}

// leaves flattens the error tree to the errors worth reporting. For oneOf/anyOf that matched
// nothing, it keeps the branch that got furthest instead of every branch's complaints.
func (s *Set) leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	switch k := e.ErrorKind.(type) {
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			return s.bestBranch(e)
		}
		return []*jsonschema.ValidationError{e}
	case *kind.AnyOf:
		return s.bestBranch(e)
	}
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, s.leaves(c)...)
	}
	return out
}

func (s *Set) bestBranch(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	var best []*jsonschema.ValidationError
	var wantTypes []string
	here := strings.Join(e.InstanceLocation, "/")
	for _, branch := range e.Causes {
		ls := s.leaves(branch)
		typeOnly := true
		for _, l := range ls {
			t, ok := l.ErrorKind.(*kind.Type)
			if !ok || strings.Join(l.InstanceLocation, "/") != here {
				typeOnly = false
				break
			}
			wantTypes = append(wantTypes, t.Want...)
		}
		if typeOnly {
			continue
		}
		if best == nil || len(ls) < len(best) {
			best = ls
		}
	}
	if best != nil {
		return best
	}
	got := ""
	if len(e.Causes) > 0 {
		for _, l := range s.leaves(e.Causes[0]) {
			if t, ok := l.ErrorKind.(*kind.Type); ok {
				got = t.Got
			}
		}
	}
	return []*jsonschema.ValidationError{{InstanceLocation: e.InstanceLocation, SchemaURL: e.SchemaURL,
		ErrorKind: &kind.Type{Got: got, Want: dedupe(wantTypes)}}}
}

const rootField = "(argumentos)"

// maxShown bounds how much of a field name or value a message repeats: hostile input must not
// come back whole.
const maxShown = 80

// abbreviate cuts s to maxShown runes, saying how long it was.
func abbreviate(s string) string {
	r := []rune(s)
	if len(r) <= maxShown {
		return s
	}
	return string(r[:maxShown]) + fmt.Sprintf("… (%d caracteres)", len(r))
}

// At is a violation at loc (JSON pointer tokens) with msg, its field named as the schema's are.
func At(loc []string, msg string) Violation {
	return Violation{Path: loc, Field: fieldName(loc), Message: msg}
}

func fieldName(loc []string) string {
	if len(loc) == 0 {
		return rootField
	}
	var b strings.Builder
	for _, t := range loc {
		t = abbreviate(t)
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

// describe words one leaf error; doc is the whole value validated, so that a message can show
// the fixed form of the object it names.
func (s *Set) describe(e *jsonschema.ValidationError, doc any) []Violation {
	at := func(loc []string, msg string) Violation {
		return Violation{Path: loc, Field: fieldName(loc), Message: msg}
	}
	loc := e.InstanceLocation
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		var out []Violation
		for _, m := range k.Missing {
			out = append(out, at(append(clone(loc), m), "campo obrigatório ausente; informe "+m+s.choices(e.SchemaURL, m, loc, doc)+"."))
		}
		return out
	case *kind.AdditionalProperties:
		accepted := s.acceptedProperties(e.SchemaURL)
		var out []Violation
		for _, p := range k.Properties {
			msg := "campo não aceito aqui; remova-o"
			if len(accepted) > 0 {
				msg += " (os campos aceitos são: " + strings.Join(accepted, ", ") + ")"
			}
			out = append(out, at(append(clone(loc), p), msg+"."))
		}
		return out
	case *kind.Type:
		return []Violation{at(loc, "deve ser "+typeWords(k.Want)+", mas veio "+typeWord(k.Got)+".")}
	case *kind.Enum:
		return []Violation{at(loc, "o valor "+showAt(loc, k.Got)+"não é aceito; use um de: "+showList(k.Want)+".")}
	case *kind.Const:
		return []Violation{at(loc, "deve ser "+show(k.Want)+".")}
	case *kind.MinLength:
		if k.Want == 1 {
			return []Violation{at(loc, "não pode ser vazio.")}
		}
		return []Violation{at(loc, fmt.Sprintf("deve ter pelo menos %d caracteres.", k.Want))}
	case *kind.MaxLength:
		return []Violation{at(loc, fmt.Sprintf("deve ter no máximo %d caracteres (veio com %d).", k.Want, k.Got))}
	case *kind.Minimum:
		return []Violation{at(loc, "deve ser no mínimo "+rat(k.Want)+" (veio "+rat(k.Got)+").")}
	case *kind.Maximum:
		return []Violation{at(loc, "deve ser no máximo "+rat(k.Want)+" (veio "+rat(k.Got)+").")}
	case *kind.ExclusiveMinimum:
		return []Violation{at(loc, "deve ser maior que "+rat(k.Want)+".")}
	case *kind.ExclusiveMaximum:
		return []Violation{at(loc, "deve ser menor que "+rat(k.Want)+".")}
	case *kind.MinItems:
		return []Violation{at(loc, fmt.Sprintf("precisa de pelo menos %d %s.", k.Want, plural(k.Want, "item", "itens")))}
	case *kind.MaxItems:
		return []Violation{at(loc, fmt.Sprintf("aceita no máximo %d %s (veio com %d).", k.Want, plural(k.Want, "item", "itens"), k.Got))}
	case *kind.Pattern:
		return []Violation{at(loc, "o valor "+showAt(loc, k.Got)+"não está no formato esperado ("+k.Want+").")}
	case *kind.Format:
		return []Violation{at(loc, "o valor "+showAt(loc, k.Got)+"não está no formato "+formatWord(k.Want)+".")}
	case *kind.UniqueItems:
		return []Violation{at(loc, fmt.Sprintf("os itens %d e %d se repetem; deixe um só.", k.Duplicates[0], k.Duplicates[1]))}
	case *kind.OneOf:
		return []Violation{at(loc, "combina mais de uma forma aceita ao mesmo tempo; use só uma.")}
	case *kind.Not:
		return []Violation{at(loc, "essa combinação de campos não é aceita.")}
	case *kind.FalseSchema:
		return []Violation{at(loc, "campo não aceito aqui; remova-o.")}
	case *kind.InvalidJsonValue:
		return []Violation{at(loc, "valor que não é JSON.")}
	}
	return []Violation{at(loc, "valor inválido.")}
}

// choices completes the message of a missing field whose schema lists its values: ", um de: a,
// b" and, when the object holding it is small, that object with the field set to the first value,
// so a client sees the call it should have made.
func (s *Set) choices(schemaURL, name string, loc []string, doc any) string {
	prop, _ := s.propertySchema(schemaURL, name)["enum"].([]any)
	if len(prop) == 0 {
		return ""
	}
	out := ", um de: " + showList(prop)
	obj, ok := valueAt(doc, loc).(map[string]any)
	if !ok {
		return out
	}
	fixed := make(map[string]any, len(obj)+1)
	for k, v := range obj {
		if secretFields[strings.ToLower(k)] {
			return out // the example would repeat a secret
		}
		fixed[k] = v
	}
	fixed[name] = prop[0]
	if b, err := json.Marshal(fixed); err == nil && len(b) <= 4*maxShown {
		out += " (por exemplo, " + fieldName(loc) + " = " + string(b) + ")"
	}
	return out
}

// valueAt is the value at loc (JSON pointer tokens) inside doc, or nil.
func valueAt(doc any, loc []string) any {
	for _, tok := range loc {
		switch x := doc.(type) {
		case map[string]any:
			doc = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			doc = x[i]
		default:
			return nil
		}
	}
	return doc
}

// propertySchema is the raw schema of property name of the object schema a "required" error came
// from, following one $ref (local to its file or to another file of the set).
func (s *Set) propertySchema(schemaURL, name string) map[string]any {
	file, ptr, _ := strings.Cut(strings.TrimPrefix(schemaURL, base+s.dir+"/"), "#")
	obj, _ := s.node(file, strings.TrimSuffix(ptr, "/required")).(map[string]any)
	props, _ := obj["properties"].(map[string]any)
	prop, _ := props[name].(map[string]any)
	if ref, ok := prop["$ref"].(string); ok {
		refFile, refPtr, _ := strings.Cut(ref, "#")
		if refFile == "" {
			refFile = file
		}
		prop, _ = s.node(refFile, refPtr).(map[string]any)
	}
	return prop
}

// node walks the JSON pointer ptr inside the raw schema file.
func (s *Set) node(file, ptr string) any {
	node := s.raw[file]
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if tok == "" {
			continue
		}
		m, ok := node.(map[string]any)
		if !ok {
			return nil
		}
		node = m[strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)]
	}
	return node
}

// acceptedProperties names the properties of the object schema an additionalProperties error
// came from, so the message can say what is accepted.
func (s *Set) acceptedProperties(schemaURL string) []string {
	file, ptr, _ := strings.Cut(strings.TrimPrefix(schemaURL, base+s.dir+"/"), "#")
	m, _ := s.node(file, strings.TrimSuffix(ptr, "/additionalProperties")).(map[string]any)
	props, _ := m["properties"].(map[string]any)
	var names []string
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var typeWordsPT = map[string]string{
	"string": "texto", "number": "número", "integer": "número inteiro", "array": "lista",
	"object": "objeto", "boolean": "verdadeiro ou falso", "null": "null",
}

func typeWord(t string) string {
	if w, ok := typeWordsPT[t]; ok {
		return w
	}
	return t
}

func typeWords(ts []string) string {
	var ws []string
	for _, t := range dedupe(ts) {
		ws = append(ws, typeWord(t))
	}
	if len(ws) <= 1 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " ou " + ws[len(ws)-1]
}

func formatWord(f string) string {
	switch f {
	case "date-time":
		return "data e hora ISO 8601 (ex.: 2026-09-01T09:00:00-03:00)"
	case "date":
		return "data AAAA-MM-DD, de 0001-01-01 a 9999-12-31"
	case "uri":
		return "URL"
	}
	return f
}

// secretFields are fields whose value may hold a password or a token: a message never repeats it.
var secretFields = map[string]bool{"dsn": true, "token": true, "password": true, "secret": true, "credential": true}

// showAt is v quoted and followed by a space, or nothing when the field at loc is a secret one.
func showAt(loc []string, v any) string {
	if len(loc) > 0 && secretFields[strings.ToLower(loc[len(loc)-1])] {
		return ""
	}
	return show(v) + " "
}

func show(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(abbreviate(x))
	case nil:
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func showList(vs []any) string {
	var out []string
	for _, v := range vs {
		if s, ok := v.(string); ok {
			out = append(out, s)
		} else {
			out = append(out, show(v))
		}
	}
	return strings.Join(out, ", ")
}

func rat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	return r.FloatString(6)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func dedupe(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func clone(s []string) []string { return append([]string(nil), s...) }

// normalise turns Go values the validator does not know (ints, float64 from encoding/json,
// typed slices and maps) into the JSON value model it expects.
func normalise(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalise(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalise(e)
		}
		return out
	case int:
		return json.Number(strconv.Itoa(x))
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case float64:
		return json.Number(strconv.FormatFloat(x, 'g', -1, 64))
	}
	return v
}
