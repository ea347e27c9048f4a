package lumo

import (
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// The structured shapes below mirror schemas/lumo/*.output.json; tests validate every result
// against those schemas.

type appRefView struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type fieldView struct {
	Ref    string `json:"ref"`
	Agg    string `json:"agg,omitempty"`
	Bucket string `json:"bucket,omitempty"`
}

type queryCallView struct {
	AppID   int64            `json:"appId"`
	Fields  []map[string]any `json:"fields"`
	Filters []map[string]any `json:"filters,omitempty"`
}

type appView struct {
	ID          int64       `json:"id"`
	Name        string      `json:"name"`
	Description *string     `json:"description"`
	Desk        *string     `json:"desk"`
	ClonedFrom  *appRefView `json:"clonedFrom"`
	PublishedAt *string     `json:"publishedAt"`
}

func viewApp(a *semantic.App) appView {
	v := appView{ID: a.ID, Name: a.Name, Description: nullable(a.Description), Desk: a.Desk}
	if a.ClonedFrom != nil {
		v.ClonedFrom = &appRefView{ID: a.ClonedFrom.ID, Name: a.ClonedFrom.Name}
	}
	if a.PublishedAt != nil {
		s := ptbr.ISO(*a.PublishedAt)
		v.PublishedAt = &s
	}
	return v
}

func refOf(a *semantic.App) appRefView { return appRefView{ID: a.ID, Name: a.Name} }

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nullableUnit(u string) *string { return nullable(u) }

// fieldFor is the object a column goes into query's fields with: measures are summed, technical
// keys counted distinct, everything else groups.
func fieldFor(c *semantic.Column) fieldView {
	f := fieldView{Ref: c.Ref()}
	switch {
	case c.Role == semantic.RoleMeasure && c.Type == semantic.TypeNumber:
		f.Agg = "sum"
	case c.Role == semantic.RoleKey:
		f.Agg = "count_distinct"
	}
	return f
}

// example is the ready query call of a valid indicator, with refs in canonical form.
func example(a *semantic.App, ind *semantic.Indicator) *queryCallView {
	if ind.Problem != "" {
		return nil
	}
	return &queryCallView{
		AppID:   a.ID,
		Fields:  canonicalItems(a, ind.Fields, "ref", "agg", "bucket"),
		Filters: canonicalItems(a, ind.Filters, "ref", "op", "value", "agg", "bucket"),
	}
}

func canonicalItems(a *semantic.App, items []map[string]any, keys ...string) []map[string]any {
	var out []map[string]any
	for _, it := range items {
		m := map[string]any{}
		for _, k := range keys {
			if v, ok := it[k]; ok {
				m[k] = v
			}
		}
		if ref, ok := m["ref"].(string); ok {
			if t, err := a.Resolve(ref); err == nil {
				if t.Column != nil {
					m["ref"] = t.Column.Ref()
				} else {
					m["ref"] = t.Expression.Label
				}
			}
		}
		out = append(out, m)
	}
	return out
}

// sameFolded reports whether two names are equal ignoring accents and case.
func sameFolded(a, b string) bool { return fold.Fold(a) == fold.Fold(b) }
