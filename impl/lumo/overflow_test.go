package lumo

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
)

// TestQueryNearFloatLimit: a CSV with values near float64's limit (1.7 × 10^308). A sum that
// overflows (SQLite gives +Inf, PostgreSQL fails with 22003) is an OUT_OF_RANGE error in
// Portuguese on both engines, not INTERNAL nor an empty cell; a value that fits is shown as
// 1,70 × 10^308, not 309 digits.
func TestQueryNearFloatLimit(t *testing.T) {
	ctx := context.Background()
	big := "17" + strings.Repeat("0", 307) // 1.7e308, written the way the CSV format allows
	ws := storetest.OneTableWorkspace("Enormes", `      - {name: C, label: Grupo, type: string, role: dimension}
      - {name: V, label: Valor, type: number, role: measure}
`, "ID,C,V\n1,a,"+big+"\n2,a,"+big+"\n3,b,"+big+"\n4,b,-1\n")

	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, ws, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil || len(apps) != 1 {
		t.Fatalf("apps %v %v", apps, err)
	}
	srv, err := NewServer(&Service{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Identity: FixedUser(u)}, Options{ValidateOutput: true})
	if err != nil {
		t.Fatal(err)
	}
	call := func(fields string) (string, string) {
		t.Helper()
		var args map[string]any
		if err := json.Unmarshal([]byte(`{"appId": `+jsonInt(apps[0].ID)+`, "fields": `+fields+`}`), &args); err != nil {
			t.Fatal(err)
		}
		res, err := mcpserver.CallInProcess(ctx, srv, "test", "query", args)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var sc struct {
			Error struct{ Code string } `json:"error"`
		}
		_ = json.Unmarshal(b, &sc)
		text := ""
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
		return sc.Error.Code, text
	}
	// a sum past the limit, per group and in the total
	for _, f := range []string{
		`[{"ref": "Itens.Grupo"}, {"ref": "Itens.Valor", "agg": "sum"}]`,
		`[{"ref": "Itens.Valor", "agg": "sum"}]`,
		`[{"ref": "Itens.Valor", "agg": "avg"}]`,
	} {
		code, text := call(f)
		if code != "OUT_OF_RANGE" || !strings.Contains(text, "passou do maior número que a consulta representa (cerca de 1,8 × 10^308)") {
			t.Errorf("%s: code %q, text %s", f, code, text)
		}
	}
	// values that fit: each row's own value, and the max
	code, text := call(`[{"ref": "Itens.Id"}, {"ref": "Itens.Valor", "agg": "max"}]`)
	if code != "" || !strings.Contains(text, "1,70 × 10^308") || strings.Contains(text, "000000000000000") {
		t.Errorf("max: code %q, text %s", code, text)
	}
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }
