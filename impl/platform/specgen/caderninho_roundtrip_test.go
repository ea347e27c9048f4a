package specgen

import (
	"bytes"
	"testing"

	"github.com/go-faster/jx"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/platform/schemabundle"
	"github.com/lumo-caderninho/mcp/schemas"
)

// TestCaderninhoTypesRoundTrip checks that documents valid under the caderninho JSON Schemas
// decode into the ogen types (the handlers decode inputs with them), pass Validate and encode
// back to the same JSON.
func TestCaderninhoTypesRoundTrip(t *testing.T) {
	coverage := `{"accountId":"a:1","coveredFrom":"2026-08-01","coveredTo":"2026-09-30","gaps":[],"uncovered":[{"from":"2026-10-01","to":"2026-10-31"}],"referenceDay":"2026-09-30","lastSuccessAt":"2026-11-05T10:00:00-03:00","lastAttemptAt":null,"lastError":null}`
	tests := []struct {
		file string
		new  func() codec
		docs []string
	}{
		{"caderninho_accounts.input.json", func() codec { return new(caderninhoapi.CaderninhoAccountsInput) }, []string{
			`{}`, `{"space":"casa","person":"ana","accounts":["banco:0001-2"]}`,
		}},
		{"caderninho_transactions.input.json", func() codec { return new(caderninhoapi.CaderninhoTransactionsInput) }, []string{
			`{"space":"casa","from":"2026-10-01","to":"2026-10-31","direction":"out","text":"mercado","limit":50,"cursor":"x.y"}`,
			`{"accounts":["a:1","b:2"],"direction":"in"}`,
		}},
		{"caderninho_bills.input.json", func() codec { return new(caderninhoapi.CaderninhoBillsInput) }, []string{`{"person":"ana"}`}},
		{"caderninho_sync.input.json", func() codec { return new(caderninhoapi.CaderninhoSyncInput) }, []string{
			`{"idempotency_key":"sync-0001"}`, `{"idempotency_key":"sync-0002","connections":["a","b"],"waitSeconds":0}`,
		}},
		{"caderninho_transactions.output.json", func() codec { return new(caderninhoapi.CaderninhoTransactionsOutput) }, []string{
			`{"transactions":[{"id":1,"accountId":"a:1","space":"casa","holder":"ana","date":"2026-10-01","postedAt":"2026-10-01T10:00:00-03:00","amount":{"amountMinor":"-2990","currency":"BRL"},"direction":"out","type":"DEBIT","memo":"TARIFA","name":null,"fitid":"X1"}],"nextCursor":null,"truncated":false,"partial":true,"period":{"from":"2026-10-01","to":"2026-10-31"},"coverage":[` + coverage + `],"revisions":{"casa":4}}`,
		}},
		{"caderninho_accounts.output.json", func() codec { return new(caderninhoapi.CaderninhoAccountsOutput) }, []string{
			`{"accounts":[{"id":"a:1","connection":"a","institution":"Banco","label":"Banco, poupança 1","holder":{"key":"ana","name":"Ana"},"space":{"key":"casa","name":"Casa"},"type":"savings","number":"1","currency":"BRL","balance":null,"referenceDay":null,"coverage":` + coverage + `}],"period":null,"partial":false,"truncated":false,"revisions":{}}`,
		}},
		{"caderninho_bills.output.json", func() codec { return new(caderninhoapi.CaderninhoBillsOutput) }, []string{
			`{"bills":[{"accountId":"c:1","status":"open","period":{"from":"2026-11-01","to":"2026-11-30"},"closingDay":"2026-11-30","closingEstimated":true,"dueDate":null,"total":{"amountMinor":"0","currency":"BRL"},"estimate":true,"estimation":"e","transactionCount":0,"debits":{"amountMinor":"0","currency":"BRL"},"credits":{"amountMinor":"0","currency":"BRL"}}],"partial":false,"truncated":false,"coverage":[],"revisions":{"casa":1}}`,
		}},
		{"caderninho_sync.output.json", func() codec { return new(caderninhoapi.CaderninhoSyncOutput) }, []string{
			`{"request":{"id":1,"idempotencyKey":"k","replay":false,"status":"completed","requestedAt":"2026-11-05T10:00:00-03:00","finishedAt":null,"connections":[{"connection":"a","space":"casa","status":"failed","newFiles":0,"newTransactions":0,"duplicates":0,"newAccounts":0,"revisionBumped":false,"error":{"file":"x.ofx","line":3,"message":"m"}},{"connection":"b","space":"casa","status":"imported","newFiles":1,"newTransactions":2,"duplicates":0,"newAccounts":0,"revisionBumped":true,"error":null}]},"revisions":{"casa":5}}`,
		}},
		{"caderninho_transactions.output.json", func() codec { return new(caderninhoapi.ErrorResponse) }, []string{`{"error":{"code":"RESTART_REQUIRED","message":"m","suggestions":["s"]}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			bundled, err := schemabundle.Bundle(schemas.FS, "caderninho", tt.file)
			if err != nil {
				t.Fatal(err)
			}
			sch := compile(t, bundled)
			for _, doc := range tt.docs {
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(doc)))
				if err != nil {
					t.Fatal(err)
				}
				if err := sch.Validate(inst); err != nil {
					t.Fatalf("sample is not valid, fix the test: %s\n%v", doc, err)
				}
				v := tt.new()
				if err := v.Decode(jx.DecodeStr(doc)); err != nil {
					t.Errorf("decoding %s: %v", doc, err)
					continue
				}
				if err := v.Validate(); err != nil {
					t.Errorf("ogen Validate rejects %s: %v", doc, err)
				}
				var e jx.Encoder
				v.Encode(&e)
				if diff := jsonEqual(t, []byte(doc), e.Bytes()); diff != "" {
					t.Errorf("round trip of %s (-in +out):\n%s", doc, diff)
				}
			}
		})
	}
}
