package features

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/cucumber/godog"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/ratelimit"
)

// limitsWorld holds a scenario's rate limits and clock; the windows themselves are in w.db, so
// every connection of the scenario shares them as replicas do.
type limitsWorld struct {
	*lumoWorld
	perUser, perTenant int
	now                time.Time
	maxResult          int // bytes per answer; 0 = the server's default
}

func initLimitsSteps(w *lumoWorld, sc *godog.ScenarioContext) {
	l := &limitsWorld{lumoWorld: w, now: time.Date(2026, 11, 29, 12, 0, 37, 0, time.UTC)}
	sc.Step(`^the rate limits are (\d+) calls per minute per user and (\d+) per tenant$`, func(u, t int) {
		l.perUser, l.perTenant = u, t
	})
	sc.Step(`^the clock says (\d\d):(\d\d):(\d\d)$`, func(h, m, s int) {
		l.now = time.Date(2026, 11, 29, h, m, s, 0, time.UTC)
	})
	sc.Step(`^I am connected as "([^"]*)" under those limits$`, l.connectLimited)
	sc.Step(`^answers are limited to (\d+) bytes$`, func(n int) error {
		if external() {
			return errNeedsOwnSetup
		}
		l.maxResult = n
		return nil
	})
	// Large arguments without pasting them: PLACEHOLDER in the JSON becomes n copies of a piece.
	sc.Step(`^I call "([^"]*)" with '(.*)', (\w+) being (\d+) copies of '(.*)' (joined by commas|together)$`,
		func(ctx context.Context, tool, args, placeholder string, n int, piece, how string) error {
			sep := ""
			if how == "joined by commas" {
				sep = ","
			}
			return w.call(ctx, tool, strings.Replace(args, placeholder, strings.Repeat(piece+sep, n)[:n*len(piece+sep)-len(sep)], 1))
		})
	sc.Step(`^I call "([^"]*)" (\d+) times successfully$`, func(ctx context.Context, tool string, n int) error {
		for i := range n {
			if err := w.call(ctx, tool, "{}"); err != nil {
				return err
			}
			if err := w.succeeds(); err != nil {
				return fmt.Errorf("call %d of %d: %w", i+1, n, err)
			}
		}
		return nil
	})
}

// connectLimited connects like "I am connected as", to a server whose tool calls count against
// the scenario's limits (the stdio path: a refused call is a RATE_LIMITED tool error).
func (l *limitsWorld) connectLimited(ctx context.Context, login string) error {
	if l.session != nil {
		l.session.Close()
	}
	if err := l.connectedAs(ctx, login); err != nil { // tools and output schemas for the checks
		return err
	}
	l.session.Close()
	u, err := l.db.UserByLogin(ctx, login)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	limiter := &ratelimit.Limiter{DB: l.db, PerUser: l.perUser, PerTenant: l.perTenant, Log: log,
		Now: func() time.Time { return l.now }}
	srv, err := lumo.NewServer(&lumo.Service{DB: l.db, Log: log, Identity: lumo.FixedUser(u), Limiter: limiter},
		lumo.Options{ValidateOutput: true, MaxResultBytes: l.maxResult})
	if err != nil {
		return err
	}
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		return err
	}
	l.session, err = mcp.NewClient(&mcp.Implementation{Name: "features", Version: "1"}, nil).Connect(ctx, ct, nil)
	return err
}
