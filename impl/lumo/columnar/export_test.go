//go:build cgo

package columnar

import "github.com/lumo-caderninho/mcp/impl/lumo/store"

// ValuesSmallTable lets a test decide which tables count as small (see buildValueTable).
var ValuesSmallTable = &valuesSmallTable

// HeldMax and HeldMaxBytes let a test decide how many values, and bytes, Held holds.
var HeldMax, HeldMaxBytes = &heldMax, &heldMaxBytes

// ValuesTable is valuesTable, for tests.
var ValuesTable = valuesTable

// HalfLimit is halfLimit, for tests.
var HalfLimit = halfLimit

// DirectTables is how many tables sink, an ImportSink, loaded with DuckDB's Parquet reader.
func DirectTables(sink store.DataSink) int { return sink.(*importSink).direct }

// RollupLimit is the share of limit a rollup is built with.
func RollupLimit(limit string) string { return partLimit(limit, rollupShare) }
