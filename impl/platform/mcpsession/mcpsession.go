// Package mcpsession bounds the MCP sessions of a Streamable HTTP server: an idle session expires,
// and each user holds a bounded number at once.
package mcpsession

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The defaults of Limits. An assistant keeps its session for a conversation and opens a new one
// when a request answers 404 (the protocol says it must), so an expired session costs one
// initialize; a session costs the server a few goroutines and tens of kilobytes until then.
const (
	DefaultTimeout = 30 * time.Minute
	DefaultPerUser = 64
)

// Limits bound the sessions of a server. A zero field takes its default.
type Limits struct {
	// Timeout closes a session that has had no request for this long (go-sdk's SessionTimeout;
	// a request running, an SSE stream included, holds it open).
	Timeout time.Duration
	// PerUser is how many sessions one user (the bearer token's user) may hold: a new one past
	// it closes that user's oldest. < 0 is no cap.
	PerUser int
}

// RegisterFlags adds --session-timeout and --max-sessions-per-user to fs.
func (l *Limits) RegisterFlags(fs *flag.FlagSet) {
	l.PerUser = DefaultPerUser
	fs.DurationVar(&l.Timeout, "session-timeout", DefaultTimeout,
		"fecha a sessão MCP (HTTP) que fica este tempo sem requisições; o cliente abre outra")
	fs.Func("max-sessions-per-user", fmt.Sprintf("sessões MCP (HTTP) abertas ao mesmo tempo por usuário; uma nova além delas fecha a mais antiga (padrão %d; 0 = sem teto)", DefaultPerUser),
		func(s string) error {
			var n int
			if _, err := fmt.Sscan(s, &n); err != nil || n < 0 {
				return fmt.Errorf("use um número inteiro de 0 (sem teto) para cima, não %q", s)
			}
			l.PerUser = n
			if n == 0 {
				l.PerUser = -1
			}
			return nil
		})
}

// Check refuses limits a flag may have set wrong.
func (l Limits) Check() error {
	if l.Timeout <= 0 {
		return fmt.Errorf("--session-timeout precisa ser positivo (veio %s); ex.: 30m", l.Timeout)
	}
	return nil
}

func (l Limits) resolve() Limits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.PerUser == 0 {
		l.PerUser = DefaultPerUser
	}
	return l
}

// Handler is go-sdk's Streamable HTTP handler for srv with opts, its sessions bounded by l. Put
// it behind the bearer check: a session belongs to the request's token user (one user, "",
// where there is no token).
func Handler(srv *mcp.Server, opts mcp.StreamableHTTPOptions, l Limits, log *slog.Logger) http.Handler {
	l = l.resolve()
	opts.SessionTimeout = l.Timeout
	h := wellFormed(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &opts))
	if opts.Stateless || l.PerUser < 0 {
		return h
	}
	c := &perUser{srv: srv, max: l.PerUser, log: log, open: map[string][]string{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			h.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
		if id := w.Header().Get("Mcp-Session-Id"); id != "" {
			user := ""
			if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
				user = ti.UserID
			}
			c.opened(user, id)
		}
	})
}

// wellFormed answers a POST whose body is not JSON with a JSON-RPC parse error (-32700) in
// Portuguese, before go-sdk answers "malformed payload: ..." in English. The body is already
// bounded (httpserve) when it is read here.
func wellFormed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			next.ServeHTTP(w, withBody(r, body, err)) // the SDK reports a body that did not arrive
			return
		}
		if !json.Valid(body) {
			msg := "Mensagem que não é JSON válido: envie um objeto JSON-RPC 2.0 em UTF-8"
			if bytes.Contains(body, []byte("NaN")) || bytes.Contains(body, []byte("Infinity")) {
				msg += " (NaN e Infinity não são números em JSON; envie um número finito)"
			}
			out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32700, "message": msg + "."}})
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write(out)
			return
		}
		next.ServeHTTP(w, withBody(r, body, nil))
	})
}

// withBody is r with body as what remains to read (then err, if any).
func withBody(r *http.Request, body []byte, err error) *http.Request {
	var rd io.Reader = bytes.NewReader(body)
	if err != nil {
		rd = io.MultiReader(rd, errReader{err})
	}
	r.Body = io.NopCloser(rd)
	return r
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// perUser remembers, per user, the sessions opened, oldest first.
type perUser struct {
	srv *mcp.Server
	max int
	log *slog.Logger

	mu   sync.Mutex
	open map[string][]string // user -> session ids, oldest first (ids of closed sessions until pruned)
}

// opened records a new session of user and closes that user's oldest ones past the cap.
func (c *perUser) opened(user, id string) {
	c.mu.Lock()
	ids := append(c.open[user], id)
	var closing []*mcp.ServerSession
	if len(ids) > c.max {
		ids, closing = c.pastCap(ids)
	}
	c.open[user] = ids
	c.mu.Unlock()
	for _, ss := range closing {
		ss.Close()
	}
	if len(closing) > 0 {
		c.log.Warn("closed a user's oldest MCP sessions past the cap", "user", user, "closed", len(closing), "max_sessions_per_user", c.max)
	}
}

// pastCap drops the ids of sessions already gone (expired, or deleted by their client) and
// returns the ids that fit the cap and the oldest live sessions past it.
func (c *perUser) pastCap(ids []string) ([]string, []*mcp.ServerSession) {
	live := map[string]*mcp.ServerSession{}
	for ss := range c.srv.Sessions() {
		live[ss.ID()] = ss
	}
	var kept []string
	for _, id := range ids {
		if live[id] != nil {
			kept = append(kept, id)
		}
	}
	var closing []*mcp.ServerSession
	for len(kept) > c.max {
		closing = append(closing, live[kept[0]])
		kept = kept[1:]
	}
	return kept, closing
}
