// Package scaffold writes a lumo workspace for data files a user already has: one tenant, one user
// with a fresh token, one app whose app.yaml is inferred from the files (tables, labels from the
// headers, types, roles, units, relationships between matching key columns, usage), so that
// `lumo import` and `lumo serve` work without edits for common files, and the result reads well
// enough to edit. Every inference is checked by reading the whole file with the importer's own
// reader before it is written.
package scaffold

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// Result is what Init wrote.
type Result struct {
	Dir, Workspace, App string // the folder and the two files written
	Login, Token        string
	Tables              []Table
}

// Table is one file's inference.
type Table struct {
	File, Name, Label, Kind string
	Rows                    int64
	Columns                 []Column
	Format                  workspace.Format // declared in app.yaml (what detection could not settle)
	Detected                string           // the reader's description of the file
}

// Column is one inferred column.
type Column struct {
	Name, Label, Type, Role, Unit string
	Usage                         int
}

// Relationship joins a fact's column to a dimension's key of the same name.
type Relationship struct{ From, To string }

// maxSample is how many rows type inference looks at; the check reads every row.
const maxSample = 5000

var physical = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,62}$`)

// Init infers a workspace for files (CSV, all in one folder) and writes workspace.yaml and
// app.yaml next to them. It refuses to overwrite either.
func Init(files []string) (*Result, error) {
	if len(files) == 0 {
		return nil, errors.New("informe um ou mais arquivos CSV (ou uma pasta com eles)")
	}
	files, err := expand(files)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(files[0])
	for _, f := range files[1:] {
		if filepath.Dir(f) != dir {
			return nil, fmt.Errorf("os arquivos precisam estar na mesma pasta (%s e %s não estão); copie-os para uma pasta só", files[0], f)
		}
	}
	res := &Result{Dir: dir, Workspace: filepath.Join(dir, "workspace.yaml"), App: filepath.Join(dir, "app.yaml")}
	for _, p := range []string{res.Workspace, res.App} {
		if _, err := os.Stat(p); err == nil {
			return nil, fmt.Errorf("%s já existe; o lumo init não sobrescreve: apague-o ou use outra pasta", p)
		}
	}
	fsys := os.DirFS(dir)
	used := map[string]bool{}
	for _, f := range files {
		t, err := inferTable(fsys, filepath.Base(f), used)
		if err != nil {
			return nil, err
		}
		res.Tables = append(res.Tables, *t)
	}
	rels := relate(res.Tables)
	tok := make([]byte, 18)
	if _, err := rand.Read(tok); err != nil {
		return nil, err
	}
	res.Login, res.Token = "voce", "tok-"+base64.RawURLEncoding.EncodeToString(tok)
	appName := humanize(strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0])))
	if len(files) > 1 {
		appName = humanize(filepath.Base(dir))
	}
	if err := os.WriteFile(res.App, []byte(appYAML(appName, res.Tables, rels)), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(res.Workspace, []byte(workspaceYAML(res.Login, res.Token)), 0o600); err != nil {
		os.Remove(res.App)
		return nil, err
	}
	return res, nil
}

// expand replaces a folder by its CSV files.
func expand(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("%s: não encontrei o arquivo ou a pasta", a)
		}
		if !st.IsDir() {
			if !strings.EqualFold(filepath.Ext(a), ".csv") {
				return nil, fmt.Errorf("%s: o lumo init lê arquivos .csv", a)
			}
			out = append(out, a)
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(a, "*.csv"))
		upper, _ := filepath.Glob(filepath.Join(a, "*.CSV"))
		matches = append(matches, upper...)
		if len(matches) == 0 {
			return nil, fmt.Errorf("%s: a pasta não tem arquivos .csv", a)
		}
		sort.Strings(matches)
		out = append(out, matches...)
	}
	return out, nil
}

// inferTable reads file's header, infers each column from a sample, then reads the whole file
// with those types, giving a column whose values do not all fit up for text.
func inferTable(fsys fs.FS, file string, used map[string]bool) (*Table, error) {
	header, delim, err := readHeader(fsys, file)
	if err != nil {
		return nil, err
	}
	name := uniqueName(physicalOf(strings.TrimSuffix(file, filepath.Ext(file))), used)
	t := &Table{File: file, Name: name, Label: humanize(strings.TrimSuffix(file, filepath.Ext(file)))}
	for _, h := range header {
		t.Columns = append(t.Columns, Column{Name: h, Label: humanize(h), Type: "string"})
	}
	sample, err := readSample(fsys, file, t)
	if err != nil {
		return nil, err
	}
	for i := range t.Columns {
		inferColumn(&t.Columns[i], sample[i])
	}
	for range len(t.Columns) + 2 {
		err := check(fsys, t)
		if err == nil {
			break
		}
		var we *workspace.Error
		if !errors.As(err, &we) {
			return nil, err
		}
		if strings.Contains(we.Message, "decimal") && t.Format.Decimal == "" {
			// Every amount reads both ways (1.000): a ";" file is written the Brazilian way.
			t.Format.Decimal = "."
			if delim == ";" {
				t.Format.Decimal = ","
			}
			continue
		}
		if strings.Contains(we.Message, "data") && t.Format.DateFormat == "" {
			t.Format.DateFormat = workspace.DatesDMY // the Brazilian order, as the user's spreadsheet writes it
			continue
		}
		c := t.column(we.Field)
		if c == nil || c.Type == "string" {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		c.Type, c.Role, c.Unit = "string", "dimension", "" // not every value is a number or a date
	}
	if err := check(fsys, t); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	t.Kind = "dimension"
	for _, c := range t.Columns {
		if c.Role == "measure" || c.Type == "date" || c.Type == "datetime" {
			t.Kind = "fact"
		}
	}
	return t, nil
}

// column is the column a reader error names: by its exact name, or as Table.NAME. A substring
// match would let an error on LOJA_ID degrade ID.
func (t *Table) column(name string) *Column {
	for i := range t.Columns {
		if c := t.Columns[i].Name; c == name || strings.HasSuffix(name, "."+c) {
			return &t.Columns[i]
		}
	}
	return nil
}

func (t *Table) semantic() *semantic.Table {
	st := &semantic.Table{Name: t.Name, Label: t.Label, Kind: "fact"}
	for _, c := range t.Columns {
		st.Columns = append(st.Columns, &semantic.Column{Table: st, Name: c.Name, Label: c.Label, Type: c.Type, Role: c.Role, Unit: c.Unit})
	}
	return st
}

// check reads every row of the file as the import would.
func check(fsys fs.FS, t *Table) error {
	rows, err := workspace.OpenRows(fsys, t.File, t.semantic(), t.Format)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		return err
	}
	t.Rows, t.Detected = rows.Count(), rows.Description()
	for i, u := range rows.Units() {
		if u != "" && t.Columns[i].Unit == "" && t.Columns[i].Type == "number" {
			t.Columns[i].Unit = u
		}
	}
	return nil
}

// readHeader finds the delimiter whose split of the first line the reader accepts as a header.
func readHeader(fsys fs.FS, file string) (header []string, delim string, err error) {
	f, err := fsys.Open(file)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", file, err)
	}
	buf := make([]byte, 64<<10)
	n, _ := f.Read(buf)
	f.Close()
	first := strings.TrimPrefix(string(buf[:n]), "\ufeff")
	if i := strings.IndexAny(first, "\r\n"); i >= 0 {
		first = first[:i]
	}
	var tried []string
	for _, d := range []string{",", ";", "\t", "|"} {
		parts := strings.Split(first, d)
		if len(parts) > 1 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1] // a trailing delimiter
		}
		if len(parts) < 2 && d != "|" {
			continue
		}
		ok := true
		for i, p := range parts {
			parts[i] = strings.Trim(strings.TrimSpace(p), `"`)
			if !physical.MatchString(parts[i]) {
				ok = false
				tried = append(tried, parts[i])
			}
		}
		if !ok {
			continue
		}
		t := &Table{File: file, Name: "t"}
		for _, p := range parts {
			t.Columns = append(t.Columns, Column{Name: p, Type: "string"})
		}
		if rows, err := workspace.OpenRows(fsys, file, t.semantic(), workspace.Format{}); err == nil {
			rows.Close()
			return parts, d, nil
		}
	}
	if len(tried) > 0 {
		return nil, "", fmt.Errorf("%s: o cabeçalho %q não serve de nome de coluna (use letras sem acento, dígitos e _, começando por letra); renomeie a coluna na primeira linha do arquivo", file, tried[0])
	}
	return nil, "", fmt.Errorf("%s: não achei o cabeçalho: a primeira linha precisa ter os nomes das colunas separados por , ; tabulação ou |", file)
}

// readSample is up to maxSample values of each column, read as text.
func readSample(fsys fs.FS, file string, t *Table) ([][]string, error) {
	rows, err := workspace.OpenRows(fsys, file, t.semantic(), workspace.Format{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	defer rows.Close()
	out := make([][]string, len(t.Columns))
	for n := 0; n < maxSample && rows.Next(); n++ {
		for i, v := range rows.Values() {
			if s, ok := v.(string); ok && s != "" {
				out[i] = append(out[i], s)
			}
		}
	}
	return out, rows.Err()
}

var (
	dateRe     = regexp.MustCompile(`^(\d{1,2}/\d{1,2}/(\d{2}|\d{4})|\d{4}-\d{2}-\d{2})$`)
	dateTimeRe = regexp.MustCompile(`^(\d{1,2}/\d{1,2}/(\d{2}|\d{4})|\d{4}-\d{2}-\d{2})[ T]\d{1,2}:\d{2}(:\d{2})?$`)
	numberRe   = regexp.MustCompile(`^\(?\s*-?\s*(R\$|US\$)?\s*-?\s*\d[\d.,]*\s*%?\s*\)?$`)
	keyNameRe  = regexp.MustCompile(`(?i)(^id$|_id$|^id_|^cod|codigo|^cpf$|^cnpj$|^cep$)`)
)

// inferColumn decides a column's type, role and unit from its sample.
func inferColumn(c *Column, values []string) {
	c.Role = "dimension"
	if len(values) == 0 {
		return
	}
	all := func(re *regexp.Regexp) bool {
		for _, v := range values {
			if !re.MatchString(strings.TrimSpace(v)) {
				return false
			}
		}
		return true
	}
	switch {
	case all(dateTimeRe):
		c.Type = "datetime"
	case all(dateRe):
		c.Type = "date"
	case all(numberRe):
		c.Type, c.Role = "number", "measure"
		if keyNameRe.MatchString(c.Name) {
			c.Role = "key"
		}
		joined := strings.Join(values, " ")
		switch {
		case strings.Contains(joined, "US$"):
			c.Unit = "USD"
		case strings.Contains(joined, "R$"):
			c.Unit = "BRL"
		case strings.Contains(joined, "%"):
			c.Unit = "percent"
		}
	default:
		if keyNameRe.MatchString(c.Name) {
			c.Role = "key"
		}
	}
}

// relate joins each fact column to a dimension whose key column has the same name, or to a
// dimension named after it (LOJA_ID -> lojas.ID).
func relate(tables []Table) []Relationship {
	var rels []Relationship
	for _, f := range tables {
		if f.Kind != "fact" {
			continue
		}
		for _, c := range f.Columns {
			if c.Role != "key" {
				continue
			}
			stem := strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(c.Name), "_id"), "id_"))
			for _, d := range tables {
				if d.Kind != "dimension" || d.Name == f.Name {
					continue
				}
				for _, k := range d.Columns {
					if k.Role != "key" {
						continue
					}
					sameName := strings.EqualFold(k.Name, c.Name) && !strings.EqualFold(c.Name, "id") // a fact's own id joins nothing
					named := strings.EqualFold(k.Name, "id") && strings.HasPrefix(strings.ToLower(d.Name), stem) && stem != "" && stem != "id"
					if sameName || named {
						rels = append(rels, Relationship{From: f.Label + "." + c.Label, To: d.Label + "." + k.Label})
					}
				}
			}
		}
	}
	return rels
}

// physicalOf makes a physical table name of a file name.
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

func uniqueName(name string, used map[string]bool) string {
	n := name
	for i := 2; used[n]; i++ {
		n = fmt.Sprintf("%s_%d", name, i)
	}
	used[n] = true
	return n
}

// humanize turns VALOR_LIQ or valor-liquido into "Valor liq" / "Valor liquido", a label.
func humanize(s string) string {
	s = strings.NewReplacer("_", " ", "-", " ", ".", " ").Replace(s)
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "Tabela"
	}
	r := []rune(strings.ToLower(s))
	r[0] = unicode.ToUpper(r[0])
	if strings.EqualFold(s, "id") {
		return "Id"
	}
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

func appYAML(name string, tables []Table, rels []Relationship) string {
	var b strings.Builder
	b.WriteString("# Inferido por lumo init dos arquivos desta pasta: confira tipos, papéis (role) e unidades.\n")
	b.WriteString("# role: measure (soma, média...), dimension (agrupa e filtra) ou key (liga tabelas);\n")
	b.WriteString("# unit: BRL, USD, percent...; usage ordena as colunas que o catálogo mostra primeiro.\n")
	fmt.Fprintf(&b, "name: %s\n", yamlString(name))
	fmt.Fprintf(&b, "description: %s\n", yamlString("Dados de "+strings.Join(fileNames(tables), ", ")+"."))
	b.WriteString("tables:\n")
	for _, t := range tables {
		fmt.Fprintf(&b, "  # %s: %d linhas; %s\n", t.File, t.Rows, strings.TrimPrefix(t.Detected, t.File+": "))
		fmt.Fprintf(&b, "  - label: %s\n    name: %s\n    kind: %s\n    file: %s\n", yamlString(t.Label), t.Name, t.Kind, yamlString(t.File))
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
		b.WriteString("    columns:\n")
		for _, c := range t.Columns {
			fmt.Fprintf(&b, "      - {name: %s, label: %s, type: %s", c.Name, yamlString(c.Label), c.Type)
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
			fmt.Fprintf(&b, "  - {from: %s, to: %s}\n", yamlString(r.From), yamlString(r.To))
		}
	}
	return b.String()
}

func workspaceYAML(login, token string) string {
	return `# Inferido por lumo init: um Tenant, um usuário e uma Aplicação com os arquivos desta pasta.
# O token dá acesso aos dados: guarde-o como uma senha (ao menos 8 caracteres; troque-o à vontade).
tenants:
  - key: minha-empresa
    name: Minha empresa
    users:
      - {login: ` + login + `, name: Você, token: ` + token + `}
    desks:
      - {name: Principal, members: [` + login + `]}
    apps:
      - {key: dados, source: ., desk: Principal}
`
}

func fileNames(tables []Table) []string {
	var out []string
	for _, t := range tables {
		out = append(out, t.File)
	}
	return out
}

// yamlString quotes s when plain YAML would read it otherwise.
func yamlString(s string) string {
	plainOther := strings.ContainsAny(s[:min(1, len(s))], "0123456789-+.~") ||
		slices.Contains([]string{"true", "false", "yes", "no", "on", "off", "null"}, strings.ToLower(s))
	if s == "" || plainOther || strings.ContainsAny(s, ":#{}[],&*!|>'\"%@`") || strings.TrimSpace(s) != s {
		return fmt.Sprintf("%q", s)
	}
	return s
}
