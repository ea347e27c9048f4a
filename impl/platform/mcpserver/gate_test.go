package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
)

// TestGateBoundsConcurrentCalls: with a gate of 2, six concurrent calls never run more than two at
// once, all of them finish, and a call whose client gives up while waiting leaves without running.
func TestGateBoundsConcurrentCalls(t *testing.T) {
	fsys := fstest.MapFS{
		"s/slow.input.json":  {Data: []byte(`{"type":"object"}`)},
		"s/slow.output.json": {Data: []byte(`{"type":"object"}`)},
	}
	set, err := schemacheck.Compile(fsys, "s")
	if err != nil {
		t.Fatal(err)
	}
	var running, peak, ran atomic.Int32
	release := make(chan struct{})
	b := &Binder{FS: fsys, Dir: "s", Schemas: set, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Gate: make(chan struct{}, 2)}
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	err = b.Add(srv, Tool{Name: "slow", Handler: func(ctx context.Context, _ *mcp.CallToolRequest, _ json.RawMessage) (Reply, error) {
		ran.Add(1)
		n := running.Add(1)
		defer running.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		<-release
		return Reply{Text: "ok", Structured: map[string]any{}}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	// gaveUp counts tools/call requests that ended with their context cancelled: the server learns
	// of a client's give-up asynchronously (notifications/cancelled), and until it does the call
	// still waits for the gate and may take a slot freed meanwhile.
	var gaveUp atomic.Int32
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/call" && ctx.Err() != nil {
				gaveUp.Add(1)
			}
			return res, err
		}
	})
	ctx := context.Background()
	connect := func() *mcp.ClientSession {
		ct, st := mcp.NewInMemoryTransports()
		if _, err := srv.Connect(ctx, st, nil); err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		cs := connect()
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}})
			if err == nil && res.IsError {
				err = errors.New("tool error")
			}
			errs <- err
		}()
	}
	deadline := time.Now().Add(10 * time.Second)
	for running.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // give the four others every chance to start too
	if got := running.Load(); got != 2 {
		t.Fatalf("%d calls running with a gate of 2", got)
	}
	// A waiting call whose client gives up never runs.
	waitCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := connect().CallTool(waitCtx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}}); err == nil {
		t.Error("a call waiting for the gate returned without error after its context ended")
	}
	for gaveUp.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if gaveUp.Load() == 0 {
		t.Fatal("the server never saw the waiting call give up")
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if peak.Load() != 2 || ran.Load() != 6 {
		t.Errorf("peak %d calls at once and %d ran; want 2 and 6", peak.Load(), ran.Load())
	}
}
