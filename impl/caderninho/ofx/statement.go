package ofx

import (
	"errors"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/money"
)

// Aggregates that must hold other elements; a value in their place means a broken file.
var aggregates = map[string]bool{
	"OFX": true, "SIGNONMSGSRSV1": true, "SONRS": true, "STATUS": true, "BANKMSGSRSV1": true,
	"STMTTRNRS": true, "STMTRS": true, "BANKACCTFROM": true, "BANKTRANLIST": true, "STMTTRN": true,
	"LEDGERBAL": true, "AVAILBAL": true, "CREDITCARDMSGSRSV1": true, "CCSTMTTRNRS": true,
	"CCSTMTRS": true, "CCACCTFROM": true, "CURRENCY": true, "ORIGCURRENCY": true, "PAYEE": true,
	"BANKACCTTO": true, "CCACCTTO": true,
}

// statements visits every STMTRS and CCSTMTRS under <OFX>, in the order the tree walk did: the
// <OFX> blocks in turn, in each its sign-on status, then its bank statements, then its card
// statements. fn gets each statement without its transactions and reads them with txs (any
// number of times); the first error found in that order is returned.
func (b *body) statements(fn func(st Statement, rs *node, exp, count int) error) error {
	var first *node
	if err := b.each(b.root, func(c *node) (bool, error) { cp := *c; first = &cp; return false, nil }); err != nil {
		return err
	}
	var firstOFX *node
	n := 0
	err := b.all(b.root, "OFX", func(o *node) error {
		if firstOFX == nil {
			cp := *o
			firstOFX = &cp
		}
		if s, err := b.child(o, "SIGNONMSGSRSV1"); err != nil {
			return err
		} else if s != nil {
			sonrs, err := b.child(s, "SONRS")
			if err != nil {
				return err
			}
			if sonrs != nil {
				if err := b.checkStatus(sonrs, "a identificação (SONRS)"); err != nil {
					return err
				}
				if err := b.institution(sonrs); err != nil {
					return err
				}
			}
		}
		for _, set := range []struct {
			msgs, trnrs, rs string
			kind            Kind
		}{
			{"BANKMSGSRSV1", "STMTTRNRS", "STMTRS", Bank},
			{"CREDITCARDMSGSRSV1", "CCSTMTTRNRS", "CCSTMTRS", CreditCard},
		} {
			err := b.all(o, set.msgs, func(msgs *node) error {
				return b.all(msgs, set.trnrs, func(trnrs *node) error {
					if err := b.checkStatus(trnrs, "o extrato ("+set.trnrs+")"); err != nil {
						return err
					}
					return b.all(trnrs, set.rs, func(rs *node) error {
						st, exp, count, err := b.statement(rs, set.kind)
						if err != nil {
							return err
						}
						n++
						b.read = n
						return fn(st, rs, exp, count)
					})
				})
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if firstOFX == nil {
		return errorf(first.line, "não é um arquivo OFX: falta o bloco <OFX> (o primeiro elemento é <%s>)", first.name)
	}
	if n == 0 {
		return errorf(firstOFX.line, "o arquivo não tem extrato de conta (STMTRS) nem de cartão (CCSTMTRS)")
	}
	return nil
}

// institution keeps the first FI of a sign-on response (SONRS): the ORG and FID that name the
// bank the file came from.
func (b *body) institution(sonrs *node) error {
	if b.org != "" || b.fid != "" {
		return nil
	}
	fi, err := b.child(sonrs, "FI")
	if err != nil || fi == nil {
		return err
	}
	var ferr error
	field := b.fields(&ferr)
	org, fid := field(fi, "ORG"), field(fi, "FID")
	if ferr != nil {
		return ferr
	}
	b.org, b.fid = strings.Clone(org), strings.Clone(fid)
	return nil
}

// checkStatus refuses a response whose STATUS code is not 0 (success) or 1 ("no data", harmless).
func (b *body) checkStatus(n *node, what string) error {
	st, err := b.child(n, "STATUS")
	if err != nil || st == nil {
		return err
	}
	code, line, _, err := b.text(st, "CODE")
	if err != nil {
		return err
	}
	if code == "" || code == "0" || code == "1" {
		return nil
	}
	msg, _, _, err := b.text(st, "MESSAGE")
	if err != nil {
		return err
	}
	reason := "o banco informou um erro em " + what + " (STATUS CODE " + code
	if msg != "" {
		reason += ": " + msg
	}
	return &Error{Line: line, Reason: reason + "); gere o arquivo de novo"}
}

// statement reads a statement's header, period and ledger balance, and checks every transaction
// (read again by transactions): exp is the exponent of its currency, count its transactions.
func (b *body) statement(rs *node, kind Kind) (st Statement, exp, count int, err error) {
	st, exp, err = b.header(rs, kind, &count)
	return st, exp, count, err
}

func (b *body) header(rs *node, kind Kind, count *int) (Statement, int, error) {
	st := Statement{Kind: kind, Line: rs.line}
	cur, line, ok, err := b.text(rs, "CURDEF")
	if err != nil {
		return st, 0, err
	}
	if !ok || cur == "" {
		return st, 0, errorf(rs.line, "falta a moeda do extrato (CURDEF)")
	}
	cur = strings.ToUpper(cur)
	exp, ok := money.Exponent(cur)
	if !ok {
		return st, 0, errorf(line, "CURDEF %s não é uma moeda ISO 4217", quote(cur, 10))
	}
	st.Currency = cur
	field := b.fields(&err)
	if kind == Bank {
		from, err := b.child(rs, "BANKACCTFROM")
		if err != nil {
			return st, 0, err
		}
		if from == nil {
			return st, 0, errorf(rs.line, "falta a conta do extrato (BANKACCTFROM)")
		}
		st.BankID = field(from, "BANKID")
		st.BranchID = field(from, "BRANCHID")
		st.Account = field(from, "ACCTID")
		st.Type = strings.ToUpper(field(from, "ACCTTYPE"))
		if err != nil {
			return st, 0, err
		}
		if st.Account == "" {
			return st, 0, errorf(from.line, "falta o número da conta (ACCTID)")
		}
	} else {
		from, err := b.child(rs, "CCACCTFROM")
		if err != nil {
			return st, 0, err
		}
		if from == nil {
			return st, 0, errorf(rs.line, "falta o cartão do extrato (CCACCTFROM)")
		}
		st.Account = field(from, "ACCTID")
		st.Type = "CREDITCARD"
		if err != nil {
			return st, 0, err
		}
		if st.Account == "" {
			return st, 0, errorf(from.line, "falta o número do cartão (ACCTID)")
		}
	}
	list, err := b.child(rs, "BANKTRANLIST")
	if err != nil {
		return st, 0, err
	}
	if list != nil {
		start, err := b.dateField(list, "DTSTART", true)
		if err != nil {
			return st, 0, err
		}
		end, err := b.dateField(list, "DTEND", true)
		if err != nil {
			return st, 0, err
		}
		st.HasPeriod, st.Start, st.End = true, start.Day, end.Day
		if end.HasTime && end.Instant.Hour() == 0 && end.Instant.Minute() == 0 && end.Instant.Second() == 0 && end.Day > start.Day {
			// An end at midnight excludes the day it names.
			st.End = addDays(end.Day, -1)
		}
		if st.End < st.Start {
			_, line, _, err := b.text(list, "DTEND")
			if err != nil {
				return st, 0, err
			}
			return st, 0, errorf(line, "DTEND (%s) é anterior a DTSTART (%s)", st.End, st.Start)
		}
		i := b.read // this statement's index
		err = b.transactions(list, cur, exp, func(t *Transaction) error {
			*count++
			if b.visit != nil {
				return b.visit(i, t)
			}
			return nil
		})
		if err != nil {
			return st, 0, err
		}
	}
	lb, err := b.child(rs, "LEDGERBAL")
	if err != nil {
		return st, 0, err
	}
	if lb != nil {
		amt, err := b.amountField(lb, "BALAMT", exp)
		if err != nil {
			return st, 0, err
		}
		asOf, err := b.dateField(lb, "DTASOF", true)
		if err != nil {
			return st, 0, err
		}
		st.Ledger = &Balance{Amount: amt, AsOf: asOf}
	}
	return st, exp, nil
}

// transactions reads every STMTTRN of a transaction list, in order.
func (b *body) transactions(list *node, cur string, exp int, fn func(*Transaction) error) error {
	var t Transaction // one for the whole list: fn's only during its call
	return b.all(list, "STMTTRN", func(tn *node) error {
		if tn.open && !tn.ended && !tn.hasKids {
			// Its fields are looked up one by one: collected once, into a buffer that only
			// this transaction uses (each would copy them, a million times in a large file).
			kids, few, err := b.collect(tn, b.txKids[:0])
			b.txKids = kids[:0]
			if err != nil {
				return err
			}
			if few {
				tn.kids, tn.hasKids = kids, true
			}
		}
		var err error
		if t, err = b.transaction(tn, cur, exp); err != nil {
			return err
		}
		return fn(&t)
	})
}

// fields reads data elements' values until one read fails, keeping the first error in *err
// (later reads then give "").
func (b *body) fields(err *error) func(n *node, name string) string {
	return func(n *node, name string) string {
		if *err != nil {
			return ""
		}
		var v string
		v, _, _, *err = b.text(n, name)
		return v
	}
}

func (b *body) transaction(n *node, cur string, exp int) (Transaction, error) {
	t := Transaction{Line: n.line, Currency: cur}
	var err error
	field := b.fields(&err)
	t.Type = strings.ToUpper(field(n, "TRNTYPE"))
	if err != nil {
		return t, err
	}
	posted, err := b.dateField(n, "DTPOSTED", true)
	if err != nil {
		return t, err
	}
	t.Posted = posted
	c, err := b.child(n, "CURRENCY")
	if err != nil {
		return t, err
	}
	if c != nil {
		// The amount is in another currency than the statement's.
		sym, line, _, err := b.text(c, "CURSYM")
		if err != nil {
			return t, err
		}
		sym = strings.ToUpper(sym)
		e, ok := money.Exponent(sym)
		if !ok {
			return t, errorf(line, "CURSYM %s não é uma moeda ISO 4217", quote(sym, 10))
		}
		t.Currency, exp = sym, e
	}
	if t.Amount, err = b.amountField(n, "TRNAMT", exp); err != nil {
		return t, err
	}
	t.FITID = field(n, "FITID")
	t.Name = field(n, "NAME")
	if err != nil {
		return t, err
	}
	p, err := b.child(n, "PAYEE")
	if err != nil {
		return t, err
	}
	if p != nil && t.Name == "" {
		t.Name = field(p, "NAME")
	}
	t.Memo = field(n, "MEMO")
	t.CheckNum = field(n, "CHECKNUM")
	t.RefNum = field(n, "REFNUM")
	return t, err
}

func (b *body) dateField(n *node, name string, required bool) (Time, error) {
	v, line, ok, err := b.text(n, name)
	if err != nil {
		return Time{}, err
	}
	if !ok || v == "" {
		if required {
			return Time{}, errorf(n.line, "falta a data %s em <%s>", name, n.name)
		}
		return Time{}, nil
	}
	t, err := ParseTime(v)
	if err != nil {
		return Time{}, errorf(line, "%s %s não é uma data OFX válida (AAAAMMDD, com hora e fuso opcionais)", name, quote(v, 40))
	}
	return t, nil
}

func (b *body) amountField(n *node, name string, exp int) (int64, error) {
	v, line, ok, err := b.text(n, name)
	if err != nil {
		return 0, err
	}
	if !ok || v == "" {
		return 0, errorf(n.line, "falta o valor %s em <%s>", name, n.name)
	}
	a, err := money.ParseDecimal(v, exp)
	if err != nil {
		reason := err.Error()
		if errors.Is(err, money.ErrPrecision) {
			reason = "tem mais casas decimais do que a moeda permite; o valor nunca é arredondado"
		}
		return 0, errorf(line, "%s %s %s", name, quote(v, 40), reason)
	}
	return a, nil
}
