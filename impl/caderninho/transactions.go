package caderninho

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

const defaultPageSize = 50

type transactionView struct {
	ID        int64        `json:"id"`
	AccountID string       `json:"accountId"`
	Space     string       `json:"space"`
	Holder    string       `json:"holder"`
	Date      string       `json:"date"`
	PostedAt  *string      `json:"postedAt"`
	Amount    money.Amount `json:"amount"`
	Direction string       `json:"direction"`
	Type      string       `json:"type"`
	Memo      *string      `json:"memo"`
	Name      *string      `json:"name"`
	FITID     *string      `json:"fitid"`
}

type transactionsView struct {
	Transactions []transactionView `json:"transactions"`
	NextCursor   *string           `json:"nextCursor"`
	Truncated    bool              `json:"truncated"`
	Partial      bool              `json:"partial"`
	Period       *cadstore.Period  `json:"period"`
	Coverage     []coverageView    `json:"coverage"`
	Revisions    map[string]int64  `json:"revisions"`
}

func day(d caderninhoapi.OptDay) string {
	if !d.Set {
		return ""
	}
	return time.Time(d.Value).Format(time.DateOnly)
}

func (s *Service) transactions(ctx context.Context, _ *mcp.CallToolRequest, raw json.RawMessage) (mcpserver.Reply, error) {
	var args caderninhoapi.CaderninhoTransactionsInput
	if err := decode(raw, &args); err != nil {
		return mcpserver.Reply{}, err
	}
	from, to := day(args.From), day(args.To)
	if from != "" && to != "" && from > to {
		return mcpserver.Reply{}, invalidFilter(fmt.Sprintf("from (%s) é depois de to (%s); o período precisa começar antes de terminar.", from, to))
	}
	direction := string(args.Direction.Or(""))
	words := fold.Words(args.Text.Or(""))
	limit := args.Limit.Or(defaultPageSize)
	// Revisions are read before the rows: a page may then hold data newer than the revision it
	// names, never older, and every cursor of it meets the changed revision (RESTART_REQUIRED).
	rc, err := s.readContext(ctx)
	if err != nil {
		return mcpserver.Reply{}, err
	}
	sel := selectionOf(args.Space, args.Person, args.Accounts)
	accounts, err := s.selectAccounts(ctx, rc, sel)
	if err != nil {
		return mcpserver.Reply{}, err
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
			return mcpserver.Reply{}, invalidFilter("cursor: o cursor não foi emitido por esta instalação ou foi alterado.",
				"Refaça a leitura sem cursor.")
		case st.Filters != digest:
			return mcpserver.Reply{}, invalidFilter("cursor: o cursor foi emitido para outros filtros. "+cursorNote,
				"Repita a chamada com os mesmos filtros da página anterior, ou refaça a leitura sem cursor.")
		case !maps.Equal(st.Revisions, revs):
			return mcpserver.Reply{}, &mcpserver.ToolError{Code: "RESTART_REQUIRED",
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
		return mcpserver.Reply{}, err
	}
	period := coveragePeriod(accounts, from, to)
	covs, partial := rc.coverage(accounts, period)
	v := transactionsView{Transactions: []transactionView{}, Partial: partial, Period: period, Coverage: covs, Revisions: revs}
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[len(rows)-1]
		c := encodeCursor(rc.inst.CursorSecret, cursorState{Filters: digest, Revisions: revs, Day: last.Day, ID: last.ID})
		v.NextCursor, v.Truncated = &c, true
	}
	for _, t := range rows {
		a := byID[t.AccountID]
		tv := transactionView{ID: t.ID, AccountID: a.Key, Space: a.SpaceKey, Holder: a.HolderKey, Date: t.Day, PostedAt: t.PostedAt,
			Amount: money.Of(t.AmountMinor, t.Currency), Direction: "in", Type: t.Type,
			Memo: nonEmpty(t.Memo), Name: nonEmpty(t.Name), FITID: nonEmpty(t.FITID)}
		if t.AmountMinor < 0 {
			tv.Direction = "out"
		}
		v.Transactions = append(v.Transactions, tv)
	}
	return mcpserver.Reply{Text: transactionsText(v, f.After != nil), Structured: v}, nil
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func transactionsText(v transactionsView, continued bool) string {
	var b strings.Builder
	what := "Transações"
	if continued {
		what = "Continuação das transações"
	}
	if v.Period != nil {
		what += " de " + ptbr.Day(v.Period.From) + " a " + ptbr.Day(v.Period.To)
	}
	fmt.Fprintf(&b, "%s (%s), mais recentes primeiro: %s nesta página.\n", what, revisionsText(v.Revisions),
		ptbr.Count(len(v.Transactions), "transação", "transações"))
	for _, t := range v.Transactions {
		desc := ""
		if t.Memo != nil {
			desc = *t.Memo
		}
		if t.Name != nil {
			desc = strings.TrimSpace(*t.Name + " " + desc)
		}
		fmt.Fprintf(&b, "- %s %s %s %s [id %s]\n", ptbr.Day(t.Date), t.AccountID, ptbr.Money(t.Amount.AmountMinor, t.Amount.Currency), desc,
			strconv.FormatInt(t.ID, 10))
	}
	if v.Truncated {
		b.WriteString("truncated: true — há mais transações: chame de novo com cursor igual a nextCursor. " + cursorNote + "\n")
	} else {
		b.WriteString("truncated: false — esta é a última página.\n")
	}
	b.WriteString(pageNote + " " + moneyNote + "\n")
	b.WriteString(coverageText(v.Coverage, v.Period, v.Partial))
	return b.String()
}
