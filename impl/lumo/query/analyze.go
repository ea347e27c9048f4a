package query

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
)

// Query is a request resolved against an app: every ref bound to a column or expression, every
// value checked and normalised. PlanQuery plans it and a Renderer turns the plan into SQL.
type Query struct {
	App      *semantic.App
	Out      []*OutCol
	Where    []*Pred
	Having   []*Pred
	Order    []OrderSpec
	Limit    int
	Measures []*Measure // distinct aggregates the query computes (fields, having, expressions)
	Notes    []string
	Checks   []*TextCheck
}

// OutCol is one result column.
type OutCol struct {
	Key, Label, Type, Unit string
	Group                  *Target  // grouped column (with bucket), or nil
	Measure                *Measure // aggregate, or nil
	Expr                   *Expr    // expression, or nil
	Scale                  int      // decimals kept when rounding numbers
	item                   Item
}

// Target is a column, possibly cut by a bucket.
type Target struct {
	Col    *semantic.Column
	Bucket string // "" = the raw value
}

// Measure is an aggregate of one column, over the rows meeting Cond when Cond is not nil (an
// expression's onde).
type Measure struct {
	Col  *semantic.Column
	Agg  string
	Cond semantic.Formula
	idx  int
	// condKey is Cond printed, to share one measure among equal conditions; condTables the
	// tables Cond reads.
	condKey    string
	condTables []*semantic.Table
}

// scale is the decimals the measure's values are answered with: none for counts, four more than
// the column's (at least 2) for an average, the column's for the others.
func (m *Measure) scale() int {
	switch m.Agg {
	case "count", "count_distinct":
		return 0
	case "avg":
		return max(m.Col.Scale, 2) + 4
	}
	return m.Col.Scale
}

// exprScale is the decimals an expression's values are answered with.
const exprScale = 6

// tables lists the tables the measure reads: its column's and its condition's.
func (m *Measure) tables() []*semantic.Table {
	return concatTables(m.Col.Tables(), m.condTables)
}

// Expr is an app expression with its aggregates bound to measures.
type Expr struct {
	E    *semantic.Expression
	Tree semantic.Formula
	Aggs map[*semantic.Aggregate]*Measure
}

// Pred is one filter condition: on a Target or a segment (WHERE) or on a measure or expression
// (HAVING).
type Pred struct {
	Target  *Target
	Segment *semantic.Segment // the rows of its table in the segment (Op and Values unset)
	Measure *Measure
	Expr    *Expr
	Op      string
	Values  []any // normalised: strings (text, ISO dates), float64; "" is the blank value
	Words   string
	label   string
	check   *TextCheck
	// Exists, set by PlanQuery, makes a filter on a table no block reaches an existence test:
	// the block's rows whose row of Exists.Of has some row of Exists.Rows meeting the filter (an
	// order with some item of a category), each counted once.
	Exists *semantic.Related
}

// tables lists the tables a WHERE condition reads in the query's row: its target's, or the
// segment's table (the segment's related rows are read by a subquery of their own).
func (p *Pred) tables() []*semantic.Table {
	switch {
	case p.Segment != nil:
		return []*semantic.Table{p.Segment.Table}
	case p.Exists != nil:
		return []*semantic.Table{p.Exists.Of}
	}
	return p.Target.Col.Tables()
}

// OrderSpec orders by a result column.
type OrderSpec struct {
	Col  *OutCol
	Desc bool
}

// TextCheck asks for the values of a text filter (=, in, != or not in) to be checked against the
// column.
type TextCheck struct {
	Col    *semantic.Column
	Values []string
	pred   *Pred
}

// Correct replaces a checked value by the existing one it stands for (case/accent difference).
func (c *TextCheck) Correct(from, to string) {
	for i, v := range c.pred.Values {
		if v == from {
			c.pred.Values[i] = to
		}
	}
	c.pred.Words = c.pred.words()
}

// filterValues counts the values of every filter's list.
func filterValues(filters []Filter) int {
	n := 0
	for _, f := range filters {
		if l, ok := f.Value.([]any); ok {
			n += len(l)
		} else if f.Value != nil {
			n++
		}
	}
	return n
}

// Analyze resolves req against app.
func Analyze(app *semantic.App, req Request) (*Query, error) {
	q := &Query{App: app}
	exprs := map[*semantic.Expression]*Expr{}
	keys := map[string]bool{}
	dateGrouped := false
	for i, f := range req.Fields {
		where := fmt.Sprintf("fields[%d]", i)
		col, err := q.outCol(where, f, exprs)
		if err != nil {
			return nil, err
		}
		if keys[col.Key] {
			return nil, errorf(CodeInvalidField, nil, "%s: %s aparece duas vezes em fields; deixe uma só.", where, f.describe())
		}
		keys[col.Key] = true
		if col.Group != nil && isDate(col.Group.Col) {
			dateGrouped = true
		}
		q.Out = append(q.Out, col)
	}
	if n := filterValues(req.Filters); n > MaxFilterValues {
		return nil, errorf(CodeInvalidFilter, nil, "filters: as listas de valores somam %s valores, acima do limite de %s por consulta; "+
			"divida a pergunta em consultas menores ou troque listas longas por between.", ptbr.Int(int64(n)), ptbr.Int(MaxFilterValues))
	}
	dateRange := false
	for i, f := range req.Filters {
		p, err := q.pred(fmt.Sprintf("filters[%d]", i), f, exprs)
		if err != nil {
			return nil, err
		}
		if p.Segment != nil {
			q.Where = append(q.Where, p)
		} else if p.Target != nil {
			q.Where = append(q.Where, p)
			if b := p.Target.Bucket; isDate(p.Target.Col) && (b == "" || b == "day" || b == "month" || b == "year") {
				dateRange = true
			}
		} else {
			q.Having = append(q.Having, p)
		}
	}
	for _, p := range q.Where {
		if p.Target == nil {
			continue
		}
		if b := p.Target.Bucket; (b == "hour_of_day" || b == "day_of_week") && !dateRange {
			q.Notes = append(q.Notes, fmt.Sprintf("O filtro por %s lê a tabela inteira; combine com um intervalo de datas para uma consulta mais rápida.", bucketWords[b]))
			break
		}
	}
	for i, o := range req.OrderBy {
		var found *OutCol
		for _, c := range q.Out {
			if sameItem(c.item, o.Item, app) {
				found = c
			}
		}
		if found == nil {
			var fields []string
			for _, c := range q.Out {
				fields = append(fields, c.item.describe())
			}
			return nil, errorf(CodeInvalidOrder, fields, "orderBy[%d]: %s não está em fields; a ordenação usa só colunas do resultado (mesma ref, agg e bucket).", i, o.describe())
		}
		q.Order = append(q.Order, OrderSpec{Col: found, Desc: o.Dir == "desc"})
	}
	switch {
	case req.Limit > MaxLimit:
		q.Limit = MaxLimit
		q.Notes = append(q.Notes, fmt.Sprintf("limit %d passou do teto e foi reduzido para %d linhas.", req.Limit, MaxLimit))
	case req.Limit > 0:
		q.Limit = req.Limit
	case dateGrouped:
		q.Limit = DefaultDateLimit
	default:
		q.Limit = DefaultLimit
	}
	return q, nil
}

func sameItem(a, b Item, app *semantic.App) bool {
	if a.Agg != b.Agg || a.Bucket != b.Bucket {
		return false
	}
	ta, errA := app.Resolve(a.Ref)
	tb, errB := app.Resolve(b.Ref)
	return errA == nil && errB == nil && ta == tb
}

func isDate(c *semantic.Column) bool {
	return c.Type == semantic.TypeDate || c.Type == semantic.TypeDatetime
}

func (q *Query) measure(c *semantic.Column, agg string) *Measure {
	return q.condMeasure(c, agg, nil, nil)
}

// condMeasure is measure under a bound condition (nil for none) reading condTables.
func (q *Query) condMeasure(c *semantic.Column, agg string, cond semantic.Formula, condTables []*semantic.Table) *Measure {
	key := ""
	if cond != nil {
		key = cond.String()
	}
	for _, m := range q.Measures {
		if m.Col == c && m.Agg == agg && m.condKey == key {
			return m
		}
	}
	m := &Measure{Col: c, Agg: agg, Cond: cond, idx: len(q.Measures), condKey: key, condTables: condTables}
	q.Measures = append(q.Measures, m)
	return m
}

// checkAgg enforces which aggregates a column takes.
func checkAgg(where string, c *semantic.Column, agg string) error {
	if (agg == "sum" || agg == "avg" || agg == "min" || agg == "max") && c.Type != semantic.TypeNumber {
		return errorf(CodeInvalidField, []string{"count", "count_distinct"},
			"%s: %s é %s; sum, avg, min e max valem só para coluna numérica. Use count ou count_distinct.",
			where, c.Ref(), typeWord(c.Type))
	}
	return nil
}

// checkBucket enforces which buckets a column takes.
func checkBucket(where string, c *semantic.Column, bucket string) error {
	if bucket == "" {
		return nil
	}
	if !isDate(c) {
		return errorf(CodeInvalidField, nil, "%s: bucket vale só para coluna de data, e %s é %s.", where, c.Ref(), typeWord(c.Type))
	}
	if bucket == "hour_of_day" && c.Type == semantic.TypeDate {
		return errorf(CodeInvalidField, []string{"day", "month", "year", "month_of_year", "day_of_week"},
			"%s: hour_of_day só faz sentido em coluna com hora, e %s tem só a data.", where, c.Ref())
	}
	return nil
}

func typeWord(t string) string {
	return map[string]string{"string": "texto", "number": "número", "date": "data", "datetime": "data e hora"}[t]
}

func (q *Query) expr(where string, e *semantic.Expression, cache map[*semantic.Expression]*Expr) (*Expr, error) {
	if x := cache[e]; x != nil {
		return x, nil
	}
	tree, err := semantic.ParseFormula(e.Formula)
	if err != nil {
		return nil, errorf(CodeInvalidField, nil, "%s: a expressão %s não pôde ser lida: %v", where, e.Label, err)
	}
	x := &Expr{E: e, Tree: tree, Aggs: map[*semantic.Aggregate]*Measure{}}
	for _, a := range semantic.FormulaAggregates(tree) {
		c, err := q.App.ResolveColumn(a.Ref)
		if err != nil {
			return nil, refError(where+": expressão "+e.Label, err)
		}
		if a.Where == nil {
			x.Aggs[a] = q.measure(c, a.Func)
			continue
		}
		tables, err := q.App.BindCondition(a.Where, c.Table)
		if err != nil {
			return nil, errorf(CodeInvalidField, nil, "%s: a condição (onde) da expressão %s não vale: %v", where, e.Label, err)
		}
		x.Aggs[a] = q.condMeasure(c, a.Func, a.Where, tables)
	}
	cache[e] = x
	return x, nil
}

func (q *Query) outCol(where string, f Item, exprs map[*semantic.Expression]*Expr) (*OutCol, error) {
	t, err := q.App.Resolve(f.Ref)
	if err != nil {
		return nil, refError(where, err)
	}
	if e := t.Expression; e != nil {
		if f.Agg != "" || f.Bucket != "" {
			return nil, errorf(CodeInvalidField, []string{fmt.Sprintf(`{"ref": %q}`, e.Label)},
				"%s: a expressão %s já é agregada e entra só como {ref}, sem agg nem bucket.", where, e.Label)
		}
		x, err := q.expr(where, e, exprs)
		if err != nil {
			return nil, err
		}
		return &OutCol{Key: fmt.Sprintf("%d_EXP", e.ID), Label: e.Label, Type: semantic.TypeNumber, Unit: e.Unit,
			Expr: x, Scale: exprScale, item: f}, nil
	}
	c := t.Column
	if err := checkBucket(where, c, f.Bucket); err != nil {
		return nil, err
	}
	if f.Agg != "" {
		if f.Bucket != "" {
			return nil, errorf(CodeInvalidField, nil, "%s: use agg ou bucket, não os dois: bucket agrupa a data, agg mede a coluna.", where)
		}
		if err := checkAgg(where, c, f.Agg); err != nil {
			return nil, err
		}
		m := q.measure(c, f.Agg)
		col := &OutCol{Key: fmt.Sprintf("%d_%s", c.ID, aggCodes[f.Agg]), Label: c.Label + " (" + aggWords[f.Agg] + ")",
			Type: semantic.TypeNumber, Measure: m, item: f}
		col.Scale = m.scale()
		switch f.Agg {
		case "count", "count_distinct":
			if c.Type == semantic.TypeString {
				q.Notes = append(q.Notes, fmt.Sprintf("%s: a %s não conta o valor em branco (vazio ou texto vazio).", c.Ref(), aggWords[f.Agg]))
			}
		default:
			col.Unit = c.Unit
		}
		return col, nil
	}
	if c.Type == semantic.TypeNumber && c.Role == semantic.RoleMeasure {
		return nil, errorf(CodeInvalidField, []string{fmt.Sprintf(`{"ref": %q, "agg": "sum"}`, c.Ref())},
			"%s: %s é uma medida numérica e exige agg (sum, avg, min, max, count ou count_distinct).", where, c.Ref())
	}
	bucket := f.Bucket
	key := fmt.Sprintf("%d_AGP", c.ID)
	label := c.Label
	if bucket != "" {
		key += "_" + strings.ToUpper(bucket)
		label += " (" + bucketWords[bucket] + ")"
	} else if isDate(c) {
		bucket = "day"
		label += " (dia)"
		if c.Type == semantic.TypeDatetime {
			q.Notes = append(q.Notes, fmt.Sprintf("%s sem bucket foi agrupada por dia.", c.Ref()))
		}
	}
	col := &OutCol{Key: key, Label: label, Group: &Target{Col: c, Bucket: bucket}, item: f, Scale: c.Scale}
	col.Type, col.Unit = targetType(c, bucket), c.Unit
	if bucket != "" {
		col.Unit = ""
	}
	return col, nil
}

// targetType is the result type of a column cut by a bucket.
func targetType(c *semantic.Column, bucket string) string {
	switch bucket {
	case "":
		return c.Type
	case "day":
		return semantic.TypeDate
	case "year", "month_of_year", "day_of_week":
		return semantic.TypeNumber
	}
	return semantic.TypeString
}

var (
	dateRe     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	dateTimeRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$`)
	monthRe    = regexp.MustCompile(`^\d{4}-\d{2}$`)
	hourRe     = regexp.MustCompile(`^([01]\d|2[0-3]):00$`)
)

func (q *Query) pred(where string, f Filter, exprs map[*semantic.Expression]*Expr) (*Pred, error) {
	if f.Segment != "" {
		return q.segment(where, f)
	}
	t, err := q.App.Resolve(f.Ref)
	if err != nil {
		return nil, refError(where, err)
	}
	p := &Pred{Op: f.Op}
	label := ""
	kind := "number" // value kind expected: number, text, date, datetime, month, hour
	switch {
	case t.Expression != nil:
		if f.Agg != "" || f.Bucket != "" {
			return nil, errorf(CodeInvalidFilter, nil, "%s: a expressão %s entra só como {ref}, sem agg nem bucket.", where, t.Expression.Label)
		}
		if p.Expr, err = q.expr(where, t.Expression, exprs); err != nil {
			return nil, err
		}
		label = t.Expression.Label
	case f.Agg != "":
		if f.Bucket != "" {
			return nil, errorf(CodeInvalidFilter, nil, "%s: use agg ou bucket, não os dois.", where)
		}
		if err := checkAgg(where, t.Column, f.Agg); err != nil {
			return nil, err
		}
		p.Measure = q.measure(t.Column, f.Agg)
		label = t.Column.Label + " (" + aggWords[f.Agg] + ")"
	default:
		c := t.Column
		if err := checkBucket(where, c, f.Bucket); err != nil {
			return nil, err
		}
		p.Target = &Target{Col: c, Bucket: f.Bucket}
		label = c.Label
		if f.Bucket != "" {
			label += " (" + bucketWords[f.Bucket] + ")"
		}
		kind = valueKind(c, f.Bucket)
	}
	if (p.Op == "like" || p.Op == "not like") && kind != "text" {
		return nil, errorf(CodeInvalidFilter, []string{"=", "in", "between"}, "%s: %s vale só para coluna de texto.", where, p.Op)
	}
	if (p.Op == "like" || p.Op == "not like") && p.Target.Col.Calc != nil && !foldable(p.Target.Col.Calc) {
		return nil, errorf(CodeInvalidFilter, []string{"=", "in"}, "%s: %s é uma coluna calculada cujo texto não vem só de textos fixos e colunas de texto, e like procura sem caixa nem acento só nesses; use = ou in com o valor exato.",
			where, p.Target.Col.Ref())
	}
	if err := p.setValues(where, kind, f.Value); err != nil {
		return nil, err
	}
	if p.Op == "like" || p.Op == "not like" {
		if err := checkPattern(where, p.Values[0].(string)); err != nil {
			return nil, err
		}
	}
	p.label = label
	// The values of =, in, != and not in are checked against the column: a value that exists with
	// other case or accents is corrected, one that does not stops the query (a typo in != would
	// exclude nothing, silently).
	listed := p.Op == "=" || p.Op == "in" || p.Op == "!=" || p.Op == "not in"
	if kind == "text" && p.Target.Bucket == "" && listed && !p.Target.Col.Calculated() {
		var vals []string
		for _, v := range p.Values {
			if s := v.(string); s != "" {
				vals = append(vals, s)
			}
		}
		if len(vals) > 0 {
			p.check = &TextCheck{Col: p.Target.Col, Values: vals, pred: p}
			q.Checks = append(q.Checks, p.check)
		}
	}
	if kind == "text" && p.Target.Bucket == "" && listed && p.Target.Col.Calculated() {
		if err := q.checkCalcValues(p); err != nil {
			return nil, err
		}
	}
	p.Words = p.words()
	return p, nil
}

// segment resolves a filter that names a segment: it takes nothing else.
func (q *Query) segment(where string, f Filter) (*Pred, error) {
	if f.Ref != "" || f.Op != "" || f.Value != nil || f.Agg != "" || f.Bucket != "" {
		return nil, errorf(CodeInvalidFilter, []string{fmt.Sprintf(`{"segment": %q}`, f.Segment)},
			"%s: um filtro por segmento leva só segment; para filtrar também por uma coluna, use outro filtro com ref, op e value.", where)
	}
	s := q.App.SegmentByLabel(f.Segment)
	if s == nil {
		var labels []string
		for _, x := range q.App.Segments {
			labels = append(labels, x.Label)
		}
		if len(labels) == 0 {
			return nil, errorf(CodeUnknownRef, nil, "%s: o segmento %q não existe: esta Aplicação não declara segmentos. Filtre por colunas com ref, op e value.", where, f.Segment)
		}
		sim := suggest.Similar(f.Segment, labels, 5)
		msg := fmt.Sprintf("%s: o segmento %q não existe nesta Aplicação.", where, f.Segment)
		if len(sim) > 0 {
			msg += " Segmentos parecidos: " + joinQuoted(sim) + "."
		} else {
			msg += " Segmentos: " + joinQuoted(labels) + "."
			sim = labels[:min(len(labels), 5)]
		}
		return nil, errorf(CodeUnknownRef, sim, "%s", msg)
	}
	p := &Pred{Segment: s, label: s.Label}
	p.Words = p.words()
	return p, nil
}

// checkCalcValues checks the text values of an = or in filter on a calculated column whose
// formula gives only text literals, as CheckValues checks a column with data: a value that
// differs only in case or accents is corrected (and noted), one the formula never gives stops
// the query with the values it gives.
func (q *Query) checkCalcValues(p *Pred) error {
	c := p.Target.Col
	vals, ok := semantic.TextValues(c)
	if !ok {
		return nil
	}
	for i, v := range p.Values {
		s := v.(string)
		if s == "" || slices.Contains(vals, s) {
			continue
		}
		var same []string
		for _, x := range vals {
			if fold.Fold(x) == fold.Fold(s) {
				same = append(same, x)
			}
		}
		if len(same) == 1 {
			p.Values[i] = same[0]
			q.Notes = append(q.Notes, fmt.Sprintf("%s: o valor %q foi lido como %q (diferença de caixa ou acento).", c.Ref(), s, same[0]))
			continue
		}
		return errorf(CodeValueNotFound, suggest.Similar(s, vals, 5), "O valor %q não existe em %s, e a consulta não rodou. A coluna é calculada e dá só os valores %s.",
			s, c.Ref(), joinQuoted(vals))
	}
	return nil
}

// checkPattern enforces the like pattern language: % is any run of characters, _ exactly one,
// and \ makes the next %, _ or \ literal. A \ before anything else, or at the end, is refused
// (the suggestion doubles it), so the pattern means the same on every engine: Render passes it
// folded (which keeps \, % and _ and what follows each) with ESCAPE '\'.
func checkPattern(where, pattern string) error {
	fixed, at := semantic.CheckPattern(pattern)
	if at == 0 {
		return nil
	}
	return errorf(CodeInvalidFilter, []string{fixed},
		`%s.value: no padrão de like, a \ do caractere %d não vem antes de %%, _ ou outra \. Em like, %% é `+
			`qualquer sequência de caracteres, _ é um caractere só, e \%%, \_ e \\ procuram %%, _ e \ literais; `+
			`para procurar uma \, escreva \\.`, where, at)
}

func valueKind(c *semantic.Column, bucket string) string {
	switch bucket {
	case "":
		switch c.Type {
		case semantic.TypeString:
			return "text"
		case semantic.TypeDate:
			return "date"
		case semantic.TypeDatetime:
			return "datetime"
		}
		return "number"
	case "day":
		return "day"
	case "month":
		return "month"
	case "hour_of_day":
		return "hour"
	}
	return "number"
}

// setValues checks the value's shape for the op and normalises it.
func (p *Pred) setValues(where, kind string, v any) error {
	list, isList := v.([]any)
	switch p.Op {
	case "is null", "is not null":
		if v != nil {
			return errorf(CodeInvalidFilter, nil, "%s: %s não leva value; retire-o.", where, p.Op)
		}
		return nil
	case "between", "not between":
		if !isList || len(list) != 2 {
			return errorf(CodeInvalidFilter, []string{`["2026-09-01", "2026-09-30"]`}, "%s: %s recebe uma lista [início, fim] em value.", where, p.Op)
		}
	case "in", "not in":
		if !isList || len(list) == 0 {
			return errorf(CodeInvalidFilter, nil, "%s: %s recebe uma lista com ao menos um valor em value.", where, p.Op)
		}
	default:
		if v == nil {
			return errorf(CodeInvalidFilter, nil, "%s: o operador %s precisa de value.", where, p.Op)
		}
		if isList {
			return errorf(CodeInvalidFilter, []string{"in", "not in"}, "%s: o operador %s recebe um valor só; para uma lista use in ou not in.", where, p.Op)
		}
		list = []any{v}
	}
	for i, e := range list {
		n, err := normalise(kind, e, p.Op)
		if err != nil {
			at := where + ".value"
			if isList {
				at = fmt.Sprintf("%s.value[%d]", where, i)
			}
			return errorf(CodeInvalidFilter, nil, "%s: %v", at, err)
		}
		p.Values = append(p.Values, n)
	}
	if (p.Op == "between" || p.Op == "not between") && (p.Values[0] == "" || p.Values[1] == "") {
		return errorf(CodeInvalidFilter, nil, "%s: between precisa de início e fim preenchidos.", where)
	}
	return nil
}

// normalise checks one value against the kind the target holds. "" (blank) is accepted for =, !=, in, not in.
func normalise(kind string, v any, op string) (any, error) {
	blankOK := op == "=" || op == "!=" || op == "in" || op == "not in"
	if s, ok := v.(string); ok && s == "" {
		if blankOK {
			return "", nil
		}
		return nil, fmt.Errorf("valor vazio só vale com =, !=, in e not in (linhas em branco)")
	}
	switch kind {
	case "number":
		if f, ok := v.(float64); ok {
			return f, nil
		}
		return nil, fmt.Errorf("esperava um número, veio %q", v)
	case "text":
		if s, ok := v.(string); ok {
			return s, nil
		}
		return nil, fmt.Errorf("a coluna é de texto; escreva o valor entre aspas (%q)", strconv.FormatFloat(v.(float64), 'f', -1, 64))
	}
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("esperava um texto no formato %s", kindFormat(kind))
	}
	switch kind {
	case "date", "day":
		if dateRe.MatchString(s) && validDate(s) {
			return s, nil
		}
	case "datetime":
		if dateRe.MatchString(s) && validDate(s) {
			return s, nil
		}
		if dateTimeRe.MatchString(s) && validDate(s[:10]) {
			t, err := time.Parse("2006-01-02 15:04", strings.Replace(s[:16], "T", " ", 1))
			if err == nil {
				sec := "00"
				if len(s) == 19 {
					sec = s[17:]
				}
				return t.Format("2006-01-02 15:04:") + sec, nil
			}
		}
	case "month":
		if monthRe.MatchString(s) && validDate(s+"-01") {
			return s, nil
		}
	case "hour":
		if hourRe.MatchString(s) {
			return s, nil
		}
	}
	return nil, fmt.Errorf("%q não está no formato %s", s, kindFormat(kind))
}

// validDate reports whether s is a calendar day from 0001-01-01: PostgreSQL has no year 0000.
func validDate(s string) bool {
	t, err := time.Parse("2006-01-02", s)
	return err == nil && t.Year() >= 1
}

func kindFormat(kind string) string {
	switch kind {
	case "date", "day":
		return "AAAA-MM-DD (de 0001-01-01 a 9999-12-31)"
	case "datetime":
		return "AAAA-MM-DD ou AAAA-MM-DD HH:mm (de 0001-01-01 a 9999-12-31)"
	case "month":
		return "AAAA-MM (de 0001-01 a 9999-12)"
	case "hour":
		return `"HH:00" (de "00:00" a "23:00")`
	}
	return kind
}
