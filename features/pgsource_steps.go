package features

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/lumo/pgsource/pgtest"
)

// pgSourceWorld is a throwaway PostgreSQL database an app's tables are loaded from, and the
// imports of a workspace that reads it.
type pgSourceWorld struct {
	c        *csvWorld
	dsn      string
	drop     func()
	dir      string // the workspace last imported
	password string // what the password variable held during the last import
	before   time.Time
	after    time.Time
}

func initPGSourceSteps(c *csvWorld, sc *godog.ScenarioContext) {
	p := &pgSourceWorld{c: c}
	sc.Step(`^the PostgreSQL source database holds:$`, p.holds)
	sc.Step(`^the source database runs:$`, p.runs)
	sc.Step(`^the workspace in "([^"]*)" is imported from it with ([A-Z_]+) set, reading its tables as:$`, p.imported)
	sc.Step(`^I import the workspace in "([^"]*)" from it with ([A-Z_]+) set and "([^"]*)" holding:$`, p.importWith)
	sc.Step(`^the workspace is imported again from it$`, func(ctx context.Context) error { return p.importDir(ctx, p.dir, "", "", true) })
	sc.Step(`^the import fails without the password, with:$`, p.failsWithoutPassword)
	sc.Step(`^"([^"]*)" is a time during the last import$`, p.timeDuringImport)
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		if p.drop != nil {
			p.drop()
			p.drop = nil
		}
		return ctx, nil
	})
}

func (p *pgSourceWorld) holds(doc *godog.DocString) error {
	if external() {
		return errNeedsOwnSetup
	}
	dsn, drop, err := pgtest.Create(doc.Content)
	if errors.Is(err, pgtest.ErrNoPostgres) {
		p.c.w.t.Log(err.Error())
		return fmt.Errorf("%v: %w", err, godog.ErrSkip)
	}
	if err != nil {
		return err
	}
	p.dsn, p.drop = dsn, drop
	return nil
}

func (p *pgSourceWorld) runs(ctx context.Context, doc *godog.DocString) error {
	db, err := sql.Open("postgres", p.dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, doc.Content)
	return err
}

func (p *pgSourceWorld) imported(ctx context.Context, dir, env string, doc *godog.DocString) error {
	if err := p.importDir(ctx, dir, env, "", false); err != nil {
		return err
	}
	if p.c.importErr != nil {
		return p.c.importErr
	}
	if diff := cmp.Diff(strings.Split(strings.TrimSpace(doc.Content), "\n"), p.c.lines); diff != "" {
		return fmt.Errorf("how the tables were read (-want +got):\n%s", diff)
	}
	return nil
}

func (p *pgSourceWorld) importWith(ctx context.Context, dir, env, path string, doc *godog.DocString) error {
	return p.importDir(ctx, dir, env, path+"\x00"+doc.Content, false)
}

// importDir imports the workspace in dir with the source's DSN in place of $SOURCE_DSN and, when
// env is set, a fresh random password in that variable; replace is "path\x00text" for a file
// whose text replaces it. again reuses the last import's variable and password.
func (p *pgSourceWorld) importDir(ctx context.Context, dir, env, replace string, again bool) error {
	if p.dsn == "" {
		return errors.New("no source database: a step must say what it holds first")
	}
	p.dir = dir
	ws, err := os.ReadFile(dir + "/workspace.yaml")
	if err != nil {
		return err
	}
	files := map[string][]byte{"workspace.yaml": []byte(strings.ReplaceAll(string(ws), "$SOURCE_DSN", p.dsn))}
	if path, text, ok := strings.Cut(replace, "\x00"); ok {
		files[path] = []byte(text + "\n")
	}
	if !again && env != "" {
		var b [12]byte
		rand.Read(b[:])
		p.password = "senha-" + hex.EncodeToString(b[:])
		os.Setenv(env, p.password)
		defer os.Unsetenv(env)
	} else if again {
		for _, line := range strings.Split(string(ws), "\n") {
			if _, v, ok := strings.Cut(line, "passwordEnv: "); ok {
				name := strings.TrimRight(strings.TrimSpace(v), "}")
				os.Setenv(name, p.password)
				defer os.Unsetenv(name)
			}
		}
	}
	p.before = time.Now().Add(-time.Second) // stored times are to the second
	p.c.importErr = p.c.importFS(ctx, filesOver(os.DirFS(dir), files))
	p.after = time.Now().Add(time.Second)
	return nil
}

func (p *pgSourceWorld) failsWithoutPassword(doc *godog.DocString) error {
	if err := p.c.importFails(doc); err != nil {
		return err
	}
	if p.password != "" && strings.Contains(p.c.importErr.Error(), p.password) {
		return fmt.Errorf("the error shows the password: %v", p.c.importErr)
	}
	return nil
}

func (p *pgSourceWorld) timeDuringImport(path string) error {
	v, err := p.c.w.at(path)
	if err != nil {
		return err
	}
	s, _ := v.(string)
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return fmt.Errorf("%s is %v, not an RFC 3339 time", path, v)
	}
	if at.Before(p.before) || at.After(p.after) {
		return fmt.Errorf("%s is %s, not between %s and %s", path, at, p.before.Format(time.RFC3339), p.after.Format(time.RFC3339))
	}
	return nil
}
