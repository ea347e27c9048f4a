package bankcsv

import (
	"fmt"
	"slices"

	"github.com/lumo-caderninho/mcp/impl/caderninho/ofx"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// ledger works the account's balance out of a Saldo column, the balance after each row, when
// it agrees with the amounts. The rows' order is the bank's: oldest first when the days never
// go down (and do not all fall on one day), newest first when they never go up; with every row
// on one day, whichever order the balances agree with. In that order every balance must be the
// one before it plus the amounts between them; then the balance is the last one, plus the
// amounts of the rows after it that have none, at the day of the last row. A Saldo column that
// does not agree, or rows out of order, give no balance and a warning; no Saldo column (or no
// balance in it) gives none and no warning.
func ledger(rows []pending) (*ofx.Balance, *Warning) {
	if !slices.ContainsFunc(rows, func(r pending) bool { return r.balance != nil }) {
		return nil, nil
	}
	up, down := true, true
	for i := 1; i < len(rows); i++ {
		up = up && rows[i].Posted.Day >= rows[i-1].Posted.Day
		down = down && rows[i].Posted.Day <= rows[i-1].Posted.Day
	}
	if !up && !down {
		return nil, &Warning{Line: rows[0].Line, Message: "as datas da tabela não estão em ordem, então a coluna de saldo não diz qual é o saldo final; " +
			"o saldo da conta não foi atualizado por este arquivo (as transações foram importadas)"}
	}
	var tries []bool // oldest first?
	switch {
	case up && !down:
		tries = []bool{true}
	case down && !up:
		tries = []bool{false}
	default:
		tries = []bool{true, false}
	}
	var first *Warning
	for _, oldestFirst := range tries {
		bal, w := walk(rows, oldestFirst)
		if w == nil {
			return bal, nil
		}
		if first == nil {
			first = w
		}
	}
	return nil, first
}

// walk checks the balances of rows in one order (see ledger) and gives the final balance.
func walk(rows []pending, oldestFirst bool) (*ofx.Balance, *Warning) {
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
		if !oldestFirst {
			order[i] = len(rows) - 1 - i
		}
	}
	var bal int64
	have := false
	for _, i := range order {
		r := &rows[i]
		if have {
			next, ok := money.Checked(bal, r.Amount)
			if !ok {
				return nil, &Warning{Line: r.Line, Message: "a soma dos valores passa do limite; o saldo da conta não foi atualizado por este arquivo"}
			}
			bal = next
			if r.balance != nil && *r.balance != bal {
				return nil, &Warning{Line: r.Line, Message: fmt.Sprintf(
					"a coluna de saldo não fecha com os valores: a linha %d diz saldo %s, e o saldo anterior mais o valor dá %s; "+
						"o saldo da conta não foi atualizado por este arquivo (as transações foram importadas): confira o extrato no banco",
					r.Line, ptbr.Money(fmt.Sprint(*r.balance), Currency), ptbr.Money(fmt.Sprint(bal), Currency))}
			}
			continue
		}
		if r.balance != nil {
			bal, have = *r.balance, true
		}
	}
	last := order[len(order)-1]
	return &ofx.Balance{Amount: bal, AsOf: ofx.Time{Day: rows[last].Posted.Day}}, nil
}

// lastBalance is the balance of the latest dated balance row (the last of its day), if any.
func lastBalance(rows []balanceRow) *ofx.Balance {
	var best *balanceRow
	for i := range rows {
		if best == nil || rows[i].day >= best.day {
			best = &rows[i]
		}
	}
	if best == nil {
		return nil
	}
	return &ofx.Balance{Amount: best.amount, AsOf: ofx.Time{Day: best.day}}
}
