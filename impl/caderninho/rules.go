package caderninho

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-faster/jx"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
)

// Categorisation rules: each space keeps its rules in order, and the first one a bank
// transaction meets categorises it (cadstore.Rule), at every import and whenever the rules
// change, unless a person categorised or edited it.

// ruleSampleSize is how many of its transactions plan_rules shows per rule.
const ruleSampleSize = 5

// maxRules bounds a space's rules (the schemas bound position by it).
const maxRules = 10000

// rulesNote is what the rule tools repeat about precedence.
const rulesNote = "A primeira regra, na ordem das posições, que um movimento bancário cumpre dá a ele a categoria, a cada importação " +
	"e sempre que as regras mudam; o que uma pessoa categorizou ou editou nunca é mudado por uma regra."

// conditionOf is a rule's condition as clients receive it.
func conditionOf(r *cadstore.Rule) caderninhoapi.RuleCondition {
	c := caderninhoapi.RuleCondition{BankDescription: caderninhoapi.RuleConditionBankDescription{
		Match: caderninhoapi.RuleConditionBankDescriptionMatch(r.Match), Text: r.Text}}
	bound := func(n *int64) caderninhoapi.OptAmountBound {
		if n == nil {
			return caderninhoapi.OptAmountBound{}
		}
		return caderninhoapi.NewOptAmountBound(caderninhoapi.AmountBound{AmountMinor: strconv.FormatInt(*n, 10), Currency: r.AmountCurrency})
	}
	c.AmountMin, c.AmountMax = bound(r.AmountMin), bound(r.AmountMax)
	if r.Account != nil {
		c.Account = caderninhoapi.NewOptAccountId(caderninhoapi.AccountId(*r.Account))
	}
	if r.Person != nil {
		c.Person = caderninhoapi.NewOptKey(caderninhoapi.Key(*r.Person))
	}
	if r.Direction != "" {
		c.Direction = caderninhoapi.NewOptRuleConditionDirection(caderninhoapi.RuleConditionDirection(r.Direction))
	}
	return c
}

// ruleOf is a rule as clients receive it.
func ruleOf(r *cadstore.Rule) caderninhoapi.Rule {
	return caderninhoapi.Rule{ID: int(r.ID), Space: caderninhoapi.Key(r.Space), Position: r.Position, When: conditionOf(r),
		Category: r.Category, Description: nilString(r.Description)}
}

// ruleSnapshot is a rule before or after a write.
func ruleSnapshot(r *cadstore.Rule) caderninhoapi.NilSnapshot {
	snap := caderninhoapi.Snapshot{Position: caderninhoapi.NewOptInt(r.Position), When: caderninhoapi.NewOptRuleCondition(conditionOf(r)),
		Category: caderninhoapi.NewOptNilString(r.Category)}
	if r.Description != nil {
		snap.Description = caderninhoapi.NewOptString(*r.Description)
	}
	return caderninhoapi.NewNilSnapshot(snap)
}

// matchWords are the condition's comparisons in words.
var matchWords = map[string]string{cadstore.MatchContains: "contém", cadstore.MatchStartsWith: "começa com", cadstore.MatchEquals: "é igual a"}

// conditionText says a condition in Portuguese: descrição contém "UBER", saídas, até R$ 50,00.
func conditionText(c caderninhoapi.RuleCondition) string {
	parts := []string{fmt.Sprintf("descrição %s %q", matchWords[string(c.BankDescription.Match)], c.BankDescription.Text)}
	minB, hasMin := c.AmountMin.Get()
	maxB, hasMax := c.AmountMax.Get()
	switch {
	case hasMin && hasMax:
		parts = append(parts, "valor de "+ptbr.Money(minB.AmountMinor, minB.Currency)+" a "+ptbr.Money(maxB.AmountMinor, maxB.Currency))
	case hasMin:
		parts = append(parts, "valor a partir de "+ptbr.Money(minB.AmountMinor, minB.Currency))
	case hasMax:
		parts = append(parts, "valor até "+ptbr.Money(maxB.AmountMinor, maxB.Currency))
	}
	if a, ok := c.Account.Get(); ok {
		parts = append(parts, "conta "+string(a))
	}
	if p, ok := c.Person.Get(); ok {
		parts = append(parts, "de "+string(p))
	}
	switch c.Direction.Or("") {
	case caderninhoapi.RuleConditionDirectionIn:
		parts = append(parts, "entradas")
	case caderninhoapi.RuleConditionDirectionOut:
		parts = append(parts, "saídas")
	}
	return strings.Join(parts, ", ")
}

// ruleText says a rule in Portuguese: descrição contém "UBER" → Transporte.
func ruleText(c caderninhoapi.RuleCondition, category string, description caderninhoapi.OptString) string {
	s := conditionText(c) + " → " + category
	if d, ok := description.Get(); ok {
		s += fmt.Sprintf(" (mostrada como %q)", d)
	}
	return s
}

// ruleChangeText says what a write changed in a rule.
func ruleChangeText(id string, before, after caderninhoapi.Snapshot) string {
	var diffs []string
	if before.Position.Value != after.Position.Value {
		diffs = append(diffs, fmt.Sprintf("posição %d → %d", before.Position.Value, after.Position.Value))
	}
	if b, a := ruleText(before.When.Value, before.Category.Value, before.Description), ruleText(after.When.Value, after.Category.Value, after.Description); b != a {
		diffs = append(diffs, b+" passa a ser "+a)
	}
	if len(diffs) == 0 {
		diffs = append(diffs, "sem mudança")
	}
	return id + ": " + strings.Join(diffs, "; ")
}

// ruleSnapshotText says a rule's snapshot, for creations and removals.
func ruleSnapshotText(v caderninhoapi.Snapshot) string {
	return fmt.Sprintf("posição %d: %s", v.Position.Value, ruleText(v.When.Value, v.Category.Value, v.Description))
}

// byText says who categorised, after a category: " pela regra 3", or nothing.
func byText(v caderninhoapi.Snapshot) string {
	if by, ok := v.CategorisedBy.Get(); ok && by == caderninhoapi.CategorisedByRule {
		if id, ok := v.RuleId.Get(); ok {
			return fmt.Sprintf(" pela regra %d", id)
		}
		return " pela regra nova"
	}
	return ""
}

// categorisedByText says who categorised, alone: "da pessoa", "da regra 3".
func categorisedByText(v caderninhoapi.Snapshot) string {
	by, _ := v.CategorisedBy.Get()
	switch by {
	case caderninhoapi.CategorisedByRule:
		return "d" + strings.TrimPrefix(byText(v), " pel")
	case caderninhoapi.CategorisedByPerson:
		return "da pessoa"
	}
	return "de ninguém"
}

// subjectOf is a bank record as rules see it.
func subjectOf(r *planRecord) cadstore.RuleSubject {
	return cadstore.RuleSubject{Fold: fold.Fold(*r.BankDescription), AmountMinor: *r.minor, Currency: r.Currency, Account: *r.AccountID,
		Holder: stringOr(r.Person)}
}

// ruleMatches reports whether a rule of rules would categorise r, a bank record.
func ruleMatches(rules []cadstore.Rule, r *planRecord) bool {
	if r.Source != "bank" || len(rules) == 0 {
		return false
	}
	t := subjectOf(r)
	return cadstore.FirstRule(rules, &t) != nil
}

// ---- reading

func (s *Service) planRules(ctx context.Context, args *caderninhoapi.PlanRulesInput) (*caderninhoapi.PlanRulesOutput, func() string, error) {
	rc, err := s.readContext(ctx) // revisions before the rules and their edits
	if err != nil {
		return nil, nil, err
	}
	space := string(args.Space.Or(""))
	revs := map[string]int64{}
	for k, sp := range rc.spaces {
		if space == "" || k == space {
			revs[k] = sp.Revision
		}
	}
	if space != "" && len(revs) == 0 {
		return nil, nil, notFound(fmt.Sprintf("space: o espaço %q não existe nesta instalação.", space), "Espaços: "+strings.Join(sortedKeys(rc.spaces), ", ")+".")
	}
	rules, err := s.Store.Rules(ctx, space)
	if err != nil {
		return nil, nil, err
	}
	counts, err := s.Store.RuleCounts(ctx, space)
	if err != nil {
		return nil, nil, err
	}
	cats, err := s.Store.Categories(ctx)
	if err != nil {
		return nil, nil, err
	}
	// unlisted are the rules whose category the space no longer lists (installation.yaml may drop
	// one): they still give it, as the edits naming it keep it
	unlisted := map[int64]bool{}
	for _, r := range rules {
		if !slices.ContainsFunc(cats[r.Space], func(c string) bool { return fold.Fold(c) == fold.Fold(r.Category) }) {
			unlisted[r.ID] = true
		}
	}
	out := &caderninhoapi.PlanRulesOutput{Rules: make([]caderninhoapi.PlanRulesOutputRuleUse, 0, len(rules)), Revisions: caderninhoapi.Revisions(revs)}
	views := map[string]*effectiveView{}
	samples := make([][]*planRecord, len(rules))
	for i := range rules {
		r := &rules[i]
		if _, read := revs[r.Space]; !read {
			continue // a space removed since: its rules apply nowhere
		}
		v := views[r.Space]
		if v == nil {
			if v, err = s.effective(ctx, planFilter{sel: selection{Space: r.Space}, source: "bank"}); err != nil {
				return nil, nil, err
			}
			views[r.Space] = v
		}
		use := caderninhoapi.PlanRulesOutputRuleUse{ID: int(r.ID), Space: caderninhoapi.Key(r.Space), Position: r.Position, When: conditionOf(r),
			Category: r.Category, Description: nilString(r.Description), Count: counts[r.ID], Sample: []caderninhoapi.PlanRulesOutputRuleUseSampleItem{}}
		if use.Count > 0 {
			q := v.query
			q.Rule = r.ID
			if err := s.each(ctx, v, q, nil, ruleSampleSize, func(rec *planRecord) error {
				samples[i] = append(samples[i], rec)
				use.Sample = append(use.Sample, caderninhoapi.PlanRulesOutputRuleUseSampleItem{ID: rec.ID, Date: dayOf(rec.Date),
					AccountId: caderninhoapi.AccountId(*rec.AccountID), Amount: moneyOf(*rec.minor, rec.Currency), BankDescription: *rec.BankDescription})
				return nil
			}); err != nil {
				return nil, nil, err
			}
		}
		out.Rules = append(out.Rules, use)
	}
	return out, func() string { return planRulesText(out, space, unlisted) }, nil
}

func planRulesText(out *caderninhoapi.PlanRulesOutput, space string, unlisted map[int64]bool) string {
	var b strings.Builder
	where := "da instalação"
	if space != "" {
		where = "do espaço " + space
	}
	if len(out.Rules) == 0 {
		fmt.Fprintf(&b, "Nenhuma regra de categorização %s (%s): os movimentos importados ficam sem categoria até alguém categorizá-los.\n",
			where, revisionsText(out.Revisions))
		b.WriteString("Crie uma regra com plan_set_rule (escrita local com confirmação; plan_preview mostra antes o que ela mudaria). " + rulesNote)
		return b.String()
	}
	fmt.Fprintf(&b, "Regras de categorização %s (%s), na ordem em que são avaliadas: %s.\n", where, revisionsText(out.Revisions),
		ptbr.Count(len(out.Rules), "regra", "regras"))
	for _, r := range out.Rules {
		line := fmt.Sprintf("- %s, posição %d [id %d]: %s; categoriza %s agora", r.Space, r.Position, r.ID,
			ruleText(r.When, r.Category, optString(r.Description)), ptbr.Count(r.Count, "movimento", "movimentos"))
		if len(r.Sample) > 0 {
			var ex []string
			for _, t := range r.Sample {
				ex = append(ex, fmt.Sprintf("%s %s %s [%s]", dayText(t.Date), moneyText(t.Amount), t.BankDescription, t.ID))
			}
			line += ", por exemplo: " + strings.Join(ex, "; ")
		}
		if unlisted[int64(r.ID)] {
			line += fmt.Sprintf(" (atenção: %q não está mais na lista de categorias do espaço; substitua a regra com plan_set_rule ou apague-a)", r.Category)
		}
		b.WriteString(line + ".\n")
	}
	b.WriteString(rulesNote + " Para criar, mudar de posição, substituir ou apagar uma regra: plan_set_rule e plan_delete_rule " +
		"(escritas locais com confirmação; plan_preview mostra antes os movimentos que mudariam).")
	return b.String()
}

func optString(s caderninhoapi.NilString) caderninhoapi.OptString {
	if s.Null {
		return caderninhoapi.OptString{}
	}
	return caderninhoapi.NewOptString(s.Value)
}

// ---- writing

// ruleFromInput checks a rule's fields against the space: its category, account and person must
// exist there (a refusal names the field and the nearest valid values).
func (s *Service) ruleFromInput(ctx context.Context, rc *readContext, space string, when caderninhoapi.RuleCondition, category string,
	description caderninhoapi.OptNilString) (cadstore.Rule, error) {
	r := cadstore.Rule{Space: space, Match: string(when.BankDescription.Match), Text: strings.TrimSpace(when.BankDescription.Text)}
	if r.TextFold = fold.Fold(r.Text); r.TextFold == "" {
		return r, invalidFilter("when.bankDescription.text: o texto está em branco; escreva o trecho da descrição do banco (por exemplo, \"UBER\").")
	}
	if err := catchesAll(r); err != nil {
		return r, err
	}
	var err error
	if r.Category, err = s.spaceCategory(ctx, space, "category", category); err != nil {
		return r, err
	}
	if d, ok := description.Get(); ok {
		d = strings.TrimSpace(d)
		if d == "" {
			return r, invalidFilter("description: o texto está em branco; envie a descrição a mostrar, ou null para manter a do banco.")
		}
		r.Description = &d
	}
	bound := func(field string, b caderninhoapi.OptAmountBound) (*int64, error) {
		v, ok := b.Get()
		if !ok {
			return nil, nil
		}
		if err := checkCurrency(field+".currency", v.Currency); err != nil {
			return nil, err
		}
		if r.AmountCurrency != "" && v.Currency != r.AmountCurrency {
			return nil, invalidFilter(fmt.Sprintf("%s.currency: %s difere de when.amountMin.currency (%s); os dois limites são da mesma moeda.",
				field, v.Currency, r.AmountCurrency))
		}
		r.AmountCurrency = v.Currency
		n, err := strconv.ParseInt(v.AmountMinor, 10, 64)
		if err != nil {
			return nil, invalidFilter(fmt.Sprintf("%s.amountMinor: %q está fora do intervalo aceito (de 0 a 9223372036854775807 unidades menores).",
				field, v.AmountMinor))
		}
		return &n, nil
	}
	if r.AmountMin, err = bound("when.amountMin", when.AmountMin); err != nil {
		return r, err
	}
	if r.AmountMax, err = bound("when.amountMax", when.AmountMax); err != nil {
		return r, err
	}
	if r.AmountMin != nil && r.AmountMax != nil && *r.AmountMin > *r.AmountMax {
		return r, invalidFilter(fmt.Sprintf("when.amountMin (%s) é maior que when.amountMax (%s); o mínimo precisa vir antes do máximo.",
			ptbr.Money(strconv.FormatInt(*r.AmountMin, 10), r.AmountCurrency), ptbr.Money(strconv.FormatInt(*r.AmountMax, 10), r.AmountCurrency)))
	}
	if a, ok := when.Account.Get(); ok {
		accounts, err := s.Store.Accounts(ctx, cadstore.AccountFilter{Space: space})
		if err != nil {
			return r, err
		}
		var keys []string
		for _, acc := range accounts {
			keys = append(keys, acc.Key)
		}
		if !slices.Contains(keys, string(a)) {
			return r, notFound(fmt.Sprintf("when.account: %q não é uma conta do espaço %s.%s", string(a), space, nearest(string(a), keys)),
				"Contas do espaço: "+orNone(keys)+".", "Use caderninho_accounts com space "+space+" para ver os ids das contas.")
		}
		k := string(a)
		r.Account = &k
	}
	if p, ok := when.Person.Get(); ok {
		if _, known := rc.people[string(p)]; !known {
			keys := sortedKeys(rc.people)
			return r, notFound(fmt.Sprintf("when.person: %q não é uma pessoa desta instalação.%s", string(p), nearest(string(p), keys)),
				"Pessoas: "+orNone(keys)+".")
		}
		k := string(p)
		r.Person = &k
	}
	if d, ok := when.Direction.Get(); ok {
		r.Direction = string(d)
	}
	return r, nil
}

// catchesAll refuses a text that almost every bank description meets: one without a letter or a
// digit, or a single character to be contained in or to start a description.
func catchesAll(r cadstore.Rule) error {
	const fix = "escreva um trecho que só a descrição desse gasto tem, como o nome do estabelecimento (por exemplo, \"UBER\")."
	if !strings.ContainsFunc(r.TextFold, func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }) {
		return invalidFilter(fmt.Sprintf("when.bankDescription.text: %q não tem letra nem número; %s", r.Text, fix))
	}
	if r.Match != cadstore.MatchEquals && utf8.RuneCountInString(r.TextFold) < 2 {
		return invalidFilter(fmt.Sprintf("when.bankDescription.text: %q tem um só caractere, e quase toda descrição %s um caractere; %s",
			r.Text, map[string]string{cadstore.MatchContains: "contém", cadstore.MatchStartsWith: "começa com"}[r.Match], fix))
	}
	return nil
}

// minCatchAll is the fewest bank movements of a space for a rule that matches all of them to be
// refused: with fewer, a household may have one kind of movement only.
const minCatchAll = 10

// matchesEverything refuses target when it meets every bank movement of space (cands holds every
// movement target meets, see RuleScope): such a rule would give all of them its category.
func (s *Service) matchesEverything(ctx context.Context, space string, target *cadstore.Rule, cands []cadstore.RuleCandidate) error {
	n := 0
	for i := range cands {
		if target.Matches(&cands[i].RuleSubject) {
			n++
		}
	}
	if n < minCatchAll {
		return nil
	}
	all, err := s.Store.BankMovementCount(ctx, space)
	if err != nil || n < all {
		return err
	}
	return invalidFilter(fmt.Sprintf("when: a regra cumpriria todos os %d movimentos bancários do espaço %s e daria a todos a categoria %s. "+
		"Em when.bankDescription.text, escreva um trecho que só a descrição desse gasto tem, como o nome do estabelecimento; "+
		"para categorizar tudo de uma vez, use plan_categorize com selection.", all, space, target.Category))
}

// nearest names the values closest to asked, as a sentence to add to a refusal ("" when none is).
func nearest(asked string, values []string) string {
	if sim := suggest.Similar(asked, values, 3); len(sim) > 0 {
		return " Parecidas: " + strings.Join(sim, ", ") + "."
	}
	return ""
}

func orNone(values []string) string {
	if len(values) == 0 {
		return "nenhuma"
	}
	return strings.Join(values, ", ")
}

// unknownRule refuses a rule id the space does not have.
func unknownRule(space string, id int, rules []cadstore.Rule) *mcpserver.ToolError {
	var ids []string
	for _, r := range rules {
		ids = append(ids, strconv.FormatInt(r.ID, 10))
	}
	return notFound(fmt.Sprintf("id: a regra %d não existe no espaço %s. Nada foi escrito.", id, space),
		"Regras do espaço (ids): "+orNone(ids)+".", "Use plan_rules com space "+space+" para ver as regras.")
}

// candidateRecord is a transaction rules consider, as the effective view shows it (no person
// edited it: its only edit, if any, is a rule's).
func candidateRecord(space string, c *cadstore.RuleCandidate) *planRecord {
	desc := cadstore.BankDescription(c.Name, c.Memo)
	amount := money.Of(c.AmountMinor, c.Currency)
	minor, account, holder := c.AmountMinor, c.Account, c.Holder
	r := &planRecord{ID: "bank:" + strconv.FormatInt(c.ID, 10), Source: "bank", AccountID: &account, Space: space, Person: &holder,
		Date: c.Day, Amount: &amount, Currency: c.Currency, Description: desc, BankDescription: &desc, minor: &minor, num: c.ID,
		dedupe: c.Key.Dedupe}
	if c.Rule != nil {
		cat, id := c.Rule.Category, c.Rule.RuleID
		r.Category, r.RuleID = &cat, &id
		if c.Rule.Description != nil {
			r.Description = *c.Rule.Description
		}
	}
	return r
}

// withRule is r as rule (nil: none) categorises it; its rule id follows rule.ID, which a new
// rule gets when it is stored.
func withRule(r *planRecord, rule *cadstore.Rule) *planRecord {
	a := clone(r)
	a.Category, a.Description, a.RuleID = nil, *a.BankDescription, nil
	if rule != nil {
		cat := rule.Category
		a.Category, a.RuleID = &cat, &rule.ID
		if rule.Description != nil {
			a.Description = *rule.Description
		}
	}
	return a
}

// ruleChanges are the transactions effects recategorise, as changes of the write.
func ruleChanges(space string, effects []cadstore.RuleEffect) []*change {
	out := make([]*change, 0, len(effects))
	for _, e := range effects {
		before := candidateRecord(space, e.Candidate)
		out = append(out, recordChange(before, withRule(before, e.Rule)))
	}
	return out
}

// rulesPlan plans a write that leaves space with the rules of list, in that order: what it
// does to the transactions of the space within scope (those the changed rule may concern),
// after change (the rule's own change, first). It returns the candidates too (the effects point
// into them).
func (s *Service) rulesPlan(ctx context.Context, tool, space string, rev int64, list []cadstore.Rule, scope cadstore.RuleScope,
	ruleChange *change) (*planned, []cadstore.RuleEffect, []cadstore.RuleCandidate, error) {
	for i := range list {
		list[i].Position = i + 1
	}
	cands, err := s.Store.RuleCandidates(ctx, space, scope)
	if err != nil {
		return nil, nil, nil, err
	}
	effects := cadstore.RuleEffects(list, cands)
	p := &planned{tool: tool, space: space, revision: rev, changes: append([]*change{ruleChange}, ruleChanges(space, effects)...)}
	return p, effects, cands, nil
}

func ruleOrder(list []cadstore.Rule) []int64 {
	out := make([]int64, len(list))
	for i, r := range list {
		out[i] = r.ID
	}
	return out
}

func (s *Service) planSetRulePlan(ctx context.Context, args *caderninhoapi.PlanSetRuleInput) (*planned, error) {
	space := string(args.Space)
	rc, rev, err := s.spaceRevision(ctx, space)
	if err != nil {
		return nil, err
	}
	rules, err := s.Store.Rules(ctx, space)
	if err != nil {
		return nil, err
	}
	r, err := s.ruleFromInput(ctx, rc, space, args.When, string(args.Category), args.Description)
	if err != nil {
		return nil, err
	}
	list := slices.Clone(rules)
	pos := len(rules) + 1
	var old *cadstore.Rule
	if id, ok := args.ID.Get(); ok {
		i := slices.IndexFunc(rules, func(r cadstore.Rule) bool { return r.ID == int64(id) })
		if i < 0 {
			return nil, unknownRule(space, id, rules)
		}
		old, r.ID, pos = &rules[i], rules[i].ID, rules[i].Position
		list = slices.Delete(list, i, i+1)
	}
	if old == nil && len(rules) >= maxRules {
		return nil, invalidFilter(fmt.Sprintf("o espaço %s já tem %d regras, o limite; substitua (id) ou apague uma antes de criar outra.", space, maxRules))
	}
	if p, ok := args.Position.Get(); ok {
		if p > len(list)+1 {
			return nil, invalidFilter(fmt.Sprintf("position: %d passa do fim; o espaço %s fica com %s, então use de 1 a %d (sem position, uma regra nova vai para o fim).",
				p, space, ptbr.Count(len(list)+1, "regra", "regras"), len(list)+1))
		}
		pos = p
	}
	list = slices.Insert(list, pos-1, r)
	target := &list[pos-1]
	target.Position = pos
	rc0 := &change{ID: "rule:nova", Before: caderninhoapi.NilSnapshot{Null: true}}
	if old != nil {
		rc0.ID, rc0.Before = "rule:"+strconv.FormatInt(old.ID, 10), ruleSnapshot(old)
	}
	rc0.After = ruleSnapshot(target)
	// what the rule matches, as it was and as it will be, and what carries its edit
	scope := cadstore.RuleScope{Rules: []cadstore.Rule{*target}}
	if old != nil {
		scope.Rules, scope.RuleIDs = append(scope.Rules, *old), []int64{old.ID}
	}
	p, effects, cands, err := s.rulesPlan(ctx, "plan_set_rule", space, rev, list, scope, rc0)
	if err != nil {
		return nil, err
	}
	if err := s.matchesEverything(ctx, space, target, cands); err != nil {
		return nil, err
	}
	shadowed := !slices.ContainsFunc(cands, func(c cadstore.RuleCandidate) bool {
		return !c.PersonEdit && cadstore.FirstRule(list, &c.RuleSubject) == target
	})
	result := ruleOf(target)
	p.apply = func(ctx context.Context, w *cadstore.WriteTx) error {
		if target.ID == 0 {
			id, err := w.InsertRule(ctx, *target)
			if err != nil {
				return err
			}
			target.ID, rc0.ID = id, "rule:"+strconv.FormatInt(id, 10)
		} else if err := w.UpdateRule(ctx, *target); err != nil {
			return err
		}
		if err := w.SetRulePositions(ctx, space, ruleOrder(list)); err != nil {
			return err
		}
		if err := w.ApplyRuleEffects(ctx, space, effects); err != nil {
			return err
		}
		for _, c := range p.changes { // the new rule's id, now known
			if c.afterRec != nil {
				c.After = snapshotOf(c.afterRec)
			}
		}
		result = ruleOf(target)
		return nil
	}
	p.extra = func() (mcpserver.Encoder, string) {
		if !shadowed {
			return &result, ""
		}
		// a rule that categorises nothing: say why it may be so
		return &result, fmt.Sprintf("A regra na posição %d não categoriza nenhum movimento agora: nenhum movimento sem edição de uma "+
			"pessoa cumpre a condição, ou uma regra antes dela os pega primeiro (veja plan_rules; position muda a ordem). Ela vale para as próximas importações.",
			target.Position)
	}
	return p, nil
}

func (s *Service) planDeleteRulePlan(ctx context.Context, args *caderninhoapi.PlanDeleteRuleInput) (*planned, error) {
	space := string(args.Space)
	_, rev, err := s.spaceRevision(ctx, space)
	if err != nil {
		return nil, err
	}
	rules, err := s.Store.Rules(ctx, space)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(rules, func(r cadstore.Rule) bool { return r.ID == int64(args.ID) })
	if i < 0 {
		return nil, unknownRule(space, args.ID, rules)
	}
	old := rules[i]
	list := slices.Delete(slices.Clone(rules), i, i+1)
	removal := &change{ID: "rule:" + strconv.FormatInt(old.ID, 10), Before: ruleSnapshot(&old), After: caderninhoapi.NilSnapshot{Null: true}}
	// only what carries its edit: what it matched under another rule keeps that rule
	p, effects, _, err := s.rulesPlan(ctx, "plan_delete_rule", space, rev, list, cadstore.RuleScope{RuleIDs: []int64{old.ID}}, removal)
	if err != nil {
		return nil, err
	}
	p.apply = func(ctx context.Context, w *cadstore.WriteTx) error {
		if err := w.DeleteRule(ctx, space, old.ID); err != nil {
			return err
		}
		if err := w.SetRulePositions(ctx, space, ruleOrder(list)); err != nil {
			return err
		}
		return w.ApplyRuleEffects(ctx, space, effects)
	}
	return p, nil
}

func (s *Service) planSetRule(ctx context.Context, args *caderninhoapi.PlanSetRuleInput) (*caderninhoapi.PlanSetRuleOutput, func() string, error) {
	w, err := s.write(ctx, "plan_set_rule", args, writeArgs{space: string(args.Space), confirmed: bool(args.Confirmed.Or(false)),
		key: string(args.IdempotencyKey), expectedRevision: optRevision(args.ExpectedRevision)},
		func(ctx context.Context) (*planned, error) { return s.planSetRulePlan(ctx, args) })
	if err != nil {
		return nil, nil, err
	}
	o := w.out
	out := &caderninhoapi.PlanSetRuleOutput{Tool: o.Tool, Space: o.Space, IdempotencyKey: o.IdempotencyKey, Replay: o.Replay,
		Revision: o.Revision, Count: o.Count, Ids: o.Ids, Changes: o.Changes}
	if err := out.Rule.Decode(jx.DecodeBytes(w.extra)); err != nil {
		return nil, nil, fmt.Errorf("decoding the rule written: %w", err)
	}
	return out, w.text, nil
}

func (s *Service) planDeleteRule(ctx context.Context, args *caderninhoapi.PlanDeleteRuleInput) (*caderninhoapi.PlanDeleteRuleOutput, func() string, error) {
	w, err := s.write(ctx, "plan_delete_rule", args, writeArgs{space: string(args.Space), confirmed: bool(args.Confirmed.Or(false)),
		key: string(args.IdempotencyKey), expectedRevision: optRevision(args.ExpectedRevision)},
		func(ctx context.Context) (*planned, error) { return s.planDeleteRulePlan(ctx, args) })
	if err != nil {
		return nil, nil, err
	}
	return (*caderninhoapi.PlanDeleteRuleOutput)(w.out), w.text, nil
}

// ---- learning from corrections

// genericWords are words of bank descriptions that say how money moved, not to whom: a rule on
// them would catch unrelated transactions (folded).
var genericWords = map[string]bool{
	"pix": true, "enviado": true, "enviada": true, "recebido": true, "recebida": true, "compra": true, "compras": true,
	"pagamento": true, "pagto": true, "pgto": true, "pag": true, "debito": true, "deb": true, "credito": true, "cred": true,
	"cartao": true, "transferencia": true, "transf": true, "ted": true, "doc": true, "boleto": true, "parc": true, "parcela": true,
	"com": true, "www": true, "http": true, "https": true, "ltda": true, "eireli": true, "das": true, "dos": true, "para": true,
	"nos": true, "nas": true, "conta": true, "corrente": true, "loja": true, "aut": true, "automatico": true, "online": true,
	"int": true, "internet": true, "mobile": true, "app": true, "via": true, "ref": true, "referente": true,
}

// maxSuggestionWords bounds the words tried for a suggestion (each one reads the transactions
// that contain it).
const maxSuggestionWords = 4

// descriptionWords are the words of a bank description a rule could key on, in order: at least
// three characters with a letter, not generic; each as written and folded.
func descriptionWords(desc string) (written, folded []string) {
	for _, w := range strings.FieldsFunc(desc, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		f := fold.Fold(w)
		if utf8.RuneCountInString(f) < 3 || genericWords[f] || !strings.ContainsFunc(f, unicode.IsLetter) {
			continue
		}
		written, folded = append(written, w), append(folded, f)
	}
	return written, folded
}

// suggestRule finds the rule that would have put recs (records a person just categorised) in
// category: "the bank's description contains" the first word all their bank descriptions share
// that no transaction a person put in another category has, placed before any rule that would
// give them another category. nil when no such word exists, or the rules do it already.
func (s *Service) suggestRule(ctx context.Context, space, category string, rules []cadstore.Rule, recs []*planRecord) (*caderninhoapi.RuleSuggestion, error) {
	var bank []*planRecord
	ids := map[int64]bool{}
	for _, r := range recs {
		if r.Source == "bank" {
			bank = append(bank, r)
			ids[r.num] = true
		}
	}
	if len(bank) == 0 {
		return nil, nil
	}
	// pos, when not 0, is the first rule that would give one of them another category: the new
	// rule must come before it
	pos, already := 0, true
	for _, r := range bank {
		t := subjectOf(r)
		first := cadstore.FirstRule(rules, &t)
		if first == nil || first.Category != category {
			already = false
		}
		if first != nil && first.Category != category && (pos == 0 || first.Position < pos) {
			pos = first.Position
		}
	}
	if already {
		return nil, nil // the rules categorise them so already
	}
	written, words := descriptionWords(*bank[0].BankDescription)
	common := map[string]int{}
	for _, r := range bank[1:] {
		_, ws := descriptionWords(*r.BankDescription)
		for _, w := range slices.Compact(slices.Sorted(slices.Values(ws))) {
			common[w]++
		}
	}
	tried := 0
	for i, w := range words {
		if common[w] != len(bank)-1 || slices.Index(words, w) != i {
			continue
		}
		if tried++; tried > maxSuggestionWords {
			break
		}
		rule := cadstore.Rule{Space: space, Match: cadstore.MatchContains, Text: strings.ToUpper(written[i]), TextFold: w, Category: category}
		cands, err := s.Store.RuleCandidates(ctx, space, cadstore.RuleScope{Rules: []cadstore.Rule{rule}})
		if err != nil {
			return nil, err
		}
		conflict := slices.ContainsFunc(cands, func(c cadstore.RuleCandidate) bool {
			return c.PersonEdit && c.PersonCategory != nil && fold.Fold(*c.PersonCategory) != fold.Fold(category) && rule.Matches(&c.RuleSubject)
		})
		if conflict {
			continue // a person put such a transaction in another category: the word does not tell them apart
		}
		list := slices.Clone(rules)
		at := len(list)
		if pos > 0 {
			at = pos - 1
		}
		list = slices.Insert(list, at, rule)
		others := 0
		for _, e := range cadstore.RuleEffects(list, cands) {
			if !ids[e.Candidate.ID] {
				others++
			}
		}
		out := &caderninhoapi.RuleSuggestion{Others: others, Arguments: caderninhoapi.RuleSuggestionArguments{Space: caderninhoapi.Key(space),
			When: conditionOf(&rule), Category: caderninhoapi.CategoryName(category)}}
		text := conditionText(out.Arguments.When) + " → " + category
		if pos > 0 {
			out.Arguments.Position = caderninhoapi.NewOptInt(pos)
			text += fmt.Sprintf(" (na posição %d)", pos)
		}
		if others == 0 {
			out.Text = text + ": nenhuma outra agora (vale para as próximas importações)"
		} else {
			out.Text = text + ": " + ptbr.Count(others, "outra", "outras")
		}
		return out, nil
	}
	return nil, nil
}

// suggestionText offers the suggested rule, never creating it.
func suggestionText(sug *caderninhoapi.RuleSuggestion) string {
	return "Sugestão de regra (nada foi criado): " + sug.Text + ". Ofereça ao proprietário: se ele confirmar, chame plan_set_rule com " +
		"suggestedRule.arguments, confirmed: true e uma idempotency_key nova (plan_preview mostra antes os movimentos que mudariam)."
}
