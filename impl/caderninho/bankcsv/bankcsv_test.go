package bankcsv

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/schemas"
)

// summary is a parsed file in one comparable text: the format, account, period, balance, then
// one line per transaction (day, amount in centavos, FITID, name | memo).
func summary(f *File) string {
	st := &f.Statement
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s", f.Format.Key, st.Account, st.Type)
	if st.HasPeriod {
		fmt.Fprintf(&b, " %s..%s", st.Start, st.End)
		if f.PeriodFromDates {
			b.WriteString(" (datas)")
		}
	}
	if st.BankID != "" {
		fmt.Fprintf(&b, " banco %s", st.BankID)
	}
	if st.Ledger != nil {
		fmt.Fprintf(&b, " saldo %d em %s", st.Ledger.Amount, st.Ledger.AsOf.Day)
	}
	for _, t := range st.Transactions {
		fmt.Fprintf(&b, "\n%s %d %s %s | %s", t.Posted.Day, t.Amount, t.FITID, t.Name, t.Memo)
	}
	for _, w := range f.Warnings {
		fmt.Fprintf(&b, "\naviso linha %d", w.Line)
	}
	return b.String()
}

func fixture(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "csv", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParseFormats reads one real-shaped export of each format, detected by its header or
// declared, with the amounts exact and signed as the account sees them.
func TestParseFormats(t *testing.T) {
	for _, c := range []struct {
		file, declared, want string
	}{
		// A Nubank card export writes purchases positive: they are expenses, so they turn negative.
		{"nubank-cartao/Nubank_2026-09-25.csv", "", `nubank-cartao cartao CREDITCARD 2026-09-20..2026-09-25 (datas) banco 260
2026-09-25 -700  Café do Ponto | 
2026-09-22 -2390  Uber *Trip | 
2026-09-20 -1850  Padaria Pão Quente | `},
		{"nubank-conta/NU_98765432_15SET2026_10OUT2026.csv", "", `nubank-conta conta CHECKING 2026-09-15..2026-10-05 (datas) banco 260
2026-09-15 -38940 66d4a1f0-1c2b-4e5f-8a9b-000000000005 Pagamento de fatura | 
2026-09-20 -3000 66d4a1f0-1c2b-4e5f-8a9b-000000000006 Compra no débito - Farmácia Exemplo | 
2026-10-01 350000 66d4a1f0-1c2b-4e5f-8a9b-000000000007 Transferência recebida pelo Pix - EMPRESA EXEMPLO LTDA - 12.345.678/0001-90 - BANCO EXEMPLO (0001) Agência: 1 Conta: 12345-6 | 
2026-10-05 -120000 66d4a1f0-1c2b-4e5f-8a9b-000000000008 Transferência enviada pelo Pix - IMOBILIARIA EXEMPLO, ALUGUEL | `},
		// UTF-8 with a byte order mark and CRLF; the preamble names the account and the period,
		// the Saldo column (newest first) gives the balance.
		{"inter-conta/Extrato-01-09-2026-a-30-09-2026.csv", "", `inter-conta 12345678 CHECKING 2026-09-01..2026-09-30 banco 077 saldo 123456 em 2026-09-30
2026-09-30 -15000  Pix enviado | Maria Silva
2026-09-28 -105000  Pagamento efetuado | CONDOMINIO EXEMPLO
2026-09-15 200000  Pix recebido | Empresa Exemplo
2026-09-15 -1544  Compra no débito | PADARIA
2026-09-02 -15000  Pix enviado | Maria Silva`},
		// Windows-1252; the balance rows are no transactions, the last dated one is the balance.
		{"bb-conta/extrato-bb-2026-09-01.csv", "", `bb-conta conta CHECKING 2026-09-01..2026-09-03 (datas) banco 001 saldo 331800 em 2026-09-04
2026-09-01 -3200  Pix - Enviado | 01/09 11:47 Fulano de Tal
2026-09-01 -15000  Compra com Cartão | 01/09 18:00 POSTO EXEMPLO
2026-09-03 250000  Pix - Recebido | 03/09 09:10 Ciclano`},
		// Declared: Windows-1252 and CRLF, a preamble, Crédito and Débito, continuation lines,
		// a total and a second section after the table (a warning).
		{"br-conta/bradesco-2026-09.csv", "br-conta", `br-conta conta CHECKING 2026-09-02..2026-09-15 (datas) saldo 566010 em 2026-09-15
2026-09-02 -125000  TRANSFERENCIA PIX | REM: FULANO DE TAL 02/09
2026-09-10 -8990  PAGTO ELETRON COBRANCA | CONTA DE LUZ
2026-09-15 200000  TED-TRANSF ELET DISPON | 
aviso linha 11`},
	} {
		t.Run(c.file, func(t *testing.T) {
			f, err := Parse(fixture(t, c.file), c.declared)
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(f); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestParseText covers what the fixtures do not: Itaú-style ;-separated tables with R$ and
// comma decimals, a card bill, and Nubank's card export with its category column.
func TestParseText(t *testing.T) {
	for _, c := range []struct {
		name, declared, text, want string
	}{
		{"itau", "br-conta", "Data;Lançamento;Valor (R$);Saldo (R$)\n" +
			"02/10/2026;PIX TRANSF MARIA;R$ -1.234,56;R$ 8.765,44\n" +
			"03/10/2026;RENDIMENTOS;R$ 0,07;R$ 8.765,51\n", `br-conta conta CHECKING 2026-10-02..2026-10-03 (datas) saldo 876551 em 2026-10-03
2026-10-02 -123456  PIX TRANSF MARIA | 
2026-10-03 7  RENDIMENTOS | `},
		{"fatura", "br-cartao", "Data;Estabelecimento;Valor\n" +
			"05/10/2026;MERCADO EXEMPLO;R$ 1.050,10\n" +
			"06/10/2026;PAGAMENTO EFETUADO;-500,00\n", `br-cartao cartao CREDITCARD 2026-10-05..2026-10-06 (datas)
2026-10-05 -105010  MERCADO EXEMPLO | 
2026-10-06 50000  PAGAMENTO EFETUADO | `},
		// A Saldo column that does not add up: the rows are imported, the balance is not.
		{"saldo que não fecha", "", "Data Lançamento;Histórico;Descrição;Valor;Saldo\n" +
			"02/09/2026;Pix;X;-10,00;90,00\n03/09/2026;Pix;Y;-10,00;70,00\n", `inter-conta conta CHECKING 2026-09-02..2026-09-03 (datas) banco 077
2026-09-02 -1000  Pix | X
2026-09-03 -1000  Pix | Y
aviso linha 3`},
		{"nubank categoria", "", "date,category,title,amount\n2026-10-01,transporte,Uber *Trip,23.90\n2026-10-02,,Estorno,-5\n",
			`nubank-cartao cartao CREDITCARD 2026-10-01..2026-10-02 (datas) banco 260
2026-10-01 -2390  Uber *Trip | 
2026-10-02 500  Estorno | `},
		// A card export covers the days of its purchases and payments; an installment of a
		// purchase made months before does not widen it, unless the file has nothing else.
		{"parcela antiga", "", "date,title,amount\n2026-06-12,Loja Vestir - Parcela 4/6,120.00\n2026-10-01,Café,7.00\n" +
			"2026-10-03,Pagamento recebido,-500.00\n", `nubank-cartao cartao CREDITCARD 2026-10-01..2026-10-03 (datas) banco 260
2026-06-12 -12000  Loja Vestir - Parcela 4/6 | 
2026-10-01 -700  Café | 
2026-10-03 50000  Pagamento recebido | `},
		{"só parcelas", "br-cartao", "Data;Estabelecimento;Valor\n12/06/2026;LOJA VESTIR PARC 04/06;120,00\n15/07/2026;LOJA LAR PARC 02/10;80,00\n",
			`br-cartao cartao CREDITCARD 2026-06-12..2026-07-15 (datas)
2026-06-12 -12000  LOJA VESTIR PARC 04/06 | 
2026-07-15 -8000  LOJA LAR PARC 02/10 | `},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse([]byte(c.text), c.declared)
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(f); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestParseRefuses checks that a malformed line is refused with its line and a Portuguese
// reason, and that an unknown header is told apart.
func TestParseRefuses(t *testing.T) {
	card := "date,title,amount\n2026-09-25,Café,7.00\n"
	account := "Data,Valor,Identificador,Descrição\n01/09/2026,-10.00,id-1,Mercado\n"
	for _, c := range []struct {
		name, declared, text string
		line                 int
		reason               string
	}{
		{"comma in a dot amount", "", card + "2026-09-26,Pão,\"7,50\"\n", 3, "não é um valor em reais"},
		{"float-like precision", "", card + "2026-09-26,Pão,7.505\n", 3, "mais de duas casas decimais"},
		{"thousands separator in Nubank", "", card + "2026-09-26,TV,1.234.56\n", 3, "não é um valor em reais"},
		{"missing amount", "", card + "2026-09-26,Pão,\n", 3, "falta o valor"},
		{"bad date", "", card + "26/09/2026,Pão,7.00\n", 3, "não é uma data válida AAAA-MM-DD"},
		{"day the month lacks", "", account + "31/09/2026,-1.00,id-2,X\n", 3, "não é uma data válida DD/MM/AAAA"},
		{"unclosed quote", "", account + "02/09/2026,-1.00,id-2,\"Mercado\n", 3, "não fecha as aspas"},
		{"bad grouping", "br-conta", "Data;Histórico;Valor\n01/09/2026;X;1.23,00\n", 2, "não é um valor em reais"},
		{"credit and debit", "br-conta", "Data;Histórico;Crédito;Débito\n01/09/2026;X;1,00;2,00\n", 2, "tem crédito"},
		{"declared but other header", "br-conta", card, 1, "nenhuma das primeiras"},
		{"declared nubank-conta, file is the card's", "nubank-conta", card, 1, "o arquivo é do formato nubank-cartao"},
		{"unknown declared format", "itau", card, 0, "não existe"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.text), c.declared)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if e.Line != c.line || !strings.Contains(e.Reason, c.reason) {
				t.Errorf("got line %d %q, want line %d and %q", e.Line, e.Reason, c.line, c.reason)
			}
		})
	}
	_, err := Parse(fixture(t, "ignorados/planilha.csv"), "")
	var u *UnknownError
	if !errors.As(err, &u) || u.Line != 1 || !strings.Contains(err.Error(), `"data;descricao;valor"`) || !strings.Contains(err.Error(), "br-conta") {
		t.Errorf("an unknown header: %v", err)
	}
}

// TestParseAmount checks exact conversion to centavos, never through floating point.
func TestParseAmount(t *testing.T) {
	for _, c := range []struct {
		in   string
		dec  byte
		want int64
		ok   bool
	}{
		{"0.1", dotDecimal, 10, true}, {"-1234.5", dotDecimal, -123450, true}, {"999999999999999.99", dotDecimal, 99999999999999999, true},
		{"1.234,56", commaDecimal, 123456, true}, {"R$ -7,5", commaDecimal, -750, true}, {"-R$ 1.000", commaDecimal, -100000, true},
		{"1234", commaDecimal, 123400, true}, {"0,10", commaDecimal, 10, true}, {"1,230", commaDecimal, 123, true},
		{"1,234", commaDecimal, 0, false}, {"12.34", commaDecimal, 0, false}, {"1e3", dotDecimal, 0, false},
		{"", dotDecimal, 0, false}, {"-", commaDecimal, 0, false}, {"1000000000000000.00", dotDecimal, 0, false},
	} {
		got, why := parseAmount(c.in, c.dec)
		if (why == "") != c.ok || c.ok && got != c.want {
			t.Errorf("parseAmount(%q) = %d %q, want %d ok=%v", c.in, got, why, c.want, c.ok)
		}
	}
}

// TestSchemaListsTheFormats checks that installation.schema.json's format enum is Keys().
func TestSchemaListsTheFormats(t *testing.T) {
	b, err := fs.ReadFile(schemas.FS, "caderninho/installation.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs struct {
			Connection struct {
				Properties struct {
					Format struct {
						Enum []string `json:"enum"`
					} `json:"format"`
				} `json:"properties"`
			} `json:"connection"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Defs.Connection.Properties.Format.Enum; !slices.Equal(got, Keys()) {
		t.Errorf("the schema's formats %v, Keys() %v", got, Keys())
	}
}
