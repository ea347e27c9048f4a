package schemapub

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/refdoc"
)

// SchemasPrefix and OpenAPIPath are where Register serves the catalog.
const (
	SchemasPrefix = "/schemas/"
	OpenAPIPath   = "/openapi.json"
)

// Index is the JSON document served at /schemas/.
type Index struct {
	Server  string      `json:"server"`
	OpenAPI string      `json:"openapi"`
	Tools   []IndexTool `json:"tools"`
}

// IndexTool names where one tool's schemas are served.
type IndexTool struct {
	Name   string `json:"name"`
	Input  string `json:"input"`
	Output string `json:"output"`
}

// Index lists the tools and the paths of their schemas.
func (c *Catalog) Index() Index {
	ix := Index{Server: c.Server, OpenAPI: OpenAPIPath, Tools: []IndexTool{}}
	for _, t := range c.tools {
		ix.Tools = append(ix.Tools, IndexTool{Name: t, Input: SchemasPrefix + FileName(t, Input), Output: SchemasPrefix + FileName(t, Output)})
	}
	return ix
}

// Register serves, without authentication, GET /schemas/ (the index), /schemas/<tool>.input.json
// and /schemas/<tool>.output.json (the bundled schemas, as tools/list publishes them) and
// /openapi.json (the assembled OpenAPI document).
func (c *Catalog) Register(mux *http.ServeMux) {
	mux.Handle(SchemasPrefix, c)
	mux.Handle(OpenAPIPath, c)
	if c.docs != nil {
		mux.Handle(DocsPrefix, refdoc.Handler(DocsPrefix, c.Server, c.docs))
	}
}

// DocsPrefix is where the reference pages are served as HTML (after Describe).
const DocsPrefix = "/docs/"

// ServeHTTP answers the paths Register mounts.
func (c *Catalog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "método não permitido; use GET", http.StatusMethodNotAllowed)
		return
	}
	switch {
	case r.URL.Path == OpenAPIPath:
		write(w, r, "application/json", c.openAPI)
		return
	case r.URL.Path == SchemasPrefix:
		b, err := marshalIndent(c.Index())
		if err != nil {
			http.Error(w, "erro interno", http.StatusInternalServerError)
			return
		}
		write(w, r, "application/json", b)
		return
	}
	name := strings.TrimPrefix(r.URL.Path, SchemasPrefix)
	if b, ok := c.bundled[name]; ok && !strings.Contains(name, "/") {
		write(w, r, "application/schema+json", b)
		return
	}
	http.Error(w, "schema não encontrado; a lista está em "+SchemasPrefix, http.StatusNotFound)
}

func write(w http.ResponseWriter, r *http.Request, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

func marshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
