package workspace

import (
	"sort"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/yamldoc"
)

// rollupFile is one entry of app.yaml's rollups.
type rollupFile struct {
	Name       string   `json:"name"`
	Table      string   `json:"table"`
	Dimensions []string `json:"dimensions"`
	Time       *struct {
		Ref   string `json:"ref"`
		Grain string `json:"grain"`
	} `json:"time"`
	Measures []string `json:"measures"`
}

// checkRollups binds the declared rollups to the model (relationships checked): a fact table
// with data of its own, dimensions it reaches many-to-one, a date column and number measures
// of the fact, none calculated (a rollup stores values, and a calculated column has none). A
// date column may be cut by month or day, a date-time also by hour.
func checkRollups(d *yamldoc.Doc, m *semantic.App, list []rollupFile) []*Error {
	var errs []*Error
	names := map[string]int{}
	for ri, fr := range list {
		rp := yamldoc.Path("rollups", ri)
		if first, dup := names[fr.Name]; dup {
			errs = append(errs, d.ErrAt(at(rp, "name"), "o nome %q já é usado por rollups[%d]; cada rollup precisa de um nome próprio", fr.Name, first))
			continue
		}
		names[fr.Name] = ri
		var fact *semantic.Table
		for _, t := range m.Tables {
			if fold.Fold(t.Label) == fold.Fold(fr.Table) {
				fact = t
			}
		}
		switch {
		case fact == nil:
			var labels []string
			for _, t := range m.Tables {
				labels = append(labels, t.Label)
			}
			errs = append(errs, d.ErrAt(at(rp, "table"), "a tabela %q não está em tables; %s", fr.Table, choices(fr.Table, labels, "tabelas", true)))
			continue
		case fact.CopyOf != nil:
			errs = append(errs, d.ErrAt(at(rp, "table"), "a tabela %q é uma cópia (copyOf) de %s; declare o rollup na tabela original", fr.Table, fact.CopyOf.Label))
			continue
		case fact.Kind != semantic.KindFact:
			errs = append(errs, d.ErrAt(at(rp, "table"), "a tabela %q é uma dimensão; um rollup agrega uma tabela de kind fact", fr.Table))
			continue
		}
		reached := m.Reach(fact)
		r := &semantic.Rollup{Name: fr.Name, Fact: fact}
		used := map[*semantic.Column]bool{}
		column := func(field []string, ref string) *semantic.Column {
			c, err := m.ResolveColumn(ref)
			switch {
			case err != nil:
				errs = append(errs, d.ErrAt(field, "%s", refProblem(m, ref, err)))
			case c.Calculated():
				errs = append(errs, d.ErrAt(field, "%s é uma coluna calculada, que não tem valores guardados para o rollup agregar; tire-a do rollup (consultas com ela leem a tabela %s)", c.Ref(), fact.Label))
			case reached[c.Table] == nil && c.Table != fact:
				errs = append(errs, d.ErrAt(field, "%s é da tabela %s, que a tabela %s não alcança pelos relacionamentos; use uma coluna de %s ou de uma tabela ligada a ela", c.Ref(), c.Table.Label, fact.Label, fact.Label))
			case used[c]:
				errs = append(errs, d.ErrAt(field, "%s aparece duas vezes no rollup; deixe uma só", c.Ref()))
			default:
				used[c] = true
				return c
			}
			return nil
		}
		for i, ref := range fr.Dimensions {
			if c := column(at(rp, "dimensions", i), ref); c != nil {
				r.Dimensions = append(r.Dimensions, c)
			}
		}
		if fr.Time != nil {
			field := at(rp, "time", "ref")
			if c := column(field, fr.Time.Ref); c != nil {
				switch {
				case c.Type != semantic.TypeDate && c.Type != semantic.TypeDatetime:
					errs = append(errs, d.ErrAt(field, "%s é %s; time pede uma coluna de data ou de data e hora (ponha colunas de outro tipo em dimensions)", c.Ref(), typeWords[c.Type]))
				case fr.Time.Grain == semantic.GrainHour && c.Type == semantic.TypeDate:
					errs = append(errs, d.ErrAt(at(rp, "time", "grain"), "%s é uma data sem hora, então não corta por hora; use grain: day ou grain: month", c.Ref()))
				default:
					r.Time, r.Grain = c, fr.Time.Grain
				}
			}
		}
		if fr.Measures == nil {
			for _, c := range fact.Columns {
				if c.Role == semantic.RoleMeasure && c.Type == semantic.TypeNumber && !c.Calculated() && !used[c] {
					r.Measures = append(r.Measures, c)
				}
			}
		}
		for i, ref := range fr.Measures {
			field := at(rp, "measures", i)
			c := column(field, ref)
			switch {
			case c == nil:
			case c.Table != fact:
				errs = append(errs, d.ErrAt(field, "%s é da tabela %s; as medidas de um rollup são colunas da própria fato %s", c.Ref(), c.Table.Label, fact.Label))
			case c.Type != semantic.TypeNumber:
				errs = append(errs, d.ErrAt(field, "%s é %s; measures soma colunas numéricas (ponha-a em dimensions para contar seus valores distintos)", c.Ref(), typeWords[c.Type]))
			default:
				r.Measures = append(r.Measures, c)
			}
		}
		m.Rollups = append(m.Rollups, r)
	}
	return errs
}

// Bounds of an automatic rollup.
const (
	autoRollupName = "automatico"
	autoRollupDims = 5
)

// autoRollups proposes a rollup for each fact table with data and no declared rollup: by day of
// its most used date column and by the most used columns (usage) of the fact and of the tables
// it reaches, with every stored measure of the fact. It is a proposal: the import leaves out the
// tables whose key repeats (a declared rollup is refused for that) and drops the rollup when it
// would not be much smaller than the fact, so it never makes an import fail.
func autoRollups(m *semantic.App) {
	declared := map[*semantic.Table]bool{}
	for _, r := range m.Rollups {
		declared[r.Fact] = true
	}
	for _, fact := range m.Tables {
		if fact.Kind != semantic.KindFact || fact.CopyOf != nil || declared[fact] {
			continue
		}
		r := &semantic.Rollup{Name: autoRollupName, Fact: fact, Auto: true}
		for _, c := range fact.Columns {
			if (c.Type == semantic.TypeDate || c.Type == semantic.TypeDatetime) && !c.Calculated() && (r.Time == nil || c.Usage > r.Time.Usage) {
				r.Time, r.Grain = c, semantic.GrainDay
			}
		}
		reach := m.Reach(fact)
		var dims []*semantic.Column
		for _, t := range m.Tables { // in declaration order, so the choice is stable
			if _, ok := reach[t]; !ok {
				continue
			}
			for _, c := range t.Columns {
				if c.Usage > 0 && c.Role != semantic.RoleKey && c.Role != semantic.RoleMeasure && !c.Calculated() &&
					c.Type != semantic.TypeDate && c.Type != semantic.TypeDatetime {
					dims = append(dims, c)
				}
			}
		}
		sort.SliceStable(dims, func(i, j int) bool { return dims[i].Usage > dims[j].Usage })
		r.Dimensions = dims[:min(len(dims), autoRollupDims)]
		for _, c := range fact.Columns {
			if c.Role == semantic.RoleMeasure && c.Type == semantic.TypeNumber && !c.Calculated() {
				r.Measures = append(r.Measures, c)
			}
		}
		if r.Time == nil && len(r.Dimensions) == 0 {
			continue // one row of totals: the planner's single-row queries are cheap anyway
		}
		m.Rollups = append(m.Rollups, r)
	}
}
