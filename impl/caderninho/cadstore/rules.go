package cadstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/lib/pq"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// How a rule's text is compared with a bank description, both folded.
const (
	MatchContains   = "contains"
	MatchStartsWith = "startsWith"
	MatchEquals     = "equals"
)

// Rule is one categorisation rule of a space. The first rule, by Position, whose condition a bank
// transaction meets categorises it, unless a person edited the transaction: a person's edit is
// never touched by a rule.
type Rule struct {
	ID       int64
	Space    string
	Position int // 1, 2, ... within the space
	// The condition: the bank's description (name and memo), folded, contains, starts with or
	// equals Text, folded (TextFold).
	Match    string
	Text     string
	TextFold string
	// Optionally: the amount's absolute value within [AmountMin, AmountMax] (minor units,
	// inclusive, nil = open) in AmountCurrency ("" = no amount condition); the account; the
	// account's holder; the direction ("in": amount >= 0, "out": amount < 0, "" = either).
	AmountCurrency       string
	AmountMin, AmountMax *int64
	Account, Person      *string
	Direction            string
	// What it gives the transaction: a category of the space and, optionally, the description the
	// planning view shows instead of the bank's.
	Category    string
	Description *string
}

// RuleSubject is what a rule looks at in a bank transaction.
type RuleSubject struct {
	Fold        string // the bank's description folded (BankDescription, then fold.Fold)
	AmountMinor int64
	Currency    string
	Account     string // <connection>:<number>
	Holder      string // the account's holder
}

// BankDescription is a bank transaction's description as the planning view shows it: its name
// and memo.
func BankDescription(name, memo string) string { return strings.TrimSpace(name + " " + memo) }

// Matches reports whether t meets the rule's condition.
func (r *Rule) Matches(t *RuleSubject) bool {
	switch {
	case r.Account != nil && *r.Account != t.Account,
		r.Person != nil && *r.Person != t.Holder,
		r.Direction == "in" && t.AmountMinor < 0,
		r.Direction == "out" && t.AmountMinor >= 0:
		return false
	}
	if r.AmountCurrency != "" {
		if t.Currency != r.AmountCurrency {
			return false
		}
		abs := uint64(t.AmountMinor)
		if t.AmountMinor < 0 {
			abs = uint64(-(t.AmountMinor + 1)) + 1 // exact for math.MinInt64 too
		}
		if (r.AmountMin != nil && abs < uint64(*r.AmountMin)) || (r.AmountMax != nil && abs > uint64(*r.AmountMax)) {
			return false
		}
	}
	if r.TextFold == "" {
		return false
	}
	switch r.Match {
	case MatchContains:
		return strings.Contains(t.Fold, r.TextFold)
	case MatchStartsWith:
		return strings.HasPrefix(t.Fold, r.TextFold)
	case MatchEquals:
		return t.Fold == r.TextFold
	}
	return false
}

// FirstRule is the first of rules (in their order) that t meets, or nil.
func FirstRule(rules []Rule, t *RuleSubject) *Rule {
	for i := range rules {
		if rules[i].Matches(t) {
			return &rules[i]
		}
	}
	return nil
}

// RuleEdit is the categorisation a rule wrote on a transaction.
type RuleEdit struct {
	RuleID      int64
	Category    string
	Description *string
}

// RuleCandidate is a bank transaction as rules see it, with the edit it carries.
type RuleCandidate struct {
	RuleSubject
	ID         int64 // the transaction's id
	Key        EditKey
	Day        string
	Name, Memo string
	// PersonEdit is set when a person edited the transaction (rules never touch it), with the
	// category the person gave it (nil: none).
	PersonEdit     bool
	PersonCategory *string
	// Rule is the rule edit it carries now; nil when none.
	Rule *RuleEdit
}

// RuleEffect is a change rules make: the candidate gets Rule's category and description, or
// loses its rule edit when Rule is nil.
type RuleEffect struct {
	Candidate *RuleCandidate
	Rule      *Rule
}

// RuleEffects is what rules, in their order, change among the candidates: every one no person
// edited whose rule edit differs from what its first matching rule gives (none when no rule
// matches). The effects hold pointers into rules and cands.
func RuleEffects(rules []Rule, cands []RuleCandidate) []RuleEffect {
	var out []RuleEffect
	m := NewRuleMatcher(rules)
	for i := range cands {
		c := &cands[i]
		if c.PersonEdit {
			continue
		}
		want := m.First(&c.RuleSubject)
		if !sameRuleEdit(want, c.Rule) {
			out = append(out, RuleEffect{Candidate: c, Rule: want})
		}
	}
	return out
}

func sameRuleEdit(want *Rule, have *RuleEdit) bool {
	if want == nil || have == nil {
		return want == nil && have == nil
	}
	return want.ID == have.RuleID && want.Category == have.Category && equalPtr(want.Description, have.Description)
}

func equalPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

const ruleColumns = `id, space_key, pos, match_kind, match_text, match_fold, amount_currency, amount_min, amount_max, account_key,
	person_key, direction, category, description`

// Rules returns the rules of space in their order; every space's, by space then position, when
// space is "".
func (s *Store) Rules(ctx context.Context, space string) ([]Rule, error) {
	return s.rulesOf(ctx, s.db.SQL(), space)
}

func (s *Store) rulesOf(ctx context.Context, q queryer, space string) ([]Rule, error) {
	query, args := `SELECT `+ruleColumns+` FROM cad_rules`, []any(nil)
	if space != "" {
		query, args = query+` WHERE space_key = ?`, append(args, space)
	}
	rows, err := q.QueryContext(ctx, s.q(query+` ORDER BY space_key, pos, id`), args...)
	if err != nil {
		return nil, fmt.Errorf("reading rules: %w", err)
	}
	defer rows.Close()
	var out []Rule
	for rows.Next() {
		var r Rule
		var currency, direction sql.NullString
		if err := rows.Scan(&r.ID, &r.Space, &r.Position, &r.Match, &r.Text, &r.TextFold, &currency, &r.AmountMin, &r.AmountMax, &r.Account,
			&r.Person, &direction, &r.Category, &r.Description); err != nil {
			return nil, fmt.Errorf("reading rules: %w", err)
		}
		r.AmountCurrency, r.Direction = currency.String, direction.String
		out = append(out, r)
	}
	return out, rows.Err()
}

// ruleAccount is an account as rules see it.
type ruleAccount struct {
	id          int64
	key, holder string
}

// ruleAccounts are the accounts of space (of connection only, when not 0), as q sees them.
func (s *Store) ruleAccounts(ctx context.Context, q queryer, space string, connection int64) ([]ruleAccount, error) {
	query := `SELECT a.id, c.connection_key, a.acct_number, p.person_key FROM cad_accounts a
		JOIN cad_connections c ON c.id = a.connection_id JOIN cad_people p ON p.id = c.holder_id
		JOIN cad_spaces sp ON sp.id = c.space_id WHERE sp.space_key = ?`
	args := []any{space}
	if connection != 0 {
		query, args = query+" AND c.id = ?", append(args, connection)
	}
	rows, err := q.QueryContext(ctx, s.q(query+" ORDER BY a.id"), args...)
	if err != nil {
		return nil, fmt.Errorf("reading the accounts of %s: %w", space, err)
	}
	defer rows.Close()
	var out []ruleAccount
	for rows.Next() {
		var a ruleAccount
		var conn, number string
		if err := rows.Scan(&a.id, &conn, &number, &a.holder); err != nil {
			return nil, fmt.Errorf("reading the accounts of %s: %w", space, err)
		}
		a.key = AccountKey(conn, number)
		out = append(out, a)
	}
	return out, rows.Err()
}

// RuleScope narrows the transactions rules are run over to those a change can concern: a
// transaction whose first matching rule changes is matched by a rule that changed, or carries
// the edit of one. The zero scope is every transaction.
type RuleScope struct {
	// Rules, when not nil, keeps the transactions some of these rules may match (each of a
	// rule's words is in the transaction's folded name and memo); RuleIDs and AnyRuleEdit add
	// those carrying the edit of one of these rules, or of any rule.
	Rules       []Rule
	RuleIDs     []int64
	AnyRuleEdit bool
}

// ruleWords are the words each transaction a rule matches holds: its text's, folded. A word has
// no white space, so it lies in the name or in the memo, and search_fold (memo and name, folded)
// holds it too, whichever comes first.
func ruleWords(r *Rule) []string { return strings.Fields(r.TextFold) }

// where is the scope as SQL over t (cad_transactions) and e (its edit), with its arguments; ""
// for every transaction. Unless the scope takes any rule's edit, the SQL starts with a
// condition on t alone that the scope implies (its words, or a dedupe key some of its rules'
// edits have), so the edit is looked up only for the few transactions that pass it.
func (sc RuleScope) where(args []any) (string, []any) {
	if sc.Rules == nil && sc.RuleIDs == nil && !sc.AnyRuleEdit {
		return "", args
	}
	words := func(args []any) ([]string, []any) {
		var or []string
		for i := range sc.Rules {
			words := ruleWords(&sc.Rules[i])
			if len(words) == 0 {
				continue
			}
			var and []string
			for _, w := range words {
				and, args = append(and, "t.search_fold LIKE ? ESCAPE '!'"), append(args, likeWord(w))
			}
			or = append(or, "("+strings.Join(and, " AND ")+")")
		}
		return or, args
	}
	ids := func(args []any) (string, []any) {
		for _, id := range sc.RuleIDs {
			args = append(args, id)
		}
		return inList(len(sc.RuleIDs)), args
	}
	var pre string
	if !sc.AnyRuleEdit {
		var or []string
		or, args = words(args)
		if len(sc.RuleIDs) > 0 {
			var in string
			in, args = ids(args)
			or = append(or, "t.dedupe_key IN (SELECT dedupe_key FROM cad_edits WHERE rule_id IN ("+in+"))")
		}
		if len(or) == 0 {
			return "1 = 0", args
		}
		pre = "(" + strings.Join(or, " OR ") + ") AND "
	}
	var or []string
	or, args = words(args)
	if sc.AnyRuleEdit {
		or = append(or, "e.rule_id IS NOT NULL")
	} else if len(sc.RuleIDs) > 0 {
		var in string
		in, args = ids(args)
		or = append(or, "e.rule_id IN ("+in+")")
	}
	if len(or) == 0 {
		return "1 = 0", args
	}
	return pre + "(" + strings.Join(or, " OR ") + ")", args
}

// RuleCandidates returns the bank transactions of space's accounts within scope as rules see
// them, most recent first (the planning view's order).
func (s *Store) RuleCandidates(ctx context.Context, space string, scope RuleScope) ([]RuleCandidate, error) {
	var out []RuleCandidate
	err := s.eachRuleCandidate(ctx, s.db.SQL(), space, 0, 0, scope, true, func(c *RuleCandidate) error {
		out = append(out, *c)
		return nil
	})
	return out, err
}

// eachRuleCandidate calls fn with each transaction of space's accounts (of connection only, when
// not 0; from id minID on; within scope) as q sees it, most recent first when ordered. fn's
// candidate is reused: copy it to keep it.
func (s *Store) eachRuleCandidate(ctx context.Context, q queryer, space string, connection, minID int64, scope RuleScope, ordered bool,
	fn func(*RuleCandidate) error) error {
	accounts, err := s.ruleAccounts(ctx, q, space, connection)
	if err != nil || len(accounts) == 0 {
		return err
	}
	byID := map[int64]ruleAccount{}
	var join strings.Builder
	var args []any
	join.WriteString("e.dedupe_key = t.dedupe_key AND e.account_key = CASE t.account_id")
	for _, a := range accounts {
		byID[a.id] = a
		join.WriteString(" WHEN ? THEN ?")
		args = append(args, a.id, a.key)
	}
	join.WriteString(" END")
	// SQLite would walk an index of the accounts or of the days and look every row up from it;
	// a unary + keeps those columns from an index, so it reads the table in its order (or the
	// ids from minID on) and sorts only what passes
	plus := "+"
	if s.db.Engine() == "postgres" {
		plus = "" // no + on a text; PostgreSQL picks its scan from statistics
	}
	where := plus + "t.account_id IN (" + inList(len(accounts)) + ")"
	for _, a := range accounts {
		args = append(args, a.id)
	}
	if minID > 0 {
		where, args = where+" AND t.id >= ?", append(args, minID)
	}
	var cond string
	if cond, args = scope.where(args); cond != "" {
		where += " AND " + cond
	}
	if ordered {
		where += " ORDER BY " + plus + "t.posted_day DESC, " + plus + "t.id DESC"
	}
	rows, err := q.QueryContext(ctx, s.q(`SELECT t.id, t.account_id, t.posted_day, t.amount_minor, t.currency, t.name, t.memo, t.dedupe_key,
		CASE WHEN e.dedupe_key IS NULL THEN 0 ELSE 1 END, e.rule_id, e.category, e.description
		FROM cad_transactions t LEFT JOIN cad_edits e ON `+join.String()+` WHERE `+where), args...)
	if err != nil {
		return fmt.Errorf("reading transactions for rules: %w", err)
	}
	defer rows.Close()
	var c RuleCandidate
	for rows.Next() {
		c = RuleCandidate{}
		var accountID int64
		var edited int
		var ruleID sql.NullInt64
		var category, description *string
		if err := rows.Scan(&c.ID, &accountID, &c.Day, &c.AmountMinor, &c.Currency, &c.Name, &c.Memo, &c.Key.Dedupe, &edited, &ruleID,
			&category, &description); err != nil {
			return fmt.Errorf("reading transactions for rules: %w", err)
		}
		a := byID[accountID]
		c.Key.Account, c.Account, c.Holder = a.key, a.key, a.holder
		c.Fold = fold.Fold(BankDescription(c.Name, c.Memo))
		switch {
		case edited == 0:
		case ruleID.Valid:
			c.Rule = &RuleEdit{RuleID: ruleID.Int64, Description: description}
			if category != nil {
				c.Rule.Category = *category
			}
		default:
			c.PersonEdit, c.PersonCategory = true, category
		}
		if err := fn(&c); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading transactions for rules: %w", err)
	}
	return nil
}

// ruleWriteBatch is how many edits one statement of applyRuleEffects writes or deletes
// (PostgreSQL writes them as arrays, pgRuleWriteBatch a statement, and deletes them 500 a
// statement). SQLite's driver looks each argument's name up by a walk of the list, so a
// statement pays its arguments squared: a prepared statement of insertBatch rows does better
// than one of hundreds (16 rows measured no better than 64).
func (s *Store) ruleWriteBatch() int {
	if s.db.Engine() == "postgres" {
		return 500
	}
	return insertBatch
}

// applyRuleEffects writes effects in tx: each candidate's rule edit is written, rewritten or
// deleted, a batch a statement. A person's edit is never overwritten, even one written since the
// effects were computed. touch, when set, is told every edit written.
func (s *Store) applyRuleEffects(ctx context.Context, tx *sql.Tx, space string, effects []RuleEffect, touch func(EditKey)) error {
	now := s.now()
	batch := s.ruleWriteBatch()
	deletes := map[string][]any{} // dedupe keys by account key
	var accounts []string         // of deletes, in their first effect's order
	var rows []any
	var n int
	// upsert writes n rule edits: a rule's edit (rule_id set) is rewritten, a person's is left
	upsert := func(n int) string {
		return s.q(`INSERT INTO cad_edits (account_key, dedupe_key, space_key, category, description, note, excluded, splits, search_fold,
			rule_id, updated_at) VALUES ` + strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, NULL, 0, NULL, ?, ?, ?), ", n), ", ") + `
			ON CONFLICT (account_key, dedupe_key) DO UPDATE SET space_key = excluded.space_key, category = excluded.category,
			description = excluded.description, note = NULL, excluded = 0, splits = NULL, search_fold = excluded.search_fold,
			rule_id = excluded.rule_id, updated_at = excluded.updated_at WHERE cad_edits.rule_id IS NOT NULL`)
	}
	var pg *pgRuleEdits // PostgreSQL gets the edits as arrays, many a statement
	if s.db.Engine() == "postgres" {
		pg = &pgRuleEdits{ctx: ctx, tx: tx, s: s, space: space, now: now}
	}
	var full *sql.Stmt // the upsert of a whole batch, prepared once
	defer func() {
		if full != nil {
			full.Close()
		}
	}()
	flush := func() error {
		if n == 0 {
			return nil
		}
		var err error
		switch {
		case n < batch:
			_, err = tx.ExecContext(ctx, upsert(n), rows...)
		case full == nil:
			if full, err = tx.PrepareContext(ctx, upsert(n)); err != nil {
				break
			}
			fallthrough
		default:
			_, err = full.ExecContext(ctx, rows...)
		}
		if err != nil {
			return fmt.Errorf("writing rules' edits: %w", err)
		}
		rows, n = rows[:0], 0
		return nil
	}
	for _, e := range effects {
		k := e.Candidate.Key
		if touch != nil {
			touch(k)
		}
		if e.Rule == nil {
			if _, seen := deletes[k.Account]; !seen {
				accounts = append(accounts, k.Account)
			}
			deletes[k.Account] = append(deletes[k.Account], k.Dedupe)
			continue
		}
		r := e.Rule
		if r.ID == 0 {
			return errors.New("applying a rule without an id")
		}
		if pg != nil {
			pg.add(k, r)
			if len(pg.account) == pgRuleWriteBatch {
				if err := pg.flush(); err != nil {
					return err
				}
			}
			continue
		}
		rows = append(rows, k.Account, k.Dedupe, space, r.Category, nullString(r.Description), EditFold(r.Description, nil), r.ID, now)
		if n++; n == batch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if pg != nil {
		if err := pg.flush(); err != nil {
			return err
		}
	}
	for _, account := range accounts {
		keys := deletes[account]
		for len(keys) > 0 {
			some := keys[:min(len(keys), batch)]
			keys = keys[len(some):]
			if _, err := tx.ExecContext(ctx, s.q("DELETE FROM cad_edits WHERE account_key = ? AND dedupe_key IN ("+inList(len(some))+
				") AND rule_id IS NOT NULL"), append([]any{account}, some...)...); err != nil {
				return fmt.Errorf("removing rules' edits: %w", err)
			}
		}
	}
	return nil
}

// pgRuleWriteBatch is how many rule edits one PostgreSQL statement writes.
const pgRuleWriteBatch = 10000

// pgRuleEdits collects rule edits for PostgreSQL, which gets each column as one array argument:
// a statement of thousands of rows parses and plans as fast as one of a single row.
type pgRuleEdits struct {
	ctx                                  context.Context
	tx                                   *sql.Tx
	s                                    *Store
	space, now                           string
	account, dedupe, category, searchFld []string
	description                          []sql.NullString
	rule                                 []int64
}

func (p *pgRuleEdits) add(k EditKey, r *Rule) {
	p.account, p.dedupe, p.category = append(p.account, k.Account), append(p.dedupe, k.Dedupe), append(p.category, r.Category)
	var d sql.NullString
	if r.Description != nil {
		d = sql.NullString{String: *r.Description, Valid: true}
	}
	p.description, p.searchFld, p.rule = append(p.description, d), append(p.searchFld, EditFold(r.Description, nil)), append(p.rule, r.ID)
}

// flush writes the edits collected: a rule's edit (rule_id set) is rewritten, a person's is left.
func (p *pgRuleEdits) flush() error {
	if len(p.account) == 0 {
		return nil
	}
	_, err := p.tx.ExecContext(p.ctx, p.s.q(`INSERT INTO cad_edits (account_key, dedupe_key, space_key, category, description, note, excluded,
		splits, search_fold, rule_id, updated_at)
		SELECT u.a, u.d, ?, u.c, u.ds, NULL, 0, NULL, u.f, u.r, ? FROM unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]),
			CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS BIGINT[])) AS u(a, d, c, ds, f, r)
		ON CONFLICT (account_key, dedupe_key) DO UPDATE SET space_key = excluded.space_key, category = excluded.category,
		description = excluded.description, note = NULL, excluded = 0, splits = NULL, search_fold = excluded.search_fold,
		rule_id = excluded.rule_id, updated_at = excluded.updated_at WHERE cad_edits.rule_id IS NOT NULL`),
		p.space, p.now, pq.Array(p.account), pq.Array(p.dedupe), pq.Array(p.category), pq.Array(p.description), pq.Array(p.searchFld),
		pq.Array(p.rule))
	if err != nil {
		return fmt.Errorf("writing rules' edits: %w", err)
	}
	p.account, p.dedupe, p.category, p.description, p.searchFld, p.rule = p.account[:0], p.dedupe[:0], p.category[:0], p.description[:0],
		p.searchFld[:0], p.rule[:0]
	return nil
}

// applyRules runs space's rules in tx over the transactions of its accounts (of connection
// only, when not 0; from id minID on) and returns how many edits changed.
func (s *Store) applyRules(ctx context.Context, tx *sql.Tx, space string, connection, minID int64) (int, error) {
	rules, err := s.rulesOf(ctx, tx, space)
	if err != nil {
		return 0, err
	}
	if len(rules) == 0 && minID > 0 {
		return 0, nil // new transactions carry no rule edit: nothing to apply or to take back
	}
	// only what a rule may match, or what carries a rule's edit (another space's, say), can change;
	// new transactions are mostly what rules match, and the matcher tells them apart faster than
	// a LIKE a rule word in SQL
	scope := RuleScope{Rules: rules, AnyRuleEdit: true}
	switch {
	case minID > 0:
		scope = RuleScope{}
	case rules == nil:
		scope.Rules = []Rule{}
	}
	var effects []RuleEffect
	m := NewRuleMatcher(rules)
	err = s.eachRuleCandidate(ctx, tx, space, connection, minID, scope, false, func(c *RuleCandidate) error {
		if c.PersonEdit {
			return nil
		}
		if want := m.First(&c.RuleSubject); !sameRuleEdit(want, c.Rule) {
			kept := *c
			effects = append(effects, RuleEffect{Candidate: &kept, Rule: want})
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return len(effects), s.applyRuleEffects(ctx, tx, space, effects, nil)
}

// reapplyConnection runs the rules of connection's space over every transaction of its
// accounts, after the connection changed space or holder: a rule edit another space's rules (or
// another holder) gave is rewritten or taken back. It bumps the space's revision when an edit
// changed.
func (s *Store) reapplyConnection(ctx context.Context, tx *sql.Tx, connection int64) error {
	var space string
	var spaceID int64
	if err := tx.QueryRowContext(ctx, s.q(`SELECT sp.id, sp.space_key FROM cad_connections c JOIN cad_spaces sp ON sp.id = c.space_id
		WHERE c.id = ?`), connection).Scan(&spaceID, &space); err != nil {
		return fmt.Errorf("reading the space of a connection: %w", err)
	}
	n, err := s.applyRules(ctx, tx, space, connection, 0)
	if err != nil || n == 0 {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_spaces SET revision = revision + 1 WHERE id = ?"), spaceID); err != nil {
		return fmt.Errorf("bumping the revision of %s: %w", space, err)
	}
	return nil
}

// RuleCounts is how many transactions each rule categorises now, by rule id.
func (s *Store) RuleCounts(ctx context.Context) (map[int64]int, error) {
	rows, err := s.db.SQL().QueryContext(ctx, "SELECT rule_id, COUNT(*) FROM cad_edits WHERE rule_id IS NOT NULL GROUP BY rule_id")
	if err != nil {
		return nil, fmt.Errorf("counting what rules categorise: %w", err)
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("counting what rules categorise: %w", err)
		}
		out[id] = n
	}
	return out, rows.Err()
}

// ApplyRuleEffects writes what rules change (see RuleEffects) within the write.
func (w *WriteTx) ApplyRuleEffects(ctx context.Context, space string, effects []RuleEffect) error {
	return w.s.applyRuleEffects(ctx, w.tx, space, effects, w.touch)
}

// InsertRule stores a new rule of r.Space at r.Position (make room first with SetRulePositions)
// and returns its id.
func (w *WriteTx) InsertRule(ctx context.Context, r Rule) (int64, error) {
	s := w.s
	id, err := s.reserveIDs(ctx, w.tx, "rule", 1)
	if err != nil {
		return 0, err
	}
	now := s.now()
	if _, err := w.tx.ExecContext(ctx, s.q(`INSERT INTO cad_rules (`+ruleColumns+`, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), id, r.Space, r.Position, r.Match, r.Text, r.TextFold, nullEmpty(r.AmountCurrency),
		nullInt(r.AmountMin), nullInt(r.AmountMax), nullString(r.Account), nullString(r.Person), nullEmpty(r.Direction), r.Category,
		nullString(r.Description), now, now); err != nil {
		return 0, fmt.Errorf("inserting rule: %w", err)
	}
	return id, nil
}

// UpdateRule rewrites rule r.ID of r.Space.
func (w *WriteTx) UpdateRule(ctx context.Context, r Rule) error {
	s := w.s
	res, err := w.tx.ExecContext(ctx, s.q(`UPDATE cad_rules SET pos = ?, match_kind = ?, match_text = ?, match_fold = ?, amount_currency = ?,
		amount_min = ?, amount_max = ?, account_key = ?, person_key = ?, direction = ?, category = ?, description = ?, updated_at = ?
		WHERE id = ? AND space_key = ?`), r.Position, r.Match, r.Text, r.TextFold, nullEmpty(r.AmountCurrency), nullInt(r.AmountMin),
		nullInt(r.AmountMax), nullString(r.Account), nullString(r.Person), nullEmpty(r.Direction), r.Category, nullString(r.Description),
		s.now(), r.ID, r.Space)
	if err != nil {
		return fmt.Errorf("updating rule: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("updating rule %d: %w", r.ID, ErrRevisionMoved)
	}
	return nil
}

// DeleteRule removes rule id of space (its edits are taken back by ApplyRuleEffects).
func (w *WriteTx) DeleteRule(ctx context.Context, space string, id int64) error {
	res, err := w.tx.ExecContext(ctx, w.s.q("DELETE FROM cad_rules WHERE id = ? AND space_key = ?"), id, space)
	if err != nil {
		return fmt.Errorf("deleting rule: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("deleting rule %d: %w", id, ErrRevisionMoved)
	}
	return nil
}

// SetRulePositions gives space's rules the positions of order: order[0] is 1, and so on. One
// statement sets up to 200 rules, and only those whose position changes are written.
func (w *WriteTx) SetRulePositions(ctx context.Context, space string, order []int64) error {
	for from := 0; from < len(order); from += 200 {
		ids := order[from:min(len(order), from+200)]
		var cases strings.Builder
		var pos, in []any
		cases.WriteString("CASE id")
		for i, id := range ids {
			cases.WriteString(" WHEN ? THEN CAST(? AS INTEGER)")
			pos, in = append(pos, id, from+i+1), append(in, id)
		}
		cases.WriteString(" END")
		args := make([]any, 0, 2*len(pos)+len(in)+1)
		args = append(append(append(append(args, pos...), space), in...), pos...)
		if _, err := w.tx.ExecContext(ctx, w.s.q("UPDATE cad_rules SET pos = "+cases.String()+" WHERE space_key = ? AND id IN ("+inList(len(ids))+
			") AND pos <> "+cases.String()), args...); err != nil {
			return fmt.Errorf("ordering rules: %w", err)
		}
	}
	return nil
}

func nullEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// RuleMatcher finds the first rule a transaction meets, as FirstRule, without trying every
// rule: each rule is keyed by three bytes of its folded text, the ones fewest other rules share,
// and a transaction tries only the rules keyed by three bytes its folded description holds
// (a rule's text lies within the description it matches, whatever the comparison).
type RuleMatcher struct {
	rules  []Rule
	short  []int32 // rules whose text is under three bytes: tried always
	byGram map[[3]byte][]int32
}

// NewRuleMatcher indexes rules, kept in their order (the matcher points into them).
func NewRuleMatcher(rules []Rule) *RuleMatcher {
	m := &RuleMatcher{rules: rules, byGram: map[[3]byte][]int32{}}
	shared := map[[3]byte]int{}
	for i := range rules {
		for _, g := range grams(rules[i].TextFold) {
			shared[g]++
		}
	}
	for i := range rules {
		t := rules[i].TextFold
		switch {
		case t == "":
			continue // matches nothing
		case len(t) < 3:
			m.short = append(m.short, int32(i))
			continue
		}
		key := [3]byte{t[0], t[1], t[2]}
		for _, g := range grams(t) {
			if shared[g] < shared[key] {
				key = g
			}
		}
		m.byGram[key] = append(m.byGram[key], int32(i))
	}
	return m
}

// grams are the distinct three-byte windows of s.
func grams(s string) [][3]byte {
	var out [][3]byte
	seen := map[[3]byte]bool{}
	for i := 0; i+3 <= len(s); i++ {
		g := [3]byte{s[i], s[i+1], s[i+2]}
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// First is the first rule (in their order) that t meets, or nil: FirstRule(rules, t).
func (m *RuleMatcher) First(t *RuleSubject) *Rule {
	best := int32(len(m.rules))
	try := func(i int32) {
		if i < best && m.rules[i].Matches(t) {
			best = i
		}
	}
	for _, i := range m.short {
		try(i)
	}
	if len(m.byGram) > 0 {
		f := t.Fold
		for j := 0; j+3 <= len(f); j++ {
			for _, i := range m.byGram[[3]byte{f[j], f[j+1], f[j+2]}] {
				try(i)
			}
		}
	}
	if best == int32(len(m.rules)) {
		return nil
	}
	return &m.rules[best]
}
