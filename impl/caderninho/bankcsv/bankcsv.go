// Package bankcsv reads the CSV exports of Brazilian banks and card issuers (Nubank's card and
// account, Banco Inter's and Banco do Brasil's accounts, and the ;-separated tables of Itaú,
// Bradesco and others) into the statement the OFX reader gives, with exact amounts in minor units.
//
// A format is declared per connection or recognised by its exact header (see Formats). Every
// problem is an *Error with the line and what to do; a file whose header is of no format
// recognised by it, when none was declared, is an *UnknownError (the importer names it and goes
// on). Parse returns a whole file or an error, never part of one.
package bankcsv

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/lumo-caderninho/mcp/impl/caderninho/banks"
	"github.com/lumo-caderninho/mcp/impl/caderninho/ofx"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// MaxSize is the largest file Parse reads: a bank's export of years of transactions has a few
// hundred KB.
const MaxSize = 16 << 20

// maxPreamble bounds the lines read before the header of a format that allows some.
const maxPreamble = 30

// Currency is the currency of every CSV export read here: the banks export reais only.
const Currency = "BRL"

// Default account numbers: a CSV export does not name its account (Inter's says it in its
// preamble), so a connection's CSV transactions go to its account "conta" or its card "cartao".
const (
	AccountBank = "conta"
	AccountCard = "cartao"
)

// Error is why a file was refused: the line (from 1; 0 when the whole file is concerned) and the
// reason, in Portuguese, saying what to fix.
type Error struct {
	Line   int
	Reason string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("linha %d: %s", e.Line, e.Reason)
	}
	return e.Reason
}

func errorf(line int, format string, args ...any) *Error {
	return &Error{Line: line, Reason: fmt.Sprintf(format, args...)}
}

// UnknownError is a file whose header (its first line that is not blank) is of no format
// recognised by its header, read without a declared format.
type UnknownError struct {
	Line   int
	Header string // as seen, at most 200 characters
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("formato de CSV desconhecido: o cabeçalho %s (linha %d) não é de nenhum formato que o caderninho lê (%s). "+
		"Se o arquivo é um extrato separado por ponto e vírgula, declare format: br-conta (ou br-cartao, para uma fatura) "+
		"na conexão do installation.yaml; senão, exporte o extrato do banco em OFX ou num desses formatos",
		quote(e.Header, 200), e.Line, KnownText())
}

// Warning is something imported that deserves a look.
type Warning struct {
	Line    int
	Message string
}

// File is a CSV export read whole: its format and its one statement.
type File struct {
	Format *Format
	// Statement has the account (AccountBank or AccountCard unless the file names it), the
	// bank's COMPE code as BankID when the format is one bank's, the covered period (see Parse),
	// the balance when the file gives it, and every transaction in the file's order.
	Statement ofx.Statement
	// PeriodFromDates says the file states no period: Statement's is its transactions' days.
	PeriodFromDates bool
	Warnings        []Warning
}

// Parse reads a CSV export in the declared format (a key of Formats), or, when declared is "",
// in the format its header is recognised as. Text is UTF-8 (with or without a byte order mark)
// or, when it is not valid UTF-8, Windows-1252.
//
// The statement's period is the one the file states (Inter's "Período"), else the days from its
// first to its last transaction (PeriodFromDates); in a card export the rows of an installment
// ("Parcela 2/3") do not widen it, since a bill may list one at the day of its purchase, months
// before, unless the file has nothing else. The balance is the running balance of a Saldo column
// (see ledger) or Banco do Brasil's last dated balance row.
func Parse(data []byte, declared string) (*File, error) {
	if len(data) > MaxSize {
		return nil, errorf(0, "o arquivo tem mais de %d MB; um extrato em CSV costuma ter poucos KB — confira se é mesmo um extrato", MaxSize>>20)
	}
	var f *Format
	if declared != "" {
		var ok bool
		if f, ok = Lookup(declared); !ok {
			return nil, errorf(0, "o formato %q declarado na conexão não existe; os formatos são: %s", declared, strings.Join(Keys(), ", "))
		}
	}
	text, err := decode(data)
	if err != nil {
		return nil, err
	}
	if f == nil {
		for _, cand := range Formats {
			if !cand.Detected() {
				continue
			}
			if t, _ := findHeader(text, cand); t != nil {
				f = cand
				break
			}
		}
		if f == nil {
			line, header := firstLine(text)
			return nil, &UnknownError{Line: line, Header: header}
		}
	}
	t, rd := findHeader(text, f)
	if t == nil {
		return nil, headerError(text, f)
	}
	return t.read(rd)
}

// decode turns data into UTF-8 text; newlines are kept, so line numbers are the file's.
func decode(data []byte) (string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		b, err := charmap.Windows1252.NewDecoder().Bytes(data)
		if err != nil {
			return "", errorf(0, "o texto não pôde ser lido como UTF-8 nem como Windows-1252; exporte o extrato de novo")
		}
		data = b
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return "", errorf(1+bytes.Count(data[:i], []byte("\n")),
			"o arquivo tem um byte nulo: não é texto CSV (uma planilha .xlsx renomeada?); exporte o extrato em CSV ou OFX")
	}
	return string(data), nil
}

// firstLine is the first line of text that is not blank, and its number.
func firstLine(text string) (int, string) {
	for n, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return n + 1, l
		}
	}
	return 1, ""
}

// reader reads text's records with f's separator.
func reader(text string, f *Format) *csv.Reader {
	r := csv.NewReader(strings.NewReader(text))
	r.Comma = f.Comma
	r.FieldsPerRecord = -1
	return r
}

// table is a format's header as found in a file: the role of each column and its name as
// written, and what the lines before it said.
type table struct {
	f      *Format
	cols   []role
	names  []string
	line   int
	before [][]string // the preamble's records
	lines  []int      // their lines
}

// findHeader looks for f's header in text: the first record, or one of the first maxPreamble
// when f allows a preamble. It returns the table and the reader positioned after the header,
// or nil when the header is not there (or the text is not CSV before it).
func findHeader(text string, f *Format) (*table, *csv.Reader) {
	rd := reader(text, f)
	t := &table{f: f}
	for n := 0; n <= maxPreamble; n++ {
		rec, err := rd.Read()
		if err != nil {
			return nil, nil
		}
		line, _ := rd.FieldPos(0)
		if blank(rec) {
			continue
		}
		if t.match(rec) {
			t.line = line
			return t, rd
		}
		if !f.Preamble {
			return nil, nil
		}
		t.before = append(t.before, trimAll(rec))
		t.lines = append(t.lines, line)
	}
	return nil, nil
}

// match reports whether rec is f's header, and sets the roles of its columns.
func (t *table) match(rec []string) bool {
	cells := make([]string, len(rec))
	for i, c := range rec {
		cells[i] = norm(c)
	}
	names := trimAll(rec)
	for len(cells) > 0 && cells[len(cells)-1] == "" { // a trailing separator
		cells, names = cells[:len(cells)-1], names[:len(names)-1]
	}
	if !t.f.Generic {
		for _, h := range t.f.headers {
			if slices.Equal(cells, h) {
				t.names = names
				t.cols = make([]role, len(cells))
				for i, c := range cells {
					t.cols[i] = t.f.Roles[c]
				}
				return true
			}
		}
		return false
	}
	cols := make([]role, len(cells))
	count := map[role]int{}
	for i, c := range cells {
		cols[i] = genericColumns[c]
		count[cols[i]]++
	}
	if count[colDate] != 1 || count[colText] == 0 || count[colAmount] > 1 || count[colCredit] > 1 || count[colDebit] > 1 ||
		count[colBalance] > 1 || count[colRef] > 1 {
		return false
	}
	if (count[colAmount] == 1) == (count[colCredit]+count[colDebit] > 0) {
		return false // a Valor, or Crédito and Débito: one of the two layouts
	}
	t.cols, t.names = cols, names
	return true
}

// headerError says why text is not in the declared format f.
func headerError(text string, f *Format) error {
	line, header := firstLine(text)
	var other string
	for _, cand := range Formats {
		if cand != f && cand.Detected() {
			if t, _ := findHeader(text, cand); t != nil {
				other = cand.Key
				break
			}
		}
	}
	var b strings.Builder
	if f.Generic {
		fmt.Fprintf(&b, "nenhuma das primeiras %d linhas é o cabeçalho de uma tabela do formato %s declarado na conexão: "+
			"uma linha separada por ponto e vírgula com uma coluna de data (Data, Data Lançamento...), ao menos uma de descrição "+
			"(Histórico, Lançamento, Descrição, Detalhes...) e Valor, ou Crédito e Débito. A primeira linha é %s",
			maxPreamble+1, f.Key, quote(header, 200))
	} else {
		fmt.Fprintf(&b, "o cabeçalho %s não é o do formato %s declarado na conexão (%s: %s)", quote(header, 200), f.Key, f.Name, f.HeaderText())
	}
	if other != "" {
		fmt.Fprintf(&b, "; o arquivo é do formato %s: mova-o para a pasta de uma conexão desse formato, ou tire format da conexão para que "+
			"cada arquivo seja lido pelo formato do seu cabeçalho", other)
	} else {
		b.WriteString("; confira se o arquivo é mesmo desse banco e dessa conta, ou corrija format no installation.yaml")
	}
	return &Error{Line: line, Reason: b.String()}
}

// pending is a transaction read from a row, with the running balance of its row.
type pending struct {
	ofx.Transaction
	balance *int64
}

// balanceRow is a row stating a balance (Banco do Brasil's "Saldo do dia", "S A L D O").
type balanceRow struct {
	day    string // "" when its date is none ("00/00/0000")
	amount int64
}

// read reads the rows after the header into the file's statement.
func (t *table) read(rd *csv.Reader) (*File, error) {
	f := t.f
	out := &File{Format: f}
	st := &out.Statement
	st.Kind, st.Currency, st.Line = f.Kind, Currency, t.line
	st.Account, st.Type = AccountBank, "CHECKING"
	if f.Kind == ofx.CreditCard {
		st.Account, st.Type = AccountCard, "CREDITCARD"
	}
	if b := banks.ByKey(f.Bank); b != nil {
		st.BankID = b.CodeText()
	}
	if err := t.preamble(st); err != nil {
		return nil, err
	}
	var rows []pending
	var balances []balanceRow
	for {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(err)
		}
		line, _ := rd.FieldPos(0)
		rec = trimAll(rec)
		if blank(rec) {
			continue
		}
		for i, c := range rec {
			if n := utf8.RuneCountInString(c); n > ofx.MaxValueChars {
				return nil, errorf(line, "a coluna %s tem %d caracteres; o limite de um campo é %d", t.column(i), n, ofx.MaxValueChars)
			}
		}
		kind, p, bal, err := t.row(rec, line, rows)
		if err != nil {
			return nil, err
		}
		switch kind {
		case rowEnd:
			out.Warnings = append(out.Warnings, Warning{Line: line, Message: fmt.Sprintf(
				"a tabela de lançamentos termina na linha %d (%s não é uma data); o que vem depois (totais, outra seção) não foi lido: "+
					"confira se o arquivo não tem lançamentos depois dessa linha", line, quote(t.cell(rec, colDate), 40))})
		case rowBalance:
			if bal != nil {
				balances = append(balances, *bal)
			}
		case rowTransaction:
			rows = append(rows, p)
		}
		if kind == rowEnd {
			break
		}
	}
	st.Transactions = make([]ofx.Transaction, len(rows))
	for i := range rows {
		st.Transactions[i] = rows[i].Transaction
	}
	if !st.HasPeriod && len(rows) > 0 {
		st.HasPeriod, out.PeriodFromDates = true, true
		st.Start, st.End = datesSpan(rows, f.Kind == ofx.CreditCard)
	}
	if f.Kind == ofx.Bank {
		bal, w := ledger(rows)
		if w != nil {
			// The warning says the balance is not updated: no balance row stands in for it.
			out.Warnings = append(out.Warnings, *w)
		} else if bal == nil {
			bal = lastBalance(balances)
		}
		st.Ledger = bal
	}
	return out, nil
}

// installment matches the text of a card row that is one installment of a purchase.
var installment = regexp.MustCompile(`(?i)\bparc(ela)?\.?\s*\d{1,2}\s*/\s*\d{1,2}\b`)

// datesSpan is the first and last day of rows; in a card export (card), the installments'
// rows count only when every row is one.
func datesSpan(rows []pending, card bool) (first, last string) {
	for pass := 0; pass < 2 && first == ""; pass++ {
		for _, r := range rows {
			if card && pass == 0 && installment.MatchString(r.Name+" "+r.Memo) {
				continue
			}
			if first == "" || r.Posted.Day < first {
				first = r.Posted.Day
			}
			last = max(last, r.Posted.Day)
		}
	}
	return first, last
}

// preamble reads what Inter's lines before the header say: "Conta ;NÚMERO" is the account and
// "Período ;DD/MM/AAAA a DD/MM/AAAA" the statement's period.
func (t *table) preamble(st *ofx.Statement) error {
	if t.f.Key != "inter-conta" {
		return nil
	}
	for i, rec := range t.before {
		if len(rec) < 2 {
			continue
		}
		switch norm(rec[0]) {
		case "conta":
			if rec[1] != "" {
				st.Account = rec[1]
			}
		case "periodo":
			from, to, ok := strings.Cut(rec[1], " a ")
			start, ok1 := parseDay(strings.TrimSpace(from), true)
			end, ok2 := parseDay(strings.TrimSpace(to), true)
			if !ok || !ok1 || !ok2 || end < start {
				return errorf(t.lines[i], "o período %s não é DD/MM/AAAA a DD/MM/AAAA (com o fim depois do início); exporte o extrato de novo",
					quote(rec[1], 60))
			}
			st.HasPeriod, st.Start, st.End = true, start, end
		}
	}
	return nil
}

// column names column i as the header writes it.
func (t *table) column(i int) string {
	if i < len(t.names) && t.names[i] != "" {
		return strconv.Quote(t.names[i])
	}
	return strconv.Itoa(i + 1)
}

// cell is the first cell of rec in a column of role r ("" when the row is shorter).
func (t *table) cell(rec []string, r role) string {
	for i, c := range t.cols {
		if c == r && i < len(rec) {
			return rec[i]
		}
	}
	return ""
}

// has reports whether the table has a column of role r.
func (t *table) has(r role) bool {
	for _, c := range t.cols {
		if c == r {
			return true
		}
	}
	return false
}

// rowKind is what a record that is not blank is.
type rowKind int

const (
	rowTransaction rowKind = iota
	rowBalance             // states a balance; no transaction
	rowSkip                // a total, or a description continued (added to the transaction above)
	rowEnd                 // a generic table's end: the rest of the file is not read
)

// row reads one record that is not blank: a transaction (p), a balance row (with the balance
// it states, when it has a date and a readable value), a row to leave, or the end of a generic
// table. rows are the transactions so far: a generic table's continuation line adds to the last.
func (t *table) row(rec []string, line int, rows []pending) (rowKind, pending, *balanceRow, error) {
	f := t.f
	var texts []string
	for i, c := range t.cols {
		if c == colText && i < len(rec) && rec[i] != "" {
			texts = append(texts, rec[i])
		}
	}
	first := ""
	if len(texts) > 0 {
		first = strings.ReplaceAll(norm(texts[0]), " ", "")
	}
	dateCell := t.cell(rec, colDate)
	if f.BalanceRows && (strings.HasPrefix(first, "saldo") || t.has(colKind) && t.cell(rec, colKind) == "") {
		v := t.cell(rec, colBalance)
		if v == "" {
			v = t.cell(rec, colAmount)
		}
		if day, ok := parseDay(dateCell, f.DayFirst); ok {
			if amt, why := parseAmount(v, f.Decimal); why == "" {
				return rowBalance, pending{}, &balanceRow{day: day, amount: amt}, nil
			}
		}
		return rowBalance, pending{}, nil, nil
	}
	if dateCell == "" && f.Generic {
		switch {
		case strings.HasPrefix(first, "total"):
			return rowSkip, pending{}, nil, nil
		case t.cell(rec, colAmount) == "" && t.cell(rec, colCredit) == "" && t.cell(rec, colDebit) == "" && len(texts) > 0:
			// The description of the transaction above, continued on a line of its own.
			if len(rows) == 0 {
				return 0, pending{}, nil, errorf(line, "a linha tem só descrição (%s), sem data nem valor, antes de qualquer lançamento; "+
					"apague-a ou exporte o extrato de novo", quote(strings.Join(texts, " "), 60))
			}
			last := &rows[len(rows)-1]
			last.Memo = strings.TrimSpace(last.Memo + " " + strings.Join(texts, " "))
			if n := utf8.RuneCountInString(last.Memo); n > ofx.MaxValueChars {
				return 0, pending{}, nil, errorf(line, "a descrição continuada tem %d caracteres; o limite de um campo é %d", n, ofx.MaxValueChars)
			}
			return rowSkip, pending{}, nil, nil
		}
	}
	dateCol := t.columnOf(colDate)
	day, ok := parseDay(dateCell, f.DayFirst)
	if !ok {
		if f.Generic && dateCell != "" && !looksLikeDate(dateCell) {
			return rowEnd, pending{}, nil, nil
		}
		layout := "AAAA-MM-DD"
		if f.DayFirst {
			layout = "DD/MM/AAAA"
		}
		if dateCell == "" {
			return 0, pending{}, nil, errorf(line, "falta a data na coluna %s; cada lançamento precisa da sua data (%s)", dateCol, layout)
		}
		return 0, pending{}, nil, errorf(line, "a data %s na coluna %s não é uma data válida %s; corrija a linha ou exporte o extrato de novo",
			quote(dateCell, 40), dateCol, layout)
	}
	amount, err := t.amount(rec, line)
	if err != nil {
		return 0, pending{}, nil, err
	}
	p := pending{Transaction: ofx.Transaction{Posted: ofx.Time{Day: day}, Amount: amount, Currency: Currency, Line: line,
		FITID: t.cell(rec, colID), RefNum: t.cell(rec, colRef), Type: "CREDIT"}}
	if amount < 0 {
		p.Type = "DEBIT"
	}
	if len(texts) > 0 {
		p.Name = texts[0]
		p.Memo = strings.Join(texts[1:], " - ")
	}
	if v := t.cell(rec, colBalance); v != "" && f.Kind == ofx.Bank {
		b, why := parseAmount(v, f.Decimal)
		if why != "" {
			return 0, pending{}, nil, errorf(line, "o saldo %s na coluna %s %s", quote(v, 40), t.columnOf(colBalance), why)
		}
		p.balance = &b
	}
	return rowTransaction, p, nil, nil
}

// columnOf names the first column of role r as the header writes it.
func (t *table) columnOf(r role) string {
	for i, c := range t.cols {
		if c == r {
			return t.column(i)
		}
	}
	return "?"
}

// amount reads a row's amount, as the account sees it: the Valor column (turned for a card
// export that writes purchases as positive), or a Crédito (in) or a Débito (out).
func (t *table) amount(rec []string, line int) (int64, error) {
	f := t.f
	if t.has(colAmount) {
		v := t.cell(rec, colAmount)
		if v == "" {
			return 0, errorf(line, "falta o valor na coluna %s; cada lançamento precisa do seu valor (%s)", t.columnOf(colAmount), f.Sign)
		}
		a, why := parseAmount(v, f.Decimal)
		if why != "" {
			return 0, errorf(line, "o valor %s na coluna %s %s", quote(v, 40), t.columnOf(colAmount), why)
		}
		if f.PurchasesPositive {
			a = -a
		}
		return a, nil
	}
	credit, debit := t.cell(rec, colCredit), t.cell(rec, colDebit)
	switch {
	case credit == "" && debit == "":
		return 0, errorf(line, "falta o valor: as colunas %s e %s estão vazias; cada lançamento tem um crédito ou um débito",
			t.columnOf(colCredit), t.columnOf(colDebit))
	case credit != "" && debit != "":
		return 0, errorf(line, "a linha tem crédito (%s) e débito (%s); cada lançamento tem um só dos dois: corrija a linha", credit, debit)
	case credit != "":
		a, why := parseAmount(credit, f.Decimal)
		if why != "" {
			return 0, errorf(line, "o crédito %s na coluna %s %s", quote(credit, 40), t.columnOf(colCredit), why)
		}
		if a < 0 {
			return 0, errorf(line, "o crédito %s na coluna %s é negativo; um crédito negativo é ambíguo: escreva-o na coluna %s, sem sinal",
				quote(credit, 40), t.columnOf(colCredit), t.columnOf(colDebit))
		}
		return a, nil
	default:
		a, why := parseAmount(debit, f.Decimal)
		if why != "" {
			return 0, errorf(line, "o débito %s na coluna %s %s", quote(debit, 40), t.columnOf(colDebit), why)
		}
		if a > 0 {
			a = -a // a debit goes out, written with its minus sign or without
		}
		return a, nil
	}
}

// csvError turns encoding/csv's error into an *Error with its line.
func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		why := "a linha não é CSV válido"
		switch {
		case errors.Is(pe.Err, csv.ErrBareQuote):
			why = "há aspas (\") no meio de um campo sem aspas; um campo com aspas precisa estar todo entre aspas, com as de dentro dobradas (\"\")"
		case errors.Is(pe.Err, csv.ErrQuote):
			why = "um campo entre aspas não fecha as aspas (ou tem texto depois delas)"
		}
		return errorf(pe.Line, "%s; corrija a linha ou exporte o extrato de novo", why)
	}
	return errorf(0, "o arquivo não pôde ser lido: %v", err)
}

// norm is how header cells are compared: folded (lower case, no accents, spaces collapsed),
// with "°" and "º" as "o" and a trailing "(R$)" or "R$" dropped.
func norm(s string) string {
	s = strings.NewReplacer("°", "o", "º", "o", "ª", "a").Replace(s)
	s = fold.Fold(s)
	s = strings.TrimSuffix(s, "(r$)")
	s = strings.TrimSuffix(s, "r$")
	return strings.TrimSpace(s)
}

func trimAll(rec []string) []string {
	out := make([]string, len(rec))
	for i, c := range rec {
		out[i] = strings.TrimSpace(c)
	}
	return out
}

func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// quote quotes s for a message, cut to n characters.
func quote(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return strconv.Quote(string(r[:n]) + "…")
	}
	return strconv.Quote(s)
}
