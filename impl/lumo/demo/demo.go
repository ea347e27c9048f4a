// Package demo embeds the example lumo workspace that a fresh database is seeded with.
package demo

import (
	"embed"
	"io/fs"
)

//go:embed workspace.yaml apps
var files embed.FS

// Lumo is the demo workspace (two tenants, desks, users, five apps and their CSV data), rooted so
// that "workspace.yaml" is at its top.
var Lumo fs.FS = files
