//go:build cgo

package columnar

import (
	"database/sql/driver"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// A cell turns one column's values, as the row store's driver gives them, into the Go values
// DuckDB's appender takes for the column's type: a string or []byte for VARCHAR, float64 for DOUBLE, int64 for BIGINT, a time.Time in UTC
// for DATE and TIMESTAMP, and for DECIMAL(w, s) the decimal's unscaled integer (an int64, or a
// *big.Int past it), which the appender stores as is.
type cell struct {
	kind  kind
	scale int     // a decimal's
	width int     // a decimal's digits
	pow   float64 // 10^scale
	buf   []byte  // a decimal's text, reused
}

type kind int

const (
	kindText kind = iota
	kindDouble
	kindBigint
	kindDecimal
	kindDate
	kindTimestamp
)

// newCell is the cell for DuckDB's column col.
func newCell(col duckColumn) cell {
	typ := strings.TrimSuffix(col.typ, " NOT NULL")
	switch {
	case typ == "DOUBLE":
		return cell{kind: kindDouble}
	case typ == "BIGINT":
		return cell{kind: kindBigint}
	case typ == "DATE":
		return cell{kind: kindDate}
	case typ == "TIMESTAMP":
		return cell{kind: kindTimestamp}
	case strings.HasPrefix(typ, "DECIMAL("):
		width, _ := strconv.Atoi(strings.TrimPrefix(typ[:strings.IndexByte(typ, ',')], "DECIMAL("))
		return cell{kind: kindDecimal, scale: col.scale, width: width, pow: math.Pow10(col.scale)}
	}
	return cell{kind: kindText}
}

// value is src as the appender's value for c's column, nil for NULL.
func (c *cell) value(src any) (driver.Value, error) {
	if src == nil {
		return nil, nil
	}
	switch c.kind {
	case kindText:
		switch x := src.(type) {
		case string, []byte:
			return x, nil
		case float64:
			return strconv.FormatFloat(x, 'g', -1, 64), nil // the shortest text that reads back as x
		}
		return fmt.Sprint(src), nil
	case kindBigint:
		if x, ok := src.(int64); ok {
			return x, nil
		}
		x, err := number(src)
		if err != nil || x != math.Trunc(x) || math.Abs(x) > 1<<63-1024 {
			return nil, fmt.Errorf("%v is not a BIGINT", src)
		}
		return int64(x), nil
	case kindDate, kindTimestamp:
		return c.time(src)
	}
	x, err := number(src)
	if err != nil || c.kind == kindDouble {
		return x, err
	}
	return c.decimal(x)
}

// number is a row store's number as a float64 (every number is one there).
func number(src any) (float64, error) {
	switch x := src.(type) {
	case float64:
		return x, nil
	case int64:
		return float64(x), nil
	case string:
		return strconv.ParseFloat(x, 64)
	case []byte:
		return strconv.ParseFloat(string(x), 64)
	}
	return 0, fmt.Errorf("%v (%T) is not a number", src, src)
}

// decimal is x's unscaled integer in c's DECIMAL: exactly the digits strconv.FormatFloat(x, 'f',
// scale, 64) writes (the binary value rounded half to even), so the decimal is the one the row
// store's float64 stands for.
func (c *cell) decimal(x float64) (driver.Value, error) {
	// Fast path: x·10^scale is computed within half its ulp, at most |y|·2⁻⁵³; when that and
	// y's distance to the nearest integer stay below one half, the exact product rounds there too.
	y := x * c.pow
	if r := math.Round(y); math.Abs(y) < 1<<53 && math.Abs(y-r)+math.Abs(y)*0x1p-53 < 0.5 {
		return int64(r), nil
	}
	c.buf = strconv.AppendFloat(c.buf[:0], x, 'f', c.scale, 64)
	digits := strings.Replace(string(c.buf), ".", "", 1)
	i, ok := new(big.Int).SetString(digits, 10)
	if !ok || len(strings.TrimLeft(digits, "-0")) > c.width {
		return nil, fmt.Errorf("%s does not fit DECIMAL(%d,%d)", c.buf, c.width, c.scale)
	}
	if i.IsInt64() {
		return i.Int64(), nil
	}
	return i, nil
}

// time is a row store's date or timestamp (ISO text on SQLite, a time.Time on PostgreSQL) as its
// wall clock in UTC, with no time zone conversion: for a DATE the day, for a TIMESTAMP down to the
// second from a time.Time, as PostgreSQL's DATE and TIMESTAMP carry them.
func (c *cell) time(src any) (driver.Value, error) {
	var t time.Time
	switch x := src.(type) {
	case time.Time:
		t = time.Date(x.Year(), x.Month(), x.Day(), x.Hour(), x.Minute(), x.Second(), 0, time.UTC)
	case string:
		return c.parseTime(x)
	case []byte:
		return c.parseTime(string(x))
	default:
		return nil, fmt.Errorf("%v (%T) is not a date", src, src)
	}
	if c.kind == kindDate {
		y, m, d := t.Date()
		t = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	return t, nil
}

// parseTime is an ISO text date or timestamp ("2006-01-02", "2006-01-02 15:04:05", as the import
// stores them, or with a fraction or a T, which DuckDB also reads), as UTC.
func (c *cell) parseTime(s string) (driver.Value, error) {
	layout := "2006-01-02 15:04:05.999999999"
	if len(s) == len("2006-01-02") {
		layout = "2006-01-02"
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		if t, err = time.Parse("2006-01-02T15:04:05.999999999", s); err != nil {
			return nil, fmt.Errorf("%q is not a date", s)
		}
	}
	return c.time(t)
}
