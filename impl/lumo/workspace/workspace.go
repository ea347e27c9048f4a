// Package workspace reads and checks a lumo workspace (workspace.yaml, each app's app.yaml and its
// CSV files) from a file system, reporting every problem with file, line and field.
package workspace

import (
	"encoding/json"
	"fmt"
	"github.com/lumo-caderninho/mcp/impl/platform/yamldoc"
	"io/fs"
	"path"
	"sync"
	"time"
	_ "time/tzdata" // America/Sao_Paulo must resolve on machines without a zoneinfo database

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
	"github.com/lumo-caderninho/mcp/schemas"
)

// Workspace is a checked workspace.yaml with the models of its apps.
type Workspace struct {
	File      string // path of workspace.yaml in the file system
	Tenants   []*Tenant
	Databases []*Database
}

// Database is a PostgreSQL database app tables are loaded from (workspace.yaml databases). The
// DSN holds no password: the import reads it from the PasswordEnv variable.
type Database struct {
	Name        string
	DSN         string
	PasswordEnv string
	TimeZone    string // where timestamptz values are read as wall-clock times
}

// DefaultTimeZone is a database's TimeZone when workspace.yaml gives none, and the zone in which
// an instant of a file (a Parquet TIMESTAMP adjusted to UTC, an INT96) is read as a wall clock:
// every date-time lumo stores is a wall-clock time in Brasília, whatever its source.
const DefaultTimeZone = "America/Sao_Paulo"

// wallZone is DefaultTimeZone's rules (with its DST before 2019), from the embedded tzdata when
// the machine has no zoneinfo.
var wallZone = func() *time.Location {
	loc, err := time.LoadLocation(DefaultTimeZone)
	if err != nil {
		panic("workspace: " + err.Error())
	}
	return loc
}()

// WallClock is the wall-clock time in DefaultTimeZone, as seconds from 1970-01-01 00:00 of a
// UTC clock, of the instant sec seconds from the epoch.
func WallClock(sec int64) int64 {
	_, off := time.Unix(sec, 0).In(wallZone).Zone()
	return sec + int64(off)
}

// PostgresTable is where a table's rows come from when app.yaml gives postgres instead of file:
// a table or view (Table, checked to be a plain or schema-qualified identifier) or a SELECT.
type PostgresTable struct {
	Database *Database
	Table    string
	Query    string
}

// Where names the source in Portuguese, as errors and the import's report do.
func (p *PostgresTable) Where() string {
	if p.Table != "" {
		return "banco " + p.Database.Name + ", tabela " + p.Table
	}
	return "banco " + p.Database.Name + ", consulta"
}

// Tenant is one tenant with its users, desks and apps, in file order.
type Tenant struct {
	Key   string
	Name  string
	Users []*User
	Desks []*Desk
	Apps  []*App
}

// User is a person who signs in; Token is the secret as written in the file, Line where the
// user is in workspace.yaml.
type User struct {
	Login string
	Name  string
	Token string
	Line  int
}

// Desk is a shared space; Members are logins of users of the same tenant.
type Desk struct {
	Name    string
	Members []string
}

// App is an application of a tenant: either published from a source folder (Source set,
// CloneOf empty; Desk may be empty) or a personal copy of another app of the tenant (CloneOf
// and Owner set, Desk empty, PublishedAt nil, Source shared with the copied app).
type App struct {
	Key         string
	Desk        string
	PublishedAt *time.Time
	CloneOf     string
	Owner       string
	Source      *Source
}

// Source is an app folder: its app.yaml as a model and where each table's data is.
type Source struct {
	Dir  string // folder in the file system
	File string // its app.yaml
	// Model is the app as written: no ids, no SQL names, Scale 0, LoadedAt as written (nil for a
	// table without file, and for a table with file but no loadedAt). Indicators whose refs do
	// not resolve carry Problem.
	Model *semantic.App
	// Files holds, per Model.Tables entry, the CSV path in the file system ("" = never loaded).
	Files []string
	// Formats holds, per Model.Tables entry, the csv settings app.yaml declares for its file.
	Formats []Format
	// Postgres holds, per Model.Tables entry, the database it is loaded from (nil for a file).
	Postgres []*PostgresTable
	// Notes say, with file and line, what the import leaves out without refusing the app: the
	// calculated columns a role-playing copy inherits but cannot resolve from its place.
	Notes []string
}

// Schema files in schemas.FS.
const (
	schemaDir       = "lumo"
	workspaceSchema = "workspace.schema.json"
	appSchema       = "app.schema.json"
)

var compiledSchemas = sync.OnceValues(func() (*schemacheck.Set, error) {
	return schemacheck.Compile(schemas.FS, schemaDir)
})

// Load reads the workspace.yaml at file (or inside the folder file) and every app it names,
// validates each YAML document against its JSON Schema, checks names and refs, and checks each
// CSV header. Rows are not read here; see OpenRows. The error, when not nil, is Errors.
func Load(fsys fs.FS, file string) (*Workspace, error) {
	file = path.Clean(file)
	if st, err := fs.Stat(fsys, file); err == nil && st.IsDir() {
		file = path.Join(file, "workspace.yaml")
	}
	set, err := compiledSchemas()
	if err != nil {
		return nil, fmt.Errorf("compiling file schemas: %w", err)
	}
	var c collector
	l := &loader{fsys: fsys, set: set, c: &c, sources: map[string]*Source{}, databases: map[string]*Database{}}
	ws := l.workspace(file)
	if err := c.err(); err != nil {
		return nil, err
	}
	return ws, nil
}

type loader struct {
	fsys      fs.FS
	set       *schemacheck.Set
	c         *collector
	sources   map[string]*Source // by folder; nil value = folder with errors
	databases map[string]*Database
}

// readValidated reads a YAML file, validates it against schema and decodes it into out.
func (l *loader) readValidated(file, schema string, out any) (*yamldoc.Doc, bool) {
	d, errs := yamldoc.Read(l.fsys, file)
	if errs != nil {
		l.c.add(errs...)
		return nil, false
	}
	if vs := l.set.Validate(schema, d.Value); len(vs) > 0 {
		var errs []*Error
		for _, v := range vs {
			errs = append(errs, &Error{File: file, Line: d.Line(v.Path), Field: yamldoc.FieldName(v.Path), Message: v.Message})
		}
		l.c.add(errs...)
		return nil, false
	}
	b, err := json.Marshal(d.Value)
	if err == nil {
		err = json.Unmarshal(b, out)
	}
	if err != nil {
		l.c.add(&Error{File: file, Message: "o conteúdo não pôde ser lido: " + err.Error()})
		return nil, false
	}
	return d, true
}

func parseTime(s string) *time.Time {
	if s == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil // the schema's date-time format already refused it
	}
	return &t
}
