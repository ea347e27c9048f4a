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
	sc.Step(`^the statement "([^"]*)" is linked into the folder of "([^"]*)" from (inside|outside) the installation$`, w.linkStatement)
	sc.Step(`^the folder of "([^"]*)" is a link to a folder outside the installation holding its statements and "([^"]*)"$`, w.linkFolder)
}

// linkStatement puts in the connection's folder a symbolic link to file: the installation's own
// copy (inside), or a copy in a folder outside the installation.
func (w *cadWorld) linkStatement(file, connection, where string) error {
	if external() {
		return errNeedsOwnSetup
	}
	target := filepath.Join(w.dir, filepath.FromSlash(file))
	if where == "outside" {
		b, err := os.ReadFile(target)
		if err != nil {
			return err
		}
		target = filepath.Join(w.t.TempDir(), filepath.Base(file))
		if err := os.WriteFile(target, b, 0o644); err != nil {
			return err
		}
	}
	return os.Symlink(target, filepath.Join(w.dir, "ofx", connection, filepath.Base(file)))
}

// linkFolder moves the connection's folder out of the installation, adds file to it and leaves a
// symbolic link in its place.
func (w *cadWorld) linkFolder(connection, file string) error {
	if external() {
		return errNeedsOwnSetup
	}
	folder := filepath.Join(w.dir, "ofx", connection)
	outside := filepath.Join(w.t.TempDir(), connection)
	if err := os.Rename(folder, outside); err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(w.dir, filepath.FromSlash(file)))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(outside, filepath.Base(file)), b, 0o644); err != nil {
		return err
	}
	return os.Symlink(outside, folder)
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
