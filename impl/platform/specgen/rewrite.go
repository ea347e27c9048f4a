package specgen

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/lumo-caderninho/mcp/impl/platform/schemabundle"
)

// rewrite changes schema, which comes from file, in place into what ogen can generate from:
//   - every $ref points at #/components/schemas/<name>;
//   - $schema and $id go ($id would change the base of the refs below it);
//   - not, if/then/else, dependentRequired and dependentSchemas go (ogen ignores them anyway);
//   - a oneOf/anyOf/allOf whose branches only constrain (required, const properties, not) goes;
//   - a "type" list with several non-null types becomes a oneOf of one branch per type (a "null"
//     in it becomes a {"type":"null"} branch); a list of one type and "null" stays, since ogen
//     reads it as a nullable type (and an enum holding null as a nullable enum);
//   - const and enum without a type get the type of their values;
//   - a numeric exclusiveMinimum/exclusiveMaximum becomes minimum/maximum plus the boolean form
//     ogen understands;
//   - a free-form object (no properties, additionalProperties or composition) loses its type, so
//     ogen keeps it as raw JSON instead of an empty struct that drops every member;
//   - a map (an object of additionalProperties alone) gets the x-ogen-type of its jsonmap type,
//     which writes the keys sorted (ogen's own maps write them in random order).
//
// Validation stays with the JSON Schemas; ogen's types only need to decode and encode every
// valid document.
func (g *generator) rewrite(schema any, file string) error {
	return schemabundle.Walk(schema, func(m map[string]any) error {
		free := freeForm(m) // before the compositions that only constrain go
		if err := g.rewriteRef(m, file); err != nil {
			return err
		}
		for _, kw := range []string{"$schema", "$id", "not", "if", "then", "else", "dependentRequired", "dependentSchemas"} {
			delete(m, kw)
		}
		for _, kw := range []string{"oneOf", "anyOf", "allOf"} {
			branches, ok := m[kw].([]any)
			if ok && len(branches) > 0 && !slices.ContainsFunc(branches, func(b any) bool { return !constraintOnly(b) }) {
				delete(m, kw)
			}
		}
		if err := splitTypes(m); err != nil {
			return err
		}
		inferType(m)
		exclusiveBounds(m)
		if free {
			delete(m, "type")
		}
		return sortedMap(m)
	})
}

// freeForm reports whether m is an object that says nothing of its members: ogen would generate
// an empty struct for it, whose decoder skips every member; without a type it is raw JSON (jx.Raw).
func freeForm(m map[string]any) bool {
	if m["type"] != "object" {
		return false
	}
	for _, kw := range []string{"properties", "additionalProperties", "patternProperties", "propertyNames", "oneOf", "anyOf", "allOf", "$ref", "required"} {
		if _, ok := m[kw]; ok {
			return false
		}
	}
	return true
}

// mapTypes are the jsonmap types of maps, by the JSON of their value schema.
var mapTypes = map[string]string{
	`{"type":"integer"}`:             "Ints",
	`{"minimum":0,"type":"integer"}`: "Ints",
	`{"type":["number","null"]}`:     "Numbers",
	`{"type":["null","number"]}`:     "Numbers",
}

// jsonmapPackage is where the map types live.
const jsonmapPackage = "github.com/lumo-caderninho/mcp/impl/platform/jsonmap"

// sortedMap gives a map the x-ogen-type of the jsonmap type for its values; a map of values
// jsonmap has no type for is an error, so no generated map writes its keys in random order.
func sortedMap(m map[string]any) error {
	values, ok := m["additionalProperties"].(map[string]any)
	if !ok || m["type"] != "object" {
		return nil
	}
	if _, ok := m["properties"]; ok {
		return nil
	}
	key, err := json.Marshal(values)
	if err != nil {
		return err
	}
	name, ok := mapTypes[string(key)]
	if !ok {
		return fmt.Errorf("a map of %s: impl/platform/jsonmap has no type for it", key)
	}
	m["x-ogen-type"] = jsonmapPackage + "." + name
	return nil
}

func (g *generator) rewriteRef(m map[string]any, file string) error {
	ref, ok := m["$ref"].(string)
	if !ok {
		return nil
	}
	target, frag, err := schemabundle.SplitRef(ref, file)
	if err != nil {
		return err
	}
	k := defKey{file: target}
	if frag != "" {
		if k.name, ok = schemabundle.DefName(frag); !ok {
			return fmt.Errorf("$ref %q: only refs to a file or to its $defs/<name> are supported", ref)
		}
	}
	name, ok := g.names[k]
	if !ok {
		return fmt.Errorf("$ref %q: no such definition", ref)
	}
	m["$ref"] = "#/components/schemas/" + name
	return nil
}

// constraintOnly reports whether a composition branch only narrows its parent without describing
// a shape of its own: e.g. {"required": [...]} or {"properties": {"mode": {"const": "x"}}, "required": [...]}.
func constraintOnly(branch any) bool {
	m, ok := branch.(map[string]any)
	if !ok {
		return false
	}
	for kw, v := range m {
		switch kw {
		case "required", "not", "minProperties", "maxProperties", "dependentRequired", "description", "title", "$comment":
		case "properties":
			props, _ := v.(map[string]any)
			for _, p := range props {
				pm, ok := p.(map[string]any)
				if !ok {
					return false
				}
				for pk := range pm {
					if pk != "const" && pk != "enum" && pk != "description" && pk != "$comment" {
						return false
					}
				}
			}
		case "oneOf", "anyOf", "allOf":
			sub, _ := v.([]any)
			for _, s := range sub {
				if !constraintOnly(s) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// typeKeywords lists the keywords that only apply to one JSON type; they follow their type into
// its oneOf branch when a type list is split.
var typeKeywords = map[string][]string{
	"string":  {"minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"},
	"number":  {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
	"integer": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
	"array":   {"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains"},
	"object":  {"properties", "patternProperties", "additionalProperties", "required", "minProperties", "maxProperties", "propertyNames"},
}

// splitTypes turns a type list with several non-null types into a oneOf with one branch per type.
func splitTypes(m map[string]any) error {
	list, ok := m["type"].([]any)
	if !ok {
		return nil
	}
	var types []string
	null := false
	for _, t := range list {
		s, _ := t.(string)
		switch {
		case s == "null":
			null = true
		case !slices.Contains(types, s):
			types = append(types, s)
		}
	}
	if slices.Contains(types, "number") {
		// Every integer is a number too; one branch keeps the oneOf exclusive.
		types = slices.DeleteFunc(types, func(s string) bool { return s == "integer" })
	}
	if len(types) < 2 {
		// One type, maybe with "null": ogen reads the list itself once it is reduced.
		switch {
		case len(types) == 0 || len(list) == len(types)+boolInt(null):
		case null:
			m["type"] = []any{types[0], "null"}
		default:
			m["type"] = types[0]
		}
		return nil
	}
	if _, ok := m["oneOf"]; ok {
		return fmt.Errorf("type %v next to a oneOf: cannot express it for ogen", list)
	}
	if _, ok := m["enum"]; ok {
		return fmt.Errorf("type %v with an enum: cannot express it for ogen", list)
	}
	branches := make([]any, 0, len(types)+1)
	for _, t := range types {
		b := map[string]any{"type": t}
		for _, kw := range typeKeywords[t] {
			if v, ok := m[kw]; ok {
				b[kw] = v
			}
		}
		branches = append(branches, b)
	}
	for _, t := range types {
		for _, kw := range typeKeywords[t] {
			delete(m, kw)
		}
	}
	if null {
		branches = append(branches, map[string]any{"type": "null"})
	}
	delete(m, "type")
	m["oneOf"] = branches
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// inferType gives a const or enum without a type the type of its values.
func inferType(m map[string]any) {
	if _, ok := m["type"]; ok {
		return
	}
	if _, ok := m["$ref"]; ok {
		return
	}
	var values []any
	if c, ok := m["const"]; ok {
		values = append(values, c)
	}
	if e, ok := m["enum"].([]any); ok {
		values = append(values, e...)
	}
	if len(values) == 0 {
		return
	}
	var types []string
	null := false
	for _, v := range values {
		t := jsonType(v)
		switch {
		case t == "null":
			null = true
		case !slices.Contains(types, t):
			types = append(types, t)
		}
	}
	if slices.Contains(types, "number") {
		types = slices.DeleteFunc(types, func(s string) bool { return s == "integer" })
	}
	switch {
	case len(types) != 1:
		// Values of several types: leave it free-form.
	case null:
		m["type"] = []any{types[0], "null"}
	default:
		m["type"] = types[0]
	}
}

func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case interface{ Int64() (int64, error) }: // json.Number
		if _, err := v.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case float64:
		if v == float64(int64(v)) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	default:
		return "object"
	}
}

// exclusiveBounds rewrites a numeric exclusiveMinimum/exclusiveMaximum (2020-12) into
// minimum/maximum plus the boolean flag, the only form ogen reads.
func exclusiveBounds(m map[string]any) {
	for kw, bound := range map[string]string{"exclusiveMinimum": "minimum", "exclusiveMaximum": "maximum"} {
		v, ok := m[kw]
		if !ok {
			continue
		}
		if _, isBool := v.(bool); isBool {
			continue
		}
		m[bound] = v
		m[kw] = true
	}
}
