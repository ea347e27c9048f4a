package bankcsv

import (
	"strings"

	"github.com/lumo-caderninho/mcp/impl/caderninho/ofx"
)

// role is what a column of a format holds.
type role int

const (
	colNone    role = iota // not read (Nubank's category, unnamed columns)
	colDate                // the day of the transaction
	colAmount              // the signed amount
	colCredit              // an amount coming in (a generic export's "Crédito")
	colDebit               // an amount going out, with or without its minus sign ("Débito")
	colBalance             // the running balance after the row ("Saldo")
	colID                  // the bank's own transaction id (Nubank's "Identificador"), used as FITID
	colRef                 // a document number, kept as the transaction's reference
	colText                // description: the first is the name, the others the memo
	colKind                // Banco do Brasil's "Tipo Lançamento": empty on balance rows
)

// Decimal notations of amounts.
const (
	dotDecimal   = '.' // 1234.56, no thousands separator (Nubank)
	commaDecimal = ',' // 1.234,56 (every ;-separated export, Banco do Brasil)
)

// Format is one bank's CSV export: how to find its header, read its columns and sign its amounts.
type Format struct {
	// Key names the format in installation.yaml (format:) and in messages.
	Key string
	// Name says, in Portuguese, what the bank calls the export.
	Name string
	// Bank is the key (banks.Bank) of the one bank whose export this is; "" for a format many
	// banks share.
	Bank string
	// Kind is the account the file is for: a bank account or a credit card.
	Kind ofx.Kind
	// Comma separates the cells.
	Comma rune
	// written are the exact headers the format is recognised by, as the bank writes them, and
	// headers the same after norm (what is compared); none for a generic format, whose header is
	// the first line naming its columns (see genericColumns).
	written, headers [][]string
	// Roles are the roles of the headers' columns, by their normalised names.
	Roles map[string]role
	// Preamble allows lines before the header (an account, a period, a title).
	Preamble bool
	// DayFirst dates are DD/MM/AAAA; the others AAAA-MM-DD.
	DayFirst bool
	// Decimal is dotDecimal or commaDecimal.
	Decimal byte
	// PurchasesPositive is a card export that writes purchases as positive amounts and payments
	// and refunds as negative: the signs are turned, as an OFX card statement has them.
	PurchasesPositive bool
	// BalanceRows are rows that state a balance and are no transaction: their first text starts
	// with "saldo" (spaces ignored: "S A L D O"), or their kind column is empty.
	BalanceRows bool
	// Generic formats are read only when declared; their tables may carry totals, continuation
	// lines and a last section, see readRows.
	Generic bool
	// Sign explains, in Portuguese, how the format signs its amounts.
	Sign string
}

// Detected reports whether the format is recognised by its header without a declaration.
func (f *Format) Detected() bool { return !f.Generic }

// HeaderText is the format's header as the bank writes it (its first, for Nubank's card), or a
// description of the columns a generic format looks for.
func (f *Format) HeaderText() string {
	if f.Generic {
		return "Data;Histórico;Valor (ou Crédito e Débito)[;Saldo]"
	}
	return strings.Join(f.written[0], string(f.Comma))
}

// Formats are the CSV formats caderninho reads, in the order they are listed to the user.
var Formats = []*Format{
	{Key: "nubank-cartao", Name: "Nubank, fatura do cartão", Bank: "nubank", Kind: ofx.CreditCard, Comma: ',', Decimal: dotDecimal,
		written:           [][]string{{"date", "title", "amount"}, {"date", "category", "title", "amount"}},
		Roles:             map[string]role{"date": colDate, "category": colNone, "title": colText, "amount": colAmount},
		PurchasesPositive: true,
		Sign:              "compras positivas, pagamentos e estornos negativos (o caderninho inverte: compra é saída)"},
	{Key: "nubank-conta", Name: "Nubank, extrato da conta", Bank: "nubank", Kind: ofx.Bank, Comma: ',', Decimal: dotDecimal, DayFirst: true,
		written: [][]string{{"Data", "Valor", "Identificador", "Descrição"}},
		Roles:   map[string]role{"data": colDate, "valor": colAmount, "identificador": colID, "descricao": colText},
		Sign:    "entradas positivas, saídas negativas"},
	{Key: "inter-conta", Name: "Banco Inter, extrato da conta corrente", Bank: "inter", Kind: ofx.Bank, Comma: ';', Decimal: commaDecimal, DayFirst: true,
		Preamble: true,
		written:  [][]string{{"Data Lançamento", "Histórico", "Descrição", "Valor", "Saldo"}},
		Roles:    map[string]role{"data lancamento": colDate, "historico": colText, "descricao": colText, "valor": colAmount, "saldo": colBalance},
		Sign:     "entradas positivas, saídas negativas"},
	{Key: "bb-conta", Name: "Banco do Brasil, extrato da conta corrente", Bank: "bb", Kind: ofx.Bank, Comma: ',', Decimal: commaDecimal, DayFirst: true,
		Preamble: true, BalanceRows: true,
		written: [][]string{{"Data", "Lançamento", "Detalhes", "N° documento", "Valor", "Tipo Lançamento"}},
		Roles: map[string]role{"data": colDate, "lancamento": colText, "detalhes": colText, "no documento": colRef, "valor": colAmount,
			"tipo lancamento": colKind},
		Sign: "entradas positivas, saídas negativas; as linhas de saldo (Tipo Lançamento vazio) não são transações"},
	{Key: "br-conta", Name: "extrato de conta separado por ponto e vírgula (Itaú, Bradesco, Caixa, Santander e outros)", Kind: ofx.Bank,
		Comma: ';', Decimal: commaDecimal, DayFirst: true, Preamble: true, BalanceRows: true, Generic: true,
		Sign: "Valor com sinal (entradas positivas, saídas negativas), ou Crédito e Débito em colunas separadas"},
	{Key: "br-cartao", Name: "fatura de cartão separada por ponto e vírgula", Kind: ofx.CreditCard,
		Comma: ';', Decimal: commaDecimal, DayFirst: true, Preamble: true, BalanceRows: true, Generic: true, PurchasesPositive: true,
		Sign: "compras positivas, pagamentos e estornos negativos (o caderninho inverte: compra é saída)"},
}

// genericColumns are the column names a generic format reads (compared after norm); columns with
// other names are not read.
var genericColumns = map[string]role{
	"data": colDate, "data lancamento": colDate, "data do lancamento": colDate, "data de lancamento": colDate,
	"data movimento": colDate, "data do movimento": colDate, "data da transacao": colDate, "data da compra": colDate,
	"lancamento": colText, "historico": colText, "descricao": colText, "detalhes": colText, "complemento": colText,
	"estabelecimento": colText,
	"valor":           colAmount,
	"credito":         colCredit, "entrada": colCredit, "entradas": colCredit,
	"debito": colDebit, "saida": colDebit, "saidas": colDebit,
	"saldo":     colBalance,
	"documento": colRef, "no documento": colRef, "n documento": colRef, "numero do documento": colRef, "dcto.": colRef,
	"docto.": colRef, "doc.": colRef,
}

func init() {
	for _, f := range Formats {
		for _, h := range f.written {
			n := make([]string, len(h))
			for i, c := range h {
				n[i] = norm(c)
			}
			f.headers = append(f.headers, n)
		}
	}
}

// Lookup finds a format by key.
func Lookup(key string) (*Format, bool) {
	for _, f := range Formats {
		if f.Key == key {
			return f, true
		}
	}
	return nil, false
}

// Keys are the keys of every format, in order.
func Keys() []string {
	out := make([]string, len(Formats))
	for i, f := range Formats {
		out[i] = f.Key
	}
	return out
}

// KnownText lists the formats for a message: those recognised by their header with it, then the
// ones that must be declared.
func KnownText() string {
	var detected, declared []string
	for _, f := range Formats {
		if f.Detected() {
			detected = append(detected, f.Key+" ("+f.HeaderText()+")")
		} else {
			declared = append(declared, f.Key)
		}
	}
	return "reconhecidos pelo cabeçalho: " + strings.Join(detected, ", ") + "; declarados em format: " + strings.Join(declared, ", ")
}
