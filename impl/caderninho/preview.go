package caderninho

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

type subtotalsView struct {
	Before     []currencyTotal    `json:"before"`
	After      []currencyTotal    `json:"after"`
	ByCategory []categorySubtotal `json:"byCategory"`
}

// categorySubtotal is one category the write touches, before and after; split records count
// per part, in the part's category, as plan_totals grouped by category does.
type categorySubtotal struct {
	Category *string         `json:"category"`
	Before   []currencyTotal `json:"before"`
	After    []currencyTotal `json:"after"`
}

type previewView struct {
	Tool      string         `json:"tool"`
	Space     string         `json:"space"`
	Count     int            `json:"count"`
	Limit     int            `json:"limit"`
	OverLimit bool           `json:"overLimit"`
	Revision  int64          `json:"revision"`
	Subtotals *subtotalsView `json:"subtotals"`
	Changes   []*change      `json:"changes"`
}

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
	}
	return nil, fmt.Errorf("no planner for %s", tool)
}

func (s *Service) planPreview(ctx context.Context, _ *mcp.CallToolRequest, raw json.RawMessage) (mcpserver.Reply, error) {
	var in struct {
		Tool      string         `json:"tool"`
		Arguments map[string]any `json:"arguments"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return mcpserver.Reply{}, fmt.Errorf("decoding validated arguments: %w", err)
	}
	// a preview needs neither the confirmation nor a key: fill them so the write's schema applies
	if _, ok := in.Arguments["idempotency_key"]; !ok {
		in.Arguments["idempotency_key"] = "previa-sem-chave"
	}
	in.Arguments["confirmed"] = true
	args, err := json.Marshal(in.Arguments)
	if err != nil {
		return mcpserver.Reply{}, err
	}
	if vs := s.schemas.ValidateJSON(in.Tool+".input.json", args); len(vs) > 0 {
		lines := make([]string, 0, len(vs))
		for _, v := range vs {
			field := "arguments." + v.Field
			if strings.HasPrefix(v.Field, "(") { // the root
				field = "arguments"
			}
			lines = append(lines, field+": "+v.Message)
		}
		return mcpserver.Reply{}, &mcpserver.ToolError{Code: "INVALID_ARGUMENTS",
			Message: "Argumentos inválidos para " + in.Tool + " (em plan_preview):\n- " + strings.Join(lines, "\n- "), Suggestions: lines}
	}
	plan, err := s.previewPlanner(in.Tool, args)
	if err != nil {
		return mcpserver.Reply{}, err
	}
	p, err := plan(ctx)
	if err != nil {
		return mcpserver.Reply{}, err
	}
	if err := p.dropNoOps(); err != nil {
		return mcpserver.Reply{}, err
	}
	out := previewView{Tool: in.Tool, Space: p.space, Count: len(p.changes), Limit: SelectionLimit,
		OverLimit: p.bySelection && p.selected > SelectionLimit, Revision: p.revision, Changes: []*change{}}
	if in.Tool != "plan_set_budget" {
		out.Subtotals = previewSubtotals(p.changes)
	}
	for i, c := range p.changes {
		if i == maxChangesListed {
			break
		}
		out.Changes = append(out.Changes, c)
	}
	return mcpserver.Reply{Text: previewText(out), Structured: out}, nil
}

// previewSubtotals sums the affected records before and after the write, per currency and per
// category.
func previewSubtotals(changes []*change) *subtotalsView {
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
	out := &subtotalsView{Before: listTotals(before.totals), After: listTotals(after.totals), ByCategory: []categorySubtotal{}}
	for _, k := range sorted {
		cs := categorySubtotal{Before: []currencyTotal{}, After: []currencyTotal{}}
		if k != "" {
			cs.Category = &k
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

func previewText(out previewView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Prévia de %s no espaço %s (revisão %d): nada foi escrito. A escrita mudaria %s.\n", out.Tool, out.Space, out.Revision,
		ptbr.Count(out.Count, "registro", "registros"))
	if out.OverLimit {
		fmt.Fprintf(&b, "overLimit: true — a seleção passa do limite atômico de %d registros; a escrita seria recusada (SELECTION_TOO_LARGE). %s\n",
			SelectionLimit, selectionNote)
	}
	for _, c := range out.Changes {
		b.WriteString("- " + changeText(c) + "\n")
	}
	if out.Count > len(out.Changes) {
		fmt.Fprintf(&b, "… e mais %s.\n", ptbr.Count(out.Count-len(out.Changes), "registro", "registros"))
	}
	if out.Subtotals != nil {
		if l := totalsLines(out.Subtotals.Before); len(l) > 0 {
			b.WriteString("Nos totais, antes: " + strings.Join(l, "; ") + ".\n")
		}
		if l := totalsLines(out.Subtotals.After); len(l) > 0 {
			b.WriteString("Nos totais, depois: " + strings.Join(l, "; ") + ".\n")
		}
		if len(out.Subtotals.ByCategory) > 0 {
			b.WriteString("Por categoria (um registro dividido conta cada parte na sua categoria):\n")
			for _, c := range out.Subtotals.ByCategory {
				name := "sem categoria"
				if c.Category != nil {
					name = *c.Category
				}
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
