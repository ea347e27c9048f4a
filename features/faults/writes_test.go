package faults

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// cadServer is a running `caderninho serve` on stdio and the MCP session to it.
type cadServer struct {
	cmd *exec.Cmd
	cs  *mcp.ClientSession
	t   *testing.T
	pg  string // on PostgreSQL, the DSN without the server's application_name
	app string // and the application_name its connections carry
}

// serverApps numbers the servers' application names on PostgreSQL.
var serverApps int

// startCaderninho starts `caderninho serve --db dsn` on stdio with env added to the environment.
func startCaderninho(t *testing.T, bin, dsn string, env ...string) *cadServer {
	t.Helper()
	s := &cadServer{t: t}
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		serverApps++
		s.pg, s.app = dsn, fmt.Sprintf("faults-caderninho-%d", serverApps)
		q := u.Query()
		q.Set("application_name", s.app)
		u.RawQuery = q.Encode()
		dsn = u.String()
	}
	cmd := exec.Command(bin, "serve", "--db", dsn)
	cmd.Env = append(os.Environ(), env...)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "faults", Version: "1"}, nil).Connect(context.Background(),
		&mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("starting caderninho serve: %v", err)
	}
	s.cmd, s.cs = cmd, cs
	t.Cleanup(s.kill)
	return s
}

// kill ends the server with SIGKILL: no deferred cleanup, no rollback by the process. On
// PostgreSQL it then waits for the server's backends to end: a COMMIT the server had sent
// before it died still completes, after the process is gone, and what the test reads next must
// see it.
func (s *cadServer) kill() {
	if s.cmd.ProcessState == nil {
		s.cmd.Process.Kill()
	}
	s.cs.Close()
	if s.pg == "" {
		return
	}
	db, err := sql.Open("postgres", s.pg)
	if err != nil {
		s.t.Errorf("opening PostgreSQL to wait for the killed server's backends: %v", err)
		return
	}
	defer db.Close()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1", s.app).Scan(&n); err != nil {
			s.t.Errorf("waiting for the killed server's backends: %v", err)
			return
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			s.t.Errorf("%d backends of the killed server %s still run after 30 s", n, s.app)
			return
		}
	}
}

// callResult is what a tool call answered: the text, structuredContent and the error code.
type callResult struct {
	text       string
	structured map[string]any
	code       string // "" on success
}

func (s *cadServer) call(t *testing.T, tool string, args map[string]any) callResult {
	t.Helper()
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("calling %s: %v", tool, err)
	}
	return decodeResult(t, res)
}

func decodeResult(t *testing.T, res *mcp.CallToolResult) callResult {
	t.Helper()
	var r callResult
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			r.text = tc.Text
		}
	}
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &r.structured); err != nil {
			t.Fatal(err)
		}
	}
	if res.IsError {
		if e, ok := r.structured["error"].(map[string]any); ok {
			r.code, _ = e["code"].(string)
		}
		if r.code == "" {
			r.code = "?"
		}
	}
	return r
}

// writeState is what a categorize write of one month may have changed.
type writeState struct {
	categorized int64  // edits with the write's target category
	revision    int64  // the space's revision
	claim       string // the key's status in cad_writes ("" when absent)
}

func (w writeState) String() string {
	return fmt.Sprintf("%d categorized, revision %d, claim %q", w.categorized, w.revision, w.claim)
}

func readWriteState(t *testing.T, dsn, category, key string) writeState {
	t.Helper()
	ctx := context.Background()
	s, err := cadstore.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("opening the database after the kill: %v", err)
	}
	db := s.DB()
	defer db.Close()
	q := func(s string) string {
		if db.Engine() == "postgres" {
			return strings.Replace(s, "?", "$1", 1)
		}
		return s
	}
	var w writeState
	if err := db.SQL().QueryRow(q("SELECT COUNT(*) FROM cad_edits WHERE category = ?"), category).Scan(&w.categorized); err != nil {
		t.Fatal(err)
	}
	if err := db.SQL().QueryRow(q("SELECT revision FROM cad_spaces WHERE space_key = ?"), "casa").Scan(&w.revision); err != nil {
		t.Fatal(err)
	}
	err = db.SQL().QueryRow(q("SELECT status FROM cad_writes WHERE idempotency_key = ?"), key).Scan(&w.claim)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatal(err)
	}
	return w
}

// categorize is plan_categorize of every transaction of month (1..12) to category, under key.
func categorize(month int, category, key string) map[string]any {
	last := time.Date(2026, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return map[string]any{"space": "casa", "confirmed": true, "idempotency_key": key, "category": category,
		"selection": map[string]any{"from": fmt.Sprintf("2026-%02d-01", month), "to": fmt.Sprintf("2026-%02d-%02d", month, last)}}
}

// TestKillDuringCaderninhoWrite kills `caderninho serve` with SIGKILL while a plan_categorize by
// selection (one month of 480 bank transactions, within the atomic limit) is running, at points
// spread over twice the call's time. After each kill the database holds none of the write or all of it, the
// revision bumped only with it; re-sending the same call with the same key on a restarted server
// replays the stored result when the write committed, and otherwise runs it once the crashed
// process's claim has expired (CADERNINHO_CLAIM_EXPIRY shortens the 2 minutes). A fresh write
// works afterwards.
func TestKillDuringCaderninhoWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills real processes; skipped with -short")
	}
	// Months: 1 measures, then one per kill (extra ones only if no kill landed before the
	// commit), and month 12 for the fresh write at the end.
	const perMonth, kills, extra = 480, 8, 2
	bin := binary(t, "caderninho")
	dir := t.TempDir()
	path := caderninhoInstallation(t, dir, 1, 12, perMonth)
	cats := make([]string, 12)
	for i := range cats {
		cats[i] = fmt.Sprintf("Categoria %d", i+1)
	}
	yaml, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, strings.Replace(string(yaml), "categories: [Mercado]", "categories: [\""+strings.Join(cats, "\", \"")+"\"]", 1))
	dsn := storetest.DSN(t)
	run(t, bin, "import", "--db", dsn, path)

	// Month 1 measures a whole write through a running server.
	srv := startCaderninho(t, bin, dsn)
	began := time.Now()
	if r := srv.call(t, "plan_categorize", categorize(1, cats[0], "medida-1")); r.code != "" {
		t.Fatalf("the measuring write failed: %s %s", r.code, r.text)
	}
	full := time.Since(began)
	srv.kill()
	t.Logf("a plan_categorize of %d transactions takes %v through the server", perMonth, full.Round(time.Millisecond))

	outcomes := map[string]int{}
	// Kills spread past the measured time too, so some land after the commit; the last one (-1)
	// comes right after the answer, so a committed write's replay after a crash is always proven.
	points := append(killPoints(full*2, kills-1), -1)
	for i := 0; i < len(points); i++ {
		d := points[i]
		month, cat, key := i+2, cats[i+1], fmt.Sprintf("morte-kill-%d", i+2)
		before := readWriteState(t, dsn, cat, key)
		srv := startCaderninho(t, bin, dsn)
		answered := make(chan *mcp.CallToolResult, 1)
		sent := time.Now()
		var took time.Duration
		go func() {
			res, err := srv.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_categorize", Arguments: categorize(month, cat, key)})
			if err != nil {
				res = nil // the connection died with the process
			}
			took = time.Since(sent)
			answered <- res
		}()
		var res *mcp.CallToolResult
		if d < 0 {
			res = <-answered
			srv.kill()
		} else {
			time.Sleep(d)
			srv.kill()
			res = <-answered
		}

		// (a) none of the write or all of it; the revision bumped only with it
		got := readWriteState(t, dsn, cat, key)
		var committed bool
		switch {
		case got.categorized == 0 && got.revision == before.revision && got.claim != cadstore.WriteDone:
		case got.categorized == perMonth && got.revision == before.revision+1 && got.claim == cadstore.WriteDone:
			committed = true
		default:
			t.Fatalf("kill -9 after %v left a partial write: %s (before: %s)", d, got, before)
		}
		if res != nil && !res.IsError && !committed {
			t.Fatalf("the call answered success but nothing was committed: %s", got)
		}
		what := map[string]string{"": "before the claim", cadstore.WriteRunning: "claimed, not committed", cadstore.WriteDone: "committed"}[got.claim]
		outcomes[what]++
		if res != nil {
			what += fmt.Sprintf(", answered in %v", took.Round(time.Millisecond))
		}
		when := "after " + d.Round(time.Millisecond).String()
		if d < 0 {
			when = "after the answer"
		}
		t.Logf("kill -9 %s: %s (%s)", when, what, got)

		// (b) the same call with the same key on a restarted server
		again := startCaderninho(t, bin, dsn)
		r := again.call(t, "plan_categorize", categorize(month, cat, key))
		switch got.claim {
		case cadstore.WriteDone:
			if r.code != "" || r.structured["replay"] != true || !strings.HasPrefix(r.text, "Repetição") {
				t.Fatalf("re-sending a committed write is not a replay: %s %v\n%s", r.code, r.structured["replay"], r.text)
			}
			if after := readWriteState(t, dsn, cat, key); after != got {
				t.Fatalf("the replay wrote: %s, was %s", after, got)
			}
		case cadstore.WriteRunning:
			// The dead process's claim holds the key for ClaimExpiry (2 minutes)...
			if r.code != "IDEMPOTENCY_IN_PROGRESS" {
				t.Fatalf("re-sending over a crashed claim gives %q, want IDEMPOTENCY_IN_PROGRESS:\n%s", r.code, r.text)
			}
			if after := readWriteState(t, dsn, cat, key); after != got {
				t.Fatalf("the refused retry wrote: %s, was %s", after, got)
			}
			again.kill()
			// ...and then the next retry takes it over and writes once.
			again = startCaderninho(t, bin, dsn, cadstore.ClaimExpiryEnv+"=1s")
			deadline := time.Now().Add(15 * time.Second)
			for r = again.call(t, "plan_categorize", categorize(month, cat, key)); r.code == "IDEMPOTENCY_IN_PROGRESS" && time.Now().Before(deadline); {
				time.Sleep(250 * time.Millisecond)
				r = again.call(t, "plan_categorize", categorize(month, cat, key))
			}
			fallthrough
		default:
			if r.code != "" || r.structured["replay"] != false {
				t.Fatalf("re-sending an uncommitted write after the restart gives %s (replay %v):\n%s", r.code, r.structured["replay"], r.text)
			}
			after := readWriteState(t, dsn, cat, key)
			if want := (writeState{perMonth, before.revision + 1, cadstore.WriteDone}); after != want {
				t.Fatalf("after the retry: %s, want %s", after, want)
			}
			if r := again.call(t, "plan_categorize", categorize(month, cat, key)); r.structured["replay"] != true {
				t.Fatalf("a third send is not a replay: %s\n%s", r.code, r.text)
			}
		}
		again.kill()
		if i == len(points)-1 && outcomes["claimed, not committed"] == 0 && len(points) < kills+extra {
			// writes ran faster than measured: try earlier kills
			points = append(points, points[0]>>(len(points)-kills+1)) // half, then a quarter of the first point
		}
	}
	t.Logf("kills: %v", outcomes)
	if outcomes["committed"] == 0 {
		t.Errorf("no kill landed after a commit (the last one follows the answer): %v", outcomes)
	}
	if outcomes["claimed, not committed"] == 0 {
		// Timing on a loaded machine: every kill missed the open write. Not a failure: the
		// takeover of a crashed claim is also proven without timing in impl/caderninho's
		// TestExpiredClaim; here it was simply not exercised this run.
		t.Logf("no kill landed between the claim and the commit this run: %v", outcomes)
	}

	// (c) a fresh write afterwards
	last := 12
	fresh := startCaderninho(t, bin, dsn)
	before := readWriteState(t, dsn, cats[last-1], "depois-das-mortes")
	if r := fresh.call(t, "plan_categorize", categorize(last, cats[last-1], "depois-das-mortes")); r.code != "" {
		t.Fatalf("a fresh write after the kills failed: %s %s", r.code, r.text)
	}
	if got, want := readWriteState(t, dsn, cats[last-1], "depois-das-mortes"), (writeState{perMonth, before.revision + 1, cadstore.WriteDone}); got != want {
		t.Fatalf("the fresh write left %s, want %s", got, want)
	}
}
