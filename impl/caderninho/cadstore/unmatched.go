package cadstore

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// UnmatchedEdit is an edit whose transaction the bank no longer lists (its account or the
// transaction is gone): reported to the user, never silently dropped.
type UnmatchedEdit struct {
	EditKey
	Edit
}

// maxCachedUnmatched bounds the unmatched edits the store keeps in memory, and maxWriteDelta
// the edits a write may touch for the store to carry its answer past that write: beyond
// either, the next read asks the database.
const (
	maxCachedUnmatched = 10_000
	maxWriteDelta      = 2_000
)

// unmatchedCache is the last answer of UnmatchedEdits. With 10^5 edits the query probes the
// transactions once per edit, about what a whole page costs, yet its answer changes only with
// the edits, the transactions or the accounts, and each of those changes moves a space's
// revision (every planning write, import that adds a transaction or an account, and panel
// change does), while ids are never reused: the spaces' ids and revisions with the accounts
// identify the answer. A reader reads them before the query, so an answer newer than its key
// is possible, but only a reader that started before the change it holds can meet that key.
// A planning write carries the answer past itself: it reads the edits it touched again, inside
// its transaction.
type unmatchedCache struct {
	mu       sync.Mutex
	gen      int64 // moves with every answer stored
	spaces   map[string]Space
	accounts []PlanAccount
	edits    []UnmatchedEdit
}

// UnmatchedEdits returns the edits that match no imported transaction, by account then key
// (byte order, the same on both engines); accounts are every account of the installation (an
// edit of another account matches nothing) and spaces every space with its revision, as the
// caller read them before. The answer is shared: callers must not change it.
func (s *Store) UnmatchedEdits(ctx context.Context, spaces map[string]Space, accounts []PlanAccount) ([]UnmatchedEdit, error) {
	c := &s.unmatched
	c.mu.Lock()
	if c.spaces != nil && sameSpaces(c.spaces, spaces) && sameAccounts(c.accounts, accounts) {
		edits := c.edits
		c.mu.Unlock()
		return edits, nil
	}
	c.mu.Unlock()
	edits, err := s.unmatchedAmong(ctx, s.db.SQL(), accounts, nil)
	if err != nil || len(edits) > maxCachedUnmatched {
		return edits, err
	}
	c.mu.Lock()
	c.gen++
	c.spaces, c.accounts, c.edits = cloneSpaces(spaces), append([]PlanAccount(nil), accounts...), edits
	c.mu.Unlock()
	return edits, nil
}

// unmatchedAmong runs the query: every edit without a transaction, or only those of keys when
// keys is not nil.
func (s *Store) unmatchedAmong(ctx context.Context, q queryer, accounts []PlanAccount, keys []EditKey) ([]UnmatchedEdit, error) {
	query := `SELECT e.account_key, e.dedupe_key, e.space_key, e.category, e.description, e.note, e.excluded FROM cad_edits e`
	// a rule's edit is the rule's, not the user's: it is rewritten with the rules, never reported
	where := []string{"e.rule_id IS NULL"}
	var args []any
	if keys != nil {
		var b strings.Builder
		for i, k := range keys {
			if i > 0 {
				b.WriteString(" OR ")
			}
			b.WriteString("(e.account_key = ? AND e.dedupe_key = ?)")
			args = append(args, k.Account, k.Dedupe)
		}
		where = append(where, "("+b.String()+")")
	}
	if len(accounts) > 0 {
		// the account's id by its key, per edit: one index probe of (account_id, dedupe_key)
		var b strings.Builder
		for _, a := range accounts {
			b.WriteString(" WHEN ? THEN CAST(? AS BIGINT)")
			args = append(args, a.Key, a.ID)
		}
		// LIMIT 1 OFFSET 0 keeps PostgreSQL probing per edit, as SQLite does, instead of hashing
		// every transaction for an anti-join
		where = append(where, `NOT EXISTS (SELECT 1 FROM cad_transactions t
			WHERE t.account_id = CASE e.account_key`+b.String()+` END AND t.dedupe_key = e.dedupe_key LIMIT 1 OFFSET 0)`)
	}
	query += " WHERE " + strings.Join(where, " AND ")
	rows, err := q.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("reading unmatched edits: %w", err)
	}
	defer rows.Close()
	out := []UnmatchedEdit{}
	for rows.Next() {
		var u UnmatchedEdit
		var excluded int
		if err := rows.Scan(&u.Account, &u.Dedupe, &u.Space, &u.Category, &u.Description, &u.Note, &excluded); err != nil {
			return nil, fmt.Errorf("reading unmatched edits: %w", err)
		}
		u.Excluded = excluded != 0
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sortUnmatched(out)
	return out, nil
}

// base is what a write of space at revision needs to carry the cached answer past
// itself: the cache's generation and accounts, when the answer is of that revision.
func (c *unmatchedCache) base(space string, revision int64) (gen int64, accounts []PlanAccount, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sp, found := c.spaces[space]
	if !found || sp.Revision != revision {
		return 0, nil, false
	}
	return c.gen, c.accounts, true
}

// advance moves the answer of generation gen past a committed write of space (revision to
// next): the touched edits leave it and those of them still unmatched (delta) come back.
func (c *unmatchedCache) advance(gen int64, space string, next int64, touched []EditKey, delta []UnmatchedEdit) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return
	}
	gone := make(map[EditKey]bool, len(touched))
	for _, k := range touched {
		gone[k] = true
	}
	edits := make([]UnmatchedEdit, 0, len(c.edits)+len(delta))
	for _, u := range c.edits {
		if !gone[u.EditKey] {
			edits = append(edits, u)
		}
	}
	edits = append(edits, delta...)
	c.gen++
	if len(edits) > maxCachedUnmatched {
		c.spaces, c.accounts, c.edits = nil, nil, nil
		return
	}
	sortUnmatched(edits)
	spaces := cloneSpaces(c.spaces)
	sp := spaces[space]
	sp.Revision = next
	spaces[space] = sp
	c.spaces, c.edits = spaces, edits
}

func sortUnmatched(edits []UnmatchedEdit) {
	sort.Slice(edits, func(i, j int) bool {
		if edits[i].Account != edits[j].Account {
			return edits[i].Account < edits[j].Account
		}
		return edits[i].Dedupe < edits[j].Dedupe
	})
}

func sameSpaces(a, b map[string]Space) bool {
	if len(a) != len(b) {
		return false
	}
	for k, sa := range a {
		if sb, ok := b[k]; !ok || sa.ID != sb.ID || sa.Revision != sb.Revision {
			return false
		}
	}
	return true
}

func sameAccounts(a, b []PlanAccount) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func cloneSpaces(m map[string]Space) map[string]Space {
	out := make(map[string]Space, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
