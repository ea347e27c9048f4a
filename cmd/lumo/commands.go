package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen"
	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/ratelimit"
	"github.com/lumo-caderninho/mcp/impl/lumo/report"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/authguard"
	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/crosssite"
	"github.com/lumo-caderninho/mcp/impl/platform/httpserve"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpsession"
	"github.com/lumo-caderninho/mcp/impl/platform/oauthres"
	"github.com/lumo-caderninho/mcp/impl/platform/printable"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/restserver"
	"github.com/lumo-caderninho/mcp/impl/platform/safestdio"
	"github.com/lumo-caderninho/mcp/impl/platform/schemapub"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
	"github.com/lumo-caderninho/mcp/impl/platform/webform"
	"github.com/lumo-caderninho/mcp/schemas"
)

// defaultUser is the demo workspace's user a bare `lumo serve` acts as.
const defaultUser = "ana"

// openStore opens dsn, or the embedded default (created, migrated and seeded with the demo, its
// rows written as lumo import writes them, by col's rules).
func openStore(ctx context.Context, dsn string, log *slog.Logger, col *columnarFlags) (*store.DB, error) {
	seed := dsn == ""
	if seed {
		var err error
		if dsn, err = store.DefaultDSN(); err != nil {
			return nil, err
		}
	}
	db, err := store.Open(ctx, dsn, store.WithLogger(log))
	if err != nil {
		return nil, err
	}
	if seed {
		opts, done := importOptions(col, dsn)
		seeded, err := db.SeedDemoIfEmpty(ctx, opts)
		done()
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("seeding the demo workspace: %w", err)
		}
		if seeded {
			log.Info("demo workspace loaded", "db", dsn)
		}
	}
	return db, nil
}

// serveFlags are the flags of lumo serve; the help text lists them from the same set.
type serveFlags struct {
	dsn, login, addr, publicURL *string
	validate                    *bool
	timeout                     *time.Duration
	rateUser, rateTenant        *int
	authFailures                *int
	resultCacheMB               int
	dbMaxConns                  *int
	columnar                    *columnarFlags
	ops                         serveOps
}

var serveCommand = cli.Command{Name: "lumo serve",
	Summary: "Serve o MCP do lumo: em stdio (o cliente inicia o binário) como um usuário, ou em Streamable HTTP\n" +
		"(--http) em /mcp, com o espelho REST em /tools/<ferramenta>, exigindo o token de cada usuário.",
	Examples: []string{
		"lumo serve --user ana",
		"lumo serve --http 127.0.0.1:8080",
		"lumo serve --http 127.0.0.1:8080 --user ana    # sem token, só em endereço local (inspector)",
		"lumo serve --http 0.0.0.0:8080 --db postgres://lumo@db/lumo --stateless --public-url https://lumo.exemplo.com.br",
	}}

func newServeFlags() (*flag.FlagSet, *serveFlags) {
	fs := serveCommand.FlagSet()
	f := &serveFlags{}
	f.dsn = dbFlag(fs)
	f.login = fs.String("user", "", "usuário (login) em stdio; em HTTP, dispensa o token e atende só esse usuário (só em endereço local)")
	f.addr = fs.String("http", "", "serve Streamable HTTP em /mcp neste endereço (ex.: 127.0.0.1:8080) em vez de stdio")
	f.validate = fs.Bool("validate-output", false, "confere cada resultado contra o schema de saída publicado")
	f.timeout = fs.Duration("query-timeout", lumo.DefaultQueryTimeout, "tempo máximo de cada consulta (query); a consulta é cancelada no banco")
	f.rateUser = fs.Int("rate-user", ratelimit.DefaultPerUser, "chamadas de ferramenta por minuto por usuário (0 = sem limite)")
	f.rateTenant = fs.Int("rate-tenant", ratelimit.DefaultPerTenant, "chamadas de ferramenta por minuto por Tenant (0 = sem limite)")
	f.publicURL = fs.String("public-url", "", "endereço público deste servidor (ex.: https://lumo.exemplo.com.br); com ele, cada query traz permalink para o relatório")
	fs.IntVar(&f.ops.maxConcurrent, "max-concurrent", 0, "chamadas de ferramenta atendidas ao mesmo tempo; as outras esperam a vez (0 = uma por núcleo no SQLite, quatro por núcleo no PostgreSQL)")
	fs.BoolVar(&f.ops.stateless, "stateless", false, "HTTP sem sessão (cada POST se basta): qualquer réplica atende qualquer chamada")
	fs.DurationVar(&f.ops.shutdownTimeout, "shutdown-timeout", httpserve.DefaultGrace, "no SIGTERM, espera as chamadas em andamento até este tempo")
	f.ops.conns.RegisterFlags(fs)
	f.ops.sessions.RegisterFlags(fs)
	f.authFailures = authguard.RegisterFlag(fs)
	f.dbMaxConns = sqldb.RegisterPoolFlag(fs)
	f.columnar = registerColumnarFlags(fs)
	f.ops.oauth.RegisterFlags(fs, "o login do usuário (padrão: email)")
	fs.IntVar(&f.resultCacheMB, "result-cache-mb", lumo.DefaultResultCacheBytes>>20, "MiB de respostas de query guardadas para repetições com os mesmos dados (0 = sem cache)")
	return fs, f
}

func serve(ctx context.Context, args []string, log *slog.Logger) error {
	fs, f := newServeFlags()
	if err := serveCommand.Parse(fs, args, os.Stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &cli.UsageError{Command: serveCommand.Name, Msg: fmt.Sprintf("serve não recebe argumentos além das opções; veio %q", fs.Arg(0))}
	}
	dsn, login, addr, publicURL, validate, timeout, rateUser, rateTenant, ops :=
		f.dsn, f.login, f.addr, f.publicURL, f.validate, f.timeout, f.rateUser, f.rateTenant, f.ops
	if *f.authFailures < 0 {
		return errors.New("--auth-failures não pode ser negativo (0 = sem teto)")
	}
	ops.guard = authguard.New(*f.authFailures)
	if err := ops.conns.Check(); err != nil {
		return err
	}
	if err := ops.sessions.Check(); err != nil {
		return err
	}
	if *publicURL != "" {
		var err error
		if *publicURL, err = report.ParsePublicURL(*publicURL); err != nil {
			return err
		}
	}
	if *rateUser < 0 || *rateTenant < 0 {
		return errors.New("--rate-user e --rate-tenant não podem ser negativos (0 = sem limite)")
	}
	if f.resultCacheMB < 0 || f.resultCacheMB > 16<<10 {
		return errors.New("--result-cache-mb precisa ficar entre 0 (sem cache) e 16384")
	}
	if ops.maxConcurrent < 0 || ops.maxConcurrent > 1024 {
		return errors.New("--max-concurrent precisa ficar entre 0 (automático) e 1024")
	}
	if err := f.columnar.check(); err != nil {
		return err
	}
	tuneGC(96 << 20)
	db, err := openStore(ctx, *dsn, log, f.columnar)
	if err != nil {
		return err
	}
	defer db.Close()
	concurrent := ops.maxConcurrent
	if concurrent == 0 {
		concurrent = lumo.DefaultMaxConcurrent(db.Engine())
	}
	// A call holds at most two connections; token checks and rate limits take a few more.
	pool, err := sqldb.BoundPool(ctx, db.SQL(), db.Engine(), *f.dbMaxConns, 2*concurrent+8)
	if err != nil {
		return err
	}
	log.Info("database pool", "max_open", pool, "max_concurrent", concurrent)
	svc := &lumo.Service{DB: db, Log: log, QueryTimeout: *timeout, PublicURL: *publicURL, ResultCacheBytes: int64(f.resultCacheMB) << 20}
	moveRowsOut(ctx, f.columnar, *dsn, db, log) // before the copy's first sync, which would copy them
	if c := openColumnar(ctx, f.columnar, *dsn, db, log); c != nil {
		defer c.Close()
		svc.Columnar = c
	} else if n, err := db.AppsInFile(ctx); err != nil {
		return err
	} else if n > 0 {
		return fmt.Errorf("%s guardam os dados só no arquivo DuckDB da importação, e este servidor roda sem o motor colunar (%s): "+
			"rode lumo serve com --columnar on (o padrão), num binário com DuckDB, ou importe de novo com --columnar off para guardar os dados no banco",
			ptbr.Count(n, "Aplicação", "Aplicações"), columnarOffWhy(f.columnar))
	}
	if f.resultCacheMB == 0 {
		svc.ResultCacheBytes = -1
	}
	limiter := &ratelimit.Limiter{DB: db, PerUser: *rateUser, PerTenant: *rateTenant, Log: log}
	if *addr == "" {
		svc.Limiter = limiter
		u, err := userByLogin(ctx, db, orDefault(*login, defaultUser))
		if err != nil {
			return err
		}
		svc.Identity = lumo.FixedUser(u)
		srv, err := lumo.NewServer(svc, lumo.Options{ValidateOutput: *validate, MaxConcurrent: ops.maxConcurrent})
		if err != nil {
			return err
		}
		log.Info("serving MCP on stdio", "user", u.Login)
		go svc.WatchChanges(ctx)
		return srv.Run(ctx, safestdio.Transport(log))
	}
	if *login != "" {
		// Single-user mode, for local tools that cannot send a token: loopback only.
		if !webform.IsLoopback(*addr) {
			return fmt.Errorf("--user com --http só é aceito em endereço local (127.0.0.1, ::1 ou localhost), não em %q", *addr)
		}
	}
	if ops.oauth.Issuer != "" {
		if *login != "" {
			return errors.New("--oauth-issuer não combina com --user: no modo de um usuário não há token")
		}
		if ops.resource, err = oauthres.New(ctx, ops.oauth, *publicURL); err != nil {
			return err
		}
	}
	ops.metrics = telemetry.NewMetrics("lumo", db.SQL())
	h, err := httpHandlerWith(ctx, svc, limiter, *login, *validate, ops)
	if err != nil {
		return err
	}
	return serveHTTP(ctx, h, *addr, *login, ops, log)
}

// httpHandler is the HTTP server: /mcp and the REST mirror /tools/<tool> behind bearer auth (or
// fixed to login) and the rate limits, /healthz and /readyz without auth. It sets svc.Identity.
func httpHandler(ctx context.Context, svc *lumo.Service, limiter *ratelimit.Limiter, login string, validate bool) (http.Handler, error) {
	return httpHandlerWith(ctx, svc, limiter, login, validate, serveOps{})
}

// serveOps are the operational settings of `serve --http`.
type serveOps struct {
	maxConcurrent   int // 0: lumo.DefaultMaxConcurrent()
	stateless       bool
	shutdownTimeout time.Duration
	conns           httpserve.Limits
	sessions        mcpsession.Limits
	metrics         *telemetry.Metrics // nil: no /metrics
	guard           *authguard.Guard   // nil: failed tokens are not throttled
	oauth           oauthres.Config    // Issuer "": static tokens only
	resource        *oauthres.Resource // built from oauth at start; nil without an issuer
}

func httpHandlerWith(ctx context.Context, svc *lumo.Service, limiter *ratelimit.Limiter, login string, validate bool, ops serveOps) (http.Handler, error) {
	db, log := svc.DB, svc.Log
	var wrap, restWrap func(http.Handler) http.Handler
	var caller func(*http.Request) (*store.User, error)
	reports := &report.Handler{DB: db, Runner: svc, Log: log, PublicURL: svc.PublicURL, Limiter: limiter, Guard: ops.guard}
	if login != "" {
		u, err := userByLogin(ctx, db, login)
		if err != nil {
			return nil, err
		}
		svc.Identity = lumo.FixedUser(u)
		reports.User = u
		wrap = func(h http.Handler) http.Handler { return h }
		restWrap = wrap
		caller = func(*http.Request) (*store.User, error) { return u, nil }
	} else {
		svc.Identity = lumo.TokenUser(db)
		caller = func(r *http.Request) (*store.User, error) {
			ti := auth.TokenInfoFromContext(r.Context())
			if ti == nil || ti.UserID == "" {
				return nil, errors.New("request without an authenticated user")
			}
			return db.UserByLogin(r.Context(), ti.UserID)
		}
		wrap = lumo.BearerAuth(db, log, ops.resource)
		restWrap = restserver.Bearer(wrap) // the same check; its refusals as the REST error body
	}
	srv, err := lumo.NewServer(svc, lumo.Options{ValidateOutput: validate, MaxConcurrent: ops.maxConcurrent, Stateless: ops.stateless})
	if err != nil {
		return nil, err
	}
	if !ops.stateless {
		go svc.WatchChanges(ctx)
	}
	srv.AddReceivingMiddleware(ops.metrics.MCP(log))
	// JSONResponse: every answer is one JSON body, not a one-event SSE stream. No tool sends
	// notifications while it runs, and the stream's framing and flushes cost about 0.08 ms a call.
	// The Host check of every route, /mcp's included, is crosssite's (it also accepts the public
	// URL's host, for a reverse proxy on the same machine).
	mcpHandler := mcpsession.Handler(srv, mcp.StreamableHTTPOptions{Logger: log, Stateless: ops.stateless, JSONResponse: true,
		DisableLocalhostProtection: true}, ops.sessions, log)
	// The REST mirror of the tools, at the paths /openapi.json advertises: the same service,
	// argument checks, bounds, token check, failed-token throttle and rate limits as /mcp.
	rest, err := lumo.NewREST(svc, lumo.Options{ValidateOutput: validate, MaxConcurrent: ops.maxConcurrent}, ops.conns.MaxBody, ops.metrics)
	if err != nil {
		return nil, err
	}
	cat, err := publishedCatalog()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	cat.Register(mux) // /schemas/ and /openapi.json: public, no token
	if ops.resource != nil {
		ops.resource.Register(mux) // the protected resource metadata: public
	}
	// The guard refuses a client with too many failed tokens before the token is looked up.
	mux.Handle("/mcp", ops.guard.Wrap(wrap(limiter.Middleware(caller, log, mcpHandler)), nil))
	mux.Handle(restserver.Prefix, ops.guard.Wrap(restWrap(limiter.PerCall(caller, log, rest)), restserver.Throttled))
	reports.Register(mux) // permalink pages: their own login (token form or bearer)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err := db.Ready(ctx); err != nil {
			log.WarnContext(ctx, "not ready", "err", err)
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, "banco indisponível ou migrações pendentes")
			return
		}
		if svc.Columnar != nil && !svc.Columnar.FirstSyncEnded() { // its questions would wait for it
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, "cópia colunar em preparação: a primeira sincronização deste servidor ainda não terminou")
			return
		}
		fmt.Fprintln(w, "ok")
	})
	if ops.metrics != nil {
		mux.Handle("GET /metrics", ops.metrics.Handler())
	}
	// Every route: no answer under a foreign Host on loopback (DNS rebinding); without tokens, no
	// call from a page of another origin.
	guarded := crosssite.Guard{PublicURL: svc.PublicURL, Tokenless: login != ""}.Wrap(mux)
	return ops.metrics.HTTP(log, guarded), nil
}

// serveHTTP serves h on addr until ctx ends (SIGTERM, SIGINT); then it stops accepting
// connections, lets in-flight requests finish for up to ops.shutdownTimeout, and cuts the rest. The caller
// closes the pool after it returns.
func serveHTTP(ctx context.Context, h http.Handler, addr, login string, ops serveOps, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	log.Info("serving MCP over HTTP", "url", "http://"+ln.Addr().String()+"/mcp",
		"rest", "http://"+ln.Addr().String()+restserver.Prefix+"<tool>", "auth", login == "")
	return httpserve.Serve(ctx, ln, h, ops.shutdownTimeout, ops.conns, log)
}

var importCommand = cli.Command{Name: "lumo import", Args: "caminho/workspace.yaml",
	Summary: "Importa o workspace (tenants, usuários, mesas e as Aplicações com seus dados) para o banco, numa transação:\n" +
		"ao falhar, nada muda; ao terminar, os servidores passam a responder com os dados novos.",
	Examples: []string{"lumo import minha-pasta/workspace.yaml", "lumo import --db postgres://lumo@db/lumo --timeout 2h workspace.yaml"}}

func importWorkspace(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	fs := importCommand.FlagSet()
	dsn := dbFlag(fs)
	timeout := fs.Duration("timeout", time.Hour, "tempo máximo da importação inteira; ao passar, a leitura em curso (de arquivo ou de banco de origem) é cancelada e nada muda (0 = sem limite)")
	replace := fs.Bool("replace", false, "substitui um tenant já importado de outro workspace.yaml com a mesma key (sem isso, a importação é recusada)")
	col := registerColumnarFlags(fs)
	if err := importCommand.Parse(fs, args, stdout); err != nil {
		return err
	}
	if err := col.check(); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return &cli.UsageError{Command: importCommand.Name, Msg: "informe o caminho do workspace.yaml (um só)"}
	}
	if *timeout < 0 {
		return errors.New("--timeout precisa ser positivo, ou 0 para sem limite")
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	tuneGC(192 << 20)
	path := fs.Arg(0)
	if *dsn == "" {
		var err error
		if *dsn, err = store.DefaultDSN(); err != nil {
			return err
		}
	}
	db, err := store.Open(ctx, *dsn, store.WithLogger(log))
	if err != nil {
		return err
	}
	defer db.Close()
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	prog := &importProgress{w: stderr, start: time.Now()}
	var onProgress func(store.Progress)
	if isTerminal(stderr) {
		onProgress = prog.update
	}
	opts := store.ImportOptions{Origin: abs, Replace: *replace, Progress: onProgress}
	colCopy, copyWhy := importCopy(col, *dsn)
	if colCopy != nil {
		defer colCopy.Close()
		sinkInto(&opts, colCopy, *dsn)
	}
	sum, err := db.ImportWorkspaceWith(ctx, workspace.DirFS(filepath.Dir(abs)), filepath.Base(abs), opts)
	if err != nil {
		err = asGiven(err, filepath.Dir(path))
		if prog.drawn {
			fmt.Fprintln(stderr)
		}
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("a importação passou do tempo limite (--timeout %s) e foi desfeita; nada mudou no banco: %w", *timeout, err)
		}
		return err
	}
	prog.summary(sum.Rows())
	fmt.Fprintf(stdout, "Workspace importado: %s, %s, %s, %s, %s.\n",
		ptbr.Count(sum.Tenants, "tenant", "tenants"), ptbr.Count(sum.Users, "usuário", "usuários"),
		ptbr.Count(sum.Desks, "mesa", "mesas"), ptbr.Count(sum.Apps, "Aplicação", "Aplicações"),
		ptbr.Count(int(sum.Rows()), "linha", "linhas"))
	for _, t := range sum.Tables {
		fmt.Fprintf(stdout, "  %s/%s %s: %s\n", t.Tenant, t.App, printable.Name(t.Table), ptbr.Count(int(t.Rows), "linha", "linhas"))
		fmt.Fprintf(stdout, "    %s\n", printable.Name(t.CSV)) // how the file, named by app.yaml, was read
	}
	for _, n := range sum.Notes {
		fmt.Fprintf(stdout, "Aviso: %s\n", printable.Name(n))
	}
	for _, r := range sum.Replaced {
		apps := "sem Aplicações"
		if len(r.Apps) > 0 {
			apps = "Aplicações " + strings.Join(r.Apps, ", ")
		}
		switch {
		case r.Origin == abs:
			fmt.Fprintf(stdout, "Substituiu a importação anterior do tenant %s, deste mesmo arquivo, de %s (%s).\n", r.Tenant, r.When(), apps)
		case r.Origin == "":
			fmt.Fprintf(stdout, "Substituiu o tenant %s, importado em %s (%s).\n", r.Tenant, r.When(), apps)
		default:
			fmt.Fprintf(stdout, "Substituiu o tenant %s, importado antes de %s em %s (%s), como pedido por --replace.\n", r.Tenant, printable.Name(r.Origin), r.When(), apps)
		}
	}
	if sum.MovedOut > 0 {
		line := "Os dados desses tenants saíram do banco: " + ptbr.Count(sum.MovedOut, "tabela ou rollup", "tabelas e rollups") +
			" que o banco guardava agora estão só no arquivo DuckDB da importação"
		if sum.ReclaimedBytes > 0 {
			line += fmt.Sprintf("; o banco devolveu %s MB ao disco", ptbr.Number(float64(sum.ReclaimedBytes)/1e6, 1))
		}
		fmt.Fprintln(stdout, line+".")
	}
	if sum.TokensKept > 0 || len(sum.TokensDropped) > 0 {
		fmt.Fprintf(stdout, "Tokens emitidos mantidos: %d.\n", sum.TokensKept)
	}
	if len(sum.TokensDropped) > 0 {
		fmt.Fprintf(stdout, "Tokens apagados com usuários que o arquivo não lista mais: %s.\n", strings.Join(sum.TokensDropped, ", "))
	}
	switch {
	case colCopy != nil:
		fmt.Fprintln(stdout, syncAfterImport(ctx, colCopy, col, *dsn, db, sum))
	case copyWhy != "":
		fmt.Fprintln(stdout, copyWhy)
	}
	return nil
}

// asGiven names the files of a workspace's problems (relative to its folder) by the path the
// user gave: /nonexist.yaml, not nonexist.yaml; dados/apps/v/vendas.csv, not apps/v/vendas.csv.
func asGiven(err error, dir string) error {
	if dir == "." {
		return err
	}
	var errs workspace.Errors
	var one *workspace.Error
	switch {
	case errors.As(err, &errs):
	case errors.As(err, &one):
		errs = workspace.Errors{one}
	}
	for _, e := range errs {
		// A PostgreSQL source's problem names the database ("banco erp, tabela vendas").
		if e.File != "" && !filepath.IsAbs(e.File) && !strings.HasPrefix(e.File, "banco ") {
			e.File = filepath.Join(dir, filepath.FromSlash(e.File))
		}
	}
	return err
}

var callCommand = cli.Command{Name: "lumo call", Args: `FERRAMENTA ['{"arg": ...}']`,
	Summary: "Chama uma ferramenta uma vez, como o usuário --user, e imprime o texto e o structuredContent da resposta.\n" +
		"As ferramentas são search_catalog, get_app, search_values e query.",
	Examples: []string{`lumo call search_catalog '{"terms": ["vendas"]}'`,
		`lumo call --user bruno query '{"appId": 1, "fields": [{"ref": "Lojas.Loja"}, {"ref": "Vendas.Valor", "agg": "sum"}]}'`}}

func call(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	fs := callCommand.FlagSet()
	dsn := dbFlag(fs)
	login := fs.String("user", defaultUser, "usuário (login) que faz a chamada")
	col := registerColumnarFlags(fs)
	if err := callCommand.Parse(fs, args, stdout); err != nil {
		return err
	}
	if err := col.check(); err != nil {
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
	db, err := openStore(ctx, *dsn, log, col)
	if err != nil {
		return err
	}
	defer db.Close()
	u, err := userByLogin(ctx, db, *login)
	if err != nil {
		return err
	}
	svc := &lumo.Service{DB: db, Log: cli.QuietLog(), Identity: lumo.FixedUser(u)}
	if c := callColumnar(col, *dsn); c != nil {
		defer c.Close()
		svc.Columnar, svc.ColumnarSyncOnMiss = c, true // one engine: the server's
	}
	srv, err := lumo.NewServer(svc, lumo.Options{ValidateOutput: true})
	if err != nil {
		return err
	}
	res, err := mcpserver.CallInProcess(ctx, srv, "lumo-call", fs.Arg(0), toolArgs)
	if err != nil {
		return err
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
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

func userByLogin(ctx context.Context, db *store.DB, login string) (*store.User, error) {
	u, err := db.UserByLogin(ctx, login)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("o usuário %q não existe neste banco; use --user com um login do workspace importado", login)
	}
	return u, err
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// tuneGC trades memory the process has to spare for CPU: the collector lets the heap grow to five
// times the live data, bounded by softLimit (near it the collector works harder again). A
// server's live heap is a few MiB, so at the default GOGC=100 the collector ran every few calls
// and took a sixth of a small call's CPU (softLimit 96 MiB); an import's reader allocates each
// value it converts, and the collector took a tenth of a 10M-row pt-BR import's CPU (softLimit
// 192 MiB, which with DuckDB's half of --columnar-memory stays within the limit + 150 MB).
// GOGC or GOMEMLIMIT in the environment win.
func tuneGC(softLimit int64) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	cli.SoftMemoryLimit(softLimit)
}

// publishedCatalog is the published schemas with every tool's reference page.
func publishedCatalog() (*schemapub.Catalog, error) {
	cat, err := schemapub.New(schemas.FS, gen.OpenAPI, "lumo")
	if err != nil {
		return nil, err
	}
	if err := cat.Describe(mcpserver.DocTools((&lumo.Service{}).Tools())); err != nil {
		return nil, err
	}
	return cat, nil
}
