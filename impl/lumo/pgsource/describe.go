package pgsource

import (
	"context"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

// SourceColumn is a column of a source table as PostgreSQL describes it: its name, its type (pq's
// DatabaseTypeName: INT4, NUMERIC, TIMESTAMPTZ, ...) and the app.yaml type that reads it best
// ("" when none does: a json, an array).
type SourceColumn struct {
	Name, DBType, Type string
}

// Describe connects to src's database as Open does (its password from the PasswordEnv variable,
// in a read-only transaction) and lists the columns of src's table or query, in order, without
// reading a row. Problems are *workspace.Error naming the source (never its password).
func Describe(ctx context.Context, src *workspace.PostgresTable) ([]SourceColumn, error) {
	r, fail, err := begin(ctx, src, &semantic.Table{})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	from := src.Table
	if src.Query != "" {
		from = "(" + src.Query + ") AS lumo_source"
	}
	probe, err := queryOne(ctx, r.tx, "SELECT * FROM "+from+" LIMIT 0")
	if err != nil {
		return nil, fail(0, "", "%s", r.failed("a leitura falhou", err))
	}
	defer probe.Close()
	types, err := probe.ColumnTypes()
	if err != nil {
		return nil, fail(0, "", "%s", r.failed("a leitura falhou", err))
	}
	out := make([]SourceColumn, len(types))
	for i, ct := range types {
		out[i] = SourceColumn{Name: ct.Name(), DBType: ct.DatabaseTypeName()}
		if out[i].DBType == "BOOL" { // VERDADEIRO or FALSO: a flag groups, it does not add up
			out[i].Type = semantic.TypeString
			continue
		}
		// numbers before texts: an integer is a number unless app.yaml says it is a code
		for _, ty := range []string{semantic.TypeNumber, semantic.TypeDate, semantic.TypeDatetime, semantic.TypeString} {
			if accepted[ty][out[i].DBType] {
				out[i].Type = ty
				break
			}
		}
	}
	return out, nil
}
