package caderninho

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore/cadstoretest"
	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
)

// BenchmarkCall times small tool calls on the demo installation through an in-memory MCP
// session: the whole path, from the arguments' check to the text and the JSON block.
func BenchmarkCall(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	if err := demo.CopyCaderninho(dir); err != nil {
		b.Fatal(err)
	}
	st := cadstoretest.Open(b)
	inst, err := installation.Load(os.DirFS(dir), "installation.yaml")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.Register(ctx, inst, dir); err != nil {
		b.Fatal(err)
	}
	if _, err := st.ImportConnections(ctx, nil); err != nil {
		b.Fatal(err)
	}
	svc := &Service{Store: st, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Identity: Fixed(LocalAssistant)}
	srv, err := NewServer(svc, Options{})
	if err != nil {
		b.Fatal(err)
	}
	ct, sst := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, sst, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"caderninho_accounts", map[string]any{}},
		{"plan_totals", map[string]any{"groupBy": "category"}},
	} {
		b.Run(c.tool, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				if err != nil {
					b.Fatal(err)
				}
				if r.IsError {
					b.Fatal(r.Content[0].(*mcp.TextContent).Text)
				}
			}
		})
	}
}
