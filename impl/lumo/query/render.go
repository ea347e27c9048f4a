package query

import (
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// Renderer writes a planned query as one SQL statement of its engine.
type Renderer interface {
	// Render compiles the planned query into one statement: grouped rows, HAVING, ORDER BY and
	// LIMIT, the total row count (capped) and the summary are all computed by the database. walk
	// holds the columns of WalkColumns whose statistics favour the loose index walk (nil: none).
	Render(q *Query, plan *Plan, walk map[*semantic.Column]bool) *Statement
	// WalkColumns lists the columns whose count_distinct summary Render can count by a loose
	// walk of their (folded copy NULLS FIRST, value) index, none on an engine without the walk;
	// the caller keeps those whose statistics say the walk is cheaper (see
	// values.Reader.WalkLoose) and passes them to Render.
	WalkColumns(q *Query, plan *Plan) []*semantic.Column
}

// RendererFor is the renderer of the engine d speaks.
func RendererFor(d sqldialect.Dialect) Renderer {
	switch d.Name() {
	case sqldialect.SQLiteName:
		return renderer{sqliteEngine{dialectEngine{d}}}
	case sqldialect.PostgresName:
		return renderer{postgresEngine{dialectEngine{d}}}
	case sqldialect.DuckDBName:
		return renderer{duckdbEngine{dialectEngine: dialectEngine{d}}}
	}
	panic("query: no renderer for engine " + d.Name())
}

// renderer is the one Renderer: it writes the SQL every engine reads alike (sql.go) and asks its
// engine for the rest.
type renderer struct{ e engine }

// engine is what one engine spells its own way in a rendered query.
type engine interface {
	sqldialect.Dialect // bind placeholders and quoted identifiers
	// bucket cuts a date expression by a bucket, to the values sqldialect.Bucket documents.
	bucket(expr, bucket string) string
	// bucketGroup is bucket split for a GROUP BY: the key to group rows by and the bucket's
	// value written over that key.
	bucketGroup(expr, bucket string) (key, value string)
	// nullSafeEq is a = b where NULL equals NULL.
	nullSafeEq(a, b string) string
	// float casts a numeric expression to floating point, so integer counts divide exactly.
	float(expr string) string
	// round rounds a numeric expression to scale decimals (sqldialect.Round).
	round(expr string, scale int) string
	// exact is a calculation on exact decimals whose exact result has scale decimals, as that
	// exact decimal: rounded where numbers are doubles, as it is where they are DECIMAL.
	exact(expr string, scale int) string
	// binary makes text compare and sort by code point.
	binary(expr string) string
	// times is the product of two numeric expressions.
	times(l, r string) string
	// textEnd is the first (or, right, the last) n characters of a text expression.
	textEnd(expr string, n int, right bool) string
	// dayDiff is the days from date b to date a (dates or date-times), a fraction for times apart.
	dayDiff(a, b string) string
	// typed is a bind placeholder of a semantic type (string, number, date, datetime) where the
	// engine cannot tell the type from the context: a literal in a row formula, a date compared
	// with a date column.
	typed(placeholder, typ string) string
	// countDistinct is a scalar subquery counting the distinct non-NULL values of col in the rows
	// of from (" FROM ...") that meet every condition of where.
	countDistinct(col, from string, where []string) string
}

// decorrelator is an engine whose planner turns a correlated EXISTS into a semi-join (NOT EXISTS
// into an anti-join) that reads the related rows once and stops at a key's first match: DuckDB,
// where the LEFT JOIN of the related rows' distinct keys the row stores take costs a hash
// aggregation of every matching related row (TPC-H Q4: 3.8M late line items, 1.4M orders).
type decorrelator interface{ decorrelatesExists() }

// decimalLiterals is an engine that computes on exact decimals, where a number a statement binds
// (a row formula's literal, a filter's value) is better an exact decimal of its own digits than a
// float (see duckdbEngine, builder.decimalArg).
type decimalLiterals interface {
	// decimalLiteral is the SQL type of the number written text (digits, maybe a point and
	// more digits), or "" to type it as a float.
	decimalLiteral(text string) string
}

// escapelessLike is an engine whose LIKE has no escape character unless one is named, and is
// faster without one (see likeEscape).
type escapelessLike interface{ likeWithoutEscape() }

// affixMatcher is an engine with functions that match a text's start, end or part faster than a
// LIKE of a bound pattern, which its planner cannot rewrite as it rewrites a literal pattern into
// them: DuckDB (prefix, suffix, contains; TPC-H Q9's statement 138 -> 118 ms).
type affixMatcher interface{ affixMatch() }

// partialsFilterer is an engine on which an eagerly aggregated block applies the filters on
// aggregated values to the fact's partial rows before joining them, where each partial row is a
// group of the answer (see havingFirst): DuckDB, which otherwise joins and groups every partial
// row to keep a few (TPC-H Q18: 1.5M orders joined to their customers and grouped, 57 kept).
type partialsFilterer interface{ filtersPartials() }

// keptGrouper is an engine with a better test than an EXISTS of null-safe equalities for
// "this row's groups are among f's" (the summary of a count_distinct under a HAVING).
type keptGrouper interface {
	// inKept says the row's group values (values; numeric says which are numbers) are those of
	// some row of f (its columns fGroups).
	inKept(fGroups, values []string, numeric []bool) string
}

// scanGrouper is an engine whose planner may read a whole table through an index on the key of
// a GROUP BY, to skip a sort, and then fetch each row by its position: SQLite, where that makes a
// 1M-row aggregation by a key column 3-4x slower than its scan and sort.
type scanGrouper interface {
	// scanKey is key as a GROUP BY term that no index serves.
	scanKey(key string) string
}

// looseWalker is an engine that can count the distinct values of a text column with a folded
// copy by a loose walk of its (folded copy NULLS FIRST, value) index (see WalkColumns).
type looseWalker interface {
	looseCount(c *semantic.Column) string
}

// dialectEngine takes the spellings sqldialect holds for each engine, shared with the rest of
// lumo; each engine type adds what only a rendered query needs.
type dialectEngine struct{ sqldialect.Dialect }

func (e dialectEngine) bucket(expr, bucket string) string {
	return sqldialect.Bucket(e.Dialect, expr, bucket)
}

func (e dialectEngine) bucketGroup(expr, bucket string) (string, string) {
	return sqldialect.BucketGroup(e.Dialect, expr, bucket)
}

func (dialectEngine) times(l, r string) string { return "(" + l + " * " + r + ")" }

func (dialectEngine) textEnd(expr string, n int, right bool) string {
	if right {
		return "RIGHT(" + expr + ", " + itoa(n) + ")"
	}
	return "LEFT(" + expr + ", " + itoa(n) + ")"
}

func (e dialectEngine) nullSafeEq(a, b string) string { return sqldialect.NullSafeEq(e.Dialect, a, b) }
func (e dialectEngine) float(expr string) string      { return sqldialect.Float(e.Dialect, expr) }
func (e dialectEngine) round(expr string, scale int) string {
	return sqldialect.Round(e.Dialect, expr, scale)
}
func (e dialectEngine) exact(expr string, scale int) string { return e.round(expr, scale) }
func (e dialectEngine) binary(expr string) string           { return sqldialect.Binary(e.Dialect, expr) }
func (e dialectEngine) dayDiff(a, b string) string          { return sqldialect.DayDiff(e.Dialect, a, b) }
