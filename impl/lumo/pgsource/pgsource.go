// Package pgsource reads an app table's rows from another PostgreSQL database (app.yaml
// postgres:), as workspace.Rows, so the store imports it like any file.
package pgsource

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lib/pq"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// The source's column types each app.yaml type accepts (pq's DatabaseTypeName). A string
// column also takes integers and numerics (codes), written as their digits, and booleans,
// VERDADEIRO or FALSO as a workbook's and a Parquet file's; a number column 1 or 0.
var accepted = map[string]map[string]bool{
	semantic.TypeNumber:   {"INT2": true, "INT4": true, "INT8": true, "FLOAT4": true, "FLOAT8": true, "NUMERIC": true, "OID": true, "BOOL": true},
	semantic.TypeString:   {"TEXT": true, "VARCHAR": true, "BPCHAR": true, "NAME": true, "UUID": true, "CITEXT": true, "CHAR": true, "INT2": true, "INT4": true, "INT8": true, "NUMERIC": true, "BOOL": true},
	semantic.TypeDate:     {"DATE": true},
	semantic.TypeDatetime: {"TIMESTAMP": true, "TIMESTAMPTZ": true, "DATE": true},
}

var typeWords = map[string]string{
	semantic.TypeString: "texto", semantic.TypeNumber: "número", semantic.TypeDate: "data", semantic.TypeDatetime: "data e hora",
}

// Open connects to src's database (its password from the PasswordEnv variable), begins a
// read-only transaction in the database's time zone, checks that the source has every column of t (by name, case
// aside) with a type t's column takes, and starts streaming the rows. ctx bounds the whole
// read: when it ends, the query is cancelled on the server. Problems are *workspace.Error
// naming the source (never its password).
func Open(ctx context.Context, src *workspace.PostgresTable, t *semantic.Table) (workspace.Rows, error) {
	t = workspace.DataTable(t)
	r, fail, err := begin(ctx, src, t)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			r.Close()
		}
	}()
	tx, failed := r.tx, r.failed
	from := src.Table // a checked identifier: the schema allows letters, digits, _ and $ only
	if src.Query != "" {
		from = "(" + src.Query + ") AS lumo_source"
	}
	// Both statements go through the extended protocol (prepared, then run): PostgreSQL parses a
	// prepared statement as one command, so a query: that closes its parenthesis and adds "; COMMIT;
	// DELETE ..." is a syntax error instead of a second command outside the read-only transaction
	// (lib/pq sends a statement without arguments as a simple query, which runs every command).
	probe, err := queryOne(ctx, tx, "SELECT * FROM "+from+" LIMIT 0")
	if err != nil {
		return nil, fail(0, "", "%s", failed("a leitura falhou", err))
	}
	types, err := probe.ColumnTypes()
	probe.Close()
	if err != nil {
		return nil, fail(0, "", "%s", failed("a leitura falhou", err))
	}
	byName := map[string]*sql.ColumnType{}
	var names []string
	for _, ct := range types {
		names = append(names, ct.Name())
		if _, dup := byName[strings.ToLower(ct.Name())]; !dup {
			byName[strings.ToLower(ct.Name())] = ct
		}
	}
	var exprs []string
	for _, c := range t.Columns {
		ct := byName[strings.ToLower(c.SourceName())]
		for _, x := range types { // an exact match wins over a case-insensitive one
			if x.Name() == c.SourceName() {
				ct = x
			}
		}
		if ct == nil {
			return nil, fail(0, c.Name, "a origem não tem a coluna %q; ela tem %s", c.SourceName(), strings.Join(names, ", "))
		}
		dbType := ct.DatabaseTypeName()
		if !accepted[c.Type][dbType] {
			return nil, fail(0, c.Name, "a coluna é %s na origem, e o app.yaml a declara %s (%s); mude o type no app.yaml ou converta-a na consulta (query: SELECT ..., coluna::tipo AS %s)",
				strings.ToLower(dbType), c.Type, typeWords[c.Type], c.Name)
		}
		exprs = append(exprs, pq.QuoteIdentifier(ct.Name()))
		r.dbTypes = append(r.dbTypes, dbType)
	}
	r.started = time.Now().UTC()
	r.sqlRows, err = queryOne(ctx, tx, "SELECT "+strings.Join(exprs, ", ")+" FROM "+from)
	if err != nil {
		return nil, fail(0, "", "%s", failed("a leitura falhou", err))
	}
	n := len(t.Columns)
	r.raw, r.ptrs = make([]any, n), make([]any, n)
	for i := range r.raw {
		r.ptrs[i] = &r.raw[i]
	}
	r.values, r.texts = make([]any, n), make([]string, n)
	r.scales, r.units = make([]int, n), make([]string, n)
	ok = true
	return r, nil
}

// begin connects to src's database (its password from the PasswordEnv variable) and begins a
// read-only transaction in the database's time zone, bounded by ctx's deadline, for reading t.
// fail makes a *workspace.Error naming the source; the rows' failed words a read's error with
// the password masked.
func begin(ctx context.Context, src *workspace.PostgresTable, t *semantic.Table) (_ *rows, fail func(line int, field, format string, args ...any) error, err error) {
	where := src.Where()
	fail = func(line int, field, format string, args ...any) error {
		return &workspace.Error{File: where, Line: line, Field: field, Message: fmt.Sprintf(format, args...)}
	}
	dsn, password, err := dsnWithPassword(src.Database)
	if err != nil {
		return nil, nil, fail(0, "", "%s", err.Error())
	}
	// failed says what err means for the read, in Portuguese: the time limit, or the server's
	// words with the password, should they hold it, masked.
	failed := func(what string, err error) string {
		var pqErr *pq.Error // 57014: cancelled, by our cancel request or by statement_timeout
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil || (errors.As(err, &pqErr) && pqErr.Code == "57014") {
			return "a leitura passou do tempo limite da importação e foi cancelada no banco; aumente --timeout do lumo import ou faça a consulta mais leve"
		}
		msg := err.Error()
		if password != "" {
			msg = strings.ReplaceAll(msg, password, "***")
		}
		return what + ": " + msg
	}
	connector, err := pq.NewConnector(dsn)
	if err != nil {
		return nil, nil, fail(0, "", "%s", failed(fmt.Sprintf("o dsn do banco %q não pôde ser lido", src.Database.Name), err))
	}
	db := sql.OpenDB(connector)
	db.SetMaxOpenConns(1)
	r := &rows{db: db, where: where, table: t, failed: failed}
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
	if r.tx, err = db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}); err != nil {
		return nil, nil, fail(0, "", "%s", failed(fmt.Sprintf("não foi possível conectar ao banco %q", src.Database.Name), err))
	}
	zone := src.Database.TimeZone
	if zone == "" {
		zone = workspace.DefaultTimeZone
	}
	if _, err = r.tx.ExecContext(ctx, "SELECT set_config('TimeZone', $1, true)", zone); err != nil {
		return nil, nil, fail(0, "", "%s", failed(fmt.Sprintf("o fuso %q (timeZone do banco %q) não é aceito pelo PostgreSQL", zone, src.Database.Name), err))
	}
	if dl, has := ctx.Deadline(); has {
		// The server stops the statement itself too, should the cancel request not reach it; a
		// second after the deadline, so that the import's own deadline is what the caller sees.
		ms := max(1, time.Until(dl).Milliseconds()) + 1000
		if _, err = r.tx.ExecContext(ctx, "SET LOCAL statement_timeout = "+strconv.FormatInt(ms, 10)); err != nil {
			return nil, nil, fail(0, "", "%s", failed("a leitura falhou", err))
		}
	}
	return r, fail, nil
}

// queryOne runs query as one prepared statement of tx, so that it can hold only one command. The
// statement is closed with tx (closing it earlier would interrupt its rows on the connection).
func queryOne(ctx context.Context, tx *sql.Tx, query string) (*sql.Rows, error) {
	stmt, err := tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return stmt.QueryContext(ctx)
}

// dsnWithPassword is db's DSN with the password from its PasswordEnv variable, and that password.
func dsnWithPassword(db *workspace.Database) (string, string, error) {
	if db.PasswordEnv == "" {
		return db.DSN, "", nil
	}
	password, set := os.LookupEnv(db.PasswordEnv)
	if !set || password == "" {
		return "", "", fmt.Errorf("a variável de ambiente %s (passwordEnv do banco %q) não está definida; defina-a com a senha antes do lumo import", db.PasswordEnv, db.Name)
	}
	u, err := url.Parse(db.DSN)
	if err != nil {
		return "", "", fmt.Errorf("o dsn do banco %q não é uma URL", db.Name)
	}
	u.User = url.UserPassword(u.User.Username(), password)
	return u.String(), password, nil
}

// rows streams the SELECT's rows, converting each value to its column's type.
type rows struct {
	db      *sql.DB
	tx      *sql.Tx
	sqlRows *sql.Rows
	where   string
	table   *semantic.Table
	dbTypes []string
	started time.Time
	failed  func(string, error) string

	raw, ptrs []any
	values    []any
	texts     []string
	scales    []int
	units     []string
	line      int
	count     int64
	err       error
}

// LoadedAt is when the read began: the time the rows are as of.
func (r *rows) LoadedAt() time.Time { return r.started }

func (r *rows) Columns() []*semantic.Column { return r.table.Columns }
func (r *rows) Values() []any               { return r.values }
func (r *rows) Text(i int) string           { return r.texts[i] }
func (r *rows) Line() int                   { return r.line }
func (r *rows) Count() int64                { return r.count }
func (r *rows) Scales() []int               { return r.scales }
func (r *rows) Units() []string             { return r.units }
func (r *rows) Err() error                  { return r.err }

func (r *rows) Description() string {
	return r.where + ": " + ptbr.Count(int(r.count), "linha", "linhas")
}

func (r *rows) Next() bool {
	if r.err != nil || r.sqlRows == nil {
		return false
	}
	if !r.sqlRows.Next() {
		if err := r.sqlRows.Err(); err != nil {
			r.err = &workspace.Error{File: r.where, Message: r.failed("a leitura falhou", err)}
		}
		return false
	}
	r.line++
	if err := r.sqlRows.Scan(r.ptrs...); err != nil {
		r.err = &workspace.Error{File: r.where, Line: r.line, Message: r.failed("a linha não pôde ser lida", err)}
		return false
	}
	for i, c := range r.table.Columns {
		if msg := r.convert(i, c); msg != "" {
			r.err = &workspace.Error{File: r.where, Line: r.line, Field: c.Name, Message: msg}
			return false
		}
	}
	r.count++
	return true
}

// convert sets values[i] and texts[i] from raw[i], or says why the value does not fit.
func (r *rows) convert(i int, c *semantic.Column) string {
	switch v := r.raw[i].(type) {
	case nil:
		r.values[i], r.texts[i] = nil, ""
		return ""
	case int64:
		s := strconv.FormatInt(v, 10)
		if c.Type == semantic.TypeString {
			r.values[i], r.texts[i] = s, s
		} else {
			r.values[i], r.texts[i] = float64(v), s
		}
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Sprintf("o valor %v não é um número finito; filtre-o na consulta (WHERE %s <> 'NaN'::float8) ou troque-o por NULL", v, c.Name)
		}
		s := strconv.FormatFloat(v, 'f', -1, 64)
		r.values[i], r.texts[i] = v, s
		r.scale(i, s)
	case []byte: // numeric and text types
		return r.convertText(i, c, v)
	case string:
		return r.convertText(i, c, []byte(v))
	case bool: // as a workbook and a Parquet file give it
		switch {
		case c.Type == semantic.TypeNumber && v:
			r.values[i], r.texts[i] = 1.0, "1"
		case c.Type == semantic.TypeNumber:
			r.values[i], r.texts[i] = 0.0, "0"
		case v:
			r.values[i], r.texts[i] = "VERDADEIRO", "VERDADEIRO"
		default:
			r.values[i], r.texts[i] = "FALSO", "FALSO"
		}
	case time.Time:
		if y := v.Year(); y < 1 || y > 9999 {
			return fmt.Sprintf("a data %s fica fora de 0001-01-01 a 9999-12-31", v.Format(time.RFC3339))
		}
		// The wall clock in the session's zone, to the second as every datetime.
		v = time.Date(v.Year(), v.Month(), v.Day(), v.Hour(), v.Minute(), v.Second(), 0, time.UTC)
		if c.Type == semantic.TypeDate {
			r.values[i], r.texts[i] = v, v.Format(time.DateOnly)
		} else {
			r.values[i], r.texts[i] = v, v.Format(time.DateTime)
		}
	default:
		return fmt.Sprintf("o valor da origem (%T) não cabe na coluna %s", v, typeWords[c.Type])
	}
	return ""
}

func (r *rows) convertText(i int, c *semantic.Column, b []byte) string {
	if len(b) > workspace.MaxValueBytes {
		return "o valor passa de 1 MiB; corte-o na consulta (left(coluna, 1000)) ou deixe a coluna de fora"
	}
	switch c.Type {
	case semantic.TypeNumber: // NUMERIC arrives as its exact decimal text
		s := string(b)
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Sprintf("o valor %q não é um número finito que caiba em 64 bits; filtre-o na consulta ou troque-o por NULL", s)
		}
		r.values[i], r.texts[i] = f, s
		r.scale(i, s)
	case semantic.TypeString:
		if !utf8.Valid(b) {
			return "o texto não é UTF-8 válido; confira a codificação do banco"
		}
		s := string(b)
		r.values[i], r.texts[i] = s, s
	default: // date types with 'infinity' and the like arrive as text
		return fmt.Sprintf("o valor %q não é uma data entre 0001-01-01 e 9999-12-31", truncate(string(b), 40))
	}
	return ""
}

func (r *rows) scale(i int, s string) {
	if dot := strings.IndexByte(s, '.'); dot >= 0 {
		r.scales[i] = max(r.scales[i], len(s)-dot-1)
	}
}

func (r *rows) Close() error {
	if r.sqlRows != nil {
		r.sqlRows.Close()
	}
	if r.tx != nil {
		r.tx.Rollback() // read-only: nothing to keep
	}
	return r.db.Close()
}

// truncate is s cut to at most n runes, for quoting a value in a message.
func truncate(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}
