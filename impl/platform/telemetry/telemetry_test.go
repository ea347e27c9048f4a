package telemetry

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestRequestIDs(t *testing.T) {
	for id, ok := range map[string]bool{
		"abc-123": true, "a.b_c:d": true, strings.Repeat("a", 128): true,
		"": false, strings.Repeat("a", 129): false, "com espaço": false, `x","token":"y`: false, "ação": false,
	} {
		if validID(id) != ok {
			t.Errorf("validID(%q) = %v", id, !ok)
		}
	}
	var logs bytes.Buffer
	log := slog.New(LogHandler{slog.NewJSONHandler(&logs, nil)})
	var seen string
	h := (*Metrics)(nil).HTTP(log, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = RequestID(r.Context())
		log.WarnContext(r.Context(), "inside")
		w.WriteHeader(http.StatusTeapot)
	}))
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/x", nil)
	req.Header.Set(Header, "given-1")
	h.ServeHTTP(rec, req)
	if seen != "given-1" || rec.Header().Get(Header) != "given-1" {
		t.Fatalf("id in context %q, echoed %q", seen, rec.Header().Get(Header))
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("log lines: %q", lines)
	}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil || m["request_id"] != "given-1" {
			t.Errorf("line %s", l)
		}
	}
	if !strings.Contains(lines[1], `"status":418`) || !strings.Contains(lines[1], `"path":"other"`) {
		t.Errorf("access line %s", lines[1])
	}
	// Without a client id, a fresh one per request.
	a, b := httptest.NewRecorder(), httptest.NewRecorder()
	h.ServeHTTP(a, httptest.NewRequest("GET", "/healthz", nil))
	h.ServeHTTP(b, httptest.NewRequest("GET", "/healthz", nil))
	if x, y := a.Header().Get(Header), b.Header().Get(Header); len(x) != 24 || x == y {
		t.Errorf("generated ids %q %q", x, y)
	}
	if RequestID(context.Background()) != "" {
		t.Error("id without one")
	}
}

func TestErrorCode(t *testing.T) {
	for in, want := range map[string]string{
		`{"error":{"code":"NOT_FOUND","message":"x","suggestions":[]}}`: "NOT_FOUND",
		`{"rows":[]}`: "UNKNOWN",
		`{"error":{"code":"` + strings.Repeat("A", 41) + `"}}`: "UNKNOWN",
	} {
		if got := errorCode(json.RawMessage(in)); got != want {
			t.Errorf("errorCode(%s) = %s, want %s", in, got, want)
		}
	}
}
