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
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

type indicatorView struct {
	Name        string         `json:"name"`
	Description *string        `json:"description"`
	Valid       bool           `json:"valid"`
	Problem     string         `json:"problem,omitempty"`
	Example     *queryCallView `json:"example,omitempty"`
}

type expressionView struct {
	ID      int64     `json:"id"`
	Label   string    `json:"label"`
	Ref     string    `json:"ref"`
	Field   fieldView `json:"field"`
	Formula string    `json:"formula"`
	Unit    *string   `json:"unit"`
}

type columnView struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	Label       string    `json:"label"`
	Ref         string    `json:"ref"`
	Field       fieldView `json:"field"`
	Type        string    `json:"type"`
	Role        string    `json:"role"`
	Unit        *string   `json:"unit"`
	Description *string   `json:"description"`
}

type tableView struct {
	Label    string       `json:"label"`
	Name     string       `json:"name"`
	Kind     string       `json:"kind"`
	LoadedAt *string      `json:"loadedAt"`
	Columns  []columnView `json:"columns"`
}

type relationshipView struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type getAppView struct {
	App           appView            `json:"app"`
	Indicators    []indicatorView    `json:"indicators"`
	Expressions   []expressionView   `json:"expressions"`
	Tables        []tableView        `json:"tables"`
	Relationships []relationshipView `json:"relationships"`
}

func (s *Service) getApp(ctx context.Context, req *mcp.CallToolRequest, raw json.RawMessage) (mcpserver.Reply, error) {
	var args lumoapi.GetAppInput
	if err := decode(raw, &args); err != nil {
		return mcpserver.Reply{}, err
	}
	a, err := s.visibleApp(ctx, req.Extra, int64(args.AppId))
	if err != nil {
		return mcpserver.Reply{}, err
	}
	view := viewGetApp(a)
	return mcpserver.Reply{Text: getAppText(a), Structured: view}, nil
}

// visibleApp loads an app the caller may see; any other id is "not found", whether it exists or not.
func (s *Service) visibleApp(ctx context.Context, extra *mcp.RequestExtra, id int64) (*semantic.App, error) {
	u, err := s.user(ctx, extra)
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

func viewGetApp(a *semantic.App) getAppView {
	v := getAppView{App: viewApp(a), Indicators: []indicatorView{}, Expressions: []expressionView{},
		Tables: []tableView{}, Relationships: []relationshipView{}}
	for _, ind := range a.Indicators {
		v.Indicators = append(v.Indicators, indicatorView{Name: ind.Name, Description: nullable(ind.Description),
			Valid: ind.Problem == "", Problem: ind.Problem, Example: example(a, ind)})
	}
	for _, e := range a.Expressions {
		v.Expressions = append(v.Expressions, expressionView{ID: e.ID, Label: e.Label, Ref: e.Label,
			Field: fieldView{Ref: e.Label}, Formula: e.Formula, Unit: nullableUnit(e.Unit)})
	}
	for _, t := range a.Tables {
		tv := tableView{Label: t.Label, Name: t.Name, Kind: t.Kind, Columns: []columnView{}}
		if t.LoadedAt != nil {
			s := ptbr.ISO(*t.LoadedAt)
			tv.LoadedAt = &s
		}
		for _, c := range t.Columns {
			tv.Columns = append(tv.Columns, columnView{ID: c.ID, Name: c.Name, Label: c.Label, Ref: c.Ref(),
				Field: fieldFor(c), Type: c.Type, Role: c.Role, Unit: nullableUnit(c.Unit), Description: nullable(c.Description)})
		}
		v.Tables = append(v.Tables, tv)
	}
	for _, r := range a.Relationships {
		v.Relationships = append(v.Relationships, relationshipView{From: r.From.Ref(), To: r.To.Ref()})
	}
	return v
}

func getAppText(a *semantic.App) string {
	var b strings.Builder
	b.WriteString("Aplicação " + describeApp(a) + "\n")
	if a.Description != "" {
		b.WriteString(a.Description + "\n")
	}
	for _, t := range a.Tables {
		loaded := "nunca carregada"
		if t.LoadedAt != nil {
			loaded = "carregada em " + ptbr.DateTime(*t.LoadedAt)
		}
		fmt.Fprintf(&b, "\nTabela %s (%s; %s)\n", t.Label, ptbr.TableKind(t.Kind), loaded)
		for _, c := range t.Columns {
			desc := []string{ptbr.ColumnType(c.Type), ptbr.Role(c.Role)}
			if c.Unit != "" {
				desc = append(desc, c.Unit)
			}
			line := "- " + c.Ref() + ": " + strings.Join(desc, ", ")
			if c.Description != "" {
				line += ". " + c.Description
			}
			b.WriteString(line + "\n")
		}
	}
	if len(a.Relationships) > 0 {
		b.WriteString("\nRelacionamentos:\n")
		for _, r := range a.Relationships {
			b.WriteString("- " + r.From.Ref() + " → " + r.To.Ref() + "\n")
		}
	}
	if len(a.Expressions) > 0 {
		b.WriteString("\nExpressões (entram em fields só como {\"ref\": rótulo}):\n")
		for _, e := range a.Expressions {
			line := "- " + e.Label + " = " + e.Formula
			if e.Unit != "" {
				line += " (" + e.Unit + ")"
			}
			b.WriteString(line + "\n")
		}
	}
	if len(a.Indicators) > 0 {
		b.WriteString("\nIndicadores:\n")
		for _, ind := range a.Indicators {
			line := "- " + ind.Name
			if ind.Description != "" {
				line += ": " + ind.Description
			}
			if ex := example(a, ind); ex != nil {
				q, _ := json.Marshal(ex)
				line += "\n  query: " + string(q)
			} else {
				line += " (inválido: " + ind.Problem + ")"
			}
			b.WriteString(line + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
