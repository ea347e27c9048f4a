package ofx

// The tree parser that Parse used before it streamed, kept as the reference the streaming reader
// is compared with (TestStreamMatchesTree, FuzzStreamMatchesTree): same statements, same errors.

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// treeParse is the former Parse.
func treeParse(data []byte) ([]Statement, error) {
	if len(data) > MaxSize {
		return nil, errorf(0, "o arquivo tem mais de %d MB; não parece um extrato OFX", MaxSize>>20)
	}
	text, err := decode(data)
	if err != nil {
		return nil, err
	}
	root, err := oldBuildTree(text)
	if err != nil {
		return nil, err
	}
	return oldStatements(root)
}

// oldNode is an OFX element: an aggregate with children, or a data element with a value.
type oldNode struct {
	name     string
	value    string
	leaf     bool
	children []*oldNode
	line     int
}

// child returns the first child named name, or nil.
func (n *oldNode) child(name string) *oldNode {
	for _, c := range n.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

// all returns every child named name.
func (n *oldNode) all(name string) []*oldNode {
	var out []*oldNode
	for _, c := range n.children {
		if c.name == name {
			out = append(out, c)
		}
	}
	return out
}

// text returns the value of the child data element name ("" when absent) and its line.
func (n *oldNode) text(name string) (string, int, bool) {
	c := n.child(name)
	if c == nil {
		return "", n.line, false
	}
	return c.value, c.line, true
}

// oldBuildTree parses the body of an OFX file (from its first tag) into a tree under a nameless root.
// A data element is a tag followed by text; an aggregate is a tag followed by other tags. A closing
// tag closes the innermost open element of that name; elements left open inside it must be empty
// (SGML data elements without a value). Anything else is an *Error.
func oldBuildTree(text string) (*oldNode, error) {
	start := strings.IndexByte(text, '<')
	sc := &scanner{s: text, pos: start, line: 1 + strings.Count(text[:start], "\n")}
	root := &oldNode{line: 1}
	stack := []*oldNode{root}
	for {
		t, err := sc.next()
		if err != nil {
			return nil, err
		}
		top := stack[len(stack)-1]
		switch t.kind {
		case tokEOF:
			for i := len(stack) - 1; i > 0; i-- {
				if len(stack[i].children) > 0 {
					return nil, errorf(stack[i].line, "a tag <%s> não foi fechada (o arquivo parece cortado)", stack[i].name)
				}
			}
			if len(root.children) == 0 {
				return nil, errorf(0, "não é um arquivo OFX: não há nenhum elemento")
			}
			return root, nil
		case tokText:
			if s := strings.TrimSpace(t.text); s != "" && len(stack) > 1 {
				return nil, errorf(t.line, "texto fora de um campo dentro de <%s>: %s", top.name, quote(s, 30))
			}
		case tokEnd:
			i := len(stack) - 1
			for i > 0 && stack[i].name != t.name {
				i--
			}
			if i == 0 {
				return nil, errorf(t.line, "</%s> fecha uma tag que não está aberta", t.name)
			}
			for j := len(stack) - 1; j > i; j-- {
				if len(stack[j].children) > 0 {
					return nil, errorf(stack[j].line, "a tag <%s> não foi fechada antes de </%s> na linha %d", stack[j].name, t.name, t.line)
				}
				stack[j].leaf = true
			}
			stack = stack[:i]
		case tokStart:
			n := &oldNode{name: t.name, line: t.line}
			top.children = append(top.children, n)
			if t.self {
				n.leaf = true
				continue
			}
			nt, err := sc.peek()
			if err != nil {
				return nil, err
			}
			if nt.kind == tokText {
				sc.next()
				if v := strings.TrimSpace(nt.text); v != "" {
					if aggregates[n.name] {
						return nil, errorf(n.line, "<%s> deveria conter outros campos, mas tem o valor %s", n.name, quote(v, 30))
					}
					if c := utf8.RuneCountInString(v); c > MaxValueChars {
						return nil, errorf(n.line, "<%s> tem %s caracteres, acima do limite de %s por campo (o OFX prevê até 255 num MEMO "+
							"e 32 num NAME); gere o arquivo de novo no banco ou encurte o texto de <%s> nessa linha",
							n.name, ptbr.Int(int64(c)), ptbr.Int(MaxValueChars), n.name)
					}
					n.leaf, n.value = true, entities(v)
				}
				if nt, err = sc.peek(); err != nil {
					return nil, err
				}
			}
			if nt.kind == tokEnd && nt.name == n.name {
				sc.next()
				n.leaf = true
				continue
			}
			if n.leaf {
				continue
			}
			if len(stack) >= maxDepth {
				return nil, errorf(t.line, "tags aninhadas demais (mais de %d níveis)", maxDepth)
			}
			stack = append(stack, n)
		}
	}
}

// oldstatements reads every STMTRS and CCSTMTRS under <OFX>.
func oldStatements(root *oldNode) ([]Statement, error) {
	ofxs := root.all("OFX")
	if len(ofxs) == 0 {
		return nil, errorf(root.children[0].line, "não é um arquivo OFX: falta o bloco <OFX> (o primeiro elemento é <%s>)", root.children[0].name)
	}
	var out []Statement
	for _, o := range ofxs {
		if s := o.child("SIGNONMSGSRSV1"); s != nil {
			if sonrs := s.child("SONRS"); sonrs != nil {
				if err := oldCheckStatus(sonrs, "a identificação (SONRS)"); err != nil {
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
					if err := oldCheckStatus(trnrs, "o extrato ("+set.trnrs+")"); err != nil {
						return nil, err
					}
					for _, rs := range trnrs.all(set.rs) {
						st, err := oldStatement(rs, set.kind)
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
func oldCheckStatus(n *oldNode, what string) error {
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

func oldStatement(rs *oldNode, kind Kind) (Statement, error) {
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
		start, err := oldDateField(list, "DTSTART", true)
		if err != nil {
			return st, err
		}
		end, err := oldDateField(list, "DTEND", true)
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
			t, err := oldTransaction(tn, cur, exp)
			if err != nil {
				return st, err
			}
			st.Transactions = append(st.Transactions, t)
		}
	}
	if lb := rs.child("LEDGERBAL"); lb != nil {
		amt, err := oldAmountField(lb, "BALAMT", exp)
		if err != nil {
			return st, err
		}
		asOf, err := oldDateField(lb, "DTASOF", true)
		if err != nil {
			return st, err
		}
		st.Ledger = &Balance{Amount: amt, AsOf: asOf}
	}
	return st, nil
}

func oldTransaction(n *oldNode, cur string, exp int) (Transaction, error) {
	t := Transaction{Line: n.line, Currency: cur}
	t.Type, _, _ = n.text("TRNTYPE")
	t.Type = strings.ToUpper(t.Type)
	posted, err := oldDateField(n, "DTPOSTED", true)
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
	if t.Amount, err = oldAmountField(n, "TRNAMT", exp); err != nil {
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

func oldDateField(n *oldNode, name string, required bool) (Time, error) {
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

func oldAmountField(n *oldNode, name string, exp int) (int64, error) {
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
