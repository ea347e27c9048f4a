package caderninho

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

type billView struct {
	AccountID        string          `json:"accountId"`
	Status           string          `json:"status"`
	Period           cadstore.Period `json:"period"`
	ClosingDay       string          `json:"closingDay"`
	ClosingEstimated bool            `json:"closingEstimated"`
	DueDate          *string         `json:"dueDate"`
	Total            *money.Amount   `json:"total"`
	Estimate         bool            `json:"estimate"`
	Estimation       *string         `json:"estimation"`
	TransactionCount int             `json:"transactionCount"`
	Debits           money.Amount    `json:"debits"`
	Credits          money.Amount    `json:"credits"`
}

type billsView struct {
	Bills     []billView       `json:"bills"`
	Partial   bool             `json:"partial"`
	Truncated bool             `json:"truncated"`
	Coverage  []coverageView   `json:"coverage"`
	Revisions map[string]int64 `json:"revisions"`
}

func (s *Service) bills(ctx context.Context, _ *mcp.CallToolRequest, raw json.RawMessage) (mcpserver.Reply, error) {
	var args caderninhoapi.CaderninhoBillsInput
	if err := decode(raw, &args); err != nil {
		return mcpserver.Reply{}, err
	}
	rc, err := s.readContext(ctx)
	if err != nil {
		return mcpserver.Reply{}, err
	}
	sel := selectionOf(args.Space, args.Person, args.Accounts)
	sel.Kind = "creditcard"
	cards, err := s.selectAccounts(ctx, rc, sel)
	if err != nil {
		return mcpserver.Reply{}, err
	}
	period := coveragePeriod(cards, "", "")
	covs, partial := rc.coverage(cards, period)
	v := billsView{Bills: []billView{}, Partial: partial, Coverage: covs, Revisions: revisions(rc, cards, sel.Space)}
	var text strings.Builder
	fmt.Fprintf(&text, "Faturas de %s (%s).\n", ptbr.Count(len(cards), "cartão", "cartões"), revisionsText(v.Revisions))
	today := s.Store.Now().In(rc.inst.Location).Format(time.DateOnly)
	for _, card := range cards {
		bills, err := s.cardBills(ctx, card, today)
		if err != nil {
			return mcpserver.Reply{}, err
		}
		v.Bills = append(v.Bills, bills...)
		fmt.Fprintf(&text, "Cartão %s (%s, %s, %s):\n", card.Key, card.Institution, card.HolderName, card.Currency)
		if len(bills) == 0 {
			text.WriteString("- nenhum extrato com período importado; não há faturas a mostrar.\n")
		}
		for _, b := range bills {
			text.WriteString(billText(b) + "\n")
		}
	}
	text.WriteString("Os totais de faturas fechadas são os que o banco informou; o do ciclo aberto é uma estimativa. " + moneyNote + "\n")
	text.WriteString(coverageText(covs, period, partial))
	return mcpserver.Reply{Text: text.String(), Structured: v}, nil
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
func (s *Service) cardBills(ctx context.Context, card *cadstore.Account, today string) ([]billView, error) {
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
	total := money.Amount{AmountMinor: estimate.String(), Currency: card.Currency}
	out := []billView{{AccountID: card.Key, Status: "open", Period: cadstore.Period{From: open.from, To: open.to}, ClosingDay: open.to,
		ClosingEstimated: true, Total: &total, Estimate: true, Estimation: &explain, TransactionCount: open.count,
		Debits: money.Amount{AmountMinor: open.debits.Minor(), Currency: card.Currency}, Credits: money.Amount{AmountMinor: open.credits.Minor(), Currency: card.Currency}}}
	for i := len(cycles) - 1; i >= 0; i-- {
		c := cycles[i]
		b := billView{AccountID: card.Key, Status: "closed", Period: cadstore.Period{From: c.from, To: c.to}, ClosingDay: c.to,
			TransactionCount: c.count, Debits: money.Amount{AmountMinor: c.debits.Minor(), Currency: card.Currency},
			Credits: money.Amount{AmountMinor: c.credits.Minor(), Currency: card.Currency}}
		if c.ledger != nil {
			t := money.Of(*c.ledger, card.Currency)
			b.Total = &t
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

func billText(b billView) string {
	sums := fmt.Sprintf("%s (débitos %s, créditos %s)", ptbr.Count(b.TransactionCount, "lançamento", "lançamentos"),
		ptbr.Money(b.Debits.AmountMinor, b.Debits.Currency), ptbr.Money(b.Credits.AmountMinor, b.Credits.Currency))
	if b.Status == "open" {
		return fmt.Sprintf("- Ciclo aberto de %s a %s (fechamento estimado): estimativa %s; %s. %s", ptbr.Day(b.Period.From), ptbr.Day(b.Period.To),
			ptbr.Money(b.Total.AmountMinor, b.Total.Currency), sums, *b.Estimation)
	}
	total := "total não informado pelo banco"
	if b.Total != nil {
		total = "total " + ptbr.Money(b.Total.AmountMinor, b.Total.Currency) + " informado pelo banco"
	}
	return fmt.Sprintf("- Fatura fechada em %s (de %s a %s): %s; vencimento não informado; %s.", ptbr.Day(b.ClosingDay),
		ptbr.Day(b.Period.From), ptbr.Day(b.Period.To), total, sums)
}
