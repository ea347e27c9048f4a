package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

// replica is one `lumo serve --http` process.
type replica struct {
	url  string
	cmd  *exec.Cmd
	logs *syncBuffer
	done chan error
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func startReplica(t *testing.T, bin, dsn string, flags ...string) *replica {
	t.Helper()
	addr := freeAddr(t)
	r := &replica{url: "http://" + addr, logs: &syncBuffer{}, done: make(chan error, 1)}
	r.cmd = exec.Command(bin, append([]string{"serve", "--http", addr, "--db", dsn}, flags...)...)
	r.cmd.Stderr = r.logs
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.done <- r.cmd.Wait() }()
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		<-r.done
	})
	for deadline := time.Now().Add(20 * time.Second); ; {
		resp, err := http.Get(r.url + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return r
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica %s not ready: %v\n%s", addr, err, r.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// roundRobin sends each HTTP request to the next replica, like a load balancer without
// sticky sessions, with the current bearer token.
type roundRobin struct {
	hosts []string
	next  atomic.Int64
	mu    sync.Mutex
	token string
	sent  map[string]int // tools/call POSTs per host
}

func (rr *roundRobin) setToken(tok string) {
	rr.mu.Lock()
	rr.token = tok
	rr.mu.Unlock()
}

func (rr *roundRobin) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	host := rr.hosts[int(rr.next.Add(1)-1)%len(rr.hosts)]
	req.URL.Host, req.Host = host, host
	rr.mu.Lock()
	req.Header.Set("Authorization", "Bearer "+rr.token)
	rr.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func (rr *roundRobin) connect(t *testing.T, base string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "replicas", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: &http.Client{Transport: rr},
			DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// buildLumo returns the lumo binary built from this folder, built once for the package's tests:
// linking DuckDB makes each build take tens of seconds, so tests share one (none writes to it).
func buildLumo(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "lumo-test-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		built.bin = filepath.Join(dir, "lumo")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// built is the binary buildLumo makes, in a folder TestMain removes.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

func lumoCLI(t *testing.T, bin string, args ...string) (string, error) {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	return string(out), err
}

// replicaDatabase is a PostgreSQL database holding the demo workspace; the test skips without
// PostgreSQL (replicas of one service share one database).
func replicaDatabase(t *testing.T) (*store.DB, string) {
	t.Helper()
	if !sqldb.IsPostgres(os.Getenv(storetest.EnvDSN)) {
		t.Skip("needs PostgreSQL: set LUMO_TEST_DB=postgres://... to start two replicas on one database")
	}
	db, dsn := storetest.OpenDSN(t)
	if _, err := db.ImportWorkspace(context.Background(), demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	return db, dsn
}

// TestTwoReplicasBehaveAsOneService starts two `lumo serve --http --stateless` processes on
// one PostgreSQL database behind a round-robin client: one rate-limit budget, one session
// across both, one permalink that opens on both under the viewer's access, tokens issued and revoked with `lumo admin` on both, and SIGTERM.
func TestTwoReplicasBehaveAsOneService(t *testing.T) {
	ctx := context.Background()
	db, dsn := replicaDatabase(t)
	bin := buildLumo(t)
	const publicURL = "https://lumo.exemplo.com.br" // the load balancer's address
	a := startReplica(t, bin, dsn, "--rate-user", "10", "--rate-tenant", "0", "--stateless", "--public-url", publicURL)
	b := startReplica(t, bin, dsn, "--rate-user", "10", "--rate-tenant", "0", "--stateless", "--public-url", publicURL)
	hosts := []string{strings.TrimPrefix(a.url, "http://"), strings.TrimPrefix(b.url, "http://")}

	// The 20 calls take well under the minute the per-user limit holds over.
	rr := &roundRobin{hosts: hosts, token: "tok-ana-loja"}
	ana := rr.connect(t, a.url) // initialize on one replica, then every request on the next
	admitted, refused := 0, 0
	for i := 0; i < 20; i++ {
		res, err := ana.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}})
		switch {
		case err == nil && !res.IsError:
			admitted++
		case err != nil && strings.Contains(err.Error(), "Too Many Requests"):
			refused++
		default:
			t.Fatalf("call %d: %v %v", i+1, err, res)
		}
	}
	// Only the calls count: against a stateless server the client opens no session (protocol
	// 2026-07-28 asks server/discover, not initialize).
	if admitted != 10 || refused != 10 {
		t.Fatalf("--rate-user 10 on two replicas: %d admitted, %d refused; want 10 and 10", admitted, refused)
	}

	// Permalinks: the same query asked on each replica gets one link, and the link opens on both
	// replicas for a viewer who sees the app, never for one who does not.
	var appID int64
	if err := db.SQL().QueryRowContext(ctx, "SELECT id FROM lumo_apps WHERE app_key = 'vendas-comercial'").Scan(&appID); err != nil {
		t.Fatal(err)
	}
	bruno0 := (&roundRobin{hosts: hosts, token: "tok-bruno-loja"}).connect(t, a.url)
	var links []string
	for i := 0; i < 2; i++ { // round robin: one call on each replica
		res, err := bruno0.CallTool(ctx, &mcp.CallToolParams{Name: "query", Arguments: map[string]any{"appId": appID,
			"fields": []any{map[string]any{"ref": "Lojas.Loja"}, map[string]any{"ref": "Vendas.Valor da venda", "agg": "sum"}}}})
		if err != nil || res.IsError {
			t.Fatalf("query %d: %v %v", i+1, err, res)
		}
		link, _ := res.StructuredContent.(map[string]any)["permalink"].(string)
		links = append(links, link)
	}
	if links[0] == "" || links[0] != links[1] || !strings.HasPrefix(links[0], publicURL+"/app/") {
		t.Fatalf("permalinks from the two replicas: %q", links)
	}
	path := strings.TrimPrefix(links[0], publicURL)
	for _, r := range []*replica{a, b} {
		for token, want := range map[string]int{"tok-bruno-loja": http.StatusOK, "tok-carla-outra": http.StatusNotFound} {
			req, _ := http.NewRequest("GET", r.url+path, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want || (want == http.StatusOK) != strings.Contains(string(body), `<td class="num">R$ `) {
				t.Errorf("report on %s with %s: %d (want %d)\n%.300s", r.url, token, resp.StatusCode, want, body)
			}
		}
	}

	// A token issued with lumo admin works on both replicas; revoked, it fails on both at once.
	out, err := lumoCLI(t, bin, "admin", "token", "issue", "bruno", "--label", "replicas", "--db", dsn)
	if err != nil {
		t.Fatalf("token issue: %v", err)
	}
	token := strings.SplitN(out, "\n", 2)[0]
	rb := &roundRobin{hosts: hosts, token: token}
	bruno := rb.connect(t, b.url)
	for i := 0; i < 2; i++ {
		if res, err := bruno.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}}); err != nil || res.IsError {
			t.Fatalf("issued token, call %d: %v %v", i+1, err, res)
		}
	}
	if _, err := lumoCLI(t, bin, "admin", "token", "revoke", "bruno", "replicas", "--db", dsn); err != nil {
		t.Fatalf("token revoke: %v", err)
	}
	for _, r := range []*replica{a, b} {
		req, _ := http.NewRequest("POST", r.url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_catalog","arguments":{}}}`))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("revoked token on %s: %d, want 401", r.url, resp.StatusCode)
		}
	}
	if _, err := bruno.CallTool(ctx, &mcp.CallToolParams{Name: "search_catalog", Arguments: map[string]any{}}); err == nil {
		t.Error("the session kept working after its token was revoked")
	}
	for _, r := range []*replica{a, b} {
		if logs := r.logs.String(); strings.Contains(logs, token) || strings.Contains(logs, "tok-ana-loja") {
			t.Errorf("a token reached the logs of %s", r.url)
		}
	}

	// SIGTERM: the replica stops cleanly and says so.
	a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-a.done:
		a.done <- err // for the cleanup
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
		if !strings.Contains(a.logs.String(), `"msg":"server stopped"`) {
			t.Errorf("no stop line in the logs:\n%s", a.logs)
		}
	case <-time.After(25 * time.Second):
		t.Error("no exit within 25 s of SIGTERM")
	}
}

// TestStatefulSessionsStayOnTheirReplica documents the default (stateful) mode: the session
// lives in the memory of the replica that opened it, so another replica answers 404 and a load
// balancer must be sticky on Mcp-Session-Id, or the replicas run with --stateless.
func TestStatefulSessionsStayOnTheirReplica(t *testing.T) {
	ctx := context.Background()
	_, dsn := replicaDatabase(t)
	bin := buildLumo(t)
	a := startReplica(t, bin, dsn)
	b := startReplica(t, bin, dsn)
	rr := &roundRobin{hosts: []string{strings.TrimPrefix(a.url, "http://"), strings.TrimPrefix(b.url, "http://")}, token: "tok-ana-loja"}
	// initialize on A, notifications/initialized on B: B does not know the session.
	_, err := mcp.NewClient(&mcp.Implementation{Name: "replicas", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: a.url + "/mcp", HTTPClient: &http.Client{Transport: rr},
			DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err == nil || !strings.Contains(fmt.Sprint(err), "404") && !strings.Contains(strings.ToLower(fmt.Sprint(err)), "session") {
		t.Fatalf("a stateful session continued on another replica: %v", err)
	}
	t.Logf("stateful session on another replica: %v", err)
}
