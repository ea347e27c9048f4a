package features

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/cucumber/godog"
)

// queryLog keeps the server's debug log since the last rollup step: the log line "query reads a
// rollup" is how an operator (and these steps) see which queries a rollup answered; clients
// never do.
type queryLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *queryLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// take returns the log so far and empties it.
func (l *queryLog) take() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.buf.String()
	l.buf.Reset()
	return s
}

func initRollupSteps(w *lumoWorld, sc *godog.ScenarioContext) {
	sc.Step(`^the query read the rollup "([^"]*)"$`, func(name string) error { return w.readRollup(name) })
	sc.Step(`^the query read no rollup$`, func() error { return w.readRollup("") })
}

// readRollup checks which rollup the queries since the last check read: name, or none for "".
// With LUMO_ROLLUPS=off no query reads one, and the same scenarios check the base tables' answers.
func (w *lumoWorld) readRollup(name string) error {
	if external() {
		return godog.ErrSkip
	}
	log := w.queryLog.take()
	if err := engineRead(log); err != nil {
		return err
	}
	if os.Getenv("LUMO_ROLLUPS") == "off" {
		name = ""
	}
	read := strings.Contains(log, "query reads a rollup")
	switch {
	case name == "" && read:
		return fmt.Errorf("a query read a rollup:\n%s", log)
	case name != "" && !strings.Contains(log, "rollup="+name+" "):
		return fmt.Errorf("no query read rollup %s; log:\n%s", name, log)
	}
	return nil
}

// engineRead checks, with LUMO_COLUMNAR=on, that every query in log ran on the columnar copy.
func engineRead(log string) error {
	if !columnarOn() {
		return nil
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "msg=\"query engine\"") && !strings.Contains(line, "engine=duckdb") {
			return fmt.Errorf("LUMO_COLUMNAR=on, but a query ran on the database: %s", line)
		}
	}
	return nil
}
