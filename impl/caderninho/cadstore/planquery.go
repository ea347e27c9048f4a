package cadstore

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// PlanAccount is a selected account as the planning queries name it.
type PlanAccount struct {
	ID  int64
	Key string // <connection>:<number>, the edits' account_key
}

// PlanQuery selects rows of the effective view: imported transactions with their edits
// (LEFT JOIN cad_edits) and manual records, filtered in SQL.
type PlanQuery struct {
	Bank, Manual bool
	Accounts     []PlanAccount     // bank rows of these accounts only (none: no bank rows)
	Holders      map[string]string // every account's holder by key: a manual record's person when it names only an account
	From, To     string            // inclusive days; "" = open
	// Manual records: only of Space, of Person (the record's, else its account's holder) and
	// of AccountKeys, when set.
	Space, Person string
	AccountKeys   []string
	Uncategorised bool
	Categories    []string // nil: any; else only records in one of these stored names (none: nothing)
	Words         []string // folded words, each in the row's search_fold or its edit's
	SplitsOnly    bool
	// BankIDs and ManualIDs, when not nil, select those ids only.
	BankIDs, ManualIDs []int64
	// Rule, when not 0, selects the bank rows that rule categorises (no manual row).
	Rule int64
}

// PlanPosition is a place in the view's order: day descending, then manual (rank 1) before bank
// (rank 0), then id descending.
type PlanPosition struct {
	Day  string
	Rank int
	ID   int64
}

// PlanRow is one row of the effective view as stored: a bank transaction with its edit, if any,
// or a manual record.
type PlanRow struct {
	Manual      bool
	ID          int64
	Day         string
	AmountMinor *int64 // nil when unknown (manual records only)
	Currency    string
	// bank
	AccountID       int64
	Name, Memo      string
	DedupeKey       string
	Edited          bool   // a person's edit (a rule's is not one: see RuleID)
	RuleID          *int64 // the rule whose edit the row carries
	EditDescription *string
	// manual
	Space, Description string
	Person, Account    *string
	// both: the edit's (bank) or the record's (manual)
	Category, Note *string
	Excluded       bool
	Splits         *string
}

// Rank is the row's order within a day: manual (1) before bank (0).
func (r *PlanRow) Rank() int {
	if r.Manual {
		return 1
	}
	return 0
}

// editJoin joins each transaction to its edit by the account's key, which the query names per
// account id (no join of accounts and connections per row). lateral (PostgreSQL) probes the
// edits' primary key row by row, for pages: a hash join would read every edit for each page.
func (q *PlanQuery) editJoin(args []any, lateral bool) (string, []any) {
	var b strings.Builder
	b.WriteString("e.dedupe_key = t.dedupe_key AND e.account_key = CASE t.account_id")
	for _, a := range q.Accounts {
		b.WriteString(" WHEN ? THEN ?")
		args = append(args, a.ID, a.Key)
	}
	b.WriteString(" END")
	if lateral { // OFFSET 0 keeps the planner from flattening the subquery into a hash join
		return "LEFT JOIN LATERAL (SELECT * FROM cad_edits e WHERE " + b.String() + " LIMIT 1 OFFSET 0) e ON TRUE", args
	}
	return "LEFT JOIN cad_edits e ON " + b.String(), args
}

func likeWord(w string) string { return "%" + likeEscape(w) + "%" }

// bankWhere is the WHERE of the bank rows; after, when set, keeps the rows after it. unedited
// evaluates the filters as if no row had an edit (the edit's columns are not read).
func (q *PlanQuery) bankWhere(args []any, after *PlanPosition, unedited bool) (string, []any) {
	where := []string{"t.account_id IN (" + inList(len(q.Accounts)) + ")"}
	for _, a := range q.Accounts {
		args = append(args, a.ID)
	}
	if q.From != "" {
		where, args = append(where, "t.posted_day >= ?"), append(args, q.From)
	}
	if q.To != "" {
		where, args = append(where, "t.posted_day <= ?"), append(args, q.To)
	}
	if q.Uncategorised && !unedited {
		where = append(where, "e.category IS NULL")
	}
	if q.Categories != nil && !unedited {
		where, args = inOrNothing(where, args, "e.category", q.Categories)
	}
	for _, w := range q.Words {
		if unedited {
			where, args = append(where, "t.search_fold LIKE ? ESCAPE '!'"), append(args, likeWord(w))
		} else {
			where, args = append(where, "(t.search_fold LIKE ? ESCAPE '!' OR e.search_fold LIKE ? ESCAPE '!')"), append(args, likeWord(w), likeWord(w))
		}
	}
	if q.SplitsOnly && !unedited {
		where = append(where, "e.splits IS NOT NULL")
	}
	if q.BankIDs != nil {
		where, args = inOrNothing(where, args, "t.id", q.BankIDs)
	}
	if q.Rule != 0 {
		if unedited {
			where = append(where, "1 = 0")
		} else {
			where, args = append(where, "e.rule_id = ?"), append(args, q.Rule)
		}
	}
	if after != nil {
		// posted_day <= ? first: the range an index of the day scans
		if after.Rank == 1 { // every bank row of the day comes after a manual one
			where, args = append(where, "t.posted_day <= ?"), append(args, after.Day)
		} else {
			where, args = append(where, "t.posted_day <= ? AND (t.posted_day < ? OR t.id < ?)"), append(args, after.Day, after.Day, after.ID)
		}
	}
	return strings.Join(where, " AND "), args
}

// uneditedMatchesNothing says whether no row without an edit is selected: a category or a split
// is asked for, and only edits give those.
func (q *PlanQuery) uneditedMatchesNothing() bool {
	return q.Categories != nil || q.SplitsOnly || q.Rule != 0
}

// editedFrom is the FROM of the edited rows only, driven by the edits, and the condition that
// joins them: each edit finds its transaction by the account's id (named per key) and the dedupe
// key, one index probe. CROSS JOIN keeps SQLite from reading the transactions first, for which
// the edits have no usable index (their key is computed from the account); on PostgreSQL a
// LATERAL probe per edit does the same where a hash join would read every transaction.
func (s *Store) editedFrom(q *PlanQuery, args []any) (from, cond string, _ []any) {
	var b strings.Builder
	b.WriteString("t.dedupe_key = e.dedupe_key AND t.account_id = CASE e.account_key")
	for _, a := range q.Accounts {
		b.WriteString(" WHEN ? THEN CAST(? AS BIGINT)")
		args = append(args, a.Key, a.ID)
	}
	b.WriteString(" END")
	if s.db.Engine() == "postgres" {
		return "cad_edits e CROSS JOIN LATERAL (SELECT * FROM cad_transactions t WHERE " + b.String() + " LIMIT 1 OFFSET 0) t", "1 = 1", args
	}
	return "cad_edits e CROSS JOIN cad_transactions t", b.String(), args
}

// personOf is the SQL of a manual record's person: its own, else its account's holder.
func (q *PlanQuery) personOf(args []any) (string, []any) {
	if len(q.Holders) == 0 {
		return "r.person_key", args
	}
	var b strings.Builder
	b.WriteString("COALESCE(r.person_key, CASE r.account_key")
	for _, k := range sortedKeys(q.Holders) {
		b.WriteString(" WHEN ? THEN ?")
		args = append(args, k, q.Holders[k])
	}
	b.WriteString(" END)")
	return b.String(), args
}

func (q *PlanQuery) manualWhere(args []any, after *PlanPosition) (string, []any) {
	where := []string{"1 = 1"}
	if q.Space != "" {
		where, args = append(where, "r.space_key = ?"), append(args, q.Space)
	}
	if q.Person != "" {
		var p string
		p, args = q.personOf(args)
		where, args = append(where, p+" = ?"), append(args, q.Person)
	}
	if len(q.AccountKeys) > 0 {
		where, args = inOrNothing(where, args, "r.account_key", q.AccountKeys)
	}
	if q.From != "" {
		where, args = append(where, "r.record_day >= ?"), append(args, q.From)
	}
	if q.To != "" {
		where, args = append(where, "r.record_day <= ?"), append(args, q.To)
	}
	if q.Uncategorised {
		where = append(where, "r.category IS NULL")
	}
	if q.Categories != nil {
		where, args = inOrNothing(where, args, "r.category", q.Categories)
	}
	for _, w := range q.Words {
		where, args = append(where, "r.search_fold LIKE ? ESCAPE '!'"), append(args, likeWord(w))
	}
	if q.SplitsOnly {
		where = append(where, "r.splits IS NOT NULL")
	}
	if q.ManualIDs != nil {
		where, args = inOrNothing(where, args, "r.id", q.ManualIDs)
	}
	if q.Rule != 0 {
		where = append(where, "1 = 0")
	}
	if after != nil {
		if after.Rank == 1 {
			where, args = append(where, "(r.record_day < ? OR (r.record_day = ? AND r.id < ?))"), append(args, after.Day, after.Day, after.ID)
		} else { // every manual row of the day came before a bank one
			where, args = append(where, "r.record_day < ?"), append(args, after.Day)
		}
	}
	return strings.Join(where, " AND "), args
}

// inOrNothing adds "col IN (values)", or a condition nothing meets when there are no values.
func inOrNothing[V any](where []string, args []any, col string, values []V) ([]string, []any) {
	if len(values) == 0 {
		return append(where, "1 = 0"), args
	}
	for _, v := range values {
		args = append(args, v)
	}
	return append(where, col+" IN ("+inList(len(values))+")"), args
}

func (q *PlanQuery) hasBank() bool { return q.Bank && len(q.Accounts) > 0 }

// PlanRows calls fn with the rows of the view after the position (nil: from the start), in the
// view's order, at most limit of them (0: all). Bank rows are streamed; the manual records of
// the selection are read first (one query open at a time, whatever the pool).
func (s *Store) PlanRows(ctx context.Context, q PlanQuery, after *PlanPosition, limit int, fn func(*PlanRow) error) error {
	var manual []*PlanRow
	if q.Manual {
		where, args := q.manualWhere(nil, after)
		query := `SELECT r.id, r.space_key, r.person_key, r.account_key, r.record_day, r.amount_minor, r.currency, r.description,
			r.category, r.note, r.excluded, r.splits FROM cad_records r WHERE ` + where + ` ORDER BY r.record_day DESC, r.id DESC`
		if limit > 0 {
			query, args = query+" LIMIT ?", append(args, limit)
		}
		rows, err := s.db.SQL().QueryContext(ctx, s.q(query), args...)
		if err != nil {
			return fmt.Errorf("reading records: %w", err)
		}
		for rows.Next() {
			r := &PlanRow{Manual: true}
			var excluded int
			if err := rows.Scan(&r.ID, &r.Space, &r.Person, &r.Account, &r.Day, &r.AmountMinor, &r.Currency, &r.Description,
				&r.Category, &r.Note, &excluded, &r.Splits); err != nil {
				rows.Close()
				return fmt.Errorf("reading records: %w", err)
			}
			r.Excluded = excluded != 0
			manual = append(manual, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("reading records: %w", err)
		}
	}
	sent := 0
	emit := func(r *PlanRow) (bool, error) {
		if limit > 0 && sent == limit {
			return false, nil
		}
		sent++
		return true, fn(r)
	}
	// before reports whether the manual row m comes before the bank row b
	before := func(m, b *PlanRow) bool { return m.Day >= b.Day }
	if q.hasBank() {
		from, args := q.editJoin(nil, limit > 0 && s.db.Engine() == "postgres")
		from, cond := "cad_transactions t "+from, ""
		if q.SplitsOnly { // split rows are edited ones: read from the edits
			from, cond, args = s.editedFrom(&q, nil)
		}
		where, args := q.bankWhere(args, after, false)
		if cond != "" {
			where = cond + " AND " + where
		}
		if limit > 0 && len(q.Accounts) > 1 && cond == "" {
			// A page of several accounts reads the day index in order and stops at the limit;
			// "+" keeps SQLite from choosing the account index, which would sort every row.
			where = "+" + where
		}
		query := `SELECT t.id, t.account_id, t.posted_day, t.amount_minor, t.currency, t.name, t.memo, t.dedupe_key,
			CASE WHEN e.dedupe_key IS NULL THEN 0 ELSE 1 END, e.rule_id, e.category, e.description, e.note, COALESCE(e.excluded, 0), e.splits
			FROM ` + from + ` WHERE ` + where + ` ORDER BY t.posted_day DESC, t.id DESC`
		if limit > 0 {
			query, args = query+" LIMIT ?", append(args, limit)
		}
		rows, err := s.db.SQL().QueryContext(ctx, s.q(query), args...)
		if err != nil {
			return fmt.Errorf("reading transactions: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			r := &PlanRow{}
			var amount int64
			var edited, excluded int
			if err := rows.Scan(&r.ID, &r.AccountID, &r.Day, &amount, &r.Currency, &r.Name, &r.Memo, &r.DedupeKey,
				&edited, &r.RuleID, &r.Category, &r.EditDescription, &r.Note, &excluded, &r.Splits); err != nil {
				return fmt.Errorf("reading transactions: %w", err)
			}
			r.AmountMinor, r.Edited, r.Excluded = &amount, edited != 0 && r.RuleID == nil, excluded != 0
			for len(manual) > 0 && before(manual[0], r) {
				if more, err := emit(manual[0]); err != nil || !more {
					return err
				}
				manual = manual[1:]
			}
			if more, err := emit(r); err != nil || !more {
				return err
			}
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("reading transactions: %w", err)
		}
	}
	for _, m := range manual {
		if more, err := emit(m); err != nil || !more {
			return err
		}
	}
	return nil
}

// Grouping of PlanTotals.
const (
	GroupNone     = ""
	GroupCategory = "category"
	GroupMonth    = "month"
	GroupPerson   = "person"
	GroupAccount  = "account"
)

// TotalRow is the tally of the rows of one currency, exclusion and group.
type TotalRow struct {
	Manual   bool
	Currency string
	Excluded bool
	// the group: Category (category), Month (month), AccountID (bank rows, person or account),
	// Person and Account (manual rows, person or account)
	Category        *string
	Month           string
	AccountID       int64
	Person, Account *string
	Split           bool // by category: split records, whose parts the caller tallies
	Count, Known    int64
	Sum             *big.Int // exact sum of the known amounts
}

// sumColumns sum amounts exactly on both engines: each amount is split into a high and a low
// part (a = hi*2^32 + lo, |lo| < 2^32), whose sums fit 64 bits for any count below 2^31.
func sumColumns(col string) string {
	return fmt.Sprintf("COALESCE(CAST(SUM(%[1]s / 4294967296) AS BIGINT), 0), COALESCE(CAST(SUM(%[1]s %% 4294967296) AS BIGINT), 0)", col)
}

var two32 = big.NewInt(1 << 32)

func exactSum(hi, lo int64) *big.Int {
	n := new(big.Int).Mul(big.NewInt(hi), two32)
	return n.Add(n, big.NewInt(lo))
}

// PlanTotals tallies the selected rows per currency, exclusion and group (see TotalRow).
func (s *Store) PlanTotals(ctx context.Context, q PlanQuery, by string) ([]TotalRow, error) {
	var out []TotalRow
	if q.hasBank() {
		rows, err := s.bankTotals(ctx, q, by)
		if err != nil {
			return nil, err
		}
		out = rows
	}
	if q.Manual {
		var keys string
		switch by {
		case GroupCategory:
			keys = ", r.category, CASE WHEN r.splits IS NULL THEN 0 ELSE 1 END"
		case GroupMonth:
			keys = ", SUBSTR(r.record_day, 1, 7)"
		case GroupPerson:
			keys = ", r.person_key, r.account_key"
		case GroupAccount:
			keys = ", r.account_key"
		}
		where, args := q.manualWhere(nil, nil)
		query := `SELECT r.currency, r.excluded` + keys + `, COUNT(*), COUNT(r.amount_minor), ` + sumColumns("r.amount_minor") +
			` FROM cad_records r WHERE ` + where + ` GROUP BY r.currency, r.excluded` + keys
		rows, err := s.db.SQL().QueryContext(ctx, s.q(query), args...)
		if err != nil {
			return nil, fmt.Errorf("totalling records: %w", err)
		}
		for rows.Next() {
			r := TotalRow{Manual: true}
			var excluded, split int
			var hi, lo int64
			dest := []any{&r.Currency, &excluded}
			switch by {
			case GroupCategory:
				dest = append(dest, &r.Category, &split)
			case GroupMonth:
				dest = append(dest, &r.Month)
			case GroupPerson:
				dest = append(dest, &r.Person, &r.Account)
			case GroupAccount:
				dest = append(dest, &r.Account)
			}
			if err := rows.Scan(append(dest, &r.Count, &r.Known, &hi, &lo)...); err != nil {
				rows.Close()
				return nil, fmt.Errorf("totalling records: %w", err)
			}
			r.Excluded, r.Split, r.Sum = excluded != 0, split != 0, exactSum(hi, lo)
			out = append(out, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("totalling records: %w", err)
		}
	}
	return out, nil
}

// totalKey is a group of TotalRow, to merge the partial tallies of bankTotals.
type totalKey struct {
	currency    string
	excluded    bool
	category    string
	hasCategory bool
	month       string
	accountID   int64
	split       bool
}

// bankTotals tallies the bank rows without reading every row's edit: the rows as the bank gave
// them (no join), minus the edited rows as the bank gave them, plus the edited rows with their
// edit. Only the edits are joined to their transactions, one index probe each.
func (s *Store) bankTotals(ctx context.Context, q PlanQuery, by string) ([]TotalRow, error) {
	acc := map[totalKey]*TotalRow{}
	var order []totalKey
	add := func(k totalKey, category *string, count int64, sum *big.Int) {
		if count == 0 {
			return
		}
		t := acc[k]
		if t == nil {
			t = &TotalRow{Currency: k.currency, Excluded: k.excluded, Category: category, Month: k.month, AccountID: k.accountID,
				Split: k.split, Sum: new(big.Int)}
			acc[k] = t
			order = append(order, k)
		}
		t.Count += count
		t.Sum.Add(t.Sum, sum)
	}
	// By account first, then currency: the order of cad_transactions_totals, so SQLite groups as
	// it scans that index instead of sorting every row.
	keyCols := func(edited bool) string {
		keys := "t.account_id, t.currency"
		if edited {
			keys += ", e.excluded"
		}
		switch by {
		case GroupCategory:
			if edited {
				keys += ", e.category, CASE WHEN e.splits IS NULL THEN 0 ELSE 1 END"
			}
		case GroupMonth:
			keys += ", SUBSTR(t.posted_day, 1, 7)"
		}
		return keys
	}
	// scanKey reads the key columns into k (and the category).
	scanKey := func(edited bool, k *totalKey, category **string, excluded, split *int) []any {
		dest := []any{&k.accountID, &k.currency}
		if edited {
			dest = append(dest, excluded)
		}
		switch by {
		case GroupCategory:
			if edited {
				dest = append(dest, category, split)
			}
		case GroupMonth:
			dest = append(dest, &k.month)
		}
		return dest
	}
	grouped := func(k totalKey) totalKey {
		if by != GroupPerson && by != GroupAccount {
			k.accountID = 0 // not a group: the accounts' tallies merge
		}
		return k
	}
	if !q.uneditedMatchesNothing() { // the rows as the bank gave them
		keys := keyCols(false)
		where, args := q.bankWhere(nil, nil, true)
		table := "cad_transactions t"
		if len(q.Words) > 0 && q.From == "" && q.To == "" && s.db.Engine() == "sqlite" {
			// A text filter reads every row's search_fold: one pass over the table costs about half
			// of SQLite's walk of the totals index with a table lookup per row.
			table += " NOT INDEXED"
		}
		rows, err := s.db.SQL().QueryContext(ctx, s.q(`SELECT `+keys+`, COUNT(*), `+sumColumns("t.amount_minor")+
			` FROM `+table+` WHERE `+where+` GROUP BY `+keys), args...)
		if err != nil {
			return nil, fmt.Errorf("totalling transactions: %w", err)
		}
		for rows.Next() {
			var k totalKey
			var count, hi, lo int64
			if err := rows.Scan(append(scanKey(false, &k, nil, nil, nil), &count, &hi, &lo)...); err != nil {
				rows.Close()
				return nil, fmt.Errorf("totalling transactions: %w", err)
			}
			add(grouped(k), nil, count, exactSum(hi, lo))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("totalling transactions: %w", err)
		}
	}
	// The edited rows, in one pass: as the bank gave them (subtracted, when the filters without
	// the edit select them) and with their edit (added, when the filters select them).
	fu, fuArgs := "1 = 0", []any(nil)
	if !q.uneditedMatchesNothing() {
		fu, fuArgs = q.bankWhere(nil, nil, true)
	}
	fe, feArgs := q.bankWhere(nil, nil, false)
	part := func(c string) string {
		return fmt.Sprintf("CAST(SUM(CASE WHEN (%[1]s) THEN 1 ELSE 0 END) AS BIGINT), "+
			"CAST(SUM(CASE WHEN (%[1]s) THEN t.amount_minor / 4294967296 ELSE 0 END) AS BIGINT), "+
			"CAST(SUM(CASE WHEN (%[1]s) THEN t.amount_minor %% 4294967296 ELSE 0 END) AS BIGINT)", c)
	}
	from, cond, fromArgs := s.editedFrom(&q, nil)
	keys := keyCols(true)
	// parameters in the text's order: the select list, the FROM (PostgreSQL's lateral probe) or
	// the join condition (SQLite's, first in WHERE), then the WHERE
	var args []any
	for range 3 {
		args = append(args, fuArgs...)
	}
	for range 3 {
		args = append(args, feArgs...)
	}
	args = append(append(append(args, fromArgs...), fuArgs...), feArgs...)
	rows, err := s.db.SQL().QueryContext(ctx, s.q(`SELECT `+keys+`, `+part(fu)+`, `+part(fe)+` FROM `+from+
		` WHERE `+cond+` AND ((`+fu+`) OR (`+fe+`)) GROUP BY `+keys), args...)
	if err != nil {
		return nil, fmt.Errorf("totalling edited transactions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k totalKey
		var category *string
		var excluded, split int
		var uc, uhi, ulo, ec, ehi, elo int64
		if err := rows.Scan(append(scanKey(true, &k, &category, &excluded, &split), &uc, &uhi, &ulo, &ec, &ehi, &elo)...); err != nil {
			return nil, fmt.Errorf("totalling edited transactions: %w", err)
		}
		k = grouped(k)
		add(k, nil, -uc, new(big.Int).Neg(exactSum(uhi, ulo))) // as the bank gave it: not excluded, no category
		k.excluded, k.split = excluded != 0, split != 0
		if category != nil {
			k.category, k.hasCategory = *category, true
		}
		add(k, category, ec, exactSum(ehi, elo))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("totalling edited transactions: %w", err)
	}
	var out []TotalRow
	for _, k := range order {
		if t := acc[k]; t.Count != 0 { // every row of the group has moved to another
			t.Known = t.Count
			out = append(out, *t)
		}
	}
	return out, nil
}

// StoredCategories lists the distinct categories the edits and manual records hold, which may
// be spelled otherwise than the installation now does (a category filter matches them folded).
func (s *Store) StoredCategories(ctx context.Context) ([]string, error) {
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT DISTINCT category FROM cad_edits WHERE category IS NOT NULL
		UNION SELECT DISTINCT category FROM cad_records WHERE category IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("reading categories in use: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("reading categories in use: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// EditFold is what an edit's search_fold holds: its description and note folded.
func EditFold(description, note *string) string {
	var d, n string
	if description != nil {
		d = *description
	}
	if note != nil {
		n = *note
	}
	return fold.Fold(d + " " + n)
}

// foldEdits fills search_fold of the edits written before it existed.
func (s *Store) foldEdits(ctx context.Context) error {
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT account_key, dedupe_key, description, note FROM cad_edits
		WHERE search_fold = '' AND (description IS NOT NULL OR note IS NOT NULL)`)
	if err != nil {
		return fmt.Errorf("reading edits to fold: %w", err)
	}
	type fill struct{ account, dedupe, fold string }
	var fills []fill
	for rows.Next() {
		var f fill
		var d, n sql.NullString
		if err := rows.Scan(&f.account, &f.dedupe, &d, &n); err != nil {
			rows.Close()
			return fmt.Errorf("reading edits to fold: %w", err)
		}
		if f.fold = fold.Fold(d.String + " " + n.String); f.fold != "" {
			fills = append(fills, f)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(fills) == 0 {
		return err
	}
	tx, err := s.db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, f := range fills {
		if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_edits SET search_fold = ? WHERE account_key = ? AND dedupe_key = ?"),
			f.fold, f.account, f.dedupe); err != nil {
			return fmt.Errorf("folding edits: %w", err)
		}
	}
	return tx.Commit()
}
