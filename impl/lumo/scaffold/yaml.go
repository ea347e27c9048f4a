package scaffold

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/printable"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// physicalOf makes a physical name of a file, sheet or column name.
func physicalOf(s string) string {
	var b strings.Builder
	for _, r := range fold.Fold(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := strings.Trim(b.String(), "_")
	if out == "" || (out[0] >= '0' && out[0] <= '9') {
		out = "t_" + out
	}
	if len(out) > 60 {
		out = out[:60]
	}
	return out
}

// humanize turns VALOR_LIQ, valor-liquido or ValorLiquido into "Valor liq" / "Valor liquido", a
// label.
func humanize(s string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			b.WriteByte(' ') // camelCase: a word starts
		}
		b.WriteRune(r)
		prev = r
	}
	s = strings.NewReplacer("_", " ", "-", " ", ".", " ", "[", " ", "]", " ").Replace(noControl(b.String()))
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "Tabela"
	}
	if strings.EqualFold(s, "id") {
		return "Id"
	}
	r := []rune(strings.ToLower(s))
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// usage ranks what the catalogue shows first: measures, then dates, then text dimensions.
func usage(c Column) int {
	switch {
	case c.Role == "measure":
		return 10
	case c.Type == "date" || c.Type == "datetime":
		return 8
	case c.Role == "dimension":
		return 5
	}
	return 0
}

// noControl is s with a space for each control character: a label never holds one.
func noControl(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

// writeComment writes text as one comment line of app.yaml: text that does not print as itself
// (a line break, a control character) is quoted with its escapes, so nothing in it can end the
// comment and be read as YAML.
func writeComment(b *strings.Builder, indent, text string) {
	fmt.Fprintf(b, "%s# %s\n", indent, printable.Name(text))
}

// comment is the line app.yaml writes above a table: where its rows are and how they were read.
func (t *Table) comment() string {
	s := t.Source + ": " + ptbr.Count(int(t.Rows), "linha", "linhas")
	if how := t.how(); how != "" {
		s += "; " + how
	}
	return s
}

func appYAML(name string, tables []*Table, rels []Relationship) string {
	var b strings.Builder
	b.WriteString("# Inferido por lumo init: confira tipos, papéis (role) e unidades.\n")
	b.WriteString("# role: measure (soma, média...), dimension (agrupa e filtra) ou key (liga tabelas);\n")
	b.WriteString("# unit: BRL, USD, percent...; usage ordena as colunas que o catálogo mostra primeiro.\n")
	fmt.Fprintf(&b, "name: %s\n", yamlString(name))
	fmt.Fprintf(&b, "description: %s\n", yamlString("Dados de "+sourceWords(tables)+"."))
	b.WriteString("tables:\n")
	for _, t := range tables {
		writeComment(&b, "  ", t.comment())
		if t.Note != "" {
			writeComment(&b, "  ", t.Note)
		}
		fmt.Fprintf(&b, "  - label: %s\n    name: %s\n    kind: %s\n", yamlString(t.Label), t.Name, t.Kind)
		if t.Postgres != nil {
			if t.Postgres.Query != "" {
				fmt.Fprintf(&b, "    postgres: {database: %s, query: %s}\n", t.Postgres.Database.Name, yamlString(t.Postgres.Query))
			} else {
				fmt.Fprintf(&b, "    postgres: {database: %s, table: %s}\n", t.Postgres.Database.Name, t.Postgres.Table)
			}
		} else {
			fmt.Fprintf(&b, "    file: %s\n", yamlString(t.File))
		}
		var csv []string
		if t.Format.Decimal != "" {
			csv = append(csv, fmt.Sprintf("decimal: %q", t.Format.Decimal))
		}
		if t.Format.DateFormat != "" {
			csv = append(csv, "dateFormat: "+t.Format.DateFormat)
		}
		if len(csv) > 0 {
			fmt.Fprintf(&b, "    csv: {%s}  # a detecção não decidiria sozinha\n", strings.Join(csv, ", "))
		}
		var xlsx []string
		if x := t.Format.XLSX; x.Sheet != "" {
			xlsx = append(xlsx, "sheet: "+yamlString(x.Sheet))
		}
		if x := t.Format.XLSX; x.Range != "" {
			xlsx = append(xlsx, "range: "+yamlString(x.Range))
		}
		if len(xlsx) > 0 {
			fmt.Fprintf(&b, "    xlsx: {%s}\n", strings.Join(xlsx, ", "))
		}
		b.WriteString("    columns:\n")
		for _, c := range t.Columns {
			fmt.Fprintf(&b, "      - {name: %s", c.Name)
			if c.Header != "" {
				fmt.Fprintf(&b, ", header: %s", yamlString(c.Header))
			}
			fmt.Fprintf(&b, ", label: %s, type: %s", yamlString(c.Label), c.Type)
			if c.Role != "" {
				fmt.Fprintf(&b, ", role: %s", c.Role)
			}
			if c.Unit != "" {
				fmt.Fprintf(&b, ", unit: %s", c.Unit)
			}
			if u := usage(c); u > 0 {
				fmt.Fprintf(&b, ", usage: %d", u)
			}
			b.WriteString("}\n")
		}
	}
	if len(rels) > 0 {
		b.WriteString("relationships:\n")
		for _, r := range rels {
			writeComment(&b, "  ", r.Reason)
			fmt.Fprintf(&b, "  - {from: %s, to: %s}\n", yamlString(r.From), yamlString(r.To))
		}
	}
	return b.String()
}

func workspaceYAML(key, name, login, token string, db *workspace.Database) string {
	s := `# Inferido por lumo init: um Tenant, um usuário e uma Aplicação com os dados desta pasta.
# As chaves vêm do nome da pasta: o workspace de outra pasta é importado ao lado deste, sem substituí-lo.
# O token dá acesso aos dados: guarde-o como uma senha (ao menos 8 caracteres; troque-o à vontade).
tenants:
  - key: ` + yamlString(key) + `
    name: ` + yamlString(name) + `
    users:
      - {login: ` + login + `, name: Você, token: ` + token + `}
    desks:
      - {name: Principal, members: [` + login + `]}
    apps:
      - {key: ` + yamlString(key) + `, source: ., desk: Principal}
`
	if db != nil {
		s += "# O banco de onde vêm as tabelas com postgres: no app.yaml; o dsn não leva senha.\n"
		entry := fmt.Sprintf("{name: %s, dsn: %s", db.Name, yamlString(db.DSN))
		if db.PasswordEnv != "" {
			s += fmt.Sprintf("# A senha vem da variável de ambiente %s na hora do lumo import, e não fica em arquivo nenhum.\n", db.PasswordEnv)
			entry += ", passwordEnv: " + db.PasswordEnv
		}
		s += "databases:\n  - " + entry + "}\n"
	}
	return s
}

// yamlString is s as a YAML scalar: quoted, with escapes, when plain YAML would read it otherwise
// or it holds a character that does not print as itself (a line break, a control character), so
// a name can never end its line and be read as more YAML.
func yamlString(s string) string {
	plainOther := strings.ContainsAny(s[:min(1, len(s))], "0123456789-+.~") ||
		slices.Contains([]string{"true", "false", "yes", "no", "on", "off", "null", "y", "n"}, strings.ToLower(s))
	if s == "" || plainOther || strings.ContainsAny(s, ":#{}[],&*!|>'\"%@`\\\t\n") || strings.TrimSpace(s) != s || !printable.Plain(s) {
		return fmt.Sprintf("%q", s)
	}
	return s
}
