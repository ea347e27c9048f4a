package cadstore

import (
	"context"
	"fmt"
	"strings"
)

// BankRow is an imported transaction with what the effective view needs besides the origin
// view: its identity in the bank (dedupe_key) and its folded memo and name.
type BankRow struct {
	Transaction
	DedupeKey  string
	SearchFold string
}

// PlanBankRows returns every transaction of the accounts within the inclusive days ("" = open).
// The planning view reads through PlanRows and PlanTotals; this, Edits and Records load
// everything, for checks against them.
func (s *Store) PlanBankRows(ctx context.Context, accounts []int64, from, to string) ([]BankRow, error) {
	if len(accounts) == 0 {
		return nil, nil
	}
	where := []string{"account_id IN (" + inList(len(accounts)) + ")"}
	var args []any
	for _, id := range accounts {
		args = append(args, id)
	}
	if from != "" {
		where, args = append(where, "posted_day >= ?"), append(args, from)
	}
	if to != "" {
		where, args = append(where, "posted_day <= ?"), append(args, to)
	}
	q := `SELECT id, account_id, posted_day, posted_at, amount_minor, currency, trn_type, name, memo, fitid, dedupe_key, search_fold
		FROM cad_transactions WHERE ` + strings.Join(where, " AND ")
	rows, err := s.db.SQL().QueryContext(ctx, s.q(q), args...)
	if err != nil {
		return nil, fmt.Errorf("reading transactions: %w", err)
	}
	defer rows.Close()
	var out []BankRow
	for rows.Next() {
		var t BankRow
		if err := rows.Scan(&t.ID, &t.AccountID, &t.Day, &t.PostedAt, &t.AmountMinor, &t.Currency, &t.Type, &t.Name, &t.Memo, &t.FITID,
			&t.DedupeKey, &t.SearchFold); err != nil {
			return nil, fmt.Errorf("reading transactions: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// EditKey is a bank transaction's identity: the account (<connection>:<number>) and its
// dedupe key, which re-imports keep.
type EditKey struct {
	Account string
	Dedupe  string
}

// Edit is the user's change to one bank transaction; nil fields keep the bank's value.
type Edit struct {
	Space       string
	Category    *string
	Description *string
	Note        *string
	Excluded    bool
	Splits      *string // JSON, nil when not split
}

// Edits returns every edit by the identity of its transaction.
func (s *Store) Edits(ctx context.Context) (map[EditKey]Edit, error) {
	rows, err := s.db.SQL().QueryContext(ctx, "SELECT account_key, dedupe_key, space_key, category, description, note, excluded, splits FROM cad_edits")
	if err != nil {
		return nil, fmt.Errorf("reading edits: %w", err)
	}
	defer rows.Close()
	out := map[EditKey]Edit{}
	for rows.Next() {
		var k EditKey
		var e Edit
		var excluded int
		if err := rows.Scan(&k.Account, &k.Dedupe, &e.Space, &e.Category, &e.Description, &e.Note, &excluded, &e.Splits); err != nil {
			return nil, fmt.Errorf("reading edits: %w", err)
		}
		e.Excluded = excluded != 0
		out[k] = e
	}
	return out, rows.Err()
}

// Record is a manual record; a nil AmountMinor is an unknown amount (never zero).
type Record struct {
	ID          int64
	Space       string
	Person      *string
	Account     *string
	Day         string
	AmountMinor *int64
	Currency    string
	Description string
	SearchFold  string
	Category    *string
	Note        *string
	Excluded    bool
	Splits      *string // JSON, nil when not split
}

// Records returns the manual records within the inclusive days ("" = open).
func (s *Store) Records(ctx context.Context, from, to string) ([]Record, error) {
	where := []string{"1 = 1"}
	var args []any
	if from != "" {
		where, args = append(where, "record_day >= ?"), append(args, from)
	}
	if to != "" {
		where, args = append(where, "record_day <= ?"), append(args, to)
	}
	q := `SELECT id, space_key, person_key, account_key, record_day, amount_minor, currency, description, search_fold, category, note, excluded, splits
		FROM cad_records WHERE ` + strings.Join(where, " AND ")
	rows, err := s.db.SQL().QueryContext(ctx, s.q(q), args...)
	if err != nil {
		return nil, fmt.Errorf("reading records: %w", err)
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		var r Record
		var excluded int
		if err := rows.Scan(&r.ID, &r.Space, &r.Person, &r.Account, &r.Day, &r.AmountMinor, &r.Currency, &r.Description, &r.SearchFold,
			&r.Category, &r.Note, &excluded, &r.Splits); err != nil {
			return nil, fmt.Errorf("reading records: %w", err)
		}
		r.Excluded = excluded != 0
		out = append(out, r)
	}
	return out, rows.Err()
}

// Categories returns each space's categories in the installation's order, by space key.
func (s *Store) Categories(ctx context.Context) (map[string][]string, error) {
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT sp.space_key, c.name FROM cad_categories c
		JOIN cad_spaces sp ON sp.id = c.space_id ORDER BY sp.space_key, c.pos`)
	if err != nil {
		return nil, fmt.Errorf("reading categories: %w", err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var sp, name string
		if err := rows.Scan(&sp, &name); err != nil {
			return nil, fmt.Errorf("reading categories: %w", err)
		}
		out[sp] = append(out[sp], name)
	}
	return out, rows.Err()
}
