package lumo

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/values"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
)

// Limits of search_values, from the spec.
const (
	distinctLimit       = 50               // values listed with ref
	searchColumns       = 20               // text columns searched without ref
	searchPerColumn     = 8                // values per searched column
	sampleRows          = 10               // rows of mode sample
	DefaultSearchBudget = 20 * time.Second // time for a search without ref
)

// searchValues answers search_values in its three modes.
func (s *Service) searchValues(ctx context.Context, in *lumoapi.SearchValuesInput) (lumoapi.SearchValuesOutput, func() string, error) {
	a, err := s.visibleApp(ctx, extraOf(ctx), int64(in.AppId))
	if err != nil {
		return lumoapi.SearchValuesOutput{}, nil, err
	}
	ref := strings.TrimSpace(string(in.Ref.Or("")))
	contains := strings.TrimSpace(in.Contains.Or(""))
	r, err := s.valuesReader(ctx, a)
	if err != nil {
		return lumoapi.SearchValuesOutput{}, nil, err
	}
	switch {
	case in.Mode.Or(lumoapi.SearchValuesInputModeDistinct) == lumoapi.SearchValuesInputModeSample:
		out, text, err := sampleValues(ctx, r, a, ref, contains)
		if err != nil {
			return lumoapi.SearchValuesOutput{}, nil, err
		}
		return lumoapi.NewSearchValuesOutputSampleSearchValuesOutput(*out), text, nil
	case ref != "":
		out, text, err := s.distinctValues(ctx, r, a, ref, contains)
		if err != nil {
			return lumoapi.SearchValuesOutput{}, nil, err
		}
		return lumoapi.NewSearchValuesOutputDistinctSearchValuesOutput(*out), text, nil
	case len(fold.Words(contains)) > 0:
		out, text, err := searchColumnsFor(ctx, r, a, contains, s.searchBudget())
		if err != nil {
			return lumoapi.SearchValuesOutput{}, nil, err
		}
		return lumoapi.NewSearchValuesOutputSearchSearchValuesOutput(*out), text, nil
	}
	return lumoapi.SearchValuesOutput{}, nil, &mcpserver.ToolError{
		Code: "MISSING_REF_OR_CONTAINS",
		Message: "search_values precisa de ref (a coluna, Tabela.Coluna) para listar os valores dela, " +
			"ou de contains (um texto) para procurá-lo nas colunas de texto da Aplicação.",
		Suggestions: append(textRefExamples(a),
			fmt.Sprintf(`Para procurar um texto: {"appId": %d, "contains": "..."}`, a.ID)),
	}
}

// valuesReader reads a's values where its queries read (columnarFor).
func (s *Service) valuesReader(ctx context.Context, a *semantic.App) (values.Reader, error) {
	duck, err := s.columnarFor(ctx, a)
	if err != nil {
		return values.Reader{}, err
	}
	if db, ok := duck.(*sql.DB); ok {
		return values.Reader{DB: db, Dialect: sqldialect.DuckDB{}, Values: s.Columnar.ValuesOf(a)}, nil
	}
	return values.Reader{DB: s.DB.SQL(), Dialect: s.DB.Dialect()}, nil
}

func (s *Service) searchBudget() time.Duration {
	if s.SearchBudget > 0 {
		return s.SearchBudget
	}
	return DefaultSearchBudget
}

// textRefExamples suggests calls with the app's most used text columns.
func textRefExamples(a *semantic.App) []string {
	cols := searchableColumns(a)
	sort.SliceStable(cols, func(i, j int) bool { return cols[i].Usage > cols[j].Usage })
	var out []string
	for _, c := range cols[:min(3, len(cols))] {
		out = append(out, fmt.Sprintf(`Para listar valores: {"appId": %d, "ref": %q}`, a.ID, c.Ref()))
	}
	return out
}

// ---- with ref: distinct values

func (s *Service) distinctValues(ctx context.Context, r values.Reader, a *semantic.App, ref, contains string) (*lumoapi.SearchValuesOutputDistinct, func() string, error) {
	target, err := a.Resolve(ref)
	if err != nil {
		te := refError(a, err)
		if t := tableByLabel(a, ref); t != nil {
			te.Suggestions = append([]string{fmt.Sprintf(`%s é uma tabela: para linhas de exemplo, use {"appId": %d, "ref": %q, "mode": "sample"}; para valores, uma coluna dela (Tabela.Coluna)`,
				t.Label, a.ID, t.Label)}, te.Suggestions...)
		}
		return nil, nil, te
	}
	if target.Expression != nil {
		e := target.Expression
		return nil, nil, &mcpserver.ToolError{
			Code: "NOT_A_COLUMN",
			Message: fmt.Sprintf("%q é uma expressão, não uma coluna: search_values lista valores de colunas de texto ou data. "+
				"O valor de uma expressão se consulta com query.", e.Label),
			Suggestions: []string{"Use query: " + queryExample(a, lumoapi.Field{Ref: lumoapi.Ref(e.Label)})},
		}
	}
	c := target.Column
	if !values.Searchable(c) {
		field := fieldFor(c)
		return nil, nil, &mcpserver.ToolError{
			Code: "NUMERIC_COLUMN",
			Message: fmt.Sprintf("A coluna %s é numérica: search_values lista valores só de colunas de texto ou data. "+
				"Número se consulta com query.", c.Ref()),
			Suggestions: []string{"Use query: " + queryExample(a, field)},
		}
	}
	var notes []string
	words := fold.Words(contains)
	isDate := c.Type != semantic.TypeString
	switch {
	case isDate && contains != "":
		notes = append(notes, fmt.Sprintf("contains vale só para colunas de texto; em %s (%s) foi ignorado.", c.Ref(), ptbr.ColumnType(c.Type)))
		words = nil
	case contains != "" && len(words) == 0:
		notes = append(notes, "contains não tem nenhuma palavra; foi ignorado.")
	}
	if c.Table.LoadedAt == nil {
		notes = append(notes, fmt.Sprintf("A tabela %s nunca foi carregada: não há valores.", c.Table.Label))
	}
	var d values.Distinct
	if c.Calculated() {
		d, err = s.calculatedDistinct(ctx, a, c, words, distinctLimit)
	} else {
		d, err = r.Distinct(ctx, c, words, distinctLimit)
	}
	if err != nil {
		return nil, nil, err
	}
	if d.Values == nil {
		d.Values = []*string{}
	}
	if len(words) == 0 {
		contains = ""
	}
	out := &lumoapi.SearchValuesOutputDistinct{AppId: lumoapi.AppId(a.ID), Ref: lumoapi.Ref(c.Ref()),
		Values: make([]lumoapi.NilString, len(d.Values)), TotalDistinct: int(d.Total), Notes: notes}
	for i, v := range d.Values {
		out.Values[i] = nilStringPtr(v)
	}
	return out, func() string { return distinctText(c, contains, d, notes) }, nil
}

// distinctText lists the values; contains is the text that narrowed them ("" when none did).
func distinctText(c *semantic.Column, contains string, d values.Distinct, notes []string) string {
	var b strings.Builder
	isDate := c.Type != semantic.TypeString
	with := ""
	if contains != "" {
		with = " com " + quote(contains)
	}
	switch {
	case d.Total == 0:
		fmt.Fprintf(&b, "%s não tem valores%s.\n", c.Ref(), with)
	default:
		fmt.Fprintf(&b, "%s tem %s%s", c.Ref(), ptbr.Int(d.Total), ptbr.Plural(int(min(d.Total, 2)), " valor distinto", " valores distintos"))
		b.WriteString(with)
		if int64(len(d.Values)) < d.Total {
			fmt.Fprintf(&b, "; estes são os %d primeiros", len(d.Values))
		}
		if isDate {
			b.WriteString(", em ordem cronológica:\n")
		} else {
			b.WriteString(", em ordem alfabética (sem diferença de acento ou caixa):\n")
		}
	}
	example := ""
	for _, v := range d.Values {
		switch {
		case v == nil && isDate:
			b.WriteString("- (em branco: nulo)\n")
		case v == nil:
			b.WriteString("- (em branco: nulo ou texto vazio)\n")
		default:
			b.WriteString("- " + *v + "\n")
			if example == "" {
				example = *v
			}
		}
	}
	if int64(len(d.Values)) < d.Total {
		if isDate {
			b.WriteString("Os outros existem e não estão aqui; para um período, use query com filtro between.\n")
		} else {
			b.WriteString("Os outros existem e não estão aqui; para achar um valor, repita com contains (algumas palavras dele).\n")
		}
	}
	if example != "" {
		filter, _ := json.Marshal(map[string]any{"ref": c.Ref(), "op": "=", "value": example})
		fmt.Fprintf(&b, "Para filtrar em query: %s", filter)
		if d.Values[0] == nil {
			blank := map[string]any{"ref": c.Ref(), "op": "=", "value": ""}
			if isDate {
				blank = map[string]any{"ref": c.Ref(), "op": "is null"}
			}
			filter, _ := json.Marshal(blank)
			fmt.Fprintf(&b, "; as linhas em branco: %s", filter)
		}
		b.WriteString(".\n")
	}
	for _, n := range notes {
		b.WriteString("Nota: " + n + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// ---- without ref, with contains: search the text columns

// searchableColumns are the app's text columns in search order: dimension tables first, then
// facts, loaded tables before never loaded ones, and otherwise the app's own order.
func searchableColumns(a *semantic.App) []*semantic.Column {
	tables := append([]*semantic.Table(nil), a.Tables...)
	rank := func(t *semantic.Table) int {
		r := 0
		if t.Kind != semantic.KindDimension {
			r++
		}
		if t.LoadedAt == nil {
			r += 2
		}
		return r
	}
	sort.SliceStable(tables, func(i, j int) bool { return rank(tables[i]) < rank(tables[j]) })
	var cols []*semantic.Column
	for _, t := range tables {
		for _, c := range t.Columns {
			if c.Type == semantic.TypeString && !c.Calculated() {
				cols = append(cols, c)
			}
		}
	}
	return cols
}

func searchColumnsFor(ctx context.Context, r values.Reader, a *semantic.App, contains string, budget time.Duration) (*lumoapi.SearchValuesOutputSearch, func() string, error) {
	words := fold.Words(contains)
	all := searchableColumns(a)
	cols := all[:min(searchColumns, len(all))]
	res, err := r.Search(ctx, cols, words, searchPerColumn, budget)
	if err != nil {
		return nil, nil, err
	}
	view := &lumoapi.SearchValuesOutputSearch{AppId: lumoapi.AppId(a.ID), Matches: []lumoapi.SearchValuesOutputSearchMatch{},
		ColumnsSearched: res.Searched, ColumnsTotal: len(all), ColumnsLeftOut: []lumoapi.Ref{}}
	for _, f := range res.Found {
		view.Matches = append(view.Matches, lumoapi.SearchValuesOutputSearchMatch{Ref: lumoapi.Ref(f.Column.Ref()), Values: f.Values, More: f.More})
	}
	var timedOut, overLimit []string
	for _, c := range res.LeftOut {
		timedOut = append(timedOut, c.Ref())
		view.ColumnsLeftOut = append(view.ColumnsLeftOut, lumoapi.Ref(c.Ref()))
	}
	for _, c := range all[len(cols):] {
		overLimit = append(overLimit, c.Ref())
		view.ColumnsLeftOut = append(view.ColumnsLeftOut, lumoapi.Ref(c.Ref()))
	}
	if res.TimedOut {
		view.Notes = append(view.Notes, fmt.Sprintf("O tempo da busca (%s) acabou antes de procurar em %s; o resultado é parcial.",
			seconds(budget), ptbr.Count(len(timedOut), "coluna", "colunas")))
	}
	text := func() string {
		return searchValuesText(view, a, contains, budget, timedOut, overLimit)
	}
	return view, text, nil
}

// searchValuesText is the text of a search without ref: view and the columns it left out, by
// timeout and over the limit.
func searchValuesText(view *lumoapi.SearchValuesOutputSearch, a *semantic.App, contains string, budget time.Duration, timedOut, overLimit []string) string {
	q := quote(contains)
	all := view.ColumnsTotal
	var b strings.Builder
	switch {
	case all == 0:
		fmt.Fprintf(&b, "A Aplicação [%d] %s não tem colunas de texto para procurar %s.\n", a.ID, a.Name, q)
	case len(view.Matches) == 0:
		fmt.Fprintf(&b, "Nenhum valor com %s nas %s procuradas (de %d).\n", q,
			ptbr.Count(view.ColumnsSearched, "coluna de texto", "colunas de texto"), all)
	default:
		fmt.Fprintf(&b, "Valores com %s em %s (procuradas %d de %d colunas de texto):\n", q,
			ptbr.Count(len(view.Matches), "coluna", "colunas"), view.ColumnsSearched, all)
		for _, m := range view.Matches {
			line := "- " + string(m.Ref) + ": " + strings.Join(m.Values, "; ")
			if m.More {
				line += fmt.Sprintf(` (e mais; para todos: {"appId": %d, "ref": %q, "contains": %q})`, a.ID, m.Ref, contains)
			}
			b.WriteString(line + "\n")
		}
	}
	if len(timedOut) > 0 {
		fmt.Fprintf(&b, "O tempo da busca (%s) acabou antes de procurar em: %s. Repita com ref para procurar em cada uma.\n",
			seconds(budget), strings.Join(timedOut, ", "))
	}
	if len(overLimit) > 0 {
		fmt.Fprintf(&b, "Ficaram de fora (a busca olha no máximo %d colunas, as de dimensão primeiro): %s. Repita com ref para procurar em cada uma.\n",
			searchColumns, strings.Join(overLimit, ", "))
	}
	if len(view.Matches) > 0 {
		b.WriteString("Para filtrar em query, use a ref da coluna e o valor exato como aparece aqui.\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// seconds renders a budget as "20 s".
func seconds(d time.Duration) string {
	if d >= time.Second {
		return ptbr.Int(int64(d/time.Second)) + " s"
	}
	return ptbr.Int(d.Milliseconds()) + " ms"
}

// ---- mode sample: example rows of a table

func sampleValues(ctx context.Context, r values.Reader, a *semantic.App, ref, contains string) (*lumoapi.SearchValuesOutputSample, func() string, error) {
	var labels []string
	for _, t := range a.Tables {
		labels = append(labels, t.Label)
	}
	if ref == "" {
		return nil, nil, &mcpserver.ToolError{
			Code:        "MISSING_REF",
			Message:     "No modo sample, ref é a tabela das linhas de exemplo (o rótulo dela, como aparece em get_app).",
			Suggestions: tableCalls(a, labels),
		}
	}
	var notes []string
	t := tableByLabel(a, ref)
	if t == nil {
		c, err := a.ResolveColumn(ref)
		if err != nil {
			similar := suggest.Similar(ref, labels, 5)
			msg := fmt.Sprintf("A tabela %s não existe nesta Aplicação.", quote(ref))
			if len(similar) > 0 {
				msg += " Tabelas parecidas: " + strings.Join(similar, ", ") + "."
			} else {
				msg += " As tabelas são: " + strings.Join(labels, ", ") + "."
				similar = labels
			}
			return nil, nil, &mcpserver.ToolError{Code: "UNKNOWN_REF", Message: msg, Suggestions: similar}
		}
		t = c.Table
		notes = append(notes, fmt.Sprintf("O modo sample mostra linhas de uma tabela: %s é uma coluna, então vieram linhas da tabela %s.", c.Ref(), t.Label))
	}
	if contains != "" {
		notes = append(notes, "contains não vale no modo sample; foi ignorado.")
	}
	if t.LoadedAt == nil {
		notes = append(notes, fmt.Sprintf("A tabela %s nunca foi carregada: não há linhas.", t.Label))
	}
	var cols, technical, calculated []*semantic.Column
	for _, c := range t.Columns {
		if c.Calculated() {
			calculated = append(calculated, c)
			continue
		}
		if c.Role == semantic.RoleKey {
			technical = append(technical, c)
			continue
		}
		cols = append(cols, c)
	}
	if len(calculated) > 0 {
		var names []string
		for _, c := range calculated {
			names = append(names, c.Label)
		}
		notes = append(notes, fmt.Sprintf("As colunas calculadas (%s) não aparecem no modo sample: os valores delas não ficam guardados; consulte-as com query.", strings.Join(names, ", ")))
	}
	rows, err := r.Sample(ctx, t, cols, sampleRows)
	if err != nil {
		return nil, nil, err
	}
	out := &lumoapi.SearchValuesOutputSample{AppId: lumoapi.AppId(a.ID), Ref: lumoapi.Ref(t.Label),
		Columns: make([]lumoapi.SearchValuesOutputSampleColumn, 0, len(cols)), Rows: make([][]lumoapi.Cell, len(rows)), Notes: notes}
	for _, c := range cols {
		out.Columns = append(out.Columns, lumoapi.SearchValuesOutputSampleColumn{Label: c.Label, Ref: lumoapi.Ref(c.Ref()),
			Type: lumoapi.ColumnType(c.Type), Unit: nilUnit(c.Unit)})
	}
	for i, row := range rows {
		out.Rows[i] = cells(row)
	}
	return out, func() string { return sampleText(t, cols, technical, rows, notes) }, nil
}

func sampleText(t *semantic.Table, cols, technical []*semantic.Column, rows [][]any, notes []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Tabela %s: %s de exemplo (as primeiras carregadas)", t.Label, ptbr.Count(len(rows), "linha", "linhas"))
	if len(technical) > 0 {
		var names []string
		for _, c := range technical {
			names = append(names, c.Label)
		}
		b.WriteString(", sem as colunas técnicas (" + strings.Join(names, ", ") + ")")
	}
	b.WriteString(".\n")
	if len(rows) > 0 {
		head := make([]string, len(cols))
		for i, c := range cols {
			// The column part of the ref: the label, or the physical name when labels repeat.
			head[i] = strings.TrimPrefix(c.Ref(), t.Label+".")
		}
		b.WriteString(strings.Join(head, " | ") + "\n")
		for _, row := range rows {
			cells := make([]string, len(row))
			for i, v := range row {
				cells[i] = cellText(cols[i], v)
			}
			b.WriteString(strings.Join(cells, " | ") + "\n")
		}
	}
	for _, n := range notes {
		b.WriteString("Nota: " + n + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// cellText renders a sample cell for the text: numbers the Brazilian way with their unit.
func cellText(c *semantic.Column, v any) string {
	switch x := v.(type) {
	case nil:
		return "(nulo)"
	case float64:
		return formatNumber(x, c)
	case string:
		if x == "" {
			return "(vazio)"
		}
		return x
	}
	return fmt.Sprint(v)
}

// formatNumber renders n as in Brazil (1.234,56) with the column's decimals and unit:
// R$ 1.234,56, -R$ 10,00, US$ 1.234,56, £ 1.234,56, 25,0% (from the fraction 0.25), 756 s, 3 min, 10 bytes.
func formatNumber(n float64, c *semantic.Column) string {
	switch c.Unit {
	case "BRL", "USD", "GBP":
		return ptbr.Amount(n, c.Unit)
	case "percent":
		return ptbr.Number(n*100, max(c.Scale-2, 1)) + "%"
	case "seconds":
		return ptbr.Number(n, c.Scale) + " s"
	case "minutes":
		return ptbr.Number(n, c.Scale) + " min"
	case "bytes":
		return ptbr.Number(n, c.Scale) + " bytes"
	}
	return ptbr.Number(n, c.Scale)
}

// ---- shared

// refError turns a semantic.RefError into the caller's error: UNKNOWN_REF, AMBIGUOUS_REF or
// INVALID_REF, with the message of the semantic model and the similar refs as suggestions.
func refError(a *semantic.App, err error) *mcpserver.ToolError {
	var re *semantic.RefError
	if !errors.As(err, &re) {
		return &mcpserver.ToolError{Code: "INVALID_REF", Message: err.Error()}
	}
	code := map[string]string{semantic.RefUnknown: "UNKNOWN_REF", semantic.RefAmbiguous: "AMBIGUOUS_REF",
		semantic.RefSyntax: "INVALID_REF"}[re.Kind]
	suggestions := append([]string(nil), re.Suggestions...)
	if len(suggestions) == 0 {
		suggestions = []string{fmt.Sprintf(`Use get_app com {"appId": %d} para ver as refs da Aplicação.`, a.ID)}
	}
	return &mcpserver.ToolError{Code: code, Message: re.Error(), Suggestions: suggestions}
}

// tableByLabel finds a table by its label, ignoring case and accents.
func tableByLabel(a *semantic.App, label string) *semantic.Table {
	for _, t := range a.Tables {
		if sameFolded(t.Label, label) {
			return t
		}
	}
	return nil
}

func tableCalls(a *semantic.App, labels []string) []string {
	var out []string
	for _, l := range labels {
		out = append(out, fmt.Sprintf(`{"appId": %d, "ref": %q, "mode": "sample"}`, a.ID, l))
	}
	return out
}

// queryExample is a query call with one field, as JSON.
func queryExample(a *semantic.App, field lumoapi.Field) string {
	return queryCallText(&lumoapi.QueryCall{AppId: lumoapi.AppId(a.ID), Fields: []lumoapi.Field{field}})
}

func quote(s string) string { return `"` + s + `"` }

// calculatedDistinct lists the distinct values of a calculated column, which are not stored: the
// query engine groups by it (its formula compiled as in any query) and the values are ordered and
// narrowed by words as Distinct orders and narrows stored ones. A column with more values than one
// query returns is refused, since they could not all be read.
func (s *Service) calculatedDistinct(ctx context.Context, a *semantic.App, c *semantic.Column, words []string, limit int) (values.Distinct, error) {
	in := &lumoapi.QueryInput{AppId: lumoapi.AppId(a.ID), Fields: []lumoapi.Field{{Ref: lumoapi.Ref(c.Ref())}},
		Limit: lumoapi.NewOptInt(query.MaxLimit)}
	_, _, res, err := s.execQuery(ctx, a, in)
	if err != nil {
		return values.Distinct{}, err
	}
	if res.Total > int64(len(res.Rows)) {
		return values.Distinct{}, &mcpserver.ToolError{
			Code: "TOO_MANY_VALUES",
			Message: fmt.Sprintf("A coluna %s é calculada (%s) e tem mais de %d valores distintos: search_values não os lê todos. "+
				"Consulte-a com query, agrupando por ela e filtrando.", c.Ref(), semantic.CalcWords(c), query.MaxLimit),
			Suggestions: []string{"Use query: " + queryExample(a, fieldFor(c))},
		}
	}
	var d values.Distinct
	blank := false
	var vals []string
	for _, row := range res.Rows {
		v, _ := row[0].(string)
		if v == "" { // NULL or the empty text: the blank value, as for stored columns
			blank = true
			continue
		}
		matches := true
		for _, w := range words {
			for _, fw := range fold.Words(w) {
				matches = matches && strings.Contains(fold.Fold(v), fw)
			}
		}
		if matches {
			vals = append(vals, v)
		}
	}
	sort.Slice(vals, func(i, j int) bool {
		fi, fj := fold.Fold(vals[i]), fold.Fold(vals[j])
		if fi != fj {
			return fi < fj
		}
		return vals[i] < vals[j]
	})
	if blank && len(words) == 0 {
		d.Values = append(d.Values, nil)
	}
	for i := range vals {
		d.Values = append(d.Values, &vals[i])
	}
	d.Total = int64(len(d.Values))
	d.Values = d.Values[:min(len(d.Values), limit)]
	return d, nil
}
