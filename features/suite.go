// Package features is the Gherkin conformance suite of both servers: every scenario drives a
// server through an MCP client (and, for lumo, its REST mirror too), in process on a fresh database
// under go test, or a foreign server over Streamable HTTP or stdio (see target.go). The features
// are embedded, so cmd/mcp-conformance runs them without the source tree.
package features

import (
	"embed"
	"flag"
	"fmt"
	"io"
	"testing"

	"github.com/cucumber/godog"
)

// Features holds the .feature files of both suites, lumo/ and caderninho/.
//
//go:embed lumo/*.feature caderninho/*.feature
var Features embed.FS

var godogFormat = flag.String("godog.format", "pretty", "godog output format (pretty, progress, cucumber, junit)")

// External says whether the flags name a foreign target (-target or -target-cmd).
func External() bool { return external() }

// Suites are the suites by name.
var Suites = []string{"lumo", "caderninho"}

// Run runs the named suite's scenarios and returns godog's status (0 when all pass). t is the
// test running it under go test, or nil for a foreign target from a program; out receives the
// report.
func Run(name string, t *testing.T, out io.Writer) int {
	if t == nil && !external() {
		fmt.Fprintln(out, "features: without go test the suite needs a foreign target (-target or -target-cmd)")
		return 2
	}
	init := func(sc *godog.ScenarioContext) { initLumoSteps(t, sc) }
	if name == "caderninho" {
		init = func(sc *godog.ScenarioContext) { initCaderninhoSteps(t, sc) }
	}
	opts := &godog.Options{
		Format: suiteFormat(),
		Tags:   suiteTags(),
		Output: out,
		FS:     Features,
		Paths:  []string{name},
		Strict: true,
	}
	if t != nil {
		opts.TestingT = t
	}
	return godog.TestSuite{Name: name, ScenarioInitializer: init, Options: opts}.Run()
}
