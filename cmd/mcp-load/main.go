// Command mcp-load is a bounded loopback load test of the real lumo and caderninho binaries over
// Streamable HTTP: many concurrent MCP clients call read tools for a while and it reports calls/s,
// p50/p99 latency, errors by kind and the server's peak RSS. For lumo a second, short run at the
// default rate limits checks that the only errors are the documented 429s and that the calls
// admitted are exactly the per-minute budget. With -slowloris, each server then faces thousands
// of idle and slow connections while /healthz must keep answering and the server's open files
// must come back to where they were.
//
//	go run ./cmd/mcp-load -clients 50 -duration 30s -slowloris 4000
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lumo-caderninho/mcp/impl/platform/mcphttp"
)

func main() {
	clients := flag.Int("clients", 50, "concurrent MCP clients")
	duration := flag.Duration("duration", 30*time.Second, "length of the throughput run of each server")
	limited := flag.Duration("limited", 3*time.Second, "length of lumo's run at the default rate limits, under a minute (0 skips it)")
	servers := flag.String("servers", "lumo,caderninho", "servers to load, comma separated")
	bin := flag.String("bin", "", "folder holding built lumo and caderninho binaries (default: build them)")
	slow := flag.Int("slowloris", 0, "then attack each server with this many idle and slow connections (0 skips it)")
	slowFor := flag.Duration("slowloris-for", 10*time.Second, "length of each slowloris attack")
	lumoArgs := flag.String("lumo-args", "", "more flags for lumo serve, space separated (e.g. \"--columnar off\")")
	flag.Parse()
	if *limited >= time.Minute {
		fmt.Fprintln(os.Stderr, "mcp-load: -limited must be under a minute, the span the rate limit holds over")
		os.Exit(2)
	}
	if err := run(*clients, *duration, *limited, strings.Split(*servers, ","), *bin, *slow, *slowFor, strings.Fields(*lumoArgs)); err != nil {
		fmt.Fprintln(os.Stderr, "mcp-load:", err)
		os.Exit(1)
	}
}

func run(clients int, duration, limited time.Duration, servers []string, bin string, slow int, slowFor time.Duration, lumoArgs []string) error {
	tmp, err := os.MkdirTemp("", "mcp-load-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if bin == "" {
		bin = filepath.Join(tmp, "bin")
		for _, s := range servers {
			if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, s), "github.com/lumo-caderninho/mcp/cmd/"+s).CombinedOutput(); err != nil {
				return fmt.Errorf("go build %s: %v\n%s", s, err, out)
			}
		}
	}
	failed := false
	for _, s := range servers {
		var r *report
		switch s {
		case "lumo":
			r, err = loadLumo(filepath.Join(bin, "lumo"), filepath.Join(tmp, "lumo"), clients, duration, append([]string{"--rate-user", "0", "--rate-tenant", "0"}, lumoArgs...), false)
		case "caderninho":
			r, err = loadCaderninho(filepath.Join(bin, "caderninho"), filepath.Join(tmp, "caderninho"), clients, duration)
		default:
			return fmt.Errorf("unknown server %q", s)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
		r.print(map[string]string{"lumo": "lumo (rate limits off)", "caderninho": "caderninho (has no rate limits)"}[s])
		if len(r.errors) > 0 {
			failed = true
		}
		if s == "lumo" && limited > 0 {
			r, err = loadLumo(filepath.Join(bin, "lumo"), filepath.Join(tmp, "lumo-limited"), clients, limited, lumoArgs, true)
			if err != nil {
				return fmt.Errorf("lumo at default limits: %w", err)
			}
			r.print("lumo (default limits: 60/min per user)")
			if msg := r.checkBudget(60); msg != "" {
				fmt.Println("  FAIL:", msg)
				failed = true
			} else {
				fmt.Printf("  admitted %d sessions + %d calls = the 60 of one minute; every other call was a 429 with Retry-After\n", r.sessions, r.ok+r.toolErrors)
			}
		}
	}
	if failed {
		return errors.New("errors other than the documented 429s")
	}
	for _, s := range servers {
		if slow <= 0 {
			break
		}
		err := slowloris(s, filepath.Join(bin, s), filepath.Join(tmp, s+"-slowloris"), slow, slowFor)
		if err != nil {
			return fmt.Errorf("%s under slowloris: %w", s, err)
		}
	}
	return nil
}

type server struct {
	cmd  *exec.Cmd
	url  string
	logs bytes.Buffer
}

// start runs bin serve on a free loopback port with its data in dataHome and waits until /mcp answers.
func start(bin, dataHome string, args ...string) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	s := &server{url: "http://" + addr + "/mcp"}
	s.cmd = exec.Command(bin, append([]string{"serve", "--http", addr}, args...)...)
	s.cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+dataHome)
	s.cmd.Stderr = &s.logs
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	for i := 0; i < 300; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return s, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.stop()
	return nil, fmt.Errorf("the server did not listen on %s:\n%s", addr, s.logs.String())
}

// peakRSS is the server's VmHWM (peak resident set) in KiB, and at the end of the run how much
// of its resident set is its own memory (RssAnon) and how much pages of files, mostly its binary's
// code (RssFile: shared and reclaimable).
func (s *server) peakRSS() string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return "?"
	}
	v := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, val, ok := strings.Cut(l, ":"); ok {
			v[k] = strings.TrimSpace(val)
		}
	}
	return fmt.Sprintf("%s (at the end: anonymous %s, files %s)", v["VmHWM"], v["RssAnon"], v["RssFile"])
}

func (s *server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

type call struct {
	tool string
	args map[string]any
}

func loadLumo(bin, dataHome string, clients int, d time.Duration, args []string, defaultLimits bool) (*report, error) {
	s, err := start(bin, dataHome, append([]string{"--user", "ana"}, args...)...)
	if err != nil {
		return nil, err
	}
	defer s.stop()
	c, err := mcphttp.Connect(s.url, "", "mcp-load")
	if err != nil {
		return nil, err
	}
	var cat struct {
		Apps []struct {
			ID int64 `json:"id"`
		} `json:"apps"`
	}
	if err := c.Structured("search_catalog", map[string]any{}, &cat); err != nil || len(cat.Apps) == 0 {
		return nil, fmt.Errorf("reading the catalogue: %v", err)
	}
	app := cat.Apps[0].ID
	mix := []call{
		{"search_catalog", map[string]any{"terms": "faturamento"}},
		{"get_app", map[string]any{"appId": app}},
		{"search_values", map[string]any{"appId": app, "contains": "ana"}},
		{"query", map[string]any{"appId": app, "fields": []any{map[string]any{"ref": "Vendas.Canal"}, map[string]any{"ref": "Vendas.Valor da venda", "agg": "sum"}}}},
	}
	if defaultLimits { // the budget counts from the first request: the session and catalogue read above spent two
		r := hammer(s, clients, d, mix, "")
		r.ok++
		r.sessions++
		return r, nil
	}
	return hammer(s, clients, d, mix, ""), nil
}

// seedCaderninho creates the default database with the demo installation (a call on stdio does).
func seedCaderninho(bin, dataHome string) error {
	cmd := exec.Command(bin, "call", "caderninho_accounts", "{}")
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+dataHome)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("seeding the demo: %v\n%s", err, out)
	}
	return nil
}

func loadCaderninho(bin, dataHome string, clients int, d time.Duration) (*report, error) {
	if err := seedCaderninho(bin, dataHome); err != nil {
		return nil, err
	}
	s, err := start(bin, dataHome)
	if err != nil {
		return nil, err
	}
	defer s.stop()
	mix := []call{
		{"caderninho_accounts", map[string]any{}},
		{"caderninho_transactions", map[string]any{"space": "casa", "limit": 20}},
		{"caderninho_bills", map[string]any{}},
		{"plan_totals", map[string]any{"space": "casa"}},
	}
	return hammer(s, clients, d, mix, "tok-assistente"), nil
}

type report struct {
	calls      int
	ok         int
	toolErrors int // admitted calls that answered isError (counted in the budget)
	sessions   int // sessions opened: each initialize counts in the budget
	limited    int // 429s
	noRetry    int // 429s without Retry-After
	errors     map[string]int
	latencies  []time.Duration
	byTool     map[string][]time.Duration
	elapsed    time.Duration
	rss        string
	start, end time.Time
}

// hammer runs clients sessions calling mix round-robin for d.
func hammer(s *server, clients int, d time.Duration, mix []call, token string) *report {
	r := &report{errors: map[string]int{}, byTool: map[string][]time.Duration{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var seq atomic.Int64
	r.start = time.Now()
	deadline := r.start.Add(d)
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			byTool := map[string][]time.Duration{}
			local := report{errors: map[string]int{}}
			c, err := mcphttp.Connect(s.url, token, "mcp-load")
			// An initialize over the rate limit is a 429 like a call: try again until the end.
			var limited *mcphttp.RateLimited
			for errors.As(err, &limited) && time.Now().Before(deadline) {
				local.limited++
				if limited.RetryAfter == "" {
					local.noRetry++
				}
				c, err = mcphttp.Connect(s.url, token, "mcp-load")
			}
			switch {
			case errors.As(err, &limited):
			case err != nil:
				local.errors["connect: "+err.Error()]++
			default:
				local.sessions++
			}
			for c != nil && time.Now().Before(deadline) {
				m := mix[int(seq.Add(1))%len(mix)]
				t0 := time.Now()
				out := c.Call(m.tool, m.args)
				lat = append(lat, time.Since(t0))
				byTool[m.tool] = append(byTool[m.tool], time.Since(t0))
				local.calls++
				switch {
				case out.Status == http.StatusTooManyRequests:
					local.limited++
					if out.RetryAfter == "" {
						local.noRetry++
					}
				case out.Kind != "":
					local.errors[m.tool+": "+out.Kind]++
					if strings.HasPrefix(out.Kind, "tool error") {
						local.toolErrors++
					}
				default:
					local.ok++
				}
			}
			mu.Lock()
			r.calls += local.calls
			r.ok += local.ok
			r.toolErrors += local.toolErrors
			r.sessions += local.sessions
			r.limited += local.limited
			r.noRetry += local.noRetry
			for k, v := range local.errors {
				r.errors[k] += v
			}
			r.latencies = append(r.latencies, lat...)
			for k, v := range byTool {
				r.byTool[k] = append(r.byTool[k], v...)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	r.end = time.Now()
	r.elapsed = r.end.Sub(r.start)
	r.rss = s.peakRSS()
	return r
}

func (r *report) pct(p float64) time.Duration { return pct(r.latencies, p) }

func pct(ls []time.Duration, p float64) time.Duration {
	if len(ls) == 0 {
		return 0
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i] < ls[j] })
	return ls[int(p*float64(len(ls)-1))].Round(100 * time.Microsecond)
}

func (r *report) print(title string) {
	fmt.Printf("%s: %d calls in %.1fs = %.0f calls/s; p50 %v, p99 %v; ok %d, 429 %d; server peak RSS %s\n",
		title, r.calls, r.elapsed.Seconds(), float64(r.calls)/r.elapsed.Seconds(), r.pct(0.50), r.pct(0.99), r.ok, r.limited, r.rss)
	tools := make([]string, 0, len(r.byTool))
	for k := range r.byTool {
		tools = append(tools, k)
	}
	sort.Strings(tools)
	for _, k := range tools {
		fmt.Printf("  %s: %d calls, p50 %v, p99 %v\n", k, len(r.byTool[k]), pct(r.byTool[k], 0.5), pct(r.byTool[k], 0.99))
	}
	keys := make([]string, 0, len(r.errors))
	for k := range r.errors {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("  error %s: %d\n", k, r.errors[k])
	}
	if r.noRetry > 0 {
		fmt.Printf("  error 429 without Retry-After: %d\n", r.noRetry)
	}
}

// checkBudget says what is wrong with a run at perUser calls a minute, "" when nothing.
func (r *report) checkBudget(perUser int) string {
	if len(r.errors) > 0 || r.noRetry > 0 {
		return "errors other than 429 with Retry-After"
	}
	// The run is shorter than the minute the limit holds over, and its clients keep it saturated.
	if admitted := r.ok + r.toolErrors + r.sessions; admitted != perUser {
		return fmt.Sprintf("admitted %d requests (%d sessions, %d calls), want exactly %d (the limit of one minute)",
			admitted, r.sessions, r.ok+r.toolErrors, perUser)
	}
	return ""
}
