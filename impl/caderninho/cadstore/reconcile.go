package cadstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/caderninho/bankcsv"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// What an import made before it recognised one account in two formats, and card exports without
// a period, is set right by the connection's next import (reconcile), in its transaction.

// needsReconcile reports whether c has something reconcile sets right: an account a CSV export
// made without a number beside another account of its kind and currency, or a CSV statement
// stored without a period.
func (s *Store) needsReconcile(ctx context.Context, c Connection) (bool, error) {
	var n int
	err := s.db.SQL().QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM cad_accounts p WHERE p.connection_id = ? AND p.acct_number IN (?, ?)
		AND EXISTS (SELECT 1 FROM cad_accounts a WHERE a.connection_id = p.connection_id AND a.kind = p.kind AND a.currency = p.currency
			AND a.acct_number NOT IN (?, ?))`), c.ID, bankcsv.AccountBank, bankcsv.AccountCard, bankcsv.AccountBank, bankcsv.AccountCard).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("reading the accounts of %s: %w", c.Key, err)
	}
	if n > 0 {
		return true, nil
	}
	unperiodized, err := s.unperiodized(ctx, s.db.SQL(), c)
	return len(unperiodized) > 0, err
}

// unperiodizedStatement is a CSV statement stored without a period: card exports were, before
// their period was taken from their dates.
type unperiodizedStatement struct {
	id        int64
	path, sha string
}

func (s *Store) unperiodized(ctx context.Context, q queryer, c Connection) ([]unperiodizedStatement, error) {
	rows, err := q.QueryContext(ctx, s.q(`SELECT st.id, f.path, f.sha256 FROM cad_statements st
		JOIN cad_accounts a ON a.id = st.account_id JOIN cad_files f ON f.id = st.file_id
		WHERE a.connection_id = ? AND st.start_day IS NULL AND st.added > 0 ORDER BY st.id`), c.ID)
	if err != nil {
		return nil, fmt.Errorf("reading the statements of %s: %w", c.Key, err)
	}
	defer rows.Close()
	var out []unperiodizedStatement
	for rows.Next() {
		var u unperiodizedStatement
		if err := rows.Scan(&u.id, &u.path, &u.sha); err != nil {
			return nil, fmt.Errorf("reading the statements of %s: %w", c.Key, err)
		}
		if sourceOf(u.path) == sourceCSV {
			out = append(out, u)
		}
	}
	return out, rows.Err()
}

// reconcile sets right, in the import's transaction, what earlier imports of c left: a CSV
// statement without a period gets the one its file's dates give (the file read again when it is
// still in the folder with the same content, else its stored transactions' days), and an account
// a CSV export made without a number is joined to the account of its kind an OFX statement made
// when the movements they share say they are one (see identify; without a day in common nothing
// was counted twice, and the account is left as it is). It says what it did in the outcome and
// reports whether readers see a change.
func (s *Store) reconcile(ctx context.Context, tx *sql.Tx, c Connection, out *Outcome, extra *int) (bool, error) {
	changed := false
	us, err := s.unperiodized(ctx, tx, c)
	if err != nil {
		return false, err
	}
	for _, u := range us {
		from, to, err := s.csvPeriod(ctx, tx, c, u)
		if err != nil {
			return false, err
		}
		if from == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_statements SET start_day = ?, end_day = ? WHERE id = ?"), from, to, u.id); err != nil {
			return false, fmt.Errorf("setting the period of %s: %w", u.path, err)
		}
		out.warn(u.path, 0, fmt.Sprintf("o arquivo, importado antes sem período, passa a cobrir os dias dos seus lançamentos: de %s a %s",
			ptbr.Day(from), ptbr.Day(to)), extra)
		changed = true
	}
	all, err := s.connectionAccounts(ctx, tx, c.ID)
	if err != nil {
		return false, err
	}
	for _, p := range all {
		if !Placeholder(p.number) {
			continue
		}
		var cands []*storedAccount
		for _, a := range all {
			if !Placeholder(a.number) && compatible(a, p.kind, p.typ, p.currency, p.bankID) {
				cands = append(cands, a)
			}
		}
		if len(cands) == 0 {
			continue
		}
		moves, err := s.accountMoves(ctx, tx, p.id, "", "", nil)
		if err != nil {
			return false, err
		}
		var same []*storedAccount
		for _, a := range cands {
			ev, err := s.evidence(ctx, tx, a.id, moves)
			if err != nil {
				return false, err
			}
			if ev.sameAccount() {
				same = append(same, a)
			}
		}
		if len(same) != 1 {
			continue // no movement in common (nothing counted twice), or one of several: left as it is
		}
		dups, err := s.joinAccount(ctx, tx, c, p, same[0])
		if err != nil {
			return false, err
		}
		w := wordsOf(p.kind)
		out.warnConnection(fmt.Sprintf("os arquivos CSV e OFX desta conexão tinham virado duas contas para %s (ids %s e %s; %s): "+
			"agora são %s, %s, cada movimento conta uma vez e as edições foram mantidas", w.sameNoun, p.key(c), same[0].key(c),
			ptbr.Count(dups, "movimento repetido", "movimentos repetidos"), w.one, same[0].key(c)), extra)
		changed = true
	}
	return changed, nil
}

// csvPeriod is the period of the CSV file of statement u read again (its first to last
// transaction day, see bankcsv.Parse), when it is still in c's folder with the content that was
// imported; else the days of the transactions the statement stored, which it covers.
func (s *Store) csvPeriod(ctx context.Context, tx *sql.Tx, c Connection, u unperiodizedStatement) (string, string, error) {
	path := filepath.Join(c.SourcePath, u.path)
	if info, err := os.Lstat(path); err == nil && info.Mode().IsRegular() && info.Size() <= bankcsv.MaxSize && !strings.ContainsAny(u.path, `/\`) {
		if b, err := os.ReadFile(path); err == nil {
			sum := sha256.Sum256(b)
			if hex.EncodeToString(sum[:]) == u.sha {
				if f, err := bankcsv.Parse(b, c.Format); err == nil && f.Statement.HasPeriod {
					return f.Statement.Start, f.Statement.End, nil
				}
			}
		}
	}
	var from, to sql.NullString
	if err := tx.QueryRowContext(ctx, s.q("SELECT MIN(posted_day), MAX(posted_day) FROM cad_transactions WHERE statement_id = ?"), u.id).
		Scan(&from, &to); err != nil {
		return "", "", fmt.Errorf("reading the days of %s: %w", u.path, err)
	}
	return from.String, to.String, nil
}

// joinAccount moves account p (made by CSV exports without a number) into account a: p's
// transactions that a holds too (see pairs: by bank id, then day, amount and currency) are
// dropped, their edits going to a's transaction when it has none; the others move to a with
// their edits; p's statements, manual records and balance (when a has none, or an older one)
// follow, and p is deleted. It returns how many transactions were dropped.
func (s *Store) joinAccount(ctx context.Context, tx *sql.Tx, c Connection, p, a *storedAccount) (int, error) {
	type row struct {
		id   int64
		m    move
		key  string
		fp   string
		stID int64
	}
	read := func(accountID int64) ([]row, error) {
		rows, err := tx.QueryContext(ctx, s.q(`SELECT id, posted_day, amount_minor, currency, fitid, dedupe_key, fingerprint, statement_id
			FROM cad_transactions WHERE account_id = ? ORDER BY posted_day, id`), accountID)
		if err != nil {
			return nil, fmt.Errorf("reading imported transactions: %w", err)
		}
		defer rows.Close()
		var out []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.id, &r.m.day, &r.m.amount, &r.m.currency, &r.m.fitid, &r.key, &r.fp, &r.stID); err != nil {
				return nil, fmt.Errorf("reading imported transactions: %w", err)
			}
			out = append(out, r)
		}
		return out, rows.Err()
	}
	prow, err := read(p.id)
	if err != nil {
		return 0, err
	}
	arow, err := read(a.id)
	if err != nil {
		return 0, err
	}
	pm, am := make([]move, len(prow)), make([]move, len(arow))
	for i, r := range prow {
		pm[i] = r.m
	}
	taken := map[string]bool{}
	for i, r := range arow {
		am[i] = r.m
		taken[r.key] = true
	}
	match := pairing(pm, am)
	// p's statements become a's (new rows: a transaction's statement and account are one key).
	stmts := map[int64]int64{}
	srows, err := tx.QueryContext(ctx, s.q("SELECT id FROM cad_statements WHERE account_id = ? ORDER BY id"), p.id)
	if err != nil {
		return 0, fmt.Errorf("reading statements: %w", err)
	}
	var old []int64
	for srows.Next() {
		var id int64
		if err := srows.Scan(&id); err != nil {
			srows.Close()
			return 0, fmt.Errorf("reading statements: %w", err)
		}
		old = append(old, id)
	}
	srows.Close()
	if err := srows.Err(); err != nil {
		return 0, fmt.Errorf("reading statements: %w", err)
	}
	for _, id := range old {
		nid, err := s.reserveIDs(ctx, tx, "statement", 1)
		if err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO cad_statements (id, account_id, file_id, start_day, end_day, ledger_minor, ledger_day, transactions, added)
			SELECT ?, ?, file_id, start_day, end_day, ledger_minor, ledger_day, transactions, added FROM cad_statements WHERE id = ?`), nid, a.id, id); err != nil {
			return 0, fmt.Errorf("moving statement: %w", err)
		}
		stmts[id] = nid
	}
	pKey, aKey := p.key(c), a.key(c)
	dups := 0
	for i, r := range prow {
		if j := match[i]; j >= 0 {
			dups++
			if _, err := tx.ExecContext(ctx, s.q(`UPDATE cad_edits SET account_key = ?, dedupe_key = ? WHERE account_key = ? AND dedupe_key = ?
				AND NOT EXISTS (SELECT 1 FROM cad_edits e2 WHERE e2.account_key = ? AND e2.dedupe_key = ?)`),
				aKey, arow[j].key, pKey, r.key, aKey, arow[j].key); err != nil {
				return 0, fmt.Errorf("moving an edit: %w", err)
			}
			if _, err := tx.ExecContext(ctx, s.q("DELETE FROM cad_transactions WHERE id = ?"), r.id); err != nil {
				return 0, fmt.Errorf("dropping a repeated transaction: %w", err)
			}
			continue
		}
		key := r.key
		for n := 1; taken[key]; n++ {
			key = keyOf("", parseFP(r.fp), n) // a's keys are its own: the next free one of the fingerprint
		}
		taken[key] = true
		if key != r.key {
			if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_edits SET dedupe_key = ? WHERE account_key = ? AND dedupe_key = ?"), key, pKey, r.key); err != nil {
				return 0, fmt.Errorf("moving an edit: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_transactions SET account_id = ?, statement_id = ?, dedupe_key = ? WHERE id = ?"),
			a.id, stmts[r.stID], key, r.id); err != nil {
			return 0, fmt.Errorf("moving a transaction: %w", err)
		}
	}
	if err := s.moveAccountKey(ctx, tx, pKey, aKey); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, s.q(`UPDATE cad_accounts SET balance_minor = (SELECT balance_minor FROM cad_accounts WHERE id = ?),
		balance_day = (SELECT balance_day FROM cad_accounts WHERE id = ?), balance_at = (SELECT balance_at FROM cad_accounts WHERE id = ?)
		WHERE id = ? AND (SELECT balance_day FROM cad_accounts WHERE id = ?) IS NOT NULL
		AND (balance_day IS NULL OR balance_day < (SELECT balance_day FROM cad_accounts WHERE id = ?))`), p.id, p.id, p.id, a.id, p.id, p.id); err != nil {
		return 0, fmt.Errorf("moving the balance: %w", err)
	}
	if _, err := tx.ExecContext(ctx, s.q("DELETE FROM cad_statements WHERE account_id = ?"), p.id); err != nil {
		return 0, fmt.Errorf("dropping moved statements: %w", err)
	}
	if _, err := tx.ExecContext(ctx, s.q("DELETE FROM cad_accounts WHERE id = ?"), p.id); err != nil {
		return 0, fmt.Errorf("dropping the joined account: %w", err)
	}
	return dups, nil
}

// warnConnection adds a warning about the connection, not one of its files, up to MaxWarnings;
// past it, *extra counts.
func (o *Outcome) warnConnection(message string, extra *int) {
	if len(o.Warnings) >= MaxWarnings {
		*extra++
		return
	}
	o.Warnings = append(o.Warnings, FileError{Message: message})
}
