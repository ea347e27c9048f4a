// Package ofx reads bank and credit-card statements in OFX 1.x (SGML) and 2.x (XML), with exact
// amounts in minor units and the dates banks actually write.
package ofx

import (
	"fmt"
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
	if len(data) > MaxSize {
		return nil, errorf(0, "o arquivo tem mais de %d MB; não parece um extrato OFX", MaxSize>>20)
	}
	text, err := decode(data)
	if err != nil {
		return nil, err
	}
	root, err := buildTree(text)
	if err != nil {
		return nil, err
	}
	return statements(root)
}
