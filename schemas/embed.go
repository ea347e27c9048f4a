// Package schemas embeds the JSON Schemas that are the specification of every tool and file format.
package schemas

import "embed"

// FS holds schemas/<server>/*.json exactly as written; bundled copies are derived from it.
//
//go:embed lumo/*.json caderninho/*.json
var FS embed.FS
