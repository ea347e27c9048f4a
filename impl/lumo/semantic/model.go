// Package semantic is the model of a lumo Application: tables, columns, refs, relationships,
// expressions and indicators, as the store loads it for one request.
package semantic

import (
	"strconv"
	"strings"
	"time"
)

// Column types, roles, table kinds.
const (
	TypeString   = "string"
	TypeNumber   = "number"
	TypeDate     = "date"
	TypeDatetime = "datetime"

	RoleDimension = "dimension"
	RoleMeasure   = "measure"
	RoleKey       = "key"

	KindFact      = "fact"
	KindDimension = "dimension"
)

// AppRef names an application briefly (id and name), as catalogue items point at apps.
type AppRef struct {
	ID   int64
	Name string
}

// App is one Application visible to a user, with its full model.
type App struct {
	ID          int64
	Key         string
	Name        string
	Description string  // "" when absent
	Desk        *string // nil = Minha Mesa (a personal copy)
	ClonedFrom  *AppRef
	PublishedAt *time.Time
	// LoadID is the import counter after the import that loaded its data tables and rollups: a
	// copy of them made at another LoadID is stale.
	LoadID int64
	// RowsInFile says the import kept the app's data tables and rollups in its DuckDB file alone:
	// the database holds none of their rows, and only the columnar store reads them.
	RowsInFile bool

	Tables        []*Table
	Relationships []Relationship
	Expressions   []*Expression
	Indicators    []*Indicator
	Rollups       []*Rollup
	Segments      []*Segment
}

// Rollup is a pre-aggregation of a fact table built at import: one row per distinct combination
// of its dimensions and its time bucket, with SUM, COUNT, MIN and MAX of each measure and the
// row count. Its data table's columns are named by position (RollupDim, RollupTime, ...), so two
// dimensions of role-playing copies that share a data column stay apart.
type Rollup struct {
	Name       string
	Fact       *Table
	Dimensions []*Column // of Fact or of tables it reaches many-to-one (by the shortest path)
	Time       *Column   // a date or datetime column, nil for none
	Grain      string    // "month", "day" or "hour" when Time is set
	Measures   []*Column // number columns of Fact
	SQLName    string
	Rows       int64 // rows of the built rollup: the planner picks the smallest that answers
	// Auto marks the rollup lumo proposes for a fact without declared rollups (see
	// workspace.autoRollups): the import leaves out what would make it fail or not pay off. Only
	// the import reads it; the catalogue keeps the built rollup like a declared one.
	Auto bool
}

// Rollup grains.
const (
	GrainMonth = "month"
	GrainDay   = "day"
	GrainHour  = "hour"
)

// Physical column names of a rollup's data table.
func RollupDim(i int) string     { return "d" + itoa(i) }
func RollupDimFold(i int) string { return "d" + itoa(i) + "_f" }
func RollupTime() string         { return "t" }
func RollupSum(i int) string     { return "m" + itoa(i) + "_sum" }
func RollupCount(i int) string   { return "m" + itoa(i) + "_n" }
func RollupMin(i int) string     { return "m" + itoa(i) + "_min" }
func RollupMax(i int) string     { return "m" + itoa(i) + "_max" }
func RollupRows() string         { return "n" }
func itoa(i int) string          { return strconv.Itoa(i) }

// Table is a fact or dimension table of an app. SQLName is the physical table in the store
// (identifiers come only from here, never from a request).
type Table struct {
	ID       int64
	Label    string
	Name     string // physical name in app.yaml
	Kind     string
	LoadedAt *time.Time // nil = never loaded
	SQLName  string
	Rows     int64 // rows of its data table at import, 0 when unknown or empty
	Columns  []*Column
	// CopyOf is the table this one is a role-playing copy of (nil for a table with data of its
	// own): the same data table and columns under another label, with relationships of its own.
	CopyOf *Table
}

// Column is one column of a table. SQLName is the physical column in the store.
type Column struct {
	ID          int64
	Table       *Table
	Name        string // physical name in app.yaml
	Header      string // the column's name in its file or source when it is not Name ("" = Name)
	Label       string
	Type        string
	Role        string
	Unit        string // "" = plain number or text
	Usage       int
	Description string
	Scale       int // most decimals seen in the loaded data (numbers only)
	SQLName     string
	FoldSQLName string // folded copy of a text column ("" when none), for accent/case-insensitive search
	// Formula makes the column a calculated one ("" for a column with data): a row formula over
	// the columns of its table and of the tables it reaches, computed by the query (SQLName and
	// FoldSQLName are then ""). Calc is its tree once BindCalculated has bound it.
	Formula string
	Calc    Formula
	// Exact says a calculated number column's exact result has at most Scale decimals (sums,
	// differences, products and se of exact decimals, no division, average or time of day): the
	// query rounds it to Scale on every engine, so it equals the exact decimal.
	Exact bool
	// Inherited says a role-playing copy's calculated column came from its original, not from the
	// copy's own columns: its formula is resolved from the copy's place, and when it cannot be,
	// BindCalculated leaves it out of the copy (CalcError.LeftOut) instead of refusing the app.
	Inherited bool
	// tables is every table the column reads (its own first), once bound.
	tables []*Table
}

// CopyColumn is the column of copy t standing for column c of its original (nil when t is not a
// copy of c's table, or left c out): the one of the same physical name.
func (t *Table) CopyColumn(c *Column) *Column {
	if t.CopyOf == nil || c.Table != t.CopyOf {
		return nil
	}
	for _, x := range t.Columns {
		if strings.EqualFold(x.Name, c.Name) {
			return x
		}
	}
	return nil
}

// SourceName is the column's name in its file or source table: Header, or else Name.
func (c *Column) SourceName() string {
	if c.Header != "" {
		return c.Header
	}
	return c.Name
}

// Calculated reports whether the column is computed from a formula instead of loaded.
func (c *Column) Calculated() bool { return c.Formula != "" }

// Tables lists the tables a value of c reads: its own and, for a calculated column, those its
// formula reaches through relationships.
func (c *Column) Tables() []*Table {
	if c.tables != nil {
		return c.tables
	}
	return []*Table{c.Table}
}

// Relationship joins From (usually a fact's foreign key) to To (a dimension's key), many rows to
// one: From[i] = To[i] for every pair, all of From in one table and all of To in another. A
// composite relationship has several pairs (a part and a supplier together).
type Relationship struct {
	From, To []*Column
	// Complete: the import found every row of the many side's row on the one side (no blank
	// key, no key matching nothing), so an inner join along it keeps every row a left join does.
	Complete bool
	// Unique: the import found no filled key of the one side in two of its rows, so a join along
	// it repeats no row of the many side.
	Unique bool
}

// FromTable is the table on the many side.
func (r *Relationship) FromTable() *Table { return r.From[0].Table }

// ToTable is the table the relationship reaches.
func (r *Relationship) ToTable() *Table { return r.To[0].Table }

// Expression is a named formula over aggregated columns.
type Expression struct {
	ID      int64
	Label   string
	Formula string
	Unit    string
}

// Indicator is a ready-made query. Items keep the raw query syntax of app.yaml; Problem is set
// when a ref does not resolve (the indicator is listed as invalid, without an example).
type Indicator struct {
	Name        string
	Description string
	Fields      []map[string]any
	Filters     []map[string]any
	Problem     string
}

// Reach lists the tables t reaches following relationships from the many side, each with the
// relationship that reached it first (breadth first: shortest paths, in declaration order); t
// itself maps to nil. The planner joins along these, and imports and checks use the same paths.
func (a *App) Reach(t *Table) map[*Table]*Relationship {
	via := map[*Table]*Relationship{t: nil}
	queue := []*Table{t}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for i := range a.Relationships {
			r := &a.Relationships[i]
			if r.FromTable() == x {
				if _, seen := via[r.ToTable()]; !seen {
					via[r.ToTable()] = r
					queue = append(queue, r.ToTable())
				}
			}
		}
	}
	return via
}
