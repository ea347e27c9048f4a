package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen"
	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
	"github.com/lumo-caderninho/mcp/impl/caderninho/panel"
	"github.com/lumo-caderninho/mcp/impl/platform/authguard"
	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/crosssite"
	"github.com/lumo-caderninho/mcp/impl/platform/httpserve"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpsession"
	"github.com/lumo-caderninho/mcp/impl/platform/oauthres"
	"github.com/lumo-caderninho/mcp/impl/platform/restserver"
	"github.com/lumo-caderninho/mcp/impl/platform/safestdio"
	"github.com/lumo-caderninho/mcp/impl/platform/schemapub"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
	"github.com/lumo-caderninho/mcp/impl/platform/webform"
	"github.com/lumo-caderninho/mcp/schemas"
)

// openStore opens dsn, or the embedded default: created, migrated and, while it has no
// installation, loaded with the demo installation copied into the data directory.
func openStore(ctx context.Context, dsn string, log *slog.Logger) (*cadstore.Store, error) {
	seed := dsn == ""
	var dir string
	if seed {
		var err error
		if dir, err = dataDir(); err != nil {
			return nil, err
		}
		dsn = filepath.Join(dir, "caderninho.db")
	}
	s, err := cadstore.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	db := s.DB()
	if v := os.Getenv(cadstore.ClaimExpiryEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			db.Close()
			return nil, fmt.Errorf("%s: %q não é uma duração válida; use, por exemplo, 2s ou 1m", cadstore.ClaimExpiryEnv, v)
		}
		s.ClaimExpiry = d
	}
	if !seed {
		return s, nil
	}
	if _, err := s.Installation(ctx); !errors.Is(err, cadstore.ErrNoInstallation) {
		if err != nil {
			db.Close()
			return nil, err
		}
		return s, nil
	}
	demoDir := filepath.Join(dir, "demo")
	if err := os.MkdirAll(demoDir, 0o700); err != nil {
		db.Close()
		return nil, err
	}
	if err := demo.CopyCaderninho(demoDir); err != nil {
		db.Close()
		return nil, fmt.Errorf("copying the demo installation: %w", err)
	}
	if err := importInto(ctx, s, filepath.Join(demoDir, "installation.yaml"), io.Discard); err != nil {
		db.Close()
		return nil, fmt.Errorf("importing the demo installation: %w", err)
	}
	log.Info("demo installation loaded", "db", dsn, "statements", filepath.Join(demoDir, "ofx"))
	return s, nil
}

var serveCommand = cli.Command{Name: "caderninho serve",
	Summary: "Serve o MCP do caderninho: em stdio como o assistente local, ou em Streamable HTTP (--http) em /mcp,\n" +
		"com o espelho REST em /tools/<ferramenta> e o painel privado em /painel/, exigindo o token de um assistente.",
	Examples: []string{
		"caderninho serve",
		"caderninho serve --read-only",
		"caderninho serve --http 127.0.0.1:8090",
		"caderninho serve --http 127.0.0.1:8090 --no-token    # sem token, só em endereço local (inspector)",
	}}

func serve(ctx context.Context, args []string, log *slog.Logger) error {
	fs := serveCommand.FlagSet()
	dsn := dbFlag(fs)
	addr := fs.String("http", "", "serve Streamable HTTP em /mcp neste endereço (ex.: 127.0.0.1:8080) em vez de stdio; exige o token de um assistente")
	validate := fs.Bool("validate-output", false, "confere cada resultado contra o schema de saída publicado")
	retention := fs.Duration("idempotency-retention", cadstore.DefaultWriteRetention,
		"por quanto tempo o resultado de uma escrita fica guardado para repetições com a mesma idempotency_key (ex.: 720h; 0 guarda para sempre)")
	// caderninho sends the client no requests (no sampling, elicitation or roots) and keeps an
	// import request's state in the database, so no call needs the session: safe without one.
	stateless := fs.Bool("stateless", false, "HTTP sem sessão (cada POST se basta): qualquer réplica atende qualquer chamada")
	noToken := fs.Bool("no-token", false, "em HTTP, dispensa o token: atende como "+caderninho.LocalAssistant+", como em stdio (só em endereço local; para o inspector e ferramentas locais)")
	readOnly := fs.Bool("read-only", false, "publica e atende só as consultas e plan_preview: nenhuma escrita de planejamento nem caderninho_sync; o painel mostra, mas não muda nada")
	var conns httpserve.Limits
	conns.RegisterFlags(fs)
	var sessions mcpsession.Limits
	sessions.RegisterFlags(fs)
	authFailures := authguard.RegisterFlag(fs)
	dbMaxConns := sqldb.RegisterPoolFlag(fs)
	publicURL := fs.String("public-url", "", "endereço público deste servidor (ex.: https://caderninho.exemplo.com.br); fora de endereço local, o painel em /painel/ só é servido com https")
	var oauth oauthres.Config
	oauth.RegisterFlags(fs, "o nome do assistente (padrão: email)")
	if err := serveCommand.Parse(fs, args, os.Stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &cli.UsageError{Command: serveCommand.Name, Msg: fmt.Sprintf("serve não recebe argumentos além das opções; veio %q", fs.Arg(0))}
	}
	if *publicURL != "" {
		var err error
		if *publicURL, err = webform.ParsePublicURL(*publicURL, "caderninho.exemplo.com.br"); err != nil {
			return err
		}
	}
	if *authFailures < 0 {
		return errors.New("--auth-failures não pode ser negativo (0 = sem teto)")
	}
	if err := conns.Check(); err != nil {
		return err
	}
	if err := sessions.Check(); err != nil {
		return err
	}
	if *noToken {
		if *addr == "" {
			return errors.New("--no-token vale só com --http (em stdio não há token)")
		}
		if !webform.IsLoopback(*addr) {
			return fmt.Errorf("--no-token só é aceito em endereço local (127.0.0.1, ::1 ou localhost), não em %q", *addr)
		}
	}
	if *retention < 0 {
		return fmt.Errorf("--idempotency-retention: %s é negativo; use uma duração positiva (ex.: 720h) ou 0 para guardar para sempre", *retention)
	}
	s, err := openStore(ctx, *dsn, log)
	if err != nil {
		return err
	}
	defer s.DB().Close()
	// caderninho's calls are not gated: four per core keep the cores busy while they wait.
	pool, err := sqldb.BoundPool(ctx, s.DB().SQL(), s.DB().Engine(), *dbMaxConns, 2*4*runtime.GOMAXPROCS(0)+8)
	if err != nil {
		return err
	}
	log.Info("database pool", "max_open", pool)
	s.WriteRetention = *retention
	svc := &caderninho.Service{Store: s, Log: log}
	if *addr == "" {
		svc.Identity = caderninho.Fixed(caderninho.LocalAssistant)
		srv, err := caderninho.NewServer(svc, caderninho.Options{ValidateOutput: *validate, ReadOnly: *readOnly})
		if err != nil {
			return err
		}
		log.Info("serving MCP on stdio", "assistant", caderninho.LocalAssistant, "readOnly", *readOnly)
		err = srv.Run(ctx, safestdio.Transport(log))
		finishBackground(ctx, svc, log)
		return err
	}
	opts := httpOptions{validate: *validate, stateless: *stateless, conns: conns, sessions: sessions,
		guard: authguard.New(*authFailures), panelGuard: authguard.New(*authFailures), publicURL: *publicURL, noToken: *noToken, readOnly: *readOnly}
	if oauth.Issuer != "" {
		if *noToken {
			return errors.New("--oauth-issuer não combina com --no-token")
		}
		if opts.resource, err = oauthres.New(ctx, oauth, *publicURL); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	if opts.panelRefused = panelRefusal(*addr, *publicURL); opts.panelRefused != "" {
		log.Warn("the panel is not served: the address is not loopback and --public-url is not https", "addr", *addr)
	}
	return serveHTTP(ctx, svc, ln, opts, log)
}

// panelRefusal is why the panel is not served on addr, or "": off loopback, only behind an
// https public URL (its cookies are then Secure).
func panelRefusal(addr, publicURL string) string {
	if webform.IsLoopback(addr) || strings.HasPrefix(publicURL, "https://") {
		return ""
	}
	return "O painel só é servido em endereço local (127.0.0.1, ::1 ou localhost) ou quando o servidor " +
		"é iniciado com --public-url https://...; este servidor escuta em " + addr + " sem endereço público https."
}

// httpOptions are serve's HTTP settings.
type httpOptions struct {
	validate  bool
	stateless bool // go-sdk stateless mode: no Mcp-Session-Id, any replica answers any POST
	conns     httpserve.Limits
	sessions  mcpsession.Limits
	guard     *authguard.Guard // nil: failed tokens are not throttled
	// panelGuard throttles failed panel logins apart from guard: the owner credential is another
	// secret than the assistants' tokens, and an assistant failing with a revoked token on the same
	// address must not lock the owner out of the panel that revoked it. nil: not throttled.
	panelGuard *authguard.Guard
	noToken    bool               // every request acts as the local assistant (loopback only; checked by serve)
	resource   *oauthres.Resource // OAuth access tokens of an issuer too; nil: static tokens only
	readOnly   bool               // only the tools that change nothing
	publicURL  string             // validated --public-url, or ""
	// panelRefused, when not "", is why /painel/ is not served (a non-loopback address without
	// an https public URL).
	panelRefused string
}

// serveHTTP answers Streamable HTTP at /mcp on ln for the assistants of the installation: every
// request needs the bearer token of one of them (401 otherwise), unless opts.noToken.
func serveHTTP(ctx context.Context, svc *caderninho.Service, ln net.Listener, opts httpOptions, log *slog.Logger) error {
	s := svc.Store
	svc.Identity = caderninho.FromToken()
	if opts.noToken {
		svc.Identity = caderninho.Fixed(caderninho.LocalAssistant)
	}
	srv, err := caderninho.NewServer(svc, caderninho.Options{ValidateOutput: opts.validate, ReadOnly: opts.readOnly})
	if err != nil {
		return err
	}
	require := auth.RequireBearerToken(func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		exp := time.Now().Add(time.Hour)
		var a *cadstore.Assistant
		var err error
		if res := opts.resource; res != nil && oauthres.LooksLikeJWT(token) {
			// An OAuth access token of the configured issuer: its claim names the assistant.
			name, until, _, verr := res.Verify(ctx, token)
			if verr != nil {
				return nil, oauthres.Refused(ctx, verr)
			}
			exp = until
			if a, err = s.AssistantByName(ctx, name); errors.Is(err, cadstore.ErrNotFound) {
				return nil, oauthres.Refused(ctx, fmt.Errorf("%w: nenhum assistente desta instalação tem o nome do token OAuth", auth.ErrInvalidToken))
			}
		} else {
			a, err = s.AssistantByToken(ctx, token)
		}
		if errors.Is(err, cadstore.ErrNotFound) {
			return nil, oauthres.Refused(ctx, fmt.Errorf("%w: token desconhecido", auth.ErrInvalidToken))
		}
		if err != nil {
			log.Error("verifying a bearer token", telemetry.ErrAttr(err))
			return nil, oauthres.Unavailable(ctx, err)
		}
		if err := s.RecordUse(ctx, a); err != nil {
			log.Warn("recording an assistant's last use", telemetry.ErrAttr(err))
		}
		return &auth.TokenInfo{UserID: a.Name, Expiration: exp}, nil
	}, &auth.RequireBearerTokenOptions{})
	verify := func(next http.Handler) http.Handler { return oauthres.Challenge(opts.resource, require(next)) }
	cat, err := publishedCatalog()
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	cat.Register(mux) // /schemas/ and /openapi.json: public, no token
	if opts.resource != nil {
		opts.resource.Register(mux) // the protected resource metadata: public
	}
	// One JSON body per answer, as lumo (no tool sends notifications while it runs).
	// The guard refuses a client with too many failed tokens before the token is looked up.
	// The Host check of every route, /mcp's included, is crosssite's (below).
	mcpHandler := mcpsession.Handler(srv, mcp.StreamableHTTPOptions{Logger: log, Stateless: opts.stateless, JSONResponse: true,
		DisableLocalhostProtection: true}, opts.sessions, log)
	// The REST mirror at the paths /openapi.json advertises: the same service, checks, bounds and
	// token check as /mcp.
	rest, err := caderninho.NewREST(svc, caderninho.Options{ValidateOutput: opts.validate, ReadOnly: opts.readOnly}, opts.conns.MaxBody, nil)
	if err != nil {
		return err
	}
	if opts.noToken {
		mux.Handle("/mcp", mcpHandler)
		mux.Handle(restserver.Prefix, rest)
	} else {
		mux.Handle("/mcp", opts.guard.Wrap(verify(mcpHandler), nil))
		mux.Handle(restserver.Prefix, opts.guard.Wrap(restserver.Bearer(verify)(rest), restserver.Throttled))
	}
	// The private panel: its own login (the owner credential), throttled by its own guard.
	(&panel.Handler{Store: s, Log: log, PublicURL: opts.publicURL, Guard: opts.panelGuard, Refused: opts.panelRefused, ReadOnly: opts.readOnly}).Register(mux)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	log.Info("serving MCP over HTTP", "url", "http://"+ln.Addr().String()+"/mcp", "token", !opts.noToken, "readOnly", opts.readOnly,
		"panel", "http://"+ln.Addr().String()+"/painel/")
	opts.conns.MaxBodyFor = panel.BodyLimit // statement uploads
	// Every route: no answer under a foreign Host on loopback (DNS rebinding); without tokens, no
	// call from a page of another origin.
	guarded := crosssite.Guard{PublicURL: opts.publicURL, Tokenless: opts.noToken}.Wrap(mux)
	return httpserve.Serve(ctx, ln, guarded, httpserve.DefaultGrace, opts.conns, log)
}

var callCommand = cli.Command{Name: "caderninho call", Args: `FERRAMENTA ['{"arg": ...}']`,
	Summary: "Chama uma ferramenta uma vez, como o assistente local, e imprime o texto e o structuredContent da resposta.\n" +
		"As ferramentas: caderninho schemas list.",
	Examples: []string{`caderninho call caderninho_accounts '{}'`,
		`caderninho call plan_totals '{"space": "casa", "month": "2026-11"}'`}}

func call(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	fs := callCommand.FlagSet()
	dsn := dbFlag(fs)
	if err := callCommand.Parse(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		return &cli.UsageError{Command: callCommand.Name, Msg: "informe a ferramenta e, se houver, seus argumentos como um objeto JSON"}
	}
	argsJSON := "{}"
	if fs.NArg() == 2 {
		argsJSON = fs.Arg(1)
	}
	var toolArgs map[string]any
	d := json.NewDecoder(strings.NewReader(argsJSON))
	d.UseNumber() // numbers reach the tool as written: 6.0 and 1e309 get the server's answer, not a float's
	if err := d.Decode(&toolArgs); err != nil {
		return fmt.Errorf("os argumentos da ferramenta precisam ser um objeto JSON: %w", err)
	}
	s, err := openStore(ctx, *dsn, log)
	if err != nil {
		return err
	}
	defer s.DB().Close()
	log = cli.QuietLog() // no session chatter
	svc := &caderninho.Service{Store: s, Log: log, Identity: caderninho.Fixed(caderninho.LocalAssistant)}
	srv, err := caderninho.NewServer(svc, caderninho.Options{ValidateOutput: true})
	if err != nil {
		return err
	}
	res, err := mcpserver.CallInProcess(ctx, srv, "caderninho-call", fs.Arg(0), toolArgs)
	// An import the call started (caderninho_sync answers before it ends when waitSeconds is
	// short) runs to its end before the process exits, so its outcome is recorded.
	defer finishBackground(ctx, svc, log)
	if err != nil {
		return err
	}
	if len(res.Content) > 0 { // the second block repeats structuredContent as JSON
		if t, ok := res.Content[0].(*mcp.TextContent); ok {
			fmt.Fprintln(stdout, t.Text)
		}
	}
	if res.StructuredContent != nil {
		b, err := json.MarshalIndent(res.StructuredContent, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nstructuredContent:\n%s\n", b)
	}
	if res.IsError {
		return errors.New("a ferramenta respondeu com erro")
	}
	return nil
}

// finishBackground waits for the imports svc started, until ctx ends (a signal): then they are
// left to be marked interrupted.
func finishBackground(ctx context.Context, svc *caderninho.Service, log *slog.Logger) {
	if err := svc.WaitBackground(ctx); err != nil {
		log.Warn("exiting before a background import finished; it will count as interrupted", "err", err)
	}
}

// publishedCatalog is the published schemas with every tool's reference page.
func publishedCatalog() (*schemapub.Catalog, error) {
	cat, err := schemapub.New(schemas.FS, gen.OpenAPI, "caderninho")
	if err != nil {
		return nil, err
	}
	if err := cat.Describe(mcpserver.DocTools((&caderninho.Service{}).Tools())); err != nil {
		return nil, err
	}
	return cat, nil
}
