package lumo

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-faster/jx"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// The search_catalog answers as they were computed before the folded names were precomputed
// (every name folded on every call, every app compared with every other): the reference the
// faster code must match.

func refCatalogReply(all, scope []*semantic.App) mcpserver.Reply {
	view := &lumoapi.SearchCatalogOutputCatalog{Legend: legend, Apps: []lumoapi.SearchCatalogOutputCatalogApp{}}
	var b strings.Builder
	fmt.Fprintf(&b, "Catálogo: %s.\n", ptbr.Count(len(scope), "Aplicação", "Aplicações"))
	if len(scope) == 0 {
		b.WriteString("Você ainda não tem acesso a nenhuma Aplicação.\n")
	}
	left := 0
	for _, a := range scope {
		app := outApp(a)
		av := lumoapi.SearchCatalogOutputCatalogApp{ID: app.ID, Name: app.Name, Description: app.Description, Desk: app.Desk,
			ClonedFrom: app.ClonedFrom, PublishedAt: app.PublishedAt, SameName: []lumoapi.AppRef{}, Indicators: []lumoapi.SearchCatalogOutputCatalogIndicator{}}
		for _, o := range all {
			if o != a && sameFolded(o.Name, a.Name) {
				av.SameName = append(av.SameName, refOf(o))
			}
		}
		for _, ind := range a.Indicators {
			iv := lumoapi.SearchCatalogOutputCatalogIndicator{Name: ind.Name, Description: nilString(ind.Description), Valid: ind.Problem == ""}
			for _, o := range all {
				if o == a {
					continue
				}
				for _, oi := range o.Indicators {
					if sameFolded(oi.Name, ind.Name) {
						iv.AlsoIn = append(iv.AlsoIn, refOf(o))
						break
					}
				}
			}
			av.Indicators = append(av.Indicators, iv)
		}
		view.Apps = append(view.Apps, av)
		entry := refCatalogEntryText(a, av)
		if b.Len()+len(entry) > catalogTextBudget {
			left++
			continue
		}
		b.WriteString(entry)
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n%s ficaram fora deste texto por tamanho; estão em apps no resultado estruturado, e get_app descreve cada uma.\n",
			ptbr.Count(left, "Aplicação", "Aplicações"))
	}
	b.WriteString("\nO esquema completo de cada Aplicação vem de get_app; search_catalog com termos acha Indicadores e colunas.")
	return replyOf(view, b.String())
}

func refMatchRank(name string, terms []string) int {
	f, best := fold.Fold(name), -1
	for _, t := range terms {
		ft := fold.Fold(t)
		r := -1
		switch {
		case f == ft:
			r = 0
		case strings.HasPrefix(f, ft):
			r = 1
		case strings.Contains(f, ft):
			r = 2
		}
		if r >= 0 && (best < 0 || r < best) {
			best = r
		}
	}
	return best
}

func refSearchReply(scope []*semantic.App, terms []string) mcpserver.Reply {
	type ranked struct {
		lumoapi.SearchCatalogOutputMatch
		rank int
	}
	var rms []ranked
	kindOrder := map[lumoapi.SearchCatalogOutputMatchKind]int{"indicator": 0, "expression": 1, "column": 2}
	add := func(m lumoapi.SearchCatalogOutputMatch, rank int) {
		rms = append(rms, ranked{m, kindOrder[m.Kind]*10 + rank})
	}
	for _, a := range scope {
		for _, ind := range a.Indicators {
			r := refMatchRank(ind.Name, terms)
			if r < 0 && ind.Description != "" && refMatchRank(ind.Description, terms) >= 0 {
				r = 3
			}
			if r < 0 {
				continue
			}
			m := lumoapi.SearchCatalogOutputMatch{Kind: "indicator", Name: ind.Name, App: refOf(a),
				Valid: lumoapi.NewOptBool(ind.Problem == ""), Example: example(a, ind)}
			if ind.Description != "" {
				m.Description = lumoapi.NewOptNilString(ind.Description)
			}
			add(m, r)
		}
		for _, e := range a.Expressions {
			if r := refMatchRank(e.Label, terms); r >= 0 {
				m := lumoapi.SearchCatalogOutputMatch{Kind: "expression", Name: e.Label, App: refOf(a), Ref: lumoapi.NewOptRef(lumoapi.Ref(e.Label)),
					Field: lumoapi.NewOptField(lumoapi.Field{Ref: lumoapi.Ref(e.Label)}), Unit: optNilUnit(e.Unit)}
				if w := semantic.ExpressionWords(e.Formula); w != "" {
					m.Calculation = lumoapi.NewOptString(w)
				}
				add(m, r)
			}
		}
		for _, t := range a.Tables {
			for _, c := range t.Columns {
				r := refMatchRank(c.Label, terms)
				if r < 0 {
					continue
				}
				m := lumoapi.SearchCatalogOutputMatch{Kind: "column", Name: c.Label, App: refOf(a), Ref: lumoapi.NewOptRef(lumoapi.Ref(c.Ref())),
					Field: lumoapi.NewOptField(fieldFor(c)), Table: lumoapi.NewOptString(t.Label), Type: lumoapi.NewOptColumnType(lumoapi.ColumnType(c.Type)),
					Unit: optNilUnit(c.Unit)}
				if c.Description != "" {
					m.Description = lumoapi.NewOptNilString(c.Description)
				}
				if c.Calculated() {
					m.Calculation = lumoapi.NewOptString(semantic.CalcWords(c))
				}
				add(m, r)
			}
		}
	}
	sort.SliceStable(rms, func(i, j int) bool { return rms[i].rank < rms[j].rank })
	var ms []lumoapi.SearchCatalogOutputMatch
	for _, m := range rms {
		ms = append(ms, m.SearchCatalogOutputMatch)
	}
	view := &lumoapi.SearchCatalogOutputSearch{Terms: terms, Total: len(ms), Matches: ms}
	if len(ms) > maxMatches {
		view.Matches = ms[:maxMatches]
	}
	if view.Matches == nil {
		view.Matches = []lumoapi.SearchCatalogOutputMatch{}
	}
	view.Shown = len(view.Matches)
	return replyOf(view, searchText(view))
}

func refCatalogEntryText(a *semantic.App, av lumoapi.SearchCatalogOutputCatalogApp) string {
	var b strings.Builder
	b.WriteString("\n" + describeApp(outApp(a)) + "\n")
	if a.Description != "" {
		b.WriteString("  " + a.Description + "\n")
	}
	if len(av.SameName) > 0 {
		var names []string
		for _, o := range av.SameName {
			names = append(names, fmt.Sprintf("[%d]", o.ID))
		}
		b.WriteString("  Mesmo nome: " + ptbr.List(names) + ".\n")
	}
	if len(av.Indicators) > 0 {
		var names []string
		for _, iv := range av.Indicators {
			n := iv.Name
			if !iv.Valid {
				n += " (inválido)"
			}
			if len(iv.AlsoIn) > 0 {
				var ids []string
				for _, o := range iv.AlsoIn {
					ids = append(ids, fmt.Sprintf("[%d]", o.ID))
				}
				n += " (também em " + ptbr.List(ids) + ")"
			}
			names = append(names, n)
		}
		b.WriteString("  Indicadores: " + strings.Join(names, "; ") + ".\n")
	}
	if cols := columnSample(a); len(cols) > 0 {
		b.WriteString("  Colunas (amostra): " + strings.Join(cols, "; ") + ".\n")
	}
	return b.String()
}

// replyOf is a tool answer as the MCP binding makes it: the text, and out written by its
// generated encoder.
func replyOf(out mcpserver.Encoder, text string) mcpserver.Reply {
	var e jx.Encoder
	out.Encode(&e)
	return mcpserver.Reply{Text: text, JSON: e.Bytes()}
}

// catalogReplyOf is catalogOf's answer as a reply.
func catalogReplyOf(all []*semantic.App, lo, hi, maxBytes int) (mcpserver.Reply, error) {
	out, text, err := catalogOf(all, lo, hi, maxBytes)
	if err != nil {
		return mcpserver.Reply{}, err
	}
	return replyOf(out, text()), nil
}

// catalogReply describes scope (every app of all, or one of them), however large.
func catalogReply(all, scope []*semantic.App) mcpserver.Reply {
	lo, hi := 0, len(all)
	if len(scope) == 1 {
		for i, a := range all {
			if a == scope[0] {
				lo, hi = i, i+1
				break
			}
		}
	}
	r, _ := catalogReplyOf(all, lo, hi, 0)
	return r
}

// searchReply is searchOf's answer as a reply.
func searchReply(all []*semantic.App, lo, hi int, terms []string) mcpserver.Reply {
	out := searchOf(all, lo, hi, terms)
	return replyOf(out, searchText(out))
}
