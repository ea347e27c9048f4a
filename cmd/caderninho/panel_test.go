package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore/cadstoretest"
	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
)

func TestPanelRefusalOffLoopback(t *testing.T) {
	for _, c := range []struct {
		addr, public string
		refused      bool
	}{
		{"127.0.0.1:8080", "", false}, {"[::1]:8080", "http://x", false}, {"localhost:1", "", false},
		{"0.0.0.0:8080", "", true}, {":8080", "http://caderninho.example.com", true},
		{"0.0.0.0:8080", "https://caderninho.example.com", false},
	} {
		if got := panelRefusal(c.addr, c.public); (got != "") != c.refused {
			t.Errorf("%s %q: %q", c.addr, c.public, got)
		}
	}
}

// The owner logs in to the panel of a running server, issues an assistant token, the token
// works on /mcp, and after the revoke the next request with it gets 401.
func TestPanelTokenWorksOnMCPUntilRevoked(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, _ := demoStore(t)
	var out bytes.Buffer
	cred, err := (admin.Ops{Store: s, Actor: admin.ActorCLI}).ResetCredential(ctx)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(&out, nil))
	base := serveLoopback(t, &caderninho.Service{Store: s, Log: log}, httpOptions{stateless: true}, log)

	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	csrfRE := regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	page := func(path string) string {
		resp, err := browser.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	post := func(path string, form url.Values) (int, string) {
		m := csrfRE.FindStringSubmatch(page("/painel/entrar"))
		if m == nil {
			t.Fatal("no csrf field")
		}
		form.Set("csrf", m[1])
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", base)
		resp, err := browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if status, body := post("/painel/entrar", url.Values{"credencial": {cred}}); status != 200 || !strings.Contains(body, "Últimas mudanças") {
		t.Fatalf("login: %d\n%s", status, body)
	}
	status, body := post("/painel/assistentes", url.Values{"name": {"Claude"}})
	m := regexp.MustCompile(`<code>(cad_[^<]+)</code>`).FindStringSubmatch(body)
	if status != 200 || m == nil {
		t.Fatalf("issue: %d\n%s", status, body)
	}
	token := m[1]

	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "caderninho_accounts", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("accounts with the panel's token: %v %+v", err, res)
	}
	if body := page("/painel/assistentes"); strings.Count(body, "Último uso: nunca") != 1 {
		t.Errorf("the panel does not show the token's use:\n%s", body)
	}
	id, err := (admin.Ops{Store: s}).AssistantID(ctx, "Claude")
	if err != nil {
		t.Fatal(err)
	}
	if status, _ := post("/painel/assistentes/revogar", url.Values{"id": {itoa(id)}}); status != 200 {
		t.Fatalf("revoke: %d", status)
	}
	_, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "caderninho_accounts", Arguments: map[string]any{}})
	if err == nil || !strings.Contains(err.Error(), "Unauthorized") && !strings.Contains(err.Error(), "401") {
		t.Errorf("a call after the revoke: %v", err)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("HTTP /mcp after the revoke: %d, want 401", resp.StatusCode)
	}
	if strings.Contains(out.String(), token) || strings.Contains(out.String(), cred) {
		t.Error("the log holds a secret")
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// The command line does what the panel does, in the same audit log; the first import prints the
// owner credential once, and panel reset replaces it.
func TestAdminCommands(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := demo.CopyCaderninho(dir); err != nil {
		t.Fatal(err)
	}
	_, dsn := cadstoretest.OpenDSN(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	run1 := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := run(ctx, args, &out, log)
		return out.String(), err
	}
	out, err := run1("import", "--db", dsn, filepath.Join(dir, "installation.yaml"))
	if err != nil || !strings.Contains(out, "Credencial do painel privado") {
		t.Fatalf("first import: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)^cadpainel_[A-Za-z0-9_-]{43}$`).MatchString(out) {
		t.Errorf("the credential is not alone on a line:\n%s", out)
	}
	if out, _ := run1("import", "--db", dsn, filepath.Join(dir, "installation.yaml")); strings.Contains(out, "cadpainel_") {
		t.Errorf("a second import prints a credential:\n%s", out)
	}
	out, err = run1("panel", "reset", "--db", dsn)
	if err != nil || !strings.HasPrefix(out, "cadpainel_") || !strings.Contains(out, "as sessões abertas foram encerradas") {
		t.Errorf("panel reset: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		want string
		fail bool
	}{
		{[]string{"admin", "person", "add", "ze", "--name", "Zé", "--db", dsn}, `Pessoa "ze" adicionada.`, false},
		{[]string{"admin", "person", "add", "ze", "--name", "Zé", "--db", dsn}, "Chave: já existe", true},
		{[]string{"admin", "person", "add", "longo", "--name", strings.Repeat("x", 201), "--db", dsn}, "Nome: tem 201 caracteres; o limite é 200.", true},
		{[]string{"admin", "person", "rename", "ze", "--name", "José", "--db", dsn}, "renomeada", false},
		{[]string{"admin", "person", "remove", "rafael", "--db", dsn}, "é titular de conexões (ipe-rafael, sabia-rafael)", true},
		{[]string{"admin", "person", "list", "--db", dsn}, "ze\tJosé\tcriado no painel\tconexões: nenhuma", false},
		{[]string{"admin", "person", "remove", "ze", "--db", dsn}, `Pessoa "ze" removida.`, false},
		{[]string{"admin", "assistant", "issue", "--name", "Script", "--db", dsn}, `Token emitido para o assistente "Script"`, false},
		{[]string{"admin", "assistant", "label", "Script", "--name", "Backup", "--db", dsn}, "o token continua valendo", false},
		{[]string{"admin", "assistant", "list", "--db", dsn}, "Backup\tcriado no painel\tnunca usado", false},
		{[]string{"admin", "assistant", "revoke", "Backup", "--db", dsn}, `Token do assistente "Backup" revogado`, false},
		{[]string{"admin", "assistant", "revoke", "Backup", "--db", dsn}, `Não existe o assistente "Backup"`, true},
		{[]string{"admin", "audit", "--db", dsn}, "linha de comando (caderninho admin)\tToken do assistente \"Backup\" revogado.", false},
		{[]string{"admin", "person", "add", "--db", dsn}, "espera CHAVE", true},
	} {
		out, err := run1(c.args...)
		got := out
		if err != nil {
			got += err.Error()
		}
		if (err != nil) != c.fail || !strings.Contains(got, c.want) {
			t.Errorf("%v: err %v, want %q in:\n%s", c.args, err, c.want, got)
		}
	}
	if out, _ := run1("admin", "audit", "--db", dsn); strings.Contains(out, "cad_") && regexp.MustCompile(`cad_[A-Za-z0-9_-]{43}`).MatchString(out) {
		t.Errorf("the audit log shows a token:\n%s", out)
	}
}
