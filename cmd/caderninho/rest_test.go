package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/platform/authguard"
)

// TestRESTMirror: the tools answer at POST /tools/<tool> with the assistant's token: a read, a
// confirmed write and its replay, a write without confirmation (409), no token (401); a
// read-only server answers its writes 404.
func TestRESTMirror(t *testing.T) {
	for _, readOnly := range []bool{false, true} {
		s, _ := demoStore(t)
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		base := serveLoopback(t, &caderninho.Service{Store: s, Log: log},
			httpOptions{validate: true, readOnly: readOnly, guard: authguard.New(authguard.DefaultMaxFailures)}, log) + "/tools/"
		post := func(tool, token, body string) (int, map[string]any) {
			t.Helper()
			req, _ := http.NewRequest(http.MethodPost, base+tool, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var v map[string]any
			json.NewDecoder(res.Body).Decode(&v)
			return res.StatusCode, v
		}
		write := `{"space": "casa", "confirmed": true, "idempotency_key": "rest-budget-0001", "month": "2026-11",
			"category": "Mercado", "currency": "BRL", "amount": {"amountMinor": "150000", "currency": "BRL"}}`
		if code, v := post("caderninho_accounts", "tok-assistente", `{"person": "rafael"}`); code != 200 || v["accounts"] == nil {
			t.Errorf("read-only=%v accounts: %d %v", readOnly, code, v)
		}
		if code, v := post("caderninho_accounts", "", `{}`); code != 401 || v["error"] == nil {
			t.Errorf("read-only=%v without a token: %d %v", readOnly, code, v)
		}
		if readOnly {
			if code, _ := post("plan_set_budget", "tok-assistente", write); code != 404 {
				t.Errorf("a write on a read-only server: %d, want 404", code)
			}
		} else {
			code, first := post("plan_set_budget", "tok-assistente", write)
			if code != 200 || first["replay"] != false {
				t.Errorf("set budget: %d %v", code, first)
			}
			if code, again := post("plan_set_budget", "tok-assistente", write); code != 200 || again["replay"] != true {
				t.Errorf("the same key again: %d %v, want its replay", code, again)
			}
			unconfirmed := strings.Replace(strings.Replace(write, `"confirmed": true`, `"confirmed": false`, 1), "0001", "0002", 1)
			if code, v := post("plan_set_budget", "tok-assistente", unconfirmed); code != 409 ||
				v["error"].(map[string]any)["code"] != "CONFIRMATION_REQUIRED" {
				t.Errorf("unconfirmed write: %d %v, want 409 CONFIRMATION_REQUIRED", code, v)
			}
			// a rule over REST: the rule's own fields come back, and so does the replay
			rule := `{"space": "casa", "confirmed": true, "idempotency_key": "rest-regra-0001",
				"when": {"bankDescription": {"match": "contains", "text": "UBER"}}, "category": "Transporte"}`
			for i, replay := range []bool{false, true} {
				code, v := post("plan_set_rule", "tok-assistente", rule)
				r, _ := v["rule"].(map[string]any)
				if code != 200 || v["replay"] != replay || r["id"] != float64(1) || v["count"] != float64(10) {
					t.Errorf("plan_set_rule call %d: %d %v", i+1, code, v)
				}
			}
			if code, v := post("plan_rules", "tok-assistente", `{"space": "casa"}`); code != 200 || len(v["rules"].([]any)) != 1 {
				t.Errorf("plan_rules: %d %v", code, v)
			}
		}

	}
}
