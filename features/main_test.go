package features

import (
	"os"
	"testing"

	"github.com/cucumber/godog/colors"
)

func TestLumoFeatures(t *testing.T) {
	if Run("lumo", t, colors.Colored(os.Stdout)) != 0 {
		t.Fatal("lumo features failed")
	}
}
