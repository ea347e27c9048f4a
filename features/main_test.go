// Package features runs the Gherkin conformance suite: every scenario drives the real server
// through an MCP client on a fresh database.
package features

import (
	"flag"
	"os"
	"testing"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/colors"
)

var godogFormat = flag.String("godog.format", "pretty", "godog output format (pretty, progress, cucumber, junit)")

func TestLumoFeatures(t *testing.T) {
	suite := godog.TestSuite{
		Name:                "lumo",
		ScenarioInitializer: func(sc *godog.ScenarioContext) { initLumoSteps(t, sc) },
		Options: &godog.Options{
			Format:   suiteFormat(),
			Tags:     suiteTags(),
			Output:   colors.Colored(os.Stdout),
			Paths:    []string{"lumo"},
			Strict:   true,
			TestingT: t,
		},
	}
	if suite.Run() != 0 {
		t.Fatal("lumo features failed")
	}
}
