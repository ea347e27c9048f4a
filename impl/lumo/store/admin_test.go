package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

func refused(t *testing.T, err error, want string) {
	t.Helper()
	var ae *store.AdminError
	if !errors.As(err, &ae) || !strings.Contains(ae.Msg, want) {
		t.Fatalf("want an AdminError containing %q, got %v", want, err)
	}
}

func TestAdminTokensIssueAndRevoke(t *testing.T) {
	db, _ := importDemo(t)
	a, err := db.IssueToken(ctx, "ana", "laptop")
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.IssueToken(ctx, "ana", "ci")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a, store.TokenPrefix) || len(a) < 40 || a == b {
		t.Fatalf("tokens %q %q", a, b)
	}
	for _, tok := range []string{a, b, "tok-ana-loja"} {
		if u, err := db.UserByToken(ctx, tok); err != nil || u.Login != "ana" {
			t.Fatalf("token %q: %v %v", tok, u, err)
		}
	}
	var n int64
	if err := db.SQL().QueryRow("SELECT COUNT(*) FROM lumo_tokens WHERE token_sha256 = '" + hexSHA(a) + "'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("hash of the token stored: %d %v", n, err)
	}
	_, err = db.IssueToken(ctx, "ana", "laptop")
	refused(t, err, `já tem um token com o rótulo "laptop"`)
	_, err = db.IssueToken(ctx, "ninguem", "x")
	refused(t, err, `o usuário "ninguem" não existe`)
	if err := db.RevokeToken(ctx, "ana", "laptop"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UserByToken(ctx, a); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("revoked token still works: %v", err)
	}
	if u, err := db.UserByToken(ctx, b); err != nil || u.Login != "ana" {
		t.Fatalf("other token revoked too: %v", err)
	}
	refused(t, db.RevokeToken(ctx, "ana", "laptop"), `não tem token com o rótulo "laptop"`)
	ts, err := db.Tokens(ctx, "ana")
	if err != nil || len(ts) != 1 || ts[0].Label != "ci" {
		t.Fatalf("tokens: %v %v", ts, err)
	}
}

func TestAdminCatalogue(t *testing.T) {
	db, _ := importDemo(t)
	if err := db.AddTenant(ctx, "acme", "Acme"); err != nil {
		t.Fatal(err)
	}
	refused(t, db.AddTenant(ctx, "acme", "Acme"), `o tenant "acme" já existe`)
	refused(t, db.AddTenant(ctx, "Acme Ltda", "Acme"), `chave de tenant "Acme Ltda" inválido`)
	refused(t, db.AddUser(ctx, "nada", "zeca", "Zeca"), `o tenant "nada" não existe`)
	if err := db.AddUser(ctx, "acme", "zeca", "Zeca"); err != nil {
		t.Fatal(err)
	}
	refused(t, db.AddUser(ctx, "acme", "ana", "Ana"), `o login "ana" já existe no tenant "loja"`)
	if err := db.AddDesk(ctx, "acme", "Vendas"); err != nil {
		t.Fatal(err)
	}
	refused(t, db.AddDesk(ctx, "acme", "Vendas"), `a mesa "Vendas" já existe`)
	refused(t, db.AddMember(ctx, "Comercial", "zeca"), `a mesa "Comercial" não existe no tenant "acme"`)
	if err := db.AddMember(ctx, "Vendas", "zeca"); err != nil {
		t.Fatal(err)
	}
	refused(t, db.AddMember(ctx, "Vendas", "zeca"), "já é membro")
	refused(t, db.RemoveTenant(ctx, "acme", false), "use --force")
	refused(t, db.RemoveDesk(ctx, "acme", "Vendas", false), "use --force")
	tok, err := db.IssueToken(ctx, "zeca", "padrao")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RemoveTenant(ctx, "acme", true); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UserByToken(ctx, tok); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("token of a removed tenant: %v", err)
	}

	// Publish: an app of the Financeiro desk onto Comercial becomes visible to ana.
	ana := user(t, db, "ana")
	before, _ := db.VisibleApps(ctx, ana)
	refused(t, db.Publish(ctx, "loja", "nada", "Comercial"), `a Aplicação "nada" não existe`)
	refused(t, db.Publish(ctx, "loja", "vendas-financeiro", "Nada"), `a mesa "Nada" não existe`)
	if err := db.Publish(ctx, "loja", "vendas-financeiro", "Comercial"); err != nil {
		t.Fatal(err)
	}
	after, _ := db.VisibleApps(ctx, ana)
	if len(after) != len(before)+1 || !contains(keys(after), "vendas-financeiro") {
		t.Fatalf("visible after publish: %v (before %v)", keys(after), keys(before))
	}
	// Removing bruno (owner of a personal copy) needs --force.
	us, _ := db.Users(ctx, "loja")
	if len(us) != 3 {
		t.Fatalf("users: %v", us)
	}
	if err := db.RemoveMember(ctx, "Comercial", "ana"); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.VisibleApps(ctx, ana); len(got) >= len(after) {
		t.Fatalf("ana still sees %v", keys(got))
	}
}

func TestReimportKeepsIssuedTokens(t *testing.T) {
	db, _ := importDemo(t)
	kept, err := db.IssueToken(ctx, "ana", "laptop")
	if err != nil {
		t.Fatal(err)
	}
	dropped, err := db.IssueToken(ctx, "davi", "laptop")
	if err != nil {
		t.Fatal(err)
	}
	// The file no longer lists davi.
	fsys := patchDemo(t, map[string]func(string) string{"workspace.yaml": func(s string) string {
		return strings.Replace(s, "      - {login: davi, name: Davi Rocha, token: tok-davi-loja}\n", "", 1)
	}})
	sum, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if sum.TokensKept != 1 || len(sum.TokensDropped) != 1 || sum.TokensDropped[0] != "loja/davi (laptop)" {
		t.Fatalf("summary: kept %d dropped %v", sum.TokensKept, sum.TokensDropped)
	}
	for tok, want := range map[string]string{kept: "ana", "tok-ana-loja": "ana"} {
		if u, err := db.UserByToken(ctx, tok); err != nil || u.Login != want {
			t.Fatalf("after re-import %q: %v %v", tok, u, err)
		}
	}
	if _, err := db.UserByToken(ctx, dropped); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("token of a user the file removed: %v", err)
	}
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	if u, err := db.UserByToken(ctx, kept); err != nil || u.Login != "ana" {
		t.Fatalf("second re-import: %v %v", u, err)
	}
}

func hexSHA(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestImportProgress(t *testing.T) {
	db := storetest.Open(t)
	var calls []store.Progress
	sum, err := db.ImportWorkspaceProgress(ctx, demo.Lumo, "workspace.yaml", func(p store.Progress) { calls = append(calls, p) })
	if err != nil {
		t.Fatal(err)
	}
	last := calls[len(calls)-1]
	if len(calls) < 20 || last.Rows != sum.Rows() || last.TotalRows != sum.Rows() {
		t.Fatalf("%d progress calls, last %+v, loaded %d", len(calls), last, sum.Rows())
	}
	for i := 1; i < len(calls); i++ {
		if calls[i].Rows < calls[i-1].Rows {
			t.Fatalf("progress went back: %+v then %+v", calls[i-1], calls[i])
		}
	}
}

// Cached models follow admin changes: a member removed from a desk stops seeing its apps at the
// next read, and sees them again when added back.
func TestAdminChangesReachCachedModels(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	bruno, err := db.UserByLogin(ctx, "bruno")
	if err != nil {
		t.Fatal(err)
	}
	keys := func() []string {
		t.Helper()
		apps, err := db.VisibleApps(ctx, bruno)
		if err != nil {
			t.Fatal(err)
		}
		var ks []string
		for _, a := range apps {
			ks = append(ks, a.Key)
		}
		return ks
	}
	before := keys() // read twice: the second read comes from the cache
	if again := keys(); !slices.Equal(before, again) || !slices.Contains(before, "vendas-financeiro") {
		t.Fatalf("bruno sees %v, then %v", before, again)
	}
	if err := db.RemoveMember(ctx, "Financeiro", "bruno"); err != nil {
		t.Fatal(err)
	}
	if after := keys(); slices.Contains(after, "vendas-financeiro") {
		t.Errorf("removed from Financeiro, bruno still sees %v", after)
	}
	if err := db.AddMember(ctx, "Financeiro", "bruno"); err != nil {
		t.Fatal(err)
	}
	if back := keys(); !slices.Contains(back, "vendas-financeiro") {
		t.Errorf("added back to Financeiro, bruno sees %v", back)
	}
}
