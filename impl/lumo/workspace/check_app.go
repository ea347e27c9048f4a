package workspace

import (
	"errors"
	"fmt"
	"github.com/lumo-caderninho/mcp/impl/platform/yamldoc"
	"io/fs"
	"path"
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
		Name     string      `json:"name"`
		Kind     string      `json:"kind"`
		File     string      `json:"file"`
		LoadedAt string      `json:"loadedAt"`
		CSV      *Format     `json:"csv"`
		XLSX     *XLSXFormat `json:"xlsx"`
		Columns  []struct {
			Name        string `json:"name"`
			Label       string `json:"label"`
			Type        string `json:"type"`
			Role        string `json:"role"`
			Unit        string `json:"unit"`
			Usage       int    `json:"usage"`
			Description string `json:"description"`
		} `json:"columns"`
	} `json:"tables"`
	Relationships []struct {
		From string `json:"from"`
		To   string `json:"to"`
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

	tableLabels := map[string]int{}
	tableNames := map[string]int{}
	for ti, ft := range f.Tables {
		tp := yamldoc.Path("tables", ti)
		if first, dup := tableLabels[fold.Fold(ft.Label)]; dup {
			errs = append(errs, d.ErrAt(at(tp, "label"), "o rótulo %q já é usado por tables[%d]; cada tabela precisa de um rótulo próprio", ft.Label, first))
		}
		tableLabels[fold.Fold(ft.Label)] = ti
		if first, dup := tableNames[strings.ToLower(ft.Name)]; dup {
			errs = append(errs, d.ErrAt(at(tp, "name"), "o nome físico %q já é usado por tables[%d]; cada tabela precisa de um nome próprio", ft.Name, first))
		}
		tableNames[strings.ToLower(ft.Name)] = ti
		t := &semantic.Table{Label: ft.Label, Name: ft.Name, Kind: ft.Kind, LoadedAt: parseTime(ft.LoadedAt)}
		colNames := map[string]int{}
		for ci, fc := range ft.Columns {
			if first, dup := colNames[strings.ToLower(fc.Name)]; dup {
				errs = append(errs, d.ErrAt(at(tp, "columns", ci, "name"), "o nome físico %q já é usado por tables[%d].columns[%d]; cada coluna da tabela precisa de um nome próprio", fc.Name, ti, first))
			}
			colNames[strings.ToLower(fc.Name)] = ci
			role := fc.Role
			if role == "" {
				role = semantic.RoleDimension
			}
			t.Columns = append(t.Columns, &semantic.Column{Table: t, Name: fc.Name, Label: fc.Label, Type: fc.Type,
				Role: role, Unit: fc.Unit, Usage: fc.Usage, Description: fc.Description})
		}
		m.Tables = append(m.Tables, t)

		csv := ""
		var format Format
		if ft.CSV != nil {
			format = *ft.CSV
			if ft.File == "" {
				errs = append(errs, d.ErrAt(at(tp, "csv"), "a tabela não tem file, então não há CSV para ler; informe file ou remova csv"))
			}
		}
		if ft.XLSX != nil {
			format.XLSX = *ft.XLSX
			if ft.File == "" {
				errs = append(errs, d.ErrAt(at(tp, "xlsx"), "a tabela não tem file, então não há planilha para ler; informe file ou remova xlsx"))
			}
		}
		switch {
		case ft.File != "":
			csv = path.Join(folder, ft.File)
			if !fs.ValidPath(csv) || !strings.HasPrefix(csv, folder+"/") {
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
	}

	for ri, fr := range f.Relationships {
		rp := yamldoc.Path("relationships", ri)
		from, err := m.ResolveColumn(fr.From)
		if err != nil {
			errs = append(errs, d.ErrAt(at(rp, "from"), "%s", refProblem(m, fr.From, err)))
		}
		to, err2 := m.ResolveColumn(fr.To)
		if err2 != nil {
			errs = append(errs, d.ErrAt(at(rp, "to"), "%s", refProblem(m, fr.To, err2)))
		}
		if err != nil || err2 != nil {
			continue
		}
		if from.Type != to.Type {
			errs = append(errs, d.ErrAt(rp, "from (%s, %s) e to (%s, %s) têm tipos diferentes; relacione colunas do mesmo tipo",
				from.Ref(), typeWords[from.Type], to.Ref(), typeWords[to.Type]))
			continue
		}
		m.Relationships = append(m.Relationships, semantic.Relationship{From: from, To: to})
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
