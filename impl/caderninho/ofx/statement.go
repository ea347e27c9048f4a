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

// statements reads every STMTRS and CCSTMTRS under <OFX>.
func statements(root *node) ([]Statement, error) {
	ofxs := root.all("OFX")
	if len(ofxs) == 0 {
		return nil, errorf(root.children[0].line, "não é um arquivo OFX: falta o bloco <OFX> (o primeiro elemento é <%s>)", root.children[0].name)
	}
	var out []Statement
	for _, o := range ofxs {
		if s := o.child("SIGNONMSGSRSV1"); s != nil {
			if sonrs := s.child("SONRS"); sonrs != nil {
				if err := checkStatus(sonrs, "a identificação (SONRS)"); err != nil {
					return nil, err
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
			for _, msgs := range o.all(set.msgs) {
				for _, trnrs := range msgs.all(set.trnrs) {
					if err := checkStatus(trnrs, "o extrato ("+set.trnrs+")"); err != nil {
						return nil, err
					}
					for _, rs := range trnrs.all(set.rs) {
						st, err := statement(rs, set.kind)
						if err != nil {
							return nil, err
						}
						out = append(out, st)
					}
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, errorf(ofxs[0].line, "o arquivo não tem extrato de conta (STMTRS) nem de cartão (CCSTMTRS)")
	}
	return out, nil
}

// checkStatus refuses a response whose STATUS code is not 0 (success) or 1 ("no data", harmless).
func checkStatus(n *node, what string) error {
	st := n.child("STATUS")
	if st == nil {
		return nil
	}
	code, line, _ := st.text("CODE")
	if code == "" || code == "0" || code == "1" {
		return nil
	}
	msg, _, _ := st.text("MESSAGE")
	reason := "o banco informou um erro em " + what + " (STATUS CODE " + code
	if msg != "" {
		reason += ": " + msg
	}
	return &Error{Line: line, Reason: reason + "); gere o arquivo de novo"}
}

func statement(rs *node, kind Kind) (Statement, error) {
	st := Statement{Kind: kind, Line: rs.line}
	cur, line, ok := rs.text("CURDEF")
	if !ok || cur == "" {
		return st, errorf(rs.line, "falta a moeda do extrato (CURDEF)")
	}
	cur = strings.ToUpper(cur)
	exp, ok := money.Exponent(cur)
	if !ok {
		return st, errorf(line, "CURDEF %s não é uma moeda ISO 4217", quote(cur, 10))
	}
	st.Currency = cur
	if kind == Bank {
		from := rs.child("BANKACCTFROM")
		if from == nil {
			return st, errorf(rs.line, "falta a conta do extrato (BANKACCTFROM)")
		}
		st.BankID, _, _ = from.text("BANKID")
		st.BranchID, _, _ = from.text("BRANCHID")
		st.Account, _, _ = from.text("ACCTID")
		st.Type, _, _ = from.text("ACCTTYPE")
		st.Type = strings.ToUpper(st.Type)
		if st.Account == "" {
			return st, errorf(from.line, "falta o número da conta (ACCTID)")
		}
	} else {
		from := rs.child("CCACCTFROM")
		if from == nil {
			return st, errorf(rs.line, "falta o cartão do extrato (CCACCTFROM)")
		}
		st.Account, _, _ = from.text("ACCTID")
		st.Type = "CREDITCARD"
		if st.Account == "" {
			return st, errorf(from.line, "falta o número do cartão (ACCTID)")
		}
	}
	if list := rs.child("BANKTRANLIST"); list != nil {
		start, err := dateField(list, "DTSTART", true)
		if err != nil {
			return st, err
		}
		end, err := dateField(list, "DTEND", true)
		if err != nil {
			return st, err
		}
		st.HasPeriod, st.Start, st.End = true, start.Day, end.Day
		if end.HasTime && end.Instant.Hour() == 0 && end.Instant.Minute() == 0 && end.Instant.Second() == 0 && end.Day > start.Day {
			// An end at midnight excludes the day it names.
			st.End = addDays(end.Day, -1)
		}
		if st.End < st.Start {
			_, line, _ := list.text("DTEND")
			return st, errorf(line, "DTEND (%s) é anterior a DTSTART (%s)", st.End, st.Start)
		}
		trns := list.all("STMTTRN")
		st.Transactions = make([]Transaction, 0, len(trns))
		for _, tn := range trns {
			t, err := transaction(tn, cur, exp)
			if err != nil {
				return st, err
			}
			st.Transactions = append(st.Transactions, t)
		}
	}
	if lb := rs.child("LEDGERBAL"); lb != nil {
		amt, err := amountField(lb, "BALAMT", exp)
		if err != nil {
			return st, err
		}
		asOf, err := dateField(lb, "DTASOF", true)
		if err != nil {
			return st, err
		}
		st.Ledger = &Balance{Amount: amt, AsOf: asOf}
	}
	return st, nil
}

func transaction(n *node, cur string, exp int) (Transaction, error) {
	t := Transaction{Line: n.line, Currency: cur}
	t.Type, _, _ = n.text("TRNTYPE")
	t.Type = strings.ToUpper(t.Type)
	posted, err := dateField(n, "DTPOSTED", true)
	if err != nil {
		return t, err
	}
	t.Posted = posted
	if c := n.child("CURRENCY"); c != nil {
		// The amount is in another currency than the statement's.
		sym, line, _ := c.text("CURSYM")
		sym = strings.ToUpper(sym)
		e, ok := money.Exponent(sym)
		if !ok {
			return t, errorf(line, "CURSYM %s não é uma moeda ISO 4217", quote(sym, 10))
		}
		t.Currency, exp = sym, e
	}
	if t.Amount, err = amountField(n, "TRNAMT", exp); err != nil {
		return t, err
	}
	t.FITID, _, _ = n.text("FITID")
	t.Name, _, _ = n.text("NAME")
	if p := n.child("PAYEE"); p != nil && t.Name == "" {
		t.Name, _, _ = p.text("NAME")
	}
	t.Memo, _, _ = n.text("MEMO")
	t.CheckNum, _, _ = n.text("CHECKNUM")
	t.RefNum, _, _ = n.text("REFNUM")
	return t, nil
}

func dateField(n *node, name string, required bool) (Time, error) {
	v, line, ok := n.text(name)
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

func amountField(n *node, name string, exp int) (int64, error) {
	v, line, ok := n.text(name)
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
