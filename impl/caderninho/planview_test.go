package caderninho

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// TestPlanViewMatchesReference compares the planning view as SQL selects, pages and totals it
// with a straightforward reference that loads every row into Go, applies the edits and filters
// there and sorts: over demo data with random edits, splits, manual records and unmatched
// edits, under random filters and page sizes, on the engine LUMO_TEST_DB selects.
func TestPlanViewMatchesReference(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			ctx := context.Background()
			svc := demoService(t)
			rng := rand.New(rand.NewPCG(seed, 20))
			populate(t, svc.Store, rng)
			accounts, err := svc.Store.Accounts(ctx, cadstore.AccountFilter{})
			if err != nil {
				t.Fatal(err)
			}
			refused := 0
			for i := range 120 {
				in := randomFilter(rng, accounts)
				if !compareView(t, svc, in, 1+rng.IntN(40)) {
					refused++
				}
				if t.Failed() {
					t.Fatalf("filter %d: %+v", i, in)
				}
			}
			if refused > 60 {
				t.Errorf("%d of 120 random filters were refused: the test checks too little", refused)
			}
		})
	}
}

// Category spellings as stored: the installation's, and others that fold alike or to nothing
// the installation lists.
var storedCategories = []string{"Mercado", "mercado", "Saúde", "SAUDE", "Lazer", "Materiais", "Vendas", "Antiga"}

var words = []string{"Feira", "São João", "aluguel", "vizinha", "conta", "PIX", "Mercado", "café", "fatura"}

func randomText(rng *rand.Rand, n int) *string {
	if rng.IntN(3) == 0 {
		return nil
	}
	var ws []string
	for range 1 + rng.IntN(n) {
		ws = append(ws, words[rng.IntN(len(words))])
	}
	s := strings.Join(ws, " ")
	return &s
}

func randomCategory(rng *rand.Rand) *string {
	if rng.IntN(3) == 0 {
		return nil
	}
	return &storedCategories[rng.IntN(len(storedCategories))]
}

func randomSplits(rng *rand.Rand, minor int64, currency string) *string {
	if rng.IntN(5) != 0 {
		return nil
	}
	part := minor / 3
	parts := []storedSplit{
		{Amount: money.Of(part, currency), Category: randomCategory(rng)},
		{Amount: money.Of(minor-part, currency), Category: randomCategory(rng), Note: randomText(rng, 1)},
	}
	b, _ := json.Marshal(parts)
	s := string(b)
	return &s
}

func flagOf(b bool) int {
	if b {
		return 1
	}
	return 0
}

// populate writes random edits (some of them of transactions the bank no longer lists) and
// manual records straight into the tables, as the planning writes keep them.
func populate(t *testing.T, st *cadstore.Store, rng *rand.Rand) {
	t.Helper()
	ctx := context.Background()
	db := st.DB()
	q := func(s string) string { return sqldialect.Rebind(db.Dialect(), s) }
	accounts, err := st.Accounts(ctx, cadstore.AccountFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, a := range accounts {
		ids = append(ids, a.ID)
	}
	rows, err := st.PlanBankRows(ctx, ids, "", "")
	if err != nil {
		t.Fatal(err)
	}
	keyOf := map[int64]*cadstore.Account{}
	for _, a := range accounts {
		keyOf[a.ID] = a
	}
	tx, err := db.SQL().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	edit := func(account, dedupe, space string, minor int64, currency string) {
		desc, note, cat := randomText(rng, 3), randomText(rng, 2), randomCategory(rng)
		if _, err := tx.ExecContext(ctx, q(`INSERT INTO cad_edits (account_key, dedupe_key, space_key, category, description, note, excluded,
			splits, search_fold, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), account, dedupe, space, cat, desc, note,
			flagOf(rng.IntN(4) == 0), randomSplits(rng, minor, currency), cadstore.EditFold(desc, note), "2026-11-01T12:00:00Z"); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range rows {
		if rng.IntN(3) == 0 {
			a := keyOf[r.AccountID]
			edit(a.Key, r.DedupeKey, a.SpaceKey, r.AmountMinor, r.Currency)
		}
	}
	for i := range 5 {
		a := accounts[rng.IntN(len(accounts))]
		edit(a.Key, fmt.Sprintf("f:SUMIU-%d", i), a.SpaceKey, 100, "BRL")
	}
	people := []*string{nil, ptr("marina"), ptr("rafael")}
	for i := range 60 {
		space := []string{"casa", "atelie"}[rng.IntN(2)]
		var account *string
		if rng.IntN(2) == 0 {
			account = &accounts[rng.IntN(len(accounts))].Key
		}
		currency := []string{"BRL", "BRL", "USD"}[rng.IntN(3)]
		var amount *int64
		switch rng.IntN(8) {
		case 0: // unknown
		case 1: // sums past 64 bits must stay exact
			amount = ptr(math.MaxInt64 - rng.Int64N(1000))
		case 2:
			amount = ptr(math.MinInt64 + rng.Int64N(1000))
		default:
			amount = ptr(int64(rng.IntN(200000) - 100000))
		}
		var splits *string
		if amount != nil {
			splits = randomSplits(rng, *amount, currency)
		}
		desc := *cmpOr(randomText(rng, 3), ptr("Dinheiro"))
		note := randomText(rng, 2)
		day := time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, rng.IntN(92)).Format(time.DateOnly)
		if _, err := tx.ExecContext(ctx, q(`INSERT INTO cad_records (id, space_key, person_key, account_key, record_day, amount_minor, currency,
			description, search_fold, category, note, excluded, splits, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			1000+i, space, people[rng.IntN(len(people))], account, day, amount, currency, desc, fold.Fold(desc+" "+stringOr(note)),
			randomCategory(rng), note, flagOf(rng.IntN(5) == 0), splits, "2026-11-01T12:00:00Z", "2026-11-01T12:00:00Z"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tx.ExecContext(ctx, "UPDATE cad_spaces SET revision = revision + 1"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }

func cmpOr[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

// dayCmp compares generated days (time.Time underneath) by their text.
var dayCmp = cmp.Transformer("day", func(d caderninhoapi.Day) string { return time.Time(d).Format(time.DateOnly) })

// viewFilter is a random selection of the view, as the tools take it.
type viewFilter struct {
	Space, Person string
	Accounts      []string
	From, To      string
	Category      string
	Uncategorised bool
	Source        string
	Text          string
}

func randomFilter(rng *rand.Rand, accounts []*cadstore.Account) viewFilter {
	var f viewFilter
	pick := func(opts ...string) string { return opts[rng.IntN(len(opts))] }
	f.Space = pick("", "", "casa", "atelie")
	f.Person = pick("", "", "", "marina", "rafael")
	if rng.IntN(4) == 0 {
		for range 1 + rng.IntN(2) {
			f.Accounts = append(f.Accounts, accounts[rng.IntN(len(accounts))].Key)
		}
	}
	day := func() string {
		return time.Date(2026, 7, 25, 0, 0, 0, 0, time.UTC).AddDate(0, 0, rng.IntN(110)).Format(time.DateOnly)
	}
	if rng.IntN(3) == 0 {
		f.From = day()
	}
	if rng.IntN(3) == 0 {
		f.To = day()
	}
	if f.From != "" && f.To != "" && f.From > f.To {
		f.From, f.To = f.To, f.From
	}
	switch rng.IntN(6) {
	case 0:
		f.Category = pick("mercado", "Saude", "LAZER", "Materiais", "vendas", "Moradia")
	case 1:
		f.Uncategorised = true
	}
	f.Source = pick("", "", "bank", "manual")
	if rng.IntN(3) == 0 {
		f.Text = pick("feira", "SAO", "joão aluguel", "pix", "mercado", "vizinha conta", "tarifa", "café", "zzz")
	}
	return f
}

func (f viewFilter) plan() (planFilter, error) {
	opt := func(s string) caderninhoapi.OptKey {
		if s == "" {
			return caderninhoapi.OptKey{}
		}
		return caderninhoapi.NewOptKey(caderninhoapi.Key(s))
	}
	optDay := func(s string) caderninhoapi.OptDay {
		if s == "" {
			return caderninhoapi.OptDay{}
		}
		return caderninhoapi.NewOptDay(dayOf(s))
	}
	var accounts []caderninhoapi.AccountId
	for _, a := range f.Accounts {
		accounts = append(accounts, caderninhoapi.AccountId(a))
	}
	cat := caderninhoapi.OptString{}
	if f.Category != "" {
		cat = caderninhoapi.NewOptString(f.Category)
	}
	unc := caderninhoapi.OptBool{}
	if f.Uncategorised {
		unc = caderninhoapi.NewOptBool(true)
	}
	return planFilterOf(opt(f.Space), opt(f.Person), accounts, optDay(f.From), optDay(f.To), cat, unc, f.Source, f.Text)
}

// compareView checks plan_transactions page by page and plan_totals under every grouping
// against the reference; false when the filter is refused (by both).
func compareView(t *testing.T, svc *Service, in viewFilter, limit int) bool {
	t.Helper()
	ctx := context.Background()
	pf, err := in.plan()
	if err != nil {
		return false
	}
	want, refErr := referenceRecords(ctx, svc, pf)
	var args caderninhoapi.PlanTransactionsInput
	args.Space, args.Person = pf.sel.keyOpt(pf.sel.Space), pf.sel.keyOpt(pf.sel.Person)
	args.Accounts = nil
	for _, a := range in.Accounts {
		args.Accounts = append(args.Accounts, caderninhoapi.AccountId(a))
	}
	setCommon(&args.From, &args.To, &args.Category, &args.Uncategorised, &args.Text, in)
	if in.Source != "" {
		args.Source = caderninhoapi.NewOptPlanTransactionsInputSource(caderninhoapi.PlanTransactionsInputSource(in.Source))
	}
	args.Limit = caderninhoapi.NewOptInt(limit)
	var got []caderninhoapi.PlanTransactionsOutputRecord
	for page := 0; ; page++ {
		out, _, err := svc.planTransactions(ctx, &args)
		if (err != nil) != (refErr != nil) {
			t.Fatalf("plan_transactions error %v, reference error %v", err, refErr)
		}
		if err != nil {
			return false
		}
		if page == 0 {
			if d := cmp.Diff(referenceUnmatched(t, svc, pf), out.UnmatchedEdits); d != "" {
				t.Errorf("unmatched edits (-reference +SQL):\n%s", d)
			}
		}
		got = append(got, out.Records...)
		if len(out.Records) > limit || (out.Truncated != (len(got) < len(want))) {
			t.Fatalf("page %d: %d records, truncated %v, %d of %d so far", page, len(out.Records), out.Truncated, len(got), len(want))
		}
		c, ok := out.NextCursor.Get()
		if !ok {
			break
		}
		args.Cursor = caderninhoapi.NewOptString(c)
	}
	var wantRecs []caderninhoapi.PlanTransactionsOutputRecord
	for _, r := range want {
		wantRecs = append(wantRecs, recordOf(r))
	}
	if d := cmp.Diff(wantRecs, got, dayCmp); d != "" {
		t.Errorf("plan_transactions with limit %d (-reference +SQL):\n%s", limit, d)
	}
	for _, by := range []string{"", "category", "month", "person", "account"} {
		var targs caderninhoapi.PlanTotalsInput
		targs.Space, targs.Person, targs.Accounts = args.Space, args.Person, args.Accounts
		setCommon(&targs.From, &targs.To, &targs.Category, &targs.Uncategorised, &targs.Text, in)
		if in.Source != "" {
			targs.Source = caderninhoapi.NewOptPlanTotalsInputSource(caderninhoapi.PlanTotalsInputSource(in.Source))
		}
		if by != "" {
			targs.GroupBy = caderninhoapi.NewOptPlanTotalsInputGroupBy(caderninhoapi.PlanTotalsInputGroupBy(by))
		}
		out, text, err := svc.planTotals(ctx, &targs)
		if err != nil {
			t.Fatalf("plan_totals by %q: %v", by, err)
		}
		ref := referenceTotals(want, by)
		if d := cmp.Diff(ref, totalsShape{out.Count, out.Totals, out.Excluded, out.Groups}); d != "" {
			t.Errorf("plan_totals by %q (-reference +SQL):\n%s", by, d)
		}
		text()
	}
	return true
}

func (s selection) keyOpt(k string) caderninhoapi.OptKey {
	if k == "" {
		return caderninhoapi.OptKey{}
	}
	return caderninhoapi.NewOptKey(caderninhoapi.Key(k))
}

func setCommon(from, to *caderninhoapi.OptDay, cat *caderninhoapi.OptString, unc *caderninhoapi.OptBool, text *caderninhoapi.OptString, in viewFilter) {
	*from, *to, *cat, *unc, *text = caderninhoapi.OptDay{}, caderninhoapi.OptDay{}, caderninhoapi.OptString{}, caderninhoapi.OptBool{}, caderninhoapi.OptString{}
	if in.From != "" {
		*from = caderninhoapi.NewOptDay(dayOf(in.From))
	}
	if in.To != "" {
		*to = caderninhoapi.NewOptDay(dayOf(in.To))
	}
	if in.Category != "" {
		*cat = caderninhoapi.NewOptString(in.Category)
	}
	if in.Uncategorised {
		*unc = caderninhoapi.NewOptBool(true)
	}
	if in.Text != "" {
		*text = caderninhoapi.NewOptString(in.Text)
	}
}

type totalsShape struct {
	Count    int
	Totals   []caderninhoapi.CurrencyTotal
	Excluded []caderninhoapi.CurrencyTotal
	Groups   []caderninhoapi.PlanTotalsOutputGroup
}

// referenceTotals tallies the records in Go, with math/big.
func referenceTotals(recs []*planRecord, by string) totalsShape {
	all := newTally()
	groups := map[string]*tally{}
	for _, r := range recs {
		all.add(r)
		if by == "" {
			continue
		}
		for _, part := range byCategoryParts(by, r) {
			k := groupKey(by, part)
			if groups[k] == nil {
				groups[k] = newTally()
			}
			groups[k].add(part)
		}
	}
	out := totalsShape{Count: all.count, Totals: listTotals(all.totals), Excluded: listTotals(all.excluded)}
	if by == "" {
		return out
	}
	out.Groups = []caderninhoapi.PlanTotalsOutputGroup{}
	keys := sortedKeys(groups)
	if len(keys) > 0 && keys[0] == "" {
		keys = append(keys[1:], "")
	}
	labels := map[string]string{"": map[string]string{"category": "sem categoria", "person": "sem pessoa", "account": "sem conta"}[by]}
	for _, k := range keys {
		g := groups[k]
		label := k
		switch {
		case k == "":
			label = labels[""]
		case by == "month":
			label = k[5:7] + "/" + k[:4]
		case by == "person":
			label = map[string]string{"marina": "Marina Costa", "rafael": "Rafael Costa"}[k]
		case by == "account":
			label = map[string]string{"aurora-marina:12345-6": "Banco Aurora, conta corrente 12345-6",
				"aurora-atelie:77001-2": "Banco Aurora, conta corrente 77001-2", "aurora-atelie:77001-9": "Banco Aurora, conta corrente 77001-9",
				"ipe-rafael:5502********7788": "Cooperativa Ipê, cartão de crédito final 7788", "sabia-rafael:90022-1": "Banco Sabiá, poupança 90022-1"}[k]
		}
		tg := caderninhoapi.PlanTotalsOutputGroup{Key: caderninhoapi.NilString{Null: true}, Label: label, Count: g.count,
			Totals: listTotals(g.totals), Excluded: listTotals(g.excluded)}
		if k != "" {
			tg.Key = caderninhoapi.NewNilString(k)
		}
		out.Groups = append(out.Groups, tg)
	}
	return out
}

// referenceRecords is the effective view built in Go: every transaction of the selected
// accounts and every manual record loaded, the edits applied from a map, filtered and sorted.
func referenceRecords(ctx context.Context, s *Service, f planFilter) ([]*planRecord, error) {
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
	var out []*planRecord
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
				out = append(out, r)
			}
		}
	}
	if f.source != "bank" {
		recs, err := s.Store.Records(ctx, f.from, f.to)
		if err != nil {
			return nil, err
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
				len(f.sel.Accounts) > 0 && (m.Account == nil || !slices.Contains(f.sel.Accounts, *m.Account)):
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
				out = append(out, r)
			}
		}
	}
	slices.SortFunc(out, func(a, b *planRecord) int {
		switch {
		case a.before(b.Date, b.rank, b.num):
			return -1
		case b.before(a.Date, a.rank, a.num):
			return 1
		}
		return 0
	})
	return out, nil
}

// referenceUnmatched is the edits no transaction matches, found by joining each edit's account
// by its key, and kept as the view reports them.
func referenceUnmatched(t *testing.T, s *Service, f planFilter) []caderninhoapi.PlanTransactionsOutputUnmatchedEditsItem {
	t.Helper()
	ctx := context.Background()
	rows, err := s.Store.DB().SQL().QueryContext(ctx, `SELECT e.account_key, e.space_key, e.category, e.description, e.excluded
		FROM cad_edits e WHERE NOT EXISTS (
			SELECT 1 FROM cad_transactions t JOIN cad_accounts a ON a.id = t.account_id
			JOIN cad_connections c ON c.id = a.connection_id
			WHERE t.dedupe_key = e.dedupe_key AND c.connection_key || ':' || a.acct_number = e.account_key)
		ORDER BY e.account_key, e.dedupe_key`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	rc, err := s.readContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	accounts, err := s.selectAccounts(ctx, rc, f.sel)
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.Store.Accounts(ctx, cadstore.AccountFilter{})
	if err != nil {
		t.Fatal(err)
	}
	holderOf := map[string]string{}
	for _, a := range all {
		holderOf[a.Key] = a.HolderKey
	}
	revs := planRevisions(rc, accounts, f.sel)
	out := []caderninhoapi.PlanTransactionsOutputUnmatchedEditsItem{}
	for rows.Next() {
		var account, space string
		var category, description *string
		var excluded int
		if err := rows.Scan(&account, &space, &category, &description, &excluded); err != nil {
			t.Fatal(err)
		}
		if _, read := revs[space]; read && (f.sel.Person == "" || holderOf[account] == f.sel.Person || holderOf[account] == "") {
			out = append(out, caderninhoapi.PlanTransactionsOutputUnmatchedEditsItem{AccountId: caderninhoapi.AccountId(account),
				Space: caderninhoapi.Key(space), Category: nilString(category), Description: nilString(description), ExcludedFromTotals: excluded != 0})
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
