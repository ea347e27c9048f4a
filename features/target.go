package features

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"net/http"
	"os/exec"
	"strconv"
	"strings"

	"github.com/cucumber/godog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"

	caderninhodemo "github.com/lumo-caderninho/mcp/impl/caderninho/demo"
	lumodemo "github.com/lumo-caderninho/mcp/impl/lumo/demo"
)

// A foreign target: the lumo features run against any server holding the demo workspace (the
// fixture), over Streamable HTTP or a stdio command. Scenarios tagged @own-setup (they import
// other data, set server options or read our database) are left out.
//
//	mcp-conformance -suite lumo -target http://127.0.0.1:8080/mcp [-token T] [-app-ids key=id,...]
//	go test ./features -run TestLumoFeatures -args -target-cmd='lumo serve --user {user}' -format=junit
var (
	target    = flag.String("target", "", "URL of a Streamable HTTP MCP server to test instead of our in-process server")
	token     = flag.String("token", "", "bearer token for -target (default: the fixture's token of the scenario's user)")
	targetCmd = flag.String("target-cmd", "", "stdio MCP server command to test, run by sh; {user} becomes the scenario's login")
	format    = flag.String("format", "", "output format: pretty, progress, junit or cucumber (default -godog.format)")
	appIDs    = flag.String("app-ids", "", "the target's app ids by fixture key (vendas-comercial=1,...): scenarios naming an app without one are skipped")
)

// external is whether the suite drives a foreign server.
func external() bool { return *target != "" || *targetCmd != "" }

// suiteFormat is the godog output format.
func suiteFormat() string {
	if *format != "" {
		return *format
	}
	return *godogFormat
}

// suiteTags leaves out what a foreign server cannot be set up for.
func suiteTags() string {
	if external() {
		return "~@own-setup"
	}
	return ""
}

// errNeedsOwnSetup skips a scenario against a foreign target.
var errNeedsOwnSetup = fmt.Errorf("needs our own setup: %w", godog.ErrSkip)

// externalAppID is the target's id of the fixture app key, from -app-ids.
func externalAppID(key string) (int64, error) {
	for _, kv := range strings.Split(*appIDs, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if ok && k == key {
			return strconv.ParseInt(v, 10, 64)
		}
	}
	return 0, fmt.Errorf("no -app-ids entry for %q: %w", key, errNeedsOwnSetup)
}

// cadFixtureToken is the demo installation's first assistant token.
func cadFixtureToken(string) (string, error) {
	b, err := fs.ReadFile(caderninhodemo.Caderninho, "installation.yaml")
	if err != nil {
		return "", err
	}
	var inst struct {
		Assistants []struct{ Token string } `yaml:"assistants"`
	}
	if err := yaml.Unmarshal(b, &inst); err != nil || len(inst.Assistants) == 0 {
		return "", fmt.Errorf("the fixture has no assistant token: %v", err)
	}
	return inst.Assistants[0].Token, nil
}

// fixtureToken is the demo workspace's token of login.
func fixtureToken(login string) (string, error) {
	b, err := fs.ReadFile(lumodemo.Lumo, "workspace.yaml")
	if err != nil {
		return "", err
	}
	var ws struct {
		Tenants []struct {
			Users []struct{ Login, Token string } `yaml:"users"`
		} `yaml:"tenants"`
	}
	if err := yaml.Unmarshal(b, &ws); err != nil {
		return "", err
	}
	for _, t := range ws.Tenants {
		for _, u := range t.Users {
			if u.Login == login {
				return u.Token, nil
			}
		}
	}
	return "", fmt.Errorf("the fixture has no user %q", login)
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

// targetTransport is a client transport to the foreign target as login; fixture gives the token
// when -token does not.
func targetTransport(login string, fixture func(string) (string, error)) (mcp.Transport, error) {
	if *targetCmd != "" {
		return &mcp.CommandTransport{Command: exec.Command("sh", "-c", strings.ReplaceAll(*targetCmd, "{user}", login))}, nil
	}
	tok := *token
	if tok == "" {
		var err error
		if tok, err = fixture(login); err != nil {
			return nil, err
		}
	}
	return &mcp.StreamableClientTransport{Endpoint: *target,
		HTTPClient: &http.Client{Transport: bearer{token: tok, next: http.DefaultTransport}}}, nil
}

// connectTarget opens a session on the foreign target as login.
func (w *mcpWorld) connectTarget(ctx context.Context, login string, fixture func(string) (string, error)) error {
	ct, err := targetTransport(login, fixture)
	if err != nil {
		return err
	}
	if w.session != nil {
		w.session.Close()
	}
	return w.connectClient(ctx, ct)
}
