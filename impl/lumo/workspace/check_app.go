package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/lumo-caderninho/mcp/impl/platform/yamldoc"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// appFile is app.yaml as its schema describes it.
type appFile struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Tables      []struct {
		Label    string      `json:"label"`
		CopyOf   string      `json:"copyOf"`
		Name     string      `json:"name"`
		Kind     string      `json:"kind"`
		File     string      `json:"file"`
		LoadedAt string      `json:"loadedAt"`
		CSV      *Format     `json:"csv"`
		XLSX     *XLSXFormat `json:"xlsx"`
		Postgres *struct {
			Database string `json:"database"`
			Table    string `json:"table"`
			Query    string `json:"query"`
		} `json:"postgres"`
		Columns []struct {
			Name        string `json:"name"`
			Header      string `json:"header"`
			Label       string `json:"label"`
			Type        string `json:"type"`
			Role        string `json:"role"`
			Unit        string `json:"unit"`
			Usage       int    `json:"usage"`
			Description string `json:"description"`
			Formula     string `json:"formula"`
		} `json:"columns"`
	} `json:"tables"`
	Relationships []struct {
		From refList `json:"from"`
		To   refList `json:"to"`
	} `json:"relationships"`
	Expressions []struct {
		Label   string `json:"label"`
		Formula string `json:"formula"`
		Unit    string `json:"unit"`
	} `json:"expressions"`
	Indicators []struct {
		Name        string           `json:"name"`
		Description string           `json:"description"`
		Fields      []map[string]any `json:"fields"`
		Filters     []map[string]any `json:"filters"`
	} `json:"indicators"`
	Rollups  []rollupFile  `json:"rollups"`
	Segments []segmentFile `json:"segments"`
}

// typeWords names column types in Portuguese.
var typeWords = map[string]string{
	semantic.TypeString:   "texto",
	semantic.TypeNumber:   "número",
	semantic.TypeDate:     "data",
	semantic.TypeDatetime: "data e hora",
}

// source reads the app folder named at srcPath of the workspace document: app.yaml, its model,
// and each CSV header. It returns nil when the folder has errors (they are collected).
func (l *loader) source(ws *yamldoc.Doc, srcPath []string, folder string) *Source {
	file := path.Join(folder, "app.yaml")
	if _, err := fs.Stat(l.fsys, file); err != nil {
		msg := fmt.Sprintf("a pasta %q não tem app.yaml (%v)", folder, err)
		var out *OutsideError
		switch {
		case errors.As(err, &out):
			msg = out.Error()
		case errors.Is(err, fs.ErrNotExist):
			msg = fmt.Sprintf("a pasta %q não tem app.yaml; confira o caminho, relativo ao workspace.yaml", folder)
		}
		l.c.add(ws.ErrAt(srcPath, "%s", msg))
		return nil
	}
	var f appFile
	d, ok := l.readValidated(file, appSchema, &f)
	if !ok {
		return nil
	}
	src := &Source{Dir: folder, File: file}
	m := &semantic.App{Name: f.Name, Description: f.Description}
	src.Model = m
	var errs []*Error

	colPaths := map[*semantic.Column][]string{} // where each column of app.yaml is written
	tableLabels := map[string]int{}
	tableNames := map[string]int{}
	copies := map[int]*semantic.Table{} // by tables index
	for ti, ft := range f.Tables {
		tp := yamldoc.Path("tables", ti)
		if first, dup := tableLabels[fold.Fold(ft.Label)]; dup {
			errs = append(errs, d.ErrAt(at(tp, "label"), "o rótulo %q já é usado por tables[%d]; cada tabela precisa de um rótulo próprio", ft.Label, first))
		}
		tableLabels[fold.Fold(ft.Label)] = ti
		name := ft.Name
		if ft.CopyOf != "" && name == "" {
			name = copyName(ft.Label)
		}
		if first, dup := tableNames[strings.ToLower(name)]; dup {
			field, hint := at(tp, "name"), ""
			if ft.Name == "" {
				field, hint = at(tp, "label"), "; dê à cópia um name próprio"
			}
			errs = append(errs, d.ErrAt(field, "o nome físico %q já é usado por tables[%d]; cada tabela precisa de um nome próprio%s", name, first, hint))
		}
		tableNames[strings.ToLower(name)] = ti
		if ft.CopyOf != "" {
			t := &semantic.Table{Label: ft.Label, Name: name}
			copies[ti] = t
			m.Tables = append(m.Tables, t)
			src.Files = append(src.Files, "")
			src.Formats = append(src.Formats, Format{})
			src.Postgres = append(src.Postgres, nil)
			continue
		}
		t := &semantic.Table{Label: ft.Label, Name: ft.Name, Kind: ft.Kind, LoadedAt: parseTime(ft.LoadedAt)}
		colNames, headers := map[string]int{}, map[string]int{}
		for ci, fc := range ft.Columns {
			if first, dup := colNames[strings.ToLower(fc.Name)]; dup {
				errs = append(errs, d.ErrAt(at(tp, "columns", ci, "name"), "o nome físico %q já é usado por tables[%d].columns[%d]; cada coluna da tabela precisa de um nome próprio", fc.Name, ti, first))
			}
			colNames[strings.ToLower(fc.Name)] = ci
			if fc.Header != "" && fc.Formula != "" {
				errs = append(errs, d.ErrAt(at(tp, "columns", ci, "header"), "uma coluna calculada não vem do arquivo e não tem header; remova header ou formula"))
			}
			if fc.Formula == "" {
				source := fc.Name
				if fc.Header != "" {
					source = fc.Header
				}
				if first, dup := headers[source]; dup {
					errs = append(errs, d.ErrAt(at(tp, "columns", ci), "a coluna %q do arquivo já é lida por tables[%d].columns[%d]; cada coluna do arquivo vira uma coluna só", source, ti, first))
				}
				headers[source] = ci
			}
			role := fc.Role
			if role == "" {
				role = semantic.RoleDimension
			}
			c := &semantic.Column{Table: t, Name: fc.Name, Header: fc.Header, Label: fc.Label, Type: fc.Type,
				Role: role, Unit: fc.Unit, Usage: fc.Usage, Description: fc.Description, Formula: strings.TrimSpace(fc.Formula)}
			if fc.Formula != "" && c.Formula == "" {
				errs = append(errs, d.ErrAt(at(tp, "columns", ci, "formula"), "a fórmula está em branco; escreva a conta, como [Preço] * (1 - [Desconto]), ou remova formula"))
			}
			colPaths[c] = at(tp, "columns", ci)
			t.Columns = append(t.Columns, c)
		}
		m.Tables = append(m.Tables, t)

		csv := ""
		var format Format
		if ft.CSV != nil {
			format = *ft.CSV
			if ft.File == "" && ft.Postgres == nil {
				errs = append(errs, d.ErrAt(at(tp, "csv"), "a tabela não tem file, então não há CSV para ler; informe file ou remova csv"))
			}
		}
		if ft.XLSX != nil {
			format.XLSX = *ft.XLSX
			if ft.File == "" && ft.Postgres == nil {
				errs = append(errs, d.ErrAt(at(tp, "xlsx"), "a tabela não tem file, então não há planilha para ler; informe file ou remova xlsx"))
			}
		}
		var pg *PostgresTable
		switch {
		case ft.Postgres != nil:
			for _, f := range []struct {
				set   bool
				field string
			}{{ft.CSV != nil, "csv"}, {ft.XLSX != nil, "xlsx"}, {ft.LoadedAt != "", "loadedAt"}} {
				if f.set {
					errs = append(errs, d.ErrAt(at(tp, f.field), "a tabela vem do banco em postgres, então %s não se aplica (a hora da leitura é o loadedAt); remova %s", f.field, f.field))
				}
			}
			db := l.databases[ft.Postgres.Database]
			if db == nil {
				names := make([]string, 0, len(l.databases))
				for n := range l.databases {
					names = append(names, n)
				}
				sort.Strings(names)
				errs = append(errs, d.ErrAt(at(tp, "postgres", "database"), "o banco %q não está em databases do workspace.yaml; %s", ft.Postgres.Database, choices(ft.Postgres.Database, names, "bancos", false)))
				break
			}
			pg = &PostgresTable{Database: db, Table: ft.Postgres.Table, Query: strings.TrimSpace(ft.Postgres.Query)}
			if strings.HasSuffix(pg.Query, ";") {
				errs = append(errs, d.ErrAt(at(tp, "postgres", "query"), "a consulta termina em ponto e vírgula; tire-o (ela é lida como um SELECT só)"))
			}
		case ft.File != "":
			csv = path.Join(folder, ft.File)
			// "." is the app's folder itself, a Parquet table whose parts sit beside app.yaml.
			if !fs.ValidPath(csv) || (folder != "." && csv != folder && !strings.HasPrefix(csv, folder+"/")) {
				errs = append(errs, d.ErrAt(at(tp, "file"), "o arquivo %q fica fora da pasta da Aplicação; use um caminho relativo ao app.yaml", ft.File))
				csv = ""
				break
			}
			var out *OutsideError
			if st, err := fs.Stat(l.fsys, csv); errors.As(err, &out) {
				errs = append(errs, d.ErrAt(at(tp, "file"), "%s", out.Error()))
				csv = ""
				break
			} else if err != nil {
				errs = append(errs, d.ErrAt(at(tp, "file"), "o arquivo %q não existe; confira o nome, relativo ao app.yaml, ou remova file se a tabela nunca foi carregada", csv))
				csv = ""
				break
			} else {
				kind := FileKind(csv, st.IsDir())
				if ft.CSV != nil && kind != KindCSV {
					errs = append(errs, d.ErrAt(at(tp, "csv"), "o arquivo %q não é CSV, então csv não se aplica; remova csv", ft.File))
					break
				}
				if ft.XLSX != nil && kind != KindXLSX {
					errs = append(errs, d.ErrAt(at(tp, "xlsx"), "o arquivo %q não é uma planilha .xlsx, então xlsx não se aplica; remova xlsx", ft.File))
					break
				}
			}
			rows, err := OpenRows(l.fsys, csv, t, format)
			if err != nil {
				errs = append(errs, asErrors(err)...)
				break
			}
			rows.Close()
		case ft.LoadedAt != "":
			errs = append(errs, d.ErrAt(at(tp, "loadedAt"), "a tabela não tem file, então nunca foi carregada; informe file ou remova loadedAt"))
		}
		src.Files = append(src.Files, csv)
		src.Formats = append(src.Formats, format)
		src.Postgres = append(src.Postgres, pg)
	}

	for ti, ft := range f.Tables {
		if t := copies[ti]; t != nil {
			errs = append(errs, fillCopy(d, m, yamldoc.Path("tables", ti), t, ft.CopyOf, ft.Columns, copies, colPaths)...)
		}
	}

	for ti, t := range m.Tables {
		if copies[ti] == nil {
			continue
		}
		for _, c := range t.Columns {
			if c.Calculated() && colPaths[c] == nil {
				colPaths[c] = yamldoc.Path("tables", ti)
			}
		}
	}
	relErrs := false
	for ri, fr := range f.Relationships {
		if r, rerrs := checkRelationship(d, m, yamldoc.Path("relationships", ri), fr.From, fr.To); len(rerrs) > 0 {
			errs = append(errs, rerrs...)
			relErrs = true
		} else {
			m.Relationships = append(m.Relationships, r)
		}
	}
	if !relErrs {
		errs = append(errs, checkPaths(d, m)...)
	}
	if !relErrs {
		for _, ce := range m.BindCalculated() {
			cp := colPaths[ce.Column]
			if ce.LeftOut {
				t := ce.Column.Table
				src.Notes = append(src.Notes, d.ErrAt(cp, "a cópia %s deixa de fora a coluna calculada %s de %s: a fórmula dela não se resolve a partir de %s (%v); para tê-la na cópia, declare em columns da cópia {name: %s, formula: ...} com uma fórmula que se resolva a partir de %s",
					t.Label, ce.Column.Label, t.CopyOf.Label, t.Label, ce.Err, ce.Column.Name, t.Label).Error())
				continue
			}
			if len(cp) > 0 && cp[len(cp)-1] != "formula" && !ce.Column.Inherited {
				cp = at(cp, "formula")
			}
			msg := "a fórmula da coluna calculada %s não pôde ser usada: %v"
			errs = append(errs, d.ErrAt(cp, msg, ce.Column.Ref(), ce.Err))
		}
	}

	exprLabels := map[string]int{}
	for ei, fe := range f.Expressions {
		if first, dup := exprLabels[fold.Fold(fe.Label)]; dup {
			errs = append(errs, d.ErrAt(yamldoc.Path("expressions", ei, "label"), "o rótulo %q já é usado por expressions[%d]; cada expressão precisa de um rótulo próprio", fe.Label, first))
		}
		exprLabels[fold.Fold(fe.Label)] = ei
		m.Expressions = append(m.Expressions, &semantic.Expression{Label: fe.Label, Formula: fe.Formula, Unit: fe.Unit})
	}
	for ei, fe := range f.Expressions {
		fp := yamldoc.Path("expressions", ei, "formula")
		formula, err := semantic.ParseFormula(fe.Formula)
		if err != nil {
			errs = append(errs, d.ErrAt(fp, "a fórmula não pôde ser lida: %v", err))
			continue
		}
		for _, a := range semantic.FormulaAggregates(formula) {
			c, err := m.ResolveColumn(a.Ref)
			if err != nil {
				errs = append(errs, d.ErrAt(fp, "posição %d: %s", a.Position, refProblem(m, a.Ref, err)))
				continue
			}
			if a.Func != "count" && a.Func != "count_distinct" && c.Type != semantic.TypeNumber {
				errs = append(errs, d.ErrAt(fp, "posição %d: %s só vale para coluna numérica, e %s é %s; use count ou count_distinct, ou outra coluna",
					a.Position, a.Func, c.Ref(), typeWords[c.Type]))
			}
			if a.Where != nil && (!c.Calculated() || c.Calc != nil) {
				if _, err := m.BindCondition(a.Where, c.Table); err != nil {
					errs = append(errs, d.ErrAt(fp, "a condição (onde) de %s([%s]): %v", a.Func, a.Ref, err))
				}
			}
		}
	}

	if !relErrs {
		errs = append(errs, checkSegments(d, m, f.Segments)...)
		errs = append(errs, checkRollups(d, m, f.Rollups)...)
		if f.Rollups == nil || len(f.Rollups) > 0 { // rollups: [] turns the automatic ones off
			autoRollups(m)
		}
	}

	for _, fi := range f.Indicators {
		ind := &semantic.Indicator{Name: fi.Name, Description: fi.Description, Fields: fi.Fields, Filters: fi.Filters}
		for _, item := range append(append([]map[string]any(nil), fi.Fields...), fi.Filters...) {
			ref, _ := item["ref"].(string)
			if _, err := m.Resolve(ref); err != nil {
				ind.Problem = err.Error()
				break
			}
		}
		m.Indicators = append(m.Indicators, ind)
	}

	l.c.add(errs...)
	if len(errs) > 0 {
		return nil
	}
	return src
}

// copyColumn is how app.yaml may relabel a column of a role-playing copy, or declare a
// calculated column of the copy's own (formula).
type copyColumn = struct {
	Name        string `json:"name"`
	Header      string `json:"header"`
	Label       string `json:"label"`
	Type        string `json:"type"`
	Role        string `json:"role"`
	Unit        string `json:"unit"`
	Usage       int    `json:"usage"`
	Description string `json:"description"`
	Formula     string `json:"formula"`
}

// copyName is the default physical name of a role-playing copy: its label folded, every run of
// other characters as one _, cut to 63 characters ("Nação do cliente" is nacao_do_cliente).
func copyName(label string) string {
	var b strings.Builder
	under := false
	for _, r := range fold.Fold(label) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	name := strings.TrimRight(b.String(), "_")
	if name == "" || (name[0] >= '0' && name[0] <= '9') {
		name = "t_" + name
	}
	if len(name) > 63 {
		name = strings.TrimRight(name[:63], "_")
	}
	return name
}

// fillCopy makes t (tables entry at tp) a role-playing copy of the table labelled copyOf: its
// kind, load time and columns (its calculated ones marked Inherited), relabelled where columns
// says, and the calculated columns columns declares for the copy itself (with formula: a new
// name, or the name of an inherited calculated column to resolve it from the copy's place).
// colPaths gets where each column columns declares is written.
func fillCopy(d *yamldoc.Doc, m *semantic.App, tp []string, t *semantic.Table, copyOf string, columns []copyColumn, copies map[int]*semantic.Table, colPaths map[*semantic.Column][]string) []*Error {
	var orig *semantic.Table
	var names []string
	isCopy := map[*semantic.Table]bool{}
	for _, c := range copies {
		isCopy[c] = true
	}
	for _, o := range m.Tables {
		if isCopy[o] {
			if o != t && fold.Fold(o.Label) == fold.Fold(copyOf) {
				return []*Error{d.ErrAt(at(tp, "copyOf"), "%q já é uma cópia; copie a tabela com dados que ela copia", copyOf)}
			}
			continue
		}
		names = append(names, o.Label)
		if fold.Fold(o.Label) == fold.Fold(copyOf) {
			orig = o
		}
	}
	if orig == nil {
		if fold.Fold(t.Label) == fold.Fold(copyOf) {
			return []*Error{d.ErrAt(at(tp, "copyOf"), "a tabela não pode ser cópia de si mesma; copyOf leva o rótulo de outra tabela, com dados: %s", strings.Join(names, ", "))}
		}
		return []*Error{d.ErrAt(at(tp, "copyOf"), "a tabela %q não existe; copyOf leva o rótulo de uma tabela com dados: %s", copyOf, strings.Join(names, ", "))}
	}
	t.CopyOf, t.Kind, t.LoadedAt = orig, orig.Kind, orig.LoadedAt
	byName := map[string]*semantic.Column{}
	for _, oc := range orig.Columns {
		c := *oc
		c.Table = t
		c.Inherited = c.Calculated()
		t.Columns = append(t.Columns, &c)
		byName[strings.ToLower(c.Name)] = &c
	}
	var errs []*Error
	seen := map[string]int{}
	for ci, fc := range columns {
		cp := at(tp, "columns", ci)
		if first, dup := seen[strings.ToLower(fc.Name)]; dup {
			errs = append(errs, d.ErrAt(at(cp, "name"), "a coluna %q já está em columns[%d]; liste cada coluna uma vez", fc.Name, first))
			continue
		}
		seen[strings.ToLower(fc.Name)] = ci
		formula := strings.TrimSpace(fc.Formula)
		if fc.Formula != "" && formula == "" {
			errs = append(errs, d.ErrAt(at(cp, "formula"), "a fórmula está em branco; escreva a conta, como [Preço] * (1 - [Desconto]), ou remova formula"))
			continue
		}
		c := byName[strings.ToLower(fc.Name)]
		switch {
		case c == nil && formula == "":
			var cols []string
			for _, oc := range orig.Columns {
				cols = append(cols, oc.Name)
			}
			errs = append(errs, d.ErrAt(at(cp, "name"), "a tabela %s não tem a coluna %q; use o nome físico de uma coluna dela (%s) ou, para uma coluna calculada própria da cópia, informe label, type e formula",
				orig.Label, fc.Name, strings.Join(cols, ", ")))
		case c == nil:
			var missing []string
			if fc.Label == "" {
				missing = append(missing, "label")
			}
			if fc.Type == "" {
				missing = append(missing, "type")
			}
			if len(missing) > 0 {
				label, typ := fc.Label, fc.Type
				if label == "" {
					label = "Rótulo"
				}
				if typ == "" {
					typ = "number"
				}
				errs = append(errs, d.ErrAt(cp, "a coluna calculada %s é própria da cópia (%s não tem essa coluna) e precisa de label e type; informe %s, como {name: %s, label: %s, type: %s, formula: %q}",
					fc.Name, orig.Label, strings.Join(missing, " e "), fc.Name, label, typ, formula))
				continue
			}
			role := fc.Role
			if role == "" {
				role = semantic.RoleDimension
			}
			nc := &semantic.Column{Table: t, Name: fc.Name, Label: fc.Label, Type: fc.Type, Role: role, Unit: fc.Unit,
				Usage: fc.Usage, Description: fc.Description, Formula: formula}
			t.Columns = append(t.Columns, nc)
			byName[strings.ToLower(nc.Name)] = nc
			colPaths[nc] = cp
		case formula != "" && !c.Calculated():
			errs = append(errs, d.ErrAt(at(cp, "formula"), "%s é uma coluna com dados de %s, que a cópia lê como estão; para uma coluna calculada própria da cópia, dê a ela um name que %s não use",
				c.Name, orig.Label, orig.Label))
		default:
			if formula == "" {
				for _, f := range []struct {
					set   bool
					field string
				}{{fc.Type != "", "type"}, {fc.Role != "", "role"}, {fc.Unit != "", "unit"}, {fc.Usage != 0, "usage"}} {
					if f.set {
						errs = append(errs, d.ErrAt(at(cp, f.field), "a coluna %s vem de %s como está, e numa cópia %s só se declara com formula (uma coluna calculada da cópia); remova %s", c.Name, orig.Label, f.field, f.field))
					}
				}
			} else { // an inherited calculated column, resolved from the copy's place by a formula of its own
				c.Formula, c.Inherited = formula, false
				if fc.Type != "" {
					c.Type = fc.Type
				}
				if fc.Role != "" {
					c.Role = fc.Role
				}
				if fc.Unit != "" {
					c.Unit = fc.Unit
				}
				if fc.Usage != 0 {
					c.Usage = fc.Usage
				}
				colPaths[c] = cp
			}
			if fc.Label != "" {
				c.Label = fc.Label
			}
			if fc.Description != "" {
				c.Description = fc.Description
			}
		}
	}
	return errs
}

// checkPaths refuses an app where some table reaches another by two relationship paths (of any
// lengths): a query joining them could not tell which one is meant, and the choice would hang on
// the order relationships are written in. Each table is walked breadth first; a relationship into
// a table already reached, other than one closing a cycle back through it, is a second path. The
// error is at that relationship (relationships[i]), naming both paths and the fix: one role-playing
// copy of the table per path. m.Relationships must be app.yaml's, one for one.
func checkPaths(d *yamldoc.Doc, m *semantic.App) []*Error {
	var errs []*Error
	reported := map[int]bool{}
	for _, base := range m.Tables {
		parent := map[*semantic.Table]int{base: -1} // relationship index that reached each table
		queue := []*semantic.Table{base}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for ri := range m.Relationships {
				r := &m.Relationships[ri]
				if r.FromTable() != x {
					continue
				}
				u := r.ToTable()
				if _, seen := parent[u]; !seen {
					parent[u] = ri
					queue = append(queue, u)
					continue
				}
				if reported[ri] || onPath(m, parent, x, u) {
					continue
				}
				reported[ri] = true
				first := pathTo(m, parent, u)
				second := append(pathTo(m, parent, x), ri)
				errs = append(errs, d.ErrAt(yamldoc.Path("relationships", ri),
					"a tabela %s é alcançada a partir de %s por dois caminhos: %s e %s; uma consulta não teria como escolher. "+
						"Declare uma cópia de %s para cada caminho (em tables, {label: \"%s (%s)\", copyOf: %s}) e ligue cada relacionamento à sua cópia",
					u.Label, base.Label, pathText(m, base, first), pathText(m, base, second),
					u.Label, u.Label, x.Label, u.Label))
			}
		}
	}
	return errs
}

// onPath reports whether t is on the walk's path to x (x included): a relationship from x into t
// then closes a cycle instead of opening a second path.
func onPath(m *semantic.App, parent map[*semantic.Table]int, x, t *semantic.Table) bool {
	for {
		if x == t {
			return true
		}
		ri := parent[x]
		if ri < 0 {
			return false
		}
		x = m.Relationships[ri].FromTable()
	}
}

// pathTo is the relationship indexes of the walk's path to t, from the walk's start.
func pathTo(m *semantic.App, parent map[*semantic.Table]int, t *semantic.Table) []int {
	var out []int
	for ri := parent[t]; ri >= 0; ri = parent[m.Relationships[ri].FromTable()] {
		out = append([]int{ri}, out...)
	}
	return out
}

// pathText writes a path as its tables and, between parentheses, where each relationship is in
// app.yaml and what it joins: Itens → Clientes → Nações (relationships[0]: Itens.Cliente = Clientes.Id; ...).
func pathText(m *semantic.App, base *semantic.Table, path []int) string {
	tables := []string{base.Label}
	var joins []string
	for _, ri := range path {
		r := m.Relationships[ri]
		tables = append(tables, r.ToTable().Label)
		joins = append(joins, fmt.Sprintf("relationships[%d]: %s = %s", ri, sideRefs(r.From), sideRefs(r.To)))
	}
	return strings.Join(tables, " → ") + " (" + strings.Join(joins, "; ") + ")"
}

// sideRefs is a relationship side as app.yaml writes it: a ref, or a composite key's refs in brackets.
func sideRefs(cols []*semantic.Column) string {
	refs := make([]string, len(cols))
	for i, c := range cols {
		refs[i] = c.Ref()
	}
	if len(refs) == 1 {
		return refs[0]
	}
	return "[" + strings.Join(refs, ", ") + "]"
}

// refList is a relationship side: one ref (Vendas.Produto) or, for a composite key, a list of
// them ([Itens.Peça, Itens.Fornecedor]).
type refList struct {
	Refs []string
	List bool // written as a list
}

func (r *refList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		r.Refs, r.List = []string{one}, false
		return nil
	}
	r.List = true
	return json.Unmarshal(b, &r.Refs)
}

// checkRelationship resolves one relationship of app.yaml (at rp): each side's refs name columns,
// as many on each side, the from side's in one table and the to side's in another, pair by pair of
// the same type, no column twice.
func checkRelationship(d *yamldoc.Doc, m *semantic.App, rp []string, from, to refList) (semantic.Relationship, []*Error) {
	var errs []*Error
	fieldOf := func(side string, l refList, i int) []string {
		if l.List {
			return at(rp, side, i)
		}
		return at(rp, side)
	}
	resolve := func(side string, l refList) []*semantic.Column {
		var cols []*semantic.Column
		seen := map[*semantic.Column]bool{}
		for i, ref := range l.Refs {
			c, err := m.ResolveColumn(ref)
			if err != nil {
				errs = append(errs, d.ErrAt(fieldOf(side, l, i), "%s", refProblem(m, ref, err)))
				continue
			}
			if seen[c] {
				errs = append(errs, d.ErrAt(fieldOf(side, l, i), "a coluna %s aparece duas vezes em %s; cada coluna entra uma vez na chave", c.Ref(), side))
				continue
			}
			if c.Calculated() {
				errs = append(errs, d.ErrAt(fieldOf(side, l, i), "%s é uma coluna calculada; um relacionamento liga colunas com dados, carregadas do arquivo", c.Ref()))
				continue
			}
			if len(cols) > 0 && c.Table != cols[0].Table {
				errs = append(errs, d.ErrAt(fieldOf(side, l, i), "%s é da tabela %s, mas %s é da tabela %s; as colunas de %s precisam ser todas da mesma tabela",
					c.Ref(), c.Table.Label, cols[0].Ref(), cols[0].Table.Label, side))
				continue
			}
			seen[c] = true
			cols = append(cols, c)
		}
		return cols
	}
	fromCols, toCols := resolve("from", from), resolve("to", to)
	if len(errs) > 0 {
		return semantic.Relationship{}, errs
	}
	if len(fromCols) != len(toCols) {
		return semantic.Relationship{}, []*Error{d.ErrAt(rp, "from tem %d colunas e to tem %d; liste em to uma coluna para cada coluna de from, na mesma ordem",
			len(fromCols), len(toCols))}
	}
	for i := range fromCols {
		f, t := fromCols[i], toCols[i]
		if f.Type == t.Type {
			continue
		}
		if len(fromCols) == 1 {
			errs = append(errs, d.ErrAt(rp, "from (%s, %s) e to (%s, %s) têm tipos diferentes; relacione colunas do mesmo tipo",
				f.Ref(), typeWords[f.Type], t.Ref(), typeWords[t.Type]))
		} else {
			errs = append(errs, d.ErrAt(fieldOf("to", to, i), "o par %d liga %s (%s) a %s (%s), de tipos diferentes; relacione colunas do mesmo tipo",
				i+1, f.Ref(), typeWords[f.Type], t.Ref(), typeWords[t.Type]))
		}
	}
	if len(errs) > 0 {
		return semantic.Relationship{}, errs
	}
	return semantic.Relationship{From: fromCols, To: toCols}, nil
}

// refProblem says why a ref in a relationship or formula does not name a column.
func refProblem(m *semantic.App, ref string, err error) string {
	var re *semantic.RefError
	if !errors.As(err, &re) {
		return err.Error()
	}
	if t, err := m.Resolve(ref); err == nil && t.Expression != nil {
		return fmt.Sprintf("%q é uma expressão; aqui só cabe uma coluna (Tabela.Coluna)", ref)
	}
	var msg string
	switch re.Kind {
	case semantic.RefAmbiguous:
		return fmt.Sprintf("a ref %q é ambígua: duas colunas da tabela têm esse rótulo; use o nome físico: %s", ref, strings.Join(re.Suggestions, " ou "))
	case semantic.RefSyntax:
		msg = fmt.Sprintf("a ref %q não está no formato Tabela.Coluna (rótulo da tabela, ponto, rótulo da coluna)", ref)
	default:
		msg = fmt.Sprintf("a coluna %q não existe", ref)
	}
	if len(re.Suggestions) > 0 {
		return msg + "; refs parecidas: " + strings.Join(re.Suggestions, ", ")
	}
	return msg + "; use Tabela.Coluna com os rótulos do app.yaml"
}

// asErrors flattens an error from OpenRows into workspace errors.
func asErrors(err error) []*Error {
	var es Errors
	if errors.As(err, &es) {
		return es
	}
	var e *Error
	if errors.As(err, &e) {
		return []*Error{e}
	}
	return []*Error{{Message: err.Error()}}
}
