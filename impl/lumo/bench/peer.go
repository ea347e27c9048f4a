package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PeerPackage is the generic SQL-passthrough MCP server lumo is compared with, pinned.
const PeerPackage = "@modelcontextprotocol/server-postgres@0.6.2"

// runPeer drives the npm peer and lumo, both over stdio on the same database, with the same
// client: per-call p50 of a trivial call and trivial calls/s.
func runPeer(ctx context.Context, c Config, dsn string, appID int64) (*PeerReport, error) {
	entry, err := installPeer(ctx, c)
	if err != nil {
		return nil, err
	}
	r := &PeerReport{Package: PeerPackage}
	peer := func() *exec.Cmd { return exec.Command("node", entry, dsn) }
	if r.Peer, err = stdioSide(ctx, c, peer, "query", map[string]any{"sql": "SELECT 1"}); err != nil {
		return nil, fmt.Errorf("%s: %w", PeerPackage, err)
	}
	lumo := func() *exec.Cmd {
		cmd := exec.Command(c.Lumo, "serve", "--db", dsn, "--user", Login, "--rate-user", "0", "--rate-tenant", "0", "--columnar", "off")
		cmd.Env = append(os.Environ(), c.ServerEnv...)
		cmd.Stderr = c.ServerLog
		return cmd
	}
	if r.Lumo, err = stdioSide(ctx, c, lumo, "query", SmallCall(appID)); err != nil {
		return nil, fmt.Errorf("lumo over stdio: %w", err)
	}
	return r, nil
}

// installPeer installs the pinned peer under c.PeerDir with npm, once, and returns its entry point.
func installPeer(ctx context.Context, c Config) (string, error) {
	entry := filepath.Join(c.PeerDir, "node_modules", "@modelcontextprotocol", "server-postgres", "dist", "index.js")
	if _, err := os.Stat(entry); err == nil {
		return entry, nil
	}
	if err := os.MkdirAll(c.PeerDir, 0o755); err != nil {
		return "", err
	}
	c.logf("installing %s under %s", PeerPackage, c.PeerDir)
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--prefix", c.PeerDir, PeerPackage)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install %s: %w\n%s", PeerPackage, err, out)
	}
	return entry, nil
}

func stdioSide(ctx context.Context, c Config, command func() *exec.Cmd, tool string, args map[string]any) (StdioReport, error) {
	var r StdioReport
	open := func(ctx context.Context) (*mcp.ClientSession, *exec.Cmd, error) {
		cmd := command()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "lumo-bench", Version: "1"}, nil).Connect(ctx,
			&mcp.CommandTransport{Command: cmd}, nil)
		return cs, cmd, err
	}
	cs, cmd, err := open(ctx)
	if err != nil {
		return r, err
	}
	defer cs.Close()
	var d []time.Duration
	for i := range c.SmallCalls + 5 {
		t0 := time.Now()
		if _, err := call(ctx, cs, tool, args); err != nil {
			return r, err
		}
		if i >= 5 {
			d = append(d, time.Since(t0))
		}
	}
	r.Call = timing(d)
	// One session per client: a stdio server is one process per client.
	r.Load, err = load(ctx, c.Clients, c.LoadDuration, func(ctx context.Context) (func() error, func(), error) {
		s, _, err := open(ctx)
		if err != nil {
			return nil, nil, err
		}
		return func() error { _, err := call(ctx, s, tool, args); return err }, func() { s.Close() }, nil
	})
	r.Memory = memoryOf(cmd.Process.Pid)
	return r, err
}
