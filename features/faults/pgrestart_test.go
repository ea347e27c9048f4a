package faults

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

// defaultRestart restarts the machine's PostgreSQL cluster.
const defaultRestart = `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main restart`

// TestPostgresRestartUnderLoad restarts PostgreSQL while clients call a running `lumo serve --http`:
// during the outage calls fail with the clear Portuguese error (never a broken session), and after it
// they succeed again on the same process and sessions. It restarts a shared server, so it runs only
// with LUMO_FAULT_PG_RESTART=1 (and LUMO_TEST_DB a postgres URL); LUMO_FAULT_PG_RESTART_CMD
// replaces the restart command (e.g. for a private cluster).
func TestPostgresRestartUnderLoad(t *testing.T) {
	if os.Getenv("LUMO_FAULT_PG_RESTART") != "1" || !sqldb.IsPostgres(os.Getenv(storetest.EnvDSN)) {
		t.Skip("restarts PostgreSQL: set LUMO_FAULT_PG_RESTART=1 and LUMO_TEST_DB to a postgres URL to run it")
	}
	restart := os.Getenv("LUMO_FAULT_PG_RESTART_CMD")
	if restart == "" {
		restart = defaultRestart
	}
	bin := binary(t, "lumo")
	dsn := storetest.DSN(t)
	run(t, bin, "import", "--db", dsn, lumoWorkspace(t, t.TempDir(), 1000))
	addr := startServe(t, bin, "serve", "--db", dsn, "--user", "ana", "--rate-user", "0", "--rate-tenant", "0")

	ctx := context.Background()
	const clients = 4
	type outcome struct {
		at   time.Time
		ok   bool
		what string
	}
	var mu sync.Mutex
	var outcomes []outcome
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < clients; i++ {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "faults", Version: "1"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer cs.Close()
			for {
				select {
				case <-stop:
					return
				default:
				}
				callCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
				res, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}})
				cancel()
				o := outcome{at: time.Now()}
				switch {
				case err != nil:
					o.what = "transport: " + err.Error()
				case res.IsError:
					b, _ := json.Marshal(res.Content)
					o.what = "isError: " + string(b)
				default:
					o.ok = true
				}
				mu.Lock()
				outcomes = append(outcomes, o)
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	time.Sleep(time.Second)
	began := time.Now()
	if out, err := exec.Command("sh", "-c", restart).CombinedOutput(); err != nil {
		close(stop)
		wg.Wait()
		t.Fatalf("restarting PostgreSQL: %v\n%s", err, out)
	}
	back := time.Now()
	t.Logf("PostgreSQL restarted in %v", back.Sub(began).Round(time.Millisecond))
	// Wait for every client to succeed again, at most 30 s.
	var recovered time.Time
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && recovered.IsZero(); time.Sleep(200 * time.Millisecond) {
		mu.Lock()
		n := 0
		for i := len(outcomes) - 1; i >= 0 && outcomes[i].ok && outcomes[i].at.After(back); i-- {
			n++
		}
		if n >= 2*clients {
			recovered = time.Now()
		}
		mu.Unlock()
	}
	time.Sleep(500 * time.Millisecond)
	close(stop)
	wg.Wait()

	failed := map[string]int{}
	okBefore, okAfter := 0, 0
	for _, o := range outcomes {
		switch {
		case o.ok && o.at.Before(began):
			okBefore++
		case o.ok:
			okAfter++
		default:
			failed[o.what]++
		}
	}
	t.Logf("%d calls: %d answered before the restart, %d after, failures: %v", len(outcomes), okBefore, okAfter, failed)
	if recovered.IsZero() {
		t.Fatalf("the server did not answer again within 30 s of the restart")
	}
	t.Logf("answering again %v after PostgreSQL was back", recovered.Sub(back).Round(time.Millisecond))
	for what := range failed {
		if strings.HasPrefix(what, "transport") {
			t.Errorf("a session broke during the outage: %s", what)
		} else if !strings.Contains(what, "Tente de novo em instantes") {
			t.Errorf("an outage error is not the clear Portuguese one: %s", what)
		}
	}
}

// startServe starts `lumo serve --http` on a free loopback port with args and waits until it is
// ready; the process is killed when the test ends.
func startServe(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(bin, append(args, "--http", addr)...)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	for i := 0; ; i++ {
		if r, err := http.Get("http://" + addr + "/readyz"); err == nil && r.StatusCode == 200 {
			r.Body.Close()
			return addr
		}
		if i == 100 {
			t.Fatal("the server did not become ready")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestPostgresRestartWithTokens: 50 clients with a valid token call the REST mirror while
// PostgreSQL restarts. A token the database cannot check is a 503 with Retry-After, never a 401
// that counts as a guess against the client's address, so no client is ever throttled (429) and
// every client gets 200 again within seconds of the database's return. Before that, one token
// sends 250 calls at once: the bounded pool makes them wait their turn, and none fails.
func TestPostgresRestartWithTokens(t *testing.T) {
	if os.Getenv("LUMO_FAULT_PG_RESTART") != "1" || !sqldb.IsPostgres(os.Getenv(storetest.EnvDSN)) {
		t.Skip("restarts PostgreSQL: set LUMO_FAULT_PG_RESTART=1 and LUMO_TEST_DB to a postgres URL to run it")
	}
	restart := os.Getenv("LUMO_FAULT_PG_RESTART_CMD")
	if restart == "" {
		restart = defaultRestart
	}
	bin := binary(t, "lumo")
	dsn := storetest.DSN(t)
	run(t, bin, "import", "--db", dsn, lumoWorkspace(t, t.TempDir(), 1000))
	addr := startServe(t, bin, "serve", "--db", dsn, "--rate-user", "0", "--rate-tenant", "0")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 300}, Timeout: 60 * time.Second}
	call := func() (int, string) {
		req, _ := http.NewRequest("POST", "http://"+addr+"/tools/search_catalog", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer tok-ana-falhas")
		resp, err := client.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Retry-After") + " " + string(b)
	}

	// 250 calls at once from one token.
	var wg sync.WaitGroup
	statuses := make(chan int, 250)
	for range 250 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, body := call()
			if code != 200 {
				t.Logf("burst: %d %.200s", code, body)
			}
			statuses <- code
		}()
	}
	wg.Wait()
	close(statuses)
	burst := map[int]int{}
	for c := range statuses {
		burst[c]++
	}
	t.Logf("250 calls at once: %v", burst)
	if burst[200] != 250 {
		t.Errorf("250 calls at once from one token: %v, want all 200", burst)
	}

	const clients = 50
	type outcome struct {
		at     time.Time
		status int
		body   string
	}
	var mu sync.Mutex
	var outcomes []outcome
	stop := make(chan struct{})
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				code, body := call()
				mu.Lock()
				outcomes = append(outcomes, outcome{time.Now(), code, body})
				mu.Unlock()
				time.Sleep(50 * time.Millisecond)
			}
		}()
	}
	time.Sleep(time.Second)
	began := time.Now()
	if out, err := exec.Command("sh", "-c", restart).CombinedOutput(); err != nil {
		close(stop)
		wg.Wait()
		t.Fatalf("restarting PostgreSQL: %v\n%s", err, out)
	}
	back := time.Now()
	t.Logf("PostgreSQL restarted in %v", back.Sub(began).Round(time.Millisecond))
	time.Sleep(5 * time.Second)
	close(stop)
	wg.Wait()

	byStatus := map[int]int{}
	var lastFailure time.Time
	for _, o := range outcomes {
		byStatus[o.status]++
		switch o.status {
		case 200:
		case 401, 429:
			t.Errorf("a valid token got %d during the outage: %.300s", o.status, o.body)
		case 503:
			if !strings.HasPrefix(o.body, "2 ") || !strings.Contains(o.body, "Tente de novo em") {
				t.Errorf("503 without Retry-After or the Portuguese message: %.300s", o.body)
			}
		case 500:
			if !strings.Contains(o.body, "Tente de novo em instantes") {
				t.Errorf("500 without the Portuguese message: %.300s", o.body)
			}
		default:
			t.Errorf("status %d during the outage: %.300s", o.status, o.body)
		}
		if o.status != 200 && o.at.After(lastFailure) {
			lastFailure = o.at
		}
	}
	t.Logf("%d calls by 50 clients: %v", len(outcomes), byStatus)
	if !lastFailure.IsZero() && lastFailure.Sub(back) > 3*time.Second {
		t.Errorf("calls still failed %v after PostgreSQL was back", lastFailure.Sub(back).Round(time.Millisecond))
	}
	recent := 0
	for _, o := range outcomes {
		if o.status == 200 && o.at.After(back.Add(3*time.Second)) {
			recent++
		}
	}
	if recent < clients {
		t.Errorf("only %d calls answered 200 in the last 2 s: the clients did not get back in", recent)
	}
}
