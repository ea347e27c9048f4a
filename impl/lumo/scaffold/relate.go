package scaffold

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// A relationship joins a column of one table (from) to a column of another (to) whose values
// are unique, when their names match (the same name, or LOJA_ID and the ID of a table named
// Lojas) and every value of from is one of to's. Then both columns are keys. Relationships into
// dimensions are made first, then the others, each only if no table would then reach another by
// two paths (the import refuses that) or reach itself.

func lower(s string) string { return strings.ToLower(s) }

// joinable are the folded column names a relationship may join on: names in two tables or
// more, and every ID and *_ID (LOJA_ID may join lojas.ID).
func joinable(tables []*Table) map[string]bool {
	count := map[string]int{}
	out := map[string]bool{}
	for _, t := range tables {
		seen := map[string]bool{}
		for _, c := range t.Columns {
			n := lower(c.Name)
			if !seen[n] {
				seen[n] = true
				count[n]++
			}
			if n == "id" || stem(n) != "" {
				out[n] = true
			}
		}
	}
	for n, k := range count {
		if k > 1 {
			out[n] = true
		}
	}
	return out
}

// stem is the table name a key column names: loja for LOJA_ID or ID_LOJA, "" for others.
func stem(name string) string {
	n := lower(name)
	switch {
	case strings.HasSuffix(n, "_id"):
		return strings.TrimSuffix(n, "_id")
	case strings.HasPrefix(n, "id_"):
		return strings.TrimPrefix(n, "id_")
	}
	return ""
}

// candidate is a possible relationship from column fc of from to column tc of to.
type candidate struct {
	from, to *Table
	fc, tc   int
	named    bool // by LOJA_ID → lojas.ID rather than by the same name
	order    int
}

func (c candidate) ref() (string, string) {
	return c.from.Label + "." + c.from.Columns[c.fc].Label, c.to.Label + "." + c.to.Columns[c.tc].Label
}

// relate infers the relationships among tables, and says why the candidates it leaves out are
// left out. The columns of a relationship become keys, and each table's kind follows.
func relate(tables []*Table) (made, declined []Relationship) {
	type note struct {
		c   candidate
		why string
	}
	var valid []candidate
	var notes []note
	order := 0
	for _, f := range tables {
		for fi, fc := range f.Columns {
			for _, d := range tables {
				if d == f {
					continue
				}
				for ti, tc := range d.Columns {
					sameName := lower(fc.Name) == lower(tc.Name) && lower(fc.Name) != "id" // two tables' own ids join nothing
					named := lower(tc.Name) == "id" && stem(fc.Name) != "" && strings.HasPrefix(lower(d.Name), stem(fc.Name))
					if !sameName && !named {
						continue
					}
					c := candidate{from: f, to: d, fc: fi, tc: ti, named: named && !sameName, order: order}
					order++
					if ok, why := c.values(); ok {
						valid = append(valid, c)
					} else if why != "" {
						notes = append(notes, note{c, why})
					}
				}
			}
		}
	}
	for _, c := range valid {
		c.from.Columns[c.fc].Role = "key"
		c.to.Columns[c.tc].Role = "key"
	}
	for _, t := range tables {
		t.Kind = kindOf(t)
	}
	sort.SliceStable(valid, func(i, j int) bool { return valid[i].before(valid[j]) })
	sort.SliceStable(notes, func(i, j int) bool { return notes[i].c.before(notes[j].c) })
	g := graph{order: tables, next: map[*Table][]*Table{}}
	pos := map[*Table]int{}
	for i, t := range tables {
		pos[t] = i
	}
	joined := map[[2]*Column]bool{} // column pairs made or declined, either way round
	madePairs := map[[2]*Column]bool{}
	pair := func(c candidate) [2]*Column {
		a, b := &c.from.Columns[c.fc], &c.to.Columns[c.tc]
		if pos[c.from] > pos[c.to] {
			a, b = b, a
		}
		return [2]*Column{a, b}
	}
	decline := func(c candidate, why string) {
		if !joined[pair(c)] {
			joined[pair(c)] = true
			from, to := c.ref()
			declined = append(declined, Relationship{from, to, why})
		}
	}
	for _, c := range valid {
		if madePairs[pair(c)] {
			continue // the same columns the other way round (both unique): made already
		}
		if path := g.path(c.to, c.from); path != "" {
			decline(c, fmt.Sprintf("fecharia um ciclo: %s já chega a %s (%s)", c.to.Label, c.from.Label, path))
			continue
		}
		if x, p1, p2 := g.second(c.from, c.to); x != nil {
			decline(c, fmt.Sprintf("%s chegaria a %s por dois caminhos (%s e %s), o que o lumo import recusa; fica o primeiro", g.start.Label, x.Label, p1, p2))
			continue
		}
		g.add(c.from, c.to)
		joined[pair(c)], madePairs[pair(c)] = true, true
		from, to := c.ref()
		made = append(made, Relationship{from, to, c.reason()})
		lookup(c.to, c.from)
	}
	for _, n := range notes {
		decline(n.c, n.why)
	}
	return made, declined
}

// lookup makes d, which a relationship from f reaches, a dimension when it reads as a lookup
// table: no date, and no more rows than f. Its numbers (a price, an area) are then attributes to
// group and filter by, not measures: a product list with a price column is not a fact of sales.
// A table with dates (an order header joined by its items) stays a fact.
func lookup(d, f *Table) {
	if d.Kind == "dimension" || d.Rows > f.Rows {
		return
	}
	for _, c := range d.Columns {
		if c.Type == "date" || c.Type == "datetime" {
			return
		}
	}
	for i := range d.Columns {
		if d.Columns[i].Role == "measure" {
			d.Columns[i].Role = "dimension"
		}
	}
	d.Kind = "dimension"
}

// before says whether a is tried before b: into a dimension, from a fact, from the larger table
// into the smaller, by the same name, in the tables' order.
func (a candidate) before(b candidate) bool {
	if (a.to.Kind == "dimension") != (b.to.Kind == "dimension") {
		return a.to.Kind == "dimension"
	}
	if (a.from.Kind == "fact") != (b.from.Kind == "fact") {
		return a.from.Kind == "fact"
	}
	if down, bdown := a.from.Rows > a.to.Rows, b.from.Rows > b.to.Rows; down != bdown {
		return down
	}
	if a.named != b.named {
		return !a.named
	}
	return a.order < b.order
}

// values checks c by the columns' values: ok when to's are unique and hold every one of from's.
// why says, when it is worth saying, why not ("" for columns that are no key at all).
func (c candidate) values() (ok bool, why string) {
	fc, tc := c.from.Columns[c.fc], c.to.Columns[c.tc]
	fk, tk := c.from.keys[c.fc], c.to.keys[c.tc]
	if fk == nil || tk == nil || fk.nonBlank == 0 {
		return false, ""
	}
	keyish := c.named || fc.Role == "key" || tc.Role == "key"
	if fc.Type != tc.Type {
		if !keyish {
			return false, ""
		}
		return false, fmt.Sprintf("%s é %s e %s é %s; para ligá-las, as duas precisam do mesmo tipo", fc.Label, ptbr.ColumnType(fc.Type), tc.Label, ptbr.ColumnType(tc.Type))
	}
	if fc.Type == "number" && !(fk.integral && tk.integral) {
		return false, "" // amounts, not codes
	}
	if tk.over || fk.over {
		return false, fmt.Sprintf("não comparei os valores: mais de %s valores distintos", ptbr.Int(maxKeyValues))
	}
	if !tk.unique() {
		if c.named {
			return false, fmt.Sprintf("%s repete valores em %s, e um relacionamento liga cada linha de %s a uma só de %s", tc.Label, c.to.Label, c.from.Label, c.to.Label)
		}
		return false, ""
	}
	var missing []string
	for v := range fk.set {
		if _, in := tk.set[v]; !in {
			missing = append(missing, v)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		shown := missing[:min(3, len(missing))]
		for i, v := range shown {
			shown[i] = fmt.Sprintf("%q", v)
		}
		return false, fmt.Sprintf("%s de %s não %s em %s (%s)", ptbr.Count(len(missing), "valor", "valores"), c.from.Label,
			ptbr.Plural(len(missing), "está", "estão"), c.to.Label, ptbr.List(shown))
	}
	return true, ""
}

// reason says why c was inferred: its names, and that every value of from is in to.
func (c candidate) reason() string {
	fk := c.from.keys[c.fc]
	why := "mesmo nome"
	if c.named {
		why = fmt.Sprintf("%s aponta para %s pela chave %s", c.from.Columns[c.fc].Name, c.to.Label, c.to.Columns[c.tc].Name)
	}
	n := len(fk.set)
	if n == 1 {
		return fmt.Sprintf("%s, e o único valor de %s está em %s", why, c.from.Label, c.to.Label)
	}
	return fmt.Sprintf("%s, e os %s valores de %s estão em %s", why, ptbr.Int(int64(n)), c.from.Label, c.to.Label)
}

// graph is the relationships made so far, table to tables; start is where second found two paths.
type graph struct {
	order []*Table
	next  map[*Table][]*Table
	start *Table
}

func (g *graph) add(from, to *Table) { g.next[from] = append(g.next[from], to) }

// paths are every path from t, each as the tables after t, depth first.
func (g *graph) paths(t *Table, prefix []*Table, visit func([]*Table)) {
	for _, u := range g.next[t] {
		p := append(append([]*Table(nil), prefix...), u)
		visit(p)
		g.paths(u, p, visit)
	}
}

// path is a path from a to b in words (Vendas → Lojas), "" when b is not reached.
func (g *graph) path(a, b *Table) string {
	out := ""
	g.paths(a, nil, func(p []*Table) {
		if out == "" && p[len(p)-1] == b {
			out = pathWords(a, p)
		}
	})
	return out
}

// second is a table some table would reach by two paths once from → to is added, with both.
func (g *graph) second(from, to *Table) (*Table, string, string) {
	trial := &graph{next: map[*Table][]*Table{}}
	for k, v := range g.next {
		trial.next[k] = append([]*Table(nil), v...)
	}
	trial.add(from, to)
	for _, start := range g.order {
		seen := map[*Table][]*Table{}
		var x *Table
		var p1, p2 []*Table
		trial.paths(start, nil, func(p []*Table) {
			end := p[len(p)-1]
			if x != nil {
				return
			}
			if q, dup := seen[end]; dup {
				x, p1, p2 = end, q, p
				return
			}
			seen[end] = p
		})
		if x != nil {
			g.start = start
			return x, pathWords(start, p1), pathWords(start, p2)
		}
	}
	return nil, "", ""
}

func pathWords(start *Table, p []*Table) string {
	words := []string{start.Label}
	for _, t := range p {
		words = append(words, t.Label)
	}
	return strings.Join(words, " → ")
}
