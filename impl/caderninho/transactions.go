package caderninho

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

const defaultPageSize = 50

func day(d caderninhoapi.OptDay) string {
	if !d.Set {
		return ""
	}
	return time.Time(d.Value).Format(time.DateOnly)
}

func (s *Service) transactions(ctx context.Context, args *caderninhoapi.CaderninhoTransactionsInput) (*caderninhoapi.CaderninhoTransactionsOutput, func() string, error) {
	from, to := day(args.From), day(args.To)
	if from != "" && to != "" && from > to {
		return nil, nil, invalidFilter(fmt.Sprintf("from (%s) é depois de to (%s); o período precisa começar antes de terminar.", from, to))
	}
	direction := string(args.Direction.Or(""))
	words := fold.Words(args.Text.Or(""))
	limit := args.Limit.Or(defaultPageSize)
	// Revisions are read before the rows: a page may then hold data newer than the revision it
	// names, never older, and every cursor of it meets the changed revision (RESTART_REQUIRED).
	rc, err := s.readContext(ctx)
	if err != nil {
		return nil, nil, err
	}
	sel := selectionOf(args.Space, args.Person, args.Accounts)
	accounts, err := s.selectAccounts(ctx, rc, sel)
	if err != nil {
		return nil, nil, err
	}
	revs := revisions(rc, accounts, sel.Space)
	accountsSorted := slices.Clone(sel.Accounts)
	slices.Sort(accountsSorted)
	digest := filterDigest(sel.Space, sel.Person, accountsSorted, from, to, direction, words)

	f := cadstore.TransactionFilter{From: from, To: to, Direction: direction, Words: words, Limit: limit + 1}
	if c, ok := args.Cursor.Get(); ok {
		st, valid := decodeCursor(rc.inst.CursorSecret, c)
		switch {
		case !valid:
			return nil, nil, invalidFilter("cursor: o cursor não foi emitido por esta instalação ou foi alterado.",
				"Refaça a leitura sem cursor.")
		case st.Filters != digest:
			return nil, nil, invalidFilter("cursor: o cursor foi emitido para outros filtros. "+cursorNote,
				"Repita a chamada com os mesmos filtros da página anterior, ou refaça a leitura sem cursor.")
		case !maps.Equal(st.Revisions, revs):
			return nil, nil, &mcpserver.ToolError{Code: "RESTART_REQUIRED",
				Message: fmt.Sprintf("Os dados mudaram depois que o cursor foi emitido (%s; agora %s). %s",
					revisionsText(st.Revisions), revisionsText(revs), restartNote),
				Suggestions: []string{nextRestart, "Chame caderninho_transactions de novo sem cursor."}}
		}
		f.After = &cadstore.Position{Day: st.Day, ID: st.ID}
	}
	byID := map[int64]*cadstore.Account{}
	for _, a := range accounts {
		f.Accounts = append(f.Accounts, a.ID)
		byID[a.ID] = a
	}
	rows, err := s.Store.Transactions(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	period := coveragePeriod(accounts, from, to)
	covs, partial := rc.coverage(accounts, period)
	v := &caderninhoapi.CaderninhoTransactionsOutput{Transactions: []caderninhoapi.CaderninhoTransactionsOutputTransaction{},
		NextCursor: caderninhoapi.NilString{Null: true}, Partial: partial, Period: nilPeriod(period), Coverage: covs,
		Revisions: caderninhoapi.Revisions(revs)}
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[len(rows)-1]
		c := encodeCursor(rc.inst.CursorSecret, cursorState{Filters: digest, Revisions: revs, Day: last.Day, ID: last.ID})
		v.NextCursor, v.Truncated = caderninhoapi.NewNilString(c), true
	}
	for _, t := range rows {
		a := byID[t.AccountID]
		tv := caderninhoapi.CaderninhoTransactionsOutputTransaction{ID: int(t.ID), AccountId: caderninhoapi.AccountId(a.Key),
			Space: caderninhoapi.Key(a.SpaceKey), Holder: caderninhoapi.Key(a.HolderKey), Date: dayOf(t.Day), PostedAt: postedAt(t.PostedAt),
			Amount: moneyOf(t.AmountMinor, t.Currency), Direction: caderninhoapi.CaderninhoTransactionsOutputTransactionDirectionIn, Type: t.Type,
			Memo: nonEmpty(t.Memo), Name: nonEmpty(t.Name), Fitid: nonEmpty(t.FITID)}
		if t.AmountMinor < 0 {
			tv.Direction = caderninhoapi.CaderninhoTransactionsOutputTransactionDirectionOut
		}
		v.Transactions = append(v.Transactions, tv)
	}
	continued := f.After != nil
	return v, func() string { return transactionsText(rc, v, period, continued) }, nil
}

func nonEmpty(s string) caderninhoapi.NilString {
	if s == "" {
		return caderninhoapi.NilString{Null: true}
	}
	return caderninhoapi.NewNilString(s)
}

// postedAt is when the bank says a transaction was posted, as the statement wrote it (with its
// own offset); null when unknown.
func postedAt(s *string) caderninhoapi.NilDateTime {
	if s == nil {
		return caderninhoapi.NilDateTime{Null: true}
	}
	t, err := time.Parse(time.RFC3339, *s)
	if err != nil {
		return caderninhoapi.NilDateTime{Null: true}
	}
	return caderninhoapi.NewNilDateTime(t)
}

func transactionsText(rc *readContext, v *caderninhoapi.CaderninhoTransactionsOutput, period *cadstore.Period, continued bool) string {
	var b strings.Builder
	what := "Transações"
	if continued {
		what = "Continuação das transações"
	}
	if period != nil {
		what += " de " + ptbr.Day(period.From) + " a " + ptbr.Day(period.To)
	}
	fmt.Fprintf(&b, "%s (%s), mais recentes primeiro: %s nesta página.\n", what, revisionsText(v.Revisions),
		ptbr.Count(len(v.Transactions), "transação", "transações"))
	for _, t := range v.Transactions {
		desc := t.Memo.Or("")
		if name, ok := t.Name.Get(); ok {
			desc = strings.TrimSpace(name + " " + desc)
		}
		fmt.Fprintf(&b, "- %s %s %s %s [id %s]\n", dayText(t.Date), rc.label(string(t.AccountId)), moneyText(t.Amount), desc, strconv.Itoa(t.ID))
	}
	if v.Truncated {
		b.WriteString("truncated: true — há mais transações: chame de novo com cursor igual a nextCursor. " + cursorNote + "\n")
	} else {
		b.WriteString("truncated: false — esta é a última página.\n")
	}
	b.WriteString(pageNote + " " + moneyNote + "\n")
	b.WriteString(coverageText(rc, v.Coverage, period, v.Partial))
	return b.String()
}
