package caderninho

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
)

// Call refuses what the MCP tools refuse, with the same words, and writes what they write.
func TestCallRunsTheToolsChecks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc := demoService(t)
	plain := &Service{Store: svc.Store, Log: svc.Log} // no server built: Call compiles the schemas itself
	empty := json.RawMessage(`{"space": "casa", "confirmed": true, "idempotency_key": "call-regra-1",
		"when": {"bankDescription": {"match": "contains", "text": ""}}, "category": "Transporte"}`)
	_, err := plain.Call(ctx, "plan_set_rule", empty)
	var te *mcpserver.ToolError
	if !errors.As(err, &te) || te.Code != "INVALID_ARGUMENTS" || !strings.Contains(te.Message, "when.bankDescription.text") {
		t.Fatalf("empty text: %v", err)
	}
	_, want := svc.binder(svc.schemas, Options{}).CheckArguments("plan_set_rule", empty)
	if want == nil || want.Message != te.Message {
		t.Errorf("Call's refusal %q differs from the tool's %v", te.Message, want)
	}
	_, err = plain.Call(ctx, "plan_set_rule", json.RawMessage(`{"space": "casa", "confirmed": true, "idempotency_key": "call-regra-2",
		"when": {"bankDescription": {"match": "contains", "text": "UBER"}}, "category": "Transprte"}`))
	if !errors.As(err, &te) || !strings.HasPrefix(te.Message, `category: "Transprte" não é uma categoria do espaço casa.`) {
		t.Errorf("unknown category: %v", err)
	}
	reply, err := plain.Call(ctx, "plan_set_rule", json.RawMessage(`{"space": "casa", "confirmed": true, "idempotency_key": "call-regra-3",
		"when": {"bankDescription": {"match": "contains", "text": "UBER"}}, "category": "Transporte"}`))
	if err != nil || !strings.Contains(string(reply.JSON), `"count":10`) || !strings.Contains(reply.Text, "Transporte") {
		t.Fatalf("create: %v %s", err, reply.JSON)
	}
	if rules, _ := plain.Store.Rules(ctx, "casa"); len(rules) != 1 {
		t.Errorf("%d rules after the create", len(rules))
	}
	if _, err := plain.Call(ctx, "no_such_tool", nil); err == nil {
		t.Error("an unknown tool ran")
	}
}
