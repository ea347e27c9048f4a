package cadstore

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/caderninho/ofx"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// TestFingerprintIsTheStoredOne checks fingerprint against the formula stored fingerprints were
// made with: a change would make every stored transaction without FITID look new.
func TestFingerprintIsTheStoredOne(t *testing.T) {
	for _, tr := range []ofx.Transaction{
		{Posted: ofx.Time{Day: "2026-01-02"}, Amount: -1234, Currency: "BRL", Memo: "PIX ENVIADO", Name: "João"},
		{Posted: ofx.Time{Day: "2026-12-31"}, Amount: 0, Currency: "USD"},
		{Posted: ofx.Time{Day: "2020-02-29"}, Amount: 9223372036854775807, Currency: "EUR", Memo: strings.Repeat("Ação ", 100), Name: "\x1f"},
	} {
		want := sha256.Sum256([]byte(fmt.Sprintf("%s\x1f%d\x1f%s\x1f%s\x1f%s", tr.Posted.Day, tr.Amount, tr.Currency, fold.Fold(tr.Memo), fold.Fold(tr.Name))))
		if got := fingerprint(&tr); got != want {
			t.Errorf("%+v: %s, want %s", tr, got, fp(want))
		}
	}
}

func BenchmarkFingerprint(b *testing.B) {
	tr := ofx.Transaction{Posted: ofx.Time{Day: "2026-01-02"}, Amount: -1234, Currency: "BRL", Memo: "COMPRA CARTAO MERCADO 123"}
	for b.Loop() {
		fingerprint(&tr)
	}
}
