package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
)

// TestFailureLogsCarryNoValues: a handler's internal error that repeats the arguments (as a
// decoder or a driver does) is logged without them, and so is a result that breaks the output
// schema (whose values are data).
func TestFailureLogsCarryNoValues(t *testing.T) {
	fsys := fstest.MapFS{
		"s/boom.input.json":  {Data: []byte(`{"type":"object"}`)},
		"s/boom.output.json": {Data: []byte(`{"type":"object","properties":{"n":{"type":"string"}}}`)},
		"s/bad.input.json":   {Data: []byte(`{"type":"object"}`)},
		"s/bad.output.json":  {Data: []byte(`{"type":"object","properties":{"n":{"type":"string"}}}`)},
	}
	set, err := schemacheck.Compile(fsys, "s")
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	b := &Binder{FS: fsys, Dir: "s", Schemas: set, Log: slog.New(slog.NewJSONHandler(&logs, nil)), ValidateOutput: true}
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	if err := b.Add(srv, Tool{Name: "boom", Handler: func(_ context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (Reply, error) {
		var a struct {
			Day  string `json:"day"`
			Text string `json:"text"`
		}
		_ = json.Unmarshal(args, &a)
		return Reply{}, fmt.Errorf("decoding validated arguments: parsing %q: value out of range; pq: invalid input syntax for type date: %q", a.Text, a.Day)
	}}); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(srv, Tool{Name: "bad", Handler: func(context.Context, *mcp.CallToolRequest, json.RawMessage) (Reply, error) {
		return Reply{Text: "x", Structured: map[string]any{"n": 314159265}}, nil
	}}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, call := range []mcp.CallToolParams{
		{Name: "boom", Arguments: json.RawMessage(`{"day": "0000-01-01", "text": "segredo-do-cliente"}`)},
		{Name: "bad", Arguments: json.RawMessage(`{}`)},
	} {
		res, err := cs.CallTool(ctx, &call)
		if err != nil || !res.IsError {
			t.Fatalf("%s: want an INTERNAL error, got %v %v", call.Name, res, err)
		}
	}
	out := logs.String()
	for _, v := range []string{"0000-01-01", "segredo-do-cliente", "314159265"} {
		if strings.Contains(out, v) {
			t.Errorf("the log carries the value %q:\n%s", v, out)
		}
	}
	for _, want := range []string{`"msg":"tool failed"`, `"tool":"boom"`, `invalid input syntax for type date`, `"fields":["n"]`} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %s:\n%s", want, out)
		}
	}
}
