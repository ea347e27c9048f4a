package features

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"testing/fstest"
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
	// Large arguments without pasting them: each PLACEHOLDER in the JSON becomes generated text
	// (see expandPlaceholders).
	sc.Step(`^I call "([^"]*)" with '(.*)', (\w+ being .+)$`, func(ctx context.Context, tool, args, spec string) error {
		args, err := expandPlaceholders(args, spec)
		if err != nil {
			return err
		}
		return w.call(ctx, tool, args)
	})
	sc.Step(`^the bounds workspace is imported$`, func(ctx context.Context) error {
		if external() {
			return errNeedsOwnSetup
		}
		_, err := w.importWorkspace(ctx, boundsWorkspace())
		return err
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
	l.mirror = nil // REST has its own rate-limit middleware and answer bound, tested in cmd/lumo
	u, err := l.db.UserByLogin(ctx, login)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	limiter := &ratelimit.Limiter{DB: l.db, PerUser: l.perUser, PerTenant: l.perTenant, Log: log,
		Now: func() time.Time { return l.now }}
	srv, err := lumo.NewServer(l.service(&lumo.Service{Log: log, Identity: lumo.FixedUser(u), Limiter: limiter}),
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

var (
	placeholderRe = regexp.MustCompile(`^(\w+) being `)
	copiesRe      = regexp.MustCompile(`^(\d+) (numbered )?copies of '([^']*)' (joined by commas|together)`)
	literalRe     = regexp.MustCompile(`^'([^']*)'`)
	counterRe     = regexp.MustCompile(`\{(n+|day)\}`)
)

// expandPlaceholders replaces every occurrence of each placeholder in args by its text, in the
// order given. spec is "NAME being TEXT" joined by " and "; TEXT is parts joined by ", then ":
// 'literal', or "N copies of 'piece' joined by commas" (or "together"). In "N numbered copies",
// copy i (from 1) writes i for {n}, i zero-padded to k digits for k n's ({nnnn}: 0001), and the
// i-th day from 2024-01-01 for {day}.
func expandPlaceholders(args, spec string) (string, error) {
	for spec != "" {
		m := placeholderRe.FindStringSubmatch(spec)
		if m == nil {
			return "", fmt.Errorf("expected NAME being ..., at %q", spec)
		}
		name := m[1]
		spec = spec[len(m[0]):]
		var text strings.Builder
		for {
			if m := copiesRe.FindStringSubmatch(spec); m != nil {
				n, _ := strconv.Atoi(m[1])
				for i := 1; i <= n; i++ {
					if i > 1 && m[4] == "joined by commas" {
						text.WriteString(",")
					}
					piece := m[3]
					if m[2] != "" {
						piece = counterRe.ReplaceAllStringFunc(piece, func(c string) string {
							if c == "{day}" {
								return time.Date(2024, 1, i, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
							}
							return fmt.Sprintf("%0*d", len(c)-2, i)
						})
					}
					text.WriteString(piece)
				}
				spec = spec[len(m[0]):]
			} else if m := literalRe.FindStringSubmatch(spec); m != nil {
				text.WriteString(m[1])
				spec = spec[len(m[0]):]
			} else {
				return "", fmt.Errorf("expected 'text' or N copies of 'piece' ..., at %q", spec)
			}
			if rest, ok := strings.CutPrefix(spec, ", then "); ok {
				spec = rest
				continue
			}
			break
		}
		if !strings.Contains(args, name) {
			return "", fmt.Errorf("placeholder %s is not in the arguments", name)
		}
		args = strings.ReplaceAll(args, name, text.String())
		if spec != "" {
			rest, ok := strings.CutPrefix(spec, " and ")
			if !ok {
				return "", fmt.Errorf("expected \" and NAME being ...\", at %q", spec)
			}
			spec = rest
		}
	}
	return args, nil
}

// boundsWorkspace is tenant "limites" (user iara) whose app "limites" has every query bound's
// worth of data. Table Itens: rows Id 1..1000 with Nome "item 0001".."item 1000", Dia the Id-th
// day from 2024-01-01, Momento that day at 12:34, Coluna 01..50 "v0" or "v1" (by the parity of Id
// plus the column's number) and Longo, in row 1 only, 1,000 'á'; row 1001 has the empty Nome and
// row 1002 a NULL one, both NULL elsewhere. Dimension table "T" x 99 has the column "C" x 200
// (ref of 300 characters) holding "x" and NULL.
func boundsWorkspace() fstest.MapFS {
	var app, csv strings.Builder
	app.WriteString(`name: Limites
description: Dados para testar cada limite dos argumentos.
tables:
  - label: Itens
    name: itens
    kind: fact
    file: itens.csv
    loadedAt: "2026-10-01T06:00:00-03:00"
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Nome, type: string}
      - {name: DIA, label: Dia, type: date}
      - {name: MOMENTO, label: Momento, type: datetime}
      - {name: LONGO, label: Longo, type: string}
`)
	csv.WriteString("ID,NOME,DIA,MOMENTO,LONGO")
	for k := 1; k <= 50; k++ {
		fmt.Fprintf(&app, "      - {name: C%02d, label: Coluna %02d, type: string}\n", k, k)
		fmt.Fprintf(&csv, ",C%02d", k)
	}
	fmt.Fprintf(&app, `  - label: %s
    name: longa
    kind: dimension
    file: longa.csv
    loadedAt: "2026-10-01T06:00:00-03:00"
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: VALOR, label: %s, type: string}
`, strings.Repeat("T", 99), strings.Repeat("C", 200))
	csv.WriteString("\n")
	for id := 1; id <= 1002; id++ {
		if id > 1000 {
			nome := ""
			if id == 1002 {
				nome = `\N`
			}
			fmt.Fprintf(&csv, "%d,%s%s\n", id, nome, strings.Repeat(`,\N`, 53))
			continue
		}
		day := time.Date(2024, 1, id, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
		longo := `\N`
		if id == 1 {
			longo = strings.Repeat("á", 1000)
		}
		fmt.Fprintf(&csv, "%d,item %04d,%s,%s 12:34,%s", id, id, day, day, longo)
		for k := 1; k <= 50; k++ {
			fmt.Fprintf(&csv, ",v%d", (id+k)%2)
		}
		csv.WriteString("\n")
	}
	return fstest.MapFS{
		"workspace.yaml": {Data: []byte(`tenants:
  - key: limites
    name: Empresa dos Limites
    users:
      - {login: iara, name: Iara Lopes, token: tok-iara-limites}
    desks:
      - {name: Limites, members: [iara]}
    apps:
      - {key: limites, source: apps/limites, desk: Limites, publishedAt: "2026-10-01T09:00:00-03:00"}
`)},
		"apps/limites/app.yaml":  {Data: []byte(app.String())},
		"apps/limites/itens.csv": {Data: []byte(csv.String())},
		"apps/limites/longa.csv": {Data: []byte("ID,VALOR\n1,x\n2,\\N\n")},
	}
}
