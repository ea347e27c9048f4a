package lumo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/values"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// DefaultQueryTimeout bounds one query's statements.
const DefaultQueryTimeout = 30 * time.Second

type resultColumnView struct {
	Key   string  `json:"key"`
	Label string  `json:"label"`
	Type  string  `json:"type"`
	Unit  *string `json:"unit"`
}

type queryView struct {
	AppID          int64              `json:"appId"`
	Columns        []resultColumnView `json:"columns"`
	Rows           [][]any            `json:"rows"`
	RowCount       int                `json:"rowCount"`
	TotalRows      int64              `json:"totalRows"`
	Truncated      bool               `json:"truncated"`
	Summary        map[string]any     `json:"summary,omitempty"`
	DataAsOf       *string            `json:"dataAsOf"`
	FiltersApplied []string           `json:"filtersApplied"`
	Empty          string             `json:"empty,omitempty"`
	Notes          []string           `json:"notes,omitempty"`
	Permalink      string             `json:"permalink,omitempty"`
}

// request turns the generated input into the compiler's request.
func request(in *lumoapi.QueryInput) query.Request {
	var r query.Request
	for _, f := range in.Fields {
		r.Fields = append(r.Fields, query.Item{Ref: string(f.Ref), Agg: string(f.Agg.Or("")), Bucket: string(f.Bucket.Or(""))})
	}
	for _, f := range in.Filters {
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

func (s *Service) query(ctx context.Context, req *mcp.CallToolRequest, raw json.RawMessage) (mcpserver.Reply, error) {
	var in lumoapi.QueryInput
	if err := decode(raw, &in); err != nil {
		return mcpserver.Reply{}, err
	}
	app, err := s.visibleApp(ctx, req.Extra, int64(in.AppId))
	if err != nil {
		return mcpserver.Reply{}, err
	}
	q, plan, res, err := s.execQuery(ctx, app, &in)
	if err != nil {
		return mcpserver.Reply{}, err
	}
	view := viewQuery(app.ID, q, plan, res)
	if s.PublicURL != "" {
		if view.Permalink, err = s.permalink(ctx, app.ID, raw); err != nil {
			return mcpserver.Reply{}, err
		}
	}
	return mcpserver.Reply{Text: queryText(app.Name, app.ID, q, view), Structured: view}, nil
}

// execQuery checks, plans and runs a decoded query on app, which the caller may see.
func (s *Service) execQuery(ctx context.Context, app *semantic.App, in *lumoapi.QueryInput) (*query.Query, *query.Plan, *query.Result, error) {
	q, err := query.Analyze(app, request(in))
	if err != nil {
		return nil, nil, nil, queryError(err)
	}
	timeout := s.QueryTimeout
	if timeout <= 0 {
		timeout = DefaultQueryTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := query.CheckValues(ctx, s.DB, s.DB.Dialect(), q); err != nil {
		return nil, nil, nil, s.runError(ctx, err, timeout)
	}
	plan, err := query.PlanQuery(q) // after the checks, so its notes quote corrected values
	if err != nil {
		return nil, nil, nil, queryError(err)
	}
	walk, err := s.distinctWalks(ctx, q, plan)
	if err != nil {
		return nil, nil, nil, s.runError(ctx, err, timeout)
	}
	st := query.Build(q, plan, s.DB.Dialect(), walk)
	res, err := query.Execute(ctx, s.DB, q, plan, st)
	if err != nil {
		return nil, nil, nil, s.runError(ctx, err, timeout)
	}
	return q, plan, res, nil
}

// distinctWalks picks the count_distinct summaries Build counts by a loose index walk: those the
// walk can count (query.WalkColumns) whose values repeat enough, by the same statistics and rule
// as search_values. Other queries read no statistics.
func (s *Service) distinctWalks(ctx context.Context, q *query.Query, plan *query.Plan) (map[*semantic.Column]bool, error) {
	cols := query.WalkColumns(q, plan, s.DB.Dialect())
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

func viewQuery(appID int64, q *query.Query, plan *query.Plan, res *query.Result) queryView {
	v := queryView{AppID: appID, Rows: res.Rows, RowCount: len(res.Rows), TotalRows: res.Total, Summary: res.Summary,
		FiltersApplied: []string{}, Columns: []resultColumnView{}}
	v.Truncated = int64(v.RowCount) < v.TotalRows
	for _, c := range q.Out {
		v.Columns = append(v.Columns, resultColumnView{Key: c.Key, Label: c.Label, Type: c.Type, Unit: nullable(c.Unit)})
	}
	if res.DataAsOf != nil {
		s := ptbr.ISO(*res.DataAsOf)
		v.DataAsOf = &s
	}
	for _, p := range append(append([]*query.Pred{}, q.Where...), q.Having...) {
		v.FiltersApplied = append(v.FiltersApplied, p.Words)
	}
	v.Notes = append(append(v.Notes, q.Notes...), plan.Notes...)
	switch {
	case v.RowCount == 0:
		v.Empty = "zero_rows"
	case allZero(q, res):
		v.Empty = "all_zero"
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

func formatCell(x any, c *query.OutCol) string {
	switch v := x.(type) {
	case nil:
		return "(vazio)"
	case string:
		if v == "" {
			return "(em branco)"
		}
		return v
	case float64:
		if c.Measure != nil && (c.Measure.Agg == "count" || c.Measure.Agg == "count_distinct") {
			return ptbr.Number(v, 0)
		}
		if c.Group != nil && c.Group.Bucket != "" {
			return ptbr.Number(v, -1)
		}
		return ptbr.Measure(v, c.Unit, c.Scale)
	}
	return fmt.Sprint(x)
}

func queryText(appName string, appID int64, q *query.Query, v queryView) string {
	var b strings.Builder
	if v.RowCount == 0 {
		b.WriteString("Nenhum registro para essa combinação de filtros.\n")
	} else {
		fmt.Fprintf(&b, "%s [%d]: %s.\n", appName, appID, ptbr.Count(v.RowCount, "linha", "linhas"))
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
		if v.Empty == "all_zero" {
			b.WriteString("Todos os valores medidos são zero.\n")
		}
	}
	if len(v.FiltersApplied) > 0 {
		b.WriteString("Filtros: " + strings.Join(v.FiltersApplied, "; ") + ".\n")
	}
	if v.DataAsOf != nil {
		t, _ := time.Parse(time.RFC3339, *v.DataAsOf)
		b.WriteString("Dados carregados até " + ptbr.DateTime(t) + " (a carga mais antiga entre as tabelas usadas).\n")
	} else {
		b.WriteString("Alguma tabela usada nunca foi carregada; os números podem estar incompletos.\n")
	}
	for _, n := range v.Notes {
		b.WriteString("Nota: " + n + "\n")
	}
	if v.Permalink != "" {
		b.WriteString("Relatório na Aplicação: " + v.Permalink + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// rowsText is the spec's truncation sentence, for a truncated result.
func rowsText(v queryView) string {
	if v.TotalRows > query.TotalCap {
		return fmt.Sprintf("Linhas: %s de mais de %s; as outras existem e não estão aqui.",
			ptbr.Int(int64(v.RowCount)), ptbr.Int(query.TotalCap))
	}
	return fmt.Sprintf("Linhas: %s de %s; as outras %s existem e não estão aqui.",
		ptbr.Int(int64(v.RowCount)), ptbr.Int(v.TotalRows), ptbr.Int(v.TotalRows-int64(v.RowCount)))
}

// totalsText is "<label> <total>" for each column with a summary.
func totalsText(q *query.Query, v queryView) []string {
	var totals []string
	for _, c := range q.Out {
		if x, ok := v.Summary[c.Key]; ok {
			totals = append(totals, c.Label+" "+formatCell(x, c))
		}
	}
	return totals
}
