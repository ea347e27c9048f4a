package features

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/lumo"
	lumodemo "github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/safestdio"
)

// TestStdioSurvivesOverlongAndDeepLines: both servers on the stdio transport they serve with
// (safestdio over pipes) answer a 17 MiB request and a 5,000-level one with a JSON-RPC error
// carrying the request's id, and go on answering the same session.
func TestStdioSurvivesOverlongAndDeepLines(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, lumodemo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	ana, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	lumoSrv, err := lumo.NewServer(&lumo.Service{DB: db, Log: log, Identity: lumo.FixedUser(ana)}, lumo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := demoCaderninho(t, ctx)
	cadSrv, err := caderninho.NewServer(&caderninho.Service{Store: cs, Log: log, Identity: caderninho.Fixed(caderninho.LocalAssistant)}, caderninho.Options{})
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("a", 17<<20)
	for _, tc := range []struct {
		srv          *mcp.Server
		tool, normal string
		hugeArgs     map[string]any
	}{
		{lumoSrv, "search_catalog", "search_catalog", map[string]any{"terms": huge}},
		{cadSrv, "caderninho_transactions", "caderninho_accounts", map[string]any{"text": huge}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			toServer, fromClient := io.Pipe()
			toClient, fromServer := io.Pipe()
			ss, err := tc.srv.Connect(ctx, safestdio.Over(toServer, fromServer, log), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			session, err := mcp.NewClient(&mcp.Implementation{Name: "stdio", Version: "1"}, nil).
				Connect(ctx, &mcp.IOTransport{Reader: toClient, Writer: fromClient}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer session.Close()
			for _, call := range []struct {
				name string
				args any
				text string
			}{
				{"17 MiB", tc.hugeArgs, "Mensagem grande demais"},
				{"5000 levels", map[string]any{"x": nested5000{}}, "Mensagem aninhada demais"},
			} {
				_, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: call.args})
				var we *jsonrpc.Error
				if !errors.As(err, &we) || we.Code != -32600 || !strings.Contains(we.Message, call.text) {
					t.Fatalf("%s: want a JSON-RPC error -32600 %q, got %v", call.name, call.text, err)
				}
				res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tc.normal, Arguments: map[string]any{}})
				if err != nil || res.IsError {
					t.Fatalf("after %s the session does not answer %s: %v %s", call.name, tc.normal, err, text(res))
				}
			}
		})
	}
}

// nested5000 marshals as 5,000 levels of arrays.
type nested5000 struct{}

func (nested5000) MarshalJSON() ([]byte, error) { return []byte(nested(5000)), nil }
