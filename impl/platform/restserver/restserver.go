// Package restserver mounts a server's generated (ogen) HTTP server as the REST mirror of its MCP
// tools, POST /tools/<tool>, with the checks, limits and error bodies of the MCP binding.
package restserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ogen-go/ogen/ogenerrors"

	"github.com/lumo-caderninho/mcp/impl/platform/authguard"
	"github.com/lumo-caderninho/mcp/impl/platform/httpserve"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/oauthres"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

// Prefix is where the tools are served: POST /tools/<tool>, the paths of the OpenAPI document.
const Prefix = "/tools/"

// Status is the HTTP status of a refusal with code: the caller fixes its arguments (400, the
// default), the call came from a page of another site or by a foreign Host (403), the item does
// not exist (404), the state changed or a confirmation is missing (409), the work or the answer is
// too large (422), the request body is (413) or is not JSON (415), the caller is over a rate limit
// (429), the call timed out (504), the database did not answer (503), the server failed (500).
func Status(code string) int {
	switch code {
	case "UNAUTHORIZED":
		return http.StatusUnauthorized
	case "FORBIDDEN":
		return http.StatusForbidden
	case "NOT_FOUND":
		return http.StatusNotFound
	case "METHOD_NOT_ALLOWED":
		return http.StatusMethodNotAllowed
	case "CONFIRMATION_REQUIRED", "IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_IN_PROGRESS", "RESTART_REQUIRED":
		return http.StatusConflict
	case "REQUEST_TOO_LARGE":
		return http.StatusRequestEntityTooLarge
	case "UNSUPPORTED_MEDIA_TYPE":
		return http.StatusUnsupportedMediaType
	case "RESULT_TOO_LARGE", "SELECTION_TOO_LARGE":
		return http.StatusUnprocessableEntity
	case "RATE_LIMITED":
		return http.StatusTooManyRequests
	case "TIMEOUT":
		return http.StatusGatewayTimeout
	case "UNAVAILABLE":
		return http.StatusServiceUnavailable
	case "INTERNAL":
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// Refusal is the status and error of a handler's error: a *mcpserver.ToolError by its code,
// anything else logged (without its text reaching the caller) as INTERNAL, 500. The generated
// Handler's NewError of each server builds its error response from it.
func Refusal(ctx context.Context, log *slog.Logger, err error) (int, *mcpserver.ToolError) {
	var te *mcpserver.ToolError
	if !errors.As(err, &te) {
		log.ErrorContext(ctx, "tool failed", telemetry.ErrAttr(err))
		te = internal()
	}
	if te.Suggestions == nil {
		te = &mcpserver.ToolError{Code: te.Code, Message: te.Message, Suggestions: []string{}}
	}
	return Status(te.Code), te
}

func internal() *mcpserver.ToolError {
	return &mcpserver.ToolError{Code: "INTERNAL", Message: mcpserver.InternalErrorText, Suggestions: []string{}}
}

// WriteError answers te with its status (Status of its code) and the shared error body,
// {"error": {code, message, suggestions}}, the structuredContent MCP gives for the same refusal.
func WriteError(w http.ResponseWriter, te *mcpserver.ToolError) {
	writeError(w, Status(te.Code), te)
}

func writeError(w http.ResponseWriter, status int, te *mcpserver.ToolError) {
	suggestions := te.Suggestions
	if suggestions == nil {
		suggestions = []string{}
	}
	body, _ := json.Marshal(map[string]any{"error": map[string]any{
		"code": te.Code, "message": te.Message, "suggestions": suggestions,
	}})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}

// RateLimited answers 429 with Retry-After (seconds) and a RATE_LIMITED error.
func RateLimited(w http.ResponseWriter, retryAfter int, message string) {
	w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
	WriteError(w, &mcpserver.ToolError{Code: "RATE_LIMITED", Message: message,
		Suggestions: []string{fmt.Sprintf("Espere %d s e repita a chamada.", retryAfter)}})
}

// Throttled is the authguard.Refuser of the REST mirror: too many failed tokens from the
// client's address, as a RATE_LIMITED error.
func Throttled(w http.ResponseWriter, _ *http.Request, retryAfter int) {
	RateLimited(w, retryAfter, authguard.Message(retryAfter))
}

var _ authguard.Refuser = Throttled

// Mirror serves POST /tools/<tool> for Tools through API, the generated server of the same
// Handler the MCP tools adapt. Before API decodes a body, the mirror runs what the MCP binding
// runs before a handler (Binder.Acquire, Binder.CheckArguments: the same input schema and the same
// Portuguese messages); after it, Binder.CheckResult on the answer. The bearer check and the rate
// limits wrap the mirror as they wrap /mcp.
type Mirror struct {
	Binder *mcpserver.Binder
	Tools  []string
	// API is the generated server, built with the options of Options.
	API http.Handler
	// MaxBody bounds a request body (REQUEST_TOO_LARGE, 413, above it); 0 means
	// httpserve.DefaultMaxBody.
	MaxBody int64
	Log     *slog.Logger
	Metrics *telemetry.Metrics // nil: tool calls are logged, not counted
}

// Options are the settings of the generated server that Mirror needs, as plain functions: each
// generated package turns them into its own ServerOptions (WithErrorHandler, WithNotFound,
// WithMethodNotAllowed).
type Options struct {
	ErrorHandler     ogenerrors.ErrorHandler
	NotFound         http.HandlerFunc
	MethodNotAllowed func(w http.ResponseWriter, r *http.Request, allowed string)
}

// Options are the error answers of the generated server: a body it cannot decode or an answer it
// cannot encode, after CheckArguments passed, is a mismatch between the schemas and the generated
// code, so INTERNAL (as the MCP binding answers a failed decode); the others the mirror answers
// before the generated server sees the request.
func (m *Mirror) Options() Options {
	return Options{
		ErrorHandler: func(ctx context.Context, w http.ResponseWriter, r *http.Request, err error) {
			m.Log.ErrorContext(ctx, "generated server refused a checked call", "path", r.URL.Path, telemetry.ErrAttr(err))
			WriteError(w, internal())
		},
		NotFound: func(w http.ResponseWriter, r *http.Request) { m.notFound(w, r.URL.Path) },
		MethodNotAllowed: func(w http.ResponseWriter, r *http.Request, allowed string) {
			methodNotAllowed(w, allowed)
		},
	}
}

func (m *Mirror) notFound(w http.ResponseWriter, path string) {
	name := strings.TrimPrefix(path, Prefix)
	msg := fmt.Sprintf("Ferramenta desconhecida: %q.", name)
	if near := suggest.Similar(name, m.Tools, 3); len(near) > 0 {
		msg = fmt.Sprintf("Ferramenta desconhecida: %q; você quis dizer %s?", name, ptbr.QuotedOptions(near))
	}
	tools := slices.Sorted(slices.Values(m.Tools))
	WriteError(w, &mcpserver.ToolError{Code: "NOT_FOUND", Message: msg,
		Suggestions: []string{"As ferramentas são: " + strings.Join(tools, ", ") + "; cada uma em POST " + Prefix + "<ferramenta>."}})
}

func methodNotAllowed(w http.ResponseWriter, allowed string) {
	w.Header().Set("Allow", allowed)
	WriteError(w, &mcpserver.ToolError{Code: "METHOD_NOT_ALLOWED",
		Message:     "Método não permitido: cada ferramenta é chamada com " + allowed + ".",
		Suggestions: []string{"Envie os argumentos da ferramenta como JSON no corpo de um " + allowed + "."}})
}

// ServeHTTP answers one REST call.
func (m *Mirror) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tool, ok := strings.CutPrefix(r.URL.Path, Prefix)
	if !ok || !slices.Contains(m.Tools, tool) {
		m.notFound(w, r.URL.Path)
		return
	}
	if r.Method != http.MethodPost {
		methodNotAllowed(w, http.MethodPost)
		return
	}
	ctx := r.Context()
	start := time.Now()
	rec := &recorder{header: http.Header{}}
	m.call(rec, r, tool)
	code := ""
	if rec.status != http.StatusOK {
		code = telemetry.ErrorCode(rec.body.Bytes())
	}
	m.Metrics.ToolCall(ctx, m.Log, "rest", tool, code, time.Since(start))
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(rec.body.Len()))
	w.WriteHeader(rec.status)
	w.Write(rec.body.Bytes())
}

// call answers into rec, which holds the whole answer until its size and schema are checked.
func (m *Mirror) call(rec *recorder, r *http.Request, tool string) {
	ctx := r.Context()
	if te := jsonBody(r, tool); te != nil {
		WriteError(rec, te)
		return
	}
	limit := m.MaxBody
	if limit <= 0 {
		limit = httpserve.DefaultMaxBody
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		WriteError(rec, &mcpserver.ToolError{Code: "INVALID_ARGUMENTS", Message: "Não foi possível ler o corpo da requisição.",
			Suggestions: []string{"Envie o corpo inteiro de uma vez."}})
		return
	}
	if int64(len(body)) > limit {
		WriteError(rec, TooLarge(limit))
		return
	}
	release, err := m.Binder.Acquire(ctx)
	if err != nil {
		WriteError(rec, &mcpserver.ToolError{Code: "TIMEOUT", Message: "A chamada foi cancelada antes de começar.", Suggestions: []string{}})
		return
	}
	defer release()
	args, te := m.Binder.CheckArguments(tool, body)
	if te != nil {
		WriteError(rec, te)
		return
	}
	in := r.Clone(ctx)
	in.Body = io.NopCloser(bytes.NewReader(args))
	in.ContentLength = int64(len(args))
	in.Header.Set("Content-Type", "application/json")
	m.API.ServeHTTP(rec, in)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	if rec.status != http.StatusOK {
		return
	}
	if te := m.Binder.CheckResult(ctx, tool, rec.body.Bytes(), rec.body.Len()); te != nil {
		rec.reset()
		WriteError(rec, te)
	}
}

// jsonBody refuses a body not declared as JSON in UTF-8. A page of another site can POST a body
// with no Content-Type, or as text/plain, without a CORS preflight; application/json it cannot.
func jsonBody(r *http.Request, tool string) *mcpserver.ToolError {
	ct := r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	charset, hasCharset := params["charset"]
	if err == nil && mt == "application/json" && (!hasCharset || strings.EqualFold(charset, "utf-8")) {
		return nil
	}
	got := "sem Content-Type"
	if ct != "" {
		if len(ct) > 100 { // the header may be 64 KiB; naming its start is enough
			ct = ct[:100] + "…"
		}
		got = fmt.Sprintf("com Content-Type %q", ct)
	}
	return &mcpserver.ToolError{Code: "UNSUPPORTED_MEDIA_TYPE",
		Message:     "Corpo recusado em " + tool + ": veio " + got + "; os argumentos são JSON em UTF-8 (Content-Type: application/json).",
		Suggestions: []string{"Envie o cabeçalho Content-Type: application/json (charset, se houver, utf-8) e o corpo em UTF-8."}}
}

// Unavailable is the refusal of a call the database did not let the server check (its token,
// its rate limit): 503, which the caller repeats after Retry-After.
func Unavailable(message string) *mcpserver.ToolError {
	return &mcpserver.ToolError{Code: "UNAVAILABLE", Message: message,
		Suggestions: []string{fmt.Sprintf("Espere %d s e repita a chamada; o banco de dados costuma voltar em segundos.", oauthres.RetryUnavailable)}}
}

// WriteUnavailable answers 503 with Retry-After and the UNAVAILABLE error body.
func WriteUnavailable(w http.ResponseWriter, message string) {
	w.Header().Set("Retry-After", strconv.Itoa(oauthres.RetryUnavailable))
	WriteError(w, Unavailable(message))
}

// TooLarge is the refusal of a request body over limit bytes.
func TooLarge(limit int64) *mcpserver.ToolError {
	return &mcpserver.ToolError{Code: "REQUEST_TOO_LARGE",
		Message:     fmt.Sprintf("Requisição grande demais: o limite é %d bytes.", limit), // as httpserve's
		Suggestions: []string{}}
}

// recorder holds an answer in memory.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(p)
}

func (r *recorder) reset() {
	r.header, r.status = http.Header{}, 0
	r.body.Reset()
}
