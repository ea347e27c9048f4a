package cli

import (
	"os"
	"runtime/debug"
)

// SoftMemoryLimit sets the Go runtime's soft memory limit to bytes, unless GOMEMLIMIT is set
// (the environment wins). Near the limit the collector works harder, so a process whose live
// data stays under it peaks near that data instead of near twice it, as GOGC alone allows.
func SoftMemoryLimit(bytes int64) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(bytes)
	}
}
