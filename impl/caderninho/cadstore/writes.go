package cadstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// Write claim statuses.
const (
	WriteRunning = "running"
	WriteDone    = "done"
)

// ClaimExpiry is how long a claimed key may stay running before another request may take it
// over: a planning write takes well under a second, so a claim this old belongs to a process
// that died before committing (its transaction rolled back: nothing was written).
const ClaimExpiry = 2 * time.Minute

// DefaultWriteRetention is how long a stored write result stays replayable by default. After it
// the key is forgotten: the same key again is a new write, so clients must never reuse a key.
const DefaultWriteRetention = 30 * 24 * time.Hour

// PurgeBatch bounds how many old keys one PurgeWrites deletes, so a claim never waits long.
var PurgeBatch = 100

// ClaimExpiryEnv overrides ClaimExpiry for a process (a Go duration, e.g. "2s"). Hidden: only
// the fault tests set it, to prove a crashed write's key recovers without waiting minutes.
const ClaimExpiryEnv = "CADERNINHO_CLAIM_EXPIRY"

var (
	// ErrClaimLost: the claim expired and another request took the key over; this one must not commit.
	ErrClaimLost = errors.New("idempotency claim lost")
	// ErrRevisionMoved: the space changed between reading the selection and writing it.
	ErrRevisionMoved = errors.New("space revision moved")
)

// WriteRow is the stored state of an idempotency key.
type WriteRow struct {
	Key       string
	Tool      string
	Arguments string // digest of the normalised arguments
	Status    string
	Result    *string
}

// Claim is a running write's hold on its key.
type Claim struct {
	Key   string
	token string
}

// ClaimWrite claims key for a write of tool with the arguments' digest, in its own committed
// row. When the key is already stored it returns the stored row instead (claim nil), unless that
// row is a running claim older than ClaimExpiry, which is taken over.
func (s *Store) ClaimWrite(ctx context.Context, key, tool, arguments string) (*Claim, *WriteRow, error) {
	for range 3 {
		c, row, err := s.claimWrite(ctx, key, tool, arguments)
		if err != errReleased {
			return c, row, err
		}
	}
	return nil, nil, fmt.Errorf("claiming idempotency key %s: claimed and released repeatedly", key)
}

// errReleased: the key was released between the insert and the read; claiming again may succeed.
var errReleased = errors.New("released meanwhile")

func (s *Store) claimWrite(ctx context.Context, key, tool, arguments string) (*Claim, *WriteRow, error) {
	token := newToken()
	now := s.now()
	res, err := s.db.SQL().ExecContext(ctx, s.q(`INSERT INTO cad_writes (idempotency_key, tool, arguments, status, claim, claimed_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING`), key, tool, arguments, WriteRunning, token, now)
	if err != nil {
		return nil, nil, fmt.Errorf("claiming idempotency key: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, nil, err
	} else if n == 1 {
		return &Claim{Key: key, token: token}, nil, nil
	}
	row := &WriteRow{}
	var claimedAt string
	err = s.db.SQL().QueryRowContext(ctx, s.q(`SELECT idempotency_key, tool, arguments, status, claimed_at, result FROM cad_writes
		WHERE idempotency_key = ?`), key).Scan(&row.Key, &row.Tool, &row.Arguments, &row.Status, &claimedAt, &row.Result)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, errReleased
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading idempotency key: %w", err)
	}
	expiry := s.ClaimExpiry
	if expiry <= 0 {
		expiry = ClaimExpiry
	}
	stale := s.Now().Add(-expiry).UTC().Format(time.RFC3339)
	if row.Status == WriteRunning && claimedAt < stale && row.Tool == tool && row.Arguments == arguments {
		// compare-and-swap on the old claim time: only one request takes an expired claim over
		res, err := s.db.SQL().ExecContext(ctx, s.q(`UPDATE cad_writes SET claim = ?, claimed_at = ?
			WHERE idempotency_key = ? AND status = ? AND claimed_at = ?`), token, now, key, WriteRunning, claimedAt)
		if err != nil {
			return nil, nil, fmt.Errorf("taking over an expired claim: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return &Claim{Key: key, token: token}, nil, nil
		}
	}
	return nil, row, nil
}

// PurgeWrites deletes up to PurgeBatch idempotency rows older than WriteRetention: results
// finished before it, and running claims taken before it (never one younger than ClaimExpiry,
// even with a shorter retention). It returns how many went; callers run it opportunistically.
func (s *Store) PurgeWrites(ctx context.Context) (int64, error) {
	if s.WriteRetention <= 0 {
		return 0, nil
	}
	cutoff := s.Now().Add(-max(s.WriteRetention, ClaimExpiry)).UTC().Format(time.RFC3339)
	// the times are RFC 3339 UTC strings of one width, so they compare as text
	res, err := s.db.SQL().ExecContext(ctx, s.q(`DELETE FROM cad_writes WHERE idempotency_key IN (
		SELECT idempotency_key FROM cad_writes
		WHERE (status = ? AND finished_at < ?) OR (status = ? AND claimed_at < ?) LIMIT ?)`),
		WriteDone, cutoff, WriteRunning, cutoff, PurgeBatch)
	if err != nil {
		return 0, fmt.Errorf("purging old idempotency keys: %w", err)
	}
	return res.RowsAffected()
}

// ReleaseWrite drops a claim whose write did not happen (refused or failed), so the same key
// may be tried again.
func (s *Store) ReleaseWrite(ctx context.Context, c *Claim) error {
	_, err := s.db.SQL().ExecContext(ctx, s.q("DELETE FROM cad_writes WHERE idempotency_key = ? AND claim = ? AND status = ?"),
		c.Key, c.token, WriteRunning)
	if err != nil {
		return fmt.Errorf("releasing idempotency key: %w", err)
	}
	return nil
}

// WriteTx is one planning write's transaction.
type WriteTx struct {
	s  *Store
	tx *sql.Tx
	// touched are the edits written or deleted, once each.
	touched []EditKey
	seen    map[EditKey]bool
}

func (w *WriteTx) touch(k EditKey) {
	if w.seen == nil {
		w.seen = map[EditKey]bool{}
	}
	if !w.seen[k] {
		w.seen[k] = true
		w.touched = append(w.touched, k)
	}
}

// CommitWrite runs apply and stores its result under the claim in one transaction, bumping the
// space's revision from revision when bump is set, or keeping it for a write without effect
// (ErrRevisionMoved when it is no longer current: nothing is written). apply returns the result
// to store; it receives the revision the space has after the write.
func (s *Store) CommitWrite(ctx context.Context, c *Claim, space string, revision int64, bump bool,
	apply func(w *WriteTx, newRevision int64) (result string, err error)) (string, error) {
	tx, err := s.db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("starting write: %w", err)
	}
	defer tx.Rollback()
	// bumping the revision first takes the space's row lock, so concurrent writes of a space queue;
	// a write without effect takes the lock and checks the revision the same way, keeping it
	next := revision
	if bump {
		next++
	}
	res, err := tx.ExecContext(ctx, s.q("UPDATE cad_spaces SET revision = ? WHERE space_key = ? AND revision = ?"), next, space, revision)
	if err != nil {
		return "", fmt.Errorf("bumping revision: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return "", err
	} else if n != 1 {
		return "", ErrRevisionMoved
	}
	w := &WriteTx{s: s, tx: tx}
	result, err := apply(w, next)
	if err != nil {
		return "", err
	}
	// The unmatched edits change only with the edits this write touched: read those again here,
	// in the write's transaction, and carry the cached answer past the write once it commits.
	var carry func()
	if gen, accounts, ok := s.unmatched.base(space, revision); ok && bump && len(w.touched) <= maxWriteDelta {
		var delta []UnmatchedEdit
		if len(w.touched) > 0 {
			if delta, err = s.unmatchedAmong(ctx, tx, accounts, w.touched); err != nil {
				return "", err
			}
		}
		carry = func() { s.unmatched.advance(gen, space, next, w.touched, delta) }
	}
	res, err = tx.ExecContext(ctx, s.q(`UPDATE cad_writes SET status = ?, result = ?, finished_at = ?
		WHERE idempotency_key = ? AND claim = ? AND status = ?`), WriteDone, result, s.now(), c.Key, c.token, WriteRunning)
	if err != nil {
		return "", fmt.Errorf("storing write result: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return "", err
	} else if n != 1 {
		return "", ErrClaimLost
	}
	if err := tx.Commit(); err != nil {
		return "", fmt.Errorf("committing write: %w", err)
	}
	if carry != nil {
		carry()
	}
	return result, nil
}

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// EditRow is the full edit of one bank transaction; nil fields keep the bank's value.
type EditRow struct {
	Key         EditKey
	Space       string
	Category    *string
	Description *string
	Note        *string
	Excluded    bool
	Splits      *string // JSON
}

// PutEdit writes the whole edit of a bank transaction (insert or replace) as a person's: a
// rule's edit it replaces becomes the person's, which rules never touch.
func (w *WriteTx) PutEdit(ctx context.Context, e EditRow) error {
	s := w.s
	w.touch(e.Key)
	search := EditFold(e.Description, e.Note)
	res, err := w.tx.ExecContext(ctx, s.q(`UPDATE cad_edits SET space_key = ?, category = ?, description = ?, note = ?, excluded = ?, splits = ?,
		search_fold = ?, rule_id = NULL, updated_at = ? WHERE account_key = ? AND dedupe_key = ?`), e.Space, nullString(e.Category), nullString(e.Description),
		nullString(e.Note), flag(e.Excluded), nullString(e.Splits), search, s.now(), e.Key.Account, e.Key.Dedupe)
	if err != nil {
		return fmt.Errorf("updating edit: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	if _, err := w.tx.ExecContext(ctx, s.q(`INSERT INTO cad_edits (account_key, dedupe_key, space_key, category, description, note, excluded,
		splits, search_fold, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), e.Key.Account, e.Key.Dedupe, e.Space, nullString(e.Category),
		nullString(e.Description), nullString(e.Note), flag(e.Excluded), nullString(e.Splits), search, s.now()); err != nil {
		return fmt.Errorf("inserting edit: %w", err)
	}
	return nil
}

// DeleteEdit removes the edit of a bank transaction, if any: the transaction shows the bank's
// values again.
func (w *WriteTx) DeleteEdit(ctx context.Context, key EditKey) error {
	w.touch(key)
	if _, err := w.tx.ExecContext(ctx, w.s.q(`DELETE FROM cad_edits WHERE account_key = ? AND dedupe_key = ?`), key.Account, key.Dedupe); err != nil {
		return fmt.Errorf("deleting edit: %w", err)
	}
	return nil
}

// AddRecord inserts a manual record and returns its id.
func (w *WriteTx) AddRecord(ctx context.Context, r Record) (int64, error) {
	s := w.s
	id, err := s.reserveIDs(ctx, w.tx, "record", 1)
	if err != nil {
		return 0, err
	}
	now := s.now()
	if _, err := w.tx.ExecContext(ctx, s.q(`INSERT INTO cad_records (id, space_key, person_key, account_key, record_day, amount_minor, currency,
		description, search_fold, category, note, excluded, splits, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		id, r.Space, nullString(r.Person), nullString(r.Account), r.Day, nullInt(r.AmountMinor), r.Currency, r.Description, r.SearchFold,
		nullString(r.Category), nullString(r.Note), flag(r.Excluded), nullString(r.Splits), now, now); err != nil {
		return 0, fmt.Errorf("inserting record: %w", err)
	}
	return id, nil
}

// UpdateRecord rewrites the editable fields of a manual record of space.
func (w *WriteTx) UpdateRecord(ctx context.Context, r Record) error {
	s := w.s
	res, err := w.tx.ExecContext(ctx, s.q(`UPDATE cad_records SET description = ?, search_fold = ?, category = ?, note = ?, excluded = ?,
		splits = ?, updated_at = ? WHERE id = ? AND space_key = ?`), r.Description, r.SearchFold, nullString(r.Category), nullString(r.Note),
		flag(r.Excluded), nullString(r.Splits), s.now(), r.ID, r.Space)
	if err != nil {
		return fmt.Errorf("updating record: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("updating record %d: %w", r.ID, ErrRevisionMoved)
	}
	return nil
}

// DeleteRecord removes a manual record of space.
func (w *WriteTx) DeleteRecord(ctx context.Context, space string, id int64) error {
	res, err := w.tx.ExecContext(ctx, w.s.q("DELETE FROM cad_records WHERE id = ? AND space_key = ?"), id, space)
	if err != nil {
		return fmt.Errorf("deleting record: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("deleting record %d: %w", id, ErrRevisionMoved)
	}
	return nil
}

// Budget is the monthly budget of one category of a space in one currency.
type Budget struct {
	Space       string
	Month       string // YYYY-MM
	Category    string
	Currency    string
	AmountMinor int64
}

// SetBudget stores (amount non-nil) or removes (nil) a budget.
func (w *WriteTx) SetBudget(ctx context.Context, b Budget, remove bool) error {
	s := w.s
	if _, err := w.tx.ExecContext(ctx, s.q("DELETE FROM cad_budgets WHERE space_key = ? AND budget_month = ? AND category = ? AND currency = ?"),
		b.Space, b.Month, b.Category, b.Currency); err != nil {
		return fmt.Errorf("replacing budget: %w", err)
	}
	if remove {
		return nil
	}
	if _, err := w.tx.ExecContext(ctx, s.q(`INSERT INTO cad_budgets (space_key, budget_month, category, currency, amount_minor, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)`), b.Space, b.Month, b.Category, b.Currency, b.AmountMinor, s.now()); err != nil {
		return fmt.Errorf("storing budget: %w", err)
	}
	return nil
}

// Budgets returns every budget, by space, month, category and currency.
func (s *Store) Budgets(ctx context.Context) ([]Budget, error) {
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT space_key, budget_month, category, currency, amount_minor FROM cad_budgets
		ORDER BY space_key, budget_month, category, currency`)
	if err != nil {
		return nil, fmt.Errorf("reading budgets: %w", err)
	}
	defer rows.Close()
	var out []Budget
	for rows.Next() {
		var b Budget
		if err := rows.Scan(&b.Space, &b.Month, &b.Category, &b.Currency, &b.AmountMinor); err != nil {
			return nil, fmt.Errorf("reading budgets: %w", err)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

func nullInt(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}
