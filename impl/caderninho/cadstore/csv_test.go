package cadstore

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// csvInstallation copies the bank CSV fixtures into a fresh installation, one connection per
// folder (Bradesco's declared as br-conta, the others recognised by their header), and
// registers it.
func csvInstallation(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	from := filepath.Join("..", "testdata", "csv")
	for _, folder := range []string{"nubank-cartao", "nubank-conta", "inter-conta", "bb-conta", "br-conta", "ignorados"} {
		entries, err := os.ReadDir(filepath.Join(from, folder))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "extratos", folder), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			copyFile(t, filepath.Join(from, folder, e.Name()), filepath.Join(dir, "extratos", folder, e.Name()))
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "extratos", "ignorados", "antigos"), 0o755); err != nil {
		t.Fatal(err)
	}
	yaml := `timezone: America/Sao_Paulo
people:
  - {key: ana, name: Ana}
spaces:
  - {key: casa, name: Casa, categories: [Mercado]}
connections:
  - {key: nubank-cartao, institution: Nubank, holder: ana, space: casa, source: extratos/nubank-cartao}
  - {key: nubank-conta, institution: Nubank, holder: ana, space: casa, source: extratos/nubank-conta}
  - {key: inter, institution: Banco Inter, holder: ana, space: casa, source: extratos/inter-conta}
  - {key: bb, institution: Banco do Brasil, holder: ana, space: casa, source: extratos/bb-conta}
  - {key: bradesco, institution: Bradesco, holder: ana, space: casa, source: extratos/br-conta, format: br-conta}
  - {key: outros, institution: Banco Sabiá, holder: ana, space: casa, source: extratos/ignorados}
`
	if err := os.WriteFile(filepath.Join(dir, "installation.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t)
	register(t, s, dir)
	return s, dir
}

// TestImportBankCSV imports real-shaped CSV exports of Nubank (card and account), Inter, Banco
// do Brasil and Bradesco: amounts exact and signed as the account sees them (a card purchase
// goes out), overlapping exports deduplicated (by Nubank's Identificador, else by day, amount
// and description, counting repeats), balances from the Saldo column or balance rows, and every
// file left aside named with its reason, at each import.
func TestImportBankCSV(t *testing.T) {
	s, _ := csvInstallation(t)
	outs := importAll(t, s)
	name := func(s string) *string { return &s }
	line := func(n int) *int { return &n }
	ignored := []FileError{
		{File: name("antigos"), Message: reasonFolder},
		{File: name("notas.txt"), Message: reasonExtension},
		{File: name("planilha.csv"), Message: `formato de CSV desconhecido: o cabeçalho "data;descricao;valor" (linha 1) não é de nenhum formato que o caderninho lê (reconhecidos pelo cabeçalho: nubank-cartao (date,title,amount), nubank-conta (Data,Valor,Identificador,Descrição), inter-conta (Data Lançamento;Histórico;Descrição;Valor;Saldo), bb-conta (Data,Lançamento,Detalhes,N° documento,Valor,Tipo Lançamento); declarados em format: br-conta, br-cartao). Se o arquivo é um extrato separado por ponto e vírgula, declare format: br-conta (ou br-cartao, para uma fatura) na conexão do installation.yaml; senão, exporte o extrato do banco em OFX ou num desses formatos`},
		{File: name("vazio.csv"), Message: reasonEmpty},
	}
	want := map[string]Outcome{
		// The October export repeats the September one: of its two 7.00 coffees on 25/09, one is new.
		// A card export states no period: the card covers the days of its movements, and says so.
		"nubank-cartao": {Connection: "nubank-cartao", Space: "casa", Status: StatusImported, NewFiles: 2, NewTransactions: 8, Duplicates: 3, NewAccounts: 1, RevisionBumped: true,
			Warnings: []FileError{
				{File: name("Nubank_2026-09-25.csv"), Message: "o arquivo não informa o período da fatura; a cobertura do cartão foi tirada das datas dos lançamentos: " +
					"de 20/09/2026 a 25/09/2026 (as parcelas não contam, pois a fatura pode listá-las no dia da compra)"},
				{File: name("Nubank_2026-10-15.csv"), Message: "o arquivo não informa o período da fatura; a cobertura do cartão foi tirada das datas dos lançamentos: " +
					"de 20/09/2026 a 08/10/2026 (as parcelas não contam, pois a fatura pode listá-las no dia da compra)"}}},
		"nubank-conta": {Connection: "nubank-conta", Space: "casa", Status: StatusImported, NewFiles: 2, NewTransactions: 8, Duplicates: 1, NewAccounts: 1, RevisionBumped: true},
		"inter":        {Connection: "inter", Space: "casa", Status: StatusImported, NewFiles: 1, NewTransactions: 5, NewAccounts: 1, RevisionBumped: true},
		"bb":           {Connection: "bb", Space: "casa", Status: StatusImported, NewFiles: 2, NewTransactions: 4, Duplicates: 1, NewAccounts: 1, RevisionBumped: true},
		"bradesco": {Connection: "bradesco", Space: "casa", Status: StatusImported, NewFiles: 1, NewTransactions: 3, NewAccounts: 1, RevisionBumped: true,
			Warnings: []FileError{{File: name("bradesco-2026-09.csv"), Line: line(11),
				Message: `a tabela de lançamentos termina na linha 11 ("Últimos Lançamentos" não é uma data); o que vem depois (totais, outra seção) não foi lido: confira se o arquivo não tem lançamentos depois dessa linha`}}},
		"outros": {Connection: "outros", Space: "casa", Status: StatusUnchanged, Ignored: ignored},
	}
	if d := cmp.Diff(want, outs); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	// Sums in centavos, worked out by hand from the files.
	wantFacts := map[string]string{
		"nubank-cartao:cartao": "8 -847",   // -(7+7+245.37+23.90+18.50+120.00) + 23.90 + 389.40
		"nubank-conta:conta":   "8 404503", // 3500-89.90-1200-45.67-389.40 -30+3500-1200
		"inter:12345678":       "5 63456",  // -150-1050+2000-15.44-150
		"bb:conta":             "4 161800", // -32-150+2500-700
		"bradesco:conta":       "3 66010",  // -1250-89.90+2000
	}
	if d := cmp.Diff(wantFacts, accountFacts(t, s)); d != "" {
		t.Errorf("accounts (-want +got):\n%s", d)
	}
	balances := map[string]string{}
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT c.connection_key, a.kind, a.balance_minor, a.balance_day FROM cad_accounts a
		JOIN cad_connections c ON c.id = a.connection_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var conn, kind string
		var minor *int64
		var day *string
		if err := rows.Scan(&conn, &kind, &minor, &day); err != nil {
			t.Fatal(err)
		}
		b := kind
		if minor != nil && day != nil {
			b += " " + strings.TrimSpace(*day) + " " + strconv.FormatInt(*minor, 10)
		}
		balances[conn] = b
	}
	rows.Close()
	wantBalances := map[string]string{
		"nubank-cartao": "creditcard", "nubank-conta": "bank",
		"inter": "bank 2026-09-30 123456", "bb": "bank 2026-09-05 261800", "bradesco": "bank 2026-09-15 566010",
	}
	if d := cmp.Diff(wantBalances, balances); d != "" {
		t.Errorf("balances (-want +got):\n%s", d)
	}

	// Again: nothing new, and the files left aside are named again.
	for k, o := range importAll(t, s) {
		if o.Status != StatusUnchanged || o.NewFiles != 0 || o.NewTransactions != 0 || o.RevisionBumped {
			t.Errorf("second import of %s: %+v", k, o)
		}
		if k == "outros" && !cmp.Equal(o.Ignored, ignored) {
			t.Errorf("second import of outros ignores %+v", o.Ignored)
		}
	}
}

// TestMalformedCSVRefusesItsConnection checks that one malformed line of a CSV fails its whole
// connection, naming the file, the line and the fix, and that nothing of it is stored.
func TestMalformedCSVRefusesItsConnection(t *testing.T) {
	s, dir := csvInstallation(t)
	bad := "Data,Valor,Identificador,Descrição\n01/11/2026,-10.00,id-x,Mercado\n02/11/2026,\"1,00\",id-y,Farmácia\n"
	if err := os.WriteFile(filepath.Join(dir, "extratos", "nubank-conta", "NU_zz.csv"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	outs := importAll(t, s)
	o := outs["nubank-conta"]
	if o.Status != StatusFailed || o.NewTransactions != 0 || o.Error == nil || o.Error.File == nil || *o.Error.File != "NU_zz.csv" {
		t.Fatalf("nubank-conta: %+v %+v", o, o.Error)
	}
	if got, want := o.Error.String(), `NU_zz.csv:3: o valor "1,00" na coluna "Valor" não é um valor em reais como 1234.56 ou -50.00, sem separador de milhar`; !strings.HasPrefix(got, want) {
		t.Errorf("error = %q, want it to start with %q", got, want)
	}
	if _, ok := accountFacts(t, s)["nubank-conta:conta"]; ok {
		t.Errorf("nubank-conta imported partly")
	}
	if outs["nubank-cartao"].Status != StatusImported {
		t.Errorf("another connection: %+v", outs["nubank-cartao"])
	}
	// A CSV of another format than the connection declares is refused the same way.
	copyFile(t, filepath.Join(dir, "extratos", "nubank-cartao", "Nubank_2026-09-25.csv"), filepath.Join(dir, "extratos", "br-conta", "Nubank_2026-09-25.csv"))
	if o := importAll(t, s)["bradesco"]; o.Status != StatusFailed || o.Error == nil || !strings.Contains(o.Error.Message, "declarado na conexão") {
		t.Errorf("a card export in a br-conta folder: %+v %+v", o, o.Error)
	}
}
