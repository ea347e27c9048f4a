package cadstore

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUnmatchedEditsFollowEveryWrite reads the unmatched edits after every kind of planning
// write (an unmatched edit changed or deleted, a matched one written, a write of another space,
// a record only) and after an import, and compares each answer with the query run afresh. The
// writes' answers must come from the cache carried past them, the import's from the database.
func TestUnmatchedEditsFollowEveryWrite(t *testing.T) {
	s, _ := setup(t)
	importAll(t, s)
	var accounts []PlanAccount
	all, err := s.Accounts(ctx, AccountFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range all {
		accounts = append(accounts, PlanAccount{ID: a.ID, Key: a.Key})
	}
	var matched EditKey
	if err := s.db.SQL().QueryRowContext(ctx, s.q(`SELECT dedupe_key FROM cad_transactions WHERE account_id = ? ORDER BY id LIMIT 1`), accounts[0].ID).
		Scan(&matched.Dedupe); err != nil {
		t.Fatal(err)
	}
	matched.Account = accounts[0].Key
	space := func(k string) Space {
		sps, err := s.Spaces(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return sps[k]
	}
	gone := func(i int) EditKey {
		return EditKey{Account: accounts[i%len(accounts)].Key, Dedupe: fmt.Sprintf("f:SUMIU-%d", i)}
	}
	write := func(sp string, bump bool, apply func(w *WriteTx) error) {
		t.Helper()
		c, _, err := s.ClaimWrite(ctx, fmt.Sprintf("k-%s-%d", sp, space(sp).Revision), "plan_categorize", "{}")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CommitWrite(ctx, c, sp, space(sp).Revision, bump, func(w *WriteTx, _ int64) (string, error) { return "{}", apply(w) }); err != nil {
			t.Fatal(err)
		}
	}
	cat := func(c string) *string { return &c }
	check := func(step string, carried bool) {
		t.Helper()
		sps, err := s.Spaces(ctx)
		if err != nil {
			t.Fatal(err)
		}
		gen := s.unmatched.gen
		got, err := s.UnmatchedEdits(ctx, sps, accounts)
		if err != nil {
			t.Fatal(err)
		}
		if hit := s.unmatched.gen == gen && sameSpaces(s.unmatched.spaces, sps); hit != carried {
			t.Errorf("%s: answered from the cache %v, want %v", step, hit, carried)
		}
		want, err := s.unmatchedAmong(ctx, s.db.SQL(), accounts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: unmatched edits (-database +store):\n%s", step, d)
		}
	}

	write("casa", true, func(w *WriteTx) error {
		for i := range 5 {
			if err := w.PutEdit(ctx, EditRow{Key: gone(i), Space: "casa", Category: cat("Lazer")}); err != nil {
				return err
			}
		}
		return nil
	})
	check("first read", false)
	if n := len(s.unmatched.edits); n != 5 {
		t.Fatalf("%d unmatched edits cached, want 5", n)
	}
	check("second read", true)
	write("casa", true, func(w *WriteTx) error {
		if err := w.PutEdit(ctx, EditRow{Key: gone(0), Space: "casa", Category: cat("Mercado")}); err != nil {
			return err
		}
		if err := w.DeleteEdit(ctx, gone(1)); err != nil {
			return err
		}
		return w.PutEdit(ctx, EditRow{Key: matched, Space: "casa", Category: cat("Saúde")})
	})
	check("an unmatched edit changed, one deleted, a matched one written", true)
	write("casa", true, func(w *WriteTx) error {
		return w.PutEdit(ctx, EditRow{Key: gone(7), Space: "casa", Category: cat("Lazer")})
	})
	check("an unmatched edit added", true)
	write("atelie", true, func(w *WriteTx) error {
		_, err := w.AddRecord(ctx, Record{Space: "atelie", Day: "2026-11-02", Currency: "BRL", Description: "Tinta"})
		return err
	})
	check("a record of another space", true)
	write("casa", false, func(w *WriteTx) error { return nil })
	check("a write without effect", true)

	// a change the cache is not told of, through the tables: only its revision says so
	if _, err := s.db.SQL().ExecContext(ctx, s.q("DELETE FROM cad_edits WHERE account_key = ? AND dedupe_key = ?"), gone(2).Account, gone(2).Dedupe); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.SQL().ExecContext(ctx, s.q("UPDATE cad_spaces SET revision = revision + 1 WHERE space_key = ?"), "atelie"); err != nil {
		t.Fatal(err)
	}
	check("a change of the tables with its revision", false)
	// a write from a revision the cache does not hold is not carried
	if _, err := s.db.SQL().ExecContext(ctx, s.q("DELETE FROM cad_edits WHERE account_key = ? AND dedupe_key = ?"), gone(4).Account, gone(4).Dedupe); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.SQL().ExecContext(ctx, s.q("UPDATE cad_spaces SET revision = revision + 1 WHERE space_key = ?"), "casa"); err != nil {
		t.Fatal(err)
	}
	write("casa", true, func(w *WriteTx) error { return w.DeleteEdit(ctx, gone(3)) })
	check("a write after a change the cache missed", false)
}

// TestUnmatchedAdvanceNeedsItsAnswer: a write carries only the answer it read its base from;
// one stored meanwhile (by a reader of another state) is left as it is.
func TestUnmatchedAdvanceNeedsItsAnswer(t *testing.T) {
	var c unmatchedCache
	c.gen, c.spaces = 1, map[string]Space{"casa": {ID: 1, Key: "casa", Revision: 4}}
	gen, _, ok := c.base("casa", 4)
	if !ok {
		t.Fatal("no base at the cached revision")
	}
	if _, _, ok := c.base("casa", 3); ok {
		t.Fatal("a base at another revision")
	}
	c.gen, c.spaces = 2, map[string]Space{"casa": {ID: 1, Key: "casa", Revision: 9}}
	c.advance(gen, "casa", 5, nil, []UnmatchedEdit{{EditKey: EditKey{Account: "a", Dedupe: "f:1"}}})
	if c.spaces["casa"].Revision != 9 || len(c.edits) != 0 {
		t.Fatalf("advanced an answer stored meanwhile: %+v %+v", c.spaces, c.edits)
	}
	c.advance(2, "casa", 10, nil, []UnmatchedEdit{{EditKey: EditKey{Account: "a", Dedupe: "f:1"}}})
	if c.spaces["casa"].Revision != 10 || len(c.edits) != 1 {
		t.Fatalf("did not advance its own answer: %+v %+v", c.spaces, c.edits)
	}
}
