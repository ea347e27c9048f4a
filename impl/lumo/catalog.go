package lumo

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/go-faster/jx"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
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

// searchCatalog answers search_catalog; maxBytes is the binder's bound on one answer, which a
// catalogue without terms is checked against before it is built.
func (s *Service) searchCatalog(ctx context.Context, in *lumoapi.SearchCatalogInput, maxBytes int) (lumoapi.SearchCatalogOutput, func() string, error) {
	u, err := s.user(ctx)
	if err != nil {
		return lumoapi.SearchCatalogOutput{}, nil, err
	}
	apps, err := s.DB.VisibleApps(ctx, u)
	if err != nil {
		return lumoapi.SearchCatalogOutput{}, nil, fmt.Errorf("loading visible apps: %w", err)
	}
	lo, hi := 0, len(apps) // the scope: apps[lo:hi]
	if id, ok := in.AppId.Get(); ok {
		lo, hi = -1, -1
		for i, a := range apps {
			if a.ID == int64(id) {
				lo, hi = i, i+1
			}
		}
		if lo < 0 {
			return lumoapi.SearchCatalogOutput{}, nil, appNotFound(int64(id))
		}
	}
	ts := terms(in)
	if len(ts) == 0 {
		out, text, err := catalogOf(apps, lo, hi, maxBytes)
		if err != nil {
			return lumoapi.SearchCatalogOutput{}, nil, err
		}
		return lumoapi.NewSearchCatalogOutputCatalogSearchCatalogOutput(*out), text, nil
	}
	out := searchOf(apps, lo, hi, ts)
	return lumoapi.NewSearchCatalogOutputSearchSearchCatalogOutput(*out), func() string { return searchText(out) }, nil
}

// ---- catalogue (no terms)

var legend = lumoapi.SearchCatalogOutputCatalogLegend{
	ID:          "Id da Aplicação: o appId de get_app, search_values e query.",
	Desk:        "A mesa da Aplicação; null é Minha Mesa (cópia pessoal).",
	ClonedFrom:  "A Aplicação de origem de uma cópia pessoal.",
	PublishedAt: "Quando foi publicada; null se nunca foi.",
	SameName:    "Outras Aplicações com o mesmo nome; use desk, clonedFrom e publishedAt para distingui-las.",
	Indicators:  "Indicadores prontos; valid false quando usam algo que não existe mais. alsoIn: outras Aplicações com Indicador de mesmo nome.",
}

// catalogTextBudget keeps the catalogue text well under what clients accept from a tool (~25k tokens).
const catalogTextBudget = 60000

// catalogOf describes all[lo:hi]; sameName and alsoIn look at every app in all. When maxBytes
// is positive and the structured answer surely passes it, nothing is built: many apps of one
// name make lists quadratic in the catalogue (10,000 apps, 500 of each name: 1 GB). The text
// is the catalogue's text of the same apps.
func catalogOf(all []*semantic.App, lo, hi, maxBytes int) (*lumoapi.SearchCatalogOutputCatalog, func() string, error) {
	f := semantic.FoldedOf(all)
	if maxBytes > 0 {
		if least := catalogLeastBytes(all, f, lo, hi, maxBytes); least > maxBytes {
			return nil, nil, catalogTooLarge(least, maxBytes, hi-lo)
		}
	}
	out := &lumoapi.SearchCatalogOutputCatalog{Legend: legend, Apps: make([]lumoapi.SearchCatalogOutputCatalogApp, 0, hi-lo)}
	for i := lo; i < hi; i++ {
		a := all[i]
		app := outApp(a)
		av := lumoapi.SearchCatalogOutputCatalogApp{ID: app.ID, Name: app.Name, Description: app.Description, Desk: app.Desk,
			ClonedFrom: app.ClonedFrom, PublishedAt: app.PublishedAt,
			SameName: []lumoapi.AppRef{}, Indicators: []lumoapi.SearchCatalogOutputCatalogIndicator{}}
		for _, o := range f.AppsNamed(i) {
			if all[o] != a {
				av.SameName = append(av.SameName, refOf(all[o]))
			}
		}
		items := f.Items[f.ItemStart[i]:]
		for k, ind := range a.Indicators {
			iv := lumoapi.SearchCatalogOutputCatalogIndicator{Name: ind.Name, Description: nilString(ind.Description), Valid: ind.Problem == ""}
			for _, o := range f.AppsWithIndicator(items[k].Name) {
				if all[o] != a {
					iv.AlsoIn = append(iv.AlsoIn, refOf(all[o]))
				}
			}
			av.Indicators = append(av.Indicators, iv)
		}
		out.Apps = append(out.Apps, av)
	}
	return out, func() string { return catalogText(all, f, lo, hi) }, nil
}

func catalogTooLarge(least, maxBytes, apps int) *mcpserver.ToolError {
	return &mcpserver.ToolError{
		Code: "RESULT_TOO_LARGE",
		Message: fmt.Sprintf("A resposta de search_catalog sem termos teria pelo menos %s bytes, acima do limite de %s bytes por resposta (o catálogo tem %s).",
			ptbr.Int(int64(least)), ptbr.Int(int64(maxBytes)), ptbr.Count(apps, "Aplicação", "Aplicações")),
		Suggestions: []string{
			"Use terms para achar Indicadores, expressões e colunas pelo nome.",
			"Use appId para descrever uma Aplicação só.",
		},
	}
}

// Lower bounds of the JSON of a catalogue, from the field names it writes; a string
// counts its bytes and quotes (escaping only adds), a missing one "null".
const (
	leastRef       = len(`{"id":0,"name":""}`)
	leastApp       = len(`{"id":,"name":"","description":,"desk":,"clonedFrom":,"publishedAt":"","sameName":[],"indicators":[]}`)
	leastIndicator = len(`{"name":"","description":,"valid":true}`)
	leastAlsoIn    = len(`,"alsoIn":[]`)
)

var leastCatalog = func() int {
	var e jx.Encoder
	empty := lumoapi.SearchCatalogOutputCatalog{Legend: legend, Apps: []lumoapi.SearchCatalogOutputCatalogApp{}}
	empty.Encode(&e)
	return len(e.Bytes())
}()

// catalogLeastBytes is a lower bound of the size of all[lo:hi]'s catalogue as JSON, counted
// without building it; it stops as soon as it passes maxBytes.
func catalogLeastBytes(all []*semantic.App, f *semantic.Folded, lo, hi, maxBytes int) int {
	n := leastCatalog
	lists := func(refs int) int { // refs of other apps, with the commas between them
		if refs <= 0 {
			return 0
		}
		return refs*(leastRef+1) - 1
	}
	for i := lo; i < hi && n <= maxBytes; i++ {
		a := all[i]
		if i > lo {
			n++ // comma
		}
		n += leastApp + digits(a.ID) + len(a.Name) + leastText(a.Description)
		if a.Desk != nil {
			n += len(*a.Desk) + 2
		} else {
			n += len("null")
		}
		if a.ClonedFrom != nil {
			n += leastRef - 1 + digits(a.ClonedFrom.ID) + len(a.ClonedFrom.Name)
		} else {
			n += len("null")
		}
		same := f.AppsNamed(i)
		self := selfEntries(all, same, a) // skipped by sameName and alsoIn
		n += lists(len(same) - self)
		items := f.Items[f.ItemStart[i]:]
		for k, ind := range a.Indicators {
			if k > 0 {
				n++
			}
			n += leastIndicator + len(ind.Name) + leastText(ind.Description)
			// Copies of a share its name, so they are all among same: at most self of them here.
			if refs := len(f.AppsWithIndicator(items[k].Name)) - self; refs > 0 {
				n += leastAlsoIn + lists(refs)
			}
		}
	}
	return n
}

// selfEntries counts the entries of list (indexes of all) that are a itself.
func selfEntries(all []*semantic.App, list []int32, a *semantic.App) int {
	n := 0
	for _, o := range list {
		if all[o] == a {
			n++
		}
	}
	return n
}

// leastText bounds a text that is null when empty (nullable).
func leastText(s string) int {
	if s == "" {
		return len("null")
	}
	return len(s) + 2
}

func digits(n int64) int {
	var buf [20]byte
	return len(strconv.AppendInt(buf[:0], n, 10))
}

// catalogText is the catalogue's text: the apps of all[lo:hi] that fit catalogTextBudget, in
// order, and how many were left out.
func catalogText(all []*semantic.App, f *semantic.Folded, lo, hi int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Catálogo: %s.\n", ptbr.Count(hi-lo, "Aplicação", "Aplicações"))
	if hi == lo {
		b.WriteString("Você ainda não tem acesso a nenhuma Aplicação.\n")
	}
	left, lens := 0, newIDLengths(all)
	for i := lo; i < hi; i++ {
		entry, ok := catalogEntryText(all, f, lens, i, catalogTextBudget-b.Len())
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
	return b.String()
}

// describeApp is the line that names an app in the texts: [id] name (desk; copy; publication).
func describeApp(a lumoapi.GetAppOutputApp) string {
	var parts []string
	if desk, ok := a.Desk.Get(); ok {
		parts = append(parts, "mesa "+desk)
	} else {
		parts = append(parts, "Minha Mesa")
	}
	if from, ok := a.ClonedFrom.Get(); ok {
		parts = append(parts, fmt.Sprintf("cópia pessoal de [%d] %s", from.ID, from.Name))
	}
	if at, ok := a.PublishedAt.Get(); ok {
		parts = append(parts, "publicada em "+ptbr.DateTime(at))
	} else {
		parts = append(parts, "nunca publicada")
	}
	return fmt.Sprintf("[%d] %s (%s)", a.ID, a.Name, strings.Join(parts, "; "))
}

// others lists the ids of the apps of list (indexes of all) other than a, as "[id]".
func others(all []*semantic.App, list []int32, a *semantic.App) []string {
	var ids []string
	for _, o := range list {
		if all[o] != a {
			ids = append(ids, "["+strconv.FormatInt(all[o].ID, 10)+"]")
		}
	}
	return ids
}

// idLengths memoizes, per list of the folded index, the length of its apps' ids written "[id]":
// the apps of one name share their lists.
type idLengths struct {
	all             []*semantic.App
	named, withInds map[int32]int
}

func newIDLengths(all []*semantic.App) *idLengths {
	return &idLengths{all: all, named: map[int32]int{}, withInds: map[int32]int{}}
}

func (l *idLengths) of(memo map[int32]int, key int32, list []int32) int {
	n, ok := memo[key]
	if !ok {
		for _, o := range list {
			n += len("[]") + digits(l.all[o].ID)
		}
		memo[key] = n
	}
	return n
}

// catalogEntryText is the text of app i of all in the catalogue, or false when it would be
// longer than room. Once the budget is spent most entries do not fit: a lower bound of the
// entry's length, counted without building anything, turns them down first.
func catalogEntryText(all []*semantic.App, f *semantic.Folded, lens *idLengths, i, room int) (string, bool) {
	a := all[i]
	same := f.AppsNamed(i)
	self := selfEntries(all, same, a) // copies of a share its name, so any list has at most these
	selfIDs := self * (len("[]") + digits(a.ID))
	items := f.Items[f.ItemStart[i]:]
	// "\n[id] name (Minha Mesa|mesa desk...)\n"; lists of ids are joined by ", " or " e ".
	least := len("\n[] ()\n") + digits(a.ID) + len(a.Name) + len("Minha Mesa")
	if a.Desk != nil {
		least += len("mesa ") + len(*a.Desk) - len("Minha Mesa")
	}
	if a.Description != "" {
		least += len("  \n") + len(a.Description)
	}
	if n := len(same) - self; n > 0 {
		least += len("  Mesmo nome: .\n") + lens.of(lens.named, f.App[i], same) - selfIDs + 2*(n-1)
	}
	if len(a.Indicators) > 0 {
		least += len("  Indicadores: .\n") + 2*(len(a.Indicators)-1)
	}
	for k, ind := range a.Indicators {
		least += len(ind.Name)
		with := f.AppsWithIndicator(items[k].Name)
		if n := len(with) - self; n > 0 {
			least += len(" (também em )") + lens.of(lens.withInds, items[k].Name, with) - selfIDs + 2*(n-1)
		}
	}
	if least > room {
		return "", false
	}
	var b strings.Builder
	b.WriteString("\n" + describeApp(outApp(a)) + "\n")
	if a.Description != "" {
		b.WriteString("  " + a.Description + "\n")
	}
	if names := others(all, same, a); len(names) > 0 {
		if b.Len()+3*len(names) > room {
			return "", false
		}
		b.WriteString("  Mesmo nome: " + ptbr.List(names) + ".\n")
	}
	if len(a.Indicators) > 0 {
		var names []string
		for k, ind := range a.Indicators {
			n := ind.Name
			if ind.Problem != "" {
				n += " (inválido)"
			}
			if ids := others(all, f.AppsWithIndicator(items[k].Name), a); len(ids) > 0 {
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

// searchOf searches all[lo:hi]. Matches are ordered by kind (indicators, expressions,
// columns, segments), then rank, then catalogue order; only the first maxMatches are built.
func searchOf(all []*semantic.App, lo, hi int, terms []string) *lumoapi.SearchCatalogOutputSearch {
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
	var buckets [16][]searchHit
	total := 0
	for i := lo; i < hi; i++ {
		for k := f.ItemStart[i]; k < f.ItemStart[i+1]; k++ {
			it := f.Items[k]
			r := rank(it.Name)
			if r < 0 && it.Desc >= 0 && rank(it.Desc) >= 0 { // an indicator's or a segment's description
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
	out := &lumoapi.SearchCatalogOutputSearch{Terms: terms, Total: total, Matches: []lumoapi.SearchCatalogOutputMatch{}}
	for _, bk := range buckets {
		for _, h := range bk {
			if len(out.Matches) == maxMatches {
				break
			}
			out.Matches = append(out.Matches, hitOf(all[h.app], int(h.item-f.ItemStart[h.app])))
		}
	}
	out.Shown = len(out.Matches)
	return out
}

// hitOf builds the match of item k of app a, counted as semantic.Folded lays items out.
func hitOf(a *semantic.App, k int) lumoapi.SearchCatalogOutputMatch {
	m := lumoapi.SearchCatalogOutputMatch{Name: "", App: refOf(a)}
	if k < len(a.Indicators) {
		ind := a.Indicators[k]
		m.Kind, m.Name, m.Valid, m.Example = lumoapi.SearchCatalogOutputMatchKindIndicator, ind.Name, lumoapi.NewOptBool(ind.Problem == ""), example(a, ind)
		if ind.Description != "" {
			m.Description = lumoapi.NewOptNilString(ind.Description)
		}
		return m
	}
	k -= len(a.Indicators)
	if k < len(a.Expressions) {
		e := a.Expressions[k]
		m.Kind, m.Name, m.Ref = lumoapi.SearchCatalogOutputMatchKindExpression, e.Label, lumoapi.NewOptRef(lumoapi.Ref(e.Label))
		m.Field, m.Unit = lumoapi.NewOptField(lumoapi.Field{Ref: lumoapi.Ref(e.Label)}), optNilUnit(e.Unit)
		if w := semantic.ExpressionWords(e.Formula); w != "" {
			m.Calculation = lumoapi.NewOptString(w)
		}
		return m
	}
	k -= len(a.Expressions)
	for _, t := range a.Tables {
		if k >= len(t.Columns) {
			k -= len(t.Columns)
			continue
		}
		c := t.Columns[k]
		m.Kind, m.Name, m.Ref = lumoapi.SearchCatalogOutputMatchKindColumn, c.Label, lumoapi.NewOptRef(lumoapi.Ref(c.Ref()))
		m.Field, m.Table, m.Type = lumoapi.NewOptField(fieldFor(c)), lumoapi.NewOptString(t.Label), lumoapi.NewOptColumnType(lumoapi.ColumnType(c.Type))
		m.Unit = optNilUnit(c.Unit)
		if c.Description != "" {
			m.Description = lumoapi.NewOptNilString(c.Description)
		}
		if c.Calculated() {
			m.Calculation = lumoapi.NewOptString(semantic.CalcWords(c))
		}
		return m
	}
	if k < len(a.Segments) { // the loop above counted k past every column
		sg := a.Segments[k]
		m.Kind, m.Name, m.Table = lumoapi.SearchCatalogOutputMatchKindSegment, sg.Label, lumoapi.NewOptString(sg.Table.Label)
		m.Filter, m.Meaning = lumoapi.NewOptSegmentFilter(lumoapi.SegmentFilter{Segment: sg.Label}), lumoapi.NewOptString(semantic.SegmentWords(sg))
		if sg.Description != "" {
			m.Description = lumoapi.NewOptNilString(sg.Description)
		}
		return m
	}
	panic("search_catalog: item outside its app")
}

// searchText is the text of a search, from its result alone.
func searchText(v *lumoapi.SearchCatalogOutputSearch) string {
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
			if d, ok := m.Description.Get(); ok {
				line += ": " + d
			}
			if ex, ok := m.Example.Get(); ok {
				line += "\n  query: " + queryCallText(&ex)
			} else {
				line += " (inválido: usa algo que não existe mais; sem exemplo)"
			}
			b.WriteString(line + "\n")
		case "segment":
			line := fmt.Sprintf("- Segmento %s em %s (%s); filter {\"segment\": %q}", m.Name, app, m.Meaning.Or(""), m.Name)
			if d, ok := m.Description.Get(); ok {
				line += ": " + d
			}
			b.WriteString(line + "\n")
		case "expression":
			line := fmt.Sprintf("- Expressão %s em %s; field {\"ref\": %q}", m.Name, app, m.Ref.Or(""))
			if w, ok := m.Calculation.Get(); ok {
				line += "; " + w
			}
			b.WriteString(line + "\n")
		default:
			desc := ptbr.ColumnType(string(m.Type.Or("")))
			if u, ok := m.Unit.Get(); ok {
				desc += ", " + string(u)
			}
			if w, ok := m.Calculation.Get(); ok {
				desc += "; " + w
			}
			fmt.Fprintf(&b, "- Coluna %s (%s) em %s; field %s\n", m.Ref.Or(""), desc, app, fieldText(m.Field.Or(lumoapi.Field{})))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
