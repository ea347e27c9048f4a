package caderninho

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

func (s *Service) bills(ctx context.Context, args *caderninhoapi.CaderninhoBillsInput) (*caderninhoapi.CaderninhoBillsOutput, func() string, error) {
	rc, err := s.readContext(ctx)
	if err != nil {
		return nil, nil, err
	}
	sel := selectionOf(args.Space, args.Person, args.Accounts)
	sel.Kind = "creditcard"
	cards, err := s.selectAccounts(ctx, rc, sel)
	if err != nil {
		return nil, nil, err
	}
	period := coveragePeriod(cards, "", "")
	covs, partial := rc.coverage(cards, period)
	v := &caderninhoapi.CaderninhoBillsOutput{Bills: []caderninhoapi.CaderninhoBillsOutputBill{}, Partial: partial, Coverage: covs,
		Revisions: caderninhoapi.Revisions(revisions(rc, cards, sel.Space))}
	var text strings.Builder
	fmt.Fprintf(&text, "Faturas de %s (%s).\n", ptbr.Count(len(cards), "cartão", "cartões"), revisionsText(v.Revisions))
	today := s.Store.Now().In(rc.inst.Location).Format(time.DateOnly)
	for _, card := range cards {
		bills, lines, err := s.cardBills(ctx, card, today)
		if err != nil {
			return nil, nil, err
		}
		v.Bills = append(v.Bills, bills...)
		fmt.Fprintf(&text, "%s (%s, %s):\n", rc.label(card.Key), card.HolderName, card.Currency)
		if len(bills) == 0 {
			text.WriteString("- nenhum extrato com período importado; não há faturas a mostrar.\n")
		}
		for _, l := range lines {
			text.WriteString(l + "\n")
		}
	}
	text.WriteString("Os totais de faturas fechadas são os que o banco informou; o do ciclo aberto é uma estimativa. " + moneyNote + "\n")
	text.WriteString(coverageText(rc, covs, period, partial))
	return v, text.String, nil
}

// cycle is one bill period being summed.
type cycle struct {
	from, to string
	ledger   *int64
	count    int
	debits   money.Sum
	credits  money.Sum
	// how the period is known: stated by the bank (an OFX bill), set by the card's closing day
	// around days CSV exports cover, or, when the closing day is unknown, the days of CSV exports.
	how cycleKind
}

type cycleKind int

const (
	cycleStated  cycleKind = iota // the bank's statement period
	cycleClosing                  // from the card's closing day, known from its OFX bills
	cycleCSV                      // the days of CSV exports; the closing day unknown
)

func (c *cycle) add(t cadstore.Transaction, currency string) {
	c.count++
	if t.Currency != currency {
		return // another currency is never summed with the card's
	}
	if t.AmountMinor < 0 {
		c.debits.Add(t.AmountMinor)
	} else {
		c.credits.Add(t.AmountMinor)
	}
}

// billCycles are a card's closed bills, oldest first, and its open cycle (nil when the closing
// day is unknown). A bank-stated period (an OFX bill) is a bill, with the bank's total; its end
// gives the card's closing day, by which the days CSV exports cover outside those bills are cut
// into bills too, closed once the exports go past their closing. The open cycle follows the last
// closed bill. Without any stated period the closing day is unknown: each run of overlapping CSV
// exports is one bill, from its first to its last day with a transaction, and there is no open
// cycle to estimate.
func billCycles(sts []cadstore.Statement) (closed []*cycle, open *cycle) {
	var stated, derived [][2]string
	ledgers := map[[2]string]*int64{}
	for _, st := range sts {
		k := [2]string{st.Start, st.End}
		if !st.Stated {
			derived = append(derived, k)
			continue
		}
		if _, ok := ledgers[k]; !ok {
			stated = append(stated, k)
			ledgers[k] = nil
		}
		if st.LedgerMinor != nil {
			ledgers[k] = st.LedgerMinor // the latest import of the same period wins
		}
	}
	if len(stated) == 0 {
		for _, p := range overlapping(derived) {
			closed = append(closed, &cycle{from: p[0], to: p[1], how: cycleCSV})
		}
		return closed, nil
	}
	lastEnd, dataEnd := "", ""
	for _, k := range stated {
		closed = append(closed, &cycle{from: k[0], to: k[1], ledger: ledgers[k], how: cycleStated})
		lastEnd = max(lastEnd, k[1])
	}
	for _, k := range derived {
		dataEnd = max(dataEnd, k[1])
	}
	seen := map[[2]string]bool{}
	for _, d := range derived {
		for day := d[0]; day <= d[1]; {
			from, to := cycleOf(lastEnd, day)
			day = cadstore.AddDays(to, 1)
			if seen[[2]string{from, to}] || to >= dataEnd && to >= lastEnd {
				continue // the open cycle, or one already cut
			}
			seen[[2]string{from, to}] = true
			clash := false
			for _, k := range stated {
				clash = clash || from <= k[1] && k[0] <= to
			}
			if !clash {
				closed = append(closed, &cycle{from: from, to: to, how: cycleClosing})
			}
		}
	}
	sort.SliceStable(closed, func(i, j int) bool { return closed[i].to < closed[j].to })
	closedEnd := ""
	for _, c := range closed {
		closedEnd = max(closedEnd, c.to)
	}
	from, to := cycleOf(lastEnd, cadstore.AddDays(closedEnd, 1))
	return closed, &cycle{from: from, to: to}
}

// overlapping joins the periods that share a day (not those that only touch: two bills read
// from CSV exports are two bills), oldest first.
func overlapping(periods [][2]string) [][2]string {
	ps := append([][2]string(nil), periods...)
	sort.Slice(ps, func(i, j int) bool { return ps[i][0] < ps[j][0] || ps[i][0] == ps[j][0] && ps[i][1] < ps[j][1] })
	var out [][2]string
	for _, p := range ps {
		if n := len(out); n > 0 && p[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], p[1])
			continue
		}
		out = append(out, p)
	}
	return out
}

// cycleOf is the bill cycle holding day for a card that closed on closing: cycles close on
// closing's day of the month (the month's last day when closing was one, or when the month is
// shorter).
func cycleOf(closing, day string) (from, to string) {
	c, err := time.Parse(time.DateOnly, closing)
	d, err2 := time.Parse(time.DateOnly, day)
	if err != nil || err2 != nil {
		return day, day
	}
	monthEnd := c.AddDate(0, 0, 1).Day() == 1
	closingIn := func(year int, month time.Month) time.Time {
		last := time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC)
		if monthEnd || c.Day() > last.Day() {
			return last
		}
		return time.Date(year, month, c.Day(), 0, 0, 0, 0, time.UTC)
	}
	end := closingIn(d.Year(), d.Month())
	if d.After(end) {
		end = closingIn(d.Year(), d.Month()+1)
	}
	prev := closingIn(end.Year(), end.Month()-1)
	return prev.AddDate(0, 0, 1).Format(time.DateOnly), end.Format(time.DateOnly)
}

// cardBills lists a card's bills, most recent first: the open cycle (after the last closing,
// estimated) when the closing day is known, then the closed bills (see billCycles); and the line
// of the text saying each.
func (s *Service) cardBills(ctx context.Context, card *cadstore.Account, today string) ([]caderninhoapi.CaderninhoBillsOutputBill, []string, error) {
	sts, err := s.Store.Statements(ctx, card.ID)
	if err != nil {
		return nil, nil, err
	}
	if len(sts) == 0 {
		return nil, nil, nil
	}
	cycles, open := billCycles(sts)
	txs, err := s.Store.AllTransactions(ctx, card.ID)
	if err != nil {
		return nil, nil, err
	}
	for _, t := range txs {
		for _, c := range cycles {
			if t.Day >= c.from && t.Day <= c.to {
				c.add(t, card.Currency)
			}
		}
		if open != nil && t.Day >= open.from {
			open.add(t, card.Currency)
		}
	}
	id := caderninhoapi.AccountId(card.Key)
	var out []caderninhoapi.CaderninhoBillsOutputBill
	var texts []string
	if open != nil {
		// The bank's sign for what is owed: most banks report a bill as a positive balance (the
		// negated debits); one that reports it negative gets the debits as they are.
		estimate := open.debits.Int()
		var last *int64
		for _, c := range cycles {
			if c.how == cycleStated {
				last = c.ledger
			}
		}
		if last == nil || *last >= 0 {
			estimate.Neg(estimate)
		}
		lastEnd := cadstore.AddDays(open.from, -1)
		explain := fmt.Sprintf("Estimativa: soma das compras (lançamentos negativos) em %s lançadas depois do último fechamento (%s) "+
			"e presentes nos extratos: %s. Pagamentos e estornos (lançamentos positivos) não entram; o sinal segue o das faturas fechadas deste cartão. "+
			"O fechamento em %s foi estimado pelo mesmo dia do mês do último fechamento; o vencimento não é informado pelos extratos.",
			card.Currency, ptbr.Day(lastEnd), ptbr.Count(open.count, "lançamento", "lançamentos"), ptbr.Day(open.to))
		if open.to < today {
			explain += " O fechamento estimado já passou: importe o extrato dessa fatura para ver o total informado pelo banco."
		}
		b := caderninhoapi.CaderninhoBillsOutputBill{AccountId: id, Status: caderninhoapi.CaderninhoBillsOutputBillStatusOpen,
			Period: periodOf(cadstore.Period{From: open.from, To: open.to}), ClosingDay: dayOf(open.to), ClosingEstimated: true,
			DueDate: caderninhoapi.NilDate{Null: true}, Total: caderninhoapi.NewNilMoney(caderninhoapi.Money{AmountMinor: estimate.String(), Currency: card.Currency}),
			Estimate: true, Estimation: caderninhoapi.NewNilString(explain), TransactionCount: open.count,
			Debits:  caderninhoapi.Money{AmountMinor: open.debits.Minor(), Currency: card.Currency},
			Credits: caderninhoapi.Money{AmountMinor: open.credits.Minor(), Currency: card.Currency}}
		out = append(out, b)
		texts = append(texts, billText(b, cycleStated))
	}
	for i := len(cycles) - 1; i >= 0; i-- {
		c := cycles[i]
		b := caderninhoapi.CaderninhoBillsOutputBill{AccountId: id, Status: caderninhoapi.CaderninhoBillsOutputBillStatusClosed,
			Period: periodOf(cadstore.Period{From: c.from, To: c.to}), ClosingDay: dayOf(c.to), ClosingEstimated: c.how != cycleStated,
			DueDate: caderninhoapi.NilDate{Null: true}, Total: caderninhoapi.NilMoney{Null: true}, Estimation: caderninhoapi.NilString{Null: true},
			TransactionCount: c.count,
			Debits:           caderninhoapi.Money{AmountMinor: c.debits.Minor(), Currency: card.Currency},
			Credits:          caderninhoapi.Money{AmountMinor: c.credits.Minor(), Currency: card.Currency}}
		if c.ledger != nil {
			b.Total = caderninhoapi.NewNilMoney(moneyOf(*c.ledger, card.Currency))
		}
		out = append(out, b)
		texts = append(texts, billText(b, c.how))
	}
	return out, texts, nil
}

func billText(b caderninhoapi.CaderninhoBillsOutputBill, how cycleKind) string {
	sums := fmt.Sprintf("%s (débitos %s, créditos %s)", ptbr.Count(b.TransactionCount, "lançamento", "lançamentos"),
		moneyText(b.Debits), moneyText(b.Credits))
	if b.Status == caderninhoapi.CaderninhoBillsOutputBillStatusOpen {
		return fmt.Sprintf("- Ciclo aberto de %s a %s (fechamento estimado): estimativa %s; %s. %s", dayText(b.Period.From), dayText(b.Period.To),
			moneyText(b.Total.Value), sums, b.Estimation.Value)
	}
	switch how {
	case cycleClosing:
		return fmt.Sprintf("- Fatura fechada em %s (de %s a %s; fechamento estimado pelo dia de fechamento dos extratos OFX do cartão, "+
			"lançamentos de arquivos CSV): total não informado pelo banco; vencimento não informado; %s.", dayText(b.ClosingDay),
			dayText(b.Period.From), dayText(b.Period.To), sums)
	case cycleCSV:
		return fmt.Sprintf("- Fatura lida de CSV, de %s a %s: o arquivo não informa o fechamento nem o total; o período vai do primeiro ao último dia "+
			"com lançamento, e o fechamento em %s é só uma estimativa; %s. Para que as faturas sigam o dia de fechamento do cartão, "+
			"importe um extrato OFX de uma fatura deste cartão.", dayText(b.Period.From), dayText(b.Period.To), dayText(b.ClosingDay), sums)
	}
	total := "total não informado pelo banco"
	if t, ok := b.Total.Get(); ok {
		total = "total " + moneyText(t) + " informado pelo banco"
	}
	return fmt.Sprintf("- Fatura fechada em %s (de %s a %s): %s; vencimento não informado; %s.", dayText(b.ClosingDay),
		dayText(b.Period.From), dayText(b.Period.To), total, sums)
}
