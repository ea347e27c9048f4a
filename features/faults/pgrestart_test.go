package faults

import (
	"context"
	"encoding/json"
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

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(bin, "serve", "--db", dsn, "--http", addr, "--user", "ana", "--rate-user", "0", "--rate-tenant", "0")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	for i := 0; ; i++ {
		if r, err := http.Get("http://" + addr + "/readyz"); err == nil && r.StatusCode == 200 {
			r.Body.Close()
			break
		}
		if i == 100 {
			t.Fatal("the server did not become ready")
		}
		time.Sleep(100 * time.Millisecond)
	}

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
	if srv.ProcessState != nil {
		t.Fatal("the server process ended")
	}
}
