package bench

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"
)

// How lumo's answer is compared with DuckDB's: the same number of rows (for an answer lumo cuts
// at its 500-row limit, the same total and DuckDB's first rows), and each cell equal: texts
// exactly, dates as YYYY-MM-DD, NULL with NULL, numbers within a relative 1e-9 or within half a
// unit of the 6th decimal, the precision lumo answers averages and expressions at (sums of
// exact decimals come at their own decimals, so they match within 1e-9).
const (
	relTolerance = 1e-9
	absTolerance = 0.5e-6 * (1 + 1e-9)
)

// sqlAnswer runs query on db and reads every row, each value as a number (float64), a text, a
// date (YYYY-MM-DD) or nil.
func sqlAnswer(ctx context.Context, db *sql.DB, query string) ([][]any, error) {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, v := range vals {
			vals[i] = plainValue(v)
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

// plainValue is a database value as a float64, a string or nil.
func plainValue(v any) any {
	switch x := v.(type) {
	case nil, string, float64:
		return x
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	case int:
		return float64(x)
	case float32:
		return float64(x)
	case *big.Int:
		f, _ := new(big.Float).SetInt(x).Float64()
		return f
	case time.Time:
		return x.Format("2006-01-02")
	case []byte:
		return string(x)
	case interface{ Float64() float64 }: // DuckDB's DECIMAL
		return x.Float64()
	}
	return fmt.Sprint(v)
}

// compareAnswers compares lumo's structured answer with DuckDB's rows. compared says what was
// compared ("4 rows", "500 of 1048 rows"); diff is empty when they match, else the first
// difference.
func compareAnswers(lumo map[string]any, want [][]any) (compared, diff string) {
	rows, _ := lumo["rows"].([]any)
	total := len(rows)
	if t, ok := lumo["totalRows"].(float64); ok {
		total = int(t)
	}
	compared = fmt.Sprintf("%d row", len(rows))
	if total != len(rows) {
		compared = fmt.Sprintf("%d of %d row", len(rows), total)
	}
	if total != 1 {
		compared += "s"
	}
	// Where the question has a LIMIT, lumo's total counts the rows before it and DuckDB
	// answers as many as lumo returns; where lumo cuts at its own limit, its total is DuckDB's.
	if len(rows) != len(want) && (total != len(want) || len(rows) > len(want)) {
		return compared, fmt.Sprintf("lumo has %d rows (of %d), DuckDB %d", len(rows), total, len(want))
	}
	for i, r := range rows {
		row, _ := r.([]any)
		if len(row) != len(want[i]) {
			return compared, fmt.Sprintf("row %d: lumo has %d columns, DuckDB %d", i+1, len(row), len(want[i]))
		}
		for j, got := range row {
			if !sameValue(got, want[i][j]) {
				return compared, fmt.Sprintf("row %d, column %d: lumo %v, DuckDB %v", i+1, j+1, show(got), show(want[i][j]))
			}
		}
	}
	return compared, ""
}

func sameValue(got, want any) bool {
	if got == nil || want == nil {
		return got == nil && want == nil
	}
	a, aNum := number(got)
	b, bNum := number(want)
	if aNum && bNum {
		d := math.Abs(a - b)
		return d <= relTolerance*math.Max(math.Abs(a), math.Abs(b)) || d <= absTolerance
	}
	return fmt.Sprint(got) == fmt.Sprint(want)
}

// number is v as a number: a float64, or a text that is one (a year lumo answers as text).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

func show(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
