package lumo

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/go-faster/jx"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// TestQueryBytesAreStable: two identical queries (the answer cache off) give the same bytes,
// summary included, whose keys come sorted whatever Go's map order.
func TestQueryBytesAreStable(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, twoTenantsWith("Vendas", "ID,V\n1,10\n2,20\n3,\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	apps, _ := db.VisibleApps(ctx, u)
	svc := &Service{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Identity: FixedUser(u), ResultCacheBytes: -1}
	in := &lumoapi.QueryInput{AppId: lumoapi.AppId(apps[0].ID), Fields: []lumoapi.Field{
		{Ref: "Itens.Valor", Agg: lumoapi.NewOptAgg(lumoapi.AggSum)},
		{Ref: "Itens.Valor", Agg: lumoapi.NewOptAgg(lumoapi.AggMax)},
		{Ref: "Itens.Valor", Agg: lumoapi.NewOptAgg(lumoapi.AggMin)},
		{Ref: "Itens.Valor", Agg: lumoapi.NewOptAgg(lumoapi.AggAvg)},
		{Ref: "Itens.Id", Agg: lumoapi.NewOptAgg(lumoapi.AggCountDistinct)},
	}}
	encode := func() []byte {
		t.Helper()
		out, err := svc.Query(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if sum, _ := out.Summary.Get(); len(sum) < 2 {
			t.Fatalf("want a summary of several columns, got %v", sum)
		}
		var e jx.Encoder
		out.Encode(&e)
		return e.Bytes()
	}
	first := encode()
	for range 20 {
		if next := encode(); !bytes.Equal(first, next) {
			t.Fatalf("two identical queries gave different bytes:\n%s\n%s", first, next)
		}
	}
}
