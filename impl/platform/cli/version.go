// Package cli holds what both command lines share: the version line (module version, commit and
// Go version, from the build information the toolchain embeds), the unknown-command message and
// the soft memory limit.
package cli

import (
	"runtime/debug"
	"strings"
)

// Version is program's one-line version, e.g. "lumo v1.2.0 (commit 1a2b3c4d5e6f, go1.26.8)";
// "(devel)" and "commit desconhecido" when built without a module version or VCS information
// (go run, a tree without git).
func Version(program string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return program + " (sem informação de build)"
	}
	return describe(program, info)
}

// ModuleVersion is the module's version as built (v1.2.0, or a pseudo-version v0.0.0-2026...),
// "(devel)" without one: what the servers say in initialize, as --version says it.
func ModuleVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

func describe(program string, info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	commit, modified := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	var parts []string
	switch {
	case commit == "":
		parts = append(parts, "commit desconhecido")
	case modified:
		parts = append(parts, "commit "+short(commit)+" com alterações locais")
	default:
		parts = append(parts, "commit "+short(commit))
	}
	parts = append(parts, info.GoVersion)
	return program + " " + v + " (" + strings.Join(parts, ", ") + ")"
}

func short(rev string) string { return rev[:min(12, len(rev))] }
