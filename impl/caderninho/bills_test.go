package caderninho

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
)

func TestCycleAfterAClosing(t *testing.T) {
	for in, want := range map[string]string{
		"2026-10-31": "2026-11-30", "2026-11-30": "2026-12-31", "2026-01-30": "2026-02-28",
		"2026-01-15": "2026-02-15", "2026-12-10": "2027-01-10", "2024-01-29": "2024-02-29",
	} {
		from, to := cycleOf(in, cadstore.AddDays(in, 1))
		if from != cadstore.AddDays(in, 1) || to != want {
			t.Errorf("the cycle after a closing on %s is %s to %s, want it to close on %s", in, from, to, want)
		}
	}
	// A day well after the closing falls in its own month's cycle.
	if from, to := cycleOf("2026-10-07", "2026-12-20"); from != "2026-12-08" || to != "2027-01-07" {
		t.Errorf("cycle of 2026-12-20: %s to %s", from, to)
	}
}

// TestBillCycles cuts a card's bills from its statements: the bank's bills (OFX) as they are,
// the days of CSV exports by the closing day the OFX bills tell, or, without any, each run of
// overlapping exports as one bill with no open cycle.
func TestBillCycles(t *testing.T) {
	ofx := func(from, to string) cadstore.Statement {
		return cadstore.Statement{Start: from, End: to, Stated: true}
	}
	csv := func(from, to string) cadstore.Statement { return cadstore.Statement{Start: from, End: to} }
	show := func(closed []*cycle, open *cycle) []string {
		var out []string
		for _, c := range closed {
			out = append(out, fmt.Sprintf("%s..%s %d", c.from, c.to, c.how))
		}
		if open != nil {
			out = append(out, "aberto "+open.from+".."+open.to)
		}
		return out
	}
	for _, c := range []struct {
		name string
		sts  []cadstore.Statement
		want []string
	}{
		{"bank bills only", []cadstore.Statement{ofx("2026-08-01", "2026-08-31"), ofx("2026-09-01", "2026-09-30"), ofx("2026-09-01", "2026-09-30")},
			[]string{"2026-08-01..2026-08-31 0", "2026-09-01..2026-09-30 0", "aberto 2026-10-01..2026-10-31"}},
		// The next bill's export, before it closed: the open cycle, by the card's closing day.
		{"an export after the last bill", []cadstore.Statement{ofx("2026-09-08", "2026-10-07"), csv("2026-10-08", "2026-11-04")},
			[]string{"2026-09-08..2026-10-07 0", "aberto 2026-10-08..2026-11-07"}},
		// Exports past a closing make bills of their own, closed; the last cycle is open.
		{"exports over two cycles", []cadstore.Statement{ofx("2026-09-08", "2026-10-07"), csv("2026-10-09", "2026-11-20"), csv("2026-11-21", "2026-12-02")},
			[]string{"2026-09-08..2026-10-07 0", "2026-10-08..2026-11-07 1", "aberto 2026-11-08..2026-12-07"}},
		// Exports of the months before the first bank bill.
		{"exports before the bank's bills", []cadstore.Statement{csv("2026-07-10", "2026-08-30"), ofx("2026-09-08", "2026-10-07")},
			[]string{"2026-07-08..2026-08-07 1", "2026-08-08..2026-09-07 1", "2026-09-08..2026-10-07 0", "aberto 2026-10-08..2026-11-07"}},
		// An export inside a bank bill adds no bill.
		{"an export of a bank bill", []cadstore.Statement{csv("2026-09-09", "2026-10-06"), ofx("2026-09-08", "2026-10-07")},
			[]string{"2026-09-08..2026-10-07 0", "aberto 2026-10-08..2026-11-07"}},
		// Without a bank bill the closing day is unknown: exports that share days are one bill.
		{"exports only", []cadstore.Statement{csv("2026-09-20", "2026-09-25"), csv("2026-09-20", "2026-10-08"), csv("2026-10-09", "2026-11-05")},
			[]string{"2026-09-20..2026-10-08 2", "2026-10-09..2026-11-05 2"}},
	} {
		if got := show(billCycles(c.sts)); !cmp.Equal(got, c.want) {
			t.Errorf("%s:\n got %v\nwant %v", c.name, got, c.want)
		}
	}
}
