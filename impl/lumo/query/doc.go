// Package query compiles a validated lumo query request into a plan over an app's model, and
// the plan into one SQL statement (rows, capped total and summary) of an engine.
//
// The two meet at the plan. Analyze, PlanQuery and UseRollups decide what is computed (blocks,
// joins, filters, which rollup answers a block) and never consult the engine, so the planner's
// rules (rollup choice, multi-fact blocks, blanks, folding, formulas) hold alike on every engine
// and are tested once. A Renderer decides only how the plan is spelled: the statement's shape
// is shared (sql.go, rollup_sql.go), and what an engine writes its own way sits behind the small
// engine interface, one type per engine (render_*.go), so that another engine is one more type
// rather than branches through the compiler. The renderer stays in this package because it
// reads the plan's internals (join aliases, measure partials), which a package boundary would
// turn into API.
//
// Besides SQLite and PostgreSQL there is a DuckDB renderer (render_duckdb.go), for the columnar
// copy of the app data that package columnar keeps and lumo serve queries. It assumes the tables
// the store creates (the same names, a folded copy beside every text column), typed for DuckDB:
// VARCHAR text (compared by bytes), DATE and TIMESTAMP holding the stored wall-clock times
// (never TIMESTAMPTZ, so the session's time zone plays no part), and numbers as
// sqldialect.NumberType types them: DECIMAL(18, scale) where the values are exact decimals,
// DOUBLE elsewhere. DuckDB types DECIMAL(18) * DECIMAL(18) as DECIMAL(18) and fails past it on
// modest values; such a statement is run again with its products in DECIMAL(38) (Statement.wide,
// duckdbEngine.times). A row formula's number literal and a filter's number value are the exact
// DECIMAL of their own digits (duckdbEngine.decimalLiteral), DOUBLE in the wide statement. Sums stay
// exact because DuckDB sums a DECIMAL(18, scale) into a
// DECIMAL(38, scale) in 128-bit integers: NumberType keeps such a column's values within 15
// digits, so no realistic sum nears 38; a multi-fact query's NULL partials stay untyped so the
// blocks' sums and the summary's sum of them remain DECIMAL (render_duckdb.go); and the exact
// result becomes a float64 once, when Execute reads it (cell), rounding to the nearest float64
// of the exact decimal instead of accumulating binary rounding row by row. Its results come
// back with DuckDB's Go types, which Execute takes alongside the row stores'.
// engines_duckdb_test.go (built with cgo) copies the row store's tables (with columnar's own
// copy) into an in-memory DuckDB and requires the row store's answers to every golden request and to the engines
// tests' queries; TestDuckDBComparisonBites breaks the rendered SQL on purpose and requires the
// comparison to catch it.
package query
