package ofx

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
)

// TestFixtureStatements checks every demo statement against figures computed independently with
// Python over the files (decoded as cp1252; amounts summed as Decimal, times 100):
//
//	re.findall(r'<STMTTRN>(.*?)</STMTTRN>', text, re.S); sum(Decimal(TRNAMT.replace(',', '.')))
func TestFixtureStatements(t *testing.T) {
	tests := []struct {
		file             string
		count            int
		sum, balance     int64
		start, end, asOf string
	}{
		{"ofx/aurora-atelie/extrato-brl-2026-08.ofx", 24, 235480, 1572650, "2026-08-01", "2026-08-31", "2026-08-31"},
		{"ofx/aurora-atelie/extrato-brl-2026-09.ofx", 24, 419282, 1537735, "2026-09-01", "2026-09-30", "2026-09-30"},
		{"ofx/aurora-atelie/extrato-brl-2026-10.ofx", 24, 44953, 1558654, "2026-10-01", "2026-10-31", "2026-10-31"},
		{"ofx/aurora-atelie/extrato-usd-2026-08.ofx", 4, 78151, 254967, "2026-08-01", "2026-08-31", "2026-08-31"},
		{"ofx/aurora-atelie/extrato-usd-2026-09.ofx", 4, -46707, 255740, "2026-09-01", "2026-09-30", "2026-09-30"},
		{"ofx/aurora-atelie/extrato-usd-2026-10.ofx", 4, 40396, 259084, "2026-10-01", "2026-10-31", "2026-10-31"},
		{"ofx/aurora-marina/extrato-2026-08.ofx", 44, 605753, 1118098, "2026-08-01", "2026-08-31", "2026-08-31"},
		{"ofx/aurora-marina/extrato-2026-09.ofx", 54, 652915, 1042626, "2026-08-29", "2026-09-30", "2026-09-30"},
		{"ofx/aurora-marina/extrato-2026-10.ofx", 47, -1703657, -311245, "2026-09-28", "2026-10-31", "2026-10-31"},
		{"ofx/ipe-rafael/fatura-2026-08.ofx", 27, -208230, 423264, "2026-08-01", "2026-08-31", "2026-08-31"},
		{"ofx/ipe-rafael/fatura-2026-09.ofx", 27, -117268, 333302, "2026-09-01", "2026-09-30", "2026-09-30"},
		{"ofx/ipe-rafael/fatura-2026-10.ofx", 27, -66033, 283067, "2026-10-01", "2026-10-31", "2026-10-31"},
		{"ofx/sabia-rafael/poupanca-2026-08.ofx", 7, -9958, 3300000, "2026-08-01", "2026-08-31", "2026-08-31"},
		{"ofx/sabia-rafael/poupanca-2026-09.ofx", 7, 53431, 3300000, "2026-09-01", "2026-09-30", "2026-09-30"},
		{"next/aurora-marina/extrato-2026-11.ofx", 12, -392399, -311245, "2026-10-29", "2026-11-06", "2026-11-06"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := fs.ReadFile(demo.Caderninho, tt.file)
			if err != nil {
				t.Fatal(err)
			}
			sts, err := Parse(b)
			if err != nil {
				t.Fatal(err)
			}
			if len(sts) != 1 {
				t.Fatalf("%d statements", len(sts))
			}
			st := sts[0]
			var sum int64
			for _, tr := range st.Transactions {
				sum += tr.Amount
				if tr.FITID == "" || tr.Posted.Day == "" || tr.Currency != st.Currency {
					t.Errorf("transaction at line %d: %+v", tr.Line, tr)
				}
			}
			got := []any{len(st.Transactions), sum, st.Ledger.Amount, st.Start, st.End, st.Ledger.AsOf.Day, st.HasPeriod}
			want := []any{tt.count, tt.sum, tt.balance, tt.start, tt.end, tt.asOf, true}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestFixtureDetails(t *testing.T) {
	parse := func(file string) Statement {
		b, err := fs.ReadFile(demo.Caderninho, file)
		if err != nil {
			t.Fatal(err)
		}
		sts, err := Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		return sts[0]
	}
	aurora := parse("ofx/aurora-marina/extrato-2026-08.ofx")
	if got := aurora.Transactions[1].Memo; got != "RENDIMENTO POUPANÇA" {
		t.Errorf("CHARSET 1252 memo = %q", got)
	}
	if got := aurora.Transactions[12].Memo; got != "COMPRA CARTÃO DÉBITO - MERCADO SÃO JOSÉ" {
		t.Errorf("CHARSET 1252 memo = %q", got)
	}
	first := aurora.Transactions[0]
	if want := time.Date(2026, 8, 2, 11, 20, 0, 0, time.FixedZone("BRT", -3*3600)); !first.Posted.Instant.Equal(want) || first.Posted.Day != "2026-08-02" {
		t.Errorf("posted = %+v, want %v", first.Posted, want)
	}
	if aurora.Kind != Bank || aurora.Account != "12345-6" || aurora.BankID != "0999" || aurora.Type != "CHECKING" || aurora.Currency != "BRL" {
		t.Errorf("account: %+v", aurora)
	}
	ipe := parse("ofx/ipe-rafael/fatura-2026-08.ofx")
	if ipe.Kind != CreditCard || ipe.Account != "5502********7788" || ipe.Type != "CREDITCARD" {
		t.Errorf("card: %+v", ipe)
	}
	if got := ipe.Transactions[1].Memo; got != "CINEMA ESPAÇO ITAÚ" {
		t.Errorf("UTF-8 memo = %q", got)
	}
	sabia := parse("ofx/sabia-rafael/poupanca-2026-08.ofx")
	if tr := sabia.Transactions[0]; tr.Posted.HasTime || tr.Posted.Day != "2026-08-03" || tr.Amount != -38343 {
		t.Errorf("date-only, comma decimal: %+v", tr)
	}
	if sabia.Type != "SAVINGS" || sabia.Ledger.Amount != 3300000 || sabia.Ledger.AsOf.HasTime {
		t.Errorf("savings: %+v", sabia)
	}
}

// xml2 is an OFX 2.x credit-card statement in Windows-1252 with entities, an empty element and a
// foreign-currency transaction.
var xml2 = "<?xml version=\"1.0\" encoding=\"windows-1252\" standalone=\"no\"?>\n" +
	"<?OFX OFXHEADER=\"200\" VERSION=\"220\" SECURITY=\"NONE\" OLDFILEUID=\"NONE\" NEWFILEUID=\"NONE\"?>\n" +
	"<OFX>\n" +
	"  <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS><DTSERVER>20261105120000.000[-3:BRT]</DTSERVER><LANGUAGE>POR</LANGUAGE></SONRS></SIGNONMSGSRSV1>\n" +
	"  <CREDITCARDMSGSRSV1>\n" +
	"    <CCSTMTTRNRS><TRNUID>1</TRNUID><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>\n" +
	"      <CCSTMTRS>\n" +
	"        <CURDEF>BRL</CURDEF>\n" +
	"        <CCACCTFROM><ACCTID>4111********1111</ACCTID></CCACCTFROM>\n" +
	"        <BANKTRANLIST>\n" +
	"          <DTSTART>20261001</DTSTART>\n" +
	"          <DTEND>20261101000000[-3:BRT]</DTEND>\n" +
	"          <STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20261003</DTPOSTED><TRNAMT>-1234,56</TRNAMT><FITID>A1</FITID><NAME>P&amp;G \xc7ALCADOS</NAME><MEMO></MEMO></STMTTRN>\n" +
	"          <STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20261004235900[0:GMT]</DTPOSTED><TRNAMT>-10.5</TRNAMT><FITID>A2</FITID><MEMO>AMAZON &#8212; US</MEMO>\n" +
	"            <CURRENCY><CURRATE>5.1</CURRATE><CURSYM>USD</CURSYM></CURRENCY></STMTTRN>\n" +
	"          <STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>20261010</DTPOSTED><TRNAMT>+50</TRNAMT><MEMO>ESTORNO</MEMO></STMTTRN>\n" +
	"        </BANKTRANLIST>\n" +
	"        <LEDGERBAL><BALAMT>-1184.56</BALAMT><DTASOF>20261031</DTASOF></LEDGERBAL>\n" +
	"      </CCSTMTRS>\n" +
	"    </CCSTMTTRNRS>\n" +
	"  </CREDITCARDMSGSRSV1>\n" +
	"</OFX>\n"

func TestXML(t *testing.T) {
	sts, err := Parse([]byte(xml2))
	if err != nil {
		t.Fatal(err)
	}
	st := sts[0]
	if st.Kind != CreditCard || st.Start != "2026-10-01" || st.End != "2026-10-31" || len(st.Transactions) != 3 {
		t.Fatalf("statement: %+v", st)
	}
	a, b, c := st.Transactions[0], st.Transactions[1], st.Transactions[2]
	if a.Amount != -123456 || a.Name != "P&G ÇALCADOS" || a.Memo != "" || a.Line != 13 {
		t.Errorf("first: %+v", a)
	}
	if b.Currency != "USD" || b.Amount != -1050 || b.Memo != "AMAZON — US" || b.Posted.Day != "2026-10-04" ||
		!b.Posted.Instant.Equal(time.Date(2026, 10, 4, 20, 59, 0, 0, SaoPaulo)) {
		t.Errorf("second: %+v", b)
	}
	if c.FITID != "" || c.Amount != 5000 {
		t.Errorf("third: %+v", c)
	}
	if st.Ledger.Amount != -118456 {
		t.Errorf("ledger: %+v", st.Ledger)
	}
}

func TestParseTime(t *testing.T) {
	tests := []struct {
		in      string
		day     string
		instant string // RFC 3339, "" when no time
	}{
		{"20260803", "2026-08-03", ""},
		{"20260803[-3:BRT]", "2026-08-03", ""},
		{"202608031530", "2026-08-03", "2026-08-03T15:30:00-03:00"},
		{"20260803153045", "2026-08-03", "2026-08-03T15:30:45-03:00"},
		{"20260803153045.123", "2026-08-03", "2026-08-03T15:30:45-03:00"},
		{"20260803153045.123[-03:BRT]", "2026-08-03", "2026-08-03T15:30:45-03:00"},
		{"20260803010000[0:GMT]", "2026-08-03", "2026-08-03T01:00:00Z"},
		{"20260803010000[+5.30:IST]", "2026-08-03", "2026-08-03T01:00:00+05:30"},
		{"20260803010000[5.5]", "2026-08-03", "2026-08-03T01:00:00+05:30"},
		{"20160229", "2016-02-29", ""},
	}
	for _, tt := range tests {
		got, err := ParseTime(tt.in)
		if err != nil {
			t.Errorf("ParseTime(%q): %v", tt.in, err)
			continue
		}
		instant := ""
		if got.HasTime {
			instant = got.Instant.Format(time.RFC3339)
		}
		if got.Day != tt.day || instant != tt.instant {
			t.Errorf("ParseTime(%q) = %s %s, want %s %s", tt.in, got.Day, instant, tt.day, tt.instant)
		}
	}
	for _, bad := range []string{"", "2026", "20261301", "20260230", "20260803246000", "2026-08-03", "20260803[", "20260803[x]", "20260803120000.", "20260803[-30]", "18991231"} {
		if _, err := ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q) accepted", bad)
		}
	}
}

func TestMalformed(t *testing.T) {
	good, err := fs.ReadFile(demo.Caderninho, "ofx/sabia-rafael/poupanca-2026-08.ofx")
	if err != nil {
		t.Fatal(err)
	}
	text := string(good)
	tests := []struct {
		name   string
		data   string
		line   int
		reason string
	}{
		{"cut after a line", text[:strings.Index(text, "<MEMO>RENDIMENTOS\n")+18], 41, "a tag <STMTTRN> não foi fechada (o arquivo parece cortado)"},
		{"cut inside a tag", text[:strings.Index(text, "<TRNTYPE>CREDIT")+4], 42, "tag sem o > que a fecha"},
		{"bad amount", strings.Replace(text, "<TRNAMT>8,14", "<TRNAMT>8,1x", 1), 44, `TRNAMT "8,1x" não é um número`},
		{"too precise", strings.Replace(text, "<TRNAMT>8,14", "<TRNAMT>8,1451", 1), 44, `TRNAMT "8,1451" tem mais casas decimais do que a moeda permite`},
		{"ambiguous", strings.Replace(text, "<TRNAMT>8,14", "<TRNAMT>8,140", 1), 44, `TRNAMT "8,140" é ambíguo: três dígitos depois do separador podem ser milhar`},
		{"thousands separator", strings.Replace(text, "<TRNAMT>8,14", "<TRNAMT>1.000,50", 1), 44, `TRNAMT "1.000,50" tem mais de um separador; o OFX não usa separador de milhar`},
		{"bad date", strings.Replace(text, "<DTPOSTED>20260805", "<DTPOSTED>20260835", 1), 43, `DTPOSTED "20260835" não é uma data OFX válida`},
		{"no amount", strings.Replace(text, "<TRNAMT>8,14\n", "", 1), 41, "falta o valor TRNAMT em <STMTTRN>"},
		{"no currency", strings.Replace(text, "<CURDEF>BRL\n", "", 1), 24, "falta a moeda do extrato (CURDEF)"},
		{"unknown currency", strings.Replace(text, "<CURDEF>BRL", "<CURDEF>XYZ", 1), 25, `CURDEF "XYZ" não é uma moeda ISO 4217`},
		{"stray close", strings.Replace(text, "</STMTTRN>", "</STMTTRNX>", 1), 40, "</STMTTRNX> fecha uma tag que não está aberta"},
		{"missing close", strings.Replace(text, "<MEMO>RENDIMENTOS\n</STMTTRN>", "<MEMO>RENDIMENTOS", 1), 41, "a tag <STMTTRN> não foi fechada antes de </BANKTRANLIST>"},
		{"bank error", strings.Replace(text, "<TRNUID>1\n<STATUS><CODE>0", "<TRNUID>1\n<STATUS><CODE>2000<MESSAGE>Conta bloqueada", 1), 23, "o banco informou um erro em o extrato (STMTTRNRS) (STATUS CODE 2000: Conta bloqueada)"},
		{"no statement", "OFXHEADER:100\n\n<OFX>\n<SIGNONMSGSRSV1>\n</SIGNONMSGSRSV1>\n</OFX>\n", 3, "não tem extrato"},
		{"not ofx", "hello", 0, "não é um arquivo OFX"},
		{"html", "<html><body>x</body></html>", 1, "falta o bloco <OFX>"},
		{"text in aggregate", strings.Replace(text, "<BANKTRANLIST>", "<BANKTRANLIST>oops", 1), 31, `<BANKTRANLIST> deveria conter outros campos`},
		{"bad charset", strings.Replace(strings.Replace(text, "CHARSET:NONE", "CHARSET:EBCDIC", 1), "ENCODING:UTF-8", "ENCODING:USASCII", 1), 0, `CHARSET "EBCDIC" não é suportado`},
		{"nul byte", strings.Replace(text, "RENDIMENTOS", "RENDI\x00MENTOS", 1), 46, "byte nulo"},
		{"memo too long", strings.Replace(text, "<MEMO>RENDIMENTOS", "<MEMO>"+strings.Repeat("ç", 1001), 1), 46,
			"<MEMO> tem 1.001 caracteres, acima do limite de 1.000 por campo"},
		{"10 MB memo", strings.Replace(text, "<MEMO>RENDIMENTOS", "<MEMO>"+strings.Repeat("x", 10<<20), 1), 46,
			"<MEMO> tem 10.485.760 caracteres"},
		{"end before start", strings.Replace(text, "<DTEND>20260831", "<DTEND>20260731", 1), 33, "DTEND (2026-07-31) é anterior a DTSTART (2026-08-01)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sts, err := Parse([]byte(tt.data))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse = %d statements, %v; want *Error", len(sts), err)
			}
			if sts != nil {
				t.Errorf("statements returned with an error")
			}
			if e.Line != tt.line || !strings.Contains(e.Reason, tt.reason) {
				t.Errorf("error = line %d %q; want line %d containing %q", e.Line, e.Reason, tt.line, tt.reason)
			}
		})
	}
}

func TestSGMLVariants(t *testing.T) {
	// Closed data elements, lower-case tags, a header on one line, an empty MEMO left open, an
	// unclosed SEVERITY before </STATUS>, a bare & and Latin-1 declared as UTF-8.
	data := "OFXHEADER:100 DATA:OFXSGML VERSION:102 ENCODING:UTF-8 CHARSET:NONE\r\n\r\n" +
		"<ofx><BANKMSGSRSV1><STMTTRNRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>brl</CURDEF>\r\n" +
		"<BANKACCTFROM><BANKID>1</BANKID><ACCTID>9</ACCTID><ACCTTYPE>checking</BANKACCTFROM>\r\n" +
		"<BANKTRANLIST><DTSTART>20260101<DTEND>20260131\r\n" +
		"<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260102<TRNAMT>-1<FITID>1<NAME>M&M LOJA\xc7<MEMO>\r\n</STMTTRN>\r\n" +
		"</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></ofx>\r\n"
	sts, err := Parse([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	st := sts[0]
	if st.Currency != "BRL" || st.Type != "CHECKING" || st.Ledger != nil || len(st.Transactions) != 1 {
		t.Fatalf("%+v", st)
	}
	if tr := st.Transactions[0]; tr.Name != "M&M LOJAÇ" || tr.Memo != "" || tr.Amount != -100 || tr.Line != 6 {
		t.Errorf("%+v", tr)
	}
}

// TestSignOnInstitution reads the bank a file names in its sign-on (SONRS's FI), in SGML and
// XML, and nothing when the file names none.
func TestSignOnInstitution(t *testing.T) {
	body := "<BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL<BANKACCTFROM><BANKID>0260<ACCTID>9<ACCTTYPE>CHECKING</BANKACCTFROM>" +
		"</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
	for _, c := range []struct{ name, data, org, fid string }{
		{"sgml", "OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20261008\n" +
			"<LANGUAGE>POR<FI><ORG>NU PAGAMENTOS S.A.<FID>260</FI></SONRS></SIGNONMSGSRSV1>" + body, "NU PAGAMENTOS S.A.", "260"},
		{"xml", "<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"220\"?>\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>" +
			"<FI><ORG>Banco Inter S.A.</ORG><FID>077</FID></FI></SONRS></SIGNONMSGSRSV1>" +
			"<BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL</CURDEF><BANKACCTFROM><BANKID>077</BANKID><ACCTID>9</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>" +
			"</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n", "Banco Inter S.A.", "077"},
		{"none", "OFXHEADER:100\nDATA:OFXSGML\n\n<OFX>" + body, "", ""},
	} {
		f, err := Open([]byte(c.data))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if f.Org != c.org || f.FID != c.fid {
			t.Errorf("%s: ORG %q FID %q, want %q %q", c.name, f.Org, f.FID, c.org, c.fid)
		}
	}
}
