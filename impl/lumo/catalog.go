package lumo

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/fold"
	"github.com/lumo-caderninho/mcp/impl/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/ptbr"
	"github.com/lumo-caderninho/mcp/impl/semantic"
)

// terms accepts one string (one term) or a list; blank terms are dropped.
func terms(in *lumoapi.SearchCatalogInput) []string {
	var list []string
	if t, ok := in.Terms.Get(); ok {
		if t.IsString() {
			list = []string{t.String}
		} else {
			list = t.StringArray
		}
	}
	var out []string
	for _, t := range list {
		if strings.TrimSpace(t) != "" {
			out = append(out, strings.TrimSpace(t))
		}
	}
	return out
}

func (s *Service) searchCatalog(ctx context.Context, req *mcp.CallToolRequest, raw json.RawMessage) (mcpserver.Reply, error) {
	var args lumoapi.SearchCatalogInput
	if err := decode(raw, &args); err != nil {
		return mcpserver.Reply{}, err
	}
	u, err := s.user(ctx, req.Extra)
	if err != nil {
		return mcpserver.Reply{}, err
	}
	apps, err := s.DB.VisibleApps(ctx, u)
	if err != nil {
		return mcpserver.Reply{}, fmt.Errorf("loading visible apps: %w", err)
	}
	lo, hi := 0, len(apps) // the scope: apps[lo:hi]
	if id, ok := args.AppId.Get(); ok {
		lo, hi = -1, -1
		for i, a := range apps {
			if a.ID == int64(id) {
				lo, hi = i, i+1
			}
		}
		if lo < 0 {
			return mcpserver.Reply{}, appNotFound(int64(id))
		}
	}
	ts := terms(&args)
	if len(ts) == 0 {
		return catalogReplyOf(apps, lo, hi), nil
	}
	return searchReply(apps, lo, hi, ts), nil
}

// ---- catalogue (no terms)

type catalogIndicatorView struct {
	Name        string       `json:"name"`
	Description *string      `json:"description"`
	Valid       bool         `json:"valid"`
	AlsoIn      []appRefView `json:"alsoIn,omitempty"`
}

type catalogAppView struct {
	appView
	SameName   []appRefView           `json:"sameName"`
	Indicators []catalogIndicatorView `json:"indicators"`
}

type catalogView struct {
	Legend map[string]string `json:"legend"`
	Apps   []catalogAppView  `json:"apps"`
}

var legend = map[string]string{
	"id":          "Id da Aplicação: o appId de get_app, search_values e query.",
	"desk":        "A mesa da Aplicação; null é Minha Mesa (cópia pessoal).",
	"clonedFrom":  "A Aplicação de origem de uma cópia pessoal.",
	"publishedAt": "Quando foi publicada; null se nunca foi.",
	"sameName":    "Outras Aplicações com o mesmo nome; use desk, clonedFrom e publishedAt para distingui-las.",
	"indicators":  "Indicadores prontos; valid false quando usam algo que não existe mais. alsoIn: outras Aplicações com Indicador de mesmo nome.",
}

// catalogTextBudget keeps the catalogue text well under what clients accept from a tool (~25k tokens).
const catalogTextBudget = 60000

func catalogReply(all, scope []*semantic.App) mcpserver.Reply {
	if len(scope) == 1 {
		for i, a := range all {
			if a == scope[0] {
				return catalogReplyOf(all, i, i+1)
			}
		}
	}
	return catalogReplyOf(all, 0, len(all))
}

// catalogReplyOf describes all[lo:hi]; sameName and alsoIn look at every app in all.
func catalogReplyOf(all []*semantic.App, lo, hi int) mcpserver.Reply {
	f := semantic.FoldedOf(all)
	view := catalogView{Legend: legend, Apps: []catalogAppView{}}
	var b strings.Builder
	fmt.Fprintf(&b, "Catálogo: %s.\n", ptbr.Count(hi-lo, "Aplicação", "Aplicações"))
	if hi == lo {
		b.WriteString("Você ainda não tem acesso a nenhuma Aplicação.\n")
	}
	left := 0
	for i := lo; i < hi; i++ {
		a := all[i]
		av := catalogAppView{appView: viewApp(a), SameName: []appRefView{}, Indicators: []catalogIndicatorView{}}
		for _, o := range f.AppsNamed(i) {
			if all[o] != a {
				av.SameName = append(av.SameName, refOf(all[o]))
			}
		}
		items := f.Items[f.ItemStart[i]:]
		for k, ind := range a.Indicators {
			iv := catalogIndicatorView{Name: ind.Name, Description: nullable(ind.Description), Valid: ind.Problem == ""}
			for _, o := range f.AppsWithIndicator(items[k].Name) {
				if all[o] != a {
					iv.AlsoIn = append(iv.AlsoIn, refOf(all[o]))
				}
			}
			av.Indicators = append(av.Indicators, iv)
		}
		view.Apps = append(view.Apps, av)
		entry, ok := catalogEntryText(a, av, catalogTextBudget-b.Len())
		if !ok {
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
	return mcpserver.Reply{Text: b.String(), Structured: view}
}

func describeApp(a *semantic.App) string {
	var parts []string
	if a.Desk != nil {
		parts = append(parts, "mesa "+*a.Desk)
	} else {
		parts = append(parts, "Minha Mesa")
	}
	if a.ClonedFrom != nil {
		parts = append(parts, fmt.Sprintf("cópia pessoal de [%d] %s", a.ClonedFrom.ID, a.ClonedFrom.Name))
	}
	if a.PublishedAt != nil {
		parts = append(parts, "publicada em "+ptbr.DateTime(*a.PublishedAt))
	} else {
		parts = append(parts, "nunca publicada")
	}
	return fmt.Sprintf("[%d] %s (%s)", a.ID, a.Name, strings.Join(parts, "; "))
}

// catalogEntryText is the text of one app of the catalogue, or false when it would be longer
// than room: a long line (hundreds of apps of the same name) is not built when even its
// brackets could not fit.
func catalogEntryText(a *semantic.App, av catalogAppView, room int) (string, bool) {
	var b strings.Builder
	b.WriteString("\n" + describeApp(a) + "\n")
	if a.Description != "" {
		b.WriteString("  " + a.Description + "\n")
	}
	if len(av.SameName) > 0 {
		if b.Len()+3*len(av.SameName) > room { // each "[id]" takes 3 bytes at least
			return "", false
		}
		var names []string
		for _, o := range av.SameName {
			names = append(names, "["+strconv.FormatInt(o.ID, 10)+"]")
		}
		b.WriteString("  Mesmo nome: " + ptbr.List(names) + ".\n")
	}
	if len(av.Indicators) > 0 {
		least := b.Len()
		for _, iv := range av.Indicators {
			least += len(iv.Name) + 3*len(iv.AlsoIn)
		}
		if least > room {
			return "", false
		}
		var names []string
		for _, iv := range av.Indicators {
			n := iv.Name
			if !iv.Valid {
				n += " (inválido)"
			}
			if len(iv.AlsoIn) > 0 {
				var ids []string
				for _, o := range iv.AlsoIn {
					ids = append(ids, "["+strconv.FormatInt(o.ID, 10)+"]")
				}
				n += " (também em " + ptbr.List(ids) + ")"
			}
			names = append(names, n)
		}
		b.WriteString("  Indicadores: " + strings.Join(names, "; ") + ".\n")
	}
	if b.Len() > room {
		return "", false
	}
	if cols := columnSample(a); len(cols) > 0 {
		b.WriteString("  Colunas (amostra): " + strings.Join(cols, "; ") + ".\n")
	}
	return b.String(), b.Len() <= room
}

// columnSample lists an app's date columns and then its most used columns in dashboards.
func columnSample(a *semantic.App) []string {
	const most = 8
	var dates, used []*semantic.Column
	for _, t := range a.Tables {
		for _, c := range t.Columns {
			switch {
			case c.Role == semantic.RoleKey:
			case c.Type == semantic.TypeDate || c.Type == semantic.TypeDatetime:
				dates = append(dates, c)
			case c.Usage > 0:
				used = append(used, c)
			}
		}
	}
	sort.SliceStable(used, func(i, j int) bool { return used[i].Usage > used[j].Usage })
	if len(used) > most {
		used = used[:most]
	}
	var out []string
	for _, c := range append(dates, used...) {
		desc := ptbr.ColumnType(c.Type)
		if c.Unit != "" {
			desc += ", " + c.Unit
		}
		out = append(out, c.Ref()+" ("+desc+")")
	}
	return out
}

// ---- search (with terms)

type matchView struct {
	Kind        string         `json:"kind"`
	Name        string         `json:"name"`
	App         appRefView     `json:"app"`
	Description *string        `json:"description,omitempty"`
	Valid       *bool          `json:"valid,omitempty"`
	Example     *queryCallView `json:"example,omitempty"`
	Ref         string         `json:"ref,omitempty"`
	Field       *fieldView     `json:"field,omitempty"`
	Table       string         `json:"table,omitempty"`
	Type        string         `json:"type,omitempty"`
	Unit        any            `json:"unit,omitempty"` // columns and expressions always say it, null included
}

type searchView struct {
	Terms   []string    `json:"terms"`
	Total   int         `json:"total"`
	Shown   int         `json:"shown"`
	Matches []matchView `json:"matches"`
}

// maxMatches bounds a search answer; the text says how to narrow.
const maxMatches = 50

// matchRank scores how well a folded name matches any folded term: 0 exact, 1 prefix, 2
// inside, -1 no match.
func matchRank(f string, folded []string) int {
	best := -1
	for _, ft := range folded {
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

// searchHit is one matching item: app's item Items[item] of the folded set.
type searchHit struct{ app, item int32 }

// searchReply searches all[lo:hi]. Matches are ordered by kind (indicators, expressions,
// columns), then rank, then catalogue order; only the first maxMatches are built.
func searchReply(all []*semantic.App, lo, hi int, terms []string) mcpserver.Reply {
	f := semantic.FoldedOf(all)
	folded := make([]string, len(terms))
	for i, t := range terms {
		folded[i] = fold.Fold(t)
	}
	// Many items share a folded name: rank each distinct name once (0 = not ranked yet).
	memo := make([]int8, len(f.Strings))
	rank := func(s int32) int {
		if memo[s] == 0 {
			memo[s] = int8(matchRank(f.Strings[s], folded) + 2)
		}
		return int(memo[s]) - 2
	}
	// One bucket per kind and rank keeps the catalogue order inside it; a bucket never needs
	// more than maxMatches hits.
	var buckets [12][]searchHit
	total := 0
	for i := lo; i < hi; i++ {
		for k := f.ItemStart[i]; k < f.ItemStart[i+1]; k++ {
			it := f.Items[k]
			r := rank(it.Name)
			if r < 0 && it.Kind == semantic.ItemIndicator && it.Desc >= 0 && rank(it.Desc) >= 0 {
				r = 3
			}
			if r < 0 {
				continue
			}
			total++
			bk := int(it.Kind)*4 + r
			if len(buckets[bk]) < maxMatches {
				buckets[bk] = append(buckets[bk], searchHit{app: int32(i), item: k})
			}
		}
	}
	view := searchView{Terms: terms, Total: total, Matches: []matchView{}}
	for _, bk := range buckets {
		for _, h := range bk {
			if len(view.Matches) == maxMatches {
				break
			}
			view.Matches = append(view.Matches, hitView(all[h.app], int(h.item-f.ItemStart[h.app])))
		}
	}
	view.Shown = len(view.Matches)
	return mcpserver.Reply{Text: searchText(view), Structured: view}
}

// hitView builds the match of item k of app a, counted as semantic.Folded lays items out.
func hitView(a *semantic.App, k int) matchView {
	if k < len(a.Indicators) {
		ind := a.Indicators[k]
		valid := ind.Problem == ""
		return matchView{Kind: "indicator", Name: ind.Name, App: refOf(a), Description: nullable(ind.Description),
			Valid: &valid, Example: example(a, ind)}
	}
	k -= len(a.Indicators)
	if k < len(a.Expressions) {
		e := a.Expressions[k]
		return matchView{Kind: "expression", Name: e.Label, App: refOf(a), Ref: e.Label,
			Field: &fieldView{Ref: e.Label}, Unit: nullableUnit(e.Unit)}
	}
	k -= len(a.Expressions)
	for _, t := range a.Tables {
		if k >= len(t.Columns) {
			k -= len(t.Columns)
			continue
		}
		c := t.Columns[k]
		f := fieldFor(c)
		return matchView{Kind: "column", Name: c.Label, App: refOf(a), Description: nullable(c.Description),
			Ref: c.Ref(), Field: &f, Table: t.Label, Type: c.Type, Unit: nullableUnit(c.Unit)}
	}
	panic("search_catalog: item outside its app")
}

func searchText(v searchView) string {
	var b strings.Builder
	quoted := make([]string, len(v.Terms))
	for i, t := range v.Terms {
		quoted[i] = "\"" + t + "\""
	}
	if v.Total == 0 {
		fmt.Fprintf(&b, "Nada encontrado para %s. Tente outro termo, ou search_catalog sem termos para ver o catálogo.", strings.Join(quoted, ", "))
		return b.String()
	}
	fmt.Fprintf(&b, "%s para %s", ptbr.Count(v.Total, "resultado", "resultados"), strings.Join(quoted, ", "))
	if v.Shown < v.Total {
		fmt.Fprintf(&b, "; mostrando %d. Use termos mais específicos ou appId para ver o resto", v.Shown)
	}
	b.WriteString(".\n")
	for _, m := range v.Matches {
		app := fmt.Sprintf("[%d] %s", m.App.ID, m.App.Name)
		switch m.Kind {
		case "indicator":
			line := "- Indicador " + m.Name + " em " + app
			if m.Description != nil {
				line += ": " + *m.Description
			}
			if m.Example != nil {
				ex, _ := json.Marshal(m.Example)
				line += "\n  query: " + string(ex)
			} else {
				line += " (inválido: usa algo que não existe mais; sem exemplo)"
			}
			b.WriteString(line + "\n")
		case "expression":
			fmt.Fprintf(&b, "- Expressão %s em %s; field {\"ref\": %q}\n", m.Name, app, m.Ref)
		default:
			f, _ := json.Marshal(m.Field)
			desc := ptbr.ColumnType(m.Type)
			if u, _ := m.Unit.(*string); u != nil {
				desc += ", " + *u
			}
			fmt.Fprintf(&b, "- Coluna %s (%s) em %s; field %s\n", m.Ref, desc, app, f)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
