package features

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/cucumber/godog"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// noRecordRepeats checks that plan_transactions pages never repeat a record.
func (w *cadWorld) noRecordRepeats() error {
	seen := map[string]bool{}
	for _, r := range w.pages {
		id := r.(map[string]any)["id"].(string)
		if seen[id] {
			return fmt.Errorf("record %s appears twice", id)
		}
		seen[id] = true
	}
	return nil
}

// cell is a table cell, with "" (empty) read as SQL NULL.
func cell(row *godog.Table, header []string, i int, name string) any {
	for j, h := range header {
		if h == name {
			if v := row.Rows[i].Cells[j].Value; v != "" {
				return v
			}
			return nil
		}
	}
	return nil
}

// eachRowInTx runs row for every data row of table, each in its own transaction (rolled back
// when row fails). get reads a cell by column name (nil when empty); q rebinds placeholders.
func (w *cadWorld) eachRowInTx(ctx context.Context, table *godog.Table,
	row func(tx *sql.Tx, i int, get func(string) any, q func(string) string) error) error {
	if external() { // rows stored behind the server need our database
		return errNeedsOwnSetup
	}
	db := w.store.DB()
	q := func(s string) string { return sqldialect.Rebind(db.Dialect(), s) }
	var header []string
	for _, c := range table.Rows[0].Cells {
		header = append(header, c.Value)
	}
	for i := 1; i < len(table.Rows); i++ {
		get := func(name string) any { return cell(table, header, i, name) }
		tx, err := db.SQL().BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err := row(tx, i, get, q); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// excludedFlag is the excluded column (yes/no) as stored.
func excludedFlag(get func(string) any) int {
	if get("excluded") == "yes" {
		return 1
	}
	return 0
}

// storeRecords inserts manual records straight into cad_records, as the write tools do: an id
// from cad_ids and a bumped revision of the record's space. Columns: space, person, account,
// day, amountMinor (empty = unknown), currency, description, category, excluded (yes/no).
func (w *cadWorld) storeRecords(ctx context.Context, table *godog.Table) error {
	return w.eachRowInTx(ctx, table, func(tx *sql.Tx, _ int, get func(string) any, q func(string) string) error {
		var id int64
		if _, err := tx.ExecContext(ctx, "UPDATE cad_ids SET last_id = last_id + 1 WHERE kind = 'record'"); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, "SELECT last_id FROM cad_ids WHERE kind = 'record'").Scan(&id); err != nil {
			return err
		}
		var amount any
		if a := get("amountMinor"); a != nil {
			var n int64
			if _, err := fmt.Sscan(a.(string), &n); err != nil {
				return err
			}
			amount = n
		}
		desc, _ := get("description").(string)
		if _, err := tx.ExecContext(ctx, q(`INSERT INTO cad_records (id, space_key, person_key, account_key, record_day, amount_minor, currency,
			description, search_fold, category, note, excluded, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`),
			id, get("space"), get("person"), get("account"), get("day"), amount, get("currency"), desc, fold.Fold(desc), get("category"),
			excludedFlag(get), "2026-11-01T12:00:00Z", "2026-11-01T12:00:00Z"); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, q("UPDATE cad_spaces SET revision = revision + 1 WHERE space_key = ?"), get("space"))
		return err
	})
}

// storeEdits inserts edits straight into cad_edits, keyed by the transaction's identity in the
// bank (its account and dedupe key), and bumps the space's revision. Columns: account, fitid,
// category, description, note, excluded (yes/no).
func (w *cadWorld) storeEdits(ctx context.Context, table *godog.Table) error {
	return w.eachRowInTx(ctx, table, func(tx *sql.Tx, _ int, get func(string) any, q func(string) string) error {
		account := get("account").(string)
		conn, number, _ := strings.Cut(account, ":")
		var dedupe, space string
		err := tx.QueryRowContext(ctx, q(`SELECT t.dedupe_key, sp.space_key FROM cad_transactions t
			JOIN cad_accounts a ON a.id = t.account_id JOIN cad_connections c ON c.id = a.connection_id
			JOIN cad_spaces sp ON sp.id = c.space_id
			WHERE c.connection_key = ? AND a.acct_number = ? AND t.fitid = ?`), conn, number, get("fitid")).Scan(&dedupe, &space)
		if err != nil {
			return fmt.Errorf("finding FITID %v of %s: %w", get("fitid"), account, err)
		}
		desc, _ := get("description").(string)
		note, _ := get("note").(string)
		// search_fold as the store writes it (cadstore.EditFold)
		if _, err := tx.ExecContext(ctx, q(`INSERT INTO cad_edits (account_key, dedupe_key, space_key, category, description, note, excluded,
			search_fold, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`), account, dedupe, space, get("category"), get("description"), get("note"),
			excludedFlag(get), fold.Fold(desc+" "+note), "2026-11-01T12:00:00Z"); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, q("UPDATE cad_spaces SET revision = revision + 1 WHERE space_key = ?"), space)
		return err
	})
}

// storeUnmatchedEdits inserts edits whose dedupe key no imported transaction has, as when a
// transaction disappears from the bank's statements, and bumps the space's revision (as every
// write of edits does). Columns: account, space, category, description, excluded (yes/no), and
// fitid (optional: a FITID the bank has not listed yet; otherwise one it never will).
func (w *cadWorld) storeUnmatchedEdits(ctx context.Context, table *godog.Table) error {
	return w.eachRowInTx(ctx, table, func(tx *sql.Tx, i int, get func(string) any, q func(string) string) error {
		dedupe := fmt.Sprintf("f:SUMIU-%d", i)
		if fitid, ok := get("fitid").(string); ok {
			dedupe = "f:" + fitid
		}
		if _, err := tx.ExecContext(ctx, q(`INSERT INTO cad_edits (account_key, dedupe_key, space_key,
			category, description, note, excluded, updated_at) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)`),
			get("account"), dedupe, get("space"), get("category"), get("description"), excludedFlag(get),
			"2026-11-01T12:00:00Z"); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, q("UPDATE cad_spaces SET revision = revision + 1 WHERE space_key = ?"), get("space"))
		return err
	})
}
