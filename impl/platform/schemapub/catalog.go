// Package schemapub publishes a server's tool schemas to their consumers: the bundled schemas and
// the OpenAPI document over HTTP, and the `schemas` command that lists, shows and validates payloads.
package schemapub

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/platform/refdoc"
	"github.com/lumo-caderninho/mcp/impl/platform/schemabundle"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
)

// Kinds of payload a tool has a schema for.
const (
	Input  = "input"
	Output = "output"
)

// Catalog is the published schemas of one server: for each tool the bundled input and output
// schema, byte for byte what tools/list publishes, and the assembled OpenAPI document.
type Catalog struct {
	Server  string
	tools   []string
	bundled map[string]json.RawMessage // "<tool>.<kind>.json" -> bundled schema
	openAPI []byte
	check   *schemacheck.Set // compiled from the bundled copies, so validation sees what is published
	docs    []*refdoc.Doc    // the reference pages, once Describe has run
	formats []*refdoc.Format // the file formats' pages (<name>.schema.json)
}

// Describe builds the reference page of every tool from its published schemas and what
// tools/list says of it; each tool of the catalogue must be described.
func (c *Catalog) Describe(tools []refdoc.Tool) error {
	byName := map[string]refdoc.Tool{}
	for _, t := range tools {
		byName[t.Name] = t
	}
	var docs []*refdoc.Doc
	for _, name := range c.tools {
		t, ok := byName[name]
		if !ok {
			return fmt.Errorf("%s: the tool %s has schemas but no description", c.Server, name)
		}
		d, err := refdoc.Build(c.Server, t, c.bundled[FileName(name, Input)], c.bundled[FileName(name, Output)])
		if err != nil {
			return err
		}
		docs = append(docs, d)
	}
	c.docs = docs
	return nil
}

// Docs are the reference pages (nil before Describe).
func (c *Catalog) Docs() []*refdoc.Doc { return c.docs }

// Formats are the reference pages of the server's file formats, one per <name>.schema.json.
func (c *Catalog) Formats() []*refdoc.Format { return c.formats }

// New publishes (schemabundle.Publish) every <tool>.input.json / <tool>.output.json of schemaFS/server and reads
// openAPIFS/server/openapi.json.
func New(schemaFS, openAPIFS fs.FS, server string) (*Catalog, error) {
	tools, err := schemabundle.Tools(schemaFS, server)
	if err != nil {
		return nil, err
	}
	c := &Catalog{Server: server, tools: tools, bundled: map[string]json.RawMessage{}}
	mem := fstest.MapFS{}
	for _, t := range tools {
		for _, k := range []string{Input, Output} {
			file := FileName(t, k)
			b, err := schemabundle.Publish(schemaFS, server, file)
			if err != nil {
				return nil, fmt.Errorf("publishing %s/%s: %w", server, file, err)
			}
			c.bundled[file] = b
			mem[path.Join(server, file)] = &fstest.MapFile{Data: b}
		}
	}
	if c.check, err = schemacheck.Compile(mem, server); err != nil {
		return nil, fmt.Errorf("compiling the published %s schemas: %w", server, err)
	}
	if c.openAPI, err = fs.ReadFile(openAPIFS, path.Join(server, "openapi.json")); err != nil {
		return nil, fmt.Errorf("reading the %s OpenAPI document: %w", server, err)
	}
	formats, err := fs.Glob(schemaFS, path.Join(server, "*.schema.json"))
	if err != nil {
		return nil, err
	}
	for _, f := range formats {
		b, err := fs.ReadFile(schemaFS, f)
		if err != nil {
			return nil, err
		}
		d, err := refdoc.BuildFormat(server, path.Base(f), b)
		if err != nil {
			return nil, err
		}
		c.formats = append(c.formats, d)
	}
	return c, nil
}

// FileName is the published file name of a tool's schema: <tool>.<kind>.json.
func FileName(tool, kind string) string { return tool + "." + kind + ".json" }

// Tools lists the tool names, sorted.
func (c *Catalog) Tools() []string { return append([]string(nil), c.tools...) }

// Schema returns the bundled schema of tool's kind (Input or Output), or false.
func (c *Catalog) Schema(tool, kind string) (json.RawMessage, bool) {
	b, ok := c.bundled[FileName(tool, kind)]
	return b, ok
}

// OpenAPI returns the assembled OpenAPI document.
func (c *Catalog) OpenAPI() []byte { return c.openAPI }

// Validate checks a JSON payload against the published schema of tool's kind and returns every
// violation, in Portuguese, naming the field. It only reads the payload: nothing is called.
func (c *Catalog) Validate(tool, kind string, payload []byte) ([]schemacheck.Violation, error) {
	file := FileName(tool, kind)
	if !c.check.Has(file) {
		return nil, fmt.Errorf("no published schema %s", file)
	}
	if err := syntaxCheck(payload); err != nil {
		return []schemacheck.Violation{{Field: "(documento)", Message: err.Error()}}, nil
	}
	return c.check.ValidateJSON(file, payload), nil
}

// syntaxCheck says, in Portuguese and with the line and column, why payload is not JSON.
func syntaxCheck(payload []byte) error {
	if _, err := schemabundle.Decode(payload); err != nil {
		if se, ok := err.(*json.SyntaxError); ok {
			line, col := position(payload, se.Offset)
			return fmt.Errorf("o conteúdo não é um JSON válido (linha %d, coluna %d).", line, col)
		}
		if len(payload) == 0 || err.Error() == "EOF" || err.Error() == "unexpected EOF" {
			return fmt.Errorf("o conteúdo não é um JSON válido: está vazio ou termina antes da hora.")
		}
		return fmt.Errorf("o conteúdo não é um JSON válido (um único valor JSON é esperado).")
	}
	return nil
}

func position(b []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off-1 && i < int64(len(b)); i++ {
		if b[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}
