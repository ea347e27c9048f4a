package lumo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// getApp answers get_app: the app's schema, and its text.
func (s *Service) getApp(ctx context.Context, in *lumoapi.GetAppInput) (*lumoapi.GetAppOutput, func() string, error) {
	a, err := s.visibleApp(ctx, extraOf(ctx), int64(in.AppId))
	if err != nil {
		return nil, nil, err
	}
	out := outGetApp(a)
	return out, func() string { return getAppText(out) }, nil
}

// visibleApp loads an app the caller may see; any other id is "not found", whether it exists or not.
func (s *Service) visibleApp(ctx context.Context, extra *mcp.RequestExtra, id int64) (*semantic.App, error) {
	u, err := s.userOf(ctx, extra)
	if err != nil {
		return nil, err
	}
	a, err := s.DB.App(ctx, u, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, appNotFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("loading app %d: %w", id, err)
	}
	return a, nil
}

func outGetApp(a *semantic.App) *lumoapi.GetAppOutput {
	v := &lumoapi.GetAppOutput{App: outApp(a), Indicators: []lumoapi.GetAppOutputIndicator{}, Expressions: []lumoapi.GetAppOutputExpression{},
		Tables: []lumoapi.GetAppOutputTable{}, Relationships: []lumoapi.GetAppOutputRelationship{}, Segments: []lumoapi.GetAppOutputSegment{}}
	for _, ind := range a.Indicators {
		iv := lumoapi.GetAppOutputIndicator{Name: ind.Name, Description: nilString(ind.Description),
			Valid: ind.Problem == "", Example: example(a, ind)}
		if ind.Problem != "" {
			iv.Problem = lumoapi.NewOptString(ind.Problem)
		}
		v.Indicators = append(v.Indicators, iv)
	}
	for _, e := range a.Expressions {
		ev := lumoapi.GetAppOutputExpression{ID: int(e.ID), Label: e.Label, Ref: lumoapi.Ref(e.Label),
			Field: lumoapi.Field{Ref: lumoapi.Ref(e.Label)}, Formula: e.Formula, Unit: nilUnit(e.Unit)}
		if w := semantic.ExpressionWords(e.Formula); w != "" {
			ev.Calculation = lumoapi.NewOptString(w)
		}
		v.Expressions = append(v.Expressions, ev)
	}
	for _, t := range a.Tables {
		tv := lumoapi.GetAppOutputTable{Label: t.Label, Name: t.Name, Kind: lumoapi.GetAppOutputTableKind(t.Kind),
			LoadedAt: nilTime(t.LoadedAt), Columns: []lumoapi.GetAppOutputColumn{}}
		if t.CopyOf != nil {
			tv.CopyOf = lumoapi.NewOptString(t.CopyOf.Label)
		}
		for _, c := range t.Columns {
			cv := lumoapi.GetAppOutputColumn{ID: int(c.ID), Name: c.Name, Label: c.Label, Ref: lumoapi.Ref(c.Ref()),
				Field: fieldFor(c), Type: lumoapi.ColumnType(c.Type), Role: lumoapi.GetAppOutputColumnRole(c.Role),
				Unit: nilUnit(string(c.Unit)), Description: nilString(c.Description)}
			if c.Calculated() {
				cv.Formula, cv.Calculation = lumoapi.NewOptString(c.Formula), lumoapi.NewOptString(semantic.CalcWords(c))
			}
			tv.Columns = append(tv.Columns, cv)
		}
		v.Tables = append(v.Tables, tv)
	}
	for _, r := range a.Relationships {
		v.Relationships = append(v.Relationships, lumoapi.GetAppOutputRelationship{From: relationshipSide(r.From), To: relationshipSide(r.To)})
	}
	for _, sg := range a.Segments {
		v.Segments = append(v.Segments, outSegment(sg))
	}
	return v
}

// outSegment is a segment as get_app shows it.
func outSegment(sg *semantic.Segment) lumoapi.GetAppOutputSegment {
	out := lumoapi.GetAppOutputSegment{Label: sg.Label, Description: nilString(sg.Description), Table: sg.Table.Label,
		Meaning: semantic.SegmentWords(sg), Filter: lumoapi.SegmentFilter{Segment: sg.Label}}
	if sg.Without {
		out.Without = lumoapi.NewOptString(sg.Related.Label)
	} else {
		out.With = lumoapi.NewOptString(sg.Related.Label)
	}
	if sg.Where != "" {
		out.Where = lumoapi.NewOptString(sg.Where)
	}
	return out
}

// relationshipSide is one side of a relationship as app.yaml writes it: a ref, or the list of a
// composite key's refs.
func relationshipSide(cols []*semantic.Column) lumoapi.GetAppOutputRelationshipSide {
	if len(cols) == 1 {
		return lumoapi.NewRefGetAppOutputRelationshipSide(lumoapi.Ref(cols[0].Ref()))
	}
	refs := make([]lumoapi.Ref, len(cols))
	for i, c := range cols {
		refs[i] = lumoapi.Ref(c.Ref())
	}
	return lumoapi.NewRefArrayGetAppOutputRelationshipSide(refs)
}

// sideText is a relationship side in get_app's text: the ref, or the composite key's refs
// between parentheses.
func sideText(s lumoapi.GetAppOutputRelationshipSide) string {
	if r, ok := s.GetRef(); ok {
		return string(r)
	}
	refs, _ := s.GetRefArray()
	parts := make([]string, len(refs))
	for i, r := range refs {
		parts[i] = string(r)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// getAppText is get_app's text, from its result alone.
func getAppText(v *lumoapi.GetAppOutput) string {
	var b strings.Builder
	b.WriteString("Aplicação " + describeApp(v.App) + "\n")
	if d, ok := v.App.Description.Get(); ok {
		b.WriteString(d + "\n")
	}
	for _, t := range v.Tables {
		loaded := "nunca carregada"
		if at, ok := t.LoadedAt.Get(); ok {
			loaded = "carregada em " + ptbr.DateTime(at)
		}
		if orig, ok := t.CopyOf.Get(); ok {
			loaded = "cópia de " + orig + ", com os mesmos dados; " + loaded
		}
		fmt.Fprintf(&b, "\nTabela %s (%s; %s)\n", t.Label, ptbr.TableKind(string(t.Kind)), loaded)
		for _, c := range t.Columns {
			desc := []string{ptbr.ColumnType(string(c.Type)), ptbr.Role(string(c.Role))}
			if u, ok := c.Unit.Get(); ok {
				desc = append(desc, string(u))
			}
			if w, ok := c.Calculation.Get(); ok {
				desc = append(desc, w)
			}
			line := "- " + string(c.Ref) + ": " + strings.Join(desc, ", ")
			if d, ok := c.Description.Get(); ok {
				line += ". " + d
			}
			b.WriteString(line + "\n")
		}
	}
	if len(v.Relationships) > 0 {
		b.WriteString("\nRelacionamentos:\n")
		for _, r := range v.Relationships {
			b.WriteString("- " + sideText(r.From) + " → " + sideText(r.To) + "\n")
		}
	}
	if len(v.Expressions) > 0 {
		b.WriteString("\nExpressões (entram em fields só como {\"ref\": rótulo}):\n")
		for _, e := range v.Expressions {
			line := "- " + e.Label + " = " + e.Formula
			if u, ok := e.Unit.Get(); ok {
				line += " (" + string(u) + ")"
			}
			if w, ok := e.Calculation.Get(); ok && conditional(e.Formula) {
				line += "; em palavras: " + w
			}
			b.WriteString(line + "\n")
		}
	}
	if len(v.Segments) > 0 {
		b.WriteString("\nSegmentos (entram em filters como {\"segment\": rótulo}):\n")
		for _, sg := range v.Segments {
			line := "- " + sg.Label + ": " + sg.Meaning
			if d, ok := sg.Description.Get(); ok {
				line += ". " + d
			}
			b.WriteString(line + "\n")
		}
	}
	if len(v.Indicators) > 0 {
		b.WriteString("\nIndicadores:\n")
		for _, ind := range v.Indicators {
			line := "- " + ind.Name
			if d, ok := ind.Description.Get(); ok {
				line += ": " + d
			}
			if ex, ok := ind.Example.Get(); ok {
				line += "\n  query: " + queryCallText(&ex)
			} else {
				line += " (inválido: " + ind.Problem.Or("") + ")"
			}
			b.WriteString(line + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// conditional reports whether an expression formula aggregates under a condition (onde).
func conditional(formula string) bool {
	f, err := semantic.ParseFormula(formula)
	if err != nil {
		return false
	}
	for _, a := range semantic.FormulaAggregates(f) {
		if a.Where != nil {
			return true
		}
	}
	return false
}

// queryCallText is a ready query call as the texts show it: JSON as encoding/json writes it.
func queryCallText(call *lumoapi.QueryCall) string {
	b, _ := json.Marshal(call)
	return string(b)
}
