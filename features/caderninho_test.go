package features

import (
	"os"
	"testing"

	"github.com/cucumber/godog/colors"
)

func TestCaderninhoFeatures(t *testing.T) {
	if Run("caderninho", t, colors.Colored(os.Stdout)) != 0 {
		t.Fatal("caderninho features failed")
	}
}
