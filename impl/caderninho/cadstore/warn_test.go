package cadstore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/caderninho/ofx"
)

// A statement with many transactions outside its period gets MaxWarnings warnings with file and
// line; the caller counts the rest.
func TestWarnOutsideIsBounded(t *testing.T) {
	st := ofx.Statement{HasPeriod: true, Start: "2026-10-01", End: "2026-10-31"}
	for i := range 30 {
		day := "2026-11-02"
		if i%2 == 0 {
			day = "2026-10-15" // inside
		}
		st.Transactions = append(st.Transactions, ofx.Transaction{Posted: ofx.Time{Day: day}, FITID: fmt.Sprint("F", i), Line: 10 + i})
	}
	st.Transactions = append(st.Transactions, ofx.Transaction{Posted: ofx.Time{Day: "2026-09-30"}, Line: 99},
		ofx.Transaction{Posted: ofx.Time{Day: "2026-10-31"}, Line: 100}, ofx.Transaction{Posted: ofx.Time{Day: "2026-10-01"}, Line: 101})
	var o Outcome
	extra := 0
	o.warnOutside("a.ofx", st, &extra)
	o.warnOutside("b.ofx", ofx.Statement{Transactions: st.Transactions}, &extra) // no period: nothing to compare
	if len(o.Warnings) != 16 || extra != 0 {
		t.Fatalf("%d warnings, %d more; want 16, 0", len(o.Warnings), extra)
	}
	if w := o.Warnings[0]; *w.File != "a.ofx" || *w.Line != 11 ||
		!strings.HasPrefix(w.Message, "a transação de 02/11/2026 (FITID F1) está fora do período do extrato (DTSTART 01/10/2026 a DTEND 31/10/2026)") {
		t.Errorf("first warning: %s", w.String())
	}
	if w := o.Warnings[15]; *w.Line != 99 {
		t.Errorf("last warning: %s", w.String())
	}
	o.warnOutside("c.ofx", st, &extra)
	if len(o.Warnings) != MaxWarnings || extra != 12 {
		t.Errorf("%d warnings, %d more; want %d, 12", len(o.Warnings), extra, MaxWarnings)
	}
}
