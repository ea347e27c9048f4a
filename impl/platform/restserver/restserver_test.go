package restserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/restserver"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
	"github.com/lumo-caderninho/mcp/schemas"
)

func TestStatus(t *testing.T) {
	for code, want := range map[string]int{
		"INVALID_ARGUMENTS": 400, "INVALID_FILTER": 400, "UNKNOWN_REF": 400, "VALUE_NOT_FOUND": 400,
		"UNAUTHORIZED": 401, "NOT_FOUND": 404,
		"CONFIRMATION_REQUIRED": 409, "IDEMPOTENCY_KEY_REUSED": 409, "IDEMPOTENCY_IN_PROGRESS": 409, "RESTART_REQUIRED": 409,
		"REQUEST_TOO_LARGE": 413, "SELECTION_TOO_LARGE": 422, "RESULT_TOO_LARGE": 422,
		"RATE_LIMITED": 429, "INTERNAL": 500, "TIMEOUT": 504,
	} {
		if got := restserver.Status(code); got != want {
			t.Errorf("Status(%s) = %d, want %d", code, got, want)
		}
	}
}

func TestRefusalHidesInternalErrors(t *testing.T) {
	var logs strings.Builder
	log := slog.New(slog.NewTextHandler(&logs, nil))
	status, te := restserver.Refusal(context.Background(), log, errors.New("pq: secret detail"))
	if status != 500 || te.Code != "INTERNAL" || strings.Contains(te.Message, "secret") || te.Suggestions == nil {
		t.Errorf("%d %+v", status, te)
	}
	if !strings.Contains(logs.String(), "tool failed") {
		t.Errorf("not logged: %s", logs.String())
	}
	status, te = restserver.Refusal(context.Background(), log, &mcpserver.ToolError{Code: "NOT_FOUND", Message: "x"})
	if status != 404 || te.Code != "NOT_FOUND" || te.Suggestions == nil {
		t.Errorf("%d %+v", status, te)
	}
}

// mirror serves get_app (lumo's schemas) with api as the generated server.
func mirror(t *testing.T, maxResult int, api http.HandlerFunc) *httptest.Server {
	t.Helper()
	set, err := schemacheck.Compile(schemas.FS, "lumo")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	m := &restserver.Mirror{Binder: &mcpserver.Binder{Schemas: set, Log: log, MaxResultBytes: maxResult,
		TooLargeSuggestions: []string{"Peça menos."}}, Tools: []string{"get_app"}, API: api, MaxBody: 64, Log: log}
	ts := httptest.NewServer(m)
	t.Cleanup(ts.Close)
	return ts
}

func call(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url+"/tools/get_app", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, v
}

func code(v map[string]any) string {
	e, _ := v["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func TestMirror(t *testing.T) {
	var got string
	ts := mirror(t, 40, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = string(b)
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(got, "2") {
			w.Write([]byte(`{"app":"` + strings.Repeat("x", 40) + `"}`))
			return
		}
		w.Write([]byte(`{"app":"ok"}`))
	})
	// The generated server gets the checked arguments, numbers normalised.
	if st, v := call(t, ts.URL, `{"appId":1.0}`); st != 200 || v["app"] != "ok" || got != `{"appId":1}` {
		t.Errorf("%d %v, API got %s", st, v, got)
	}
	// An answer over the bound is RESULT_TOO_LARGE, 422.
	if st, v := call(t, ts.URL, `{"appId":2}`); st != 422 || code(v) != "RESULT_TOO_LARGE" {
		t.Errorf("large answer: %d %v", st, v)
	}
	// Arguments that break the schema never reach it.
	got = ""
	if st, v := call(t, ts.URL, `{"appId":"x"}`); st != 400 || code(v) != "INVALID_ARGUMENTS" || got != "" {
		t.Errorf("invalid: %d %v (API got %q)", st, v, got)
	}
	// Nor does a body over MaxBody.
	if st, v := call(t, ts.URL, `{"appId":1,"pad":"`+strings.Repeat(" ", 64)+`"}`); st != 413 || code(v) != "REQUEST_TOO_LARGE" || got != "" {
		t.Errorf("large body: %d %v", st, v)
	}
}

func TestBearerRefusals(t *testing.T) {
	check := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer good" {
				http.Error(w, "invalid token", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	h := restserver.Bearer(check)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound) // the handler's own statuses pass untouched
		w.Write([]byte("inner"))
	}))
	for token, want := range map[string]int{"": 401, "Bearer bad": 401, "Bearer good": 404} {
		req := httptest.NewRequest("POST", "/tools/x", nil)
		if token != "" {
			req.Header.Set("Authorization", token)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("%q: %d, want %d", token, rec.Code, want)
		}
		if want == 401 {
			var v map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || code(v) != "UNAUTHORIZED" || rec.Header().Get("WWW-Authenticate") != "Bearer" {
				t.Errorf("%q: %s %v", token, rec.Body, rec.Header())
			}
		} else if rec.Body.String() != "inner" {
			t.Errorf("%q: body %q", token, rec.Body)
		}
	}
}
