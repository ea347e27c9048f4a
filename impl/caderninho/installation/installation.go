// Package installation reads and checks a caderninho installation.yaml, reporting every problem
// with file, line and field in Portuguese.
package installation

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
	"github.com/lumo-caderninho/mcp/impl/platform/yamldoc"
	"github.com/lumo-caderninho/mcp/schemas"
)

// Installation is a checked installation.yaml.
type Installation struct {
	File        string // path of the file in its file system
	Timezone    string
	Location    *time.Location
	People      []*Person
	Spaces      []*Space
	Connections []*Connection
	Assistants  []*Assistant
}

// Person is someone of the household who holds accounts.
type Person struct {
	Key, Name string
}

// Space groups connections (and, later, planning data); Categories keep the file's order.
type Space struct {
	Key, Name  string
	Categories []string
}

// Connection is one bank relationship: its statements are the OFX and CSV files in Source, a
// folder in the file system relative to its root (the installation.yaml's folder joined with the
// file's source). Format, when not "", is the format of its CSV files (a key of bankcsv.Formats,
// as the schema's enum lists them); "" reads each CSV in the format its header is recognised as.
type Connection struct {
	Key         string
	Institution string
	Holder      string // person key
	Space       string // space key
	Source      string
	Format      string
	Line        int
}

// Assistant is an MCP client allowed to read the whole installation; Token is the secret as
// written in the file (stored hashed).
type Assistant struct {
	Name, Token string
	Line        int
}

const (
	schemaDir  = "caderninho"
	schemaFile = "installation.schema.json"
)

var compiled = sync.OnceValues(func() (*schemacheck.Set, error) {
	return schemacheck.Compile(schemas.FS, schemaDir)
})

// file is installation.yaml as its schema describes it.
type file struct {
	Timezone string `json:"timezone"`
	People   []struct {
		Key  string `json:"key"`
		Name string `json:"name"`
	} `json:"people"`
	Spaces []struct {
		Key        string   `json:"key"`
		Name       string   `json:"name"`
		Categories []string `json:"categories"`
	} `json:"spaces"`
	Connections []struct {
		Key         string `json:"key"`
		Institution string `json:"institution"`
		Holder      string `json:"holder"`
		Space       string `json:"space"`
		Source      string `json:"source"`
		Format      string `json:"format"`
	} `json:"connections"`
	Assistants []struct {
		Name  string `json:"name"`
		Token string `json:"token"`
	} `json:"assistants"`
}

// Load reads the installation.yaml at name (or inside the folder name) from fsys, validates it
// against schemas/caderninho/installation.schema.json and checks keys, references, time zone and
// that every source folder exists. The error, when not nil, is yamldoc.Errors.
func Load(fsys fs.FS, name string) (*Installation, error) {
	name = path.Clean(name)
	if st, err := fs.Stat(fsys, name); err == nil && st.IsDir() {
		name = path.Join(name, "installation.yaml")
	}
	set, err := compiled()
	if err != nil {
		return nil, fmt.Errorf("compiling the installation schema: %w", err)
	}
	d, errs := yamldoc.Read(fsys, name)
	if errs != nil {
		return nil, errs
	}
	if vs := set.Validate(schemaFile, d.Value); len(vs) > 0 {
		for _, v := range vs {
			errs = append(errs, &yamldoc.Error{File: name, Line: d.Line(v.Path), Field: yamldoc.FieldName(v.Path), Message: v.Message})
		}
		errs.Sort()
		return nil, errs
	}
	var f file
	b, err := json.Marshal(d.Value)
	if err == nil {
		err = json.Unmarshal(b, &f)
	}
	if err != nil {
		return nil, yamldoc.Errors{{File: name, Message: "o conteúdo não pôde ser lido: " + err.Error()}}
	}
	inst, errs := check(fsys, d, &f)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return inst, nil
}

func check(fsys fs.FS, d *yamldoc.Doc, f *file) (*Installation, yamldoc.Errors) {
	var errs yamldoc.Errors
	p := yamldoc.Path
	inst := &Installation{File: d.File, Timezone: f.Timezone}
	loc, err := time.LoadLocation(f.Timezone)
	if err != nil || f.Timezone == "Local" {
		errs = append(errs, d.ErrAt(p("timezone"), "o fuso %q não existe; use um nome IANA como America/Sao_Paulo", f.Timezone))
	}
	inst.Location = loc

	people := map[string]int{}
	var personKeys []string
	for i, fp := range f.People {
		if first, dup := people[fp.Key]; dup {
			errs = append(errs, d.ErrAt(p("people", i, "key"), "a pessoa %q já foi definida em people[%d]; cada pessoa precisa de uma key própria", fp.Key, first))
			continue
		}
		people[fp.Key] = i
		personKeys = append(personKeys, fp.Key)
		inst.People = append(inst.People, &Person{Key: fp.Key, Name: fp.Name})
	}

	spaces := map[string]int{}
	var spaceKeys []string
	for i, fs := range f.Spaces {
		if first, dup := spaces[fs.Key]; dup {
			errs = append(errs, d.ErrAt(p("spaces", i, "key"), "o espaço %q já foi definido em spaces[%d]; cada espaço precisa de uma key própria", fs.Key, first))
			continue
		}
		spaces[fs.Key] = i
		spaceKeys = append(spaceKeys, fs.Key)
		s := &Space{Key: fs.Key, Name: fs.Name}
		seen := map[string]int{}
		for ci, c := range fs.Categories {
			c = strings.TrimSpace(c)
			k := fold.Fold(c)
			if k == "" {
				errs = append(errs, d.ErrAt(p("spaces", i, "categories", ci), "a categoria está vazia"))
				continue
			}
			if first, dup := seen[k]; dup {
				errs = append(errs, d.ErrAt(p("spaces", i, "categories", ci), "a categoria %q repete categories[%d] (acento e caixa não distinguem categorias); deixe uma só", c, first))
				continue
			}
			seen[k] = ci
			s.Categories = append(s.Categories, c)
		}
		inst.Spaces = append(inst.Spaces, s)
	}

	dir := path.Dir(d.File)
	conns := map[string]int{}
	sources := map[string]int{}
	for i, fc := range f.Connections {
		cp := p("connections", i)
		if first, dup := conns[fc.Key]; dup {
			errs = append(errs, d.ErrAt(append(cp, "key"), "a conexão %q já foi definida em connections[%d]; cada conexão precisa de uma key própria", fc.Key, first))
			continue
		}
		conns[fc.Key] = i
		if _, ok := people[fc.Holder]; !ok {
			errs = append(errs, d.ErrAt(append(cp, "holder"), "a pessoa %q não existe em people; %s", fc.Holder, choices(fc.Holder, personKeys, "pessoas", true)))
		}
		if _, ok := spaces[fc.Space]; !ok {
			errs = append(errs, d.ErrAt(append(cp, "space"), "o espaço %q não existe em spaces; %s", fc.Space, choices(fc.Space, spaceKeys, "espaços", false)))
		}
		src := path.Clean(path.Join(dir, fc.Source))
		if strings.HasPrefix(fc.Source, "/") || !fs.ValidPath(src) {
			errs = append(errs, d.ErrAt(append(cp, "source"), "a pasta %q precisa ser relativa ao installation.yaml e ficar dentro da pasta dele", fc.Source))
		} else if st, err := fs.Stat(fsys, src); err != nil || !st.IsDir() {
			errs = append(errs, d.ErrAt(append(cp, "source"), "a pasta de extratos %q não existe (o caminho é relativo ao installation.yaml)", fc.Source))
		} else if first, dup := sources[src]; dup {
			errs = append(errs, d.ErrAt(append(cp, "source"), "a pasta %q já é a de connections[%d]; cada conexão lê a sua própria pasta", fc.Source, first))
		} else {
			sources[src] = i
		}
		inst.Connections = append(inst.Connections, &Connection{Key: fc.Key, Institution: fc.Institution, Holder: fc.Holder,
			Space: fc.Space, Source: src, Format: fc.Format, Line: d.Line(cp)})
	}

	names := map[string]int{}
	tokens := map[string]int{}
	for i, fa := range f.Assistants {
		ap := p("assistants", i)
		if first, dup := names[fa.Name]; dup {
			errs = append(errs, d.ErrAt(append(ap, "name"), "o assistente %q já foi definido em assistants[%d]; dê outro nome", fa.Name, first))
			continue
		}
		names[fa.Name] = i
		if first, dup := tokens[fa.Token]; dup {
			errs = append(errs, d.ErrAt(append(ap, "token"), "o token já é usado por assistants[%d]; dê a cada assistente um token próprio", first))
			continue
		}
		tokens[fa.Token] = i
		inst.Assistants = append(inst.Assistants, &Assistant{Name: fa.Name, Token: fa.Token, Line: d.Line(ap)})
	}
	return inst, errs
}

// choices suggests the similar names, or lists them when few.
func choices(name string, names []string, what string, fem bool) string {
	defined, similar := " definidos", " parecidos: "
	if fem {
		defined, similar = " definidas", " parecidas: "
	}
	if len(names) == 0 {
		return "não há " + what + defined
	}
	if sim := suggest.Similar(name, names, 5); len(sim) > 0 {
		return what + similar + strings.Join(sim, ", ")
	}
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	if len(sorted) > 10 {
		return fmt.Sprintf("confira a grafia (há %d %s)", len(sorted), what)
	}
	return what + " existentes: " + strings.Join(sorted, ", ")
}
