//go:build tools

// Package tools pins the code generators that go:generate runs, so go.mod keeps their versions.
package tools

import (
	_ "github.com/ogen-go/ogen/cmd/ogen"
)
