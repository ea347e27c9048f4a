// Command specgen writes a server's OpenAPI 3.1 documents: the published one (served at
// /openapi.json) and the copy ogen generates the Go code from.
//
// Usage: specgen -schemas ../schemas -server lumo -out lumo/openapi.json -ogen-out lumo/ogen.json
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lumo-caderninho/mcp/impl/platform/specgen"
)

func main() {
	schemas := flag.String("schemas", "schemas", "folder holding <server>/*.json")
	server := flag.String("server", "", "server folder inside -schemas, e.g. lumo")
	out := flag.String("out", "", "file to write the published document to")
	ogenOut := flag.String("ogen-out", "", "file to write ogen's document to")
	flag.Parse()
	if *server == "" || *out == "" || *ogenOut == "" {
		flag.Usage()
		os.Exit(2)
	}
	for _, f := range []struct {
		gen  func(fs.FS, string) ([]byte, error)
		path string
	}{{specgen.Generate, *out}, {specgen.GenerateOgen, *ogenOut}} {
		if err := run(f.gen, *schemas, *server, f.path); err != nil {
			fmt.Fprintln(os.Stderr, "specgen:", err)
			os.Exit(1)
		}
	}
}

func run(gen func(fs.FS, string) ([]byte, error), schemas, server, out string) error {
	doc, err := gen(os.DirFS(schemas), server)
	if err != nil {
		return err
	}
	if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, doc) {
		return nil // unchanged: leave the file (and its modification time) alone
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("creating the output folder: %w", err)
	}
	if err := os.WriteFile(out, doc, 0o644); err != nil {
		return fmt.Errorf("writing the document: %w", err)
	}
	return nil
}
