package features

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// fuzzTool is one tool of either server, reached through an in-memory client session.
type fuzzTool struct {
	name     string
	connect  func() *mcp.ClientSession
	readOnly bool // the tool's readOnlyHint: it stores nothing a later call could read back
}

// FuzzToolInputs sends arbitrary JSON arguments to every tool of both servers through the real
// server (schema check, decoding, handler, output check): nothing panics, and every call gets a
// result valid against the tool's output schema or an isError with a Portuguese message and a
// code other than INTERNAL, and no answer carries internal text (checkNoLeak: text the client
// sent, quoted back, is not). New tools join by being listed.
//
//	go test ./features -run '^$' -fuzz FuzzToolInputs -fuzztime 30s
func FuzzToolInputs(f *testing.F) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	connect := func(srv *mcp.Server, err error) func() *mcp.ClientSession {
		if err != nil {
			f.Fatal(err)
		}
		return func() *mcp.ClientSession {
			ct, st := mcp.NewInMemoryTransports()
			if _, err := srv.Connect(ctx, st, nil); err != nil {
				f.Fatal(err)
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "fuzz", Version: "1"}, nil).Connect(ctx, ct, nil)
			if err != nil {
				f.Fatal(err)
			}
			return cs
		}
	}

	db := storetest.Open(f)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		f.Fatal(err)
	}
	ana, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		f.Fatal(err)
	}
	lumoConnect := connect(lumo.NewServer(&lumo.Service{DB: db, Log: log, Identity: lumo.FixedUser(ana), QueryTimeout: 5 * time.Second},
		lumo.Options{ValidateOutput: true}))

	cs, _ := demoCaderninho(f, ctx)
	cadConnect := connect(caderninho.NewServer(&caderninho.Service{Store: cs, Log: log, Identity: caderninho.Fixed(caderninho.LocalAssistant)},
		caderninho.Options{ValidateOutput: true}))

	var tools []fuzzTool
	sessions := map[string]*mcp.ClientSession{}
	for _, c := range []func() *mcp.ClientSession{lumoConnect, cadConnect} {
		s := c()
		res, err := s.ListTools(ctx, nil)
		if err != nil {
			f.Fatal(err)
		}
		var names []string
		readOnly := map[string]bool{}
		for _, tl := range res.Tools {
			names = append(names, tl.Name)
			readOnly[tl.Name] = tl.Annotations != nil && tl.Annotations.ReadOnlyHint
		}
		sort.Strings(names)
		for _, n := range names {
			tools = append(tools, fuzzTool{name: n, connect: c, readOnly: readOnly[n]})
			sessions[n] = s
		}
	}
	f.Cleanup(func() {
		for _, s := range sessions {
			s.Close()
		}
	})

	seeds := []string{`{}`, `[]`, `null`, `"x"`, `{"appId": 1}`, `{"appId": 1, "ref": "Vendas.Canal"}`, `{"appId": 1, "contains": "ana"}`,
		`{"terms": ["faturamento", "loja"]}`,
		`{"appId": 1, "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor da venda", "agg": "sum"}], "filters": [{"ref": "Vendas.Data", "op": "between", "value": ["2026-09-01", "2026-09-30"]}], "limit": 5}`,
		`{"space": "casa", "limit": 2}`, `{"space": "casa", "from": "2026-08-01", "to": "2026-09-30", "direction": "out", "text": "mercado"}`,
		`{"person": "rafael"}`, `{"accounts": ["aurora-marina:1"]}`, `{"cursor": "eyJ2IjoxfQ.AAAA", "limit": 1}`,
		`{"idempotency_key": "chave-fuzz-0001", "waitSeconds": 0}`, `{"month": "2026-09", "space": "casa"}`,
		// numbers float64 holds only as integers, or not at all, and the year PostgreSQL lacks
		`{"appId": 6.0}`, `{"appId": 6e0, "limit": 5e2}`, `{"appId": 1e309}`, `{"appId": ` + strings.Repeat("9", 400) + `}`,
		`{"appId": 1, "fields": [{"ref": "Vendas.Quantidade", "agg": "sum"}], "filters": [{"ref": "Vendas.Quantidade", "op": "in", "value": [1e309, 2.0]}], "limit": 2.0}`,
		`{"appId": 1, "fields": [{"ref": "Vendas.Canal"}], "filters": [{"ref": "Vendas.Data", "op": "between", "value": ["0000-01-01", "9999-12-31"]}]}`,
		`{"from": "0000-01-01", "to": "0001-01-01", "limit": 1e-400}`, `{"expectedRevision": 1e20, "limit": 3.0, "waitSeconds": 1e1}`,
		// a field named like the prefix of Go's decoding errors: the answer names it back (issue #48)
		`{"json": ""}`}
	for i := range tools {
		for _, s := range seeds {
			f.Add(uint8(i), []byte(s))
		}
	}

	// stored is the client text of the writes that succeeded so far in this process: the store keeps
	// it (a manual record's description, a note) and a later call of any tool may read it back.
	var stored []string
	seen := map[string]bool{}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		if !json.Valid(args) || depth(args) > 900 { // deeper input closes the session: a go-sdk limit, covered by the hostile corpus
			return
		}
		tool := tools[int(which)%len(tools)]
		callCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		res, err := sessions[tool.name].CallTool(callCtx, &mcp.CallToolParams{Name: tool.name, Arguments: json.RawMessage(args)})
		sent := append(clientText(tool.name, args), stored...)
		if err == nil && !res.IsError && !tool.readOnly {
			for _, s := range clientText("", args) {
				if !seen[s] {
					seen[s] = true
					stored = append(stored, s)
				}
			}
		}
		if err != nil {
			var we *jsonrpc.Error
			if !errors.As(err, &we) {
				t.Fatalf("%s %s: the session failed: %v", tool.name, args, err)
			}
			checkNoLeak(t, err.Error(), false, sent)
			return
		}
		if res.IsError {
			checkToolError(t, res, "", sent)
			return
		}
		checkNoLeak(t, text(res), false, sent)
		if res.StructuredContent == nil {
			t.Fatalf("%s %s: a result without structuredContent", tool.name, args)
		}
	})
}

// depth is how deeply args nest arrays and objects.
func depth(args []byte) int {
	d, max := 0, 0
	in := false
	for i := 0; i < len(args); i++ {
		switch c := args[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == '[' || c == '{'):
			d++
			if d > max {
				max = d
			}
		case !in && (c == ']' || c == '}'):
			d--
		}
	}
	return max
}
