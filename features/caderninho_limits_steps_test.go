package features

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/cucumber/godog"
)

func (w *cadWorld) addLimitSteps(sc *godog.ScenarioContext) {
	sc.Step(`^I am connected as the local assistant with answers limited to (\d+) bytes$`, func(ctx context.Context, n int) error {
		if external() {
			return errNeedsOwnSetup
		}
		w.maxResult = n
		return w.connect(ctx)
	})
	sc.Step(`^the statement "([^"]*)" is placed in the folder of "([^"]*)" with its first <([A-Z]+)> set to (\d+) copies of "([^"]*)"$`,
		func(file, connection, tag string, n int, piece string) error {
			return w.placeEdited(file, connection, tag, strings.Repeat(piece, n))
		})
	sc.Step(`^the statement "([^"]*)" is placed in the folder of "([^"]*)" with its first <([A-Z]+)> set to "([^"]*)"$`, w.placeEdited)
}

// placeEdited copies file into the connection's folder with the value of its first <tag> replaced.
func (w *cadWorld) placeEdited(file, connection, tag, value string) error {
	if external() {
		return errNeedsOwnSetup
	}
	b, err := os.ReadFile(filepath.Join(w.dir, filepath.FromSlash(file)))
	if err != nil {
		return err
	}
	re := regexp.MustCompile(`<` + tag + `>[^\r\n<]*`)
	loc := re.FindIndex(b)
	if loc == nil {
		return fmt.Errorf("%s has no <%s>", file, tag)
	}
	edited := string(b[:loc[0]]) + "<" + tag + ">" + value + string(b[loc[1]:])
	return os.WriteFile(filepath.Join(w.dir, "ofx", connection, filepath.Base(file)), []byte(edited), 0o644)
}
