package caderninho

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

type budgetRow struct {
	Space          string        `json:"space"`
	Month          string        `json:"month"`
	Category       *string       `json:"category"`
	Currency       string        `json:"currency"`
	BudgetMinor    *string       `json:"budgetMinor"`
	Actual         currencyTotal `json:"actual"`
	RemainingMinor *string       `json:"remainingMinor"`

	sum *sumCount
}

type planBudgetView struct {
	Rows      []*budgetRow     `json:"rows"`
	Revisions map[string]int64 `json:"revisions"`
}

// planBudget compares each month's budget with the effective view's actual amounts, per space,
// category and currency; split records count in their parts' categories.
func (s *Service) planBudget(ctx context.Context, _ *mcp.CallToolRequest, raw json.RawMessage) (mcpserver.Reply, error) {
	var args caderninhoapi.PlanBudgetInput
	if err := decode(raw, &args); err != nil {
		return mcpserver.Reply{}, err
	}
	from, to := string(args.From.Or("")), string(args.To.Or(""))
	if from != "" && to != "" && from > to {
		return mcpserver.Reply{}, invalidFilter(fmt.Sprintf("from (%s) é depois de to (%s); o período precisa começar antes de terminar.", from, to))
	}
	f := planFilter{sel: selection{Space: string(args.Space.Or(""))}}
	if from != "" {
		f.from = from + "-01"
	}
	if to != "" {
		f.to = to + "-31" // days are text YYYY-MM-DD: every day of the month sorts before -31
	}
	catFilter := ""
	if c, ok := args.Category.Get(); ok {
		catFilter = fold.Fold(string(c))
	}
	v, err := s.effective(ctx, f)
	if err != nil {
		return mcpserver.Reply{}, err
	}
	rows := map[string]*budgetRow{}
	row := func(space, month string, cat *string, cur string) *budgetRow {
		k := strings.Join([]string{space, month, fold.Fold(stringOr(cat)), fmt.Sprint(cat == nil), cur}, "\x00")
		r := rows[k]
		if r == nil {
			r = &budgetRow{Space: space, Month: month, Category: cat, Currency: cur, sum: &sumCount{sum: money.Sum{Currency: cur}}}
			rows[k] = r
		}
		return r
	}
	for _, r := range v.records {
		if r.ExcludedFromTotals {
			continue
		}
		for _, part := range byCategoryParts("category", r) {
			br := row(r.Space, r.Date[:7], part.Category, r.Currency)
			if part.minor == nil {
				br.sum.unknown++
			} else {
				br.sum.known++
				br.sum.sum.Add(*part.minor)
			}
		}
	}
	budgets, err := s.Store.Budgets(ctx)
	if err != nil {
		return mcpserver.Reply{}, err
	}
	for _, b := range budgets {
		if _, read := v.revs[b.Space]; !read || (from != "" && b.Month < from) || (to != "" && b.Month > to) {
			continue
		}
		cat := b.Category
		br := row(b.Space, b.Month, &cat, b.Currency)
		amount := fmt.Sprint(b.AmountMinor)
		br.BudgetMinor = &amount
	}
	out := planBudgetView{Rows: []*budgetRow{}, Revisions: v.revs}
	for _, r := range rows {
		if catFilter != "" && (r.Category == nil || fold.Fold(*r.Category) != catFilter) {
			continue
		}
		r.Actual = currencyTotal{Currency: r.Currency, KnownTotalMinor: r.sum.sum.Minor(), KnownCount: r.sum.known, UnknownCount: r.sum.unknown}
		if r.BudgetMinor != nil {
			var b big.Int
			b.SetString(*r.BudgetMinor, 10)
			rem := b.Add(&b, r.sum.sum.Int()).String()
			r.RemainingMinor = &rem
		}
		out.Rows = append(out.Rows, r)
	}
	slices.SortFunc(out.Rows, func(a, b *budgetRow) int {
		return strings.Compare(a.Space+"\x00"+a.Month+"\x00"+budgetSortCat(a.Category)+"\x00"+a.Currency,
			b.Space+"\x00"+b.Month+"\x00"+budgetSortCat(b.Category)+"\x00"+b.Currency)
	})
	return mcpserver.Reply{Text: planBudgetText(out), Structured: out}, nil
}

// budgetSortCat puts "no category" after the named ones.
func budgetSortCat(c *string) string {
	if c == nil {
		return "\uffff"
	}
	return fold.Fold(*c)
}

func planBudgetText(out planBudgetView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Orçamento e realizado por mês, categoria e moeda na visão efetiva (%s); registros fora dos totais não entram.\n",
		revisionsText(out.Revisions))
	if len(out.Rows) == 0 {
		b.WriteString("Nenhum orçamento nem registro para esses filtros.\n")
	}
	for _, r := range out.Rows {
		cat := "sem categoria"
		if r.Category != nil {
			cat = *r.Category
		}
		line := fmt.Sprintf("- %s %s/%s %s (%s): realizado %s conhecidos em %s", r.Space, r.Month[5:7], r.Month[:4], cat, r.Currency,
			ptbr.Money(r.Actual.KnownTotalMinor, r.Currency), ptbr.Count(r.Actual.KnownCount, "registro", "registros"))
		if r.Actual.UnknownCount > 0 {
			line += fmt.Sprintf(", mais %s com valor desconhecido (null), fora da soma", ptbr.Count(r.Actual.UnknownCount, "registro", "registros"))
		}
		if r.BudgetMinor != nil {
			line += fmt.Sprintf("; orçamento %s; sobra %s pelos valores conhecidos", ptbr.Money(*r.BudgetMinor, r.Currency), ptbr.Money(*r.RemainingMinor, r.Currency))
			if r.Actual.UnknownCount > 0 {
				line += " (os desconhecidos podem consumir mais)"
			}
		} else {
			line += "; sem orçamento"
		}
		b.WriteString(line + ".\n")
	}
	b.WriteString("Gastos são negativos; cada moeda tem sua própria linha e as moedas nunca são somadas. " + unknownNote)
	return b.String()
}
