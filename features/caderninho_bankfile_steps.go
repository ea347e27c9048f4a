package features

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cucumber/godog"

	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
)

// bankFiles is where the bank files of the scenarios are, as the banks export them.
const bankFiles = "testdata/caderninho"

// addBankFileSteps adds the steps that give the installation connections of real banks and put
// their exported files in the connections' folders.
func (w *cadWorld) addBankFileSteps(sc *godog.ScenarioContext) {
	sc.Step(`^the installation gains the person "([^"]*)" named "([^"]*)" with these connections in the space "([^"]*)":$`, w.gainConnections)
	sc.Step(`^the bank file "([^"]*)" is placed in the folder of "([^"]*)"$`, func(file, connection string) error {
		return w.placeBankFile(file, connection, filepath.Base(file), false)
	})
	sc.Step(`^the bank file "([^"]*)" is placed in the folder of "([^"]*)" as "([^"]*)" with a blank last line$`, func(file, connection, name string) error {
		return w.placeBankFile(file, connection, name, true)
	})
	sc.Step(`^the file "([^"]*)" is moved from the folder of "([^"]*)" to the folder of "([^"]*)"$`, w.moveFile)
}

// gainConnections adds a person and, held by them in space, the connections of the table
// (connection, institution) to installation.yaml, each with its folder ofx/<connection>, and
// registers the installation again.
func (w *cadWorld) gainConnections(ctx context.Context, person, name, space string, table *godog.Table) error {
	if external() {
		return errNeedsOwnSetup
	}
	path := filepath.Join(w.dir, "installation.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	yaml := string(b)
	if !strings.Contains(yaml, "\npeople:\n") || !strings.Contains(yaml, "\nconnections:\n") {
		return fmt.Errorf("installation.yaml has no people: or connections: list to add to")
	}
	yaml = strings.Replace(yaml, "\npeople:\n", fmt.Sprintf("\npeople:\n  - {key: %s, name: %s}\n", person, name), 1)
	var conns strings.Builder
	for i, row := range table.Rows {
		if i == 0 {
			continue // the header
		}
		key, institution := row.Cells[0].Value, row.Cells[1].Value
		fmt.Fprintf(&conns, "  - {key: %s, institution: %s, holder: %s, space: %s, source: ofx/%s}\n", key, institution, person, space, key)
		if err := os.MkdirAll(filepath.Join(w.dir, "ofx", key), 0o755); err != nil {
			return err
		}
	}
	yaml = strings.Replace(yaml, "\nconnections:\n", "\nconnections:\n"+conns.String(), 1)
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		return err
	}
	inst, err := installation.Load(os.DirFS(w.dir), "installation.yaml")
	if err != nil {
		return err
	}
	_, err = w.store.Register(ctx, inst, w.dir)
	return err
}

// placeBankFile copies a bank file of testdata/caderninho into the connection's folder as name,
// with one more blank line at its end when blankLine (another file's content, the same rows).
func (w *cadWorld) placeBankFile(file, connection, name string, blankLine bool) error {
	if external() {
		return errNeedsOwnSetup
	}
	b, err := os.ReadFile(filepath.Join(bankFiles, filepath.FromSlash(file)))
	if err != nil {
		return err
	}
	if blankLine {
		b = append(b, '\n')
	}
	return os.WriteFile(filepath.Join(w.dir, "ofx", connection, name), b, 0o644)
}

// moveFile moves a file from one connection's folder to another's.
func (w *cadWorld) moveFile(name, from, to string) error {
	if external() {
		return errNeedsOwnSetup
	}
	return os.Rename(filepath.Join(w.dir, "ofx", from, name), filepath.Join(w.dir, "ofx", to, name))
}
