package query

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// Result is what a query returned.
type Result struct {
	Rows     [][]any        // cells: string, float64 or nil, in Out order
	Total    int64          // result rows, counted up to TotalCap+1
	Summary  map[string]any // per key, nil when the query has no measure or no rows
	DataAsOf *time.Time     // oldest load among the tables used; nil when one never loaded
	Loaded   bool           // false when some table was never loaded
}

// Querier runs a read: a *sql.DB, or the store's cache of prepared statements.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// decimalOverflow is DuckDB's refusal of arithmetic past DECIMAL(18), which the statement written
// wide computes: a product, sum or difference ("Overflow in multiplication of DECIMAL(18) (...)"),
// or an operand it widened to a literal's decimals ("Casting value "123456789012345" to type
// DECIMAL(18,4) failed: value is out of range").
func decimalOverflow(err error) bool {
	m := err.Error()
	return strings.Contains(m, "Overflow in ") && strings.Contains(m, " of DECIMAL(18)") ||
		strings.Contains(m, "to type DECIMAL(18,") && strings.Contains(m, "out of range")
}

// Execute runs the statement and shapes the cells: numbers rounded to their column's scale.
func Execute(ctx context.Context, db Querier, q *Query, plan *Plan, st *Statement) (*Result, error) {
	res, err := execute(ctx, db, q, plan, st)
	if err != nil && st.wide != nil && decimalOverflow(err) {
		res, err = execute(ctx, db, q, plan, st.wide())
	}
	if err != nil {
		return nil, engineError(err)
	}
	return res, nil
}

// execute is Execute of one statement; a failed statement's error comes back as the engine
// gave it.
func execute(ctx context.Context, db Querier, q *Query, plan *Plan, st *Statement) (*Result, error) {
	rows, err := db.QueryContext(ctx, st.SQL, st.Args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	n := len(q.Out)
	res := &Result{Rows: [][]any{}}
	dest := make([]any, n+1+len(st.SummaryKeys))
	ptrs := make([]any, len(dest))
	for i := range dest {
		ptrs[i] = &dest[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, overflowError(err, "")
		}
		for i, v := range dest {
			if f, ok := v.(float64); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
				label := ""
				if i < n {
					label = q.Out[i].Label
				}
				return nil, overflowError(nil, label)
			}
		}
		row := make([]any, n)
		for i, c := range q.Out {
			row[i] = cell(dest[i], c)
		}
		res.Rows = append(res.Rows, row)
		if res.Summary == nil {
			res.Total = min(toInt(dest[n]), TotalCap+1)
			if len(st.SummaryKeys) > 0 {
				res.Summary = map[string]any{}
				for i, k := range st.SummaryKeys {
					res.Summary[k] = cell(dest[n+1+i], outByKey(q, k))
				}
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	res.DataAsOf, res.Loaded = dataAsOf(plan)
	return res, nil
}

// engineError is what a failed statement answers: an overflow or DuckDB's memory limit in
// words, any other err as it is.
func engineError(err error) error {
	if OutOfMemory(err) {
		return errorf(CodeMemoryLimit, []string{
			"Restrinja os filtros, por exemplo com um intervalo de datas ou menos valores.",
			"Agrupe por menos colunas, ou por colunas com menos valores diferentes.",
			"Se a pergunta precisa de tudo isso, peça ao administrador um --columnar-memory maior."},
			"A consulta precisou de mais memória do que o motor colunar pode usar (--columnar-memory) e foi interrompida, sem resposta.")
	}
	return overflowError(err, "")
}

// OutOfMemory says whether err is DuckDB's refusal past its memory limit.
func OutOfMemory(err error) bool { return strings.HasPrefix(err.Error(), "Out of Memory Error") }

// overflowError is the answer to a number past float64's range (about 1.8 × 10^308): SQLite's
// SUM and AVG give ±Inf, PostgreSQL's fail with SQLSTATE 22003. On DuckDB a calculation on exact
// decimals (a product of columns in a row formula) fails past DECIMAL's 38 digits with an "Out of
// Range Error: Overflow" (its errors carry no SQLSTATE). Any other err comes back as it is. label
// names the column when known.
func overflowError(err error, label string) error {
	limit := "cerca de 1,8 × 10^308"
	if err != nil {
		var pg interface{ SQLState() string }
		switch {
		case errors.As(err, &pg) && pg.SQLState() == "22003":
		case strings.HasPrefix(err.Error(), "Out of Range Error: Overflow"):
			limit = "38 dígitos num cálculo com decimais exatos"
		default:
			return err
		}
	}
	what := "Um valor calculado"
	if label != "" {
		what = "O valor de " + label
	}
	return errorf(CodeOutOfRange, []string{
		"Filtre as linhas de valores enormes (por exemplo, com < 1e300) ou agrupe por mais colunas, para cada soma juntar menos linhas.",
		"Se os valores estão em unidades pequenas demais, carregue-os numa unidade maior (milhares, milhões)."},
		"%s passou do maior número que a consulta representa (%s), e nenhum resultado foi dado.", what, limit)
}

func outByKey(q *Query, key string) *OutCol {
	for _, c := range q.Out {
		if c.Key == key {
			return c
		}
	}
	return nil
}

// cell normalises a driver value: text as string, numbers as float64 rounded to the column's
// scale. A number comes as int64, float64 or text from SQLite and PostgreSQL; DuckDB gives exact
// numbers (a DECIMAL, a 128-bit integer as *big.Int) as types that print their decimal text,
// which ParseFloat rounds to the nearest float64 once.
func cell(v any, c *OutCol) any {
	switch x := v.(type) {
	case nil:
		return nil
	case []byte:
		v = string(x)
	case time.Time:
		if c.Type == semantic.TypeDatetime {
			return x.Format("2006-01-02 15:04:05")
		}
		return x.Format("2006-01-02")
	}
	if c.Type != semantic.TypeNumber {
		if s, ok := v.(string); ok {
			return s
		}
		return fmt.Sprint(v)
	}
	var f float64
	switch x := v.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	case string, fmt.Stringer:
		p, err := strconv.ParseFloat(fmt.Sprint(x), 64)
		if err != nil {
			return nil
		}
		f = p
	default:
		return nil
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return round(f, c.Scale)
}

// round removes the noise floating-point sums leave below the data's own decimals. It first
// keeps 12 significant digits (never fewer decimals than scale): sums in another order, as a
// rollup's sums of sums, differ only past them, and an exact midpoint (0.0718525 to 6
// decimals) then rounds the same way, away from zero, whatever side the noise fell on.
func round(f float64, scale int) float64 {
	if scale > 10 {
		scale = 10
	}
	if f != 0 && !math.IsInf(f, 0) && !math.IsNaN(f) {
		if d := 11 - int(math.Floor(math.Log10(math.Abs(f)))); d > scale {
			// n holds the 12 digits exactly; the cut to scale is decimal, in integers.
			n, k := int64(math.Round(f*math.Pow10(d))), d-scale
			if k > 18 {
				return 0
			}
			div := int64(1)
			for range k {
				div *= 10
			}
			q, rem := n/div, n%div
			if rem < 0 {
				rem = -rem
			}
			if 2*rem >= div {
				if n < 0 {
					q--
				} else {
					q++
				}
			}
			if q == 0 {
				return 0 // no -0
			}
			return float64(q) / math.Pow10(scale)
		}
	}
	p := math.Pow10(scale)
	r := math.Round(f*p) / p
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return f
	}
	if r == 0 {
		return 0 // no -0
	}
	return r
}

func toInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	case []byte:
		n, _ := strconv.ParseInt(string(x), 10, 64)
		return n
	}
	return 0
}

// dataAsOf is the oldest load among the tables the plan reads.
func dataAsOf(plan *Plan) (*time.Time, bool) {
	var oldest *time.Time
	for _, b := range plan.Blocks {
		tables := []*semantic.Table{b.Base}
		for _, j := range b.Joins {
			tables = append(tables, j.Table)
		}
		for _, t := range tables {
			if t.LoadedAt == nil {
				return nil, false
			}
			if oldest == nil || t.LoadedAt.Before(*oldest) {
				oldest = t.LoadedAt
			}
		}
	}
	return oldest, true
}
