// Package demo embeds the example caderninho installation that a fresh database is loaded with.
package demo

import (
	"embed"
	"io/fs"
)

//go:embed installation.yaml next ofx
var caderninhoFiles embed.FS

// Caderninho is the demo installation, rooted so that "installation.yaml" is at its top: two
// people, two spaces, four bank connections with their OFX statements under ofx/, and under next/
// the statements a later sync finds (not named by installation.yaml).
var Caderninho fs.FS = caderninhoFiles

// CopyCaderninho writes the demo installation into dir (which must exist), so that its statement
// folders are real folders a sync can read and new statements can be dropped into.
func CopyCaderninho(dir string) error {
	return copyFS(dir, Caderninho)
}
