package cadstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb/sqldbtest"
)

var ctx = context.Background()

// setup copies the demo installation to a temporary folder and registers it in a fresh database.
func setup(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	if err := demo.CopyCaderninho(dir); err != nil {
		t.Fatal(err)
	}
	s := open(t)
	register(t, s, dir)
	return s, dir
}

// open is the store of a fresh migrated database, closed when the test ends (what cadstoretest.Open
// gives other packages' tests).
func open(t *testing.T) *Store {
	t.Helper()
	s, err := Open(ctx, sqldbtest.DSN(t, "caderninho.db"))
	if err != nil {
		t.Fatalf("opening the test database: %v", err)
	}
	t.Cleanup(func() { s.DB().Close() })
	return s
}

func register(t *testing.T, s *Store, dir string) RegisterSummary {
	t.Helper()
	inst, err := installation.Load(os.DirFS(dir), "installation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := s.Register(ctx, inst, dir)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func importAll(t *testing.T, s *Store) map[string]Outcome {
	t.Helper()
	outs, err := s.ImportConnections(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]Outcome{}
	for _, o := range outs {
		m[o.Connection] = o
	}
	return m
}

// accountFacts reads count and sum per account straight from the tables.
func accountFacts(t *testing.T, s *Store) map[string]string {
	t.Helper()
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT c.connection_key, a.acct_number, COUNT(t.id), COALESCE(SUM(t.amount_minor), 0)
		FROM cad_accounts a JOIN cad_connections c ON c.id = a.connection_id
		LEFT JOIN cad_transactions t ON t.account_id = a.id
		GROUP BY c.connection_key, a.acct_number`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var conn, acct string
		var n, sum int64
		if err := rows.Scan(&conn, &acct, &n, &sum); err != nil {
			t.Fatal(err)
		}
		out[conn+":"+acct] = fmt.Sprintf("%d %d", n, sum)
	}
	return out
}

func revisions(t *testing.T, s *Store) map[string]int64 {
	t.Helper()
	m, err := keyIDs(ctx, s.db.SQL(), "SELECT space_key, revision FROM cad_spaces")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// demoFacts are the unique transactions per account (by account and FITID) and their sum in
// cents, computed with Python over the statement files:
//
//	acc.setdefault(ACCTID, {})[FITID] = Decimal(TRNAMT.replace(',', '.')); len(m), sum(m.values())*100
var demoFacts = map[string]string{
	"aurora-atelie:77001-2":       "72 699715",
	"aurora-atelie:77001-9":       "12 71840",
	"aurora-marina:12345-6":       "132 -823590",
	"ipe-rafael:5502********7788": "81 -391531",
	"sabia-rafael:90022-1":        "14 43473",
}

func TestImportDemo(t *testing.T) {
	s, dir := setup(t)
	if got := revisions(t, s); !cmp.Equal(got, map[string]int64{"casa": 1, "atelie": 1}) {
		t.Errorf("revisions after registration: %v", got)
	}
	outs := importAll(t, s)
	want := map[string]Outcome{
		"aurora-atelie": {Connection: "aurora-atelie", Space: "atelie", Status: StatusImported, NewFiles: 6, NewTransactions: 84, NewAccounts: 2, RevisionBumped: true},
		// 44 + 54 + 47 listed, 13 repeated by the 3-day overlaps.
		"aurora-marina": {Connection: "aurora-marina", Space: "casa", Status: StatusImported, NewFiles: 3, NewTransactions: 132, Duplicates: 13, NewAccounts: 1, RevisionBumped: true},
		"ipe-rafael":    {Connection: "ipe-rafael", Space: "casa", Status: StatusImported, NewFiles: 3, NewTransactions: 81, NewAccounts: 1, RevisionBumped: true},
		"sabia-rafael":  {Connection: "sabia-rafael", Space: "casa", Status: StatusImported, NewFiles: 2, NewTransactions: 14, NewAccounts: 1, RevisionBumped: true},
	}
	if d := cmp.Diff(want, outs); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	if d := cmp.Diff(demoFacts, accountFacts(t, s)); d != "" {
		t.Errorf("accounts (-want +got):\n%s", d)
	}
	if got := revisions(t, s); !cmp.Equal(got, map[string]int64{"casa": 4, "atelie": 2}) {
		t.Errorf("revisions after import: %v", got)
	}

	// Again: nothing new, no revision moves, last success recorded.
	for _, o := range importAll(t, s) {
		if o.Status != StatusUnchanged || o.NewFiles != 0 || o.RevisionBumped {
			t.Errorf("second import: %+v", o)
		}
	}
	if got := revisions(t, s); !cmp.Equal(got, map[string]int64{"casa": 4, "atelie": 2}) {
		t.Errorf("revisions after a second import: %v", got)
	}

	// November arrives: 12 listed, 2 of them (30 and 31 October) already known.
	copyFile(t, filepath.Join(dir, "next", "aurora-marina", "extrato-2026-11.ofx"), filepath.Join(dir, "ofx", "aurora-marina", "extrato-2026-11.ofx"))
	o := importAll(t, s)["aurora-marina"]
	if o.Status != StatusImported || o.NewFiles != 1 || o.NewTransactions != 10 || o.Duplicates != 2 || !o.RevisionBumped {
		t.Errorf("november: %+v", o)
	}
	if got := accountFacts(t, s)["aurora-marina:12345-6"]; got != "142 -1210096" {
		t.Errorf("aurora-marina after november = %s", got)
	}
	var n int
	if err := s.db.SQL().QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM cad_transactions t JOIN cad_accounts a ON a.id = t.account_id
		WHERE a.acct_number = '12345-6' AND t.posted_day >= '2026-11-01'`)).Scan(&n); err != nil || n != 10 {
		t.Errorf("november transactions = %d, %v", n, err)
	}
	if got := revisions(t, s); !cmp.Equal(got, map[string]int64{"casa": 5, "atelie": 2}) {
		t.Errorf("revisions after november: %v", got)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMalformedFileStopsOnlyItsConnection(t *testing.T) {
	s, dir := setup(t)
	marina := filepath.Join(dir, "ofx", "aurora-marina")
	copyFile(t, filepath.Join(dir, "next", "aurora-marina", "extrato-2026-11.ofx"), filepath.Join(marina, "extrato-2026-11.ofx"))
	b, err := os.ReadFile(filepath.Join(marina, "extrato-2026-10.ofx"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(b), "<TRNAMT>-2400.00", "<TRNAMT>-2.400,0O", 1)
	if err := os.WriteFile(filepath.Join(marina, "extrato-2026-10.ofx"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	outs := importAll(t, s)
	o := outs["aurora-marina"]
	if o.Status != StatusFailed || o.NewTransactions != 0 || o.Error == nil || *o.Error.File != "extrato-2026-10.ofx" || o.Error.Line == nil {
		t.Fatalf("marina: %+v %+v", o, o.Error)
	}
	if got, want := o.Error.String(), `extrato-2026-10.ofx:`; !strings.HasPrefix(got, want) || !strings.Contains(got, `TRNAMT "-2.400,0O" não é um número`) {
		t.Errorf("error = %q", got)
	}
	for _, k := range []string{"aurora-atelie", "ipe-rafael", "sabia-rafael"} {
		if outs[k].Status != StatusImported {
			t.Errorf("%s: %+v", k, outs[k])
		}
	}
	facts := accountFacts(t, s)
	if _, ok := facts["aurora-marina:12345-6"]; ok {
		t.Errorf("marina imported partly: %v", facts)
	}
	var lastErr *string
	var success *string
	if err := s.db.SQL().QueryRowContext(ctx, "SELECT last_error, last_success_at FROM cad_connections WHERE connection_key = 'aurora-marina'").Scan(&lastErr, &success); err != nil {
		t.Fatal(err)
	}
	if lastErr == nil || !strings.Contains(*lastErr, "extrato-2026-10.ofx:") || success != nil {
		t.Errorf("last error %v, last success %v", lastErr, success)
	}
	if got := revisions(t, s)["casa"]; got != 3 { // ipe and sabia changed it
		t.Errorf("casa revision = %d", got)
	}
	// Fixing the file imports everything at once.
	if err := os.WriteFile(filepath.Join(marina, "extrato-2026-10.ofx"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if o := importAll(t, s)["aurora-marina"]; o.Status != StatusImported || o.NewTransactions != 142 || o.NewFiles != 4 {
		t.Errorf("after the fix: %+v", o)
	}
}

func TestCrashMidImportKeepsThePreviousState(t *testing.T) {
	s, dir := setup(t)
	importAll(t, s)
	before := accountFacts(t, s)
	revBefore := revisions(t, s)
	copyFile(t, filepath.Join(dir, "next", "aurora-marina", "extrato-2026-11.ofx"), filepath.Join(dir, "ofx", "aurora-marina", "extrato-2026-11.ofx"))
	crash := errors.New("power cut")
	s.beforeCommit = func(conn string) error {
		if conn == "aurora-marina" {
			return crash
		}
		return nil
	}
	outs, err := s.ImportConnections(ctx, nil)
	if !errors.Is(err, crash) {
		t.Fatalf("err = %v", err)
	}
	if o := outs[1]; o.Connection != "aurora-marina" || o.Status != StatusFailed || o.NewTransactions != 0 {
		t.Errorf("outcome: %+v", o)
	}
	if d := cmp.Diff(before, accountFacts(t, s)); d != "" {
		t.Errorf("data changed (-before +after):\n%s", d)
	}
	if d := cmp.Diff(revBefore, revisions(t, s)); d != "" {
		t.Errorf("revisions changed:\n%s", d)
	}
	s.beforeCommit = nil
	if o := importAll(t, s)["aurora-marina"]; o.NewTransactions != 10 {
		t.Errorf("after recovery: %+v", o)
	}
}

// statement builds a minimal SGML statement for account 1 with the given STMTTRN bodies.
func statement(start, end string, trns ...string) string {
	var b strings.Builder
	b.WriteString("OFXHEADER:100\nDATA:OFXSGML\nENCODING:USASCII\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL\n")
	b.WriteString("<BANKACCTFROM><BANKID>1<ACCTID>1<ACCTTYPE>CHECKING</BANKACCTFROM>\n")
	b.WriteString("<BANKTRANLIST><DTSTART>" + start + "<DTEND>" + end + "\n")
	for _, t := range trns {
		b.WriteString("<STMTTRN>" + t + "</STMTTRN>\n")
	}
	b.WriteString("</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n")
	return b.String()
}

func trn(day, amount, fitid, memo string) string {
	s := "<TRNTYPE>OTHER<DTPOSTED>" + day + "<TRNAMT>" + amount
	if fitid != "" {
		s += "<FITID>" + fitid
	}
	return s + "<MEMO>" + memo + "\n"
}

func TestDedupeWhenTheBankRepeatsOrOmitsFITIDs(t *testing.T) {
	s, dir := setup(t)
	folder := filepath.Join(dir, "ofx", "sabia-rafael")
	for _, f := range []string{"poupanca-2026-08.ofx", "poupanca-2026-09.ofx"} {
		if err := os.Remove(filepath.Join(folder, f)); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(folder, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	count := func() string { return accountFacts(t, s)["sabia-rafael:1"] }
	conn := func() Outcome {
		outs, err := s.ImportConnections(ctx, []string{"sabia-rafael"})
		if err != nil {
			t.Fatal(err)
		}
		return outs[0]
	}
	// The bank numbers FITIDs per day: 1 is used on two days; two equal fees on the 3rd.
	write("a.ofx", statement("20260101", "20260105",
		trn("20260102", "-10.00", "1", "TARIFA"),
		trn("20260103", "-5.00", "1", "PADARIA"),
		trn("20260103", "-2.00", "", "TARIFA"),
		trn("20260103", "-2.00", "", "TARIFA"),
	))
	if o := conn(); o.NewTransactions != 4 || count() != "4 -1900" {
		t.Fatalf("first: %+v, %s", o, count())
	}
	// Overlap: the same four again, one new fee without FITID, and FITID 1 once more on the 6th.
	write("b.ofx", statement("20260103", "20260106",
		trn("20260103", "-5.00", "1", "PADARIA"),
		trn("20260103", "-2.00", "", "TARIFA"),
		trn("20260103", "-2.00", "", "TARIFA"),
		trn("20260103", "-2.00", "", "TARIFA"),
		trn("20260106", "-7.00", "1", "MERCADO"),
	))
	if o := conn(); o.NewTransactions != 2 || o.Duplicates != 3 || count() != "6 -2800" {
		t.Errorf("overlap: %+v, %s", o, count())
	}
	// A later export with FITIDs for the day that had none: the same three fees, not new ones.
	write("c.ofx", statement("20260103", "20260103",
		trn("20260103", "-2.00", "F1", "TARIFA"),
		trn("20260103", "-2.00", "F2", "TARIFA"),
		trn("20260103", "-2.00", "F3", "TARIFA"),
	))
	if o := conn(); o.NewTransactions != 0 || o.Duplicates != 3 || count() != "6 -2800" {
		t.Errorf("fitids later: %+v, %s", o, count())
	}
}

func TestRegisterAgain(t *testing.T) {
	s, dir := setup(t)
	importAll(t, s)
	revs := revisions(t, s)
	// The same file: nothing moves.
	register(t, s, dir)
	if d := cmp.Diff(revs, revisions(t, s)); d != "" {
		t.Errorf("revisions moved:\n%s", d)
	}
	yaml, err := os.ReadFile(filepath.Join(dir, "installation.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// A renamed space gets a new revision; a new assistant replaces the old one.
	changed := strings.Replace(string(yaml), "name: Ateliê", "name: Ateliê da Marina", 1)
	changed = strings.Replace(changed, "{name: Assistente da casa, token: tok-assistente}", "{name: Outro, token: tok-outro-1}", 1)
	if err := os.WriteFile(filepath.Join(dir, "installation.yaml"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	register(t, s, dir)
	if got := revisions(t, s); got["atelie"] != revs["atelie"]+1 || got["casa"] != revs["casa"] {
		t.Errorf("revisions %v, before %v", got, revs)
	}
	if _, err := s.AssistantByToken(ctx, "tok-assistente"); !errors.Is(err, ErrNotFound) {
		t.Errorf("old token still valid: %v", err)
	}
	if a, err := s.AssistantByToken(ctx, "tok-outro-1"); err != nil || a.Name != "Outro" {
		t.Errorf("new token: %v %v", a, err)
	}
	// A connection with imported accounts cannot disappear.
	gone := strings.Replace(changed, "  - {key: sabia-rafael, institution: Banco Sabiá, holder: rafael, space: casa, source: ofx/sabia-rafael}\n", "", 1)
	if err := os.WriteFile(filepath.Join(dir, "installation.yaml"), []byte(gone), 0o644); err != nil {
		t.Fatal(err)
	}
	inst, err := installation.Load(os.DirFS(dir), "installation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Register(ctx, inst, dir); err == nil || !strings.Contains(err.Error(), `a conexão "sabia-rafael" já tem 1 conta importada`) {
		t.Errorf("err = %v", err)
	}
}

func TestConcurrentImportsDoNotDuplicate(t *testing.T) {
	s, _ := setup(t)
	errs := make(chan error, 3)
	for range 3 {
		go func() {
			_, err := s.ImportConnections(ctx, nil)
			errs <- err
		}()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if d := cmp.Diff(demoFacts, accountFacts(t, s)); d != "" {
		t.Errorf("accounts (-want +got):\n%s", d)
	}
	if got := revisions(t, s); !cmp.Equal(got, map[string]int64{"casa": 4, "atelie": 2}) {
		t.Errorf("revisions: %v", got)
	}
}

// TestImportAcrossBatches imports a statement of thousands of transactions (more than one chunk
// of the file read at a time): every transaction is stored once, with its own amount, id and
// key, in order.
func TestImportAcrossBatches(t *testing.T) {
	s, dir := setup(t)
	folder := filepath.Join(dir, "ofx", "sabia-rafael")
	for _, f := range []string{"poupanca-2026-08.ofx", "poupanca-2026-09.ofx"} {
		if err := os.Remove(filepath.Join(folder, f)); err != nil {
			t.Fatal(err)
		}
	}
	n := 2*4096 + 17
	var trns []string
	var want int64
	for i := range n {
		want += int64(i + 1)
		trns = append(trns, trn(fmt.Sprintf("202601%02d", 1+i%28), fmt.Sprintf("%d.%02d", (i+1)/100, (i+1)%100), fmt.Sprintf("F%d", i), "LINHA"))
	}
	if err := os.WriteFile(filepath.Join(folder, "a.ofx"), []byte(statement("20260101", "20260128", trns...)), 0o644); err != nil {
		t.Fatal(err)
	}
	outs, err := s.ImportConnections(ctx, []string{"sabia-rafael"})
	if err != nil {
		t.Fatal(err)
	}
	if outs[0].NewTransactions != n || accountFacts(t, s)["sabia-rafael:1"] != fmt.Sprintf("%d %d", n, want) {
		t.Fatalf("%+v, %s; want %d transactions summing %d", outs[0], accountFacts(t, s)["sabia-rafael:1"], n, want)
	}
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT t.id, t.dedupe_key, t.amount_minor FROM cad_transactions t
		JOIN cad_accounts a ON a.id = t.account_id WHERE a.acct_number = '1' ORDER BY t.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	i := 0
	var first int64
	for rows.Next() {
		var id, amount int64
		var key string
		if err := rows.Scan(&id, &key, &amount); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = id
		}
		if id != first+int64(i) || key != fmt.Sprintf("f:F%d", i) || amount != int64(i+1) {
			t.Fatalf("row %d: id %d (first %d), key %s, amount %d", i, id, first, key, amount)
		}
		i++
	}
	if err := rows.Err(); err != nil || i != n {
		t.Fatalf("%d rows, %v", i, err)
	}
}

// TestAFileIsRefusedWholeAndParseErrorsComeFirst imports a folder whose files are parsed and
// stored one at a time: an error at the end of the last file still refuses everything (the
// earlier files were stored in the same transaction), and it is reported before an account
// conflict of an earlier file, as when every file was parsed before anything was stored.
func TestAFileIsRefusedWholeAndParseErrorsComeFirst(t *testing.T) {
	s, dir := setup(t)
	folder := filepath.Join(dir, "ofx", "sabia-rafael")
	for _, f := range []string{"poupanca-2026-08.ofx", "poupanca-2026-09.ofx"} {
		if err := os.Remove(filepath.Join(folder, f)); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(folder, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var trns []string
	for i := range 50 {
		trns = append(trns, trn("20260105", fmt.Sprint(i+1, ".00"), fmt.Sprint("A", i), "LINHA"))
	}
	write("a.ofx", statement("20260101", "20260131", trns...))
	card := "OFXHEADER:100\n\n<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS><CURDEF>BRL\n<CCACCTFROM><ACCTID>1</CCACCTFROM>\n" +
		"<BANKTRANLIST><DTSTART>20260101<DTEND>20260131\n<STMTTRN>" + trn("20260106", "-5.00", "C1", "CARTAO") + "</STMTTRN>\n" +
		"</BANKTRANLIST></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>\n"
	write("b.ofx", card)
	good := statement("20260201", "20260228", trn("20260205", "7.00", "C9", "FIM"))
	broken := strings.Replace(good, "</BANKTRANLIST>", "</BANKTRANLIST><LEDGERBAL><BALAMT>1,2,3<DTASOF>20260228</LEDGERBAL>", 1)
	write("c.ofx", broken)
	conn := func() Outcome {
		outs, err := s.ImportConnections(ctx, []string{"sabia-rafael"})
		if err != nil {
			t.Fatal(err)
		}
		return outs[0]
	}
	o := conn()
	if o.Status != StatusFailed || o.Error == nil || o.Error.File == nil || *o.Error.File != "c.ofx" || o.Error.Line == nil || *o.Error.Line != 11 ||
		!strings.Contains(o.Error.Message, `BALAMT "1,2,3"`) {
		t.Fatalf("with c.ofx broken: %+v %+v", o, o.Error)
	}
	if facts := accountFacts(t, s); facts["sabia-rafael:1"] != "" {
		t.Fatalf("a.ofx stayed stored: %v", facts)
	}
	write("c.ofx", good)
	if o := conn(); o.Status != StatusFailed || o.Error == nil || *o.Error.File != "b.ofx" || !strings.Contains(o.Error.Message, "já é uma conta bancária") {
		t.Fatalf("with b.ofx a card of the bank account's number: %+v %+v", o, o.Error)
	}
	if facts := accountFacts(t, s); facts["sabia-rafael:1"] != "" {
		t.Fatalf("a.ofx stayed stored: %v", facts)
	}
	if err := os.Remove(filepath.Join(folder, "b.ofx")); err != nil {
		t.Fatal(err)
	}
	if o := conn(); o.Status != StatusImported || o.NewFiles != 2 || o.NewTransactions != 51 {
		t.Fatalf("without b.ofx: %+v %+v", o, o.Error)
	}
}
