package store_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

var ctx = context.Background()

// importDemo imports the demo workspace into a fresh database.
func importDemo(t *testing.T) (*store.DB, store.Summary) {
	t.Helper()
	db := storetest.Open(t)
	start := time.Now()
	sum, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml")
	if err != nil {
		t.Fatalf("importing demo: %v", err)
	}
	t.Logf("%s: demo imported in %v (%d rows)", db.Engine(), time.Since(start).Round(time.Millisecond), sum.Rows())
	return db, sum
}

// csvRows counts the data lines of a demo CSV (lines minus the header), independently of the
// importer.
func csvRows(t *testing.T, file string) int64 {
	t.Helper()
	b, err := fs.ReadFile(demo.Lumo, file)
	if err != nil {
		t.Fatal(err)
	}
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return int64(n - 1)
}

func user(t *testing.T, db *store.DB, login string) *store.User {
	t.Helper()
	u, err := db.UserByLogin(ctx, login)
	if err != nil {
		t.Fatalf("UserByLogin(%s): %v", login, err)
	}
	return u
}

func count(t *testing.T, db *store.DB, table string) int64 {
	t.Helper()
	var n int64
	if err := db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM "+db.Dialect().QuoteIdent(table)).Scan(&n); err != nil {
		t.Fatalf("counting %s: %v", table, err)
	}
	return n
}

func appByKey(t *testing.T, apps []*semantic.App, key string) *semantic.App {
	t.Helper()
	for _, a := range apps {
		if a.Key == key {
			return a
		}
	}
	t.Fatalf("app %s not among the visible apps", key)
	return nil
}

func TestImportDemoCounts(t *testing.T) {
	t.Parallel()
	db, sum := importDemo(t)
	if sum.Tenants != 2 || sum.Users != 4 || sum.Desks != 3 || sum.Apps != 5 {
		t.Errorf("summary = %d tenants, %d users, %d desks, %d apps; want 2, 4, 3, 5", sum.Tenants, sum.Users, sum.Desks, sum.Apps)
	}
	want := map[string]int64{
		"loja/vendas-comercial/vendas":        csvRows(t, "apps/vendas/vendas.csv"),
		"loja/vendas-comercial/lojas":         csvRows(t, "apps/vendas/lojas.csv"),
		"loja/vendas-comercial/produtos":      csvRows(t, "apps/vendas/produtos.csv"),
		"loja/vendas-comercial/metas":         csvRows(t, "apps/vendas/metas.csv"),
		"loja/vendas-financeiro/recebimentos": csvRows(t, "apps/vendas-financeiro/recebimentos.csv"),
		"loja/estoque/saldos":                 csvRows(t, "apps/estoque/saldos.csv"),
		"outra/vendas-outra/vendas":           csvRows(t, "apps/vendas-outra/vendas.csv"),
	}
	if want["loja/vendas-comercial/vendas"] != 20000 {
		t.Fatalf("the demo vendas.csv has %d rows, the fixture has 20000", want["loja/vendas-comercial/vendas"])
	}
	got := map[string]int64{}
	var total int64
	for _, tl := range sum.Tables {
		got[tl.Tenant+"/"+tl.App+"/"+tl.Table] = tl.Rows
		total += tl.Rows
		if n := count(t, db, tl.SQLName); n != tl.Rows {
			t.Errorf("%s has %d rows, summary says %d", tl.SQLName, n, tl.Rows)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows per table (-want +got):\n%s", diff)
	}
	if sum.Rows() != total {
		t.Errorf("Rows() = %d, want %d", sum.Rows(), total)
	}
}

func TestImportDemoModel(t *testing.T) {
	t.Parallel()
	db, _ := importDemo(t)
	apps, err := db.VisibleApps(ctx, user(t, db, "ana"))
	if err != nil {
		t.Fatal(err)
	}
	a := appByKey(t, apps, "vendas-comercial")
	if a.Name != "Vendas" || a.Desk == nil || *a.Desk != "Comercial" || a.ClonedFrom != nil || a.PublishedAt == nil {
		t.Fatalf("vendas-comercial = %+v", a)
	}
	if got := a.PublishedAt.Format(time.RFC3339); got != "2026-09-01T09:00:00-03:00" {
		t.Errorf("publishedAt = %s", got)
	}
	var tables []string
	for _, tb := range a.Tables {
		tables = append(tables, tb.Label)
		if tb.LoadedAt == nil || tb.SQLName == "" || tb.ID == 0 {
			t.Errorf("table %s = %+v", tb.Label, tb)
		}
		for _, c := range tb.Columns {
			if c.Table != tb || c.ID == 0 || c.SQLName == "" {
				t.Errorf("column %s.%s = %+v", tb.Label, c.Name, c)
			}
			if (c.Type == semantic.TypeString) != (c.FoldSQLName != "") {
				t.Errorf("column %s.%s: type %s, fold %q", tb.Label, c.Name, c.Type, c.FoldSQLName)
			}
		}
	}
	if diff := cmp.Diff([]string{"Vendas", "Lojas", "Produtos", "Metas"}, tables); diff != "" {
		t.Errorf("tables (-want +got):\n%s", diff)
	}
	if got := a.Tables[0].LoadedAt.Format(time.RFC3339); got != "2026-10-15T03:00:00-03:00" {
		t.Errorf("loadedAt = %s", got)
	}
	scales := map[string]int{}
	for _, c := range a.Tables[0].Columns {
		scales[c.Name] = c.Scale
	}
	if scales["VALOR"] != 2 || scales["QTD"] != 0 || scales["DESCONTO"] != 2 || scales["CLIENTE"] != 0 {
		t.Errorf("scales = %v", scales)
	}
	var rels []string
	for _, r := range a.Relationships {
		rels = append(rels, r.From[0].Ref()+" -> "+r.To[0].Ref())
	}
	if diff := cmp.Diff([]string{"Vendas.Loja id -> Lojas.Id", "Vendas.Produto id -> Produtos.Id", "Metas.Loja id -> Lojas.Id"}, rels); diff != "" {
		t.Errorf("relationships (-want +got):\n%s", diff)
	}
	if len(a.Expressions) != 2 || a.Expressions[0].Label != "Margem %" || a.Expressions[0].Unit != "percent" || a.Expressions[0].ID == 0 {
		t.Errorf("expressions = %+v", a.Expressions)
	}
	var problems []string
	for _, ind := range a.Indicators {
		if ind.Problem != "" {
			problems = append(problems, ind.Name)
		}
	}
	if diff := cmp.Diff([]string{"Faturamento bruto antigo"}, problems); diff != "" {
		t.Errorf("indicators with a problem (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]map[string]any{{"ref": "Vendas.Situação", "op": "=", "value": "Ativa"}}, a.Indicators[0].Filters); diff != "" {
		t.Errorf("indicator filters (-want +got):\n%s", diff)
	}
	// The never-loaded table of estoque exists, empty, without loadedAt.
	e := appByKey(t, apps, "estoque")
	if e.Tables[0].LoadedAt != nil || e.Tables[1].LoadedAt == nil {
		t.Errorf("estoque loadedAt = %v, %v", e.Tables[0].LoadedAt, e.Tables[1].LoadedAt)
	}
	if n := count(t, db, e.Tables[0].SQLName); n != 0 {
		t.Errorf("never-loaded table has %d rows", n)
	}
}

func keys(apps []*semantic.App) []string {
	var out []string
	for _, a := range apps {
		out = append(out, a.Key)
	}
	return out
}

func TestVisibility(t *testing.T) {
	t.Parallel()
	db, _ := importDemo(t)
	tests := []struct {
		login string
		want  []string
	}{
		{"ana", []string{"vendas-comercial", "vendas-ana", "estoque"}},
		{"bruno", []string{"vendas-comercial", "vendas-financeiro", "estoque"}},
		{"carla", []string{"vendas-outra"}},
		{"davi", nil},
	}
	all := map[string]int64{}
	for _, tt := range tests {
		apps, err := db.VisibleApps(ctx, user(t, db, tt.login))
		if err != nil {
			t.Fatal(err)
		}
		got := keys(apps)
		sorted := append([]string(nil), got...)
		sort.Strings(sorted)
		want := append([]string(nil), tt.want...)
		sort.Strings(want)
		if diff := cmp.Diff(want, sorted); diff != "" {
			t.Errorf("%s sees (-want +got):\n%s", tt.login, diff)
		}
		for i, a := range apps {
			all[a.Key] = a.ID
			if i > 0 && apps[i-1].ID >= a.ID {
				t.Errorf("%s: apps not ordered by id: %v", tt.login, got)
			}
		}
	}

	ana := user(t, db, "ana")
	apps, err := db.VisibleApps(ctx, ana)
	if err != nil {
		t.Fatal(err)
	}
	orig, cp := appByKey(t, apps, "vendas-comercial"), appByKey(t, apps, "vendas-ana")
	if cp.Desk != nil || cp.PublishedAt != nil || cp.ClonedFrom == nil || *cp.ClonedFrom != (semantic.AppRef{ID: orig.ID, Name: orig.Name}) {
		t.Errorf("copy = desk %v, publishedAt %v, clonedFrom %+v", cp.Desk, cp.PublishedAt, cp.ClonedFrom)
	}
	for i, tb := range cp.Tables {
		ot := orig.Tables[i]
		if tb.ID == ot.ID || tb.SQLName != ot.SQLName || !tb.LoadedAt.Equal(*ot.LoadedAt) {
			t.Errorf("copy table %s: id %d (orig %d), sql %s (orig %s)", tb.Label, tb.ID, ot.ID, tb.SQLName, ot.SQLName)
		}
		for j, c := range tb.Columns {
			oc := ot.Columns[j]
			if c.ID == oc.ID || c.SQLName != oc.SQLName || c.FoldSQLName != oc.FoldSQLName || c.Scale != oc.Scale {
				t.Errorf("copy column %s: %+v vs %+v", c.Ref(), c, oc)
			}
		}
	}
	if cp.Expressions[0].ID == orig.Expressions[0].ID {
		t.Error("the copy shares its original's expression ids")
	}

	// Not visible and not existing answer the same.
	carla := user(t, db, "carla")
	bruno := user(t, db, "bruno")
	notFound := []struct {
		who *store.User
		id  int64
	}{
		{carla, all["vendas-comercial"]},
		{ana, all["vendas-outra"]},
		{ana, all["vendas-financeiro"]},
		{bruno, all["vendas-ana"]},
		{ana, 999999},
		{ana, 0},
	}
	for _, nf := range notFound {
		if _, err := db.App(ctx, nf.who, nf.id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s asking for app %d: err = %v, want ErrNotFound", nf.who.Login, nf.id, err)
		}
	}
	a, err := db.App(ctx, ana, all["vendas-ana"])
	if err != nil || a.Key != "vendas-ana" || len(a.Tables) != 4 {
		t.Errorf("ana's own copy: %v, %v", a, err)
	}
}

func TestUsersAndTokens(t *testing.T) {
	t.Parallel()
	db, _ := importDemo(t)
	u, err := db.UserByToken(ctx, "tok-ana-loja")
	if err != nil {
		t.Fatal(err)
	}
	if u.Login != "ana" || u.Name != "Ana Souza" || u.TenantKey != "loja" || u.ID == 0 || u.TenantID == 0 {
		t.Errorf("UserByToken = %+v", u)
	}
	if byLogin := user(t, db, "ana"); *byLogin != *u {
		t.Errorf("UserByLogin = %+v, UserByToken = %+v", byLogin, u)
	}
	if c := user(t, db, "carla"); c.TenantKey != "outra" || c.TenantID == u.TenantID {
		t.Errorf("carla = %+v", c)
	}
	for _, tok := range []string{"", "tok-ana", "TOK-ANA-LOJA", "tok-ana-loja "} {
		if _, err := db.UserByToken(ctx, tok); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("UserByToken(%q) err = %v, want ErrNotFound", tok, err)
		}
	}
	if _, err := db.UserByLogin(ctx, "zé"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UserByLogin(zé) err = %v", err)
	}

	// The token is stored only as its SHA-256.
	var stored string
	if err := db.SQL().QueryRowContext(ctx, "SELECT token_sha256 FROM lumo_users WHERE login = 'ana'").Scan(&stored); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("tok-ana-loja"))
	if stored != hex.EncodeToString(sum[:]) {
		t.Errorf("token_sha256 = %s", stored)
	}
	rows, err := db.SQL().QueryContext(ctx, "SELECT * FROM lumo_users")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			if s := fmt.Sprint(v); strings.Contains(s, "tok-") {
				t.Errorf("lumo_users.%s holds a token in clear: %s", cols[i], s)
			}
		}
	}
}

func TestNullAndEmptyStringRoundTrip(t *testing.T) {
	t.Parallel()
	db, _ := importDemo(t)
	apps, err := db.VisibleApps(ctx, user(t, db, "ana"))
	if err != nil {
		t.Fatal(err)
	}
	lojas := appByKey(t, apps, "vendas-comercial").Tables[1]
	id, gerente := lojas.Columns[0], lojas.Columns[4]
	if gerente.Name != "GERENTE" {
		t.Fatalf("column = %s", gerente.Name)
	}
	q := db.Dialect()
	query := fmt.Sprintf("SELECT %s, %s FROM %s WHERE %s = %s", q.QuoteIdent(gerente.SQLName), q.QuoteIdent(gerente.FoldSQLName),
		q.QuoteIdent(lojas.SQLName), q.QuoteIdent(id.SQLName), q.Placeholder(1))
	tests := []struct {
		id   int
		want *string
		fold *string
	}{
		{5, ptr(""), ptr("")},
		{6, nil, nil},
		{7, ptr("Débora Íris"), ptr("debora iris")},
	}
	for _, tt := range tests {
		var v, f *string
		if err := db.SQL().QueryRowContext(ctx, query, tt.id).Scan(&v, &f); err != nil {
			t.Fatalf("loja %d: %v", tt.id, err)
		}
		if diff := cmp.Diff(tt.want, v); diff != "" {
			t.Errorf("loja %d GERENTE (-want +got):\n%s", tt.id, diff)
		}
		if diff := cmp.Diff(tt.fold, f); diff != "" {
			t.Errorf("loja %d folded GERENTE (-want +got):\n%s", tt.id, diff)
		}
	}
}

func ptr(s string) *string { return &s }

func TestDatesAndNumbers(t *testing.T) {
	t.Parallel()
	db, _ := importDemo(t)
	apps, err := db.VisibleApps(ctx, user(t, db, "ana"))
	if err != nil {
		t.Fatal(err)
	}
	vendas := appByKey(t, apps, "vendas-comercial").Tables[0]
	metas := appByKey(t, apps, "vendas-comercial").Tables[3]
	q := db.Dialect()
	col := func(tb *semantic.Table, name string) string {
		for _, c := range tb.Columns {
			if c.Name == name {
				return q.QuoteIdent(c.SQLName)
			}
		}
		t.Fatalf("no column %s", name)
		return ""
	}
	var data string
	var valor, liq2 *float64
	query := fmt.Sprintf("SELECT CAST(%s AS TEXT), %s, %s FROM %s WHERE %s = 3", col(vendas, "DATA"), col(vendas, "VALOR"),
		col(vendas, "VALOR_2"), q.QuoteIdent(vendas.SQLName), col(vendas, "ID"))
	if err := db.SQL().QueryRowContext(ctx, query).Scan(&data, &valor, &liq2); err != nil {
		t.Fatal(err)
	}
	if data != "2026-03-20 15:55:00" || valor == nil || *valor != 5394 || liq2 != nil {
		t.Errorf("vendas 3 = %s, %v, %v", data, valor, liq2)
	}
	var mes string
	query = fmt.Sprintf("SELECT CAST(MIN(%s) AS TEXT) FROM %s", col(metas, "MES"), q.QuoteIdent(metas.SQLName))
	if err := db.SQL().QueryRowContext(ctx, query).Scan(&mes); err != nil {
		t.Fatal(err)
	}
	if mes != "2025-01-01" {
		t.Errorf("first meta month = %s", mes)
	}
}

// overlay is a file system that replaces some files of a base one.
type overlay struct {
	base  fs.FS
	files fstest.MapFS
}

func (o overlay) Open(name string) (fs.File, error) {
	if _, ok := o.files[name]; ok {
		return o.files.Open(name)
	}
	return o.base.Open(name)
}

// patchDemo is the demo workspace with file's text changed by edit.
func patchDemo(t *testing.T, edits map[string]func(string) string) fs.FS {
	t.Helper()
	o := overlay{base: demo.Lumo, files: fstest.MapFS{}}
	for file, edit := range edits {
		b, err := fs.ReadFile(demo.Lumo, file)
		if err != nil {
			t.Fatal(err)
		}
		o.files[file] = &fstest.MapFile{Data: []byte(edit(string(b)))}
	}
	return o
}

// snapshot captures what a refused import must leave untouched: catalogue ids by natural key and
// the rows of every data table.
func snapshot(t *testing.T, db *store.DB, logins ...string) map[string]string {
	t.Helper()
	if len(logins) == 0 {
		logins = []string{"ana", "bruno", "carla", "davi"}
	}
	out := map[string]string{}
	for _, login := range logins {
		u, err := db.UserByLogin(ctx, login)
		if err != nil {
			continue
		}
		out["user/"+login] = fmt.Sprint(u.ID)
		apps, err := db.VisibleApps(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range apps {
			out["app/"+a.Key] = fmt.Sprint(a.ID)
			for _, tb := range a.Tables {
				out["table/"+a.Key+"/"+tb.Name] = fmt.Sprintf("%d %s %v", tb.ID, tb.SQLName, tb.LoadedAt)
				for _, c := range tb.Columns {
					out["column/"+a.Key+"/"+tb.Name+"/"+c.Name] = fmt.Sprintf("%d %s %s %d", c.ID, c.SQLName, c.FoldSQLName, c.Scale)
				}
				out["rows/"+tb.SQLName] = tableDigest(t, db, tb)
			}
			for _, e := range a.Expressions {
				out["expression/"+a.Key+"/"+e.Label] = fmt.Sprintf("%d %s", e.ID, e.Formula)
			}
		}
	}
	return out
}

// tableDigest hashes every row of a data table, in a fixed order.
func tableDigest(t *testing.T, db *store.DB, tb *semantic.Table) string {
	t.Helper()
	q := db.Dialect()
	var cols []string
	for _, c := range tb.Columns {
		cols = append(cols, "CAST("+q.QuoteIdent(c.SQLName)+" AS TEXT)")
	}
	rows, err := db.SQL().QueryContext(ctx, "SELECT "+strings.Join(cols, ", ")+" FROM "+q.QuoteIdent(tb.SQLName))
	if err != nil {
		t.Fatalf("reading %s: %v", tb.SQLName, err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		vals := make([]*string, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, v := range vals {
			if v == nil {
				b.WriteString("\\N|")
			} else {
				b.WriteString(*v + "|")
			}
		}
		lines = append(lines, b.String())
	}
	sort.Strings(lines)
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return fmt.Sprintf("%d rows %x", len(lines), h[:8])
}

func TestReimportKeepsIDsAndReplacesData(t *testing.T) {
	t.Parallel()
	db, _ := importDemo(t)
	before := snapshot(t, db)

	// The same files again: same ids, same data.
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, snapshot(t, db)); diff != "" {
		t.Errorf("re-import of the same files changed (-before +after):\n%s", diff)
	}

	// Changed data and a new expression.
	fsys := patchDemo(t, map[string]func(string) string{
		"apps/vendas/lojas.csv": func(s string) string { return strings.Replace(s, "1,Aurora,", "1,Aurora Nova,", 1) },
		"apps/estoque/saldos.csv": func(s string) string {
			return strings.Replace(s, "Centro,221\n", "", 1)
		},
		"apps/vendas/app.yaml": func(s string) string {
			return strings.Replace(s, "    unit: BRL\nindicators:", "    unit: BRL\n  - label: Itens por venda\n    formula: \"sum([Vendas.Quantidade]) / count([Vendas.Id])\"\nindicators:", 1)
		},
	})
	if _, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, db)
	oldExprIDs := map[string]bool{}
	for k, v := range before {
		if strings.HasPrefix(k, "expression/") {
			oldExprIDs[strings.Fields(v)[0]] = true
		}
	}
	if len(oldExprIDs) != 4 {
		t.Fatalf("old expression ids = %v", oldExprIDs)
	}
	for k, v := range before {
		if strings.HasPrefix(k, "rows/") {
			continue
		}
		if after[k] != v {
			t.Errorf("%s changed: %s -> %s", k, v, after[k])
		}
	}
	for _, app := range []string{"vendas-comercial", "vendas-ana"} {
		k := "expression/" + app + "/Itens por venda"
		v, ok := after[k]
		if !ok {
			t.Fatalf("%s missing after re-import", k)
		}
		if oldExprIDs[strings.Fields(v)[0]] {
			t.Errorf("new expression %s reuses an old id: %s", k, v)
		}
	}

	ana := user(t, db, "ana")
	apps, err := db.VisibleApps(ctx, ana)
	if err != nil {
		t.Fatal(err)
	}
	lojas := appByKey(t, apps, "vendas-comercial").Tables[1]
	saldos := appByKey(t, apps, "estoque").Tables[1]
	if n := count(t, db, saldos.SQLName); n != csvRows(t, "apps/estoque/saldos.csv")-1 {
		t.Errorf("saldos has %d rows after re-import", n)
	}
	q := db.Dialect()
	var names []string
	rows, err := db.SQL().QueryContext(ctx, "SELECT "+q.QuoteIdent(lojas.Columns[1].SQLName)+" FROM "+q.QuoteIdent(lojas.SQLName))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		names = append(names, s)
	}
	if !contains(names, "Aurora Nova") || contains(names, "Aurora") {
		t.Errorf("lojas after re-import: %v", names)
	}

	// Importing only the other tenant leaves this one alone.
	other := fstest.MapFS{
		"workspace.yaml": {Data: []byte("tenants:\n  - key: outra\n    name: Outra Empresa\n    users:\n      - {login: carla, name: Carla Dias, token: tok-carla-outra}\n")},
	}
	sum, err := db.ImportWorkspace(ctx, other, "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if sum.Tenants != 1 || sum.Apps != 0 {
		t.Errorf("summary = %+v", sum)
	}
	if got := snapshot(t, db); got["app/vendas-comercial"] != after["app/vendas-comercial"] || got["app/vendas-outra"] != "" {
		t.Errorf("after importing only outra: vendas-comercial %q, vendas-outra %q", got["app/vendas-comercial"], got["app/vendas-outra"])
	}
	if c := user(t, db, "carla"); fmt.Sprint(c.ID) != before["user/carla"] {
		t.Errorf("carla's id changed: %d, was %s", c.ID, before["user/carla"])
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestRefusedImportKeepsPreviousState re-imports broken copies of a workspace and checks that
// each is refused naming file, line and field, and that nothing changed.
func TestRefusedImportKeepsPreviousState(t *testing.T) {
	t.Parallel()
	testdata := filepath.Join("..", "workspace", "testdata")
	small := storetest.Open(t)
	if _, err := small.ImportWorkspace(ctx, os.DirFS(filepath.Join(testdata, "ok")), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	big, _ := importDemo(t)

	tests := []struct {
		name string
		db   *store.DB
		fsys fs.FS
		want string // the first error, as text
	}{
		{"bad-relationship", small, os.DirFS(filepath.Join(testdata, "bad-relationship")),
			`apps/vendas/app.yaml:29: relationships[0].from: a coluna "Vendas.Loja" não existe; refs parecidas: Vendas.Loja id, Lojas.Loja, Vendas.Data, Vendas.Dia`},
		{"bad-csv-count", small, os.DirFS(filepath.Join(testdata, "bad-csv-count")),
			`apps/vendas/vendas.csv:3: a linha tem 5 valores, mas o cabeçalho tem 6 colunas; confira as vírgulas (um texto com vírgula vai entre aspas)`},
		{"bad-date", small, os.DirFS(filepath.Join(testdata, "bad-date")),
			`apps/vendas/vendas.csv:3: DIA: o valor "2026-02-30" não é uma data AAAA-MM-DD válida (ex.: 2026-09-30), nem \N para nulo`},
		{"bad-number", small, os.DirFS(filepath.Join(testdata, "bad-number")),
			`apps/vendas/vendas.csv:2: VALOR: o valor "dez" não é um número com ponto decimal (ex.: 1234.56, 1,234.56, R$ -10.00 ou 25%), nem \N para nulo`},
		{"bad-formula", small, os.DirFS(filepath.Join(testdata, "bad-formula")),
			`apps/vendas/app.yaml:32: expressions[0].formula: a fórmula não pôde ser lida: posição 49: esperava ")" fechando count_distinct (a agregação recebe uma ref só), mas encontrou o fim da fórmula`},
		{"bad-header", small, os.DirFS(filepath.Join(testdata, "bad-header")),
			`apps/vendas/vendas.csv:1: LOJA_ID: o cabeçalho não tem a coluna "LOJA_ID" da tabela "vendas" do app.yaml; inclua-a (\N para valores nulos) ou tire-a do app.yaml`},
		{"demo with a short row deep in vendas.csv", big, patchDemo(t, map[string]func(string) string{
			"apps/vendas/vendas.csv": func(s string) string {
				lines := strings.SplitAfter(s, "\n")
				lines[15000] = "15000,2026-01-01 10:00:00,1,1\n"
				return strings.Join(lines, "")
			}}),
			`apps/vendas/vendas.csv:15001: a linha tem 4 valores, mas o cabeçalho tem 16 colunas; confira as vírgulas (um texto com vírgula vai entre aspas)`},
		{"demo with a bad date in the last table", big, patchDemo(t, map[string]func(string) string{
			"apps/vendas-outra/vendas.csv": func(s string) string { return strings.Replace(s, "2026-07-07,Norte", "2026-7-7,Norte", 1) }}),
			`apps/vendas-outra/vendas.csv:4: DATA: o valor "2026-7-7" não é uma data AAAA-MM-DD válida (ex.: 2026-09-30), nem \N para nulo`},
		{"a login of a tenant not in the file", big, fstest.MapFS{"workspace.yaml": {Data: []byte(
			"tenants:\n  - key: nova\n    name: Nova\n    users:\n      - {login: nina, name: Nina, token: tok-nina-123}\n      - {login: ana, name: Ana, token: tok-ana-999}\n")}},
			`workspace.yaml:6: tenants[0].users[1].login: o login "ana" já existe no tenant "loja", que já está no banco e não vem neste arquivo; use outro login (cada login é único entre todos os tenants)`},
	}
	before := map[*store.DB]map[string]string{
		small: snapshot(t, small, "ana", "bia"),
		big:   snapshot(t, big),
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.db.ImportWorkspace(ctx, tt.fsys, "workspace.yaml")
			if err == nil {
				t.Fatal("import accepted")
			}
			var first *workspace.Error
			var all workspace.Errors
			switch {
			case errors.As(err, &all):
				first = all[0]
			case errors.As(err, &first):
			default:
				t.Fatalf("error %T is not a workspace error: %v", err, err)
			}
			if first.File == "" || first.Line == 0 {
				t.Errorf("error lacks file or line: %+v", first)
			}
			if got := first.Error(); got != tt.want {
				t.Errorf("error:\n got %s\nwant %s", got, tt.want)
			}
			logins := []string{"ana", "bia"}
			if tt.db == big {
				logins = nil
			}
			if diff := cmp.Diff(before[tt.db], snapshot(t, tt.db, logins...)); diff != "" {
				t.Errorf("refused import changed the database (-before +after):\n%s", diff)
			}
		})
	}
	if len(before[small]) < 10 || len(before[big]) < 50 {
		t.Errorf("snapshots too small to prove anything: %d, %d entries", len(before[small]), len(before[big]))
	}
}

func TestSeedDemoIfEmpty(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	seeded, err := db.SeedDemoIfEmpty(ctx)
	if err != nil || !seeded {
		t.Fatalf("first seed = %v, %v", seeded, err)
	}
	seeded, err = db.SeedDemoIfEmpty(ctx)
	if err != nil || seeded {
		t.Fatalf("second seed = %v, %v", seeded, err)
	}
	if _, err := db.UserByLogin(ctx, "ana"); err != nil {
		t.Fatal(err)
	}
}

func TestEngine(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	want := "sqlite"
	if sqldb.IsPostgres(os.Getenv(storetest.EnvDSN)) {
		want = "postgres"
	}
	if db.Engine() != want || db.Dialect().Name() != want {
		t.Errorf("Engine() = %s, Dialect().Name() = %s, want %s", db.Engine(), db.Dialect().Name(), want)
	}
}

func TestSQLiteFileReopens(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "lumo.db")
	files, err := filepath.Glob(filepath.Join("migrations", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("listing migrations: %v", err)
	}
	for i := range 2 {
		db, err := store.Open(ctx, path)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		var n int
		if err := db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil || n != len(files) {
			t.Errorf("open %d: %d migrations recorded, err %v", i, n, err)
		}
		var mode string
		if err := db.SQL().QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("journal_mode = %q, %v", mode, err)
		}
		var fk int
		if err := db.SQL().QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
			t.Errorf("foreign_keys = %d, %v", fk, err)
		}
		db.Close()
	}
}

func TestDefaultDSN(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	dsn, err := store.DefaultDSN()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "lumo", "lumo.db"); dsn != want {
		t.Errorf("DefaultDSN() = %s, want %s", dsn, want)
	}
	if st, err := os.Stat(filepath.Dir(dsn)); err != nil || !st.IsDir() {
		t.Errorf("folder not created: %v", err)
	}
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", home)
	dsn, err = store.DefaultDSN()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, ".local", "share", "lumo", "lumo.db"); dsn != want {
		t.Errorf("DefaultDSN() without XDG_DATA_HOME = %s, want %s", dsn, want)
	}
}

func TestConcurrentImportsAndReads(t *testing.T) {
	t.Parallel()
	db, _ := importDemo(t)
	before := snapshot(t, db)
	ana := user(t, db, "ana")
	errs := make(chan error, 5)
	for range 3 {
		go func() {
			_, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml")
			errs <- err
		}()
	}
	for range 2 {
		go func() {
			for range 10 {
				apps, err := db.VisibleApps(ctx, ana)
				if err != nil {
					errs <- err
					return
				}
				if len(apps) != 3 {
					errs <- fmt.Errorf("ana sees %d apps during an import", len(apps))
					return
				}
			}
			errs <- nil
		}()
	}
	for range 5 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if diff := cmp.Diff(before, snapshot(t, db)); diff != "" {
		t.Errorf("concurrent re-imports changed ids or data (-before +after):\n%s", diff)
	}
}
