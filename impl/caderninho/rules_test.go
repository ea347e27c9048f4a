package caderninho

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-faster/jx"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
)

func setRule(ctx context.Context, s *Service, raw string) (*caderninhoapi.PlanSetRuleOutput, error) {
	var in caderninhoapi.PlanSetRuleInput
	if err := in.Decode(jx.DecodeBytes(json.RawMessage(raw))); err != nil {
		return nil, err
	}
	return s.PlanSetRule(ctx, &in)
}

// TestRuleMatchingEveryMovementIsRefused: a rule that every bank movement of its space meets would
// give them all its category; it is refused naming the field and the fix, and nothing is written.
// (The memo and its folded copy are rewritten as the import would have written them.)
// A rule that leaves some out is kept.
func TestRuleMatchingEveryMovementIsRefused(t *testing.T) {
	ctx := context.Background()
	s := demoService(t)
	const casa = `account_id IN (SELECT a.id FROM cad_accounts a JOIN cad_connections c ON c.id = a.connection_id
		JOIN cad_spaces sp ON sp.id = c.space_id WHERE sp.space_key = 'casa')`
	if _, err := s.Store.DB().SQL().ExecContext(ctx, `UPDATE cad_transactions SET memo = 'LOJA XPTO ' || COALESCE(memo, ''), search_fold = 'loja xpto ' || search_fold WHERE `+casa); err != nil {
		t.Fatal(err)
	}
	all := countRows(t, s, "SELECT COUNT(*) FROM cad_transactions WHERE "+casa)
	rev := countRows(t, s, "SELECT revision FROM cad_spaces WHERE space_key = 'casa'")

	_, err := setRule(ctx, s, `{"space": "casa", "confirmed": true, "idempotency_key": "regra-xpto-1",
		"when": {"bankDescription": {"match": "contains", "text": "xpto"}}, "category": "Mercado"}`)
	var te *mcpserver.ToolError
	if !errors.As(err, &te) || te.Code != "INVALID_FILTER" {
		t.Fatalf("a rule every movement meets: got %v, want INVALID_FILTER", err)
	}
	want := fmt.Sprintf("when: a regra cumpriria todos os %d movimentos bancários do espaço casa e daria a todos a categoria Mercado.", all)
	if !strings.Contains(te.Message, want) || !strings.Contains(te.Message, "when.bankDescription.text") {
		t.Errorf("message %q\nwant it to hold %q and name when.bankDescription.text", te.Message, want)
	}
	if n := countRows(t, s, "SELECT COUNT(*) FROM cad_rules"); n != 0 {
		t.Errorf("%d rules stored after a refusal", n)
	}
	if r := countRows(t, s, "SELECT revision FROM cad_spaces WHERE space_key = 'casa'"); r != rev {
		t.Errorf("revision %d after a refusal, was %d", r, rev)
	}

	// the same text on one account leaves the other accounts' movements out: kept
	out, err := setRule(ctx, s, `{"space": "casa", "confirmed": true, "idempotency_key": "regra-xpto-2",
		"when": {"bankDescription": {"match": "contains", "text": "xpto"}, "account": "aurora-marina:12345-6"}, "category": "Mercado"}`)
	if err != nil {
		t.Fatalf("a rule of one account: %v", err)
	}
	if out.Count <= 0 || out.Count >= all {
		t.Errorf("the rule of one account changed %d of %d movements", out.Count, all)
	}
}
