package cadstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bankInstallation registers an installation of one person whose connections (key -> institution)
// hold the named files of ../testdata (e.g. "nubank/Nubank_2026-10-15.csv"), in folders
// extratos/<key>.
func bankInstallation(t *testing.T, conns [][2]string, files map[string][]string) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	yaml := "timezone: America/Sao_Paulo\npeople:\n  - {key: ana, name: Ana Lima}\nspaces:\n  - {key: casa, name: Casa, categories: [Mercado]}\nconnections:\n"
	for _, c := range conns {
		yaml += "  - {key: " + c[0] + ", institution: " + c[1] + ", holder: ana, space: casa, source: extratos/" + c[0] + "}\n"
		if err := os.MkdirAll(filepath.Join(dir, "extratos", c[0]), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files[c[0]] {
			place(t, dir, c[0], f)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "installation.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t)
	register(t, s, dir)
	return s, dir
}

// place copies the fixture file (relative to ../testdata) into the connection's folder.
func place(t *testing.T, dir, conn, file string) {
	t.Helper()
	copyFile(t, filepath.Join("..", "testdata", filepath.FromSlash(file)), filepath.Join(dir, "extratos", conn, filepath.Base(file)))
}

func exec(t *testing.T, s *Store, query string, args ...any) {
	t.Helper()
	if _, err := s.db.SQL().ExecContext(ctx, s.q(query), args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// The fixtures' truth, as the account sees it: the card bill due 15/10/2026 (the same 15
// movements in Nubank_2026-10-15.csv and nubank-fatura-2026-10-15.ofx), the next bill's export
// (7 movements from 08/10/2026, CSV only) and the account in October (the same 8 movements in
// NU_98765432_01OUT2026_31OUT2026.csv and .ofx).
const (
	cardOctober  = 55615
	cardNovember = 53834
	accountOct   = 112378
	nubankCard   = "54138aa2-956e-45f5-aaec-ced63235abcc"
)

// TestOneAccountInTwoFormats imports an OFX and a CSV export of one card and one account into one
// connection, in both orders: one account each, each movement once, whatever came first.
func TestOneAccountInTwoFormats(t *testing.T) {
	for _, order := range [][]string{
		{"nubank/Nubank_2026-10-15.csv", "nubank/NU_98765432_01OUT2026_31OUT2026.csv", "nubank/nubank-fatura-2026-10-15.ofx", "nubank/NU_98765432_01OUT2026_31OUT2026.ofx"},
		{"nubank/nubank-fatura-2026-10-15.ofx", "nubank/NU_98765432_01OUT2026_31OUT2026.ofx", "nubank/Nubank_2026-10-15.csv", "nubank/NU_98765432_01OUT2026_31OUT2026.csv"},
	} {
		t.Run(filepath.Ext(order[0]), func(t *testing.T) {
			s, dir := bankInstallation(t, [][2]string{{"nubank", "Nubank"}}, nil)
			for n, f := range order {
				place(t, dir, "nubank", f)
				if n%2 == 1 {
					if o := importAll(t, s)["nubank"]; o.Status == StatusFailed {
						t.Fatalf("import %d: %+v %v", n, o, o.Error)
					}
				}
			}
			want := map[string]string{"nubank:" + nubankCard: "15 55615", "nubank:98765432-1": "8 112378"}
			if d := cmp.Diff(want, accountFacts(t, s)); d != "" {
				t.Errorf("accounts (-want +got):\n%s", d)
			}
			// The next bill's export names no card either: it is the card's, and adds its 7.
			place(t, dir, "nubank", "nubank/Nubank_2026-11-15.csv")
			o := importAll(t, s)["nubank"]
			if o.NewTransactions != 7 || o.NewAccounts != 0 || o.Duplicates != 0 {
				t.Errorf("the next bill: %+v", o)
			}
			if got := accountFacts(t, s)["nubank:"+nubankCard]; got != "22 109449" {
				t.Errorf("card after the next bill: %s", got)
			}
		})
	}
}

// TestExistingDuplicatesAreJoined starts from what imports made before accounts were recognised
// across formats: a card read from its CSV export ("cartao", without a period) and from its OFX
// bill, two accounts with every movement twice, with the user's edits on both. The connection's
// next import, with no new file, joins them: each movement once, every edit kept.
func TestExistingDuplicatesAreJoined(t *testing.T) {
	s, dir := bankInstallation(t, [][2]string{{"nubank", "Nubank"}, {"velha", "Nubank"}}, map[string][]string{
		"nubank": {"nubank/Nubank_2026-10-15.csv", "nubank/Nubank_2026-11-15.csv"},
		"velha":  {"nubank/nubank-fatura-2026-10-15.ofx"},
	})
	importAll(t, s)
	if err := os.Remove(filepath.Join(dir, "extratos", "velha", "nubank-fatura-2026-10-15.ofx")); err != nil {
		t.Fatal(err)
	}
	// The state an earlier import left: the OFX's card in the same connection, the CSV
	// statements without a period.
	exec(t, s, "UPDATE cad_accounts SET connection_id = (SELECT id FROM cad_connections WHERE connection_key = 'nubank') WHERE acct_number = ?", nubankCard)
	exec(t, s, "UPDATE cad_files SET connection_id = (SELECT id FROM cad_connections WHERE connection_key = 'nubank')")
	exec(t, s, "UPDATE cad_statements SET start_day = NULL, end_day = NULL WHERE account_id = (SELECT id FROM cad_accounts WHERE acct_number = 'cartao')")
	if got, want := accountFacts(t, s), map[string]string{"nubank:cartao": "22 109449", "nubank:" + nubankCard: "15 55615"}; !cmp.Equal(got, want) {
		t.Fatalf("the duplicated state: %v", got)
	}
	// Edits: a repeated movement edited on the CSV's card (its edit goes to the movement that
	// stays), one edited on both (the OFX's edit stays; the CSV's is kept apart), one only in
	// the CSV (moves with it).
	key := func(acct, title string) string {
		var k string
		if err := s.db.SQL().QueryRowContext(ctx, s.q(`SELECT t.dedupe_key FROM cad_transactions t JOIN cad_accounts a ON a.id = t.account_id
			WHERE a.acct_number = ? AND (t.name = ? OR t.memo = ?)`), acct, title, title).Scan(&k); err != nil {
			t.Fatalf("%s %s: %v", acct, title, err)
		}
		return k
	}
	edit := func(acct, dedupe, category string) {
		exec(t, s, "INSERT INTO cad_edits (account_key, dedupe_key, space_key, category, updated_at) VALUES (?, ?, 'casa', ?, '2026-12-01T00:00:00Z')",
			AccountKey("nubank", acct), dedupe, category)
	}
	edit("cartao", key("cartao", "Mercado Bom Preço"), "Mercado")
	edit("cartao", key("cartao", "Spotify"), "Assinaturas")
	edit(nubankCard, key(nubankCard, "Spotify"), "Lazer")
	edit("cartao", key("cartao", "Drogasil"), "Saúde")
	before := revisions(t, s)["casa"]

	o := importAll(t, s)["nubank"]
	if o.Status != StatusImported || !o.RevisionBumped || o.NewFiles != 0 {
		t.Fatalf("reconciling import: %+v", o)
	}
	var msgs []string
	for _, w := range o.Warnings {
		msgs = append(msgs, w.String())
	}
	for _, want := range []string{
		"Nubank_2026-10-15.csv: o arquivo, importado antes sem período, passa a cobrir os dias dos seus lançamentos: de 08/09/2026 a 07/10/2026",
		"Nubank_2026-11-15.csv: o arquivo, importado antes sem período, passa a cobrir os dias dos seus lançamentos: de 08/10/2026 a 04/11/2026",
		"os arquivos CSV e OFX desta conexão tinham virado duas contas para o mesmo cartão (ids nubank:cartao e nubank:" + nubankCard +
			"; 15 movimentos repetidos): agora são um cartão só, nubank:" + nubankCard + ", cada movimento conta uma vez e as edições foram mantidas",
	} {
		if !strings.Contains(strings.Join(msgs, "\n"), want) {
			t.Errorf("the outcome does not say %q:\n%s", want, strings.Join(msgs, "\n"))
		}
	}
	if got := accountFacts(t, s); !cmp.Equal(got, map[string]string{"nubank:" + nubankCard: "22 109449"}) {
		t.Errorf("joined: %v", got)
	}
	if got := revisions(t, s)["casa"]; got != before+1 {
		t.Errorf("revision %d, want %d", got, before+1)
	}
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT e.account_key, e.category, COALESCE(t.name, ''), COALESCE(t.memo, '') FROM cad_edits e
		LEFT JOIN cad_accounts a ON e.account_key = 'nubank:' || a.acct_number
		LEFT JOIN cad_transactions t ON t.account_id = a.id AND t.dedupe_key = e.dedupe_key ORDER BY e.category`)
	if err != nil {
		t.Fatal(err)
	}
	var edits []string
	for rows.Next() {
		var acct, cat, name, memo string
		if err := rows.Scan(&acct, &cat, &name, &memo); err != nil {
			t.Fatal(err)
		}
		edits = append(edits, acct+" "+cat+" "+name+memo)
	}
	rows.Close()
	wantEdits := []string{
		// its movement is the OFX's, edited already: kept on the card, listed as an edit whose
		// transaction the bank no longer lists
		"nubank:" + nubankCard + " Assinaturas ",
		"nubank:" + nubankCard + " Lazer Spotify",
		"nubank:" + nubankCard + " Mercado Mercado Bom Preço",
		"nubank:" + nubankCard + " Saúde Drogasil",
	}
	if d := cmp.Diff(wantEdits, edits); d != "" {
		t.Errorf("edits (-want +got):\n%s", d)
	}
	var periods int
	if err := s.db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM cad_statements WHERE start_day IS NULL").Scan(&periods); err != nil || periods != 0 {
		t.Errorf("statements without a period: %d %v", periods, err)
	}
	// Nothing left to set right: the next import changes nothing.
	if o := importAll(t, s)["nubank"]; o.Status != StatusUnchanged || len(o.Warnings) != 0 {
		t.Errorf("the import after: %+v", o)
	}
}

// TestFileOfAnotherBank refuses a file whose format or sign-on names another bank than the
// connection's institution, and warns when the institution names no bank caderninho knows.
func TestFileOfAnotherBank(t *testing.T) {
	s, dir := bankInstallation(t, [][2]string{{"inter", "Banco Inter"}, {"itau", "Itaú Unibanco"}, {"roxo", "Roxinho"}}, map[string][]string{
		"inter": {"nubank/nubank-fatura-2026-10-15.ofx"},
		"itau":  {"nubank/NU_98765432_01OUT2026_31OUT2026.ofx"},
		"roxo":  {"nubank/Nubank_2026-10-15.csv"},
	})
	outs := importAll(t, s)
	for conn, want := range map[string]string{
		"inter": `nubank-fatura-2026-10-15.ofx: o arquivo é do Nubank (FI/ORG "NU PAGAMENTOS S.A." no arquivo), mas a conexão inter é do Banco Inter (instituição "Banco Inter")`,
		"itau":  `NU_98765432_01OUT2026_31OUT2026.ofx: o arquivo é do Nubank (BANKID 0260 no arquivo), mas a conexão itau é do Itaú (instituição "Itaú Unibanco")`,
	} {
		o := outs[conn]
		if o.Status != StatusFailed || o.Error == nil || !strings.HasPrefix(o.Error.String(), want) {
			t.Errorf("%s: %+v %v, want %q", conn, o, o.Error, want)
		}
	}
	o := outs["roxo"]
	if o.Status != StatusImported || len(o.Warnings) != 2 || !strings.Contains(o.Warnings[0].Message,
		`o arquivo é do Nubank (formato nubank-cartao: Nubank, fatura do cartão), e a instituição da conexão roxo, "Roxinho", não é o nome de um banco que o caderninho conheça`) {
		t.Errorf("roxo: %+v", o)
	}
	if got := accountFacts(t, s); !cmp.Equal(got, map[string]string{"roxo:cartao": "15 55615"}) {
		t.Errorf("accounts: %v", got)
	}
	// Its files are Nubank's: another bank's file is refused there too.
	place(t, dir, "roxo", "inter/Extrato-01-10-2026-a-31-10-2026.csv")
	o = importAll(t, s)["roxo"]
	if want := `o arquivo é do Banco Inter (formato inter-conta: Banco Inter, extrato da conta corrente), mas a conexão roxo já tem extratos do Nubank (a instituição "Roxinho" não diz de que banco ela é)`; o.Error == nil || !strings.HasPrefix(o.Error.Message, want) {
		t.Errorf("an Inter file among Nubank's: %+v %v", o, o.Error)
	}
}

// TestCSVOfWhichAccount sends a CSV that names no account to the account of its kind it shares
// movements with, and refuses it when several could be it.
func TestCSVOfWhichAccount(t *testing.T) {
	checking := func(acct, from, to string, moves ...string) string {
		var b strings.Builder
		b.WriteString("OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL\n")
		b.WriteString("<BANKACCTFROM><BANKID>0260<BRANCHID>1<ACCTID>" + acct + "<ACCTTYPE>CHECKING</BANKACCTFROM>\n")
		b.WriteString("<BANKTRANLIST><DTSTART>" + from + "<DTEND>" + to + "\n")
		for i, m := range moves {
			day, amt, _ := strings.Cut(m, " ")
			b.WriteString("<STMTTRN><TRNTYPE>OTHER<DTPOSTED>" + day + "<TRNAMT>" + amt + "<FITID>" + acct + "-" + string(rune('a'+i)) + "<MEMO>x</STMTTRN>\n")
		}
		b.WriteString("</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n")
		return b.String()
	}
	s, dir := bankInstallation(t, [][2]string{{"nubank", "Nubank"}}, nil)
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, "extratos", "nubank", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.ofx", checking("1111-1", "20261001", "20261010", "20261002 -89.90", "20261005 -1200.00"))
	write("b.ofx", checking("2222-2", "20261001", "20261010", "20261003 -10.00"))
	importAll(t, s)
	// No day in common with either: it could be both.
	write("nu.csv", "Data,Valor,Identificador,Descrição\n20/10/2026,-30.00,id-1,Farmácia\n")
	o := importAll(t, s)["nubank"]
	if want := "nu.csv:1: o arquivo não diz de que conta é, e a conexão tem 2 contas que podem ser a dele (nubank:1111-1, nubank:2222-2)"; o.Error == nil || !strings.HasPrefix(o.Error.String(), want) {
		t.Fatalf("ambiguous: %+v %v", o, o.Error)
	}
	// Movements in common with one: it is that one's.
	write("nu.csv", "Data,Valor,Identificador,Descrição\n02/10/2026,-89.90,id-2,Compra no débito - Supermercado Exemplo\n"+
		"05/10/2026,-1200.00,id-3,Transferência enviada pelo Pix\n20/10/2026,-30.00,id-1,Farmácia\n")
	o = importAll(t, s)["nubank"]
	if o.Status != StatusImported || o.NewTransactions != 1 || o.Duplicates != 2 || o.NewAccounts != 0 {
		t.Fatalf("shared: %+v %v", o, o.Error)
	}
	if got := accountFacts(t, s)["nubank:1111-1"]; got != "3 -131990" {
		t.Errorf("nubank:1111-1: %s", got)
	}
}

func TestPairing(t *testing.T) {
	m := func(day string, amount int64, fitid string) move {
		return move{day: day, amount: amount, currency: "BRL", fitid: fitid}
	}
	for _, c := range []struct {
		name string
		a, b []move
		want []int
	}{
		{"the same bank id", []move{m("2026-10-01", -100, "x")}, []move{m("2026-10-02", -500, "y"), m("2026-10-02", -100, "x")}, []int{1}},
		{"day and amount, counting repeats", []move{m("2026-10-01", -700, ""), m("2026-10-01", -700, ""), m("2026-10-01", -700, "")},
			[]move{m("2026-10-01", -700, "f1"), m("2026-10-01", -700, "f2")}, []int{0, 1, -1}},
		{"the same bank id first", []move{m("2026-10-01", -100, "a"), m("2026-10-01", -100, "x")},
			[]move{m("2026-10-01", -100, "x"), m("2026-10-01", -100, "y")}, []int{1, 0}},
		{"another day or amount", []move{m("2026-10-01", -100, ""), m("2026-10-02", -101, "")}, []move{m("2026-10-02", -100, ""), m("2026-10-02", 101, "")}, []int{-1, -1}},
	} {
		if got := pairing(c.a, c.b); !cmp.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestNumberWrittenTwoWays takes Inter's OFX of the account its CSV named (12345678 in the CSV's
// "Conta" line, 1234567-8 in the OFX): one account, with the OFX's number, each movement once.
func TestNumberWrittenTwoWays(t *testing.T) {
	s, dir := bankInstallation(t, [][2]string{{"inter", "Banco Inter"}}, map[string][]string{"inter": {"inter/Extrato-01-10-2026-a-31-10-2026.csv"}})
	importAll(t, s)
	ofx := "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20261101" +
		"<LANGUAGE>POR<FI><ORG>Banco Inter S.A.<FID>077</FI></SONRS></SIGNONMSGSRSV1><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL\n" +
		"<BANKACCTFROM><BANKID>077<BRANCHID>0001<ACCTID>1234567-8<ACCTTYPE>CHECKING</BANKACCTFROM>\n<BANKTRANLIST><DTSTART>20261001<DTEND>20261031\n" +
		"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261002<TRNAMT>-150.00<FITID>1<MEMO>PIX ENVIADO Maria Silva</STMTTRN>\n" +
		"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261015<TRNAMT>-15.44<FITID>2<MEMO>COMPRA NO DEBITO PADARIA</STMTTRN>\n" +
		"<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20261015<TRNAMT>2000.00<FITID>3<MEMO>PIX RECEBIDO Empresa Exemplo</STMTTRN>\n" +
		"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261028<TRNAMT>-1050.00<FITID>4<MEMO>PAGAMENTO EFETUADO CONDOMINIO EXEMPLO</STMTTRN>\n" +
		"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261030<TRNAMT>-150.00<FITID>5<MEMO>PIX ENVIADO Maria Silva</STMTTRN>\n" +
		"</BANKTRANLIST><LEDGERBAL><BALAMT>1234.56<DTASOF>20261031</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
	if err := os.WriteFile(filepath.Join(dir, "extratos", "inter", "extrato.ofx"), []byte(ofx), 0o644); err != nil {
		t.Fatal(err)
	}
	o := importAll(t, s)["inter"]
	if o.NewTransactions != 0 || o.Duplicates != 5 || len(o.Warnings) != 1 ||
		o.Warnings[0].Message != "o número 1234567-8 é o mesmo da conta 12345678 que a conexão já tem, escrito de outro jeito: os lançamentos foram para ela, "+
			"e cada movimento conta uma vez (o id inter:12345678 passa a ser inter:1234567-8)" {
		t.Errorf("the OFX: %+v", o)
	}
	if got := accountFacts(t, s); !cmp.Equal(got, map[string]string{"inter:1234567-8": "5 63456"}) {
		t.Errorf("accounts: %v", got)
	}
}

// TestOtherMovementsOtherAccount keeps a CSV whose movements on the days the account covers are
// none of the account's apart, and says so.
func TestOtherMovementsOtherAccount(t *testing.T) {
	s, dir := bankInstallation(t, [][2]string{{"nubank", "Nubank"}}, map[string][]string{"nubank": {"nubank/NU_98765432_01OUT2026_31OUT2026.ofx"}})
	importAll(t, s)
	csv := "Data,Valor,Identificador,Descrição\n03/10/2026,-12.00,id-1,Padaria\n04/10/2026,-40.00,id-2,Farmácia\n"
	if err := os.WriteFile(filepath.Join(dir, "extratos", "nubank", "NU_outra.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	o := importAll(t, s)["nubank"]
	want := "o arquivo não tem movimentos em comum com a conta nubank:98765432-1 no mesmo período (0 de 2): foi importado como outra conta. " +
		"Se é a mesma conta, confira as datas e os valores nos dois arquivos"
	if o.NewAccounts != 1 || o.NewTransactions != 2 || len(o.Warnings) != 1 || o.Warnings[0].Message != want {
		t.Errorf("outcome: %+v", o)
	}
}
