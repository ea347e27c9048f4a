package admin_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore/cadstoretest"
)

// Imports racing on a new installation: one of them makes the owner credential and prints it,
// the others print nothing, and the printed one opens the panel.
func TestEnsureCredentialOnceUnderRace(t *testing.T) {
	ctx := context.Background()
	s := cadstoretest.Open(t)
	ops := admin.Ops{Store: s, Actor: "arquivo"}
	const racers = 8
	got := make([]string, racers)
	errs := make([]error, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = ops.EnsureCredential(ctx)
		}()
	}
	wg.Wait()
	var made []string
	for i, c := range got {
		if errs[i] != nil {
			t.Fatalf("racer %d: %v", i, errs[i])
		}
		if c != "" {
			made = append(made, c)
		}
	}
	if len(made) != 1 || !strings.HasPrefix(made[0], admin.CredentialPrefix) {
		t.Fatalf("%d credentials made (%q); want exactly one", len(made), made)
	}
	if again, err := ops.EnsureCredential(ctx); again != "" || err != nil {
		t.Fatalf("with a credential present, EnsureCredential = %q, %v; want nothing made", again, err)
	}
	if err := s.OpenPanelSession(ctx, "navegador", "sessao-1", made[0], time.Now().Add(time.Hour)); err != nil {
		t.Fatalf("the printed credential does not open the panel: %v", err)
	}
	entries, err := s.Audit(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	var created []string
	for _, e := range entries {
		if e.Action == "panel.credential" {
			created = append(created, e.Detail)
		}
	}
	if len(created) != 1 || created[0] != "Credencial do painel criada." {
		t.Fatalf("audit of the credential: %q; want one \"Credencial do painel criada.\"", created)
	}
}
