package cadstore

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
	"github.com/lumo-caderninho/mcp/impl/platform/migrate"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb/sqldbtest"
)

// TestOneTransactionKeyKeepsWhatIsStored imports the demo under every migration but cad_0008
// (the later ones touch other tables, and today's importer needs them), applies cad_0008 and checks that every transaction is as it was, that the store
// still imports and reads, and that the one composite key refuses a transaction whose
// statement belongs to another account.
func TestOneTransactionKeyKeepsWhatIsStored(t *testing.T) {
	dsn := sqldbtest.DSN(t, "caderninho.db")
	db, err := sqldb.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	before := fstest.MapFS{}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !strings.HasPrefix(n, "migrations/cad_0008") {
			b, err := fs.ReadFile(migrations, n)
			if err != nil {
				t.Fatal(err)
			}
			before[n] = &fstest.MapFile{Data: b}
		}
	}
	if err := migrate.Apply(ctx, db.SQL(), db.Dialect(), before); err != nil {
		t.Fatal(err)
	}
	old := &Store{db: db, Now: func() time.Time { return time.Now().UTC().Truncate(time.Second) },
		WriteRetention: DefaultWriteRetention, ClaimExpiry: ClaimExpiry}
	dir := t.TempDir()
	if err := demo.CopyCaderninho(dir); err != nil {
		t.Fatal(err)
	}
	register(t, old, dir)
	importAll(t, old)
	stored := transactionRows(t, db)
	if len(stored) == 0 {
		t.Fatal("the demo imported no transaction")
	}

	s, err := Open(ctx, dsn)
	if err != nil {
		t.Fatalf("applying cad_0008: %v", err)
	}
	t.Cleanup(func() { s.DB().Close() })
	if pending, err := migrate.Pending(ctx, s.DB().SQL(), migrations); err != nil || len(pending) > 0 {
		t.Fatalf("pending after Open: %v %v", pending, err)
	}
	if got := transactionRows(t, s.DB()); !reflect.DeepEqual(got, stored) {
		t.Fatalf("cad_0008 changed the transactions: %d rows before, %d after", len(stored), len(got))
	}
	for _, o := range importAll(t, s) {
		if o.Error != nil || o.NewTransactions != 0 {
			t.Errorf("re-import after cad_0008: %+v", o)
		}
	}

	// A statement of one account with another account's id: the key refuses it.
	var stmt, account, other int64
	if err := s.DB().SQL().QueryRowContext(ctx, "SELECT s.id, s.account_id, (SELECT MIN(a.id) FROM cad_accounts a WHERE a.id <> s.account_id) FROM cad_statements s ORDER BY s.id LIMIT 1").
		Scan(&stmt, &account, &other); err != nil {
		t.Fatal(err)
	}
	insert := s.q(`INSERT INTO cad_transactions (id, account_id, statement_id, dedupe_key, fitid, fingerprint, posted_day,
		amount_minor, currency, trn_type, name, memo, search_fold, check_num, ref_num)
		VALUES (?, ?, ?, 'f:x', 'x', '', '2026-01-01', 1, 'BRL', 'DEBIT', '', '', '', '', '')`)
	if _, err := s.DB().SQL().ExecContext(ctx, insert, 1<<40, other, stmt); err == nil || !strings.Contains(strings.ToLower(err.Error()), "foreign key") {
		t.Fatalf("a transaction whose statement is of another account: %v, want a foreign key error", err)
	}
	if _, err := s.DB().SQL().ExecContext(ctx, insert, 1<<40, account, stmt); err != nil {
		t.Fatalf("a transaction of its statement's account: %v", err)
	}
}

// transactionRows is every stored transaction, every column, in id order.
func transactionRows(t *testing.T, db *sqldb.DB) [][]any {
	t.Helper()
	rows, err := db.SQL().QueryContext(ctx, `SELECT id, account_id, statement_id, dedupe_key, fitid, fingerprint, posted_day,
		posted_at, amount_minor, currency, trn_type, name, memo, search_fold, check_num, ref_num FROM cad_transactions ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][]any
	for rows.Next() {
		var id, account, statement, amount int64
		var dedupe, fitid, fp, day, currency, typ, name, memo, fold, check, ref string
		var at *string
		if err := rows.Scan(&id, &account, &statement, &dedupe, &fitid, &fp, &day, &at, &amount, &currency, &typ, &name, &memo, &fold, &check, &ref); err != nil {
			t.Fatal(err)
		}
		out = append(out, []any{id, account, statement, dedupe, fitid, strings.TrimSpace(fp), day, at, amount, strings.TrimSpace(currency), typ, name, memo, fold, check, ref})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
