package schemabundle

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// annotations are the keywords a $ref's siblings may hold beside the definition's own: they
// describe, and a sibling's wins.
var annotations = []string{"title", "description", "examples", "default", "deprecated", "readOnly", "writeOnly", "$comment"}

// Inline returns a bundled schema (Bundle's output) with every "#/$defs/X" replaced by a copy of
// the definition, merged with the $ref's sibling annotations, and without $defs: a schema a
// client reads without following references. Some do not follow them (the MCP inspector sent
// "1" for an integer reached through $defs). A definition that refers to itself, directly or not,
// or a sibling that is no annotation and collides with the definition's own keyword, is an
// error: inlining would change what the schema means.
func Inline(bundled json.RawMessage) (json.RawMessage, error) {
	v, err := Decode(bundled)
	if err != nil {
		return nil, err
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return bundled, nil
	}
	defs, _ := doc["$defs"].(map[string]any)
	delete(doc, "$defs")
	out, err := inline(doc, defs, nil)
	if err != nil {
		return nil, err
	}
	return Marshal(out)
}

// inline is schema v with its refs replaced; stack holds the definitions being inlined.
func inline(v any, defs map[string]any, stack []string) (any, error) {
	x, ok := v.(map[string]any)
	if !ok {
		return v, nil // a boolean schema
	}
	out := map[string]any{}
	if ref, ok := x["$ref"].(string); ok {
		name, ok := DefName(ref[min(1, len(ref)):])
		if len(ref) == 0 || ref[0] != '#' || !ok || defs[name] == nil {
			return nil, fmt.Errorf("$ref %q: only refs to this document's $defs can be inlined", ref)
		}
		if slices.Contains(stack, name) {
			return nil, fmt.Errorf("$defs/%s refers to itself: it cannot be inlined", name)
		}
		def, err := inline(defs[name], defs, append(stack, name))
		if err != nil {
			return nil, err
		}
		d, ok := def.(map[string]any)
		if !ok {
			return def, nil
		}
		for k, dv := range d {
			out[k] = dv
		}
		rest := map[string]any{}
		for k, sv := range x {
			if k == "$ref" {
				continue
			}
			if _, clash := out[k]; clash && !slices.Contains(annotations, k) {
				return nil, fmt.Errorf("$ref %q has a sibling %q that $defs/%s declares too", ref, k, name)
			}
			rest[k] = sv
		}
		sub, err := inline(rest, defs, stack)
		if err != nil {
			return nil, err
		}
		for k, sv := range sub.(map[string]any) {
			out[k] = sv
		}
		return out, nil
	}
	for k, sv := range x {
		var err error
		switch k {
		case "properties", "patternProperties", "dependentSchemas": // names to schemas
			m, _ := sv.(map[string]any)
			named := map[string]any{}
			for name, s := range m {
				if named[name], err = inline(s, defs, stack); err != nil {
					return nil, err
				}
			}
			out[k] = named
		case "allOf", "anyOf", "oneOf", "prefixItems": // lists of schemas
			l, _ := sv.([]any)
			list := make([]any, len(l))
			for i, s := range l {
				if list[i], err = inline(s, defs, stack); err != nil {
					return nil, err
				}
			}
			out[k] = list
		case "items", "additionalProperties", "unevaluatedItems", "unevaluatedProperties",
			"contains", "propertyNames", "not", "if", "then", "else", "contentSchema": // one schema
			if out[k], err = inline(sv, defs, stack); err != nil {
				return nil, err
			}
		default: // data and other keywords
			out[k] = sv
		}
	}
	return out, nil
}

// Publish is a tool's schema file as clients get it (tools/list, /schemas/): bundled, and an
// input schema (<tool>.input.json) also inlined, since clients build their argument forms from it.
func Publish(fsys fs.FS, dir, file string) (json.RawMessage, error) {
	b, err := Bundle(fsys, dir, file)
	if err != nil || !strings.HasSuffix(file, ".input.json") {
		return b, err
	}
	if b, err = Inline(b); err != nil {
		return nil, fmt.Errorf("inlining %s/%s: %w", dir, file, err)
	}
	return b, nil
}
