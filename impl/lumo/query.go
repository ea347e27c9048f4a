package lumo

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/values"
	"github.com/lumo-caderninho/mcp/impl/platform/jsonmap"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// DefaultQueryTimeout bounds one query's statements.
const DefaultQueryTimeout = 30 * time.Second

// request turns the generated input into the compiler's request.
func request(in *lumoapi.QueryInput) query.Request {
	var r query.Request
	for _, f := range in.Fields {
		r.Fields = append(r.Fields, query.Item{Ref: string(f.Ref), Agg: string(f.Agg.Or("")), Bucket: string(f.Bucket.Or(""))})
	}
	for _, ff := range in.Filters {
		if s, ok := ff.GetSegmentFilter(); ok {
			r.Filters = append(r.Filters, query.Filter{Segment: s.Segment})
			continue
		}
		f := ff.ColumnFilter
		flt := query.Filter{Item: query.Item{Ref: string(f.Ref), Agg: string(f.Agg.Or("")), Bucket: string(f.Bucket.Or(""))}, Op: string(f.Op)}
		if v, ok := f.Value.Get(); ok {
			switch v.Type {
			case lumoapi.StringFilterValue:
				flt.Value = v.String
			case lumoapi.Float64FilterValue:
				flt.Value = v.Float64
			default:
				list := make([]any, 0, len(v.ScalarArray))
				for _, s := range v.ScalarArray {
					if s.IsString() {
						list = append(list, s.String)
					} else {
						list = append(list, s.Float64)
					}
				}
				flt.Value = list
			}
		}
		r.Filters = append(r.Filters, flt)
	}
	for _, o := range in.OrderBy {
		r.OrderBy = append(r.OrderBy, query.Order{Item: query.Item{Ref: string(o.Ref), Agg: string(o.Agg.Or("")), Bucket: string(o.Bucket.Or(""))}, Dir: string(o.Dir)})
	}
	r.Limit = in.Limit.Or(0)
	return r
}

// query answers query: the result, and its text.
func (s *Service) query(ctx context.Context, in *lumoapi.QueryInput) (*lumoapi.QueryOutput, func() string, error) {
	app, err := s.visibleApp(ctx, extraOf(ctx), int64(in.AppId))
	if err != nil {
		return nil, nil, err
	}
	args, err := canonicalInput(in)
	if err != nil {
		return nil, nil, err
	}
	q, shared, err := s.answer(ctx, app, in, args)
	if err != nil {
		return nil, nil, err
	}
	copied := *shared // the kept answer is shared: this call's permalink goes on a copy
	out := &copied
	if s.PublicURL != "" {
		link, err := s.permalink(ctx, app.ID, args)
		if err != nil {
			return nil, nil, err
		}
		u, err := url.Parse(link)
		if err != nil {
			return nil, nil, fmt.Errorf("permalink %q: %w", link, err)
		}
		out.Permalink = lumoapi.NewOptURI(*u)
	}
	return out, func() string { return queryText(app.Name, q, out) }, nil
}

// execQuery checks, plans and runs a decoded query on app, which the caller may see.
func (s *Service) execQuery(ctx context.Context, app *semantic.App, in *lumoapi.QueryInput) (*query.Query, *query.Plan, *query.Result, error) {
	q, err := query.Analyze(app, request(in))
	if err != nil {
		return nil, nil, nil, queryError(err)
	}
	timeout := s.queryTimeout()
	duck, err := s.columnarFor(ctx, app) // before the query's own timeout: it may wait for the copy
	if err != nil {
		return nil, nil, nil, s.runError(ctx, err, timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	checkDB, checkEngine := query.Querier(s.DB), s.DB.Dialect()
	var values query.ValueSource // each column's own table
	if duck != nil {
		checkDB, checkEngine = duck, sqldialect.DuckDB{}
		values = query.ValueSource{Table: s.Columnar.ValuesOf(app), Held: s.Columnar.Held(ctx, app)}
	}
	if err := query.CheckValues(ctx, checkDB, checkEngine, values, q); err != nil {
		return nil, nil, nil, s.runError(ctx, err, timeout)
	}
	plan, err := query.PlanQuery(q) // after the checks, so its notes quote corrected values
	if err != nil {
		return nil, nil, nil, queryError(err)
	}
	if s.rollupsOn() {
		plan = query.UseRollups(q, plan)
		for _, blk := range plan.Blocks {
			if r := blk.Rollup; r != nil && s.Log != nil {
				s.Log.DebugContext(ctx, "query reads a rollup", "app", app.ID, "rollup", r.Name, "rollup_rows", r.Rows, "fact", r.Fact.Label)
			}
		}
	}
	var db query.Querier = s.DB
	engine := s.DB.Dialect()
	r := query.RendererFor(engine)
	var walk map[*semantic.Column]bool
	if duck != nil {
		db, engine = duck, sqldialect.DuckDB{}
		r = query.RendererFor(engine)
	} else if walk, err = s.distinctWalks(ctx, r, q, plan); err != nil {
		return nil, nil, nil, s.runError(ctx, err, timeout)
	}
	if s.Log != nil {
		s.Log.DebugContext(ctx, "query engine", "app", app.ID, "engine", engine.Name())
	}
	res, err := query.Execute(ctx, db, q, plan, r.Render(q, plan, walk))
	if duck != nil && !app.RowsInFile && isCode(err, query.CodeMemoryLimit) && ctx.Err() == nil {
		// Past the copy's memory: the database holds the same rows and runs it where it fits.
		if s.Log != nil {
			s.Log.WarnContext(ctx, "query past the columnar copy's memory limit; it runs on the database", "app", app.ID)
		}
		r = query.RendererFor(s.DB.Dialect())
		if walk, err = s.distinctWalks(ctx, r, q, plan); err == nil {
			res, err = query.Execute(ctx, s.DB, q, plan, r.Render(q, plan, walk))
		}
	}
	if err != nil {
		return nil, nil, nil, s.runError(ctx, err, timeout)
	}
	for _, t := range query.SubqueryTables(q) { // read by segments and related rows, outside the joins
		switch {
		case t.LoadedAt == nil:
			res.DataAsOf, res.Loaded = nil, false
		case res.Loaded && res.DataAsOf != nil && t.LoadedAt.Before(*res.DataAsOf):
			res.DataAsOf = t.LoadedAt
		}
	}
	return q, plan, res, nil
}

// columnarFor is the columnar copy that answers app's questions; nil when the row store does:
// there is no copy (--columnar off, a build without cgo), or its last sync failed and the
// database holds the same rows. When the copy does not hold app's current import yet, the call
// waits up to the query timeout for the sync Keep runs (woken by the wait), or, under
// ColumnarSyncOnMiss or for an app whose rows only its import's file holds, syncs it itself.
func (s *Service) columnarFor(ctx context.Context, app *semantic.App) (query.Querier, error) {
	c := s.Columnar
	switch {
	case c == nil && app.RowsInFile:
		return nil, ErrRowsInFile
	case c == nil:
		return nil, nil
	case c.Holds(app):
		return c.DB(), nil
	}
	timeout := s.queryTimeout()
	wait, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if s.ColumnarSyncOnMiss || app.RowsInFile {
		db, err := s.syncFor(wait, c, app)
		if err != nil && ctx.Err() == nil && wait.Err() != nil {
			return nil, s.runError(wait, err, timeout)
		}
		return db, err
	}
	err := c.Await(wait, app)
	switch {
	case err == nil:
		return c.DB(), nil
	case errors.Is(err, columnar.ErrReplaced):
		return nil, errReimported
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case wait.Err() != nil:
		return nil, &mcpserver.ToolError{Code: "UNAVAILABLE",
			Message: fmt.Sprintf("Os dados deste app ainda estão sendo copiados para o motor colunar deste servidor (ele acabou de iniciar, ou o app foi importado agora), "+
				"e a espera passou de %s; as respostas saem só da cópia, para que os números não mudem de motor.", durationWords(timeout)),
			Suggestions: []string{"Repita a chamada em alguns segundos."}}
	}
	if s.Log != nil {
		s.Log.DebugContext(ctx, "the columnar copy's last sync failed; the question reads the database", "app", app.ID, "err", err)
	}
	return nil, nil
}

// syncFor syncs c and returns it once it holds app.
func (s *Service) syncFor(ctx context.Context, c *columnar.Store, app *semantic.App) (query.Querier, error) {
	if _, err := c.Sync(ctx, s.DB); err != nil {
		var missing *columnar.MissingFileError
		if errors.As(err, &missing) {
			if s.Log != nil {
				s.Log.ErrorContext(ctx, "an app's rows are in no readable import file", "err", err)
			}
			return nil, &mcpserver.ToolError{Code: "DATA_FILE_MISSING",
				Message: "Os dados deste app estão só no arquivo DuckDB da importação, e esse arquivo não pôde ser lido (" +
					filepath.Base(missing.Path) + "); nenhuma resposta sem ele.",
				Suggestions: []string{"Peça ao administrador que importe o workspace de novo (lumo import), ou restaure o arquivo da importação."}}
		}
		return nil, err
	}
	if !c.Holds(app) {
		return nil, errReimported
	}
	return c.DB(), nil
}

// errReimported answers a call whose app was imported again while it waited for the copy: its
// model is of the import before.
var errReimported = &mcpserver.ToolError{Code: "UNAVAILABLE",
	Message:     "Os dados deste app foram importados de novo enquanto a pergunta esperava; ela não foi respondida.",
	Suggestions: []string{"Repita a chamada: ela lê a importação nova."}}

func (s *Service) queryTimeout() time.Duration {
	if s.QueryTimeout > 0 {
		return s.QueryTimeout
	}
	return DefaultQueryTimeout
}

// ErrRowsInFile is the answer for an app whose rows are in its import's DuckDB file when the
// server reads no columnar store (lumo serve refuses to start so; see store.DB.AppsInFile).
var ErrRowsInFile = &mcpserver.ToolError{Code: "COLUMNAR_REQUIRED",
	Message:     "Os dados deste app estão no arquivo DuckDB da importação, e este servidor roda sem o motor colunar (--columnar off, ou um binário sem cgo).",
	Suggestions: []string{"Peça ao administrador que rode lumo serve com --columnar on (o padrão), num binário com DuckDB."}}

// rollupsOn says whether queries may read rollups: LUMO_ROLLUPS=off (or NoRollups) sends every
// query to the base tables, as when comparing both ways.
func (s *Service) rollupsOn() bool {
	return !s.NoRollups && os.Getenv("LUMO_ROLLUPS") != "off"
}

// distinctWalks picks the count_distinct summaries r counts by a loose index walk: those the
// walk can count (Renderer.WalkColumns) whose values repeat enough, by the same statistics and
// rule as search_values. Other queries read no statistics.
func (s *Service) distinctWalks(ctx context.Context, r query.Renderer, q *query.Query, plan *query.Plan) (map[*semantic.Column]bool, error) {
	cols := r.WalkColumns(q, plan)
	if len(cols) == 0 {
		return nil, nil
	}
	loose, err := values.Reader{DB: s.DB.SQL(), Dialect: s.DB.Dialect()}.WalkLoose(ctx, cols)
	if err != nil {
		return nil, err
	}
	walk := map[*semantic.Column]bool{}
	for i, c := range cols {
		if loose[i] {
			walk[c] = true
		}
	}
	return walk, nil
}

// isCode says whether err is a query error of code.
func isCode(err error, code string) bool {
	var qe *query.Error
	return errors.As(err, &qe) && qe.Code == code
}

func queryError(err error) error {
	var qe *query.Error
	if errors.As(err, &qe) {
		return &mcpserver.ToolError{Code: qe.Code, Message: qe.Message, Suggestions: qe.Suggestions}
	}
	return err
}

func (s *Service) runError(ctx context.Context, err error, timeout time.Duration) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &mcpserver.ToolError{Code: query.CodeTimeout,
			Message:     fmt.Sprintf("A consulta passou de %s e foi cancelada.", durationWords(timeout)),
			Suggestions: []string{"Restrinja os filtros, por exemplo com um intervalo de datas.", "Agrupe por menos colunas."}}
	}
	return queryError(err)
}

func durationWords(d time.Duration) string {
	if d >= time.Second {
		return fmt.Sprintf("%d s", int(d.Seconds()))
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}

func outQuery(appID int64, q *query.Query, plan *query.Plan, res *query.Result) *lumoapi.QueryOutput {
	v := &lumoapi.QueryOutput{AppId: lumoapi.AppId(appID), Rows: make([][]lumoapi.Cell, len(res.Rows)), RowCount: len(res.Rows),
		TotalRows: int(res.Total), DataAsOf: nilTime(res.DataAsOf), FiltersApplied: []string{},
		Columns: make([]lumoapi.QueryOutputResultColumn, 0, len(q.Out))}
	for i, row := range res.Rows {
		v.Rows[i] = cells(row)
	}
	v.Truncated = int64(v.RowCount) < res.Total
	for _, c := range q.Out {
		v.Columns = append(v.Columns, lumoapi.QueryOutputResultColumn{Key: c.Key, Label: c.Label, Type: lumoapi.ColumnType(c.Type), Unit: nilUnit(c.Unit)})
	}
	if len(res.Summary) > 0 {
		sum := make(jsonmap.Numbers, len(res.Summary))
		for k, x := range res.Summary {
			if f, ok := x.(float64); ok {
				sum[k] = &f
			} else {
				sum[k] = nil
			}
		}
		v.Summary = lumoapi.NewOptNumbers(sum)
	}
	for _, p := range append(append([]*query.Pred{}, q.Where...), q.Having...) {
		v.FiltersApplied = append(v.FiltersApplied, p.Words)
	}
	v.Notes = append(append(v.Notes, q.Notes...), plan.Notes...)
	switch {
	case v.RowCount == 0:
		v.Empty = lumoapi.NewOptQueryOutputEmpty(lumoapi.QueryOutputEmptyZeroRows)
	case allZero(q, res):
		v.Empty = lumoapi.NewOptQueryOutputEmpty(lumoapi.QueryOutputEmptyAllZero)
	}
	return v
}

// allZero: the query measures something and every measured value is zero (or unknown).
func allZero(q *query.Query, res *query.Result) bool {
	measured := false
	zero := func(x any) bool { f, ok := x.(float64); return x == nil || ok && f == 0 }
	for i, c := range q.Out {
		if c.Group != nil {
			continue
		}
		measured = true
		for _, row := range res.Rows {
			if !zero(row[i]) {
				return false
			}
		}
		if int64(len(res.Rows)) < res.Total && !zero(res.Summary[c.Key]) {
			return false
		}
	}
	return measured
}

// formatCell renders a result cell for the text.
func formatCell(x lumoapi.Cell, c *query.OutCol) string {
	switch x.Type {
	case lumoapi.NullCell:
		if c.Group != nil {
			return "(em branco)" // the one blank group: no value or the empty text
		}
		return "(vazio)"
	case lumoapi.StringCell:
		if x.String == "" {
			return "(em branco)"
		}
		if c.Group != nil && c.Group.Bucket == "month" {
			return monthText(x.String)
		}
		return x.String
	default:
		v := x.Float64
		if c.Measure != nil && (c.Measure.Agg == "count" || c.Measure.Agg == "count_distinct") {
			return ptbr.Number(v, 0)
		}
		if c.Group != nil && c.Group.Bucket != "" {
			return bucketText(v, c.Group.Bucket)
		}
		return ptbr.Measure(v, c.Unit, c.Scale)
	}
}

// bucketText is a number a date bucket gives, for people: a month of the year or a day of the
// week with its name beside it (3 (mar), 0 (dom)); the structured result keeps the number.
func bucketText(v float64, bucket string) string {
	n := ptbr.Number(v, -1)
	name := ""
	switch bucket {
	case "month_of_year":
		name = ptbr.MonthName(int(v))
	case "day_of_week":
		name = ptbr.WeekdayName(int(v))
	}
	if name == "" || v != float64(int(v)) {
		return n
	}
	return n + " (" + name + ")"
}

// monthText is a month bucket's value (2024-01), for people: jan/2024; the structured result
// keeps 2024-01. A value of another shape stays as it is.
func monthText(v string) string {
	t, err := time.Parse("2006-01", v)
	if err != nil || len(v) != 7 {
		return v
	}
	return ptbr.MonthName(int(t.Month())) + "/" + t.Format("2006")
}

// queryText is query's text: the result, with the compiled query q (labels, units, scales) and
// the app's name.
func queryText(appName string, q *query.Query, v *lumoapi.QueryOutput) string {
	var b strings.Builder
	if v.RowCount == 0 {
		b.WriteString("Nenhum registro para essa combinação de filtros.\n")
	} else {
		fmt.Fprintf(&b, "%s [%d]: %s.\n", appName, v.AppId, ptbr.Count(v.RowCount, "linha", "linhas"))
		var head []string
		for _, c := range q.Out {
			head = append(head, c.Label)
		}
		b.WriteString("| " + strings.Join(head, " | ") + " |\n")
		b.WriteString("|" + strings.Repeat("---|", len(head)) + "\n")
		for _, row := range v.Rows {
			cells := make([]string, len(row))
			for i, x := range row {
				cells[i] = formatCell(x, q.Out[i])
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
		if v.Truncated {
			b.WriteString(rowsText(v) + "\n")
		}
		if totals := totalsText(q, v); len(totals) > 0 {
			b.WriteString("Total de todas as linhas: " + strings.Join(totals, "; ") + ".\n")
		}
		if v.Empty.Or("") == lumoapi.QueryOutputEmptyAllZero {
			b.WriteString("Todos os valores medidos são zero.\n")
		}
	}
	if len(v.FiltersApplied) > 0 {
		b.WriteString("Filtros: " + strings.Join(v.FiltersApplied, "; ") + ".\n")
	}
	if t, ok := v.DataAsOf.Get(); ok {
		b.WriteString("Dados carregados até " + ptbr.DateTime(t) + " (a carga mais antiga entre as tabelas usadas).\n")
	} else {
		b.WriteString("Alguma tabela usada nunca foi carregada; os números podem estar incompletos.\n")
	}
	for _, n := range v.Notes {
		b.WriteString("Nota: " + n + "\n")
	}
	if link, ok := v.Permalink.Get(); ok {
		b.WriteString("Relatório na Aplicação: " + link.String() + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// rowsText is the spec's truncation sentence, for a truncated result.
func rowsText(v *lumoapi.QueryOutput) string {
	if int64(v.TotalRows) > query.TotalCap {
		return fmt.Sprintf("Linhas: %s de mais de %s; as outras existem e não estão aqui.",
			ptbr.Int(int64(v.RowCount)), ptbr.Int(query.TotalCap))
	}
	return fmt.Sprintf("Linhas: %s de %s; as outras %s existem e não estão aqui.",
		ptbr.Int(int64(v.RowCount)), ptbr.Int(int64(v.TotalRows)), ptbr.Int(int64(v.TotalRows-v.RowCount)))
}

// totalsText is "<label> <total>" for each column with a summary.
func totalsText(q *query.Query, v *lumoapi.QueryOutput) []string {
	sum, _ := v.Summary.Get()
	var totals []string
	for _, c := range q.Out {
		if x, ok := sum[c.Key]; ok {
			cell := lumoapi.NewNullCell(struct{}{})
			if x != nil {
				cell = lumoapi.NewFloat64Cell(*x)
			}
			totals = append(totals, c.Label+" "+formatCell(cell, c))
		}
	}
	return totals
}
