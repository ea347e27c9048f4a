package scaffold

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/pgsource"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

// tableName is a table or view as app.yaml's postgres.table takes it: name or schema.name,
// written as in psql without quotes.
var tableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]{0,62}(\.[A-Za-z_][A-Za-z0-9_$]{0,62})?$`)

// postgresTables describes each of names in db: its columns, typed as the source types them.
// A column whose name is no physical name is read under one, and a column of a type lumo does
// not read (json, an array...) as text, by a query instead of the table.
func postgresTables(ctx context.Context, db *workspace.Database, names []string) ([]*Table, error) {
	var out []*Table
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || seen[strings.ToLower(n)] {
			continue
		}
		seen[strings.ToLower(n)] = true
		if !tableName.MatchString(n) {
			return nil, fmt.Errorf("--table %q: escreva a tabela como no psql, sem aspas: nome ou esquema.nome (letras, dígitos e _), como vendas.pedidos", n)
		}
		src := &workspace.PostgresTable{Database: db, Table: n}
		cols, err := pgsource.Describe(ctx, src)
		if err != nil {
			return nil, err
		}
		if len(cols) == 0 {
			return nil, fmt.Errorf("%s: a tabela não tem colunas", src.Where())
		}
		if len(cols) > maxColumns {
			return nil, fmt.Errorf("%s: tem %d colunas, acima do limite de %d por tabela do app.yaml; leia só as que servem com uma visão (CREATE VIEW) e passe-a em --table", src.Where(), len(cols), maxColumns)
		}
		_, base, _ := strings.Cut(n, ".")
		if base == "" {
			base = n
		}
		t := &Table{Postgres: src, kind: kindPostgres, explicit: true, labelBase: base, Source: src.Where()}
		used := map[string]bool{}
		var casts []string
		query := false
		for _, c := range cols {
			col := Column{Name: c.Name, Type: c.Type}
			if !physical.MatchString(c.Name) {
				col.Name, col.Source, query = physicalOf(c.Name), c.Name, true
			}
			col.Name = unique(col.Name, used, "_%d")
			if col.Type == "" {
				col.Type, col.Cast, query = "string", true, true
				casts = append(casts, fmt.Sprintf("%s (%s)", col.Name, typeName(c.DBType)))
			}
			col.Label = humanize(col.Name)
			col.Role = roleOf(&col)
			t.Columns = append(t.Columns, col)
		}
		if query {
			src.Table, src.Query = "", selectFrom(n, t.Columns)
			if len(casts) > 0 {
				t.Note = "lida por consulta, com " + strings.Join(casts, ", ") + " como texto"
			} else {
				t.Note = "lida por consulta, que dá às colunas nomes físicos"
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// typeName is a PostgreSQL type as psql writes it: BOOL is bool, _TEXT is text[].
func typeName(dbType string) string {
	if t, ok := strings.CutPrefix(dbType, "_"); ok {
		return strings.ToLower(t) + "[]"
	}
	return strings.ToLower(dbType)
}

// selectFrom is the SELECT that reads table's columns under their physical names, casting to
// text the ones lumo does not read.
func selectFrom(table string, cols []Column) string {
	list := make([]string, len(cols))
	for i, c := range cols {
		src := c.Source
		if src == "" {
			src = c.Name
		}
		e := quoteIdent(src)
		if c.Cast {
			e += "::text"
		}
		if c.Cast || c.Source != "" {
			e += " AS " + c.Name
		}
		list[i] = e
	}
	return "SELECT " + strings.Join(list, ", ") + " FROM " + table
}

// quoteIdent is name as a PostgreSQL quoted identifier.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
