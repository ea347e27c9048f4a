package workspace

import (
	"errors"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/yamldoc"
)

// segmentFile is one entry of app.yaml's segments.
type segmentFile struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Table       string `json:"table"`
	With        string `json:"with"`
	Without     string `json:"without"`
	Where       string `json:"where"`
}

// checkSegments binds the declared segments to the model (relationships and calculated columns
// bound): a label of its own, its table, exactly one of with and without naming a table whose
// rows reach it through the relationships, and where, a row condition over that table.
func checkSegments(d *yamldoc.Doc, m *semantic.App, list []segmentFile) []*Error {
	var errs []*Error
	labels := map[string]int{}
	var tableLabels []string
	for _, t := range m.Tables {
		tableLabels = append(tableLabels, t.Label)
	}
	table := func(field []string, label string) *semantic.Table {
		t := m.TableByLabel(label)
		if t == nil {
			errs = append(errs, d.ErrAt(field, "a tabela %q não está em tables; %s", label, choices(label, tableLabels, "tabelas", true)))
		}
		return t
	}
	for si, fs := range list {
		sp := yamldoc.Path("segments", si)
		if first, dup := labels[fold.Fold(fs.Label)]; dup {
			errs = append(errs, d.ErrAt(at(sp, "label"), "o rótulo %q já é usado por segments[%d]; cada segmento precisa de um rótulo próprio", fs.Label, first))
			continue
		}
		labels[fold.Fold(fs.Label)] = si
		s := &semantic.Segment{Label: fs.Label, Description: fs.Description, Where: fs.Where}
		related, field := fs.With, "with"
		switch {
		case fs.With != "" && fs.Without != "":
			errs = append(errs, d.ErrAt(at(sp, "without"), "o segmento tem with e without; declare um só: with %s guarda as linhas de %s que têm linhas em %s, without as que não têm",
				fs.With, fs.Table, fs.With))
			continue
		case fs.Without != "":
			related, field, s.Without = fs.Without, "without", true
		case fs.With == "":
			errs = append(errs, d.ErrAt(sp, "o segmento precisa de with (as linhas de %s que têm linhas relacionadas em outra tabela, como with: Pedidos) ou without (as que não têm), com o rótulo dessa outra tabela",
				fs.Table))
			continue
		}
		if s.Table = table(at(sp, "table"), fs.Table); s.Table == nil {
			continue
		}
		if s.Related = table(at(sp, field), related); s.Related == nil {
			continue
		}
		if err := m.BindSegment(s); err != nil {
			var se *semantic.SegmentError
			errors.As(err, &se)
			if se.Field == "where" {
				errs = append(errs, d.ErrAt(at(sp, "where"), "a condição do segmento %q, sobre as linhas de %s, não pôde ser usada: %v", fs.Label, s.Related.Label, se.Err))
			} else {
				errs = append(errs, d.ErrAt(at(sp, se.Field), "o segmento %q não pôde ser usado: %v", fs.Label, se.Err))
			}
			continue
		}
		m.Segments = append(m.Segments, s)
	}
	return errs
}
