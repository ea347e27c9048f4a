package ratelimit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/oauthres"
	"github.com/lumo-caderninho/mcp/impl/platform/restserver"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

// MaxBody bounds the body of an MCP request over HTTP; a larger one gets 413.
const MaxBody = 1 << 20

// Middleware counts every tools/call and initialize in a POST body (one JSON-RPC message or a
// batch) before next sees it: a session costs work and memory, so opening one is a request like a
// call. Over a limit it answers 429 with Retry-After and a JSON-RPC error, and next does no work.
// user names the caller of an authenticated request (it runs after the bearer check). Other
// messages (tools/list, pings, notifications) are not counted. The body is bounded by
// MaxBody (413 above it) and handed on unchanged.
func (l *Limiter) Middleware(user func(*http.Request) (*store.User, error), log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				http.Error(w, fmt.Sprintf("Requisição grande demais: o limite é %d bytes.", MaxBody), http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "Não foi possível ler a requisição.", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if l == nil || (l.PerUser <= 0 && l.PerTenant <= 0) {
			next.ServeHTTP(w, r)
			return
		}
		calls := counted(body)
		if len(calls) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		u, err := user(r)
		if err != nil {
			log.ErrorContext(r.Context(), "identifying the caller for rate limits", telemetry.ErrAttr(err))
			http.Error(w, "Erro interno ao identificar o usuário.", http.StatusInternalServerError)
			return
		}
		for _, id := range calls {
			d, err := l.Take(r.Context(), u)
			if err != nil {
				log.ErrorContext(r.Context(), "counting a request", telemetry.ErrAttr(err))
				w.Header().Set("Retry-After", strconv.Itoa(oauthres.RetryUnavailable))
				http.Error(w, countFailed, http.StatusServiceUnavailable)
				return
			}
			if d != nil {
				tooMany(w, id, d)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

type rpcMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// counted returns the ids of the tools/call and initialize requests in a JSON-RPC message or
// batch. A body that is not JSON-RPC has none; the MCP handler rejects it.
func counted(body []byte) []json.RawMessage {
	var msgs []rpcMessage
	if b := bytes.TrimSpace(body); len(b) > 0 && b[0] == '[' {
		if json.Unmarshal(b, &msgs) != nil {
			return nil
		}
	} else {
		var m rpcMessage
		if json.Unmarshal(b, &m) != nil {
			return nil
		}
		msgs = []rpcMessage{m}
	}
	var ids []json.RawMessage
	for _, m := range msgs {
		if m.Method == "tools/call" || m.Method == "initialize" {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// countFailed answers a call whose rate-limit budget the database did not let the server read.
var countFailed = fmt.Sprintf("O banco de dados não respondeu ao contar a chamada. Tente de novo em %d s.", oauthres.RetryUnavailable)

// tooMany answers 429 with Retry-After and a JSON-RPC error for the refused call.
func tooMany(w http.ResponseWriter, id json.RawMessage, d *Denial) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	body, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error": map[string]any{
			"code":    -32000,
			"message": d.Message(),
			"data":    map[string]any{"code": "RATE_LIMITED", "scope": d.Scope, "limit": d.Limit, "retryAfter": d.RetryAfter},
		},
	})
	w.Header().Set("Retry-After", strconv.Itoa(d.RetryAfter))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusTooManyRequests)
	w.Write(body)
}

// PerCall counts every POST as one tool call before next sees it: the REST mirror, where each
// request is one call (POST /tools/<tool>), against the same limits as the tools/call of /mcp.
// Over a limit it answers 429 with Retry-After and the RATE_LIMITED error body, and next does no
// work. user names the caller of an authenticated request (it runs after the bearer check).
func (l *Limiter) PerCall(user func(*http.Request) (*store.User, error), log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if l == nil || (l.PerUser <= 0 && l.PerTenant <= 0) || r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		u, err := user(r)
		if err != nil {
			log.ErrorContext(r.Context(), "identifying the caller for rate limits", telemetry.ErrAttr(err))
			restserver.WriteError(w, &mcpserver.ToolError{Code: "INTERNAL", Message: mcpserver.InternalErrorText})
			return
		}
		d, err := l.Take(r.Context(), u)
		if err != nil {
			log.ErrorContext(r.Context(), "counting a request", telemetry.ErrAttr(err))
			restserver.WriteUnavailable(w, countFailed)
			return
		}
		if d != nil {
			restserver.RateLimited(w, d.RetryAfter, d.Message())
			return
		}
		next.ServeHTTP(w, r)
	})
}
