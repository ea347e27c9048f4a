package workspace

import (
	"fmt"
	"github.com/lumo-caderninho/mcp/impl/platform/yamldoc"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
)

// wsFile is workspace.yaml as its schema describes it.
type wsFile struct {
	Tenants []struct {
		Key   string `json:"key"`
		Name  string `json:"name"`
		Users []struct {
			Login string `json:"login"`
			Name  string `json:"name"`
			Token string `json:"token"`
		} `json:"users"`
		Desks []struct {
			Name    string   `json:"name"`
			Members []string `json:"members"`
		} `json:"desks"`
		Apps []struct {
			Key         string `json:"key"`
			Source      string `json:"source"`
			Desk        string `json:"desk"`
			PublishedAt string `json:"publishedAt"`
			CloneOf     string `json:"cloneOf"`
			Owner       string `json:"owner"`
		} `json:"apps"`
	} `json:"tenants"`
	Databases []struct {
		Name        string `json:"name"`
		DSN         string `json:"dsn"`
		PasswordEnv string `json:"passwordEnv"`
		TimeZone    string `json:"timeZone"`
	} `json:"databases"`
}

// workspace reads workspace.yaml and the apps it names.
func (l *loader) workspace(file string) *Workspace {
	var f wsFile
	d, ok := l.readValidated(file, workspaceSchema, &f)
	if !ok {
		return nil
	}
	dir := path.Dir(file)
	ws := &Workspace{File: file}
	var errs []*Error
	tenantAt := map[string]int{}
	loginAt := map[string]string{} // login -> field where it was first defined
	tokenOf := map[string]string{} // token -> login
	type pending struct {
		app  *App
		path []string
	}
	var sources []pending
	for di, fd := range f.Databases {
		dp := yamldoc.Path("databases", di)
		if _, dup := l.databases[fd.Name]; dup {
			errs = append(errs, d.ErrAt(at(dp, "name"), "o banco %q já foi declarado; cada banco precisa de um nome próprio", fd.Name))
			continue
		}
		if msg := checkDSN(fd.DSN); msg != "" {
			errs = append(errs, d.ErrAt(at(dp, "dsn"), "%s", msg))
			continue
		}
		db := &Database{Name: fd.Name, DSN: fd.DSN, PasswordEnv: fd.PasswordEnv, TimeZone: fd.TimeZone}
		if db.TimeZone == "" {
			db.TimeZone = DefaultTimeZone
		}
		l.databases[fd.Name] = db
		ws.Databases = append(ws.Databases, db)
	}
	for ti, ft := range f.Tenants {
		tp := yamldoc.Path("tenants", ti)
		if first, dup := tenantAt[ft.Key]; dup {
			errs = append(errs, d.ErrAt(at(tp, "key"), "o tenant %q já foi definido em tenants[%d]; cada tenant precisa de uma chave própria", ft.Key, first))
			continue
		}
		tenantAt[ft.Key] = ti
		t := &Tenant{Key: ft.Key, Name: ft.Name}
		ws.Tenants = append(ws.Tenants, t)

		users := map[string]bool{}
		var logins []string
		for ui, fu := range ft.Users {
			up := at(tp, "users", ui)
			if first, dup := loginAt[fu.Login]; dup {
				errs = append(errs, d.ErrAt(at(up, "login"), "o login %q já existe em %s; cada login é único no workspace inteiro", fu.Login, first))
				continue
			}
			loginAt[fu.Login] = yamldoc.FieldName(up)
			if other, dup := tokenOf[fu.Token]; dup {
				errs = append(errs, d.ErrAt(at(up, "token"), "o token já é usado por %q; dê a cada usuário um token próprio", other))
			}
			tokenOf[fu.Token] = fu.Login
			users[fu.Login] = true
			logins = append(logins, fu.Login)
			t.Users = append(t.Users, &User{Login: fu.Login, Name: fu.Name, Token: fu.Token, Line: d.Line(up)})
		}

		desks := map[string]bool{}
		var deskNames []string
		for di, fd := range ft.Desks {
			dp := at(tp, "desks", di)
			if desks[fd.Name] {
				errs = append(errs, d.ErrAt(at(dp, "name"), "a mesa %q já existe neste tenant; dê outro nome ou junte as duas", fd.Name))
				continue
			}
			desks[fd.Name] = true
			deskNames = append(deskNames, fd.Name)
			desk := &Desk{Name: fd.Name}
			seen := map[string]bool{}
			for mi, m := range fd.Members {
				if !users[m] {
					errs = append(errs, d.ErrAt(at(dp, "members", mi), "o usuário %q não existe no tenant %q; %s", m, ft.Key, choices(m, logins, "usuários", false)))
					continue
				}
				if !seen[m] {
					seen[m] = true
					desk.Members = append(desk.Members, m)
				}
			}
			t.Desks = append(t.Desks, desk)
		}

		apps := map[string]int{}
		for ai, fa := range ft.Apps {
			ap := at(tp, "apps", ai)
			if first, dup := apps[fa.Key]; dup {
				errs = append(errs, d.ErrAt(at(ap, "key"), "a Aplicação %q já existe em tenants[%d].apps[%d]; cada Aplicação do tenant precisa de uma chave própria", fa.Key, ti, first))
				continue
			}
			apps[fa.Key] = ai
			a := &App{Key: fa.Key, Desk: fa.Desk, PublishedAt: parseTime(fa.PublishedAt), CloneOf: fa.CloneOf, Owner: fa.Owner}
			t.Apps = append(t.Apps, a)
			if fa.Desk != "" && !desks[fa.Desk] {
				errs = append(errs, d.ErrAt(at(ap, "desk"), "a mesa %q não existe no tenant %q; %s", fa.Desk, ft.Key, choices(fa.Desk, deskNames, "mesas", true)))
			}
			if fa.Source != "" {
				a.Source = &Source{Dir: path.Join(dir, fa.Source)}
				sources = append(sources, pending{a, at(ap, "source")})
				continue
			}
			if !users[fa.Owner] {
				errs = append(errs, d.ErrAt(at(ap, "owner"), "o usuário %q não existe no tenant %q; %s", fa.Owner, ft.Key, choices(fa.Owner, logins, "usuários", false)))
			}
			if fa.PublishedAt != "" {
				errs = append(errs, d.ErrAt(at(ap, "publishedAt"), "uma cópia pessoal (cloneOf) não é publicada; remova publishedAt"))
			}
		}
		// Copies may name apps defined after them.
		var keys []string
		for _, a := range t.Apps {
			keys = append(keys, a.Key)
		}
		for _, a := range t.Apps {
			if a.CloneOf == "" {
				continue
			}
			cp := at(tp, "apps", apps[a.Key], "cloneOf")
			var orig *App
			for _, o := range t.Apps {
				if o.Key == a.CloneOf {
					orig = o
				}
			}
			switch {
			case orig == nil:
				errs = append(errs, d.ErrAt(cp, "a Aplicação %q não existe no tenant %q; %s", a.CloneOf, ft.Key, choices(a.CloneOf, keys, "Aplicações", true)))
			case orig.CloneOf != "":
				errs = append(errs, d.ErrAt(cp, "%q já é uma cópia pessoal; copie a Aplicação original, %q", a.CloneOf, orig.CloneOf))
			default:
				a.Source = orig.Source // filled in below, shared
			}
		}
	}
	l.c.add(errs...)

	// Read each source folder once, in file order.
	for _, s := range sources {
		folder := s.app.Source.Dir
		if !fs.ValidPath(folder) { // "." is the workspace folder itself: app.yaml beside workspace.yaml
			l.c.add(d.ErrAt(s.path, "a pasta %q fica fora do workspace; use um caminho relativo ao workspace.yaml, dentro da pasta dele", folder))
			continue
		}
		src, seen := l.sources[folder]
		if !seen {
			src = l.source(d, s.path, folder)
			l.sources[folder] = src
		}
		if src != nil {
			*s.app.Source = *src
		}
	}
	// Copies point at their original's Source, which is now filled in (or empty after errors).
	return ws
}

// choices ends a "does not exist" message: the similar names, or every name when few. what is
// the plural noun; fem says whether it takes feminine agreement.
func choices(name string, names []string, what string, fem bool) string {
	similar, defined := " parecidos: ", "não há "+what+" definidos"
	if fem {
		similar, defined = " parecidas: ", "não há "+what+" definidas"
	}
	if len(names) == 0 {
		return defined
	}
	if sim := suggest.Similar(name, names, 5); len(sim) > 0 {
		return what + similar + strings.Join(sim, ", ")
	}
	if len(names) <= 10 {
		sorted := append([]string(nil), names...)
		sort.Strings(sorted)
		return what + " existentes: " + strings.Join(sorted, ", ")
	}
	return fmt.Sprintf("confira a grafia (há %d %s)", len(names), what)
}

// at extends a path with keys and indexes, always copying.
func at(base []string, parts ...any) []string {
	return append(append([]string(nil), base...), yamldoc.Path(parts...)...)
}

// checkDSN says what is wrong with a database's DSN, in Portuguese ("" when nothing), never
// repeating it: it must be a postgres:// URL with a host and a database, and without a password
// (after the user or as a parameter), which would then sit in the file.
func checkDSN(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "o dsn precisa ser uma URL postgres://usuario@host:5432/banco"
	}
	_, has := u.User.Password()
	for k := range u.Query() { // lib/pq also reads password=, and sslpassword= unlocks a client key
		has = has || strings.Contains(strings.ToLower(k), "password")
	}
	if has {
		return "o dsn traz a senha, que ficaria no arquivo; tire-a do dsn e ponha-a numa variável de ambiente nomeada em passwordEnv"
	}
	if u.Host == "" || strings.Trim(u.Path, "/") == "" {
		return "o dsn precisa dizer o host e o banco: postgres://usuario@host:5432/banco"
	}
	return ""
}
