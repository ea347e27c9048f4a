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
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
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
	Edited             bool          // a person edited the bank transaction
	RuleID             *int64        // the rule that categorises it (a bank transaction no person edited)
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

// effectiveView is a selection of the effective view with what every planning read reports;
// its records stay in the database (see each, all and totals).
type effectiveView struct {
	rc       *readContext
	accounts []*cadstore.Account
	byID     map[int64]*cadstore.Account
	holderOf map[string]string
	query    cadstore.PlanQuery
	revs     map[string]int64
	period   *cadstore.Period
	coverage []caderninhoapi.Coverage
	partial  bool
	every    []cadstore.PlanAccount // every account of the installation
	// unmatched are the edits in the spaces read whose transaction the bank no longer lists
	// (read by startUnmatched, for the reads that report them).
	unmatched []caderninhoapi.PlanTransactionsOutputUnmatchedEditsItem
}

// pendingRead is a read running alongside the view's rows; wait returns its error, once or
// more (a handler waits on every return, so nothing outlives the call).
type pendingRead struct {
	done   chan error
	err    error
	waited bool
}

func (p *pendingRead) wait() error {
	if !p.waited {
		p.err, p.waited = <-p.done, true
	}
	return p.err
}

// startUnmatched reads the unmatched edits of the view's spaces into v.unmatched while the
// caller reads the rows (its own connection): with many edits it costs about what a page does,
// unless the store holds the answer.
// v.unmatched may be read only after wait.
func (s *Service) startUnmatched(ctx context.Context, v *effectiveView, f planFilter) *pendingRead {
	p := &pendingRead{done: make(chan error, 1)}
	go func() {
		unmatched, err := s.Store.UnmatchedEdits(ctx, v.rc.spaces, v.every)
		out := []caderninhoapi.PlanTransactionsOutputUnmatchedEditsItem{}
		for _, u := range unmatched {
			if _, read := v.revs[u.Space]; read && (f.sel.Person == "" || v.holderOf[u.Account] == f.sel.Person || v.holderOf[u.Account] == "") {
				out = append(out, caderninhoapi.PlanTransactionsOutputUnmatchedEditsItem{AccountId: caderninhoapi.AccountId(u.Account),
					Space: caderninhoapi.Key(u.Space), Category: nilString(u.Category), Description: nilString(u.Description), ExcludedFromTotals: u.Excluded})
			}
		}
		v.unmatched = out
		p.done <- err
	}()
	return p
}

// effective selects the effective view by f: the origin view of the selected accounts with the
// edits applied, plus the manual records, filtered and in order. The selection, order, paging
// and totals run in SQL: a read holds a page, never the whole space.
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
	v := &effectiveView{rc: rc, accounts: accounts, byID: map[int64]*cadstore.Account{}, holderOf: map[string]string{},
		revs: planRevisions(rc, accounts, f.sel)}
	var every []cadstore.PlanAccount
	for _, a := range all {
		v.holderOf[a.Key] = a.HolderKey
		every = append(every, cadstore.PlanAccount{ID: a.ID, Key: a.Key})
	}
	if f.category != "" {
		if err := s.checkCategory(ctx, rc, f); err != nil {
			return nil, err
		}
	}
	q := cadstore.PlanQuery{Bank: f.source != "manual", Manual: f.source != "bank", Holders: v.holderOf, From: f.from, To: f.to,
		Space: f.sel.Space, Person: f.sel.Person, AccountKeys: f.sel.Accounts, Uncategorised: f.uncategorised, Words: f.words}
	for _, a := range accounts {
		v.byID[a.ID] = a
		q.Accounts = append(q.Accounts, cadstore.PlanAccount{ID: a.ID, Key: a.Key})
	}
	if f.category != "" {
		// the stored names that fold to the category asked: the installation may spell it otherwise now
		stored, err := s.Store.StoredCategories(ctx)
		if err != nil {
			return nil, err
		}
		q.Categories = []string{}
		for _, c := range stored {
			if fold.Fold(c) == fold.Fold(f.category) {
				q.Categories = append(q.Categories, c)
			}
		}
	}
	v.query, v.every = q, every
	v.period = coveragePeriod(accounts, f.from, f.to)
	v.coverage, v.partial = rc.coverage(accounts, v.period)
	return v, nil
}

// each calls fn with the view's records after the position (nil: from the first), in order, at
// most limit of them (0: all).
func (s *Service) each(ctx context.Context, v *effectiveView, q cadstore.PlanQuery, after *cadstore.PlanPosition, limit int,
	fn func(*planRecord) error) error {
	return s.Store.PlanRows(ctx, q, after, limit, func(row *cadstore.PlanRow) error {
		r, err := v.record(row)
		if err != nil {
			return err
		}
		return fn(r)
	})
}

// all is every record of the view, in order: for writes, which list what they change.
func (s *Service) all(ctx context.Context, v *effectiveView, q cadstore.PlanQuery) ([]*planRecord, error) {
	var out []*planRecord
	err := s.each(ctx, v, q, nil, 0, func(r *planRecord) error {
		out = append(out, r)
		return nil
	})
	return out, err
}

// record is a stored row of the view as a record: a bank transaction with its edit applied, or
// a manual record with its person (its own, else its account's holder).
func (v *effectiveView) record(row *cadstore.PlanRow) (*planRecord, error) {
	var err error
	if !row.Manual {
		a := v.byID[row.AccountID]
		bankDesc := strings.TrimSpace(row.Name + " " + row.Memo)
		minor := *row.AmountMinor
		amount := money.Of(minor, row.Currency)
		r := &planRecord{ID: "bank:" + strconv.FormatInt(row.ID, 10), Source: "bank", AccountID: &a.Key, Space: a.SpaceKey,
			Person: &a.HolderKey, Date: row.Day, Amount: &amount, Currency: row.Currency, Description: bankDesc, BankDescription: &bankDesc,
			minor: &minor, num: row.ID, dedupe: row.DedupeKey}
		if row.Edited || row.RuleID != nil { // a person's edit, or a rule's
			r.Edited, r.RuleID = row.Edited, row.RuleID
			if row.EditDescription != nil {
				r.Description = *row.EditDescription
			}
			r.Category, r.Note, r.ExcludedFromTotals = row.Category, row.Note, row.Excluded
			if r.Splits, err = decodeSplits(row.Splits); err != nil {
				return nil, err
			}
		}
		return r, nil
	}
	person := row.Person
	if person == nil && row.Account != nil {
		if h, ok := v.holderOf[*row.Account]; ok {
			person = &h
		}
	}
	r := &planRecord{ID: "manual:" + strconv.FormatInt(row.ID, 10), Source: "manual", AccountID: row.Account, Space: row.Space,
		Person: person, Date: row.Day, Currency: row.Currency, Description: row.Description, Category: row.Category, Note: row.Note,
		ExcludedFromTotals: row.Excluded, minor: row.AmountMinor, rank: 1, num: row.ID}
	if row.AmountMinor != nil {
		amount := money.Of(*row.AmountMinor, row.Currency)
		r.Amount = &amount
	}
	if r.Splits, err = decodeSplits(row.Splits); err != nil {
		return nil, err
	}
	return r, nil
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
	var more []string
	if sim := suggest.Similar(f.category, known, 3); len(sim) > 0 {
		more = append(more, "Parecidas: "+strings.Join(sim, ", ")+".")
	}
	more = append(more, "Categorias: "+strings.Join(known, ", ")+".", "Use plan_categories para ver as categorias de cada espaço.")
	return invalidFilter(fmt.Sprintf("category: %q não é uma categoria do espaço selecionado.", f.category), more...)
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
		ExcludedFromTotals: r.ExcludedFromTotals, Edited: r.Edited, Splits: splitsOf(r.Splits),
		CategorisedBy: caderninhoapi.OptNilCategorisedBy{Set: true, Null: true}, RuleId: caderninhoapi.OptNilInt{Set: true, Null: true}}
	if r.AccountID != nil {
		out.AccountId = caderninhoapi.NewNilAccountId(caderninhoapi.AccountId(*r.AccountID))
	}
	if by := categorisedBy(r); by != "" {
		out.CategorisedBy = caderninhoapi.NewOptNilCategorisedBy(by)
	}
	if r.RuleID != nil {
		out.RuleId = caderninhoapi.NewOptNilInt(int(*r.RuleID))
	}
	return out
}

// categorisedBy says who categorised a record: a rule, a person (a planning write, or a manual
// record's author) or nobody ("").
func categorisedBy(r *planRecord) caderninhoapi.CategorisedBy {
	switch {
	case r.RuleID != nil:
		return caderninhoapi.CategorisedByRule
	case r.Category != nil || r.Splits != nil:
		return caderninhoapi.CategorisedByPerson
	}
	return ""
}
