package features

import (
	"os"
	"testing"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/colors"
)

func TestCaderninhoFeatures(t *testing.T) {
	suite := godog.TestSuite{
		Name:                "caderninho",
		ScenarioInitializer: func(sc *godog.ScenarioContext) { initCaderninhoSteps(t, sc) },
		Options: &godog.Options{
			Format:   suiteFormat(),
			Tags:     suiteTags(),
			Output:   colors.Colored(os.Stdout),
			Paths:    []string{"caderninho"},
			Strict:   true,
			TestingT: t,
		},
	}
	if suite.Run() != 0 {
		t.Fatal("caderninho features failed")
	}
}
