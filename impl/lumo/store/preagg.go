package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// preGroupBudget bounds the groups an import holds in memory while facts load (about 220 bytes
// each, 66 MB in all): the rollup whose group would pass it is grouped from its fact in SQL
// instead, and its groups return to the budget.
var preGroupBudget = 300_000

// preAgg groups a fact's rows by the columns one rollup's first step groups by (ownColumns, the
// time cut to the grain) while the rows load, on SQLite. SQLite groups by sorting, and sorting
// every fact row once per rollup took most of an import with rollups (10M rows: 79 of 212 s);
// a hash of the groups costs a map lookup per row, on the goroutine that reads the file while
// the other writes. The sums are SQLite's own (Kahan-Babuska-Neumaier) over the same values,
// so the rollup holds what grouping the fact in SQL gives, to the last bits of a sum.
type preAgg struct {
	r        *semantic.Rollup
	own      []*semantic.Column
	keys     []preKey
	measures []int             // positions in a row's arguments, in r.Measures order
	index    map[string]int32  // encoded key → group
	aggs     []preMeasure      // len(measures) per group
	counts   []int64           // rows per group
	rows     int64             // rows seen
	key      []byte            // scratch
	broken   bool              // too many groups or an unexpected value: group in SQL
	budget   *int              // groups the import may still hold
	folded   map[*pColumn]bool // key columns whose folded copy the first step keeps
}

type preKey struct {
	arg   int
	col   *pColumn
	grain string // the rollup's grain when this is its time column
}

// preMeasure is SUM (as SQLite sums doubles), COUNT, MIN and MAX of one measure in one group.
type preMeasure struct {
	sum, err float64
	n        int64
	min, max float64
}

func (m *preMeasure) add(v float64) {
	if m.n == 0 || v < m.min {
		m.min = v
	}
	if m.n == 0 || v > m.max {
		m.max = v
	}
	m.n++
	t := m.sum + v
	if math.Abs(m.sum) > math.Abs(v) {
		m.err += (m.sum - t) + v
	} else {
		m.err += (v - t) + m.sum
	}
	m.sum = t
}

func (m *preMeasure) total() float64 {
	if math.IsInf(m.err, 0) || math.IsNaN(m.err) {
		return m.sum
	}
	return m.sum + m.err
}

// ownColumns are the fact's columns r's first step groups by: r's dimensions and time column on
// the fact, and the keys the fact joins on to reach the tables of the others.
func ownColumns(m *semantic.App, r *semantic.Rollup) []*semantic.Column {
	via := m.Reach(r.Fact)
	var own []*semantic.Column
	add := func(c *semantic.Column) {
		if !slices.Contains(own, c) {
			own = append(own, c)
		}
	}
	var reach func(t *semantic.Table)
	reach = func(t *semantic.Table) {
		if t == r.Fact {
			return
		}
		rel := via[t]
		if rel.FromTable() == r.Fact {
			for _, c := range rel.From {
				add(c)
			}
		}
		reach(rel.FromTable())
	}
	cols := slices.Clone(r.Dimensions)
	if r.Time != nil {
		cols = append(cols, r.Time)
	}
	for _, c := range cols {
		reach(c.Table)
		if c.Table == r.Fact {
			add(c)
		}
	}
	return own
}

// planPreAggs attaches to each loaded fact of a (on SQLite) a preAgg per rollup that will be
// grouped from the fact: not one a finer rollup holds, which is regrouped from that one.
func (im *importer) planPreAggs(a *pApp) {
	if !preaggregate || im.db.Engine() == "postgres" {
		return
	}
	if im.preBudget == nil {
		n := preGroupBudget
		im.preBudget = &n
	}
	for _, r := range a.model.Rollups {
		var fact *pTable
		for _, t := range a.tables {
			if t.t == r.Fact {
				fact = t
			}
		}
		if fact == nil || fact.orig != nil || !fact.hasData() {
			continue
		}
		held := false
		for _, src := range a.model.Rollups {
			held = held || (regroupRollups && holds(src, r))
		}
		if held {
			continue
		}
		p := &preAgg{r: r, own: ownColumns(a.model, r), index: map[string]int32{}, folded: map[*pColumn]bool{}, budget: im.preBudget}
		arg := map[*semantic.Column]int{}
		byCol := map[*semantic.Column]*pColumn{}
		j := 0
		for _, c := range fact.dataCols() {
			arg[c.c], byCol[c.c] = j, c
			j++
			if c.foldName != "" {
				j++
			}
		}
		ok := true
		for _, c := range p.own {
			pc, found := byCol[c]
			if !found {
				ok = false // a calculated column: nothing loaded to group by
				break
			}
			k := preKey{arg: arg[c], col: pc}
			if c == r.Time {
				k.grain = r.Grain
			}
			p.keys = append(p.keys, k)
			p.folded[pc] = pc.foldName != "" && slices.Contains(r.Dimensions, c)
		}
		for _, c := range r.Measures {
			if _, found := byCol[c]; !found {
				ok = false
				break
			}
			p.measures = append(p.measures, arg[c])
		}
		if ok {
			fact.pre = append(fact.pre, p)
		}
	}
}

// add groups one row, given as the arguments of its INSERT (each value stored as it is).
func (p *preAgg) add(args []any) {
	if p.broken {
		return
	}
	k := p.key[:0]
	for _, pk := range p.keys {
		switch v := args[pk.arg].(type) {
		case nil:
			k = append(k, 'n')
		case string:
			if pk.grain != "" {
				v = timeGrainText(pk.col.c.Type, pk.grain, v)
			}
			k = append(k, 's')
			k = binary.AppendUvarint(k, uint64(len(v)))
			k = append(k, v...)
		case float64:
			if v == 0 {
				v = 0 // -0 groups with 0, as in SQL
			}
			k = append(k, 'f')
			k = binary.LittleEndian.AppendUint64(k, math.Float64bits(v))
		default:
			p.drop()
			return
		}
	}
	p.key = k
	g, found := p.index[string(k)]
	if !found {
		if *p.budget == 0 {
			p.drop()
			return
		}
		*p.budget--
		g = int32(len(p.counts))
		p.index[string(k)] = g
		p.counts = append(p.counts, 0)
		p.aggs = append(p.aggs, make([]preMeasure, len(p.measures))...)
	}
	p.counts[g]++
	p.rows++
	ms := p.aggs[int(g)*len(p.measures) : int(g+1)*len(p.measures)]
	for i, a := range p.measures {
		switch v := args[a].(type) {
		case nil:
		case float64:
			ms[i].add(v)
		default:
			p.drop()
			return
		}
	}
}

func (p *preAgg) drop() {
	p.broken = true
	*p.budget += len(p.counts)
	p.index, p.aggs, p.counts = nil, nil, nil
}

// timeGrainText is timeGrain on SQLite over a stored text (see storedTime). It keeps the groups
// few; the second step cuts the time again, so the rollup never rests on it.
func timeGrainText(colType, grain, v string) string {
	if colType == semantic.TypeDate {
		if grain != semantic.GrainMonth || len(v) < 7 {
			return v
		}
		return v[:7] + "-01"
	}
	switch grain {
	case semantic.GrainHour:
		return prefix(v, 13) + ":00:00"
	case semantic.GrainMonth:
		return prefix(v, 7) + "-01 00:00:00"
	}
	return prefix(v, 10) + " 00:00:00"
}

func prefix(s string, n int) string { return s[:min(n, len(s))] }

// writePreAgg stores the groups in a temporary table named name with the columns the first step
// of factColumns gives (the fact's own columns' names, the partial aggregates), for the second
// step to join and regroup, and frees them.
func (im *importer) writePreAgg(ctx context.Context, p *preAgg, name string) error {
	d := im.db.dialect
	var cols []rollupColumn
	for _, k := range p.keys {
		cols = append(cols, rollupColumn{k.col.sqlName, d.ColumnType(k.col.c.Type)})
		if p.folded[k.col] {
			cols = append(cols, rollupColumn{k.col.foldName, d.ColumnType(semantic.TypeString)})
		}
	}
	for i := range p.measures {
		cols = append(cols, measureColumns(d, i)...)
	}
	cols = append(cols, rollupColumn{semantic.RollupRows(), "BIGINT NOT NULL"})
	if _, err := im.tx.ExecContext(ctx, "CREATE TEMP TABLE "+d.QuoteIdent(name)+" ("+strings.Join(columnDefs(d, cols), ", ")+")"); err != nil {
		return fmt.Errorf("grouping rollup %s: %w", p.r.Name, err)
	}
	width := len(cols)
	batch := max(1, min(sqliteBatch, 30000/width))
	args := make([]any, 0, batch*width)
	flush := func(n int) error {
		if n == 0 {
			return nil
		}
		_, err := im.tx.ExecContext(ctx, insertRows(d.QuoteIdent(name), width, n), args...)
		args = args[:0]
		return err
	}
	n := 0
	for key, g := range p.index {
		rest := key
		for _, k := range p.keys {
			var v any
			switch rest[0] {
			case 'n':
				rest = rest[1:]
			case 'f':
				v = math.Float64frombits(binary.LittleEndian.Uint64([]byte(rest[1:9])))
				rest = rest[9:]
			case 's':
				l, w := binary.Uvarint([]byte(rest[1:min(len(rest), 11)]))
				v = rest[1+w : 1+w+int(l)]
				rest = rest[1+w+int(l):]
			}
			args = append(args, v)
			if p.folded[k.col] {
				if s, ok := v.(string); ok {
					args = append(args, fold.Fold(s))
				} else {
					args = append(args, nil)
				}
			}
		}
		for _, m := range p.aggs[int(g)*len(p.measures) : int(g+1)*len(p.measures)] {
			if m.n == 0 {
				args = append(args, nil, int64(0), nil, nil)
			} else {
				args = append(args, m.total(), m.n, m.min, m.max)
			}
		}
		args = append(args, p.counts[g])
		if n++; n == batch {
			if err := flush(n); err != nil {
				return fmt.Errorf("grouping rollup %s: %w", p.r.Name, err)
			}
			n = 0
		}
	}
	if err := flush(n); err != nil {
		return fmt.Errorf("grouping rollup %s: %w", p.r.Name, err)
	}
	p.drop()
	return nil
}

// preGrouped writes r's groups made while its fact loaded to a temporary table and names it, or
// gives "" when there are none to use (PostgreSQL, a role-playing copy, too many groups).
func (im *importer) preGrouped(ctx context.Context, r *semantic.Rollup, fact *pTable) (string, error) {
	var p *preAgg
	for _, q := range fact.pre {
		if q.r == r {
			p = q
		}
	}
	if p == nil || p.broken || fact.rows == nil || p.rows != *fact.rows {
		return "", nil
	}
	name := sqlName("p", fact.id, r.Name, "")
	if err := im.writePreAgg(ctx, p, name); err != nil {
		return "", err
	}
	if onPreaggregated != nil {
		onPreaggregated(r.Name)
	}
	return name, nil
}
