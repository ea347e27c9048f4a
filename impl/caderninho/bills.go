package caderninho

import (
	"context"
	"fmt"
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
		bills, err := s.cardBills(ctx, card, today)
		if err != nil {
			return nil, nil, err
		}
		v.Bills = append(v.Bills, bills...)
		fmt.Fprintf(&text, "%s (%s, %s):\n", rc.label(card.Key), card.HolderName, card.Currency)
		if len(bills) == 0 {
			text.WriteString("- nenhum extrato com período importado; não há faturas a mostrar.\n")
		}
		for _, b := range bills {
			text.WriteString(billText(b) + "\n")
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
}

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

// cardBills lists a card's bills, most recent first: the open cycle (after the last closing,
// estimated), then one closed bill per distinct statement period.
func (s *Service) cardBills(ctx context.Context, card *cadstore.Account, today string) ([]caderninhoapi.CaderninhoBillsOutputBill, error) {
	sts, err := s.Store.Statements(ctx, card.ID)
	if err != nil {
		return nil, err
	}
	if len(sts) == 0 {
		return nil, nil
	}
	var cycles []*cycle
	byPeriod := map[[2]string]*cycle{}
	lastEnd := ""
	for _, st := range sts {
		k := [2]string{st.Start, st.End}
		c, ok := byPeriod[k]
		if !ok {
			c = &cycle{from: st.Start, to: st.End}
			byPeriod[k] = c
			cycles = append(cycles, c)
		}
		if st.LedgerMinor != nil {
			c.ledger = st.LedgerMinor // the latest import of the same period wins
		}
		lastEnd = max(lastEnd, st.End)
	}
	nextClose := nextClosing(lastEnd)
	open := &cycle{from: cadstore.AddDays(lastEnd, 1), to: nextClose}
	txs, err := s.Store.AllTransactions(ctx, card.ID)
	if err != nil {
		return nil, err
	}
	for _, t := range txs {
		for _, c := range cycles {
			if t.Day >= c.from && t.Day <= c.to {
				c.add(t, card.Currency)
			}
		}
		if t.Day > lastEnd {
			open.add(t, card.Currency)
		}
	}
	// The bank's sign for what is owed: most banks report a bill as a positive balance (the
	// negated debits); one that reports it negative gets the debits as they are.
	estimate := open.debits.Int()
	if last := cycles[len(cycles)-1]; last.ledger == nil || *last.ledger >= 0 {
		estimate.Neg(estimate)
	}
	explain := fmt.Sprintf("Estimativa: soma das compras (lançamentos negativos) em %s lançadas depois do último fechamento importado (%s) "+
		"e presentes nos extratos: %s. Pagamentos e estornos (lançamentos positivos) não entram; o sinal segue o das faturas fechadas deste cartão. "+
		"O fechamento em %s foi estimado pelo mesmo dia do mês do último fechamento; o vencimento não é informado pelos extratos.",
		card.Currency, ptbr.Day(lastEnd), ptbr.Count(open.count, "lançamento", "lançamentos"), ptbr.Day(nextClose))
	if nextClose < today {
		explain += " O fechamento estimado já passou: importe o extrato dessa fatura para ver o total informado pelo banco."
	}
	id := caderninhoapi.AccountId(card.Key)
	out := []caderninhoapi.CaderninhoBillsOutputBill{{AccountId: id, Status: caderninhoapi.CaderninhoBillsOutputBillStatusOpen,
		Period: periodOf(cadstore.Period{From: open.from, To: open.to}), ClosingDay: dayOf(open.to), ClosingEstimated: true,
		DueDate: caderninhoapi.NilDate{Null: true}, Total: caderninhoapi.NewNilMoney(caderninhoapi.Money{AmountMinor: estimate.String(), Currency: card.Currency}),
		Estimate: true, Estimation: caderninhoapi.NewNilString(explain), TransactionCount: open.count,
		Debits:  caderninhoapi.Money{AmountMinor: open.debits.Minor(), Currency: card.Currency},
		Credits: caderninhoapi.Money{AmountMinor: open.credits.Minor(), Currency: card.Currency}}}
	for i := len(cycles) - 1; i >= 0; i-- {
		c := cycles[i]
		b := caderninhoapi.CaderninhoBillsOutputBill{AccountId: id, Status: caderninhoapi.CaderninhoBillsOutputBillStatusClosed,
			Period: periodOf(cadstore.Period{From: c.from, To: c.to}), ClosingDay: dayOf(c.to), DueDate: caderninhoapi.NilDate{Null: true},
			Total: caderninhoapi.NilMoney{Null: true}, Estimation: caderninhoapi.NilString{Null: true}, TransactionCount: c.count,
			Debits:  caderninhoapi.Money{AmountMinor: c.debits.Minor(), Currency: card.Currency},
			Credits: caderninhoapi.Money{AmountMinor: c.credits.Minor(), Currency: card.Currency}}
		if c.ledger != nil {
			b.Total = caderninhoapi.NewNilMoney(moneyOf(*c.ledger, card.Currency))
		}
		out = append(out, b)
	}
	return out, nil
}

// nextClosing is the closing a month after day, on the same day of the month (the month's last
// day when day is one, or when the next month is shorter).
func nextClosing(day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	firstOfNext := time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC)
	lastOfNext := firstOfNext.AddDate(0, 1, -1)
	if t.AddDate(0, 0, 1).Day() == 1 || t.Day() > lastOfNext.Day() {
		return lastOfNext.Format(time.DateOnly)
	}
	return time.Date(t.Year(), t.Month()+1, t.Day(), 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
}

func billText(b caderninhoapi.CaderninhoBillsOutputBill) string {
	sums := fmt.Sprintf("%s (débitos %s, créditos %s)", ptbr.Count(b.TransactionCount, "lançamento", "lançamentos"),
		moneyText(b.Debits), moneyText(b.Credits))
	if b.Status == caderninhoapi.CaderninhoBillsOutputBillStatusOpen {
		return fmt.Sprintf("- Ciclo aberto de %s a %s (fechamento estimado): estimativa %s; %s. %s", dayText(b.Period.From), dayText(b.Period.To),
			moneyText(b.Total.Value), sums, b.Estimation.Value)
	}
	total := "total não informado pelo banco"
	if t, ok := b.Total.Get(); ok {
		total = "total " + moneyText(t) + " informado pelo banco"
	}
	return fmt.Sprintf("- Fatura fechada em %s (de %s a %s): %s; vencimento não informado; %s.", dayText(b.ClosingDay),
		dayText(b.Period.From), dayText(b.Period.To), total, sums)
}
