package cadstore

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
)

// Space is a space as readers see it.
type Space struct {
	ID       int64
	Key      string
	Name     string
	Revision int64
}

// Spaces returns every space by key.
func (s *Store) Spaces(ctx context.Context) (map[string]Space, error) {
	rows, err := s.db.SQL().QueryContext(ctx, "SELECT id, space_key, name, revision FROM cad_spaces")
	if err != nil {
		return nil, fmt.Errorf("reading spaces: %w", err)
	}
	defer rows.Close()
	out := map[string]Space{}
	for rows.Next() {
		var sp Space
		if err := rows.Scan(&sp.ID, &sp.Key, &sp.Name, &sp.Revision); err != nil {
			return nil, fmt.Errorf("reading spaces: %w", err)
		}
		out[sp.Key] = sp
	}
	return out, rows.Err()
}

// People returns the name of every person by key.
func (s *Store) People(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.SQL().QueryContext(ctx, "SELECT person_key, name FROM cad_people")
	if err != nil {
		return nil, fmt.Errorf("reading people: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, n string
		if err := rows.Scan(&k, &n); err != nil {
			return nil, fmt.Errorf("reading people: %w", err)
		}
		out[k] = n
	}
	return out, rows.Err()
}

// Account is an account or card with what readers need about it.
type Account struct {
	ID            int64
	Key           string // <connection>:<number>
	Connection    string
	Institution   string
	HolderKey     string
	HolderName    string
	SpaceKey      string
	SpaceName     string
	Number        string
	Kind          string // bank, creditcard
	Type          string // OFX ACCTTYPE, or CREDITCARD
	Currency      string
	BalanceMinor  *int64
	BalanceDay    *string
	Periods       [][2]string // statement periods
	LastAttemptAt *string
	LastSuccessAt *string
	LastError     *string
}

// Covered is the merged statement coverage of the account.
func (a *Account) Covered() []Period { return Merge(a.Periods) }

// AccountKey is how clients name an account.
func AccountKey(connection, number string) string { return connection + ":" + number }

// AccountFilter selects accounts; empty fields select everything.
type AccountFilter struct {
	Space  string
	Person string
	Kind   string
}

// Accounts returns the accounts the filter selects, ordered by connection and number, with
// their statement periods.
func (s *Store) Accounts(ctx context.Context, f AccountFilter) ([]*Account, error) {
	var where []string
	var args []any
	if f.Space != "" {
		where, args = append(where, "sp.space_key = ?"), append(args, f.Space)
	}
	if f.Person != "" {
		where, args = append(where, "p.person_key = ?"), append(args, f.Person)
	}
	if f.Kind != "" {
		where, args = append(where, "a.kind = ?"), append(args, f.Kind)
	}
	q := `SELECT a.id, c.connection_key, c.institution, p.person_key, p.name, sp.space_key, sp.name, a.acct_number, a.kind,
		a.acct_type, a.currency, a.balance_minor, a.balance_day, c.last_attempt_at, c.last_success_at, c.last_error
		FROM cad_accounts a
		JOIN cad_connections c ON c.id = a.connection_id
		JOIN cad_people p ON p.id = c.holder_id
		JOIN cad_spaces sp ON sp.id = c.space_id`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY c.connection_key, a.acct_number"
	rows, err := s.db.SQL().QueryContext(ctx, s.q(q), args...)
	if err != nil {
		return nil, fmt.Errorf("reading accounts: %w", err)
	}
	var out []*Account
	byID := map[int64]*Account{}
	for rows.Next() {
		a := &Account{}
		if err := rows.Scan(&a.ID, &a.Connection, &a.Institution, &a.HolderKey, &a.HolderName, &a.SpaceKey, &a.SpaceName, &a.Number,
			&a.Kind, &a.Type, &a.Currency, &a.BalanceMinor, &a.BalanceDay, &a.LastAttemptAt, &a.LastSuccessAt, &a.LastError); err != nil {
			rows.Close()
			return nil, fmt.Errorf("reading accounts: %w", err)
		}
		a.Key = AccountKey(a.Connection, a.Number)
		out = append(out, a)
		byID[a.ID] = a
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading accounts: %w", err)
	}
	if len(out) == 0 {
		return out, nil
	}
	rows, err = s.db.SQL().QueryContext(ctx, "SELECT account_id, start_day, end_day FROM cad_statements WHERE start_day IS NOT NULL")
	if err != nil {
		return nil, fmt.Errorf("reading statement periods: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var p [2]string
		if err := rows.Scan(&id, &p[0], &p[1]); err != nil {
			return nil, fmt.Errorf("reading statement periods: %w", err)
		}
		if a := byID[id]; a != nil {
			a.Periods = append(a.Periods, p)
		}
	}
	return out, rows.Err()
}

// Transaction is one imported transaction.
type Transaction struct {
	ID          int64
	AccountID   int64
	Day         string
	PostedAt    *string
	AmountMinor int64
	Currency    string
	Type        string
	Name        string
	Memo        string
	FITID       string
}

// Position is where a page ended: transactions come by day, then id, both descending.
type Position struct {
	Day string
	ID  int64
}

// TransactionFilter selects transactions of some accounts.
type TransactionFilter struct {
	Accounts  []int64 // required; none selects nothing
	From, To  string  // inclusive days; "" = open
	Direction string  // "in" (amount >= 0), "out" (amount < 0) or ""
	Words     []string
	After     *Position
	Limit     int
}

// Transactions returns up to f.Limit transactions, most recent first (day, then id, descending).
func (s *Store) Transactions(ctx context.Context, f TransactionFilter) ([]Transaction, error) {
	if len(f.Accounts) == 0 {
		return nil, nil
	}
	where := []string{"account_id IN (" + inList(len(f.Accounts)) + ")"}
	var args []any
	for _, id := range f.Accounts {
		args = append(args, id)
	}
	if f.From != "" {
		where, args = append(where, "posted_day >= ?"), append(args, f.From)
	}
	if f.To != "" {
		where, args = append(where, "posted_day <= ?"), append(args, f.To)
	}
	switch f.Direction {
	case "in":
		where = append(where, "amount_minor >= 0")
	case "out":
		where = append(where, "amount_minor < 0")
	}
	for _, w := range f.Words {
		where, args = append(where, "search_fold LIKE ? ESCAPE '!'"), append(args, "%"+likeEscape(w)+"%")
	}
	if f.After != nil {
		where, args = append(where, "(posted_day < ? OR (posted_day = ? AND id < ?))"), append(args, f.After.Day, f.After.Day, f.After.ID)
	}
	q := `SELECT ` + transactionColumns + ` FROM cad_transactions WHERE ` + strings.Join(where, " AND ") + ` ORDER BY posted_day DESC, id DESC LIMIT ?`
	args = append(args, f.Limit)
	rows, err := s.db.SQL().QueryContext(ctx, s.q(q), args...)
	if err != nil {
		return nil, fmt.Errorf("reading transactions: %w", err)
	}
	return scanTransactions(rows)
}

// transactionColumns are the columns scanTransactions reads, in its order.
const transactionColumns = "id, account_id, posted_day, posted_at, amount_minor, currency, trn_type, name, memo, fitid"

// scanTransactions reads the rows of a SELECT of transactionColumns, and closes them.
func scanTransactions(rows *sql.Rows) ([]Transaction, error) {
	defer rows.Close()
	var out []Transaction
	for rows.Next() {
		var t Transaction
		if err := rows.Scan(&t.ID, &t.AccountID, &t.Day, &t.PostedAt, &t.AmountMinor, &t.Currency, &t.Type, &t.Name, &t.Memo, &t.FITID); err != nil {
			return nil, fmt.Errorf("reading transactions: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func likeEscape(s string) string {
	return strings.NewReplacer("!", "!!", "%", "!%", "_", "!_").Replace(s)
}

// Statement is a statement of an account as stored, for bills.
type Statement struct {
	Start, End  string
	LedgerMinor *int64
	LedgerDay   *string
	// Stated says the bank stated the period (an OFX statement's DTSTART and DTEND); a card's
	// CSV export states none, and covers the days of its transactions.
	Stated bool
}

// Statements returns the account's statements with a period, by end day (then import order).
func (s *Store) Statements(ctx context.Context, accountID int64) ([]Statement, error) {
	rows, err := s.db.SQL().QueryContext(ctx, s.q(`SELECT st.start_day, st.end_day, st.ledger_minor, st.ledger_day, f.path FROM cad_statements st
		JOIN cad_files f ON f.id = st.file_id WHERE st.account_id = ? AND st.start_day IS NOT NULL ORDER BY st.end_day, st.id`), accountID)
	if err != nil {
		return nil, fmt.Errorf("reading statements: %w", err)
	}
	defer rows.Close()
	var out []Statement
	for rows.Next() {
		var st Statement
		var path string
		if err := rows.Scan(&st.Start, &st.End, &st.LedgerMinor, &st.LedgerDay, &path); err != nil {
			return nil, fmt.Errorf("reading statements: %w", err)
		}
		st.Stated = sourceOf(path) == sourceOFX
		out = append(out, st)
	}
	return out, rows.Err()
}

// AllTransactions returns every transaction of an account, oldest first.
func (s *Store) AllTransactions(ctx context.Context, accountID int64) ([]Transaction, error) {
	rows, err := s.db.SQL().QueryContext(ctx, s.q(`SELECT `+transactionColumns+
		` FROM cad_transactions WHERE account_id = ? ORDER BY posted_day, id`), accountID)
	if err != nil {
		return nil, fmt.Errorf("reading transactions: %w", err)
	}
	return scanTransactions(rows)
}

// SortedSpaceKeys lists the distinct spaces of accounts, sorted.
func SortedSpaceKeys(accounts []*Account) []string {
	seen := map[string]bool{}
	var keys []string
	for _, a := range accounts {
		if !seen[a.SpaceKey] {
			seen[a.SpaceKey] = true
			keys = append(keys, a.SpaceKey)
		}
	}
	sort.Strings(keys)
	return keys
}
