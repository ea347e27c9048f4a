// Package telemetry is what operators see of a running HTTP server: a request id per call
// (X-Request-Id) carried into every log line of the call, Prometheus metrics (tool calls,
// latency, error codes, 429s, database pool) and one access log line per request. It never
// records a token, an argument or a row of data.
package telemetry

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Header carries the request id in both directions.
const Header = "X-Request-Id"

type ctxKey struct{}

// WithRequestID returns ctx carrying id, which LogHandler adds to every record.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// RequestID is the id ctx carries, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(ctxKey{}).(string)
	return id
}

// validID accepts a client's id only when short and plain, so it cannot forge log fields.
func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' || r == ':') {
			return false
		}
	}
	return true
}

func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// LogHandler adds request_id to every record logged with a context that carries one.
type LogHandler struct{ slog.Handler }

func (h LogHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h LogHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return LogHandler{h.Handler.WithAttrs(as)}
}
func (h LogHandler) WithGroup(g string) slog.Handler { return LogHandler{h.Handler.WithGroup(g)} }

// Metrics are one server's Prometheus collectors, on their own registry.
type Metrics struct {
	reg         *prometheus.Registry
	calls       *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	toolErrors  *prometheus.CounterVec
	http        *prometheus.CounterVec
	rateLimited prometheus.Counter
}

// NewMetrics registers the collectors of server (the metric prefix, "lumo") and the pool
// statistics of db (sql.DBStats: open, in use, idle, waits).
func NewMetrics(server string, db *sql.DB) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: server + "_tool_calls_total",
			Help: "Tool calls answered, by tool and outcome (ok or error)."}, []string{"tool", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: server + "_tool_call_duration_seconds",
			Help: "Time to answer a tool call, by tool.", Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}}, []string{"tool"}),
		toolErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: server + "_tool_errors_total",
			Help: "Tool calls answered with an error, by tool and structured error code (JSONRPC for protocol errors)."}, []string{"tool", "code"}),
		http: prometheus.NewCounterVec(prometheus.CounterOpts{Name: server + "_http_requests_total",
			Help: "HTTP requests, by path group and status code."}, []string{"path", "code"}),
		rateLimited: prometheus.NewCounter(prometheus.CounterOpts{Name: server + "_rate_limited_total",
			Help: "Requests refused with 429 Too Many Requests."}),
	}
	m.reg.MustRegister(m.calls, m.latency, m.toolErrors, m.http, m.rateLimited,
		collectors.NewDBStatsCollector(db, server), collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves /metrics.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Gather is for tests.
func (m *Metrics) Gather() prometheus.Gatherer { return m.reg }

// MCP is a receiving middleware that counts and times every tools/call (m may be nil: then it
// only carries the request id) and puts the request id of the HTTP request (set by HTTP) into
// the context of every method, so the tool's log lines carry it.
func (m *Metrics) MCP(log *slog.Logger) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if extra := req.GetExtra(); extra != nil && extra.Header != nil {
				if id := extra.Header.Get(Header); id != "" {
					ctx = WithRequestID(ctx, id)
				}
			}
			call, ok := req.(*mcp.CallToolRequest)
			if method != "tools/call" || !ok || m == nil {
				return next(ctx, method, req)
			}
			tool := call.Params.Name
			start := time.Now()
			res, err := next(ctx, method, req)
			elapsed := time.Since(start)
			code := ""
			if err != nil {
				code = "JSONRPC"
				tool = "(desconhecida)" // an unknown name must not grow the label set
			} else if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
				code = errorCode(r.StructuredContent)
			}
			m.ToolCall(ctx, log, "mcp", tool, code, elapsed)
			return res, err
		}
	}
}

// ToolCall counts and times one tool call answered over transport ("mcp" or "rest") with the
// structured error code (or "" for a result), and logs it: tool, outcome, code, duration,
// never arguments. m may be nil: then it only logs.
func (m *Metrics) ToolCall(ctx context.Context, log *slog.Logger, transport, tool, code string, elapsed time.Duration) {
	outcome := "ok"
	if code != "" {
		outcome = "error"
	}
	if m != nil {
		if code != "" {
			m.toolErrors.WithLabelValues(tool, code).Inc()
		}
		m.calls.WithLabelValues(tool, outcome).Inc()
		m.latency.WithLabelValues(tool).Observe(elapsed.Seconds())
	}
	log.InfoContext(ctx, "tool call", "tool", tool, "outcome", outcome, "code", code, "ms", elapsed.Milliseconds(), "transport", transport)
}

// ErrorCode is the code of a structured error body ({"error": {"code": ...}}), "UNKNOWN" when
// it has none.
func ErrorCode(body []byte) string { return errorCode(json.RawMessage(body)) }

func errorCode(structured any) string {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	var b []byte
	switch s := structured.(type) {
	case json.RawMessage:
		b = s
	default:
		b, _ = json.Marshal(s)
	}
	if json.Unmarshal(b, &e) != nil || e.Error.Code == "" || len(e.Error.Code) > 40 {
		return "UNKNOWN"
	}
	return e.Error.Code
}

type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// HTTP gives each request an id (the client's X-Request-Id when plain and short, else a new
// one), echoes it in the response, puts it in the request's context and header (where the MCP
// middleware reads it), counts the response status (m may be nil) and logs one line per
// request: method, path, status, duration, never headers or bodies.
func (m *Metrics) HTTP(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(Header)
		if !validID(id) {
			id = newID()
		}
		r.Header.Set(Header, id)
		w.Header().Set(Header, id)
		ctx := WithRequestID(r.Context(), id)
		rec := &recorder{ResponseWriter: w}
		start := time.Now()
		next.ServeHTTP(rec, r.WithContext(ctx))
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		if m != nil {
			m.http.WithLabelValues(pathGroup(r.URL.Path), strconv.Itoa(rec.status)).Inc()
			if rec.status == http.StatusTooManyRequests {
				m.rateLimited.Inc()
			}
		}
		log.InfoContext(ctx, "http request", "method", r.Method, "path", pathGroup(r.URL.Path), "status", rec.status,
			"ms", time.Since(start).Milliseconds())
	})
}

// pathGroup bounds the path label: fixed routes by name, everything else "other".
func pathGroup(p string) string {
	switch p {
	case "/mcp", "/healthz", "/readyz", "/metrics", "/openapi.json":
		return p
	}
	if len(p) >= 9 && p[:9] == "/schemas/" {
		return "/schemas/"
	}
	if len(p) >= 7 && p[:7] == "/tools/" { // the REST mirror; the tool is a label of the tool metrics
		return "/tools/"
	}
	return "other"
}
