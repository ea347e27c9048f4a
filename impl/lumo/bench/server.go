package bench

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// server is a `lumo serve --http` child process.
type server struct {
	cmd *exec.Cmd
	url string
}

// startServer runs c's lumo binary on a free loopback port for login, with the rate limits off
// (the bench is one user hammering the server on purpose), and waits until it answers. The
// result cache is off unless cacheMB > 0: a timed repetition must run the query, not read its
// kept answer. The columnar copy is off, unless the app rows are in DuckDB alone.
func startServer(ctx context.Context, c Config, dsn, login string, cacheMB int) (*server, error) {
	return startServerOn(ctx, c.Lumo, dsn, login, cacheMB, cmp.Or(c.serverColumnar, "off"), c.ServerEnv, c.ServerLog)
}

// startServerOn is startServer with --columnar set to columnar (a DuckDB file, or "off").
func startServerOn(ctx context.Context, lumo, dsn, login string, cacheMB int, columnar string, env []string, stderr io.Writer) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(lumo, "serve", "--http", addr, "--user", login, "--db", dsn, "--rate-user", "0", "--rate-tenant", "0",
		"--result-cache-mb", strconv.Itoa(cacheMB), "--columnar", columnar)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = stderr
	return startProcess(ctx, cmd, "http://"+addr)
}

// startProcess starts cmd, an MCP server over HTTP at url, and waits until its /healthz answers.
func startProcess(ctx context.Context, cmd *exec.Cmd, url string) (*server, error) {
	dieWithBench(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	s := &server{cmd: cmd, url: url}
	for deadline := time.Now().Add(60 * time.Second); ; {
		resp, err := http.Get(s.url + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			s.stop()
			return nil, fmt.Errorf("the server at %s did not answer /healthz: %v", url, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
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

// connect opens an MCP session over Streamable HTTP with the go-sdk client.
func (s *server) connect(ctx context.Context) (*mcp.ClientSession, error) {
	return mcp.NewClient(&mcp.Implementation{Name: "lumo-bench", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: s.url + "/mcp", DisableStandaloneSSE: true, MaxRetries: -1}, nil)
}

// Memory is a process's resident memory from /proc/<pid>/status, in MiB.
type Memory struct {
	PeakMiB    float64 `json:"peak_rss_mib"` // VmHWM
	CurrentMiB float64 `json:"rss_mib"`      // VmRSS
}

// resetPeak starts a new peak measurement of process pid (Linux: clear_refs 5 resets VmHWM to
// the current resident set).
func resetPeak(pid int) { os.WriteFile("/proc/"+strconv.Itoa(pid)+"/clear_refs", []byte("5"), 0) }

func memoryOf(pid int) Memory {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return Memory{}
	}
	defer f.Close()
	var m Memory
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
		if err != nil {
			continue
		}
		switch k {
		case "VmHWM":
			m.PeakMiB = kb / 1024
		case "VmRSS":
			m.CurrentMiB = kb / 1024
		}
	}
	return m
}

// cpuSeconds is the user plus system CPU time a process has used (/proc/<pid>/stat), 0 if unknown.
func cpuSeconds(pid int) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// Fields after the command name (which may hold spaces) start after the last ')'.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / clockTicks
}

// clockTicks is USER_HZ, 100 on every Linux architecture Go supports.
const clockTicks = 100
