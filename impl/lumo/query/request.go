package query

import (
	"fmt"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// Request is a query as the caller wrote it (already schema-valid).
type Request struct {
	Fields  []Item
	Filters []Filter
	OrderBy []Order
	Limit   int // 0 = default
}

// Item is a field: a ref with an optional aggregate or bucket.
type Item struct {
	Ref, Agg, Bucket string
}

// Filter is one filter. Value is nil (absent), a string, a float64 or a []any of those. A
// filter with Segment names a segment of the app instead (and has nothing else).
type Filter struct {
	Item
	Op      string
	Value   any
	Segment string
}

// Order is one orderBy entry.
type Order struct {
	Item
	Dir string
}

// Limits of the contract.
const (
	DefaultLimit     = 10
	DefaultDateLimit = 31
	MaxLimit         = 500
	TotalCap         = 1_000_000 // totalRows counts up to TotalCap+1
	// MaxFilterValues bounds the values of all filters together: each is a bind parameter, the
	// summary may repeat the filters, and SQLite takes at most 32,766 parameters a statement.
	MaxFilterValues = 5_000
)

// Error is a problem the caller can fix; Code is one of the codes below.
type Error struct {
	Code        string
	Message     string
	Suggestions []string
}

func (e *Error) Error() string { return e.Message }

// Error codes.
const (
	CodeUnknownRef    = "UNKNOWN_REF"
	CodeAmbiguousRef  = "AMBIGUOUS_REF"
	CodeInvalidField  = "INVALID_FIELD"
	CodeInvalidFilter = "INVALID_FILTER"
	CodeInvalidOrder  = "INVALID_ORDER"
	CodeValueNotFound = "VALUE_NOT_FOUND"
	CodeNoJoinPath    = "NO_JOIN_PATH"
	CodeTimeout       = "TIMEOUT"
	CodeOutOfRange    = "OUT_OF_RANGE"
	CodeMemoryLimit   = "MEMORY_LIMIT"
)

func errorf(code string, suggestions []string, format string, args ...any) *Error {
	if suggestions == nil {
		suggestions = []string{}
	}
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Suggestions: suggestions}
}

// refError turns a semantic ref problem into a query error.
func refError(where string, err error) *Error {
	re, ok := err.(*semantic.RefError)
	if !ok {
		return errorf(CodeUnknownRef, nil, "%s: %v", where, err)
	}
	code := CodeUnknownRef
	if re.Kind == semantic.RefAmbiguous {
		code = CodeAmbiguousRef
	}
	return errorf(code, re.Suggestions, "%s: %s", where, re.Error())
}

var aggWords = map[string]string{
	"sum": "soma", "avg": "média", "min": "mínimo", "max": "máximo", "count": "contagem", "count_distinct": "contagem distinta",
}

var aggCodes = map[string]string{
	"sum": "SUM", "avg": "AVG", "min": "MIN", "max": "MAX", "count": "CNT", "count_distinct": "CNTD",
}

var bucketWords = map[string]string{
	"day": "dia", "month": "mês", "year": "ano", "month_of_year": "mês do ano", "hour_of_day": "hora do dia", "day_of_week": "dia da semana",
}

// describe names an item for messages: "Vendas.Data (mês)".
func (it Item) describe() string {
	s := it.Ref
	if it.Agg != "" {
		s += " (" + aggWords[it.Agg] + ")"
	}
	if it.Bucket != "" {
		s += " (" + bucketWords[it.Bucket] + ")"
	}
	return s
}

func quote(s string) string { return "\"" + s + "\"" }

func joinQuoted(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return strings.Join(q, ", ")
}
