// Package lumo implements the lumo MCP tools and resources over the store and the semantic model.
package lumo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/ratelimit"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/restserver"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
	"github.com/lumo-caderninho/mcp/schemas"
)

// Identity tells which user a request acts for: the --user of a stdio server, or the owner of the
// bearer token on HTTP.
type Identity func(ctx context.Context, extra *mcp.RequestExtra) (*store.User, error)

// FixedUser is the Identity of a stdio server: every request acts as u.
func FixedUser(u *store.User) Identity {
	return func(context.Context, *mcp.RequestExtra) (*store.User, error) { return u, nil }
}

// TokenUser is the Identity of an HTTP server: the bearer token's verifier stored the login, in
// the MCP request's extra or, for a REST call (no extra), in the context.
func TokenUser(db *store.DB) Identity {
	return func(ctx context.Context, extra *mcp.RequestExtra) (*store.User, error) {
		ti := auth.TokenInfoFromContext(ctx)
		if extra != nil {
			ti = extra.TokenInfo
		}
		if ti == nil || ti.UserID == "" {
			return nil, errors.New("request without an authenticated user")
		}
		return db.UserByLogin(ctx, ti.UserID)
	}
}

// Service answers lumo requests for the users Identity names.
type Service struct {
	DB           *store.DB
	Identity     Identity
	Log          *slog.Logger
	QueryTimeout time.Duration // per query; 0 = DefaultQueryTimeout
	// SearchBudget bounds a search_values search without ref; 0 means DefaultSearchBudget (20 s).
	SearchBudget time.Duration
	// Limiter, when set, counts every tool call against the rate limits and refuses the calls over
	// them with a RATE_LIMITED tool error (stdio). HTTP servers leave it nil: their middleware
	// counts with the same Limiter and answers 429 before the call reaches a tool.
	Limiter *ratelimit.Limiter
	// PublicURL, when set (absolute, no trailing slash), makes every query result carry a
	// permalink: <PublicURL>/app/<appId>/report/<id>.
	PublicURL string

	// ResultCacheBytes bounds the kept query answers (see resultcache.go); 0 means
	// DefaultResultCacheBytes, negative turns the cache off.
	ResultCacheBytes int64

	// NoRollups sends every query to the base tables, never to a rollup (as LUMO_ROLLUPS=off).
	NoRollups bool

	// Columnar, when set, answers every query, value check and search_values of an app: when it
	// does not hold the app's current import yet, the call waits for the copy's sync
	// (columnar.Store.Keep) up to QueryTimeout, or, with ColumnarSyncOnMiss, syncs it first
	// (tests, one-shot runs). Only a failed sync, or a query past the copy's memory, sends an
	// app whose rows the database holds to the database.
	Columnar           *columnar.Store
	ColumnarSyncOnMiss bool

	changes   *changes      // what each session was shown (NewServer)
	gate      chan struct{} // the calls running (binder)
	cacheOnce sync.Once
	cache     *resultCache
}

// Options of a lumo MCP server.
type Options struct {
	ValidateOutput bool
	// MaxResultBytes bounds one answer (text plus structuredContent); 0 means
	// DefaultMaxResultBytes.
	MaxResultBytes int
	// MaxConcurrent bounds the tool calls running at once (the others wait their turn); 0 means
	// DefaultMaxConcurrent of the service's engine.
	MaxConcurrent int
	// Stateless says the transport keeps no session (stateless HTTP): nothing can reach a client
	// between its requests, so resource subscriptions and list_changed are not offered.
	Stateless bool
}

// DefaultMaxConcurrent is how many calls run at once on engine. SQLite runs in this process: one
// call per core keeps the cores busy, and each running call holds its connection's caches and
// sorts here (about 20 MiB under mcp-load; 50 clients at once went past 250 MiB). PostgreSQL runs
// elsewhere: four per core keep the cores busy while calls wait on the database.
func DefaultMaxConcurrent(engine string) int {
	if engine == "sqlite" {
		return runtime.GOMAXPROCS(0)
	}
	return 4 * runtime.GOMAXPROCS(0)
}

// DefaultMaxResultBytes is the largest answer a lumo tool gives: 4 MiB.
const DefaultMaxResultBytes = 4 << 20

// Version is the server version announced at initialize: the module version, as --version says it.
var Version = cli.ModuleVersion()

// NewServer builds the MCP server with every lumo tool and resource.
func NewServer(svc *Service, opts Options) (*mcp.Server, error) {
	set, err := schemacheck.Compile(schemas.FS, "lumo")
	if err != nil {
		return nil, err
	}
	// Capabilities say only what works: the tools never change; resources notify their changes
	// where a session can receive them.
	caps := &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Tools: &mcp.ToolCapabilities{},
		Resources:   &mcp.ResourceCapabilities{ListChanged: !opts.Stateless, Subscribe: !opts.Stateless},
		Completions: &mcp.CompletionCapabilities{}}
	chg := &changes{svc: svc, gen: -1, sessions: map[*mcp.ServerSession]*sessionView{}}
	sopts := &mcp.ServerOptions{Logger: svc.Log, Instructions: instructions, Capabilities: caps, CompletionHandler: chg.complete}
	if !opts.Stateless {
		sopts.SubscribeHandler, sopts.UnsubscribeHandler = chg.subscribe, chg.unsubscribe
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "lumo", Title: "Lumo", Version: Version}, sopts)
	chg.srv = srv
	srv.AddReceivingMiddleware(chg.receiving)
	srv.AddSendingMiddleware(chg.sending)
	b := svc.binder(set, opts)
	if svc.Limiter != nil {
		b.Admit = svc.admit
	}
	for _, t := range svc.tools(b.MaxResultBytes) {
		if err := b.Add(srv, t); err != nil {
			return nil, err
		}
	}
	svc.addResources(srv)
	svc.changes = chg
	return srv, nil
}

// binder is the binding of the tools with opts: the MCP tools and the REST mirror check and
// bound calls with the same settings.
func (s *Service) binder(set *schemacheck.Set, opts Options) *mcpserver.Binder {
	b := &mcpserver.Binder{FS: schemas.FS, Dir: "lumo", Schemas: set, Log: s.Log, ValidateOutput: opts.ValidateOutput,
		MaxResultBytes:      opts.MaxResultBytes,
		TooLargeSuggestions: []string{"Peça menos linhas (limit), menos colunas (fields) ou filtre mais (filters)."}}
	if b.MaxResultBytes <= 0 {
		b.MaxResultBytes = DefaultMaxResultBytes
	}
	if opts.MaxConcurrent <= 0 {
		engine := "" // a server built only to list its tools has no database
		if s.DB != nil {
			engine = s.DB.Engine()
		}
		opts.MaxConcurrent = DefaultMaxConcurrent(engine)
	}
	if s.gate == nil { // one bound for the MCP tools and the REST mirror of a service
		s.gate = make(chan struct{}, opts.MaxConcurrent)
	}
	b.Gate = s.gate
	return b
}

// WatchChanges tells connected sessions, until ctx ends, when an import or an admin change alters
// what their user sees (see changes). Call it once per server NewServer built.
func (s *Service) WatchChanges(ctx context.Context) {
	if s.changes != nil && s.DB != nil {
		s.changes.watch(ctx)
	}
}

const instructions = "Lumo responde perguntas sobre os dados das Aplicações do usuário. Comece por search_catalog " +
	"(sem termos para ver o catálogo, com termos para achar Indicadores e colunas) e get_app para o esquema completo. " +
	"Use search_values para conferir como um valor está escrito antes de filtrar por ele."

var readOnly = mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false), DestructiveHint: new(false)}

// Tools is the explicit list of lumo tools this server answers, with answers of at most
// DefaultMaxResultBytes.
func (s *Service) Tools() []mcpserver.Tool { return s.tools(DefaultMaxResultBytes) }

// tools lists the tools for a binder that bounds answers to maxResult bytes: search_catalog
// checks its catalogue against the bound before building it.
func (s *Service) tools(maxResult int) []mcpserver.Tool {
	return []mcpserver.Tool{
		{
			Name:  "search_catalog",
			Title: "Buscar no catálogo",
			Description: "Procura Indicadores, expressões e colunas nas Aplicações do usuário, ou lista o catálogo quando não recebe termos. " +
				"Use primeiro, para descobrir que Aplicações existem (id, mesa, cópias, publicação) e que ref usar em query. " +
				"terms é uma lista de palavras, ou um texto só (um termo); casa sem diferença de acento ou caixa. appId limita a uma Aplicação.",
			Annotations: readOnly,
			Handler: mcpserver.Typed(func(ctx context.Context, in *lumoapi.SearchCatalogInput) (lumoapi.SearchCatalogOutput, func() string, error) {
				return s.searchCatalog(ctx, in, maxResult)
			}),
		},
		{
			Name:  "get_app",
			Title: "Descrever uma Aplicação",
			Description: "Descreve uma Aplicação: tabelas (fato ou dimensão, quando foram carregadas), colunas com label, ref, field, type, role e unit, " +
				"expressões, Indicadores e relacionamentos. Use quando precisar do esquema completo antes de montar uma query.",
			Annotations: readOnly,
			Handler:     mcpserver.Typed(s.getApp),
		},
		{
			Name:  "search_values",
			Title: "Ver valores de colunas",
			Description: "Lista os valores de uma coluna, procura um texto nas colunas de texto ou mostra linhas de exemplo. " +
				"Com ref (Tabela.Coluna de texto ou data): até 50 valores distintos, em ordem, e o total. " +
				"Sem ref, com contains: procura o texto nas colunas de texto da Aplicação (as de dimensão primeiro) e diz em quais aparece. " +
				"mode \"sample\" com ref = uma tabela: 10 linhas de exemplo. " +
				"contains: todas as palavras precisam aparecer, sem diferença de acento ou caixa. " +
				"Use antes de filtrar em query, para achar o valor exato (filtros de texto com = ou in precisam dele) " +
				"ou para descobrir em que coluna um nome aparece. Número não se lista aqui: consulte com query.",
			Annotations: readOnly,
			Handler:     mcpserver.Typed(s.searchValues),
		},
		{
			Name:  "query",
			Title: "Consultar números",
			Description: "Roda uma consulta agregada numa Aplicação e devolve os números crus, com a unidade de cada coluna. " +
				"Use depois de achar as refs com search_catalog ou get_app. fields: sem agg a coluna agrupa, com agg mede; " +
				"filters com ops =, !=, >, <, >=, <=, between, not between, in, not in, like, not like, is null, is not null; " +
				"orderBy com refs de fields; limit padrão 10 (31 com data agrupada), teto 500. O resultado diz o total de linhas, " +
				"o total de todas as linhas (summary), os filtros aplicados e a data da carga.",
			Annotations: readOnly,
			Handler:     mcpserver.Typed(s.query),
		},
	}
}

// The tools as the generated Handler interface: each method takes the generated input and returns
// the generated output model; the MCP tools run the same code (tools) and add the text.
var _ lumoapi.Handler = (*Service)(nil)

// GetApp answers get_app.
func (s *Service) GetApp(ctx context.Context, in *lumoapi.GetAppInput) (*lumoapi.GetAppOutput, error) {
	out, _, err := s.getApp(ctx, in)
	return out, err
}

// SearchCatalog answers search_catalog, with answers of at most DefaultMaxResultBytes.
func (s *Service) SearchCatalog(ctx context.Context, in *lumoapi.SearchCatalogInput) (lumoapi.SearchCatalogOutput, error) {
	out, _, err := s.searchCatalog(ctx, in, DefaultMaxResultBytes)
	return out, err
}

// SearchValues answers search_values.
func (s *Service) SearchValues(ctx context.Context, in *lumoapi.SearchValuesInput) (lumoapi.SearchValuesOutput, error) {
	out, _, err := s.searchValues(ctx, in)
	return out, err
}

// Query answers query.
func (s *Service) Query(ctx context.Context, in *lumoapi.QueryInput) (*lumoapi.QueryOutput, error) {
	out, _, err := s.query(ctx, in)
	return out, err
}

// NewError turns an error of a method above into the generated error response: a
// *mcpserver.ToolError with the status of its code (restserver.Status: NOT_FOUND 404, TIMEOUT
// 504, ...), anything else logged and answered as the generic INTERNAL (500).
func (s *Service) NewError(ctx context.Context, err error) *lumoapi.ErrorResponseStatusCode {
	status, te := restserver.Refusal(ctx, s.Log, err)
	return &lumoapi.ErrorResponseStatusCode{StatusCode: status, Response: lumoapi.ErrorResponse{
		Error: lumoapi.Error{Code: te.Code, Message: te.Message, Suggestions: te.Suggestions}}}
}

// user resolves the caller of a tool call; failing to do so is internal (the transport already
// authenticated).
func (s *Service) user(ctx context.Context) (*store.User, error) {
	return s.userOf(ctx, extraOf(ctx))
}

// extraOf is the extra of the MCP request a tool call answers; nil outside one.
func extraOf(ctx context.Context) *mcp.RequestExtra {
	if req := mcpserver.Request(ctx); req != nil {
		return req.Extra
	}
	return nil
}

// userOf resolves the caller from a request's extra.
func (s *Service) userOf(ctx context.Context, extra *mcp.RequestExtra) (*store.User, error) {
	u, err := s.Identity(ctx, extra)
	if err != nil {
		return nil, fmt.Errorf("identifying the caller: %w", err)
	}
	return u, nil
}

// admit counts the call against the caller's rate limits.
func (s *Service) admit(ctx context.Context, req *mcp.CallToolRequest) error {
	u, err := s.userOf(ctx, req.Extra)
	if err != nil {
		return err
	}
	d, err := s.Limiter.Take(ctx, u)
	if err != nil {
		return err
	}
	if d != nil {
		return &mcpserver.ToolError{
			Code:        "RATE_LIMITED",
			Message:     d.Message(),
			Suggestions: []string{fmt.Sprintf("Espere %d s e repita a chamada.", d.RetryAfter)},
		}
	}
	return nil
}

func appNotFound(id int64) *mcpserver.ToolError {
	return &mcpserver.ToolError{
		Code:        "NOT_FOUND",
		Message:     fmt.Sprintf("A Aplicação %d não foi encontrada.", id),
		Suggestions: []string{"Use search_catalog sem termos para ver as Aplicações que você pode consultar."},
	}
}
