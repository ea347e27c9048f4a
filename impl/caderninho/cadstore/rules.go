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

// BankMovementCount is how many bank transactions space's accounts hold.
func (s *Store) BankMovementCount(ctx context.Context, space string) (int, error) {
	q := s.db.SQL()
	accounts, err := s.ruleAccounts(ctx, q, space, 0)
	if err != nil || len(accounts) == 0 {
		return 0, err
	}
	args := make([]any, len(accounts))
	for i, a := range accounts {
		args[i] = a.id
	}
	var n int
	if err := q.QueryRowContext(ctx, s.q("SELECT COUNT(*) FROM cad_transactions WHERE account_id IN ("+inList(len(accounts))+")"), args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting the transactions of %s: %w", space, err)
	}
	return n, nil
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

// ruleWriteBatch is how many rule edits one DELETE of applyRuleEffects takes back. SQLite's
// driver looks each numbered argument's name up by a walk of the list, so a statement pays its
// arguments squared: insertBatch there, 500 on PostgreSQL.
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
	batch := s.ruleWriteBatch()
	deletes := map[string][]any{} // dedupe keys by account key
	var accounts []string         // of deletes, in their first effect's order
	w := s.newRuleEditWriter(ctx, tx, space, false)
	defer w.close()
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
		if err := w.add(k.Account, k.Dedupe, e.Rule); err != nil {
			return err
		}
	}
	if err := w.flush(); err != nil {
		return err
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

// ruleEditWriter writes rule edits in a transaction, many a statement: a rule's edit (rule_id
// set) is written or rewritten, a person's (rule_id NULL) is left as it is. SQLite gets them in
// prepared upserts of insertBatch rows, PostgreSQL as arrays, pgRuleWriteBatch a statement.
type ruleEditWriter struct {
	ctx        context.Context
	tx         *sql.Tx
	s          *Store
	space, now string
	pg         bool
	// hold keeps the edits until flush: an import's COPY may be running on the connection.
	hold bool
	// fresh says no transaction it is given carries an edit (an import's new transactions of an
	// account without edits): SQLite gets plain inserts then (see sqliteRuleInsert).
	fresh   bool
	folds   map[*Rule]string // EditFold of each rule's description (see fold)
	pending []pendingRuleEdit
	full    *sql.Stmt // SQLite's statement of a whole batch, prepared once
	// written is how many edits the statements inserted or rewrote (a person's edit left as it
	// is is not counted).
	written int64
}

type pendingRuleEdit struct {
	account, dedupe string
	rule            *Rule
}

// newRuleEditWriter is a writer of space's rule edits in tx; an import's (importing) holds them
// on PostgreSQL (see hold) and is given new transactions only (see fresh).
func (s *Store) newRuleEditWriter(ctx context.Context, tx *sql.Tx, space string, importing bool) *ruleEditWriter {
	pg := s.db.Engine() == "postgres"
	return &ruleEditWriter{ctx: ctx, tx: tx, s: s, space: space, now: s.now(), pg: pg, hold: importing && pg, fresh: importing && !pg}
}

// batch is how many edits one statement writes.
func (w *ruleEditWriter) batch() int {
	if w.pg {
		return pgRuleWriteBatch
	}
	return insertBatch
}

// add writes the edit of rule r on transaction (account, dedupe), in a batch.
func (w *ruleEditWriter) add(account, dedupe string, r *Rule) error {
	if r.ID == 0 {
		return errors.New("applying a rule without an id")
	}
	w.pending = append(w.pending, pendingRuleEdit{account: account, dedupe: dedupe, rule: r})
	if len(w.pending) < w.batch() || w.hold {
		return nil
	}
	return w.write(w.pending)
}

// flush writes the edits added and not yet written.
func (w *ruleEditWriter) flush() error {
	for len(w.pending) > 0 {
		if err := w.write(w.pending[:min(len(w.pending), w.batch())]); err != nil {
			return err
		}
	}
	return nil
}

func (w *ruleEditWriter) close() {
	if w.full != nil {
		w.full.Close()
	}
}

// write writes some, the first pending edits, in one statement, and drops them from pending.
func (w *ruleEditWriter) write(some []pendingRuleEdit) error {
	var res sql.Result
	var err error
	switch {
	case w.pg:
		res, err = w.writePG(some)
	case w.fresh:
		res, err = w.writeFresh(some)
	default:
		rows := make([]any, 0, 8*len(some))
		for _, e := range some {
			r := e.rule
			rows = append(rows, e.account, e.dedupe, w.space, r.Category, nullString(r.Description), w.fold(r), r.ID, w.now)
		}
		res, err = w.exec(sqliteRuleUpsert, len(some), rows)
	}
	if err != nil {
		return fmt.Errorf("writing rules' edits: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil {
		w.written += n
	}
	n := copy(w.pending, w.pending[len(some):])
	clear(w.pending[n:])
	w.pending = w.pending[:n]
	return nil
}

// writeFresh writes some on SQLite when none of their transactions carries an edit (see
// sqliteRuleInsert): the same rows the upsert writes, the space and the time bound once.
func (w *ruleEditWriter) writeFresh(some []pendingRuleEdit) (sql.Result, error) {
	rows := make([]any, 0, 2+6*len(some))
	rows = append(rows, w.space, w.now)
	for _, e := range some {
		r := e.rule
		rows = append(rows, e.account, e.dedupe, r.Category, nullString(r.Description), w.fold(r), r.ID)
	}
	return w.exec(sqliteRuleInsert, len(some), rows)
}

// exec runs the SQLite statement text(n) writes for n edits: a short batch as it comes, a full
// one through the statement prepared once (w.full; a writer writes with one text).
func (w *ruleEditWriter) exec(text func(int) string, n int, rows []any) (sql.Result, error) {
	if n < insertBatch {
		return w.tx.ExecContext(w.ctx, text(n), rows...)
	}
	if w.full == nil {
		var err error
		if w.full, err = w.tx.PrepareContext(w.ctx, text(n)); err != nil {
			return nil, err
		}
	}
	return w.full.ExecContext(w.ctx, rows...)
}

// fold is EditFold of r's description, folded once per rule and writer.
func (w *ruleEditWriter) fold(r *Rule) string {
	f, ok := w.folds[r]
	if !ok {
		if w.folds == nil {
			w.folds = map[*Rule]string{}
		}
		f = EditFold(r.Description, nil)
		w.folds[r] = f
	}
	return f
}

// sqliteRuleInsert writes n rule edits on SQLite on transactions that carry no edit: an import's
// new transactions of an account that had none (see importRules). A statement of many rows that
// may fail halfway (a conflict, as the upsert's ON CONFLICT may meet) makes SQLite keep a journal
// of every page it changes, to undo it alone; OR IGNORE lets no row fail it, so none is kept (a
// ninth of the import's rule edits' time, and more on a loaded machine, measured). There is no
// edit to conflict with; were there one, a person's would be left as the upsert leaves it. The
// placeholders are bare ?, bound by position (see sqliteRuleUpsert).
func sqliteRuleInsert(n int) string {
	return `INSERT OR IGNORE INTO cad_edits (account_key, dedupe_key, space_key, category, description, note, excluded, splits, search_fold,
		rule_id, updated_at) SELECT v.column1, v.column2, s.space_key, v.column3, v.column4, NULL, 0, NULL, v.column5, v.column6, s.now
		FROM (SELECT ? AS space_key, ? AS now) s CROSS JOIN (VALUES ` + strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?), ", n), ", ") + `) v`
}

// sqliteRuleUpsert writes n rule edits on SQLite: a rule's edit (rule_id set) is rewritten, a
// person's is left. Its placeholders stay bare ?, bound by position: numbered ones (Store.q) make
// the driver look each argument's name up by a walk of the list, the arguments squared a statement
// (a third of the writes' time, measured).
func sqliteRuleUpsert(n int) string {
	return `INSERT INTO cad_edits (account_key, dedupe_key, space_key, category, description, note, excluded, splits, search_fold,
		rule_id, updated_at) VALUES ` + strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, NULL, 0, NULL, ?, ?, ?), ", n), ", ") + `
		ON CONFLICT (account_key, dedupe_key) DO UPDATE SET space_key = excluded.space_key, category = excluded.category,
		description = excluded.description, note = NULL, excluded = 0, splits = NULL, search_fold = excluded.search_fold,
		rule_id = excluded.rule_id, updated_at = excluded.updated_at WHERE cad_edits.rule_id IS NOT NULL`
}

// pgRuleWriteBatch is how many rule edits one PostgreSQL statement writes.
const pgRuleWriteBatch = 10000

// writePG writes some on PostgreSQL, which gets each column as one array argument: a statement
// of thousands of rows parses and plans as fast as one of a single row.
func (w *ruleEditWriter) writePG(some []pendingRuleEdit) (sql.Result, error) {
	n := len(some)
	account, dedupe, category, searchFld := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	description, rule := make([]sql.NullString, n), make([]int64, n)
	for i, e := range some {
		r := e.rule
		account[i], dedupe[i], category[i], rule[i] = e.account, e.dedupe, r.Category, r.ID
		if r.Description != nil {
			description[i] = sql.NullString{String: *r.Description, Valid: true}
		}
		searchFld[i] = w.fold(r)
	}
	return w.tx.ExecContext(w.ctx, w.s.q(`INSERT INTO cad_edits (account_key, dedupe_key, space_key, category, description, note, excluded,
		splits, search_fold, rule_id, updated_at)
		SELECT u.a, u.d, ?, u.c, u.ds, NULL, 0, NULL, u.f, u.r, ? FROM unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]),
			CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS BIGINT[])) AS u(a, d, c, ds, f, r)
		ON CONFLICT (account_key, dedupe_key) DO UPDATE SET space_key = excluded.space_key, category = excluded.category,
		description = excluded.description, note = NULL, excluded = 0, splits = NULL, search_fold = excluded.search_fold,
		rule_id = excluded.rule_id, updated_at = excluded.updated_at WHERE cad_edits.rule_id IS NOT NULL`),
		w.space, w.now, pq.Array(account), pq.Array(dedupe), pq.Array(category), pq.Array(description), pq.Array(searchFld),
		pq.Array(rule))
}

// importRules categorises an import's new transactions as they are inserted: the matcher runs on
// each one read from the file and its rule's edit is written in the same transaction, a batch a
// statement, so the new transactions are not read back. It applies to the accounts that had no
// edit when the import met them (every account of a first import): any other may hold an edit on a
// transaction the import brings back (a person's, or a rule's no rule gives now), and the import
// runs applyRules over its new transactions afterwards (fallback), which sets that right.
type importRules struct {
	m      *RuleMatcher
	conn   string // the connection's key
	holder string // the connection's holder
	w      *ruleEditWriter
	// checked are the account keys looked up; fallback is set when one had edits.
	checked  map[string]bool
	fallback bool
}

// newImportRules loads the rules of c's space in tx; nil when it has none (new transactions carry
// no rule edit then, as applyRules says).
func (s *Store) newImportRules(ctx context.Context, tx *sql.Tx, c Connection) (*importRules, error) {
	rules, err := s.rulesOf(ctx, tx, c.SpaceKey)
	if err != nil || len(rules) == 0 {
		return nil, err
	}
	ir := &importRules{m: NewRuleMatcher(rules), conn: c.Key, checked: map[string]bool{},
		w: s.newRuleEditWriter(ctx, tx, c.SpaceKey, true)}
	if err := tx.QueryRowContext(ctx, s.q(`SELECT p.person_key FROM cad_connections c JOIN cad_people p ON p.id = c.holder_id
		WHERE c.id = ?`), c.ID).Scan(&ir.holder); err != nil {
		return nil, fmt.Errorf("reading the holder of %s: %w", c.Key, err)
	}
	return ir, nil
}

// inline reports whether the new transactions of the account numbered number are categorised as
// they are inserted: not once any account of the import had edits (see importRules).
func (ir *importRules) inline(ctx context.Context, s *Store, tx *sql.Tx, number string) (bool, error) {
	if ir == nil || ir.fallback {
		return false, nil
	}
	key := AccountKey(ir.conn, number)
	if !ir.checked[key] {
		ir.checked[key] = true
		var one int
		err := tx.QueryRowContext(ctx, s.q("SELECT 1 FROM cad_edits WHERE account_key = ? LIMIT 1"), key).Scan(&one)
		switch {
		case err == nil:
			ir.fallback = true
			return false, nil
		case !errors.Is(err, sql.ErrNoRows):
			return false, fmt.Errorf("reading the edits of %s: %w", key, err)
		}
	}
	return true, nil
}

// add categorises a new transaction (dedupe) of account (its key): the edit of the first rule
// it meets, if any, is written (in a batch).
func (ir *importRules) add(account, dedupe string, t *RuleSubject) error {
	t.Account, t.Holder = account, ir.holder
	if r := ir.m.First(t); r != nil {
		return ir.w.add(account, dedupe, r)
	}
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

// RuleCounts is how many transactions each rule of space (every space's when "") categorises
// now, by rule id. A space's are read from the rule index (cad_edits_rule), its rules' only.
func (s *Store) RuleCounts(ctx context.Context, space string) (map[int64]int, error) {
	query, args := "SELECT rule_id, COUNT(*) FROM cad_edits WHERE rule_id IS NOT NULL", []any(nil)
	if space != "" {
		query, args = query+" AND rule_id IN (SELECT id FROM cad_rules WHERE space_key = ?)", append(args, space)
	}
	rows, err := s.db.SQL().QueryContext(ctx, s.q(query+" GROUP BY rule_id"), args...)
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
	// keyed has the bit gramBit of every key of byGram: most of a description's three bytes key
	// no rule, and the bit says so without the map's lookup (two thirds of the matcher's time).
	keyed *[1 << 16 / 64]uint64
}

// gramBit is the bit of RuleMatcher.keyed that three bytes set: 16 bits of their hash.
func gramBit(a, b, c byte) uint32 {
	return (uint32(a)<<16 | uint32(b)<<8 | uint32(c)) * 0x9E3779B1 >> 16
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
		if m.keyed == nil {
			m.keyed = new([1 << 16 / 64]uint64)
		}
		bit := gramBit(key[0], key[1], key[2])
		m.keyed[bit/64] |= 1 << (bit % 64)
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
	if m.keyed != nil {
		f := t.Fold
		for j := 0; j+3 <= len(f); j++ {
			if bit := gramBit(f[j], f[j+1], f[j+2]); m.keyed[bit/64]&(1<<(bit%64)) == 0 {
				continue
			}
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
