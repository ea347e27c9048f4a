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
//
// This is the published document, the one servers serve at /openapi.json: it also declares the
// bearer scheme every operation requires and, per operation, the HTTP statuses of its errors (see
// errorStatuses), each with the shared error body. GenerateOgen is the copy ogen reads.
func Generate(fsys fs.FS, dir string) ([]byte, error) {
	return generate(fsys, dir, true)
}

// GenerateOgen returns the document ogen generates the Go code from: Generate's without the
// security scheme and with every error status folded into the one `default` response. ogen turns
// several error statuses into a sum type per operation (GetAppRes instead of *GetAppOutput), and
// a security requirement into a SecurityHandler; the servers authenticate, limit and map errors
// to statuses around the generated server, which only needs the result and the error body.
func GenerateOgen(fsys fs.FS, dir string) ([]byte, error) {
	return generate(fsys, dir, false)
}

func generate(fsys fs.FS, dir string, published bool) ([]byte, error) {
	g := &generator{fsys: fsys, dir: dir, published: published, names: map[defKey]string{}, taken: map[string]string{}}
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
	fsys      fs.FS
	dir       string
	published bool // Generate's document, not GenerateOgen's
	tools     []string
	sources   []*source
	names     map[defKey]string // component name of every definition and root
	taken     map[string]string // component name -> where it comes from, to report clashes
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
				"responses": g.responses(tool, desc, errorDef, components),
			},
		}
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":       g.dir + " tools",
			"description": "Generated by impl/specgen from schemas/" + g.dir + "; do not edit. The JSON Schemas are the specification; this copy is rewritten for ogen.",
			"version":     "1",
		},
		"paths":      paths,
		"components": map[string]any{"schemas": components},
	}
	if g.published {
		doc["info"].(map[string]any)["description"] = "Generated by impl/specgen from schemas/" + g.dir + "; do not edit. " +
			"The JSON Schemas are the specification; this copy is rewritten for ogen. " +
			"Every tool is POST /tools/<tool> with the tool's arguments as the JSON body; " +
			"200 is the tool's result (the MCP structuredContent), any other status the error body {error: {code, message, suggestions}}."
		doc["security"] = []any{map[string]any{"bearer": []any{}}}
		doc["components"].(map[string]any)["securitySchemes"] = map[string]any{
			"bearer": map[string]any{"type": "http", "scheme": "bearer",
				"description": "The user's token (or, for caderninho, the authorised assistant's), as on /mcp."},
		}
		// The server's own origin: each server serves its document next to its tools.
		doc["servers"] = []any{map[string]any{"url": "/", "description": "The server that serves this document."}}
		used := map[string]bool{}
		for _, item := range paths {
			for _, r := range item.(map[string]any)["post"].(map[string]any)["responses"].(map[string]any) {
				if ref, ok := r.(map[string]any)["$ref"].(string); ok {
					used[strings.TrimPrefix(ref, "#/components/responses/")] = true
				}
			}
		}
		errResponses := map[string]any{}
		for _, st := range errorStatuses {
			if !used[st.name] {
				continue
			}
			r := map[string]any{"description": st.description, "content": jsonContent(errorDef)}
			if st.header != "" {
				r["headers"] = map[string]any{st.header: map[string]any{
					"description": st.headerDescription, "schema": map[string]any{"type": st.headerType}}}
			}
			errResponses[st.name] = r
		}
		doc["components"].(map[string]any)["responses"] = errResponses
	}
	return doc, nil
}

// errorStatus is one HTTP status an operation may answer with the error body.
type errorStatus struct {
	code, name, description string
	// conflict marks the status of writes and paged reads only (see conflictProperties).
	conflict                              bool
	header, headerDescription, headerType string
}

// errorStatuses are the statuses of refused calls, as the servers map the error codes.
var errorStatuses = []errorStatus{
	{code: "400", name: "BadRequest", description: "INVALID_ARGUMENTS (the body breaks the input schema; the message names every field), " +
		"INVALID_FILTER, or another code the caller fixes by changing the arguments."},
	{code: "401", name: "Unauthorized", description: "UNAUTHORIZED: no bearer token, or one the server does not know.",
		header: "WWW-Authenticate", headerDescription: "Bearer", headerType: "string"},
	{code: "403", name: "Forbidden", description: "FORBIDDEN: the request reached a loopback address under a Host other than " +
		"localhost, a loopback address or the public URL's host (DNS rebinding), or, on a server without tokens, came from a page of another origin."},
	{code: "404", name: "NotFound", description: "NOT_FOUND: the item named does not exist or the caller cannot see it."},
	{code: "409", name: "Conflict", conflict: true,
		description: "CONFIRMATION_REQUIRED, IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_IN_PROGRESS or RESTART_REQUIRED."},
	{code: "413", name: "ContentTooLarge", description: "REQUEST_TOO_LARGE: the body is over the server's limit."},
	{code: "415", name: "UnsupportedMediaType", description: "UNSUPPORTED_MEDIA_TYPE: the body is not sent as Content-Type: application/json (charset, if any, utf-8)."},
	{code: "422", name: "UnprocessableContent", description: "RESULT_TOO_LARGE (the answer would pass the server's limit) or SELECTION_TOO_LARGE."},
	{code: "429", name: "TooManyRequests", description: "RATE_LIMITED: over the calls per minute of the user or tenant, or too many failed tokens.",
		header: "Retry-After", headerDescription: "Seconds to wait before repeating the call.", headerType: "integer"},
	{code: "500", name: "InternalError", description: "INTERNAL: the server failed; the message is generic."},
	{code: "503", name: "ServiceUnavailable", description: "UNAVAILABLE: the database did not answer while the server checked the token or the rate limit; repeat after Retry-After.",
		header: "Retry-After", headerDescription: "Seconds to wait before repeating the call.", headerType: "integer"},
	{code: "504", name: "GatewayTimeout", description: "TIMEOUT: the call passed its time limit."},
}

// conflictProperties are the input properties of the calls that may answer 409: confirmed,
// idempotent writes and cursor-paged reads.
var conflictProperties = []string{"confirmed", "idempotency_key", "cursor", "expectedRevision"}

// responses are the responses of tool's operation: 200 with the result and, for ogen, `default`
// with the error body; in the published document also every error status that applies to it.
func (g *generator) responses(tool, desc, errorDef string, components map[string]any) map[string]any {
	out := map[string]any{
		"200": map[string]any{"description": desc, "content": jsonContent(goName(tool) + "Output")},
		"default": map[string]any{
			"description": "An error the caller can fix.",
			"content":     jsonContent(errorDef),
		},
	}
	if !g.published {
		return out
	}
	out["default"].(map[string]any)["description"] = "Any other refusal (405 for a method other than POST, 408 for a body that did not arrive in time)."
	in, _ := components[goName(tool)+"Input"].(map[string]any)
	props, _ := in["properties"].(map[string]any)
	conflict := false
	for _, p := range conflictProperties {
		if _, ok := props[p]; ok {
			conflict = true
		}
	}
	for _, st := range errorStatuses {
		if st.conflict && !conflict {
			continue
		}
		out[st.code] = map[string]any{"$ref": "#/components/responses/" + st.name}
	}
	return out
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
