package lumo

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// twoTenants is a workspace of two tenants, one user and one app each; appName names the first
// tenant's app.
func twoTenants(appName string) fstest.MapFS {
	return twoTenantsWith(appName, "ID,V\n1,10\n2,20\n")
}

// twoTenantsWith is twoTenants with the first tenant's itens.csv holding data.
func twoTenantsWith(appName, data string) fstest.MapFS {
	app := func(name string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("name: " + name + `
tables:
  - label: Itens
    name: itens
    kind: fact
    file: itens.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: V, label: Valor, type: number, role: measure}
`)}
	}
	csv := &fstest.MapFile{Data: []byte("ID,V\n1,10\n2,20\n")}
	own := &fstest.MapFile{Data: []byte(data)}
	return fstest.MapFS{
		"workspace.yaml": {Data: []byte(`tenants:
  - key: t1
    name: Loja
    users:
      - {login: ana, name: Ana, token: tok-ana-changes}
    desks:
      - {name: Mesa, members: [ana]}
    apps:
      - {key: vendas, source: apps/vendas, desk: Mesa}
  - key: t2
    name: Outra
    users:
      - {login: bea, name: Bea, token: tok-bea-changes}
    desks:
      - {name: Mesa, members: [bea]}
    apps:
      - {key: estoque, source: apps/estoque, desk: Mesa}
`)},
		"apps/vendas/app.yaml":   app(appName),
		"apps/vendas/itens.csv":  own,
		"apps/estoque/app.yaml":  app("Estoque"),
		"apps/estoque/itens.csv": csv,
	}
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// notes collects a session's resource notifications.
type notes struct {
	listChanged chan struct{}
	updated     chan string
}

func connectAs(t *testing.T, url, token string) (*mcp.ClientSession, *notes) {
	t.Helper()
	n := &notes{listChanged: make(chan struct{}, 10), updated: make(chan string, 10)}
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { n.listChanged <- struct{}{} },
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			n.updated <- r.Params.URI
		},
	})
	s, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url,
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, n
}

func listed(t *testing.T, s *mcp.ClientSession) map[string]string {
	t.Helper()
	res, err := s.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range res.Resources {
		got[r.URI] = r.Title
		// A client that shows a resource's name shows the app's, not an id.
		if strings.HasPrefix(r.URI, "lumo://app/") && r.Name != r.Title {
			t.Errorf("resources/list names %s %q, not after its app %q", r.URI, r.Name, r.Title)
		}
	}
	return got
}

// TestResourceChangesReachOnlyTheUsersWhoSeeThem: after an import renames one tenant's app, that
// tenant's session gets list_changed and updated for its subscribed app; the other tenant's
// session, which listed and subscribed too, gets nothing.
func TestResourceChangesReachOnlyTheUsersWhoSeeThem(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, twoTenants("Vendas"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &Service{DB: db, Log: log, Identity: TokenUser(db)}
	srv, err := NewServer(svc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{JSONResponse: true})
	ts := httptest.NewServer(BearerAuth(db, log, nil)(h))
	t.Cleanup(ts.Close)

	ana, anaNotes := connectAs(t, ts.URL, "tok-ana-changes")
	bea, beaNotes := connectAs(t, ts.URL, "tok-bea-changes")
	anaApps, beaApps := listed(t, ana), listed(t, bea)
	var anaApp, beaApp string
	for uri, title := range anaApps {
		if title == "Vendas" {
			anaApp = uri
		}
	}
	for uri, title := range beaApps {
		if title == "Estoque" {
			beaApp = uri
		}
	}
	if len(anaApps) != 2 || len(beaApps) != 2 || anaApp == "" || beaApp == "" {
		t.Fatalf("resources/list: ana %v, bea %v; want lumo://apps and the user's own app each", anaApps, beaApps)
	}
	for _, sub := range []struct {
		s   *mcp.ClientSession
		uri string
	}{{ana, anaApp}, {ana, "lumo://apps"}, {bea, beaApp}, {bea, "lumo://apps"}} {
		if err := sub.s.Subscribe(ctx, &mcp.SubscribeParams{URI: sub.uri}); err != nil {
			t.Fatalf("subscribing to %s: %v", sub.uri, err)
		}
	}
	if err := bea.Subscribe(ctx, &mcp.SubscribeParams{URI: anaApp}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("bea subscribed to ana's app %s: %v", anaApp, err)
	}
	if err := svc.changes.check(ctx); err != nil { // the baseline
		t.Fatal(err)
	}
	if _, err := db.ImportWorkspace(ctx, twoTenants("Vendas do mês"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	if err := svc.changes.check(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-anaNotes.listChanged:
	case <-time.After(5 * time.Second):
		t.Fatal("ana got no list_changed after her app was renamed")
	}
	got := map[string]bool{}
	for len(got) < 2 {
		select {
		case uri := <-anaNotes.updated:
			got[uri] = true
		case <-time.After(5 * time.Second):
			t.Fatalf("ana got updated for %v only; want %s and lumo://apps", got, anaApp)
		}
	}
	if !got[anaApp] || !got["lumo://apps"] {
		t.Fatalf("ana got updated for %v; want %s and lumo://apps", got, anaApp)
	}
	if listed(t, ana)[anaApp] != "Vendas do mês" {
		t.Errorf("ana's list after the rename: %v", listed(t, ana))
	}
	// bea's view did not change: nothing reaches her (the notifications were sent together).
	select {
	case <-beaNotes.listChanged:
		t.Fatal("bea got list_changed for another tenant's change")
	case uri := <-beaNotes.updated:
		t.Fatalf("bea got updated for %s after another tenant's change", uri)
	case <-time.After(300 * time.Millisecond):
	}
	// A check with the counter unmoved sends nothing more.
	if err := svc.changes.check(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-anaNotes.listChanged:
		t.Fatal("a second list_changed with nothing changed")
	case <-time.After(100 * time.Millisecond):
	}
}

// TestCompletionSuggestsTheAppsTheUserSees: appId of lumo://app/{appId} completes to the ids of
// the caller's apps, matched by id prefix or by name regardless of accents and case.
func TestCompletionSuggestsTheAppsTheUserSees(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, twoTenants("Vendas Março"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	u, err := db.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil || len(apps) != 1 {
		t.Fatalf("ana's apps: %v %v", apps, err)
	}
	id := appURI(apps[0].ID)[len("lumo://app/"):]
	svc := &Service{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Identity: FixedUser(u)}
	srv, err := NewServer(svc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	s, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.InitializeResult().Capabilities.Completions == nil {
		t.Error("completions not advertised")
	}
	if s.InitializeResult().Capabilities.Tools.ListChanged {
		t.Error("tools listChanged advertised, but the tools never change")
	}
	for value, want := range map[string][]string{"marco": {id}, "VEND": {id}, id: {id}, "estoque": {}, "zzz": {}} {
		res, err := s.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: appTemplate},
			Argument: mcp.CompleteParamsArgument{Name: "appId", Value: value}})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(res.Completion.Values, ",") != strings.Join(want, ",") || res.Completion.Total != len(want) {
			t.Errorf("completing %q: %+v, want %v (bea's Estoque is not ana's)", value, res.Completion, want)
		}
	}
	res, err := s.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "x"},
		Argument: mcp.CompleteParamsArgument{Name: "a", Value: "v"}})
	if err != nil || res.Completion.Values == nil || len(res.Completion.Values) != 0 {
		t.Errorf("completing an unknown reference: %+v %v, want no values", res, err)
	}
}
