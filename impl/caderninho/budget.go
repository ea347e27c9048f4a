package caderninho

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// budgetRow sums one space, month, category and currency.
type budgetRow struct {
	space, month, currency string
	category               *string
	budgetMinor            *string
	sum                    *sumCount
}

// planBudget compares each month's budget with the effective view's actual amounts, per space,
// category and currency; split records count in their parts' categories.
func (s *Service) planBudget(ctx context.Context, args *caderninhoapi.PlanBudgetInput) (*caderninhoapi.PlanBudgetOutput, func() string, error) {
	from, to := string(args.From.Or("")), string(args.To.Or(""))
	if from != "" && to != "" && from > to {
		return nil, nil, invalidFilter(fmt.Sprintf("from (%s) é depois de to (%s); o período precisa começar antes de terminar.", from, to))
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
		return nil, nil, err
	}
	if c, ok := args.Category.Get(); ok { // a misspelt category must not read as a month without spending
		if err := s.checkCategory(ctx, v.rc, planFilter{sel: f.sel, category: string(c)}); err != nil {
			return nil, nil, err
		}
	}
	rows := map[string]*budgetRow{}
	row := func(space, month string, cat *string, cur string) *budgetRow {
		k := strings.Join([]string{space, month, fold.Fold(stringOr(cat)), fmt.Sprint(cat == nil), cur}, "\x00")
		r := rows[k]
		if r == nil {
			r = &budgetRow{space: space, month: month, category: cat, currency: cur, sum: &sumCount{sum: money.Sum{Currency: cur}}}
			rows[k] = r
		}
		return r
	}
	if err := s.each(ctx, v, v.query, nil, 0, func(r *planRecord) error {
		if r.ExcludedFromTotals {
			return nil
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
		return nil
	}); err != nil {
		return nil, nil, err
	}
	budgets, err := s.Store.Budgets(ctx)
	if err != nil {
		return nil, nil, err
	}
	for _, b := range budgets {
		if _, read := v.revs[b.Space]; !read || (from != "" && b.Month < from) || (to != "" && b.Month > to) {
			continue
		}
		cat := b.Category
		br := row(b.Space, b.Month, &cat, b.Currency)
		amount := fmt.Sprint(b.AmountMinor)
		br.budgetMinor = &amount
	}
	var kept []*budgetRow
	for _, r := range rows {
		if catFilter != "" && (r.category == nil || fold.Fold(*r.category) != catFilter) {
			continue
		}
		kept = append(kept, r)
	}
	slices.SortFunc(kept, func(a, b *budgetRow) int {
		return strings.Compare(a.space+"\x00"+a.month+"\x00"+budgetSortCat(a.category)+"\x00"+a.currency,
			b.space+"\x00"+b.month+"\x00"+budgetSortCat(b.category)+"\x00"+b.currency)
	})
	out := &caderninhoapi.PlanBudgetOutput{Rows: make([]caderninhoapi.PlanBudgetOutputRow, 0, len(kept)), Revisions: caderninhoapi.Revisions(v.revs)}
	for _, r := range kept {
		row := caderninhoapi.PlanBudgetOutputRow{Space: caderninhoapi.Key(r.space), Month: caderninhoapi.Month(r.month), Category: nilString(r.category),
			Currency: r.currency, BudgetMinor: nilString(r.budgetMinor), RemainingMinor: caderninhoapi.NilString{Null: true},
			Actual: caderninhoapi.CurrencyTotal{Currency: r.currency, KnownTotalMinor: r.sum.sum.Minor(), KnownCount: r.sum.known, UnknownCount: r.sum.unknown}}
		if r.budgetMinor != nil {
			var b big.Int
			b.SetString(*r.budgetMinor, 10)
			row.RemainingMinor = caderninhoapi.NewNilString(b.Add(&b, r.sum.sum.Int()).String())
		}
		out.Rows = append(out.Rows, row)
	}
	return out, func() string { return planBudgetText(out) }, nil
}

// budgetSortCat puts "no category" after the named ones.
func budgetSortCat(c *string) string {
	if c == nil {
		return "\uffff"
	}
	return fold.Fold(*c)
}

func planBudgetText(out *caderninhoapi.PlanBudgetOutput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Orçamento e realizado por mês, categoria e moeda na visão efetiva (%s); registros fora dos totais não entram.\n",
		revisionsText(out.Revisions))
	if len(out.Rows) == 0 {
		b.WriteString("Nenhum orçamento nem registro para esses filtros.\n")
	}
	for _, r := range out.Rows {
		cat := r.Category.Or("sem categoria")
		month := string(r.Month)
		line := fmt.Sprintf("- %s %s/%s %s (%s): realizado %s conhecidos em %s", r.Space, month[5:7], month[:4], cat, r.Currency,
			ptbr.Money(r.Actual.KnownTotalMinor, r.Currency), ptbr.Count(r.Actual.KnownCount, "registro", "registros"))
		if r.Actual.UnknownCount > 0 {
			line += fmt.Sprintf(", mais %s com valor desconhecido (null), fora da soma", ptbr.Count(r.Actual.UnknownCount, "registro", "registros"))
		}
		if budget, ok := r.BudgetMinor.Get(); ok {
			line += fmt.Sprintf("; orçamento %s; sobra %s pelos valores conhecidos", ptbr.Money(budget, r.Currency), ptbr.Money(r.RemainingMinor.Value, r.Currency))
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
