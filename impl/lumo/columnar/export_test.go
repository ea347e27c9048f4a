//go:build cgo

package columnar

// ValuesSmallTable lets a test decide which tables count as small (see buildValueTable).
var ValuesSmallTable = &valuesSmallTable

// ValuesTable is valuesTable, for tests.
var ValuesTable = valuesTable

// HalfLimit is halfLimit, for tests.
var HalfLimit = halfLimit
