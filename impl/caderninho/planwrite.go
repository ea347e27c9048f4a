package caderninho

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-faster/jx"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// snapshotOf is a record before or after a write.
func snapshotOf(r *planRecord) caderninhoapi.NilSnapshot {
	snap := caderninhoapi.Snapshot{Date: caderninhoapi.NewOptDay(dayOf(r.Date)),
		Amount:   caderninhoapi.OptNilMoney{Set: true, Null: r.Amount == nil, Value: nilMoneyOf(r.Amount).Value},
		Currency: caderninhoapi.NewOptString(r.Currency), Description: caderninhoapi.NewOptString(r.Description),
		Category: optNilString(r.Category), Note: optNilString(r.Note), ExcludedFromTotals: caderninhoapi.NewOptBool(r.ExcludedFromTotals),
		Splits:        caderninhoapi.OptNilSplitArray{Set: true, Null: r.Splits == nil, Value: splitsOf(r.Splits)},
		CategorisedBy: caderninhoapi.OptNilCategorisedBy{Set: true, Null: true}, RuleId: caderninhoapi.OptNilInt{Set: true, Null: true}}
	if by := categorisedBy(r); by != "" {
		snap.CategorisedBy = caderninhoapi.NewOptNilCategorisedBy(by)
	}
	if r.RuleID != nil {
		snap.RuleId = caderninhoapi.NewOptNilInt(int(*r.RuleID))
		if *r.RuleID == 0 { // a rule not stored yet (a preview): no id to give
			snap.RuleId = caderninhoapi.OptNilInt{}
		}
	}
	return caderninhoapi.NewNilSnapshot(snap)
}

// budgetSnapshotOf is a budget before or after a write.
func budgetSnapshotOf(month, category, currency string, minor int64) caderninhoapi.NilSnapshot {
	return caderninhoapi.NewNilSnapshot(caderninhoapi.Snapshot{Month: caderninhoapi.NewOptMonth(caderninhoapi.Month(month)),
		Category: caderninhoapi.NewOptNilString(category), Currency: caderninhoapi.NewOptString(currency),
		Amount: caderninhoapi.NewOptNilMoney(moneyOf(minor, currency))})
}

// recordChange pairs a record with its state after the write (nil: removed).
func recordChange(before, after *planRecord) *change {
	c := &change{beforeRec: before, afterRec: after, Before: caderninhoapi.NilSnapshot{Null: true}, After: caderninhoapi.NilSnapshot{Null: true}}
	if before != nil {
		c.ID, c.Before = before.ID, snapshotOf(before)
	}
	if after != nil {
		c.ID, c.After = after.ID, snapshotOf(after)
	}
	return c
}

// optText is an optional text of a snapshot, "(nenhuma)" when null.
func optText(p caderninhoapi.OptNilString) string {
	if v, ok := p.Get(); ok {
		return v
	}
	return "(nenhuma)"
}

// changeText says what changed, field by field.
func changeText(c *change) string {
	switch {
	case c.Before.Null && c.After.Value.When.Set:
		return c.ID + ": criada (" + ruleSnapshotText(c.After.Value) + ")"
	case c.After.Null && c.Before.Value.When.Set:
		return c.ID + ": apagada (era " + ruleSnapshotText(c.Before.Value) + ")"
	case c.Before.Null:
		return c.ID + ": criado (" + describeSnapshot(c.After.Value) + ")"
	case c.After.Null:
		return c.ID + ": removido (era " + describeSnapshot(c.Before.Value) + ")"
	}
	br, ar := c.Before.Value, c.After.Value
	if br.When.Set {
		return ruleChangeText(c.ID, br, ar)
	}
	if br.Month.Set {
		return c.ID + ": orçamento " + ptbr.Money(br.Amount.Value.AmountMinor, br.Currency.Value) + " → " +
			ptbr.Money(ar.Amount.Value.AmountMinor, ar.Currency.Value)
	}
	var diffs []string
	switch {
	case optText(br.Category) != optText(ar.Category):
		diffs = append(diffs, "categoria "+optText(br.Category)+" → "+optText(ar.Category)+byText(ar))
	case categorisedByText(br) != categorisedByText(ar) && ar.Category.Set && !ar.Category.Null:
		diffs = append(diffs, "categoria "+optText(ar.Category)+" agora "+categorisedByText(ar)+" (era "+categorisedByText(br)+")")
	}
	if br.Description.Value != ar.Description.Value {
		diffs = append(diffs, "descrição "+br.Description.Value+" → "+ar.Description.Value)
	}
	if optText(br.Note) != optText(ar.Note) {
		diffs = append(diffs, "nota "+optText(br.Note)+" → "+optText(ar.Note))
	}
	if br.ExcludedFromTotals.Value != ar.ExcludedFromTotals.Value {
		if ar.ExcludedFromTotals.Value {
			diffs = append(diffs, "fica fora dos totais")
		} else {
			diffs = append(diffs, "volta aos totais")
		}
	}
	category := func(c caderninhoapi.NilCategoryName) string {
		if c.Null {
			return "(nenhuma)"
		}
		return string(c.Value)
	}
	if br.Splits.Null != ar.Splits.Null || !slices.EqualFunc(br.Splits.Value, ar.Splits.Value, func(x, y caderninhoapi.Split) bool {
		return x.Amount == y.Amount && category(x.Category) == category(y.Category) && optText(x.Note) == optText(y.Note)
	}) {
		if ar.Splits.Null {
			diffs = append(diffs, "divisão desfeita")
		} else {
			diffs = append(diffs, "dividido em "+ptbr.Count(len(ar.Splits.Value), "parte", "partes"))
		}
	}
	if len(diffs) == 0 {
		diffs = append(diffs, "sem mudança de valor")
	}
	return c.ID + " (" + br.Description.Value + "): " + strings.Join(diffs, "; ")
}

func describeSnapshot(v caderninhoapi.Snapshot) string {
	if v.Month.Set {
		return fmt.Sprintf("orçamento %s de %s em %s", ptbr.Money(v.Amount.Value.AmountMinor, v.Currency.Value), v.Category.Value, v.Month.Value)
	}
	amount := "valor desconhecido (" + v.Currency.Value + ")"
	if m, ok := v.Amount.Get(); ok {
		amount = moneyText(m)
	}
	return fmt.Sprintf("%s %s %s", dayText(v.Date.Value), amount, v.Description.Value)
}

// spaceView reads the effective view of one space for a write: NOT_FOUND for an unknown space.
func (s *Service) spaceView(ctx context.Context, f planFilter) (*effectiveView, int64, error) {
	v, err := s.effective(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	rev, ok := v.revs[f.sel.Space]
	if !ok {
		return nil, 0, notFound(fmt.Sprintf("space: o espaço %q não existe nesta instalação.", f.sel.Space))
	}
	return v, rev, nil
}

// spaceRevision is a space's revision, read before anything else of the plan.
func (s *Service) spaceRevision(ctx context.Context, space string) (*readContext, int64, error) {
	rc, err := s.readContext(ctx)
	if err != nil {
		return nil, 0, err
	}
	sp, ok := rc.spaces[space]
	if !ok {
		return nil, 0, notFound(fmt.Sprintf("space: o espaço %q não existe nesta instalação.", space), "Espaços: "+strings.Join(sortedKeys(rc.spaces), ", ")+".")
	}
	return rc, sp.Revision, nil
}

// spaceCategory finds a category of the space (accent and case-insensitive) and returns its
// name as the installation writes it.
func (s *Service) spaceCategory(ctx context.Context, space, field, name string) (string, error) {
	cats, err := s.Store.Categories(ctx)
	if err != nil {
		return "", err
	}
	for _, c := range cats[space] {
		if fold.Fold(c) == fold.Fold(name) {
			return c, nil
		}
	}
	return "", invalidFilter(fmt.Sprintf("%s: %q não é uma categoria do espaço %s.%s", field, name, space, nearest(name, cats[space])),
		"Categorias: "+strings.Join(cats[space], ", ")+".", "Use plan_categories para ver as categorias de cada espaço.")
}

func (s *Service) optCategory(ctx context.Context, space, field string, c caderninhoapi.NilCategoryName) (*string, error) {
	if c.Null {
		return nil, nil
	}
	name, err := s.spaceCategory(ctx, space, field, string(c.Value))
	return &name, err
}

// parseMoney reads an exact amount of currency; field names it in errors.
func parseMoney(field string, m caderninhoapi.Money, currency string) (int64, error) {
	if m.Currency != currency {
		return 0, invalidFilter(fmt.Sprintf("%s.currency: %s difere de currency (%s); use a mesma moeda.", field, m.Currency, currency))
	}
	n, err := strconv.ParseInt(m.AmountMinor, 10, 64)
	if err != nil {
		return 0, invalidFilter(fmt.Sprintf("%s.amountMinor: %q está fora do intervalo aceito (de -9223372036854775808 a 9223372036854775807 unidades menores).",
			field, m.AmountMinor))
	}
	return n, nil
}

func checkCurrency(field, c string) error {
	if _, ok := money.Exponent(c); !ok {
		return invalidFilter(fmt.Sprintf("%s: %q não é um código de moeda ISO 4217 conhecido.", field, c))
	}
	return nil
}

func clone(r *planRecord) *planRecord {
	c := *r
	return &c
}

// ---- plan_categorize

func (s *Service) planCategorizePlan(ctx context.Context, args *caderninhoapi.PlanCategorizeInput) (*planned, error) {
	space := string(args.Space)
	sel, hasSel := args.Selection.Get()
	switch {
	case len(args.Ids) == 0 && !hasSel:
		return nil, invalidFilter("ids ou selection: informe os registros a categorizar, por ids ou por selection.")
	case len(args.Ids) > 0 && hasSel:
		return nil, invalidFilter("ids e selection se excluem: use um dos dois.")
	}
	f := planFilter{sel: selection{Space: space}}
	if hasSel {
		var err error
		cat := caderninhoapi.OptString{}
		if c, ok := sel.Category.Get(); ok {
			cat = caderninhoapi.NewOptString(string(c))
		}
		f, err = planFilterOf(caderninhoapi.NewOptKey(args.Space), sel.Person, sel.Accounts, sel.From, sel.To, cat,
			sel.Uncategorised, string(sel.Source.Or("")), sel.Text.Or(""))
		if err != nil {
			return nil, err
		}
	}
	if _, _, err := s.spaceRevision(ctx, space); err != nil {
		return nil, err
	}
	target, err := s.optCategory(ctx, space, "category", args.Category)
	if err != nil {
		return nil, err
	}
	v, rev, err := s.spaceView(ctx, f)
	if err != nil {
		return nil, err
	}
	var recs []*planRecord
	if hasSel {
		recs, err = s.all(ctx, v, v.query)
	} else {
		recs, err = s.byIDs(ctx, v, args.Ids, space)
	}
	if err != nil {
		return nil, err
	}
	rules, err := s.Store.Rules(ctx, space)
	if err != nil {
		return nil, err
	}
	p := &planned{tool: "plan_categorize", space: space, revision: rev, bySelection: hasSel}
	for _, r := range recs {
		a := clone(r)
		a.Category, a.RuleID = target, nil // a person's categorisation: the rules never touch it again
		p.changes = append(p.changes, recordChange(r, a))
	}
	p.apply = func(ctx context.Context, w *cadstore.WriteTx) error {
		for _, c := range p.changes { // without the records already in the category (dropNoOps)
			if err := putRecord(ctx, w, c.afterRec, ruleMatches(rules, c.afterRec)); err != nil {
				return err
			}
		}
		return nil
	}
	if !hasSel && target != nil {
		// learning from the correction: the rule that would have done it, offered, never created
		var suggestion *caderninhoapi.RuleSuggestion
		p.prepare = func(ctx context.Context) error {
			var changed []*planRecord
			for _, c := range p.changes {
				changed = append(changed, c.afterRec)
			}
			var err error
			suggestion, err = s.suggestRule(ctx, space, *target, rules, changed)
			return err
		}
		p.extra = func() (mcpserver.Encoder, string) {
			if suggestion == nil {
				return caderninhoapi.OptNilRuleSuggestion{Set: true, Null: true}, ""
			}
			return caderninhoapi.NewOptNilRuleSuggestion(*suggestion), suggestionText(suggestion)
		}
	}
	return p, nil
}

// byIDs reads the records of the view with these ids, in the order asked; NOT_FOUND names the
// ids the view does not have.
// A plain number is the bank transaction of that id (see canonicalRecordID); an id asked twice,
// in either form, is one record.
func (s *Service) byIDs(ctx context.Context, v *effectiveView, asked []caderninhoapi.RecordId, space string) ([]*planRecord, error) {
	q := v.query
	q.BankIDs, q.ManualIDs = []int64{}, []int64{}
	var ids []string
	seen := map[string]bool{}
	for _, a := range asked {
		if id := canonicalRecordID(string(a)); !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		source, num, _ := strings.Cut(id, ":")
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || strconv.FormatInt(n, 10) != num { // not an id the view gives: missing below
			continue
		}
		switch source {
		case "bank":
			q.BankIDs = append(q.BankIDs, n)
		case "manual":
			q.ManualIDs = append(q.ManualIDs, n)
		}
	}
	index := map[string]*planRecord{}
	if err := s.each(ctx, v, q, nil, 0, func(r *planRecord) error {
		index[r.ID] = r
		return nil
	}); err != nil {
		return nil, err
	}
	var out []*planRecord
	var missing []string
	for _, id := range ids {
		if r, ok := index[id]; ok {
			out = append(out, r)
		} else {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		return nil, notFound(fmt.Sprintf("ids: %s não %s na visão efetiva do espaço %s. Nada foi escrito.", strings.Join(missing, ", "),
			map[bool]string{true: "está", false: "estão"}[len(missing) == 1], space), "Use plan_transactions com space "+space+" para ver os ids.")
	}
	return out, nil
}

// canonicalRecordID is the planning id of a record as a tool was given it: bank:<n> and
// manual:<n> as they are, and a plain number, the id caderninho_transactions shows for a bank
// transaction, as bank:<n>. No view writes a manual record's id without its manual: prefix, so a
// plain number can only mean a bank transaction.
func canonicalRecordID(id string) string {
	if id != "" && strings.Trim(id, "0123456789") == "" {
		return "bank:" + id
	}
	return id
}

// putRecord writes a record's editable state as a person's: the edit layer of a bank
// transaction, or the manual record itself. pinned says a rule of the space matches the
// transaction: then even an edit equal to the bank's values stays, so the person's choice (no
// category) wins over the rule at the next import.
func putRecord(ctx context.Context, w *cadstore.WriteTx, r *planRecord, pinned bool) error {
	var splits *string
	if r.Splits != nil {
		b, err := json.Marshal(r.Splits)
		if err != nil {
			return err
		}
		js := string(b)
		splits = &js
	}
	if r.Source == "bank" {
		var desc *string
		if r.BankDescription == nil || r.Description != *r.BankDescription {
			desc = &r.Description
		}
		key := cadstore.EditKey{Account: *r.AccountID, Dedupe: r.dedupe}
		if asBank(r) && !pinned { // nothing differs from the bank any more: no edit, so not edited
			return w.DeleteEdit(ctx, key)
		}
		return w.PutEdit(ctx, cadstore.EditRow{Key: key, Space: r.Space,
			Category: r.Category, Description: desc, Note: r.Note, Excluded: r.ExcludedFromTotals, Splits: splits})
	}
	return w.UpdateRecord(ctx, cadstore.Record{ID: r.num, Space: r.Space, Description: r.Description,
		SearchFold: fold.Fold(r.Description + " " + stringOr(r.Note)), Category: r.Category, Note: r.Note, Excluded: r.ExcludedFromTotals,
		Splits: splits})
}

// asBank says whether a bank record's editable fields all hold the bank's values (the bank has
// no category, note, exclusion or split).
func asBank(r *planRecord) bool {
	return r.Category == nil && r.Note == nil && !r.ExcludedFromTotals && r.Splits == nil &&
		r.BankDescription != nil && r.Description == *r.BankDescription
}

// ---- plan_edit_transaction

func (s *Service) planEditPlan(ctx context.Context, args *caderninhoapi.PlanEditTransactionInput) (*planned, error) {
	space := string(args.Space)
	if _, _, err := s.spaceRevision(ctx, space); err != nil {
		return nil, err
	}
	v, rev, err := s.spaceView(ctx, planFilter{sel: selection{Space: space}})
	if err != nil {
		return nil, err
	}
	recs, err := s.byIDs(ctx, v, []caderninhoapi.RecordId{args.ID}, space)
	if err != nil {
		return nil, err
	}
	rules, err := s.Store.Rules(ctx, space)
	if err != nil {
		return nil, err
	}
	r := recs[0]
	a := clone(r)
	a.RuleID = nil // a person's edit: the rules never touch it again
	if c, ok := args.Category.Get(); ok || args.Category.Null {
		if a.Category, err = s.optCategory(ctx, space, "category", caderninhoapi.NilCategoryName{Value: c, Null: args.Category.Null}); err != nil {
			return nil, err
		}
	}
	if args.Description.Set {
		switch {
		case !args.Description.Null:
			if a.Description = strings.TrimSpace(args.Description.Value); a.Description == "" {
				return nil, invalidFilter("description: o texto está em branco; envie uma descrição, ou null para voltar à do banco.")
			}
		case r.Source == "bank":
			a.Description = *r.BankDescription
		default:
			return nil, invalidFilter("description: um registro manual precisa de descrição; envie o novo texto em vez de null.")
		}
	}
	if args.Note.Set {
		a.Note = nil
		if !args.Note.Null {
			a.Note = &args.Note.Value
		}
	}
	if x, ok := args.ExcludedFromTotals.Get(); ok {
		a.ExcludedFromTotals = x
	}
	if args.Splits.Set {
		a.Splits = nil
		if !args.Splits.Null {
			if a.Splits, err = s.checkSplits(ctx, r, args.Splits.Value); err != nil {
				return nil, err
			}
		}
	}
	p := &planned{tool: "plan_edit_transaction", space: space, revision: rev, changes: []*change{recordChange(r, a)}}
	p.apply = func(ctx context.Context, w *cadstore.WriteTx) error {
		return putRecord(ctx, w, a, ruleMatches(rules, a))
	}
	return p, nil
}

// checkSplits accepts parts in the record's currency summing exactly to its known amount.
func (s *Service) checkSplits(ctx context.Context, r *planRecord, parts []caderninhoapi.Split) ([]storedSplit, error) {
	if r.minor == nil {
		return nil, invalidFilter("splits: o valor deste registro é desconhecido (null); só um valor conhecido pode ser dividido.")
	}
	sum := new(big.Int)
	var out []storedSplit
	for i, sp := range parts {
		field := fmt.Sprintf("splits[%d].amount", i)
		n, err := parseMoney(field, sp.Amount, r.Currency)
		if err != nil {
			return nil, err
		}
		sum.Add(sum, big.NewInt(n))
		cat, err := s.optCategory(ctx, r.Space, fmt.Sprintf("splits[%d].category", i), sp.Category)
		if err != nil {
			return nil, err
		}
		v := storedSplit{Amount: money.Of(n, r.Currency), Category: cat}
		if note, ok := sp.Note.Get(); ok {
			v.Note = &note
		}
		out = append(out, v)
	}
	if sum.Cmp(big.NewInt(*r.minor)) != 0 {
		return nil, invalidFilter(fmt.Sprintf("splits: as partes somam %s, mas o registro vale %s; as partes precisam somar exatamente o valor.",
			ptbr.Money(sum.String(), r.Currency), ptbr.Money(strconv.FormatInt(*r.minor, 10), r.Currency)))
	}
	return out, nil
}

// ---- plan_add_record

func (s *Service) planAddPlan(ctx context.Context, args *caderninhoapi.PlanAddRecordInput) (*planned, error) {
	space := string(args.Space)
	rc, rev, err := s.spaceRevision(ctx, space)
	if err != nil {
		return nil, err
	}
	if err := checkCurrency("currency", args.Currency); err != nil {
		return nil, err
	}
	rec := cadstore.Record{Space: space, Day: time.Time(args.Day).Format("2006-01-02"), Currency: args.Currency,
		Description: strings.TrimSpace(args.Description), Excluded: args.ExcludedFromTotals.Or(false)}
	if rec.Description == "" {
		return nil, invalidFilter("description: o texto está em branco; descreva o registro (por exemplo, \"Feira em dinheiro\").")
	}
	if !args.Amount.Null {
		n, err := parseMoney("amount", args.Amount.Value, args.Currency)
		if err != nil {
			return nil, err
		}
		rec.AmountMinor = &n
	}
	if p, ok := args.Person.Get(); ok {
		if _, known := rc.people[string(p)]; !known {
			return nil, notFound(fmt.Sprintf("person: %q não é uma pessoa desta instalação.", string(p)), "Pessoas: "+strings.Join(sortedKeys(rc.people), ", ")+".")
		}
		k := string(p)
		rec.Person = &k
	}
	if acc, ok := args.Account.Get(); ok {
		accounts, err := s.Store.Accounts(ctx, cadstore.AccountFilter{})
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(accounts, func(a *cadstore.Account) bool { return a.Key == string(acc) })
		if i < 0 || accounts[i].SpaceKey != space {
			return nil, notFound(fmt.Sprintf("account: a conta %q não existe no espaço %s.", string(acc), space), "Use caderninho_accounts com space "+space+".")
		}
		k := string(acc)
		rec.Account = &k
	}
	if c, ok := args.Category.Get(); ok {
		name, err := s.spaceCategory(ctx, space, "category", string(c))
		if err != nil {
			return nil, err
		}
		rec.Category = &name
	}
	if n, ok := args.Note.Get(); ok {
		rec.Note = &n
	}
	rec.SearchFold = fold.Fold(rec.Description + " " + stringOr(rec.Note))
	after := &planRecord{ID: "manual:novo", Source: "manual", AccountID: rec.Account, Space: space, Person: rec.Person, Date: rec.Day,
		Currency: rec.Currency, Description: rec.Description, Category: rec.Category, Note: rec.Note, ExcludedFromTotals: rec.Excluded,
		minor: rec.AmountMinor}
	if rec.AmountMinor != nil {
		a := money.Of(*rec.AmountMinor, rec.Currency)
		after.Amount = &a
	}
	c := recordChange(nil, after)
	p := &planned{tool: "plan_add_record", space: space, revision: rev, changes: []*change{c}}
	p.apply = func(ctx context.Context, w *cadstore.WriteTx) error {
		id, err := w.AddRecord(ctx, rec)
		if err == nil {
			c.ID = "manual:" + strconv.FormatInt(id, 10)
		}
		return err
	}
	return p, nil
}

// ---- plan_delete_record

func (s *Service) planDeletePlan(ctx context.Context, args *caderninhoapi.PlanDeleteRecordInput) (*planned, error) {
	space := string(args.Space)
	if id := canonicalRecordID(string(args.ID)); strings.HasPrefix(id, "bank:") {
		return nil, invalidFilter(fmt.Sprintf("id: %s é uma transação bancária; só registros manuais (manual:…) podem ser apagados. Nada foi escrito.", id),
			"Para tirá-la dos totais sem apagar nada, use plan_edit_transaction com excludedFromTotals: true.")
	}
	if _, _, err := s.spaceRevision(ctx, space); err != nil {
		return nil, err
	}
	v, rev, err := s.spaceView(ctx, planFilter{sel: selection{Space: space}, source: "manual"})
	if err != nil {
		return nil, err
	}
	recs, err := s.byIDs(ctx, v, []caderninhoapi.RecordId{args.ID}, space)
	if err != nil {
		return nil, err
	}
	r := recs[0]
	p := &planned{tool: "plan_delete_record", space: space, revision: rev, changes: []*change{recordChange(r, nil)}}
	p.apply = func(ctx context.Context, w *cadstore.WriteTx) error { return w.DeleteRecord(ctx, space, r.num) }
	return p, nil
}

// ---- plan_set_budget

func (s *Service) planSetBudgetPlan(ctx context.Context, args *caderninhoapi.PlanSetBudgetInput) (*planned, error) {
	space := string(args.Space)
	_, rev, err := s.spaceRevision(ctx, space)
	if err != nil {
		return nil, err
	}
	if err := checkCurrency("currency", args.Currency); err != nil {
		return nil, err
	}
	cat, err := s.spaceCategory(ctx, space, "category", string(args.Category))
	if err != nil {
		return nil, err
	}
	b := cadstore.Budget{Space: space, Month: string(args.Month), Category: cat, Currency: args.Currency}
	if !args.Amount.Null {
		if b.AmountMinor, err = parseMoney("amount", args.Amount.Value, args.Currency); err != nil {
			return nil, err
		}
	}
	budgets, err := s.Store.Budgets(ctx)
	if err != nil {
		return nil, err
	}
	c := &change{ID: "budget:" + space + ":" + b.Month + ":" + cat + ":" + b.Currency,
		Before: caderninhoapi.NilSnapshot{Null: true}, After: caderninhoapi.NilSnapshot{Null: true}}
	for _, old := range budgets {
		if old.Space == space && old.Month == b.Month && old.Category == cat && old.Currency == b.Currency {
			c.Before = budgetSnapshotOf(old.Month, old.Category, old.Currency, old.AmountMinor)
		}
	}
	if !args.Amount.Null {
		c.After = budgetSnapshotOf(b.Month, cat, b.Currency, b.AmountMinor)
	}
	p := &planned{tool: "plan_set_budget", space: space, revision: rev}
	if !c.Before.Null || !c.After.Null {
		p.changes = []*change{c}
	}
	p.apply = func(ctx context.Context, w *cadstore.WriteTx) error { return w.SetBudget(ctx, b, args.Amount.Null) }
	return p, nil
}

// ---- handlers

func optRevision(o caderninhoapi.OptExpectedRevision) *int64 {
	if v, ok := o.Get(); ok {
		n := int64(v)
		return &n
	}
	return nil
}

func (s *Service) planCategorize(ctx context.Context, args *caderninhoapi.PlanCategorizeInput) (*caderninhoapi.PlanCategorizeOutput, func() string, error) {
	w, err := s.write(ctx, "plan_categorize", args, writeArgs{space: string(args.Space), confirmed: bool(args.Confirmed.Or(false)),
		key: string(args.IdempotencyKey), expectedRevision: optRevision(args.ExpectedRevision)},
		func(ctx context.Context) (*planned, error) { return s.planCategorizePlan(ctx, args) })
	if err != nil {
		return nil, nil, err
	}
	o := w.out
	out := &caderninhoapi.PlanCategorizeOutput{Tool: o.Tool, Space: o.Space, IdempotencyKey: o.IdempotencyKey, Replay: o.Replay,
		Revision: o.Revision, Count: o.Count, Ids: o.Ids, Changes: o.Changes, SuggestedRule: caderninhoapi.OptNilRuleSuggestion{Set: true, Null: true}}
	if w.extra != nil { // a categorisation by ids with a category, or a replay of one
		if err := out.SuggestedRule.Decode(jx.DecodeBytes(w.extra)); err != nil {
			return nil, nil, fmt.Errorf("decoding the suggested rule: %w", err)
		}
	}
	return out, w.text, nil
}

func (s *Service) planEditTransaction(ctx context.Context, args *caderninhoapi.PlanEditTransactionInput) (*caderninhoapi.PlanEditTransactionOutput, func() string, error) {
	w, err := s.write(ctx, "plan_edit_transaction", args, writeArgs{space: string(args.Space), confirmed: bool(args.Confirmed.Or(false)),
		key: string(args.IdempotencyKey), expectedRevision: optRevision(args.ExpectedRevision)},
		func(ctx context.Context) (*planned, error) { return s.planEditPlan(ctx, args) })
	if err != nil {
		return nil, nil, err
	}
	return w.out, w.text, nil
}

func (s *Service) planAddRecord(ctx context.Context, args *caderninhoapi.PlanAddRecordInput) (*caderninhoapi.PlanAddRecordOutput, func() string, error) {
	w, err := s.write(ctx, "plan_add_record", args, writeArgs{space: string(args.Space), confirmed: bool(args.Confirmed.Or(false)),
		key: string(args.IdempotencyKey), expectedRevision: optRevision(args.ExpectedRevision)},
		func(ctx context.Context) (*planned, error) { return s.planAddPlan(ctx, args) })
	if err != nil {
		return nil, nil, err
	}
	return (*caderninhoapi.PlanAddRecordOutput)(w.out), w.text, nil
}

func (s *Service) planDeleteRecord(ctx context.Context, args *caderninhoapi.PlanDeleteRecordInput) (*caderninhoapi.PlanDeleteRecordOutput, func() string, error) {
	w, err := s.write(ctx, "plan_delete_record", args, writeArgs{space: string(args.Space), confirmed: bool(args.Confirmed.Or(false)),
		key: string(args.IdempotencyKey), expectedRevision: optRevision(args.ExpectedRevision)},
		func(ctx context.Context) (*planned, error) { return s.planDeletePlan(ctx, args) })
	if err != nil {
		return nil, nil, err
	}
	return (*caderninhoapi.PlanDeleteRecordOutput)(w.out), w.text, nil
}

func (s *Service) planSetBudget(ctx context.Context, args *caderninhoapi.PlanSetBudgetInput) (*caderninhoapi.PlanSetBudgetOutput, func() string, error) {
	w, err := s.write(ctx, "plan_set_budget", args, writeArgs{space: string(args.Space), confirmed: bool(args.Confirmed.Or(false)),
		key: string(args.IdempotencyKey), expectedRevision: optRevision(args.ExpectedRevision)},
		func(ctx context.Context) (*planned, error) { return s.planSetBudgetPlan(ctx, args) })
	if err != nil {
		return nil, nil, err
	}
	return (*caderninhoapi.PlanSetBudgetOutput)(w.out), w.text, nil
}
