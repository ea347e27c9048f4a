//go:build cgo

package query

import (
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
)

// GoldenRun is a golden request (see goldenCases) as engines_duckdb_test.go runs it on data:
// the fixture whose first app (of its first tenant) it reads, and whether the query tool reads
// rollups for it (rollup_) and offers every measured column to the loose walk (walk_).
type GoldenRun struct {
	Name          string
	Fixture       int // in GoldenFixtures
	Req           Request
	Rollups, Walk bool
}

// GoldenRuns are the golden requests, in name order.
func GoldenRuns(t testing.TB) []GoldenRun {
	byName := map[string]int{}
	for i, fsys := range GoldenFixtures() {
		byName[fixtureApp(t, fsys).Name] = i
	}
	var runs []GoldenRun
	for _, c := range goldenCases(t) {
		i, ok := byName[c.app.Name]
		if !ok {
			t.Fatalf("%s: app %q is in no golden fixture", c.name, c.app.Name)
		}
		runs = append(runs, GoldenRun{c.name, i, c.req, strings.HasPrefix(c.name, "rollup_"), strings.HasPrefix(c.name, "walk_")})
	}
	// Segments, columns of related rows, como and em: the membership fixture, the last one.
	membership := membershipCases()
	for _, name := range slices.Sorted(maps.Keys(membership)) {
		runs = append(runs, GoldenRun{Name: name, Fixture: len(GoldenFixtures()) - 1, Req: membership[name]})
	}
	return runs
}

// GoldenFixtures are the workspaces the golden requests' apps come from (see fixtureApp).
func GoldenFixtures() []fs.FS {
	fixtures := []fs.FS{demo.Lumo}
	for _, dir := range []string{"joins", "calc", "rollups", "rollups_auto", "late"} {
		fixtures = append(fixtures, os.DirFS("../../../features/testdata/"+dir))
	}
	fixtures = append(fixtures, wholeFS(), wholeRollupsFS())
	return append(fixtures, copiesFS(), os.DirFS("../../../features/testdata/membership"))
}
