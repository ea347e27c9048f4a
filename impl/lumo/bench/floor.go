package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/platform/mcphttp"
)

// The floor is what the go-sdk itself costs: a server whose one tool answers a constant, over the
// same Streamable HTTP transport and measured by the same client as lumo. lumo cannot do a call in
// less time, nor more calls per second, than this on the same machine.

// FloorEnv, set to a loopback address, makes the bench binary serve the floor server there instead
// of running the bench (the bench starts itself as a child process).
const FloorEnv = "LUMO_BENCH_FLOOR_ADDR"

// FloorReport is the floor server measured like lumo's small call.
type FloorReport struct {
	Call       Timing     `json:"trivial_call"`
	RawCall    Timing     `json:"trivial_call_raw_client"`
	Load       LoadReport `json:"http_load"`
	RawLoad    LoadReport `json:"http_load_raw_client"`
	CPUPerCall float64    `json:"server_cpu_ms_per_call"`
}

// ServeFloor runs the floor server on addr until ctx ends.
func ServeFloor(ctx context.Context, addr string) error {
	srv := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"}, nil)
	// The cheapest tool the SDK serves: no schema inference or validation, a ready answer.
	srv.AddTool(&mcp.Tool{Name: "echo", Description: "constant answer", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "5 linhas."}},
				StructuredContent: map[string]any{"rows": [][]string{{"AL"}, {"GO"}, {"MG"}, {"PA"}, {"PR"}}}}, nil
		})
	mux := http.NewServeMux()
	// The transport options of lumo serve (one JSON body per answer).
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{JSONResponse: true}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	hs := &http.Server{Addr: addr, Handler: mux}
	go func() { <-ctx.Done(); hs.Close() }()
	if err := hs.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// runFloor starts this binary as the floor server and measures it as runEngine measures lumo.
func runFloor(ctx context.Context, c Config) (*FloorReport, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), FloorEnv+"="+addr)
	cmd.Env = append(cmd.Env, c.ServerEnv...)
	srv, err := startProcess(ctx, cmd, "http://"+addr)
	if err != nil {
		return nil, fmt.Errorf("floor server: %w", err)
	}
	defer srv.stop()
	cs, err := srv.connect(ctx)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	rc, err := mcphttp.Connect(srv.url+"/mcp", "", "lumo-bench")
	if err != nil {
		return nil, err
	}
	r := &FloorReport{}
	var d, raw []time.Duration
	for i := range c.SmallCalls + 5 {
		t0 := time.Now()
		if _, err := call(ctx, cs, "echo", map[string]any{}); err != nil {
			return nil, err
		}
		t1 := time.Now()
		if err := rawCall(rc, "echo", map[string]any{}); err != nil {
			return nil, err
		}
		if i >= 5 {
			d, raw = append(d, t1.Sub(t0)), append(raw, time.Since(t1))
		}
	}
	r.Call, r.RawCall = timing(d), timing(raw)
	r.Load, r.RawLoad, err = srv.loads(ctx, c, "echo", map[string]any{})
	r.CPUPerCall = r.Load.ServerCPUPerCall
	return r, err
}
