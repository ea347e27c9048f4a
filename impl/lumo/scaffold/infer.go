package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/pgsource"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

// inferrer types each table's columns and checks them by reading every row.
type inferrer struct {
	ctx      context.Context
	fsys     fs.FS
	joinable map[string]bool // folded column names a relationship may join on
}

// infer decides t's column types, roles and units: from a sample of each column's values read
// as text (a PostgreSQL table from its column types), then by reading every row with the
// importer's reader, giving up a column whose values do not all fit for text. A CSV whose
// amounts or dates read two ways declares the Brazilian reading; an XLSX sheet whose values run
// past its header's columns is read as the range under the header.
func (in *inferrer) infer(t *Table) error {
	if t.kind != kindPostgres {
		sample, err := in.sample(t)
		if errs := readerErrors(err); len(errs) > 0 && t.settle(errs[0]) {
			sample, err = in.sample(t)
		}
		if err != nil {
			return err
		}
		for i := range t.Columns {
			inferColumn(&t.Columns[i], sample[i])
			if slices.Contains(t.partitions, t.Columns[i].source()) {
				partitionColumn(&t.Columns[i], sample[i])
			}
		}
	}
	for attempt := 0; ; attempt++ {
		err := in.check(t)
		if err == nil {
			break
		}
		errs := readerErrors(err)
		if len(errs) == 0 || attempt > len(t.Columns)+2 {
			return err
		}
		if t.settle(errs[0]) {
			continue
		}
		if t.kind == kindPostgres { // its types are the source's: nothing to give up
			return err
		}
		degraded := false
		for _, e := range errs {
			if i := t.columnOf(e.Field); i >= 0 && t.Columns[i].Type != "string" {
				c := &t.Columns[i]
				c.Type, c.Unit = "string", "" // not every value is a number or a date
				c.Role = roleOf(c)
				degraded = true
			}
		}
		if !degraded {
			return err
		}
	}
	t.Kind = kindOf(t)
	return nil
}

// readerErrors are the problems a reader's error names (none for another error).
func readerErrors(err error) workspace.Errors {
	var errs workspace.Errors
	var we *workspace.Error
	switch {
	case errors.As(err, &errs):
		return errs
	case errors.As(err, &we):
		return workspace.Errors{we}
	}
	return nil
}

// settle declares what a problem of the whole file shows to be missing: a CSV's decimal or date
// format, an XLSX sheet's range under its header. It reports whether it declared anything.
func (t *Table) settle(we *workspace.Error) bool {
	switch t.kind {
	case workspace.KindCSV:
		if strings.Contains(we.Message, "csv.decimal") && t.Format.Decimal == "" {
			// Every amount reads both ways (1.000): a ";" file is written the Brazilian way.
			t.Format.Decimal = "."
			if t.delim == ";" {
				t.Format.Decimal = ","
			}
			return true
		}
		if strings.Contains(we.Message, "csv.dateFormat") && t.Format.DateFormat == "" {
			// The Brazilian order, as the user's spreadsheet writes it, with the years the
			// reader saw (dd/mm/aa or dd/mm/aaaa).
			t.Format.DateFormat = workspace.DatesDMY
			if m := dateSetting.FindStringSubmatch(we.Message); m != nil {
				t.Format.DateFormat = m[1]
			}
			return true
		}
	case workspace.KindXLSX:
		if strings.Contains(we.Message, "não tem nome no cabeçalho") && t.Format.XLSX.Range == "" {
			h := t.header
			t.Format.XLSX.Range = area{h.row, h.cells[0].col, lastRow, h.cells[len(h.cells)-1].col}.String()
			t.Note = "só as colunas sob o cabeçalho: ao lado delas há valores sem nome de coluna"
			return true
		}
	}
	return false
}

// kindOf is fact for a table with a measure or a date, dimension otherwise.
func kindOf(t *Table) string {
	for _, c := range t.Columns {
		if c.Role == "measure" || c.Type == "date" || c.Type == "datetime" {
			return "fact"
		}
	}
	return "dimension"
}

// columnOf is the column a reader's error names: by its exact name, as Table.NAME, or, in a
// workbook, by the cell under its header (Vendas!D17). A substring match would let an error on
// LOJA_ID degrade ID.
func (t *Table) columnOf(field string) int {
	for i, c := range t.Columns {
		if n := c.source(); n == field || strings.HasSuffix(field, "."+n) {
			return i
		}
	}
	if t.kind == workspace.KindXLSX {
		return t.columnOfCell(field)
	}
	return -1
}

// columnIndex is the index of the column whose name in the file is name, -1 when none.
func (t *Table) columnIndex(name string) int {
	for i, c := range t.Columns {
		if c.source() == name {
			return i
		}
	}
	return -1
}

// source is the column's name in its file: its header, or its physical name.
func (c Column) source() string {
	if c.Header != "" {
		return c.Header
	}
	return c.Name
}

func (t *Table) semantic() *semantic.Table {
	st := &semantic.Table{Name: t.Name, Label: t.Label, Kind: "fact"}
	if st.Name == "" {
		st.Name = "t"
	}
	for _, c := range t.Columns {
		st.Columns = append(st.Columns, &semantic.Column{Table: st, Name: c.Name, Header: c.Header, Label: c.Label, Type: c.Type, Role: c.Role, Unit: c.Unit})
	}
	return st
}

// open starts reading t's rows as the import would, with st's column types.
func (in *inferrer) open(t *Table, st *semantic.Table) (workspace.Rows, error) {
	if t.Postgres != nil {
		return pgsource.Open(in.ctx, t.Postgres, st)
	}
	return workspace.OpenRows(in.fsys, t.File, st, t.Format)
}

// check reads every row of t as the import would, keeping the values of the columns a
// relationship may join on.
func (in *inferrer) check(t *Table) error {
	rows, err := in.open(t, t.semantic())
	if err != nil {
		return err
	}
	defer rows.Close()
	t.keys = make([]*keyValues, len(t.Columns))
	for i, c := range t.Columns {
		if in.joinable[lower(c.Name)] && c.Unit == "" && (c.Type == "string" || c.Type == "number") {
			t.keys[i] = &keyValues{set: map[string]struct{}{}, integral: true}
		}
	}
	for rows.Next() {
		for i, v := range rows.Values() {
			if k := t.keys[i]; k != nil && v != nil {
				k.add(v)
			}
		}
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

// maxKeyValues bounds the distinct values kept per column for relationships: a column with more
// is not compared.
const maxKeyValues = 1_000_000

// keyValues are a column's distinct values, as relate compares them.
type keyValues struct {
	set      map[string]struct{}
	nonBlank int64
	over     bool // more than maxKeyValues distinct values
	integral bool // every number is a whole one
}

func (k *keyValues) add(v any) {
	var s string
	switch x := v.(type) {
	case string:
		if s = strings.TrimSpace(x); s == "" {
			return
		}
	case float64:
		k.integral = k.integral && x == math.Trunc(x)
		s = strconv.FormatFloat(x, 'f', -1, 64)
	case time.Time:
		s = x.Format(time.DateTime)
	default:
		s = fmt.Sprint(x)
	}
	k.nonBlank++
	if k.over {
		return
	}
	k.set[s] = struct{}{}
	if len(k.set) > maxKeyValues {
		k.over, k.set = true, nil
	}
}

// unique reports whether every value of the column is another (blanks aside).
func (k *keyValues) unique() bool { return !k.over && int64(len(k.set)) == k.nonBlank }

// sample is up to maxSample values of each column, read as text.
func (in *inferrer) sample(t *Table) ([][]string, error) {
	rows, err := in.open(t, t.semantic())
	if err != nil {
		return nil, err
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
	dateSetting = regexp.MustCompile(`csv\.dateFormat: (dd/mm/aa(?:aa)?)\b`)
	dateRe      = regexp.MustCompile(`^(\d{1,2}/\d{1,2}/(\d{2}|\d{4})|\d{4}-\d{2}-\d{2})$`)
	dateTimeRe  = regexp.MustCompile(`^(\d{1,2}/\d{1,2}/(\d{2}|\d{4})|\d{4}-\d{2}-\d{2})[ T]\d{1,2}:\d{2}(:\d{2})?$`)
	numberRe    = regexp.MustCompile(`^\(?\s*-?\s*(R\$|US\$)?\s*-?\s*\d[\d.,]*\s*%?\s*\)?$`)
	keyNameRe   = regexp.MustCompile(`(?i)(^id$|_id$|^id_|^cod|codigo|^cpf$|^cnpj$|^cep$|^pedido$|^(num|nr|numero)_|^(no|nr|nro|num|numero)$|^sku$|matricula)`)
	// calendarRe names numbers that group rather than add up.
	calendarRe = regexp.MustCompile(`(?i)^(ano|mes|semana|trimestre|semestre)$`)
)

// inferColumn decides a column's type, role and unit from its sample.
func inferColumn(c *Column, values []string) {
	defer func() { c.Role = roleOf(c) }()
	if len(values) == 0 {
		return
	}
	all := func(res ...*regexp.Regexp) bool {
		for _, v := range values {
			if !matchAny(strings.TrimSpace(v), res) {
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
	case all(dateRe, dateTimeRe): // some values at midnight, as a workbook writes them
		c.Type = "datetime"
	case all(numberRe):
		c.Type = "number"
		joined := strings.Join(values, " ")
		switch {
		case strings.Contains(joined, "US$"):
			c.Unit = "USD"
		case strings.Contains(joined, "R$"):
			c.Unit = "BRL"
		case strings.Contains(joined, "%"):
			c.Unit = "percent"
		case strings.Contains(c.Header, "US$"): // "Valor (US$)": the header says what the values do not
			c.Unit = "USD"
		case strings.Contains(c.Header, "R$"):
			c.Unit = "BRL"
		}
	}
}

// partitionColumn types a partition's column from its values (the folders' names): a number
// when every value is an integer, a date when every value is an ISO date (AAAA-MM-DD), text
// otherwise. It groups rows (a key by its name, a dimension otherwise), never adds up: ano=2024
// and mes=01 are no amounts. NULL, as DuckDB up to 1.4 wrote a NULL key, is no value.
func partitionColumn(c *Column, values []string) {
	c.Type, c.Unit = "string", ""
	var vals []string
	for _, v := range values {
		if v != "NULL" {
			vals = append(vals, v)
		}
	}
	if len(vals) > 0 {
		switch {
		case allMatch(vals, integerRe):
			c.Type = "number"
		case allMatch(vals, isoDateRe):
			c.Type = "date"
		}
	}
	c.Role = "dimension"
	if keyNameRe.MatchString(c.Name) {
		c.Role = "key"
	}
}

var (
	integerRe = regexp.MustCompile(`^-?\d+$`)
	isoDateRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

func allMatch(values []string, re *regexp.Regexp) bool {
	for _, v := range values {
		if !re.MatchString(v) {
			return false
		}
	}
	return true
}

// roleOf is a column's role by its name and type: a key by its name (ID, *_ID, COD*, CPF...), a
// measure for other numbers but calendar ones (ANO, MES), a dimension otherwise.
func roleOf(c *Column) string {
	switch {
	case keyNameRe.MatchString(c.Name):
		return "key"
	case c.Type == "number" && !calendarRe.MatchString(c.Name):
		return "measure"
	}
	return "dimension"
}

func matchAny(v string, res []*regexp.Regexp) bool {
	for _, re := range res {
		if re.MatchString(v) {
			return true
		}
	}
	return false
}
