// Package ofx reads bank and credit-card statements in OFX 1.x (SGML) and 2.x (XML), with exact
// amounts in minor units and the dates banks actually write.
package ofx

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // America/Sao_Paulo must resolve on machines without a zoneinfo database
)

// Kind tells a bank account statement from a credit-card statement.
type Kind string

// Statement kinds.
const (
	Bank       Kind = "bank"
	CreditCard Kind = "creditcard"
)

// Statement is one account's statement (STMTRS or CCSTMTRS).
type Statement struct {
	Kind     Kind
	Currency string // CURDEF, an ISO 4217 code
	BankID   string // BANKID ("" for cards)
	BranchID string // BRANCHID, when given
	Account  string // ACCTID
	Type     string // ACCTTYPE (CHECKING, SAVINGS, MONEYMRKT, CREDITLINE, CD); CREDITCARD for cards
	// HasPeriod is false when the statement has no transaction list (BANKTRANLIST).
	HasPeriod    bool
	Start, End   string // covered calendar days, inclusive (YYYY-MM-DD)
	Transactions []Transaction
	Ledger       *Balance // LEDGERBAL, when given
	Line         int      // where the statement starts in the file
}

// Transaction is one STMTTRN as the bank wrote it.
type Transaction struct {
	Type     string // TRNTYPE (DEBIT, CREDIT, PAYMENT, ...)
	Posted   Time   // DTPOSTED
	Amount   int64  // TRNAMT in minor units of Currency
	Currency string // the statement's currency, or the transaction's own CURRENCY
	FITID    string // "" when the bank left it out
	Name     string
	Memo     string
	CheckNum string
	RefNum   string
	Line     int
}

// Balance is a ledger balance and the moment it refers to.
type Balance struct {
	Amount int64 // minor units of the statement's currency
	AsOf   Time
}

// Time is an OFX date: the calendar day the bank wrote and, when it wrote a time of day too, the
// instant (in the zone it gave, or America/Sao_Paulo when it gave none).
type Time struct {
	Day     string // YYYY-MM-DD
	HasTime bool
	Instant time.Time // zero unless HasTime
}

// Error is why a file was refused: the line (from 1; 0 when the whole file is concerned) and the
// reason, in Portuguese for the operator.
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

// MaxSize is the largest file Parse reads; statements are far smaller.
const MaxSize = 64 << 20

// Parse reads every statement of an OFX file. It returns either all of them or an *Error: never
// part of a file.
func Parse(data []byte) ([]Statement, error) {
	// The statements' strings point into the text: a copy, so the caller keeps data its own.
	f, err := Open(bytes.Clone(data))
	if err != nil {
		return nil, err
	}
	out := make([]Statement, len(f.Statements))
	for i, st := range f.Statements {
		if st.HasPeriod {
			st.Transactions = make([]Transaction, 0, f.Count(i))
		}
		err := f.Transactions(i, func(t *Transaction) error {
			st.Transactions = append(st.Transactions, *t)
			return nil
		})
		if err != nil {
			return nil, err
		}
		out[i] = st
	}
	return out, nil
}

// File is an OFX file that was checked whole (every error Parse would return) and whose
// transactions are read again from its text on demand: a large file is never held as an element
// tree nor as a slice of transactions.
type File struct {
	// Statements are the file's statements in order, without their Transactions.
	Statements []Statement
	// Org and FID are what the file's sign-on says of the bank that made it (SONRS's FI: ORG,
	// e.g. "NU PAGAMENTOS S.A.", and FID), "" when it says nothing.
	Org, FID string
	body     *body
	nodes    []*node
	exps     []int
	counts   []int
}

// Open checks an OFX file and returns its statements, or the *Error Parse returns. The File
// reads data as its text until it is dropped: data must not change meanwhile. The statements'
// strings (but not their transactions') are copies.
func Open(data []byte) (*File, error) {
	return OpenVisiting(data, nil)
}

// OpenVisiting is Open that also gives fn, when not nil, every transaction as the check reads
// it: in order, with the index of its statement in Statements. t is fn's only during the call
// and its strings point into data; the file may still be refused after fn saw some of it. An
// error of fn stops the reading and is returned. An importer that needs a first look at every
// transaction gets it here instead of from a reading of its own.
func OpenVisiting(data []byte, fn func(i int, t *Transaction) error) (*File, error) {
	if len(data) > MaxSize {
		return nil, errorf(0, "o arquivo tem mais de %d MB; não parece um extrato OFX", MaxSize>>20)
	}
	text, err := decode(data)
	if err != nil {
		return nil, err
	}
	b, err := check(text)
	if err != nil {
		return nil, err
	}
	b.visit = fn
	f := &File{body: b}
	err = b.statements(func(st Statement, rs *node, exp, n int) error {
		// A statement's strings outlive the file (an importer keeps its account): not into data.
		st.Currency, st.BankID, st.BranchID = strings.Clone(st.Currency), strings.Clone(st.BankID), strings.Clone(st.BranchID)
		st.Account, st.Type = strings.Clone(st.Account), strings.Clone(st.Type)
		f.Statements = append(f.Statements, st)
		keep := *rs // rs is the walk's only during the call
		f.nodes = append(f.nodes, &keep)
		f.exps = append(f.exps, exp)
		f.counts = append(f.counts, n)
		return nil
	})
	b.visit = nil
	if err != nil {
		return nil, err
	}
	f.Org, f.FID = b.org, b.fid
	return f, nil
}

// Count is how many transactions statement i has.
func (f *File) Count(i int) int { return f.counts[i] }

// Transactions reads the transactions of statement i in order; the file was checked, so the only
// error is fn's, which stops the reading. t is fn's only during the call; its strings point into
// the file's text.
func (f *File) Transactions(i int, fn func(t *Transaction) error) error {
	list, err := f.body.child(f.nodes[i], "BANKTRANLIST")
	if err != nil || list == nil {
		return err
	}
	return f.body.transactions(list, f.Statements[i].Currency, f.exps[i], fn)
}
