// Command specgen writes the OpenAPI 3.1 document that ogen generates a server's Go types from.
//
// Usage: specgen -schemas ../schemas -server lumo -out lumo/openapi.json
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lumo-caderninho/mcp/impl/platform/specgen"
)

func main() {
	schemas := flag.String("schemas", "schemas", "folder holding <server>/*.json")
	server := flag.String("server", "", "server folder inside -schemas, e.g. lumo")
	out := flag.String("out", "", "file to write the document to")
	flag.Parse()
	if *server == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*schemas, *server, *out); err != nil {
		fmt.Fprintln(os.Stderr, "specgen:", err)
		os.Exit(1)
	}
}

func run(schemas, server, out string) error {
	doc, err := specgen.Generate(os.DirFS(schemas), server)
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
