package features

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"

	"github.com/cucumber/godog"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/report"
)

// reportPage is the last report page opened: status and HTML.
type reportPage struct {
	status int
	body   string
}

func initPermalinkSteps(w *lumoWorld, sc *godog.ScenarioContext) {
	unescape := func(s string) string { return strings.ReplaceAll(s, `\"`, `"`) }
	sc.Step(`^the server's public URL is "([^"]*)"$`, func(u string) error {
		if external() { // a foreign server's public URL is its own
			return errNeedsOwnSetup
		}
		w.publicURL = u
		return nil
	})
	sc.Step(`^"permalink" is a report link under "([^"]*)"$`, func(base string) error {
		m, _ := w.structured.(map[string]any)
		v, ok := m["permalink"].(string)
		if !ok {
			return fmt.Errorf("no permalink in %v", w.structured)
		}
		pat := "^" + regexp.QuoteMeta(base) + `/app/[0-9]+/report/[A-Za-z0-9_-]{22,}$`
		if !regexp.MustCompile(pat).MatchString(v) {
			return fmt.Errorf("permalink %q does not match %s", v, pat)
		}
		w.lastPermalink = v
		return nil
	})
	sc.Step(`^"permalink" is the same link as before$`, func() error {
		m, _ := w.structured.(map[string]any)
		if v, _ := m["permalink"].(string); v != w.lastPermalink || v == "" {
			return fmt.Errorf("permalink %q, before %q", v, w.lastPermalink)
		}
		return nil
	})
	sc.Step(`^"([^"]*)" opens the permalink in a browser$`, w.opensPermalink)
	sc.Step(`^the report page answers (\d+) and contains "(.*)"$`, func(status int, want string) error {
		if w.page.status != status || !strings.Contains(w.page.body, unescape(want)) {
			return fmt.Errorf("report page: status %d, want %d containing %q:\n%s", w.page.status, status, want, w.page.body)
		}
		return nil
	})
	sc.Step(`^the report page does not contain "(.*)"$`, func(s string) error {
		if strings.Contains(w.page.body, unescape(s)) {
			return fmt.Errorf("report page contains %q:\n%s", s, w.page.body)
		}
		return nil
	})
}

// opensPermalink opens the last permalink on the report pages as login (the single-user viewer
// identity, so the page runs under that user's access).
func (w *lumoWorld) opensPermalink(ctx context.Context, login string) error {
	u, err := w.db.UserByLogin(ctx, login)
	if err != nil {
		return fmt.Errorf("user %s: %w", login, err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	mux := http.NewServeMux()
	(&report.Handler{DB: w.db, Runner: w.service(&lumo.Service{Log: log}), Log: log, PublicURL: w.publicURL, User: u}).Register(mux)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequestWithContext(ctx, "GET", strings.TrimPrefix(w.lastPermalink, w.publicURL), nil))
	w.page = reportPage{status: rec.Code, body: rec.Body.String()}
	return nil
}
