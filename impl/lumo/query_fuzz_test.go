package lumo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"

	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
	"github.com/lumo-caderninho/mcp/schemas"
)

// FuzzQuery feeds arbitrary arguments through the whole query path (the checks the server runs
// on arguments, decoding, compiler, SQL on SQLite): nothing may panic, and every input the server
// accepts either answers or gets an error the caller can act on; never an internal (SQL) error.
func FuzzQuery(f *testing.F) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		f.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		f.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil {
		f.Fatal(err)
	}
	set, err := schemacheck.Compile(schemas.FS, "lumo")
	if err != nil {
		f.Fatal(err)
	}
	svc := &Service{DB: db, Identity: FixedUser(u), Log: slog.New(slog.NewTextHandler(io.Discard, nil)), QueryTimeout: 5 * time.Second}
	for _, seed := range []string{
		`{"appId":1,"fields":[{"ref":"Lojas.Loja"},{"ref":"Vendas.Valor da venda","agg":"sum"}],"filters":[{"ref":"Vendas.Situação","op":"=","value":"Ativa"},{"ref":"Vendas.Data","op":"between","value":["2026-09-01","2026-09-30"]}],"orderBy":[{"ref":"Vendas.Valor da venda","agg":"sum","dir":"desc"}]}`,
		`{"appId":1,"fields":[{"ref":"Vendas.Data","bucket":"hour_of_day"},{"ref":"Margem %"}],"filters":[{"ref":"Vendas.Cupom","op":"not in","value":["",  "PRIMAVERA"]}],"limit":600}`,
		`{"appId":1,"fields":[{"ref":"Lojas.UF"},{"ref":"Metas.Meta","agg":"avg"},{"ref":"Vendas.Id","agg":"count_distinct"}],"filters":[{"ref":"Vendas.Valor da venda","agg":"sum","op":"between","value":[1,2]}]}`,
		`{"appId":1,"fields":[{"ref":"Vendas.Cliente","agg":"count"}],"filters":[{"ref":"Vendas.Cliente","op":"like","value":"%'; DROP TABLE x; --%"},{"ref":"Ticket médio","op":">","value":0}]}`,
		`{"appId":4,"fields":[{"ref":"Movimentos.Data","bucket":"day_of_week"},{"ref":"Saldos.Saldo","agg":"max"}]}`,
	} {
		f.Add([]byte(seed))
	}
	// The server's own checks, not the schema alone: it refuses text with U+0000 and numbers a
	// float64 does not hold, and writes 6.0 as 6, before the handler sees the arguments.
	gate := &mcpserver.Binder{Schemas: set}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checked, refused := gate.CheckArguments("query", raw)
		if refused != nil {
			return
		}
		// Aim every valid request at an app the user sees, so it reaches the compiler. Numbers
		// stay as written (UseNumber): a float64 round trip would change what the server decodes.
		d := json.NewDecoder(bytes.NewReader(checked))
		d.UseNumber()
		var m map[string]any
		if d.Decode(&m) != nil {
			return
		}
		n, _ := m["appId"].(json.Number)
		id, _ := n.Int64()
		m["appId"] = apps[int(uint64(id)%uint64(len(apps)))].ID
		args, _ := json.Marshal(m)
		var in lumoapi.QueryInput
		if err := in.UnmarshalJSON(args); err != nil {
			t.Fatalf("decoding %s: %v", args, err)
		}
		_, _, err := svc.query(ctx, &in)
		var te *mcpserver.ToolError
		if err != nil && !errors.As(err, &te) {
			t.Fatalf("internal error for %s: %v", args, err)
		}
	})
}
