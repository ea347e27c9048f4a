// Package specgen assembles one OpenAPI 3.1 document out of a server's JSON Schemas, rewritten where ogen needs it.
package specgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/platform/schemabundle"
)

// ErrorDef is the name of the shared definition of the structuredContent of a refused call
// ({"error": {code, message, suggestions}}): the `default` response of every operation, and the
// last branch of every output schema's oneOf.
const ErrorDef = "errorResponse"

// Generate returns the OpenAPI 3.1 document for the schemas in fsys/dir, indented and stable.
//
// Files named <tool>.input.json and <tool>.output.json are tools: each becomes the components
// <Tool>Input and <Tool>Output and the operation POST /tools/<tool>. Files named <name>.schema.json
// are file formats and are left out: ogen only generates types reachable from an operation. Every
// other file is shared: only its $defs are used. Every $defs entry becomes a component: shared ones
// under their own name (field -> Field), a tool's prefixed by its root's name (query.output.json
// resultColumn -> QueryOutputResultColumn). The published schemas are not changed; see rewrite
// for what the copy loses or changes.
//
// An output schema is a oneOf whose last branch is a $ref to the shared ErrorDef, so that what
// tools/list publishes accepts both a result and an error. The component <Tool>Output, the 200
// response, is the rest: the one other branch itself, or a oneOf of the others (with a
// discriminator when every one of them fixes the same required property to its own string
// const). So the generated result type has no error field and its always-sent fields are plain.
func Generate(fsys fs.FS, dir string) ([]byte, error) {
	g := &generator{fsys: fsys, dir: dir, names: map[defKey]string{}, taken: map[string]string{}}
	if err := g.classify(); err != nil {
		return nil, err
	}
	doc, err := g.document()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	if err := e.Encode(doc); err != nil {
		return nil, fmt.Errorf("encoding the openapi document: %w", err)
	}
	return buf.Bytes(), nil
}

// defKey names a definition: the file that declares it and its $defs name; name "" is the file's root.
type defKey struct{ file, name string }

// source is one schema file.
type source struct {
	file string
	root string // component name of the root schema, which prefixes its $defs; "" for shared files
	doc  map[string]any
}

type generator struct {
	fsys    fs.FS
	dir     string
	tools   []string
	sources []*source
	names   map[defKey]string // component name of every definition and root
	taken   map[string]string // component name -> where it comes from, to report clashes
}

func (g *generator) classify() error {
	files, err := fs.Glob(g.fsys, path.Join(g.dir, "*.json"))
	if err != nil {
		return fmt.Errorf("listing schemas in %s: %w", g.dir, err)
	}
	if len(files) == 0 {
		return fmt.Errorf("no schemas in %s", g.dir)
	}
	if g.tools, err = schemabundle.Tools(g.fsys, g.dir); err != nil {
		return err
	}
	sort.Strings(files)
	for _, f := range files {
		file := path.Base(f)
		s := &source{file: file}
		switch {
		case strings.HasSuffix(file, ".input.json"):
			s.root = goName(strings.TrimSuffix(file, ".input.json")) + "Input"
		case strings.HasSuffix(file, ".output.json"):
			tool := strings.TrimSuffix(file, ".output.json")
			if _, err := fs.Stat(g.fsys, path.Join(g.dir, tool+".input.json")); err != nil {
				return fmt.Errorf("%s/%s has no %s.input.json", g.dir, file, tool)
			}
			s.root = goName(tool) + "Output"
		case strings.HasSuffix(file, ".schema.json"):
			continue
		}
		data, err := fs.ReadFile(g.fsys, f)
		if err != nil {
			return fmt.Errorf("reading schema: %w", err)
		}
		v, err := schemabundle.Decode(data)
		if err != nil {
			return fmt.Errorf("parsing %s: %w", f, err)
		}
		var ok bool
		if s.doc, ok = v.(map[string]any); !ok {
			return fmt.Errorf("parsing %s: not a JSON object", f)
		}
		if s.root != "" {
			if err := g.name(defKey{file, ""}, s.root); err != nil {
				return err
			}
		}
		defs, _ := s.doc["$defs"].(map[string]any)
		for _, d := range sortedKeys(defs) {
			if err := g.name(defKey{file, d}, s.root+goName(d)); err != nil {
				return err
			}
		}
		g.sources = append(g.sources, s)
	}
	for _, tool := range g.tools {
		if _, ok := g.names[defKey{tool + ".output.json", ""}]; !ok {
			return fmt.Errorf("%s/%s.input.json has no %s.output.json", g.dir, tool, tool)
		}
	}
	return nil
}

func (g *generator) name(k defKey, name string) error {
	where := k.file + "#/$defs/" + k.name
	if k.name == "" {
		where = k.file
	}
	if prev, ok := g.taken[name]; ok {
		return fmt.Errorf("component name %s is used by both %s and %s", name, prev, where)
	}
	g.taken[name] = where
	g.names[k] = name
	return nil
}

func (g *generator) document() (map[string]any, error) {
	components := map[string]any{}
	var errorDef string
	for _, s := range g.sources {
		defs, _ := s.doc["$defs"].(map[string]any)
		for _, d := range sortedKeys(defs) {
			k := defKey{s.file, d}
			schema := defs[d]
			if err := g.rewrite(schema, s.file); err != nil {
				return nil, fmt.Errorf("%s/%s#/$defs/%s: %w", g.dir, s.file, d, err)
			}
			components[g.names[k]] = schema
			if s.root == "" && d == ErrorDef {
				if errorDef != "" {
					return nil, fmt.Errorf("%s/%s and %s both define $defs/%s", g.dir, errorDef, s.file, ErrorDef)
				}
				errorDef = g.names[k]
			}
		}
		if s.root == "" {
			continue
		}
		root := s.doc
		delete(root, "$defs")
		if err := g.rewrite(root, s.file); err != nil {
			return nil, fmt.Errorf("%s/%s: %w", g.dir, s.file, err)
		}
		components[s.root] = root
	}
	if errorDef == "" {
		return nil, fmt.Errorf("no shared file in %s defines $defs/%s", g.dir, ErrorDef)
	}
	for _, s := range g.sources {
		if !strings.HasSuffix(s.file, ".output.json") {
			continue
		}
		result, err := successOf(components[s.root].(map[string]any), errorDef, components)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", g.dir, s.file, err)
		}
		components[s.root] = result
	}

	paths := map[string]any{}
	for _, tool := range g.tools {
		out, _ := components[goName(tool)+"Output"].(map[string]any)
		desc, _ := out["title"].(string)
		if desc == "" {
			desc = "The result of " + tool + "."
		}
		paths["/tools/"+tool] = map[string]any{
			"post": map[string]any{
				"operationId": camelName(tool),
				"summary":     "Calls the " + tool + " tool.",
				"requestBody": map[string]any{
					"required": true,
					"content":  jsonContent(goName(tool) + "Input"),
				},
				"responses": map[string]any{
					"200": map[string]any{
						"description": desc,
						"content":     jsonContent(goName(tool) + "Output"),
					},
					"default": map[string]any{
						"description": "An error the caller can fix.",
						"content":     jsonContent(errorDef),
					},
				},
			},
		}
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":       g.dir + " tools",
			"description": "Generated by impl/specgen from schemas/" + g.dir + "; do not edit. The JSON Schemas are the specification; this copy is rewritten for ogen.",
			"version":     "1",
		},
		"paths":      paths,
		"components": map[string]any{"schemas": components},
	}, nil
}

// successOf turns an output root, {oneOf: [result..., {$ref: ErrorDef}]}, into the schema of
// its results alone; the root's annotations stay on it.
func successOf(root map[string]any, errorDef string, components map[string]any) (map[string]any, error) {
	branches, _ := root["oneOf"].([]any)
	errorRef := componentRef(errorDef)["$ref"]
	if len(branches) < 2 {
		return nil, fmt.Errorf("an output schema is a oneOf of its results and $defs/%s; this one has %d branches", ErrorDef, len(branches))
	}
	if last, _ := branches[len(branches)-1].(map[string]any); last == nil || last["$ref"] != errorRef || len(last) != 1 {
		return nil, fmt.Errorf("the last branch of an output schema's oneOf must be {\"$ref\": \"common.json#/$defs/%s\"}", ErrorDef)
	}
	results := branches[:len(branches)-1]
	var out map[string]any
	if len(results) == 1 {
		var ok bool
		if out, ok = results[0].(map[string]any); !ok {
			return nil, fmt.Errorf("oneOf branch is not a schema")
		}
		if _, isRef := out["$ref"]; isRef {
			return nil, fmt.Errorf("a single result must be written in the oneOf, not referenced")
		}
	} else {
		out = map[string]any{"oneOf": results}
		if d := discriminator(results, components); d != nil {
			out["discriminator"] = d
			// ogen writes the discriminator itself: a property of the same name in a branch
			// would come out twice.
			for _, r := range results {
				target := components[strings.TrimPrefix(r.(map[string]any)["$ref"].(string), "#/components/schemas/")].(map[string]any)
				// ogen's decoder of a closed branch would then refuse the property: the branch is
				// left open here (the JSON Schema keeps it closed).
				delete(target["properties"].(map[string]any), d["propertyName"].(string))
				target["required"] = slices.DeleteFunc(slices.Clone(target["required"].([]any)), func(v any) bool { return v == d["propertyName"] })
				delete(target, "additionalProperties")
			}
		}
	}
	for _, kw := range []string{"title", "description", "$comment"} {
		if v, ok := root[kw]; ok {
			out[kw] = v
		}
	}
	return out, nil
}

// discriminator is the OpenAPI discriminator of results, $refs to components that each fix the
// same required property to a string const of their own; nil when they do not.
func discriminator(results []any, components map[string]any) map[string]any {
	var prop string
	mapping := map[string]any{}
	for _, r := range results {
		ref, _ := r.(map[string]any)["$ref"].(string)
		target, _ := components[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		if target == nil {
			return nil
		}
		props, _ := target["properties"].(map[string]any)
		required, _ := target["required"].([]any)
		found := ""
		for _, name := range sortedKeys(props) {
			p, _ := props[name].(map[string]any)
			c, isString := p["const"].(string)
			if isString && slices.Contains(required, any(name)) && (prop == "" || prop == name) {
				found = name
				if _, dup := mapping[c]; dup {
					return nil
				}
				mapping[c] = ref
				break
			}
		}
		if found == "" {
			return nil
		}
		prop = found
	}
	return map[string]any{"propertyName": prop, "mapping": mapping}
}

func jsonContent(component string) map[string]any {
	return map[string]any{"application/json": map[string]any{"schema": componentRef(component)}}
}

func componentRef(name string) map[string]any {
	return map[string]any{"$ref": "#/components/schemas/" + name}
}

// goName turns a schema name into an exported Go-friendly name: search_catalog -> SearchCatalog,
// resultColumn -> ResultColumn.
func goName(s string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		r, n := utf8.DecodeRuneInString(part)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(part[n:])
	}
	return b.String()
}

// camelName turns a tool name into an operationId: search_catalog -> searchCatalog.
func camelName(s string) string {
	n := goName(s)
	r, size := utf8.DecodeRuneInString(n)
	return string(unicode.ToLower(r)) + n[size:]
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
