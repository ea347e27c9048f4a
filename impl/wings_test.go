package impl

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The layout is the architecture: impl/lumo and impl/caderninho are the two products' wings,
// impl/platform what both stand on. Neither wing imports the other, not even in its tests, and the
// platform imports neither. The binaries belong to their wing; features/ is no wing: the
// conformance suite drives both products. Modelled on tailscale's tstest/deptest: go list says
// what each package depends on.

const module = "github.com/lumo-caderninho/mcp/"

// A wing is the package patterns that make it up and the folders its packages live in.
type wing struct {
	name     string
	patterns []string
	folders  []string
}

var (
	lumo = wing{"lumo",
		[]string{"impl/lumo/...", "cmd/lumo", "cmd/lumo-bench"},
		[]string{"impl/lumo", "cmd/lumo", "cmd/lumo-bench"}}
	caderninho = wing{"caderninho",
		[]string{"impl/caderninho/...", "cmd/caderninho"},
		[]string{"impl/caderninho", "cmd/caderninho"}}
	platform = wing{"platform", []string{"impl/platform/..."}, []string{"impl/platform"}}
)

// features is the conformance suite, which may use both wings; no wing may use it.
const features = "features"

func TestWingsDoNotImportEachOther(t *testing.T) {
	for _, tt := range []struct {
		w         wing
		tests     bool
		forbidden []string
	}{
		{lumo, true, append(slices.Clone(caderninho.folders), features)},
		{caderninho, true, append(slices.Clone(lumo.folders), features)},
		// The platform's own code only: schemapub's external test checks what both real servers
		// publish, so it imports both on purpose, without making the platform depend on them.
		{platform, false, append(append(slices.Clone(lumo.folders), caderninho.folders...), features)},
	} {
		t.Run(tt.w.name, func(t *testing.T) {
			pkgs := depsOf(t, tt.tests, tt.w.patterns...)
			if len(pkgs) < 2 {
				t.Fatalf("go list found %d packages in %v", len(pkgs), tt.w.patterns)
			}
			for _, pkg := range slices.Sorted(maps.Keys(pkgs)) {
				if !within(pkg, tt.w.folders) {
					t.Errorf("%s is not in the %s wing's folders %v", pkg, tt.w.name, tt.w.folders)
				}
				for _, dep := range pkgs[pkg] {
					if within(dep, tt.forbidden) {
						t.Errorf("%s depends on %s", pkg, dep)
					}
				}
			}
		})
	}
}

// Every package under impl/ is in a wing or in the platform.
func TestEveryPackageHasAPlace(t *testing.T) {
	places := append(append(slices.Clone(lumo.folders), caderninho.folders...), platform.folders...)
	for pkg := range depsOf(t, false, "impl/...") {
		if pkg != "impl" && !within(pkg, places) {
			t.Errorf("%s is in neither wing nor the platform: move it under one of %v", pkg, places)
		}
	}
}

// depsOf lists the packages that patterns (relative to the module) match, each with the module's
// packages it depends on, with tests' dependencies too when tests is set. Paths are relative to
// the module, and a test package or test binary counts as the package it tests.
func depsOf(t *testing.T, tests bool, patterns ...string) map[string][]string {
	t.Helper()
	args := []string{"list", "-f", "{{.ImportPath}}{{range .Deps}}\t{{.}}{{end}}"}
	if tests {
		args = append(args, "-test")
	}
	// Patterns relative to the module's root, not import paths: go resolves an import path pattern
	// with "..." against every module in the build list, which needs each one's source, and so the
	// network for a module the build lists but does not use; a directory pattern reads only the
	// main module.
	for _, p := range patterns {
		args = append(args, "./"+p)
	}
	consultSources(t)
	cmd := exec.Command("go", args...)
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Split(line, "\t")
		pkg, ok := local(fields[0])
		if !ok {
			continue
		}
		deps := pkgs[pkg]
		for _, d := range fields[1:] {
			if dep, ok := local(d); ok && dep != pkg {
				deps = append(deps, dep)
			}
		}
		slices.Sort(deps)
		pkgs[pkg] = slices.Compact(deps)
		if pkgs[pkg] == nil {
			pkgs[pkg] = []string{}
		}
	}
	return pkgs
}

// consultSources looks at every file of the module's Go packages, so that go test's cache, which
// cannot see what the go list child reads, reruns this test when an import changes.
func consultSources(t *testing.T) {
	t.Helper()
	for _, dir := range []string{".", "../cmd", "../features", "../gen", "../schemas"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			_, err = os.Stat(path)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat("../go.mod"); err != nil {
		t.Fatal(err)
	}
}

// local is path relative to the module, with a test variant ("p [p.test]"), external test
// package ("p_test") or test binary ("p.test") folded into p; ok is false outside the module.
func local(path string) (string, bool) {
	path, _, _ = strings.Cut(path, " [")
	path = strings.TrimSuffix(strings.TrimSuffix(path, ".test"), "_test")
	rel, ok := strings.CutPrefix(path, module)
	if !ok {
		return "", false
	}
	return rel, true
}

// within reports whether pkg is one of folders or inside one.
func within(pkg string, folders []string) bool {
	for _, f := range folders {
		if pkg == f || strings.HasPrefix(pkg, f+"/") {
			return true
		}
	}
	return false
}
