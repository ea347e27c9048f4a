// Package gen holds the generated code (ogen types, codecs, validators and a REST mirror of the tools), the
// tools' reference pages (docs/) and every go:generate line that makes them.
package gen

// lumo: schemas/lumo -> lumo/openapi.json (published) and lumo/ogen.json -> package lumoapi.
//go:generate go run github.com/lumo-caderninho/mcp/impl/platform/specgen/cmd/specgen -schemas ../schemas -server lumo -out lumo/openapi.json -ogen-out lumo/ogen.json
//go:generate go run github.com/ogen-go/ogen/cmd/ogen --target lumoapi --package lumoapi --clean --config ogen.yml lumo/ogen.json

// caderninho: schemas/caderninho -> caderninho/openapi.json (published) and caderninho/ogen.json -> package caderninhoapi.
//go:generate go run github.com/lumo-caderninho/mcp/impl/platform/specgen/cmd/specgen -schemas ../schemas -server caderninho -out caderninho/openapi.json -ogen-out caderninho/ogen.json
//go:generate go run github.com/ogen-go/ogen/cmd/ogen --target caderninhoapi --package caderninhoapi --clean --config ogen.yml caderninho/ogen.json

// The reference pages, one per tool (from the published schemas and the tools' descriptions) and
// one per configuration file (from schemas/<server>/<file>.schema.json), and an index of each.
//go:generate go run github.com/lumo-caderninho/mcp/cmd/lumo schemas doc --write docs/lumo
//go:generate go run github.com/lumo-caderninho/mcp/cmd/caderninho schemas doc --write docs/caderninho

import "embed"

// OpenAPI holds the assembled OpenAPI documents, <server>/openapi.json, served at /openapi.json.
//
//go:embed lumo/openapi.json caderninho/openapi.json
var OpenAPI embed.FS
