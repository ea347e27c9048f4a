// Package scaffold writes a lumo workspace for data a user already has: CSV files, Excel workbooks
// (.xlsx), Parquet files or folders of parts, and tables of a PostgreSQL database. It writes one
// tenant, one user with a fresh token and one app whose app.yaml is inferred from the data (tables,
// labels from the headers, types, roles, units, relationships between key columns whose names and
// values match, usage), so that `lumo import` and `lumo serve` work without edits for common data,
// and the result reads well enough to edit. Every inference is checked by reading every row with
// the importer's own reader before anything is written; what cannot be used is named with the
// reason.
package scaffold

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/printable"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Options says what Init reads.
type Options struct {
	// Paths are one folder, whose data files (and folders of Parquet parts) become the app's
	// tables, or data files and folders of Parquet parts of one folder. workspace.yaml and
	// app.yaml are written in that folder (in the current one when Paths is empty).
	Paths []string
	// Postgres is the DSN, without password, of a PostgreSQL database whose Tables join the app.
	Postgres string
	// PasswordEnv names the environment variable holding that database's password when the
	// server asks for one, as workspace.yaml's passwordEnv: Init reads it, the import reads it
	// again, and neither writes it anywhere.
	PasswordEnv string
	// Tables are tables or views of Postgres, as schema.name or name.
	Tables []string
	// Context bounds the reads of PostgreSQL; nil is context.Background().
	Context context.Context
}

// Result is what Init wrote and why.
type Result struct {
	Dir, Workspace, App string // the folder and the two files written
	Login, Token        string
	Key                 string              // the tenant's and the app's key, from the folder's name
	Database            *workspace.Database // the PostgreSQL source, nil without one
	Tables              []*Table
	Relationships       []Relationship // written to app.yaml
	Declined            []Relationship // candidates not written, with the reason
	Skipped             []Skipped      // what was not used, with the reason
}

// Table is one table's inference: from a CSV file, a sheet or range of a workbook, a Parquet
// file or folder of parts, or a PostgreSQL table.
type Table struct {
	File              string // relative to Dir; "" for PostgreSQL
	Name, Label, Kind string
	Rows              int64
	Columns           []Column
	Format            workspace.Format // declared in app.yaml (csv settings, xlsx sheet or range)
	Postgres          *workspace.PostgresTable
	Source            string // where the rows are, in Portuguese: `metas.xlsx, planilha "Metas"`
	Detected          string // the reader's description of how it read them
	Note              string // a comment for app.yaml: what the range is, what a query converts

	kind      string       // workspace.KindCSV, KindXLSX, KindParquet or kindPostgres
	explicit  bool         // named by the user: a problem stops Init instead of skipping it
	labelBase string       // what the label is made of: the file name, a sheet's or a range's name
	delim     string       // a CSV's separator
	header    *sheetHeader // an XLSX sheet's or range's header row
	sheet     string       // an XLSX table's sheet
	keys      []*keyValues // per column, the values relate compares (nil: not compared)
	// partitions are a partitioned Parquet folder's keys (ano, mes), columns whose values
	// come from the folders' names.
	partitions []string
}

// Column is one inferred column.
type Column struct {
	Name, Label, Type, Role, Unit string
	Header                        string // the name in the file when Name is derived from it
	Usage                         int
	Source                        string // PostgreSQL: the source column, when read by a query
	Cast                          bool   // PostgreSQL: read as text (a type lumo does not read)
}

// Relationship is a relationship of Init's inference: From and To are refs (Tabela.Coluna by
// label), Reason says, in Portuguese, why it was inferred, or why it was not.
type Relationship struct {
	From, To string
	Reason   string
}

// Skipped is a file, sheet, range or folder Init did not use, and why (in Portuguese).
type Skipped struct {
	What, Reason string
}

const kindPostgres = "postgres"

// maxSample is how many rows type inference looks at; the check reads every row.
const maxSample = 5000

var (
	physical = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,62}$`)
	envName  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`) // as workspace.yaml's passwordEnv
)

// Init infers a workspace for o's files and tables and writes workspace.yaml and app.yaml in their
// folder, each file whole or not at all. It refuses to overwrite either. A file named in o.Paths,
// or a PostgreSQL table, that cannot be used stops it with the reason; one found in a folder is
// skipped, and Result says why.
func Init(o Options) (*Result, error) {
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	db, err := database(o)
	if err != nil {
		return nil, err
	}
	if len(o.Paths) == 0 && db == nil {
		return nil, errors.New("informe arquivos (CSV, XLSX ou Parquet), uma pasta com eles, ou --postgres DSN com --table esquema.tabela")
	}
	dir, sources, skipped, err := expand(o.Paths, db != nil)
	if err != nil {
		return nil, err
	}
	if printable.HasControl(folderName(dir)) { // it names the app and the tenant
		return nil, fmt.Errorf("%s: %s", printable.Name(dir), controlFolder)
	}
	res := &Result{Dir: dir, Workspace: filepath.Join(dir, "workspace.yaml"), App: filepath.Join(dir, "app.yaml"), Database: db, Skipped: skipped}
	for _, p := range []string{res.Workspace, res.App} {
		if _, err := os.Lstat(p); err == nil {
			return nil, fmt.Errorf("%s já existe; o lumo init não sobrescreve: apague-o ou use outra pasta", printable.Name(p))
		}
	}
	fsys := workspace.DirFS(dir)
	var tables []*Table
	for _, s := range sources {
		ts, skip, err := s.discover(fsys)
		if err != nil {
			if s.explicit {
				return nil, err
			}
			res.Skipped = append(res.Skipped, Skipped{What: s.file, Reason: reason(err, s.file)})
			continue
		}
		res.Skipped = append(res.Skipped, skip...)
		tables = append(tables, ts...)
	}
	if db != nil {
		ts, err := postgresTables(ctx, db, o.Tables)
		if err != nil {
			return nil, err
		}
		tables = append(tables, ts...)
	}
	name(tables)
	in := &inferrer{ctx: ctx, fsys: fsys, joinable: joinable(tables)}
	failed := map[string][]Skipped{} // by file, what a named file's tables could not use
	for _, t := range tables {
		if err := in.infer(t); err != nil {
			if t.explicit && t.kind != workspace.KindXLSX {
				return nil, err
			}
			s := Skipped{What: t.Source, Reason: reason(err, t.File)}
			res.Skipped = append(res.Skipped, s)
			failed[t.File] = append(failed[t.File], s)
			continue
		}
		res.Tables = append(res.Tables, t)
	}
	for _, t := range tables { // a named workbook must give a table at least
		if used := slices.ContainsFunc(res.Tables, func(u *Table) bool { return u.File == t.File }); t.explicit && !used {
			return nil, nothingUsable(t.File, failed[t.File])
		}
	}
	if len(res.Tables) == 0 {
		return nil, nothingUsable(dir, res.Skipped)
	}
	name(res.Tables) // again, without the tables left out
	res.Relationships, res.Declined = relate(res.Tables)
	tok := make([]byte, 18)
	if _, err := rand.Read(tok); err != nil {
		return nil, err
	}
	// Keys from the folder: a second folder's workspace imports beside the first instead of
	// replacing it (one tenant each, and logins are unique across tenants).
	res.Key = folderKey(dir)
	res.Login, res.Token = "voce-"+res.Key, "tok-"+base64.RawURLEncoding.EncodeToString(tok)
	app := appYAML(appName(dir), res.Tables, res.Relationships)
	ws := workspaceYAML(res.Key, folderName(dir), res.Login, res.Token, db)
	if err := verify(fsys, ws, app); err != nil {
		return nil, err
	}
	if err := writeNew(res.App, []byte(app), 0o644); err != nil {
		return nil, err
	}
	if err := writeNew(res.Workspace, []byte(ws), 0o600); err != nil {
		os.Remove(res.App)
		return nil, err
	}
	return res, nil
}

// nothingUsable is Init's error when no table is left: the reasons each candidate was skipped.
func nothingUsable(dir string, skipped []Skipped) error {
	if len(skipped) == 0 {
		return fmt.Errorf("%s: a pasta não tem arquivos de dados (.csv, .xlsx, .parquet ou pastas de partes Parquet)", printable.Name(dir))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: nada pôde ser usado:", printable.Name(dir))
	for _, s := range skipped {
		fmt.Fprintf(&b, "\n  %s: %s", printable.Name(s.What), s.Reason)
	}
	return errors.New(b.String())
}

// reason is err's words without the file name it starts with, which the report shows beside it.
func reason(err error, file string) string {
	msg := err.Error()
	if file != "" {
		msg = strings.TrimPrefix(msg, file+": ")
	}
	return msg
}

// database is the PostgreSQL source o names, checked as workspace.yaml checks it, or nil.
func database(o Options) (*workspace.Database, error) {
	if o.Postgres == "" {
		if len(o.Tables) > 0 {
			return nil, errors.New("--table precisa de --postgres com o DSN do banco (postgres://usuario@host:5432/banco)")
		}
		if o.PasswordEnv != "" {
			return nil, errors.New("--password-env vale só com --postgres")
		}
		return nil, nil
	}
	if msg := workspace.CheckDSN(o.Postgres); msg != "" {
		if strings.Contains(msg, "senha") {
			msg = "o DSN traz a senha, que ficaria no workspace.yaml; tire-a do DSN, ponha-a numa variável de ambiente e passe o nome dela em --password-env (ex.: --password-env LUMO_ERP_SENHA)"
		}
		return nil, fmt.Errorf("--postgres: %s", msg)
	}
	if len(o.Tables) == 0 {
		return nil, errors.New("--postgres precisa de --table com as tabelas a ler (esquema.tabela, como vendas.pedidos; repita --table ou separe-as por vírgula)")
	}
	if o.PasswordEnv != "" {
		if !envName.MatchString(o.PasswordEnv) {
			return nil, fmt.Errorf("--password-env %q não é um nome de variável de ambiente (letras, dígitos e _, como LUMO_ERP_SENHA)", o.PasswordEnv)
		}
		if os.Getenv(o.PasswordEnv) == "" {
			return nil, fmt.Errorf("a variável de ambiente %s (--password-env) não está definida; defina-a com a senha antes do lumo init (e do lumo import)", o.PasswordEnv)
		}
	}
	name := "origem"
	if u, err := url.Parse(o.Postgres); err == nil {
		if k := keyOf(strings.Trim(u.Path, "/")); k != "" {
			name = k
		}
	}
	return &workspace.Database{Name: name, DSN: o.Postgres, PasswordEnv: o.PasswordEnv}, nil
}

// keyOf is s as a workspace key (lower case, digits, _ and -), "" when nothing is left.
func keyOf(s string) string {
	var b strings.Builder
	for _, r := range fold.Fold(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	k := strings.Trim(b.String(), "_-")
	if len(k) > 63 {
		k = k[:63]
	}
	return k
}

// name gives each table a physical name and a label, both unique in the app.
func name(tables []*Table) {
	usedNames, usedLabels := map[string]bool{}, map[string]bool{}
	for _, t := range tables {
		t.Label = unique(humanize(t.labelBase), usedLabels, " %d")
		t.Name = unique(physicalOf(t.Label), usedNames, "_%d")
	}
}

func unique(s string, used map[string]bool, suffix string) string {
	n := s
	for i := 2; used[strings.ToLower(n)]; i++ {
		n = s + fmt.Sprintf(suffix, i)
	}
	used[strings.ToLower(n)] = true
	return n
}

// folderName is the base name of dir, as the user wrote it.
func folderName(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if b := filepath.Base(dir); b != "/" && b != "." {
		return b
	}
	return "dados"
}

// folderKey is dir's name as a key of workspace.yaml (tenant, app, the login's suffix): lower case,
// without accents, runs of other characters as one -; "dados" when nothing is left.
func folderKey(dir string) string {
	var b strings.Builder
	dash := false
	for _, r := range fold.Fold(folderName(dir)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
		if b.Len() >= 40 { // the login adds "voce-" within the 63 a key may have
			break
		}
	}
	if b.Len() == 0 {
		return "dados"
	}
	return b.String()
}

// appName names the app after its folder, as its keys are: a folder of one file that init
// could read, or of one kept, is still the folder's app.
func appName(dir string) string {
	return humanize(folderName(dir))
}

// verify loads the workspace about to be written, with the data beside it, as `lumo import`
// does: what Init writes must load without edits.
func verify(fsys fs.FS, ws, app string) error {
	over := overlay{FS: fsys, files: map[string][]byte{"workspace.yaml": []byte(ws), "app.yaml": []byte(app)}}
	if _, err := workspace.Load(over, "workspace.yaml"); err != nil {
		return fmt.Errorf("o workspace inferido não passou na conferência do lumo import, e nada foi escrito (é um defeito do lumo init; avise-nos): %v", err)
	}
	return nil
}

// overlay is FS with files in place of the ones of the same name.
type overlay struct {
	fs.FS
	files map[string][]byte
}

func (o overlay) Open(name string) (fs.File, error) {
	if data, ok := o.files[name]; ok {
		return fstest.MapFS{name: {Data: data}}.Open(name)
	}
	return o.FS.Open(name)
}

// writeNew writes data to path whole or not at all: into a temporary file of the same folder,
// then linked (or, where links are not supported, renamed) to path, which must not exist.
func writeNew(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("não consegui escrever %s: %v", printable.Name(path), err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("não consegui escrever %s: %v", printable.Name(path), err)
	}
	err = os.Link(tmp.Name(), path)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s já existe; o lumo init não sobrescreve: apague-o ou use outra pasta", printable.Name(path))
	}
	if err != nil { // a file system without hard links: rename, which replaces, after a check
		if _, serr := os.Lstat(path); serr == nil {
			return fmt.Errorf("%s já existe; o lumo init não sobrescreve: apague-o ou use outra pasta", printable.Name(path))
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			return fmt.Errorf("não consegui escrever %s: %v", printable.Name(path), err)
		}
	}
	return nil
}

// sourceWords lists the app's sources for its description: files and the database's tables.
func sourceWords(tables []*Table) string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tables {
		s := t.File
		if s == "." {
			s = t.labelBase // the folder itself, by its name
		}
		if t.Postgres != nil {
			s = "banco " + t.Postgres.Database.Name
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return ptbr.List(out)
}
