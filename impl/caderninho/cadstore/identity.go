package cadstore

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/lumo-caderninho/mcp/impl/caderninho/bankcsv"
	"github.com/lumo-caderninho/mcp/impl/caderninho/banks"
	"github.com/lumo-caderninho/mcp/impl/caderninho/ofx"
)

// Statement sources: the format of the file a statement came from. The same account read from
// an OFX and from a CSV export is recognised (identify) and its movements stored once
// (crossFormat), though the two formats write them differently.
const (
	sourceOFX = "ofx"
	sourceCSV = "csv"
)

// sourceOf is the source of a statement file, by its name as the importer reads it.
func sourceOf(name string) string {
	if strings.EqualFold(filepath.Ext(name), ".csv") {
		return sourceCSV
	}
	return sourceOFX
}

// Placeholder reports whether number is the one a CSV export's account gets when the file names
// none (bankcsv.AccountBank, bankcsv.AccountCard): no bank's number, never shown to people.
func Placeholder(number string) bool {
	return number == bankcsv.AccountBank || number == bankcsv.AccountCard
}

// otherSource reports whether the account holds transactions of another source than src.
func (a *account) otherSource(src string) bool {
	for s := range a.sources {
		if s != src {
			return true
		}
	}
	return false
}

// accountSources reads the sources of the files an account's statements came from.
func (s *Store) accountSources(ctx context.Context, q queryer, accountID int64) (map[string]bool, error) {
	rows, err := q.QueryContext(ctx, s.q(`SELECT f.path FROM cad_statements st JOIN cad_files f ON f.id = st.file_id
		WHERE st.account_id = ?`), accountID)
	if err != nil {
		return nil, fmt.Errorf("reading statement files: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var path string
		if err := rows.Scan(&path); err != nil {
			return nil, fmt.Errorf("reading statement files: %w", err)
		}
		out[sourceOf(path)] = true
	}
	return out, rows.Err()
}

// storedAccount is an account of a connection as identify weighs it.
type storedAccount struct {
	id                                  int64
	number, kind, typ, currency, bankID string
	sources                             map[string]bool
}

// key is how clients name the account.
func (a *storedAccount) key(c Connection) string { return AccountKey(c.Key, a.number) }

// connectionAccounts reads every account of a connection with the sources of its files.
func (s *Store) connectionAccounts(ctx context.Context, q queryer, connID int64) ([]*storedAccount, error) {
	rows, err := q.QueryContext(ctx, s.q(`SELECT id, acct_number, kind, acct_type, currency, bank_id FROM cad_accounts
		WHERE connection_id = ? ORDER BY acct_number`), connID)
	if err != nil {
		return nil, fmt.Errorf("reading accounts: %w", err)
	}
	var out []*storedAccount
	for rows.Next() {
		a := &storedAccount{}
		if err := rows.Scan(&a.id, &a.number, &a.kind, &a.typ, &a.currency, &a.bankID); err != nil {
			rows.Close()
			return nil, fmt.Errorf("reading accounts: %w", err)
		}
		out = append(out, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading accounts: %w", err)
	}
	for _, a := range out {
		if a.sources, err = s.accountSources(ctx, q, a.id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// compatible reports whether a statement (kind, type, currency, bank code) may be of the stored
// account: the same kind and currency, no two different account types (a CSV export's CHECKING
// is no SAVINGS) and no two different banks.
func compatible(a *storedAccount, kind, typ, currency, bankID string) bool {
	if a.kind != kind || a.currency != currency {
		return false
	}
	if a.typ != "" && typ != "" && !strings.EqualFold(a.typ, typ) {
		return false
	}
	b1, b2 := banks.ByCode(a.bankID), banks.ByCode(bankID)
	return b1 == nil || b2 == nil || b1 == b2
}

// digits is the account number's digits without leading zeros ("0012345-6" -> "123456"), ""
// when it has fewer than four: Inter's CSV and OFX may write one number two ways.
func digits(number string) string {
	var b strings.Builder
	for _, r := range number {
		if unicode.IsDigit(r) {
			if b.Len() == 0 && r == '0' {
				continue
			}
			b.WriteRune(r)
		} else if !strings.ContainsRune(" .-/", r) {
			return "" // letters: a UUID or a code, compared whole
		}
	}
	if b.Len() < 4 {
		return ""
	}
	return b.String()
}

// identity is what identify found: the stored account a statement is of (nil: a new account),
// whether that account takes the statement's number, a note for the outcome, or why the
// statement is refused.
type identity struct {
	same    *storedAccount
	rename  bool
	note    string
	refusal string
	// newID, on a rename, says the account's id changes (said unless the account is new)
	newID string
}

// evidence is how a statement's movements meet an account's: how many fall on days the account
// covers (overlap) and how many of those it has too (shared, see pairs).
type evidence struct{ overlap, shared int }

// sameAccount: at least one movement in common and at least half of those on covered days.
func (e evidence) sameAccount() bool { return e.shared >= 1 && 2*e.shared >= e.overlap }

// identify says which account of c a statement is of when its number is none of c's accounts'.
// A CSV export names no account (bankcsv.AccountBank or AccountCard; Inter's names its number):
// it is of the connection's account of its kind read from OFX when the movements they share say
// so, or when there is exactly one such account and they have no day in common. An OFX statement
// is of the account a CSV export made in its place ("conta", "cartao") on the same terms, and that
// account takes the OFX's number. A CSV that names its number is of the account with the same
// digits. Otherwise the statement is of a new account; an account it might be but whose
// movements on the same days are others is named in a note, and a CSV that could be of several
// accounts is refused. A doubtful file (of a bank the connection's institution does not name),
// or one whose bank is not known to be the account's, is of an account only by the movements
// they share.
func (s *Store) identify(ctx context.Context, tx *sql.Tx, c Connection, st ofx.Statement, src string, f parsedFile, i int, doubtful bool) (identity, error) {
	all, err := s.connectionAccounts(ctx, tx, c.ID)
	if err != nil {
		return identity{}, err
	}
	kind, w := string(st.Kind), wordsOf(string(st.Kind))
	var cands []*storedAccount
	for _, a := range all {
		if !compatible(a, kind, st.Type, st.Currency, st.BankID) {
			continue
		}
		switch {
		case src == sourceCSV && Placeholder(st.Account):
			if !Placeholder(a.number) {
				cands = append(cands, a) // an account read from OFX (or named by Inter's CSV)
			}
		case src == sourceCSV || a.sources[sourceCSV] && !a.sources[sourceOFX]:
			// A CSV naming its number, or an OFX statement and an account read from CSV only.
			if d := digits(st.Account); d != "" && d == digits(a.number) {
				id := identity{same: a, rename: src == sourceOFX, note: fmt.Sprintf("o número %s é o mesmo %s %s que a conexão já tem, escrito de outro jeito: "+
					"os lançamentos foram para %s, e cada movimento conta uma vez", st.Account, w.ofThe, a.number, w.it)}
				if id.rename {
					id.newID = fmt.Sprintf(" (o id %s passa a ser %s)", a.key(c), AccountKey(c.Key, st.Account))
				}
				return id, nil
			}
			if src == sourceOFX && Placeholder(a.number) {
				cands = append(cands, a)
			}
		}
	}
	if len(cands) == 0 {
		return identity{}, nil
	}
	moves, err := statementMoves(f, i)
	if err != nil {
		return identity{}, err
	}
	var same, unknown, other []*storedAccount
	evs := map[*storedAccount]evidence{}
	for _, a := range cands {
		ev, err := s.evidence(ctx, tx, a.id, moves)
		if err != nil {
			return identity{}, err
		}
		evs[a] = ev
		switch {
		case ev.sameAccount():
			same = append(same, a)
		case ev.overlap == 0:
			if banks.ByCode(a.bankID) == banks.ByCode(st.BankID) {
				unknown = append(unknown, a)
			}
		default:
			other = append(other, a)
		}
	}
	pick := same
	if len(pick) == 0 && !doubtful {
		pick = unknown
	}
	switch {
	case len(pick) == 1:
		a := pick[0]
		common := fmt.Sprintf("%d de %d movimentos em comum", evs[a].shared, evs[a].overlap)
		if evs[a].overlap == 0 {
			common = "nenhum dia em comum; é " + w.only + " desse tipo na conexão"
		}
		if src == sourceOFX {
			return identity{same: a, rename: true, note: fmt.Sprintf("o extrato é %s que os arquivos CSV desta conexão já trouxeram (%s): %s continua %s, "+
				"agora com o número que o extrato informa, e cada movimento conta uma vez", w.same, common, w.it, w.one),
				newID: fmt.Sprintf(" (o id %s passa a ser %s)", a.key(c), AccountKey(c.Key, st.Account))}, nil
		}
		return identity{same: a, note: fmt.Sprintf("o arquivo não diz de que %s é; os lançamentos foram para %s que a conexão já tem (id %s; %s), "+
			"e cada movimento conta uma vez", w.bare, w.the, a.key(c), common)}, nil
	case len(pick) > 1:
		var ids []string
		for _, a := range pick {
			ids = append(ids, a.key(c))
		}
		return identity{refusal: fmt.Sprintf("o arquivo não diz de que %s é, e a conexão tem %d %s que podem ser %s (%s): importe o extrato em OFX, "+
			"que diz o número da conta, ou separe as contas em conexões diferentes, uma pasta para cada", w.bare, len(pick), w.plural, w.its, strings.Join(ids, ", "))}, nil
	}
	if len(other) > 0 {
		a := other[0]
		return identity{note: fmt.Sprintf("o arquivo não tem movimentos em comum com %s %s no mesmo período (%d de %d): foi importado como %s. "+
			"Se é %s, confira as datas e os valores nos dois arquivos", w.the, a.key(c), evs[a].shared, evs[a].overlap, w.another, w.sameNoun)}, nil
	}
	return identity{}, nil
}

// noteWords are the words the notes use for a bank account or a card.
type noteWords struct {
	bare, the, ofThe, same, sameNoun, it, its, one, only, another, plural string
}

func wordsOf(kind string) noteWords {
	if kind == string(ofx.CreditCard) {
		return noteWords{bare: "cartão", the: "o cartão", ofThe: "do cartão", same: "do mesmo cartão", sameNoun: "o mesmo cartão", it: "ele",
			its: "o dele", one: "um cartão só", only: "o único cartão", another: "outro cartão", plural: "cartões"}
	}
	return noteWords{bare: "conta", the: "a conta", ofThe: "da conta", same: "da mesma conta", sameNoun: "a mesma conta", it: "ela",
		its: "a dele", one: "uma conta só", only: "a única conta", another: "outra conta", plural: "contas"}
}

// move is a transaction as identify and crossFormat compare them across formats: day, amount,
// currency and the bank's id, when it gives one.
type move struct {
	day      string
	amount   int64
	currency string
	fitid    string
}

type moveKey struct {
	day      string
	amount   int64
	currency string
}

func (m move) key() moveKey { return moveKey{m.day, m.amount, m.currency} }

// statementMoves reads the moves of statement i of f, in order.
func statementMoves(f parsedFile, i int) ([]move, error) {
	out := make([]move, 0, f.count(i))
	err := f.transactions(i, func(t *ofx.Transaction) error {
		out = append(out, move{day: t.Posted.Day, amount: t.Amount, currency: t.Currency, fitid: strings.Clone(t.FITID)})
		return nil
	})
	return out, err
}

// pairing pairs the moves of a with those of b, each of b's at most once: first those with the
// same bank id (and amount), then by day, amount and currency. Formats write descriptions
// differently (Nubank's CSV title is its OFX MEMO) and need not share ids, so neither is
// required to match; two moves of one day and amount are interchangeable for every total, and
// two statements of one account list the same movements of a day. It returns, for each move of
// a, the index of its pair in b or -1.
func pairing(a, b []move) []int {
	used := make([]bool, len(b))
	out := make([]int, len(a))
	byFITID := map[string][]int{}
	byKey := map[moveKey][]int{}
	for j, m := range b {
		if m.fitid != "" {
			byFITID[m.fitid] = append(byFITID[m.fitid], j)
		}
		byKey[m.key()] = append(byKey[m.key()], j)
	}
	for i, m := range a {
		out[i] = -1
		if m.fitid == "" {
			continue
		}
		for _, j := range byFITID[m.fitid] {
			if !used[j] && b[j].amount == m.amount && b[j].currency == m.currency {
				used[j], out[i] = true, j
				break
			}
		}
	}
	for i, m := range a {
		if out[i] >= 0 {
			continue
		}
		for _, j := range byKey[m.key()] {
			if !used[j] {
				used[j], out[i] = true, j
				break
			}
		}
	}
	return out
}

// pairs counts the moves of a that pairing pairs with one of b.
func pairs(a, b []move) int {
	n := 0
	for _, j := range pairing(a, b) {
		if j >= 0 {
			n++
		}
	}
	return n
}

// evidence weighs moves against the account's: the account's covered days are its statements'
// periods (or, without any, the days from its first to its last transaction).
func (s *Store) evidence(ctx context.Context, tx *sql.Tx, accountID int64, moves []move) (evidence, error) {
	var periods [][2]string
	rows, err := tx.QueryContext(ctx, s.q("SELECT start_day, end_day FROM cad_statements WHERE account_id = ? AND start_day IS NOT NULL"), accountID)
	if err != nil {
		return evidence{}, fmt.Errorf("reading statement periods: %w", err)
	}
	for rows.Next() {
		var p [2]string
		if err := rows.Scan(&p[0], &p[1]); err != nil {
			rows.Close()
			return evidence{}, fmt.Errorf("reading statement periods: %w", err)
		}
		periods = append(periods, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return evidence{}, fmt.Errorf("reading statement periods: %w", err)
	}
	if len(periods) == 0 {
		var first, last sql.NullString
		if err := tx.QueryRowContext(ctx, s.q("SELECT MIN(posted_day), MAX(posted_day) FROM cad_transactions WHERE account_id = ?"), accountID).
			Scan(&first, &last); err != nil {
			return evidence{}, fmt.Errorf("reading transaction days: %w", err)
		}
		if first.Valid {
			periods = append(periods, [2]string{first.String, last.String})
		}
	}
	covered := Merge(periods)
	var in []move
	from, to := "", ""
	for _, m := range moves {
		for _, p := range covered {
			if m.day >= p.From && m.day <= p.To {
				in = append(in, m)
				if from == "" || m.day < from {
					from = m.day
				}
				to = max(to, m.day)
				break
			}
		}
	}
	if len(in) == 0 {
		return evidence{}, nil
	}
	stored, err := s.accountMoves(ctx, tx, accountID, from, to, nil)
	if err != nil {
		return evidence{}, err
	}
	return evidence{overlap: len(in), shared: pairs(in, stored)}, nil
}

// accountMoves reads the account's transactions from day from to day to (all when both are "");
// src, when not nil, receives the source of each.
func (s *Store) accountMoves(ctx context.Context, tx *sql.Tx, accountID int64, from, to string, src *[]string) ([]move, error) {
	q := `SELECT t.posted_day, t.amount_minor, t.currency, t.fitid, f.path FROM cad_transactions t
		JOIN cad_statements st ON st.id = t.statement_id JOIN cad_files f ON f.id = st.file_id WHERE t.account_id = ?`
	args := []any{accountID}
	if from != "" {
		q += " AND t.posted_day >= ? AND t.posted_day <= ?"
		args = append(args, from, to)
	}
	rows, err := tx.QueryContext(ctx, s.q(q+" ORDER BY t.posted_day, t.id"), args...)
	if err != nil {
		return nil, fmt.Errorf("reading imported transactions: %w", err)
	}
	defer rows.Close()
	var out []move
	for rows.Next() {
		var m move
		var path string
		if err := rows.Scan(&m.day, &m.amount, &m.currency, &m.fitid, &path); err != nil {
			return nil, fmt.Errorf("reading imported transactions: %w", err)
		}
		out = append(out, m)
		if src != nil {
			*src = append(*src, sourceOf(path))
		}
	}
	return out, rows.Err()
}

// renameAccount gives a an OFX statement's number (and type, bank and branch): the account a CSV
// export made without a number is the one the OFX names. What names the account by its id (the
// user's edits and manual records) follows, unless an edit with the new id is already there.
func (s *Store) renameAccount(ctx context.Context, tx *sql.Tx, c Connection, a *account, st ofx.Statement) error {
	oldKey, newKey := AccountKey(c.Key, a.number), AccountKey(c.Key, st.Account)
	if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_accounts SET acct_number = ?, acct_type = ?, bank_id = ?, branch_id = ? WHERE id = ?"),
		st.Account, st.Type, st.BankID, st.BranchID, a.id); err != nil {
		return fmt.Errorf("renaming account: %w", err)
	}
	if err := s.moveAccountKey(ctx, tx, oldKey, newKey); err != nil {
		return err
	}
	a.number, a.renamed = st.Account, true
	return nil
}

// moveAccountKey makes the edits and manual records of account oldKey name newKey: every edit
// but one whose transaction already has an edit under newKey (kept under oldKey, and listed
// among the edits whose transaction the bank no longer lists).
func (s *Store) moveAccountKey(ctx context.Context, tx *sql.Tx, oldKey, newKey string) error {
	if _, err := tx.ExecContext(ctx, s.q(`UPDATE cad_edits SET account_key = ? WHERE account_key = ?
		AND NOT EXISTS (SELECT 1 FROM cad_edits e2 WHERE e2.account_key = ? AND e2.dedupe_key = cad_edits.dedupe_key)`), newKey, oldKey, newKey); err != nil {
		return fmt.Errorf("moving edits to %s: %w", newKey, err)
	}
	if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_records SET account_key = ? WHERE account_key = ?"), newKey, oldKey); err != nil {
		return fmt.Errorf("moving records to %s: %w", newKey, err)
	}
	// A rule limited to the account follows it.
	if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_rules SET account_key = ? WHERE account_key = ?"), newKey, oldKey); err != nil {
		return fmt.Errorf("moving rules to %s: %w", newKey, err)
	}
	return nil
}
