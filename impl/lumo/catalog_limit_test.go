package lumo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo/bench"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
)

// catalogSets are catalogues to compare with the reference: synthetic ones whose names collide
// once folded (1,200 apps: about 100 of each name, the text budget spent long before the end),
// and one listing some apps twice (sameName and alsoIn skip every entry of the app itself).
func catalogSets() map[string][]*semantic.App {
	twice := syntheticApps(60)
	twice = append(twice, twice[:20]...)
	return map[string][]*semantic.App{
		"synthetic-300": syntheticApps(300), "synthetic-500": syntheticApps(500),
		"synthetic-1200": syntheticApps(1200), "empty": nil, "twice": twice,
	}
}

// The lumo://apps text is the reference catalogue's text: read from the store (the demo's ana,
// lumo-bench's catalogue) and built for the synthetic catalogues.
func TestCatalogResourceMatchesReference(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ImportWorkspace(ctx, bench.Catalog(300), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	for _, login := range []string{"ana", bench.CatalogLogin} {
		u, err := db.UserByLogin(ctx, login)
		if err != nil {
			t.Fatal(err)
		}
		s := &Service{DB: db, Identity: FixedUser(u), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
		res, err := s.readCatalog(ctx, &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: "lumo://apps"}})
		if err != nil {
			t.Fatal(err)
		}
		all := visible(t, func(ctx context.Context) ([]*semantic.App, error) { return db.VisibleApps(ctx, u) })
		if d := cmp.Diff(refCatalogReply(all, all).Text, res.Contents[0].Text); d != "" {
			t.Errorf("%s: lumo://apps (-want +got):\n%s", login, d)
		}
	}
	for name, all := range catalogSets() {
		want := refCatalogReply(all, all)
		if d := cmp.Diff(want.Text, catalogText(all, semantic.FoldedOf(all), 0, len(all))); d != "" {
			t.Errorf("%s: text (-want +got):\n%s", name, d)
		}
		sameReply(t, name+" catalogue", catalogReply(all, all), want)
	}
}

// An entry's quick lower bound never turns down an entry that fits: each entry is accepted with
// exactly its length of room and refused with one byte less.
func TestCatalogEntryLeastNeverRefusesAFit(t *testing.T) {
	for name, all := range catalogSets() {
		f := semantic.FoldedOf(all)
		lens := newIDLengths(all)
		for i := range all {
			entry, ok := catalogEntryText(all, f, lens, i, math.MaxInt)
			if !ok {
				t.Fatalf("%s app %d: refused with unlimited room", name, all[i].ID)
			}
			if got, ok := catalogEntryText(all, f, lens, i, len(entry)); !ok || got != entry {
				t.Errorf("%s app %d: refused with room for its %d bytes", name, all[i].ID, len(entry))
			}
			if _, ok := catalogEntryText(all, f, lens, i, len(entry)-1); ok {
				t.Errorf("%s app %d: accepted with one byte less than its %d", name, all[i].ID, len(entry))
			}
		}
	}
}

// The size counted before building is a lower bound of the structured answer's JSON, for the
// whole catalogue and each app alone; a limit of exactly the answer's size answers as before,
// and one below the bound is RESULT_TOO_LARGE.
func TestCatalogLeastBytesIsALowerBound(t *testing.T) {
	sets := catalogSets()
	big := syntheticApps(40)
	for _, a := range big { // every nullable field set, and names JSON escapes
		desk, cloned, at := "Mesa <A&B>", &semantic.AppRef{ID: 7, Name: "Origem \"x\""}, time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
		a.Desk, a.ClonedFrom, a.Description, a.PublishedAt = &desk, cloned, "Painel \u00e9 <b>", &at
	}
	sets["nullables"] = big
	for name, all := range sets {
		f := semantic.FoldedOf(all)
		check := func(what string, lo, hi int) {
			t.Helper()
			least := catalogLeastBytes(all, f, lo, hi, math.MaxInt)
			r, err := catalogReplyOf(all, lo, hi, 0)
			if err != nil {
				t.Fatal(err)
			}
			js := r.JSON
			if least > len(js) {
				t.Errorf("%s: counted %d bytes before building, the JSON has %d", what, least, len(js))
			}
			size := len(r.Text) + len(js)
			fits, err := catalogReplyOf(all, lo, hi, size)
			if err != nil {
				t.Errorf("%s: a limit of the answer's %d bytes refused it: %v", what, size, err)
			} else {
				sameReply(t, what, fits, r)
			}
			if _, err := catalogReplyOf(all, lo, hi, least-1); !isTooLarge(err) {
				t.Errorf("%s: a limit under the %d bytes counted answered %v", what, least, err)
			}
		}
		check(name+" catalogue", 0, len(all))
		for i := range all {
			if i%13 == 0 {
				check(fmt.Sprintf("%s app %d", name, all[i].ID), i, i+1)
			}
		}
	}
}

func isTooLarge(err error) bool {
	var te *mcpserver.ToolError
	return errors.As(err, &te) && te.Code == "RESULT_TOO_LARGE"
}

// A catalogue whose answer is surely over the limit (5,000 apps, about 400 of each name: tens
// of MB of sameName and alsoIn) is refused before anything is built, in Portuguese, saying what
// to ask instead; its text alone (lumo://apps) is built without the lists it cannot show.
func TestCatalogOverTheLimitIsRefusedEarly(t *testing.T) {
	all := syntheticApps(5000)
	f := semantic.FoldedOf(all)
	_, err := catalogReplyOf(all, 0, len(all), DefaultMaxResultBytes)
	var te *mcpserver.ToolError
	if !errors.As(err, &te) || te.Code != "RESULT_TOO_LARGE" {
		t.Fatalf("got %v, want RESULT_TOO_LARGE", err)
	}
	for _, s := range []string{"A resposta de search_catalog sem termos teria pelo menos ",
		" bytes, acima do limite de 4.194.304 bytes por resposta (o catálogo tem 5.000 Aplicações)."} {
		if !strings.Contains(te.Message, s) {
			t.Errorf("message %q lacks %q", te.Message, s)
		}
	}
	if want := []string{"Use terms para achar Indicadores, expressões e colunas pelo nome.",
		"Use appId para descrever uma Aplicação só."}; !cmp.Equal(te.Suggestions, want) {
		t.Errorf("suggestions %q, want %q", te.Suggestions, want)
	}
	if n := testing.AllocsPerRun(3, func() { _, _ = catalogReplyOf(all, 0, len(all), DefaultMaxResultBytes) }); n > 50 {
		t.Errorf("refusing took %.0f allocations", n)
	}
	// The budget holds a few dozen entries; the others are turned down without being built.
	if n := testing.AllocsPerRun(3, func() { catalogText(all, f, 0, len(all)) }); n > 20_000 {
		t.Errorf("the text took %.0f allocations", n)
	}
}
