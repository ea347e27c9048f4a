package caderninho

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// previewPlanner decodes a write's arguments and plans it; the same functions the writes use.
func (s *Service) previewPlanner(tool string, raw json.RawMessage) (func(context.Context) (*planned, error), error) {
	switch tool {
	case "plan_categorize":
		var a caderninhoapi.PlanCategorizeInput
		return func(ctx context.Context) (*planned, error) { return s.planCategorizePlan(ctx, &a) }, decode(raw, &a)
	case "plan_edit_transaction":
		var a caderninhoapi.PlanEditTransactionInput
		return func(ctx context.Context) (*planned, error) { return s.planEditPlan(ctx, &a) }, decode(raw, &a)
	case "plan_add_record":
		var a caderninhoapi.PlanAddRecordInput
		return func(ctx context.Context) (*planned, error) { return s.planAddPlan(ctx, &a) }, decode(raw, &a)
	case "plan_delete_record":
		var a caderninhoapi.PlanDeleteRecordInput
		return func(ctx context.Context) (*planned, error) { return s.planDeletePlan(ctx, &a) }, decode(raw, &a)
	case "plan_set_budget":
		var a caderninhoapi.PlanSetBudgetInput
		return func(ctx context.Context) (*planned, error) { return s.planSetBudgetPlan(ctx, &a) }, decode(raw, &a)
	case "plan_set_rule":
		var a caderninhoapi.PlanSetRuleInput
		return func(ctx context.Context) (*planned, error) { return s.planSetRulePlan(ctx, &a) }, decode(raw, &a)
	case "plan_delete_rule":
		var a caderninhoapi.PlanDeleteRuleInput
		return func(ctx context.Context) (*planned, error) { return s.planDeleteRulePlan(ctx, &a) }, decode(raw, &a)
	}
	return nil, fmt.Errorf("no planner for %s", tool)
}

func (s *Service) planPreview(ctx context.Context, in *caderninhoapi.PlanPreviewInput) (*caderninhoapi.PlanPreviewOutput, func() string, error) {
	tool := string(in.Tool)
	var arguments map[string]any
	if err := json.Unmarshal(in.Arguments, &arguments); err != nil {
		return nil, nil, fmt.Errorf("decoding validated arguments: %w", err)
	}
	// a preview needs neither the confirmation nor a key: fill them so the write's schema applies
	if _, ok := arguments["idempotency_key"]; !ok {
		arguments["idempotency_key"] = "previa-sem-chave"
	}
	arguments["confirmed"] = true
	args, err := json.Marshal(arguments)
	if err != nil {
		return nil, nil, err
	}
	if vs := s.schemas.ValidateJSON(tool+".input.json", args); len(vs) > 0 {
		lines := make([]string, 0, len(vs))
		for _, v := range vs {
			field := "arguments." + v.Field
			if strings.HasPrefix(v.Field, "(") { // the root
				field = "arguments"
			}
			lines = append(lines, field+": "+v.Message)
		}
		return nil, nil, &mcpserver.ToolError{Code: "INVALID_ARGUMENTS",
			Message: "Argumentos inválidos para " + tool + " (em plan_preview):\n- " + strings.Join(lines, "\n- "), Suggestions: lines}
	}
	plan, err := s.previewPlanner(tool, args)
	if err != nil {
		return nil, nil, err
	}
	p, err := plan(ctx)
	if err != nil {
		return nil, nil, err
	}
	if err := p.dropNoOps(); err != nil {
		return nil, nil, err
	}
	out := &caderninhoapi.PlanPreviewOutput{Tool: tool, Space: caderninhoapi.Key(p.space), Count: len(p.changes), Limit: SelectionLimit,
		OverLimit: p.bySelection && p.selected > SelectionLimit, Revision: int(p.revision), Changes: []caderninhoapi.Change{},
		Subtotals: caderninhoapi.NilPlanPreviewOutputSubtotals{Null: true}}
	if tool != "plan_set_budget" {
		out.Subtotals = caderninhoapi.NewNilPlanPreviewOutputSubtotals(previewSubtotals(p.changes))
	}
	listed := p.changes[:min(len(p.changes), maxChangesListed)]
	for _, c := range listed {
		out.Changes = append(out.Changes, c.out())
	}
	what := ptbr.Count(out.Count, "registro", "registros")
	if tool == "plan_set_rule" || tool == "plan_delete_rule" {
		what = ruleWritesText(p.changes)
	}
	return out, func() string { return previewText(out, listed, what) }, nil
}

// ruleWritesText says what a rule write changes: the rule and the movements it recategorises.
func ruleWritesText(changes []*change) string {
	rules, moves := 0, 0
	for _, c := range changes {
		if strings.HasPrefix(c.ID, "rule:") {
			rules++
		} else {
			moves++
		}
	}
	switch {
	case rules > 0 && moves > 0:
		return "a regra e " + ptbr.Count(moves, "movimento", "movimentos")
	case rules > 0:
		return "a regra (e nenhum movimento)"
	}
	return ptbr.Count(moves, "movimento", "movimentos")
}

// previewSubtotals sums the affected records before and after the write, per currency and per
// category.
func previewSubtotals(changes []*change) caderninhoapi.PlanPreviewOutputSubtotals {
	before, after := newTally(), newTally()
	catBefore, catAfter := map[string]*tally{}, map[string]*tally{}
	addParts := func(m map[string]*tally, r *planRecord) {
		for _, part := range byCategoryParts("category", r) {
			k := groupKey("category", part)
			if m[k] == nil {
				m[k] = newTally()
			}
			m[k].add(part)
		}
	}
	for _, c := range changes {
		if c.beforeRec != nil {
			before.add(c.beforeRec)
			addParts(catBefore, c.beforeRec)
		}
		if c.afterRec != nil {
			after.add(c.afterRec)
			addParts(catAfter, c.afterRec)
		}
	}
	keys := map[string]bool{}
	for k := range catBefore {
		keys[k] = true
	}
	for k := range catAfter {
		keys[k] = true
	}
	sorted := sortedKeys(keys)
	if len(sorted) > 0 && sorted[0] == "" { // no category last, as in plan_totals
		sorted = append(sorted[1:], "")
	}
	// one category the write touches, before and after; split records count per part, in the
	// part's category, as plan_totals grouped by category does
	out := caderninhoapi.PlanPreviewOutputSubtotals{Before: listTotals(before.totals), After: listTotals(after.totals),
		ByCategory: []caderninhoapi.PlanPreviewOutputSubtotalsByCategoryItem{}}
	for _, k := range sorted {
		cs := caderninhoapi.PlanPreviewOutputSubtotalsByCategoryItem{Category: caderninhoapi.NilString{Null: true},
			Before: []caderninhoapi.CurrencyTotal{}, After: []caderninhoapi.CurrencyTotal{}}
		if k != "" {
			cs.Category = caderninhoapi.NewNilString(k)
		}
		if t := catBefore[k]; t != nil {
			cs.Before = listTotals(t.totals)
		}
		if t := catAfter[k]; t != nil {
			cs.After = listTotals(t.totals)
		}
		out.ByCategory = append(out.ByCategory, cs)
	}
	return out
}

func previewText(out *caderninhoapi.PlanPreviewOutput, listed []*change, what string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Prévia de %s no espaço %s (revisão %d): nada foi escrito. A escrita mudaria %s.\n", out.Tool, out.Space, out.Revision, what)
	if out.OverLimit {
		fmt.Fprintf(&b, "overLimit: true — a seleção passa do limite atômico de %d registros; a escrita seria recusada (SELECTION_TOO_LARGE). %s\n",
			SelectionLimit, selectionNote)
	}
	for _, c := range listed {
		b.WriteString("- " + changeText(c) + "\n")
	}
	if out.Count > len(out.Changes) {
		fmt.Fprintf(&b, "… e mais %s.\n", ptbr.Count(out.Count-len(out.Changes), "registro", "registros"))
	}
	if sub, ok := out.Subtotals.Get(); ok {
		if l := totalsLines(sub.Before); len(l) > 0 {
			b.WriteString("Nos totais, antes: " + strings.Join(l, "; ") + ".\n")
		}
		if l := totalsLines(sub.After); len(l) > 0 {
			b.WriteString("Nos totais, depois: " + strings.Join(l, "; ") + ".\n")
		}
		if len(sub.ByCategory) > 0 {
			b.WriteString("Por categoria (um registro dividido conta cada parte na sua categoria):\n")
			for _, c := range sub.ByCategory {
				name := c.Category.Or("sem categoria")
				fmt.Fprintf(&b, "- %s: antes %s; depois %s.\n", name, orNothing(totalsLines(c.Before)), orNothing(totalsLines(c.After)))
			}
		}
	}
	fmt.Fprintf(&b, "Para escrever, obtenha a confirmação do proprietário e chame %s com confirmed: true, uma idempotency_key nova e expectedRevision: %d. %s",
		out.Tool, out.Revision, localWritesNote)
	return b.String()
}

func orNothing(lines []string) string {
	if len(lines) == 0 {
		return "nada"
	}
	return strings.Join(lines, "; ")
}
