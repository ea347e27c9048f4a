package cadstore

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

func TestRuleMatches(t *testing.T) {
	i64 := func(n int64) *int64 { return &n }
	str := func(s string) *string { return &s }
	uber := RuleSubject{Fold: fold.Fold("UBER *VIAGEM"), AmountMinor: -3558, Currency: "BRL", Account: "aurora-marina:12345-6", Holder: "marina"}
	tests := []struct {
		name string
		rule Rule
		t    RuleSubject
		want bool
	}{
		{"contains, folded", Rule{Match: MatchContains, Text: "Viagem"}, uber, true},
		{"contains misses", Rule{Match: MatchContains, Text: "taxi"}, uber, false},
		{"starts with", Rule{Match: MatchStartsWith, Text: "uber *"}, uber, true},
		{"starts with is not contains", Rule{Match: MatchStartsWith, Text: "viagem"}, uber, false},
		{"equals, spaces collapsed", Rule{Match: MatchEquals, Text: "  Uber   *Viagem "}, uber, true},
		{"equals is the whole text", Rule{Match: MatchEquals, Text: "uber"}, uber, false},
		{"accents fold", Rule{Match: MatchContains, Text: "espaco itau"},
			RuleSubject{Fold: fold.Fold("CINEMA ESPAÇO ITAÚ"), AmountMinor: -100, Currency: "BRL"}, true},
		{"amount without sign, inclusive", Rule{Match: MatchContains, Text: "uber", AmountCurrency: "BRL", AmountMin: i64(3558), AmountMax: i64(3558)}, uber, true},
		{"amount above max", Rule{Match: MatchContains, Text: "uber", AmountCurrency: "BRL", AmountMax: i64(3557)}, uber, false},
		{"amount below min", Rule{Match: MatchContains, Text: "uber", AmountCurrency: "BRL", AmountMin: i64(3559)}, uber, false},
		{"amount of another currency", Rule{Match: MatchContains, Text: "uber", AmountCurrency: "USD", AmountMax: i64(100000)}, uber, false},
		{"the most negative amount has a size", Rule{Match: MatchContains, Text: "x", AmountCurrency: "BRL", AmountMin: i64(math.MaxInt64)},
			RuleSubject{Fold: "x", AmountMinor: math.MinInt64, Currency: "BRL"}, true},
		{"out", Rule{Match: MatchContains, Text: "uber", Direction: "out"}, uber, true},
		{"in", Rule{Match: MatchContains, Text: "uber", Direction: "in"}, uber, false},
		{"zero is in", Rule{Match: MatchContains, Text: "x", Direction: "in"}, RuleSubject{Fold: "x"}, true},
		{"account", Rule{Match: MatchContains, Text: "uber", Account: str("aurora-marina:12345-6")}, uber, true},
		{"another account", Rule{Match: MatchContains, Text: "uber", Account: str("ipe-rafael:1")}, uber, false},
		{"person", Rule{Match: MatchContains, Text: "uber", Person: str("marina")}, uber, true},
		{"another person", Rule{Match: MatchContains, Text: "uber", Person: str("rafael")}, uber, false},
	}
	for _, tc := range tests {
		tc.rule.TextFold = fold.Fold(tc.rule.Text)
		if got := tc.rule.Matches(&tc.t); got != tc.want {
			t.Errorf("%s: Matches = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestFirstRuleWinsAndPersonEditsAreLeft(t *testing.T) {
	rules := []Rule{
		{ID: 1, Match: MatchContains, TextFold: "viagem", Category: "Lazer"},
		{ID: 2, Match: MatchContains, TextFold: "uber", Category: "Transporte"},
	}
	sub := RuleSubject{Fold: "uber *viagem", AmountMinor: -1}
	cands := []RuleCandidate{
		{RuleSubject: sub, ID: 1}, // no edit: rule 1
		{RuleSubject: sub, ID: 2, Rule: &RuleEdit{RuleID: 1, Category: "Lazer"}},                               // already so
		{RuleSubject: sub, ID: 3, Rule: &RuleEdit{RuleID: 2, Category: "Transporte"}},                          // rule 1 comes first
		{RuleSubject: sub, ID: 4, PersonEdit: true},                                                            // a person's: left alone
		{RuleSubject: RuleSubject{Fold: "padaria"}, ID: 5, Rule: &RuleEdit{RuleID: 2, Category: "Transporte"}}, // no rule any more
	}
	var got []string
	for _, e := range RuleEffects(rules, cands) {
		to := "none"
		if e.Rule != nil {
			to = e.Rule.Category
		}
		got = append(got, fmt.Sprintf("%d %s", e.Candidate.ID, to))
	}
	if diff := cmp.Diff([]string{"1 Lazer", "3 Lazer", "5 none"}, got); diff != "" {
		t.Errorf("effects (-want +got):\n%s", diff)
	}
}

// putRule stores rule r in its space as a planning write does, applying it, and returns its id.
func putRule(t *testing.T, s *Store, key string, r Rule) int64 {
	t.Helper()
	spaces, err := s.Spaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := s.Rules(ctx, r.Space)
	if err != nil {
		t.Fatal(err)
	}
	r.Position, r.TextFold = len(rules)+1, fold.Fold(r.Text)
	rules = append(rules, r)
	cands, err := s.RuleCandidates(ctx, r.Space, RuleScope{})
	if err != nil {
		t.Fatal(err)
	}
	effects := RuleEffects(rules, cands)
	claim, _, err := s.ClaimWrite(ctx, key, "test", key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CommitWrite(ctx, claim, r.Space, spaces[r.Space].Revision, true, func(w *WriteTx, _ int64) (string, error) {
		id, err := w.InsertRule(ctx, r)
		rules[len(rules)-1].ID = id
		if err != nil {
			return "", err
		}
		return "{}", w.ApplyRuleEffects(ctx, r.Space, effects)
	}); err != nil {
		t.Fatal(err)
	}
	return rules[len(rules)-1].ID
}

func ruleCount(t *testing.T, s *Store, id int64) int {
	t.Helper()
	counts, err := s.RuleCounts(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	return counts[id]
}

// TestRuleCountsOfASpace: a space's counts are of its accounts' edits only.
func TestRuleCountsOfASpace(t *testing.T) {
	s, _ := setup(t)
	importAll(t, s)
	id := putRule(t, s, "regra-uber-1", Rule{Space: "casa", Match: MatchContains, Text: "UBER", Category: "Transporte"})
	for space, want := range map[string]int{"": 9, "casa": 9, "atelie": 0} {
		counts, err := s.RuleCounts(ctx, space)
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := counts[id]; n != want || ok != (want > 0) {
			t.Errorf("RuleCounts(%q)[casa's rule] = %d, %v; want %d", space, n, ok, want)
		}
	}
}

// TestRulesFollowImportsAndConnections: a rule categorises what an import brings, a connection
// moved to a space without rules loses its rule edits and gets them back when it returns, and
// registering the installation again changes nothing.
func TestRulesFollowImportsAndConnections(t *testing.T) {
	s, dir := setup(t)
	importAll(t, s)
	id := putRule(t, s, "regra-uber-1", Rule{Space: "casa", Match: MatchContains, Text: "UBER", Category: "Transporte"})
	if n := ruleCount(t, s, id); n != 9 {
		t.Fatalf("the rule categorises %d transactions, want the 9 rides", n)
	}
	copyFile(t, filepath.Join(dir, "next", "aurora-marina", "extrato-2026-11.ofx"), filepath.Join(dir, "ofx", "aurora-marina", "extrato-2026-11.ofx"))
	if o := importAll(t, s)["aurora-marina"]; o.NewTransactions != 10 || o.Categorised != 1 {
		t.Fatalf("import of November: %+v, want 10 new transactions, 1 categorised", o)
	}
	if n := ruleCount(t, s, id); n != 10 {
		t.Fatalf("after the import the rule categorises %d, want 10", n)
	}
	before := revisions(t, s)
	register(t, s, dir)
	if n := ruleCount(t, s, id); n != 10 {
		t.Fatalf("after registering again the rule categorises %d, want 10", n)
	}
	if diff := cmp.Diff(before, revisions(t, s)); diff != "" {
		t.Errorf("registering again moved revisions (-before +after):\n%s", diff)
	}
	if _, err := s.EditConnection(ctx, "teste", "aurora-marina", "Banco Aurora", "marina", "atelie"); err != nil {
		t.Fatal(err)
	}
	if n := ruleCount(t, s, id); n != 0 {
		t.Fatalf("in atelie (no rules) the rule still categorises %d", n)
	}
	if _, err := s.EditConnection(ctx, "teste", "aurora-marina", "Banco Aurora", "marina", "casa"); err != nil {
		t.Fatal(err)
	}
	if n := ruleCount(t, s, id); n != 10 {
		t.Fatalf("back in casa the rule categorises %d, want 10", n)
	}
	// installation.yaml moves it too
	yaml := filepath.Join(dir, "installation.yaml")
	b, err := os.ReadFile(yaml)
	if err != nil {
		t.Fatal(err)
	}
	moved := strings.Replace(string(b), "{key: aurora-marina, institution: Banco Aurora, holder: marina, space: casa,",
		"{key: aurora-marina, institution: Banco Aurora, holder: marina, space: atelie,", 1)
	if moved == string(b) {
		t.Fatal("the demo's installation.yaml no longer holds aurora-marina's line")
	}
	if err := os.WriteFile(yaml, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	register(t, s, dir)
	if n := ruleCount(t, s, id); n != 0 {
		t.Fatalf("moved to atelie by installation.yaml, the rule still categorises %d", n)
	}
	// a rule's edit is not the user's: never reported as an edit whose transaction is gone (with
	// no account known, every user's edit would be)
	spaces, err := s.Spaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if u, err := s.UnmatchedEdits(ctx, spaces, nil); err != nil || len(u) != 0 {
		t.Errorf("unmatched edits with no account known: %v %v, want none (rule edits are not reported)", u, err)
	}
}

// The matcher finds the rule FirstRule finds, over texts that share and overlap their bytes.
func TestRuleMatcherIsFirstRule(t *testing.T) {
	words := []string{"a", "ab", "uber", "ube", "ber", "pix", "pix enviado", "enviado maria", "mercado", "mercado bom", "bom preco", "o b", "co"}
	matches := []string{MatchContains, MatchStartsWith, MatchEquals}
	rnd := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var rules []Rule
		for i := range 1 + rnd.IntN(40) {
			r := Rule{ID: int64(i + 1), Match: matches[rnd.IntN(len(matches))], TextFold: words[rnd.IntN(len(words))]}
			switch rnd.IntN(4) {
			case 0:
				r.Direction = "out"
			case 1:
				r.TextFold = ""
			}
			rules = append(rules, r)
		}
		m := NewRuleMatcher(rules)
		for range 50 {
			var parts []string
			for range rnd.IntN(4) {
				parts = append(parts, words[rnd.IntN(len(words))])
			}
			sub := RuleSubject{Fold: strings.Join(parts, " "), AmountMinor: int64(rnd.IntN(3) - 1)}
			if got, want := m.First(&sub), FirstRule(rules, &sub); got != want {
				t.Fatalf("round %d, %q: First = %v, FirstRule = %v", round, sub.Fold, got, want)
			}
		}
	}
}

// TestImportCategorisesAsItInserts: a first import categorises its new transactions as it inserts
// them; an account that already holds edits on transactions the import brings back (a person's,
// a rule's no rule gives now) has them set right as before: the person's is left, the rule's
// taken back.
func TestImportCategorisesAsItInserts(t *testing.T) {
	uber := Rule{Space: "casa", Match: MatchContains, Text: "UBER", Category: "Transporte"}
	// what the demo's transactions are, from a first store
	s0, _ := setup(t)
	importAll(t, s0)
	cands, err := s0.RuleCandidates(ctx, "casa", RuleScope{})
	if err != nil {
		t.Fatal(err)
	}
	var rides, others []RuleCandidate
	for _, c := range cands {
		if strings.Contains(c.Fold, "uber") {
			rides = append(rides, c)
		} else {
			others = append(others, c)
		}
	}
	if len(rides) != 9 {
		t.Fatalf("%d rides in the demo, want 9", len(rides))
	}
	ride := rides[0]
	i := slices.IndexFunc(others, func(c RuleCandidate) bool { return c.Key.Account == ride.Key.Account })
	if i < 0 {
		t.Fatal("no other transaction in the account of a ride")
	}
	other := others[i]

	// rules before any transaction: every ride is categorised as the import inserts it
	s, _ := setup(t)
	id := putRule(t, s, "regra-uber", uber)
	categorised := 0
	for _, o := range importAll(t, s) {
		categorised += o.Categorised
	}
	if n := ruleCount(t, s, id); n != 9 || categorised != 9 {
		t.Fatalf("a first import with the rule: %d categorised (outcomes say %d), want the 9 rides", n, categorised)
	}

	// edits waiting for transactions not imported yet: a person's on a ride, a rule's on another
	s, _ = setup(t)
	id = putRule(t, s, "regra-uber", uber)
	for _, e := range []struct {
		key  EditKey
		cat  string
		rule any
	}{{ride.Key, "Viagem", nil}, {other.Key, "Transporte", id}} {
		if _, err := s.DB().SQL().ExecContext(ctx, s.q(`INSERT INTO cad_edits (account_key, dedupe_key, space_key, category, excluded, updated_at, rule_id)
			VALUES (?, ?, 'casa', ?, 0, '2026-01-01T00:00:00Z', ?)`), e.key.Account, e.key.Dedupe, e.cat, e.rule); err != nil {
			t.Fatal(err)
		}
	}
	importAll(t, s)
	if n := ruleCount(t, s, id); n != 8 {
		t.Errorf("the rule categorises %d, want the 8 rides no person edited", n)
	}
	after, err := s.RuleCandidates(ctx, "casa", RuleScope{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range after {
		switch c.Key {
		case ride.Key:
			if !c.PersonEdit || c.PersonCategory == nil || *c.PersonCategory != "Viagem" {
				t.Errorf("the person's edit of a ride became %+v %v", c.Rule, c.PersonCategory)
			}
		case other.Key:
			if c.PersonEdit || c.Rule != nil {
				t.Errorf("the rule's edit no rule gives is still there: %+v", c.Rule)
			}
		}
	}
}

// TestImportWritesTheEditsRulesWrite: the edits an import writes as it inserts its transactions
// (on SQLite, plain inserts that take the rule's category and description) are the edits the
// same rule writes when applied over transactions already imported, column by column; and a
// person's edit met by the import's writer is left as it is.
func TestImportWritesTheEditsRulesWrite(t *testing.T) {
	desc := "Corrida de Ônibus"
	uber := Rule{Space: "casa", Match: MatchContains, Text: "UBER", Category: "Transporte", Description: &desc}
	edits := func(s *Store) []string {
		t.Helper()
		rows, err := s.DB().SQL().QueryContext(ctx, `SELECT account_key, dedupe_key, space_key, COALESCE(category, '-'), COALESCE(description, '-'),
			COALESCE(note, '-'), excluded, COALESCE(splits, '-'), search_fold, COALESCE(rule_id, 0) FROM cad_edits ORDER BY account_key, dedupe_key`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var a, d, sp, c, ds, n, sl, f string
			var ex, r int64
			if err := rows.Scan(&a, &d, &sp, &c, &ds, &n, &ex, &sl, &f, &r); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s %s %s %s %s %s %d %s %q %d", a, d, sp, c, ds, n, ex, sl, f, r))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	first, _ := setup(t) // the rule, then the import
	putRule(t, first, "regra-uber", uber)
	importAll(t, first)
	then, _ := setup(t) // the import, then the rule
	importAll(t, then)
	putRule(t, then, "regra-uber", uber)
	got, want := edits(first), edits(then)
	if len(want) != 9 {
		t.Fatalf("the rule wrote %d edits over imported transactions, want the 9 rides", len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("edits of the import (-applied +imported):\n%s", diff)
	}
	if !strings.Contains(want[0], fmt.Sprintf("%q", EditFold(&desc, nil))) {
		t.Errorf("a rule's edit without its description folded: %s", want[0])
	}

	// the import's writer never overwrites a person's edit
	s, _ := setup(t)
	rules := []Rule{uber}
	rules[0].ID = putRule(t, s, "regra-uber", uber)
	tx, err := s.DB().SQL().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO cad_edits (account_key, dedupe_key, space_key, category, excluded, updated_at)
		VALUES ('conta:1', 'f:1', 'casa', 'Viagem', 0, '2026-01-01T00:00:00Z')`)); err != nil {
		t.Fatal(err)
	}
	w := s.newRuleEditWriter(ctx, tx, "casa", true)
	defer w.close()
	for _, key := range []string{"f:1", "f:2"} {
		if err := w.add("conta:1", key, &rules[0]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.flush(); err != nil {
		t.Fatal(err)
	}
	if w.written != 1 {
		t.Errorf("the writer says it wrote %d edits, want 1 (f:2)", w.written)
	}
	var cat string
	var rule sql.NullInt64
	if err := tx.QueryRowContext(ctx, s.q("SELECT category, rule_id FROM cad_edits WHERE account_key = 'conta:1' AND dedupe_key = 'f:1'")).
		Scan(&cat, &rule); err != nil {
		t.Fatal(err)
	}
	if cat != "Viagem" || rule.Valid {
		t.Errorf("the person's edit became %s (rule %v)", cat, rule)
	}
}
