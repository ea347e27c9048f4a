package features

import (
	"fmt"
	"regexp"

	"github.com/cucumber/godog"
)

func initPermalinkSteps(w *lumoWorld, sc *godog.ScenarioContext) {
	sc.Step(`^the server's public URL is "([^"]*)"$`, func(u string) { w.publicURL = u })
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
}
