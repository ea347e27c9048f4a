package caderninho

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Sentences of the contract the planning texts repeat, exact.
const (
	effectiveNote = "As ferramentas de planejamento usam a visão efetiva com edições e registros manuais."
	totalsNote    = "Para totais, use uma ferramenta agregadora de toda a seleção."
	unknownNote   = "null representa um valor desconhecido. Preserve contagem de desconhecidos e subtotais conhecidos. Um valor ausente não representa zero."
	personNote    = "Um filtro de pessoa seleciona dados para a consulta, mas não limita o acesso de um assistente autorizado: ele pode consultar todos os titulares da instalação."
)

func (s *Service) planTransactions(ctx context.Context, args *caderninhoapi.PlanTransactionsInput) (*caderninhoapi.PlanTransactionsOutput, func() string, error) {
	f, err := planFilterOf(args.Space, args.Person, args.Accounts, args.From, args.To, args.Category, args.Uncategorised,
		string(args.Source.Or("")), args.Text.Or(""))
	if err != nil {
		return nil, nil, err
	}
	v, err := s.effective(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	unmatched := s.startUnmatched(ctx, v, f)
	defer unmatched.wait()
	limit := args.Limit.Or(defaultPageSize)
	digest := f.digest("plan_transactions")
	var after *cadstore.PlanPosition
	continued := false
	if c, ok := args.Cursor.Get(); ok {
		st, valid := decodeCursor(v.rc.inst.CursorSecret, c)
		switch {
		case !valid:
			return nil, nil, invalidFilter("cursor: o cursor não foi emitido por esta instalação ou foi alterado.",
				"Refaça a leitura sem cursor.")
		case st.Filters != digest:
			return nil, nil, invalidFilter("cursor: o cursor foi emitido para outros filtros. "+cursorNote,
				"Repita a chamada com os mesmos filtros da página anterior, ou refaça a leitura sem cursor.")
		case !maps.Equal(st.Revisions, v.revs):
			return nil, nil, &mcpserver.ToolError{Code: "RESTART_REQUIRED",
				Message: fmt.Sprintf("Os dados mudaram depois que o cursor foi emitido (%s; agora %s). %s",
					revisionsText(st.Revisions), revisionsText(v.revs), restartNote),
				Suggestions: []string{nextRestart, "Chame plan_transactions de novo sem cursor."}}
		}
		// the page starts after the record at the position, which was on the previous page
		after, continued = &cadstore.PlanPosition{Day: st.Day, Rank: st.Rank, ID: st.ID}, true
	}
	// one record more than the page tells whether another page follows
	recs := make([]*planRecord, 0, limit+1)
	if err := s.each(ctx, v, v.query, after, limit+1, func(r *planRecord) error {
		recs = append(recs, r)
		return nil
	}); err != nil {
		return nil, nil, err
	}
	if err := unmatched.wait(); err != nil {
		return nil, nil, err
	}
	out := &caderninhoapi.PlanTransactionsOutput{Records: []caderninhoapi.PlanTransactionsOutputRecord{}, NextCursor: caderninhoapi.NilString{Null: true},
		Partial: v.partial, Period: nilPeriod(v.period), Coverage: v.coverage, UnmatchedEdits: v.unmatched, Revisions: caderninhoapi.Revisions(v.revs)}
	if len(recs) > limit {
		recs = recs[:limit]
		last := recs[len(recs)-1]
		c := encodeCursor(v.rc.inst.CursorSecret, cursorState{Filters: digest, Revisions: v.revs, Day: last.Date, Rank: last.rank, ID: last.num})
		out.NextCursor, out.Truncated = caderninhoapi.NewNilString(c), true
	}
	for _, r := range recs {
		out.Records = append(out.Records, recordOf(r))
	}
	return out, func() string { return planTransactionsText(out, recs, v, continued, f) }, nil
}

func amountText(r *planRecord) string {
	if r.Amount == nil {
		return "valor desconhecido (" + r.Currency + ")"
	}
	return ptbr.Money(r.Amount.AmountMinor, r.Amount.Currency)
}

func planTransactionsText(out *caderninhoapi.PlanTransactionsOutput, recs []*planRecord, v *effectiveView, continued bool, f planFilter) string {
	var b strings.Builder
	what := "Visão efetiva"
	if continued {
		what = "Continuação da visão efetiva"
	}
	if v.period != nil {
		what += " de " + ptbr.Day(v.period.From) + " a " + ptbr.Day(v.period.To)
	}
	fmt.Fprintf(&b, "%s (%s), mais recentes primeiro: %s nesta página.\n", what, revisionsText(out.Revisions),
		ptbr.Count(len(out.Records), "registro", "registros"))
	for _, r := range recs {
		var extra []string
		if r.Category != nil {
			c := "categoria " + *r.Category
			if r.RuleID != nil {
				c += fmt.Sprintf(" pela regra %d", *r.RuleID)
			}
			extra = append(extra, c)
		}
		if r.Source == "manual" {
			extra = append(extra, "registro manual")
		} else if r.Edited {
			extra = append(extra, "editado")
		}
		if r.ExcludedFromTotals {
			extra = append(extra, "fora dos totais")
		}
		if len(r.Splits) > 0 {
			var parts []string
			for _, sp := range r.Splits {
				c := "sem categoria"
				if sp.Category != nil {
					c = *sp.Category
				}
				parts = append(parts, c+" "+ptbr.Money(sp.Amount.AmountMinor, sp.Amount.Currency))
			}
			extra = append(extra, "dividido: "+strings.Join(parts, ", "))
		}
		where := r.Space
		if r.AccountID != nil {
			where = v.rc.label(*r.AccountID)
		}
		line := fmt.Sprintf("- %s %s %s %s [id %s]", ptbr.Day(r.Date), where, amountText(r), r.Description, r.ID)
		if len(extra) > 0 {
			line += " (" + strings.Join(extra, "; ") + ")"
		}
		b.WriteString(line + "\n")
	}
	if out.Truncated {
		b.WriteString("truncated: true — há mais registros: chame de novo com cursor igual a nextCursor. " + cursorNote + "\n")
	} else {
		b.WriteString("truncated: false — esta é a última página.\n")
	}
	b.WriteString(effectiveNote + " " + pageNote + " " + totalsNote + " Use plan_totals.\n")
	if f.sel.Person != "" {
		b.WriteString(personNote + "\n")
	}
	b.WriteString(moneyNote + " " + unknownNote + "\n")
	b.WriteString(unmatchedText(v.rc, v.unmatched))
	b.WriteString(coverageText(v.rc, v.coverage, v.period, v.partial))
	return b.String()
}

// tally sums records per currency; records excluded from totals go to a separate tally.
type tally struct {
	count    int
	totals   map[string]*sumCount
	excluded map[string]*sumCount
}

type sumCount struct {
	sum            money.Sum
	known, unknown int
}

func newTally() *tally {
	return &tally{totals: map[string]*sumCount{}, excluded: map[string]*sumCount{}}
}

func (t *tally) add(r *planRecord) {
	t.count++
	m := t.totals
	if r.ExcludedFromTotals {
		m = t.excluded
	}
	sc := m[r.Currency]
	if sc == nil {
		sc = &sumCount{sum: money.Sum{Currency: r.Currency}}
		m[r.Currency] = sc
	}
	if r.minor == nil {
		sc.unknown++
		return
	}
	sc.known++
	sc.sum.Add(*r.minor)
}

// addRow adds the tally of stored rows (cadstore.PlanTotals).
func (t *tally) addRow(r cadstore.TotalRow) {
	t.count += int(r.Count)
	m := t.totals
	if r.Excluded {
		m = t.excluded
	}
	sc := m[r.Currency]
	if sc == nil {
		sc = &sumCount{sum: money.Sum{Currency: r.Currency}}
		m[r.Currency] = sc
	}
	sc.known += int(r.Known)
	sc.unknown += int(r.Count - r.Known)
	sc.sum.AddInt(r.Sum)
}

// groupKeyOf is the group of stored rows, as groupKey is a record's.
func (v *effectiveView) groupKeyOf(by string, r cadstore.TotalRow) string {
	switch {
	case by == cadstore.GroupCategory:
		return stringOr(r.Category)
	case by == cadstore.GroupMonth:
		return r.Month
	case !r.Manual && by == cadstore.GroupPerson:
		return v.byID[r.AccountID].HolderKey
	case !r.Manual:
		return v.byID[r.AccountID].Key
	case by == cadstore.GroupPerson && r.Person == nil && r.Account != nil:
		return v.holderOf[*r.Account]
	case by == cadstore.GroupPerson:
		return stringOr(r.Person)
	}
	return stringOr(r.Account)
}

// listTotals is the exact total of each currency: known amounts summed with math/big, unknown
// ones counted.
func listTotals(m map[string]*sumCount) []caderninhoapi.CurrencyTotal {
	out := []caderninhoapi.CurrencyTotal{}
	for _, c := range sortedKeys(m) {
		sc := m[c]
		out = append(out, caderninhoapi.CurrencyTotal{Currency: c, KnownTotalMinor: sc.sum.Minor(), KnownCount: sc.known, UnknownCount: sc.unknown})
	}
	return out
}

func (s *Service) planTotals(ctx context.Context, args *caderninhoapi.PlanTotalsInput) (*caderninhoapi.PlanTotalsOutput, func() string, error) {
	f, err := planFilterOf(args.Space, args.Person, args.Accounts, args.From, args.To, args.Category, args.Uncategorised,
		string(args.Source.Or("")), args.Text.Or(""))
	if err != nil {
		return nil, nil, err
	}
	v, err := s.effective(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	unmatched := s.startUnmatched(ctx, v, f)
	defer unmatched.wait()
	all := newTally()
	groups := map[string]*tally{}
	groupBy := string(args.GroupBy.Or(""))
	group := func(k string) *tally {
		if groups[k] == nil {
			groups[k] = newTally()
		}
		return groups[k]
	}
	rows, err := s.Store.PlanTotals(ctx, v.query, groupBy)
	if err != nil {
		return nil, nil, err
	}
	for _, t := range rows {
		all.addRow(t)
		if groupBy != "" && !t.Split { // split records add their parts, below
			group(v.groupKeyOf(groupBy, t)).addRow(t)
		}
	}
	if groupBy == cadstore.GroupCategory {
		q := v.query
		q.SplitsOnly = true
		if err := s.each(ctx, v, q, nil, 0, func(r *planRecord) error {
			for _, part := range byCategoryParts(groupBy, r) {
				group(groupKey(groupBy, part)).add(part)
			}
			return nil
		}); err != nil {
			return nil, nil, err
		}
	}
	if err := unmatched.wait(); err != nil {
		return nil, nil, err
	}
	out := &caderninhoapi.PlanTotalsOutput{Count: all.count, Totals: listTotals(all.totals), Excluded: listTotals(all.excluded),
		GroupBy: caderninhoapi.NilPlanTotalsOutputGroupBy{Null: true}, Partial: v.partial, Period: nilPeriod(v.period), Coverage: v.coverage,
		UnmatchedEdits: make([]caderninhoapi.PlanTotalsOutputUnmatchedEditsItem, 0, len(v.unmatched)), Revisions: caderninhoapi.Revisions(v.revs)}
	for _, u := range v.unmatched {
		out.UnmatchedEdits = append(out.UnmatchedEdits, caderninhoapi.PlanTotalsOutputUnmatchedEditsItem(u))
	}
	if groupBy != "" {
		out.GroupBy = caderninhoapi.NewNilPlanTotalsOutputGroupBy(caderninhoapi.PlanTotalsOutputGroupBy(groupBy))
		out.Groups = []caderninhoapi.PlanTotalsOutputGroup{}
		keys := sortedKeys(groups)
		// "" (no category, person or account) goes last
		if len(keys) > 0 && keys[0] == "" {
			keys = append(keys[1:], "")
		}
		for _, k := range keys {
			g := groups[k]
			tg := caderninhoapi.PlanTotalsOutputGroup{Key: caderninhoapi.NilString{Null: true}, Label: groupLabel(groupBy, k, v.rc), Count: g.count,
				Totals: listTotals(g.totals), Excluded: listTotals(g.excluded)}
			if k != "" {
				tg.Key = caderninhoapi.NewNilString(k)
			}
			out.Groups = append(out.Groups, tg)
		}
	}
	return out, func() string { return planTotalsText(out, v, f) }, nil
}

// byCategoryParts is what a record adds to its groups: grouped by category, a split record adds
// each part to the part's category; otherwise the record itself.
func byCategoryParts(by string, r *planRecord) []*planRecord {
	if by != "category" || r.Splits == nil {
		return []*planRecord{r}
	}
	parts := make([]*planRecord, 0, len(r.Splits))
	for _, sp := range r.Splits {
		n, err := strconv.ParseInt(sp.Amount.AmountMinor, 10, 64)
		if err != nil { // stored splits were checked on write; keep the record whole rather than guess
			return []*planRecord{r}
		}
		parts = append(parts, &planRecord{Currency: r.Currency, Category: sp.Category, ExcludedFromTotals: r.ExcludedFromTotals, minor: &n})
	}
	return parts
}

func groupKey(by string, r *planRecord) string {
	switch by {
	case "category":
		return stringOr(r.Category)
	case "month":
		return r.Date[:7]
	case "person":
		return stringOr(r.Person)
	default:
		return stringOr(r.AccountID)
	}
}

func groupLabel(by, key string, rc *readContext) string {
	switch {
	case by == "category" && key == "":
		return "sem categoria"
	case by == "person" && key == "":
		return "sem pessoa"
	case by == "account" && key == "":
		return "sem conta"
	case by == "month":
		return key[5:7] + "/" + key[:4]
	case by == "person":
		if n, ok := rc.people[key]; ok {
			return n
		}
	case by == "account":
		return rc.label(key)
	}
	return key
}

func totalsLines(ts []caderninhoapi.CurrencyTotal) []string {
	var out []string
	for _, t := range ts {
		line := fmt.Sprintf("%s: %s conhecidos em %s", t.Currency, ptbr.Money(t.KnownTotalMinor, t.Currency),
			ptbr.Count(t.KnownCount, "registro", "registros"))
		if t.UnknownCount > 0 {
			line += fmt.Sprintf("; mais %s com valor desconhecido (null), fora da soma",
				ptbr.Count(t.UnknownCount, "registro", "registros"))
		}
		out = append(out, line)
	}
	return out
}

func planTotalsText(out *caderninhoapi.PlanTotalsOutput, v *effectiveView, f planFilter) string {
	var b strings.Builder
	what := "Totais da visão efetiva (edições e registros manuais)"
	if v.period != nil {
		what += " de " + ptbr.Day(v.period.From) + " a " + ptbr.Day(v.period.To)
	}
	fmt.Fprintf(&b, "%s (%s), sobre toda a seleção: %s.\n", what, revisionsText(out.Revisions),
		ptbr.Count(out.Count, "registro selecionado", "registros selecionados"))
	if len(out.Totals) == 0 {
		b.WriteString("Nenhum registro entra nos totais.\n")
	}
	for _, l := range totalsLines(out.Totals) {
		b.WriteString("- " + l + ".\n")
	}
	if len(out.Totals) > 1 {
		b.WriteString("Cada moeda tem seu próprio total; as moedas não foram somadas entre si.\n")
	}
	if len(out.Excluded) > 0 {
		b.WriteString("Fora dos totais (marcados para não entrar na soma), contados à parte:\n")
		for _, l := range totalsLines(out.Excluded) {
			b.WriteString("- " + l + ".\n")
		}
	}
	for _, g := range out.Groups {
		fmt.Fprintf(&b, "%s (%s): %s.\n", g.Label, ptbr.Count(g.Count, "registro", "registros"), strings.Join(append(totalsLines(g.Totals),
			prefixed("fora dos totais ", totalsLines(g.Excluded))...), "; "))
	}
	// what the totals do not know
	var unknown []string
	unknownCount := 0
	for _, t := range out.Totals {
		if t.UnknownCount > 0 {
			unknownCount += t.UnknownCount
			unknown = append(unknown, fmt.Sprintf("%s em %s", ptbr.Count(t.UnknownCount, "valor desconhecido", "valores desconhecidos"), t.Currency))
		}
	}
	var uncovered []string
	for _, c := range out.Coverage {
		switch {
		case c.CoveredFrom.Null:
			uncovered = append(uncovered, v.rc.label(string(c.AccountId))+" (nenhum extrato com período importado)")
		case len(c.Uncovered) > 0:
			uncovered = append(uncovered, v.rc.label(string(c.AccountId))+" (sem extrato em "+periodsText(c.Uncovered)+")")
		}
	}
	if unknownCount == 0 && len(uncovered) == 0 && len(v.unmatched) == 0 {
		b.WriteString("O que estes totais não sabem: nenhum valor desconhecido na seleção e todas as contas têm extrato para todo o período avaliado; ainda assim, só entram transações importadas e registros manuais.\n")
	} else {
		b.WriteString("O que estes totais não sabem:\n")
		if unknownCount > 0 {
			b.WriteString("- " + ptbr.List(unknown) + ": esses registros existem, mas o valor não entra na soma.\n")
		}
		if len(v.unmatched) > 0 {
			b.WriteString("- " + ptbr.Count(len(v.unmatched), "edição", "edições") + " de transações que o banco não lista mais (veja abaixo).\n")
		}
		if len(uncovered) > 0 {
			b.WriteString("- contas sem extrato em parte do período: " + strings.Join(uncovered, "; ") +
				". Transações desses dias não estão nos totais. " + nextPartial + ".\n")
		}
	}
	b.WriteString(effectiveNote + " " + moneyNote + " " + unknownNote + "\n")
	if f.sel.Person != "" {
		b.WriteString(personNote + "\n")
	}
	b.WriteString(unmatchedText(v.rc, v.unmatched))
	b.WriteString(coverageText(v.rc, v.coverage, v.period, v.partial))
	return b.String()
}

// unmatchedText reports edits whose transaction the bank no longer lists: kept, never dropped.
func unmatchedText(rc *readContext, us []caderninhoapi.PlanTransactionsOutputUnmatchedEditsItem) string {
	if len(us) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Atenção: %s de transações que o banco não lista mais; a edição foi mantida, mas não entra na visão efetiva nem nos totais:\n",
		ptbr.Count(len(us), "edição", "edições"))
	for _, u := range us {
		var parts []string
		if c, ok := u.Category.Get(); ok {
			parts = append(parts, "categoria "+c)
		}
		if d, ok := u.Description.Get(); ok {
			parts = append(parts, "descrição "+d)
		}
		if u.ExcludedFromTotals {
			parts = append(parts, "fora dos totais")
		}
		fmt.Fprintf(&b, "- %s (espaço %s): %s.\n", rc.label(string(u.AccountId)), u.Space, strings.Join(parts, "; "))
	}
	return b.String()
}

func prefixed(p string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = p + s
	}
	return out
}

func (s *Service) planCategories(ctx context.Context, args *caderninhoapi.PlanCategoriesInput) (*caderninhoapi.PlanCategoriesOutput, func() string, error) {
	f := planFilter{sel: selection{Space: string(args.Space.Or(""))}}
	v, err := s.effective(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	cats, err := s.Store.Categories(ctx)
	if err != nil {
		return nil, nil, err
	}
	out := &caderninhoapi.PlanCategoriesOutput{Spaces: []caderninhoapi.PlanCategoriesOutputSpace{}, Revisions: caderninhoapi.Revisions(v.revs)}
	// each space's categories: the installation's, then the others of its records in view order
	keys := sortedKeys(v.revs)
	spaces := map[string]*caderninhoapi.PlanCategoriesOutputSpace{}
	indexes := map[string]map[string]int{}
	for _, key := range keys {
		sv := &caderninhoapi.PlanCategoriesOutputSpace{Key: caderninhoapi.Key(key), Name: v.rc.spaces[key].Name, Categories: []caderninhoapi.PlanCategoriesOutputCategory{}}
		index := map[string]int{}
		for _, c := range cats[key] {
			index[fold.Fold(c)] = len(sv.Categories)
			sv.Categories = append(sv.Categories, caderninhoapi.PlanCategoriesOutputCategory{Name: c, InInstallation: true})
		}
		spaces[key], indexes[key] = sv, index
	}
	if err := s.each(ctx, v, v.query, nil, 0, func(r *planRecord) error {
		sv := spaces[r.Space]
		if sv == nil {
			return nil
		}
		sv.Count++
		if r.Category == nil {
			sv.UncategorisedCount++
			return nil
		}
		index := indexes[r.Space]
		i, ok := index[fold.Fold(*r.Category)]
		if !ok {
			i = len(sv.Categories)
			index[fold.Fold(*r.Category)] = i
			sv.Categories = append(sv.Categories, caderninhoapi.PlanCategoriesOutputCategory{Name: *r.Category})
		}
		sv.Categories[i].Count++
		return nil
	}); err != nil {
		return nil, nil, err
	}
	for _, key := range keys {
		out.Spaces = append(out.Spaces, *spaces[key])
	}
	var b strings.Builder
	for _, sv := range out.Spaces {
		fmt.Fprintf(&b, "Espaço %s (%s): %s, %s sem categoria.\n", sv.Name, sv.Key, ptbr.Count(sv.Count, "registro", "registros"),
			ptbr.Int(int64(sv.UncategorisedCount)))
		for _, c := range sv.Categories {
			note := ""
			if !c.InInstallation {
				note = " (a instalação não lista mais esta categoria)"
			}
			fmt.Fprintf(&b, "- %s: %s%s\n", c.Name, ptbr.Count(c.Count, "registro", "registros"), note)
		}
	}
	b.WriteString(effectiveNote + " Contagens de registros, não totais: para valores, use plan_totals.")
	return out, b.String, nil
}
