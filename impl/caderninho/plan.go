package caderninho

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
)

// planFilter is what plan_transactions and plan_totals select from the effective view.
type planFilter struct {
	sel           selection
	from, to      string
	category      string // as asked
	uncategorised bool
	source        string // "bank", "manual" or ""
	words         []string
}

func planFilterOf(space, person caderninhoapi.OptKey, accounts []caderninhoapi.AccountId, from, to caderninhoapi.OptDay,
	category caderninhoapi.OptString, uncategorised caderninhoapi.OptBool, source, text string) (planFilter, error) {
	f := planFilter{sel: selectionOf(space, person, accounts), from: day(from), to: day(to), category: category.Or(""),
		uncategorised: uncategorised.Or(false), source: source, words: fold.Words(text)}
	if f.from != "" && f.to != "" && f.from > f.to {
		return f, invalidFilter(fmt.Sprintf("from (%s) é depois de to (%s); o período precisa começar antes de terminar.", f.from, f.to))
	}
	if f.category != "" && f.uncategorised {
		return f, invalidFilter("category e uncategorised: true se excluem; use um dos dois.")
	}
	return f, nil
}

// digest names the filters for cursors; tool keeps a cursor of one tool from another.
func (f planFilter) digest(tool string) string {
	accounts := slices.Clone(f.sel.Accounts)
	slices.Sort(accounts)
	return filterDigest(tool, f.sel.Space, f.sel.Person, accounts, f.from, f.to, fold.Fold(f.category), f.uncategorised, f.source, f.words)
}

// planRecord is one record of the effective view (recordOf gives it to clients).
type planRecord struct {
	ID                 string
	Source             string
	AccountID          *string
	Space              string
	Person             *string
	Date               string
	Amount             *money.Amount
	Currency           string
	Description        string
	BankDescription    *string
	Category           *string
	Note               *string
	ExcludedFromTotals bool
	Edited             bool
	Splits             []storedSplit // nil when not split

	minor  *int64 // the amount, nil when unknown
	dedupe string // a bank transaction's identity in its account (the edits' key)
	rank   int    // order within a day: manual (1) before bank (0)
	num    int64  // transaction or record id
}

// before reports whether r comes before the position (day, rank, num) in the view's order:
// most recent day first, then manual before bank, then higher id first.
func (r *planRecord) before(day string, rank int, num int64) bool {
	if r.Date != day {
		return r.Date > day
	}
	if r.rank != rank {
		return r.rank > rank
	}
	return r.num > num
}

// effectiveView is a selection of the effective view with what every planning read reports.
type effectiveView struct {
	rc       *readContext
	accounts []*cadstore.Account
	records  []*planRecord // in the view's order
	revs     map[string]int64
	period   *cadstore.Period
	coverage []caderninhoapi.Coverage
	partial  bool
	// unmatched are the edits in the spaces read whose transaction the bank no longer lists.
	unmatched []caderninhoapi.PlanTransactionsOutputUnmatchedEditsItem
}

// effective reads the effective view selected by f: the origin view of the selected accounts with
// the edits applied, plus the manual records, filtered and in order.
func (s *Service) effective(ctx context.Context, f planFilter) (*effectiveView, error) {
	// Revisions are read before the rows (see transactions).
	rc, err := s.readContext(ctx)
	if err != nil {
		return nil, err
	}
	accounts, err := s.selectAccounts(ctx, rc, f.sel)
	if err != nil {
		return nil, err
	}
	all, err := s.Store.Accounts(ctx, cadstore.AccountFilter{})
	if err != nil {
		return nil, err
	}
	holderOf := map[string]string{}
	for _, a := range all {
		holderOf[a.Key] = a.HolderKey
	}
	v := &effectiveView{rc: rc, accounts: accounts, revs: planRevisions(rc, accounts, f.sel)}
	if f.category != "" {
		if err := s.checkCategory(ctx, rc, f); err != nil {
			return nil, err
		}
	}
	keep := func(r *planRecord, searchFold string) bool {
		switch {
		case f.source != "" && r.Source != f.source,
			f.uncategorised && r.Category != nil,
			f.category != "" && (r.Category == nil || fold.Fold(*r.Category) != fold.Fold(f.category)):
			return false
		}
		for _, w := range f.words {
			if !strings.Contains(searchFold, w) {
				return false
			}
		}
		return true
	}
	if f.source != "manual" {
		edits, err := s.Store.Edits(ctx)
		if err != nil {
			return nil, err
		}
		byID := map[int64]*cadstore.Account{}
		var ids []int64
		for _, a := range accounts {
			byID[a.ID] = a
			ids = append(ids, a.ID)
		}
		rows, err := s.Store.PlanBankRows(ctx, ids, f.from, f.to)
		if err != nil {
			return nil, err
		}
		for _, t := range rows {
			a := byID[t.AccountID]
			bankDesc := strings.TrimSpace(t.Name + " " + t.Memo)
			minor := t.AmountMinor
			amount := money.Of(minor, t.Currency)
			r := &planRecord{ID: "bank:" + strconv.FormatInt(t.ID, 10), Source: "bank", AccountID: &a.Key, Space: a.SpaceKey,
				Person: &a.HolderKey, Date: t.Day, Amount: &amount, Currency: t.Currency, Description: bankDesc, BankDescription: &bankDesc,
				minor: &minor, num: t.ID, dedupe: t.DedupeKey}
			search := t.SearchFold
			if e, ok := edits[cadstore.EditKey{Account: a.Key, Dedupe: t.DedupeKey}]; ok {
				r.Edited = true
				if e.Description != nil {
					r.Description = *e.Description
				}
				r.Category, r.Note, r.ExcludedFromTotals = e.Category, e.Note, e.Excluded
				if r.Splits, err = decodeSplits(e.Splits); err != nil {
					return nil, err
				}
				search += " " + fold.Fold(r.Description+" "+stringOr(r.Note))
			}
			if keep(r, search) {
				v.records = append(v.records, r)
			}
		}
	}
	if f.source != "bank" {
		recs, err := s.Store.Records(ctx, f.from, f.to)
		if err != nil {
			return nil, err
		}
		wantAccount := map[string]bool{}
		for _, k := range f.sel.Accounts {
			wantAccount[k] = true
		}
		for _, m := range recs {
			person := m.Person
			if person == nil && m.Account != nil {
				if h, ok := holderOf[*m.Account]; ok {
					person = &h
				}
			}
			switch {
			case f.sel.Space != "" && m.Space != f.sel.Space,
				f.sel.Person != "" && (person == nil || *person != f.sel.Person),
				len(wantAccount) > 0 && (m.Account == nil || !wantAccount[*m.Account]):
				continue
			}
			r := &planRecord{ID: "manual:" + strconv.FormatInt(m.ID, 10), Source: "manual", AccountID: m.Account, Space: m.Space,
				Person: person, Date: m.Day, Currency: m.Currency, Description: m.Description, Category: m.Category, Note: m.Note,
				ExcludedFromTotals: m.Excluded, minor: m.AmountMinor, rank: 1, num: m.ID}
			if m.AmountMinor != nil {
				amount := money.Of(*m.AmountMinor, m.Currency)
				r.Amount = &amount
			}
			if r.Splits, err = decodeSplits(m.Splits); err != nil {
				return nil, err
			}
			if keep(r, m.SearchFold) {
				v.records = append(v.records, r)
			}
		}
	}
	slices.SortFunc(v.records, func(a, b *planRecord) int {
		switch {
		case a.before(b.Date, b.rank, b.num):
			return -1
		case b.before(a.Date, a.rank, a.num):
			return 1
		}
		return 0
	})
	unmatched, err := s.Store.UnmatchedEdits(ctx)
	if err != nil {
		return nil, err
	}
	v.unmatched = []caderninhoapi.PlanTransactionsOutputUnmatchedEditsItem{}
	for _, u := range unmatched {
		if _, read := v.revs[u.Space]; read && (f.sel.Person == "" || holderOf[u.Account] == f.sel.Person || holderOf[u.Account] == "") {
			v.unmatched = append(v.unmatched, caderninhoapi.PlanTransactionsOutputUnmatchedEditsItem{AccountId: caderninhoapi.AccountId(u.Account),
				Space: caderninhoapi.Key(u.Space), Category: nilString(u.Category), Description: nilString(u.Description), ExcludedFromTotals: u.Excluded})
		}
	}
	v.period = coveragePeriod(accounts, f.from, f.to)
	v.coverage, v.partial = rc.coverage(accounts, v.period)
	return v, nil
}

// planRevisions names the spaces a planning read covers: the selected space, else the spaces of
// the selected accounts when accounts were named, else every space (manual records may live in a
// space without accounts).
func planRevisions(rc *readContext, accounts []*cadstore.Account, sel selection) map[string]int64 {
	if sel.Space != "" || len(sel.Accounts) > 0 {
		return revisions(rc, accounts, sel.Space)
	}
	out := map[string]int64{}
	for k, sp := range rc.spaces {
		out[k] = sp.Revision
	}
	return out
}

// checkCategory refuses a category no space in the selection lists.
func (s *Service) checkCategory(ctx context.Context, rc *readContext, f planFilter) error {
	cats, err := s.Store.Categories(ctx)
	if err != nil {
		return err
	}
	var known []string
	for _, sp := range sortedKeys(rc.spaces) {
		if f.sel.Space != "" && sp != f.sel.Space {
			continue
		}
		for _, c := range cats[sp] {
			if fold.Fold(c) == fold.Fold(f.category) {
				return nil
			}
			if !slices.Contains(known, c) {
				known = append(known, c)
			}
		}
	}
	return invalidFilter(fmt.Sprintf("category: %q não é uma categoria do espaço selecionado.", f.category),
		"Categorias: "+strings.Join(known, ", ")+".", "Use plan_categories para ver as categorias de cada espaço.")
}

func stringOr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// storedSplit is one part of a split record as the store keeps it (JSON); splitsOf gives it to
// clients.
type storedSplit struct {
	Amount   money.Amount `json:"amount"`
	Category *string      `json:"category"`
	Note     *string      `json:"note"`
}

func decodeSplits(js *string) ([]storedSplit, error) {
	if js == nil {
		return nil, nil
	}
	var out []storedSplit
	if err := json.Unmarshal([]byte(*js), &out); err != nil {
		return nil, fmt.Errorf("decoding stored splits: %w", err)
	}
	return out, nil
}

// splitsOf is a record's parts for clients: nil (null) when not split.
func splitsOf(parts []storedSplit) []caderninhoapi.Split {
	if parts == nil {
		return nil
	}
	out := make([]caderninhoapi.Split, 0, len(parts))
	for _, p := range parts {
		sp := caderninhoapi.Split{Amount: caderninhoapi.Money{AmountMinor: p.Amount.AmountMinor, Currency: p.Amount.Currency},
			Category: caderninhoapi.NilCategoryName{Null: true}, Note: optNilString(p.Note)}
		if p.Category != nil {
			sp.Category = caderninhoapi.NewNilCategoryName(caderninhoapi.CategoryName(*p.Category))
		}
		out = append(out, sp)
	}
	return out
}

// optNilString is a field always sent, null for nil.
func optNilString(s *string) caderninhoapi.OptNilString {
	if s == nil {
		return caderninhoapi.OptNilString{Set: true, Null: true}
	}
	return caderninhoapi.NewOptNilString(*s)
}

func nilMoneyOf(m *money.Amount) caderninhoapi.NilMoney {
	if m == nil {
		return caderninhoapi.NilMoney{Null: true}
	}
	return caderninhoapi.NewNilMoney(caderninhoapi.Money{AmountMinor: m.AmountMinor, Currency: m.Currency})
}

// recordOf is a record of the effective view as clients receive it.
func recordOf(r *planRecord) caderninhoapi.PlanTransactionsOutputRecord {
	out := caderninhoapi.PlanTransactionsOutputRecord{ID: r.ID, Source: caderninhoapi.PlanTransactionsOutputRecordSource(r.Source),
		AccountId: caderninhoapi.NilAccountId{Null: true}, Space: caderninhoapi.Key(r.Space), Person: nilString(r.Person),
		Date: dayOf(r.Date), Amount: nilMoneyOf(r.Amount), Currency: r.Currency, Description: r.Description,
		BankDescription: nilString(r.BankDescription), Category: nilString(r.Category), Note: nilString(r.Note),
		ExcludedFromTotals: r.ExcludedFromTotals, Edited: r.Edited, Splits: splitsOf(r.Splits)}
	if r.AccountID != nil {
		out.AccountId = caderninhoapi.NewNilAccountId(caderninhoapi.AccountId(*r.AccountID))
	}
	return out
}
