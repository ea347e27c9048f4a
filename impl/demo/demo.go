// Package demo embeds the example lumo workspace that a fresh database is seeded with.
package demo

import (
	"embed"
	"io/fs"
)

//go:embed lumo
var files embed.FS

// Lumo is the demo workspace (two tenants, desks, users, five apps and their CSV data), rooted so
// that "workspace.yaml" is at its top.
var Lumo fs.FS = sub(files, "lumo")

func sub(fsys fs.FS, dir string) fs.FS {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		panic("demo: " + err.Error())
	}
	return s
}
