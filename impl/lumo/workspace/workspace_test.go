package workspace

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

func TestLoadOK(t *testing.T) {
	ws, err := Load(os.DirFS("testdata/ok"), "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(ws.Tenants) != 1 {
		t.Fatalf("tenants = %d", len(ws.Tenants))
	}
	tn := ws.Tenants[0]
	if diff := cmp.Diff(&Tenant{Key: "t1", Name: "Tenant Um",
		Users: []*User{{Login: "ana", Name: "Ana", Token: "tok-ana-123", Line: 6}, {Login: "bia", Name: "Bia", Token: "tok-bia-123", Line: 7}},
		Desks: []*Desk{{Name: "Vendas", Members: []string{"ana", "bia"}}},
	}, tn, cmpIgnoreApps); diff != "" {
		t.Errorf("tenant (-want +got):\n%s", diff)
	}
	if len(tn.Apps) != 2 {
		t.Fatalf("apps = %d", len(tn.Apps))
	}
	src, cp := tn.Apps[0], tn.Apps[1]
	published := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	if src.Key != "vendas" || src.Desk != "Vendas" || src.PublishedAt == nil || !src.PublishedAt.Equal(published) || src.CloneOf != "" {
		t.Errorf("source app = %+v", src)
	}
	if cp.Key != "vendas-ana" || cp.CloneOf != "vendas" || cp.Owner != "ana" || cp.Desk != "" || cp.PublishedAt != nil {
		t.Errorf("copy app = %+v", cp)
	}
	if cp.Source.Model != src.Source.Model {
		t.Error("the copy does not share its original's model")
	}
	s := src.Source
	if diff := cmp.Diff([]string{"apps/vendas/vendas.csv", "apps/vendas/lojas.csv", ""}, s.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	m := s.Model
	if m.Name != "Vendas" || m.Description != "Vendas de teste." || len(m.Tables) != 3 {
		t.Fatalf("model = %+v", m)
	}
	vendas := m.Tables[0]
	if vendas.LoadedAt == nil || m.Tables[1].LoadedAt != nil || m.Tables[2].LoadedAt != nil {
		t.Errorf("loadedAt: %v %v %v", vendas.LoadedAt, m.Tables[1].LoadedAt, m.Tables[2].LoadedAt)
	}
	var roles []string
	for _, c := range vendas.Columns {
		if c.Table != vendas {
			t.Errorf("column %s lacks its table", c.Name)
		}
		roles = append(roles, c.Name+":"+c.Role)
	}
	if diff := cmp.Diff([]string{"ID:key", "DATA:dimension", "DIA:dimension", "LOJA_ID:key", "CLIENTE:dimension", "VALOR:measure"}, roles); diff != "" {
		t.Errorf("roles (-want +got):\n%s", diff)
	}
	if len(m.Relationships) != 1 || m.Relationships[0].From[0] != vendas.Columns[3] || m.Relationships[0].To[0] != m.Tables[1].Columns[0] {
		t.Errorf("relationships = %+v", m.Relationships)
	}
	if len(m.Expressions) != 1 || m.Expressions[0].Label != "Ticket" {
		t.Errorf("expressions = %+v", m.Expressions)
	}
	want := []*semantic.Indicator{
		{Name: "Faturamento", Fields: []map[string]any{{"ref": "Vendas.Valor", "agg": "sum"}},
			Filters: []map[string]any{{"ref": "Vendas.Cliente", "op": "=", "value": "Ana"}}},
		{Name: "Antigo", Fields: []map[string]any{{"ref": "Vendas.Bruto", "agg": "sum"}},
			Problem: `A ref "Vendas.Bruto" não existe nesta Aplicação. Refs parecidas: Vendas.Data.`},
	}
	if diff := cmp.Diff(want, m.Indicators); diff != "" {
		t.Errorf("indicators (-want +got):\n%s", diff)
	}
}

var cmpIgnoreApps = cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Apps" }, cmp.Ignore())

func TestLoadDirectory(t *testing.T) {
	if _, err := Load(os.DirFS("testdata"), "ok"); err != nil {
		t.Fatal(err)
	}
}

func TestLoadDemo(t *testing.T) {
	ws, err := Load(demo.Lumo, "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, tn := range ws.Tenants {
		for _, a := range tn.Apps {
			keys = append(keys, tn.Key+"/"+a.Key)
		}
	}
	if diff := cmp.Diff([]string{"loja/vendas-comercial", "loja/vendas-financeiro", "loja/vendas-ana", "loja/estoque", "outra/vendas-outra"}, keys); diff != "" {
		t.Errorf("apps (-want +got):\n%s", diff)
	}
	var problems []string
	for _, ind := range ws.Tenants[0].Apps[0].Source.Model.Indicators {
		if ind.Problem != "" {
			problems = append(problems, ind.Name)
		}
	}
	if diff := cmp.Diff([]string{"Faturamento bruto antigo"}, problems); diff != "" {
		t.Errorf("indicators with a problem (-want +got):\n%s", diff)
	}
}

// TestLoadRefused checks that broken workspaces are refused with every problem named by file,
// line and field.
func TestLoadRefused(t *testing.T) {
	tests := []struct {
		dir  string
		want []string
	}{
		{"bad-relationship", []string{
			`apps/vendas/app.yaml:29: relationships[0].from: a coluna "Vendas.Loja" não existe; refs parecidas: Vendas.Loja id, Lojas.Loja, Vendas.Data, Vendas.Dia`,
		}},
		{"bad-formula", []string{
			`apps/vendas/app.yaml:32: expressions[0].formula: a fórmula não pôde ser lida: posição 49: esperava ")" fechando count_distinct (a agregação recebe uma ref só), mas encontrou o fim da fórmula`,
		}},
		{"bad-header", []string{
			`apps/vendas/vendas.csv:1: LOJA_ID: o cabeçalho não tem a coluna "LOJA_ID" da tabela "vendas" do app.yaml; inclua-a (\N para valores nulos) ou tire-a do app.yaml`,
			`apps/vendas/vendas.csv:1: LOJA: a coluna "LOJA" não está na tabela "vendas" do app.yaml; remova-a do arquivo ou declare-a no app.yaml`,
		}},
		{"bad-schema", []string{
			`apps/vendas/app.yaml:12: tables[0].columns[2].type: o valor "data" não é aceito; use um de: string, number, date, datetime.`,
		}},
		{"bad-names", []string{
			`workspace.yaml:6: tenants[0].users[1].token: o token já é usado por "ana"; dê a cada usuário um token próprio`,
			`workspace.yaml:8: tenants[0].desks[0].members[1]: o usuário "bai" não existe no tenant "t1"; usuários parecidos: bia`,
			`workspace.yaml:10: tenants[0].apps[0].desk: a mesa "Venda" não existe no tenant "t1"; mesas parecidas: Vendas`,
			`workspace.yaml:11: tenants[0].apps[1].cloneOf: a Aplicação "venda" não existe no tenant "t1"; Aplicações parecidas: vendas, vendas-ana, vendas-bia`,
			`workspace.yaml:12: tenants[0].apps[2].owner: o usuário "carla" não existe no tenant "t1"; usuários existentes: ana, bia`,
			`workspace.yaml:12: tenants[0].apps[2].publishedAt: uma cópia pessoal (cloneOf) não é publicada; remova publishedAt`,
			`workspace.yaml:16: tenants[1].users[0].login: o login "ana" já existe em tenants[0].users[0]; cada login é único no workspace inteiro`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			_, err := Load(os.DirFS("testdata/"+tt.dir), "workspace.yaml")
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Load error = %v (%T), want Errors", err, err)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// readAll loads dir and streams every CSV, returning the first data error.
func readAll(t *testing.T, dir string) error {
	t.Helper()
	fsys := os.DirFS(dir)
	ws, err := Load(fsys, "workspace.yaml")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	src := ws.Tenants[0].Apps[0].Source
	for i, file := range src.Files {
		if file == "" {
			continue
		}
		rows, err := OpenRows(fsys, file, src.Model.Tables[i], src.Formats[i])
		if err != nil {
			return err
		}
		for rows.Next() {
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

func TestRowsRefused(t *testing.T) {
	tests := []struct {
		dir  string
		want *Error
	}{
		{"bad-csv-count", &Error{File: "apps/vendas/vendas.csv", Line: 3,
			Message: "a linha tem 5 valores, mas o cabeçalho tem 6 colunas; confira as vírgulas (um texto com vírgula vai entre aspas)"}},
		{"bad-date", &Error{File: "apps/vendas/vendas.csv", Line: 3, Field: "DIA",
			Message: `o valor "2026-02-30" não é uma data AAAA-MM-DD válida (ex.: 2026-09-30), nem \N para nulo`}},
		{"bad-number", &Error{File: "apps/vendas/vendas.csv", Line: 2, Field: "VALOR",
			Message: `o valor "dez" não é um número com ponto decimal (ex.: 1234.56, 1,234.56, R$ -10.00 ou 25%), nem \N para nulo`}},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			err := readAll(t, "testdata/"+tt.dir)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error = %v (%T), want *Error", err, err)
			}
			if diff := cmp.Diff(tt.want, e); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
	if err := readAll(t, "testdata/ok"); err != nil {
		t.Errorf("ok: %v", err)
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{File: "apps/vendas/app.yaml", Line: 57, Field: "relationships[0].from", Message: `a coluna "Vendas.Loja" não existe`}
	if got, want := e.Error(), `apps/vendas/app.yaml:57: relationships[0].from: a coluna "Vendas.Loja" não existe`; got != want {
		t.Errorf("got %s", got)
	}
	e = &Error{File: "x.csv", Message: "o arquivo não existe"}
	if got := e.Error(); got != "x.csv: o arquivo não existe" {
		t.Errorf("got %s", got)
	}
	if got := (Errors{e, e}).Error(); strings.Count(got, "\n") != 1 {
		t.Errorf("Errors joined as %q", got)
	}
}

func TestLoadBrokenYAML(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       []string
	}{
		{"syntax", "tenants:\n  - key: t1\n    name: [x\n", []string{
			"workspace.yaml:2: o YAML não pôde ser lido (did not find expected ',' or ']'); confira a indentação e as aspas"}},
		{"duplicate key", "tenants:\n  - key: t1\n    name: A\n    key: t2\n", []string{
			`workspace.yaml:4: tenants[0].key: a chave "key" aparece de novo (a primeira está na linha 2); deixe uma só`}},
		{"empty", "", []string{"workspace.yaml: o arquivo está vazio"}},
		{"only a comment", "# nada\n", []string{"workspace.yaml: o arquivo está vazio"}},
		{"schema", "tenants:\n  - key: T1\n    name: A\n    extra: 1\n  - name: B\n", []string{
			`workspace.yaml:2: tenants[0].key: o valor "T1" não está no formato esperado (^[a-z0-9][a-z0-9_-]{0,62}$).`,
			"workspace.yaml:4: tenants[0].extra: campo não aceito aqui; remova-o (os campos aceitos são: apps, desks, key, name, users).",
			"workspace.yaml:5: tenants[1].key: campo obrigatório ausente; informe key.",
		}},
		{"missing app folder", "tenants:\n  - key: t1\n    name: A\n    apps:\n      - {key: a, source: nada}\n", []string{
			`workspace.yaml:5: tenants[0].apps[0].source: a pasta "nada" não tem app.yaml; confira o caminho, relativo ao workspace.yaml`}},
		{"folder outside", "tenants:\n  - key: t1\n    name: A\n    apps:\n      - {key: a, source: ../x}\n", []string{
			`workspace.yaml:5: tenants[0].apps[0].source: a pasta "../x" fica fora do workspace; use um caminho relativo ao workspace.yaml, dentro da pasta dele`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(fstest.MapFS{"workspace.yaml": {Data: []byte(tt.yaml)}}, "./workspace.yaml")
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("error = %v (%T)", err, err)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHeaders: a column's header maps it to the file's column of that name; two columns reading
// one file column, or a header on a calculated column, are refused naming the line.
func TestHeaders(t *testing.T) {
	ws := "tenants:\n  - key: t1\n    name: A\n    apps:\n      - {key: a, source: a}\n"
	app := func(cols string) fstest.MapFS {
		return fstest.MapFS{
			"workspace.yaml": {Data: []byte(ws)},
			"a/app.yaml":     {Data: []byte("name: A\ntables:\n  - label: Vendas\n    name: vendas\n    kind: fact\n    file: v.csv\n    columns:\n" + cols)},
			"a/v.csv":        {Data: []byte("Nº;Valor (R$)\n1;10,50\n2;1.000,00\n")},
		}
	}
	fsys := app("      - {name: no, header: Nº, label: Nº, type: number, role: key}\n      - {name: valor, header: Valor (R$), label: Valor, type: number, role: measure}\n")
	w, err := Load(fsys, "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := w.Tenants[0].Apps[0].Source
	rows, err := OpenRows(fsys, src.Files[0], src.Model.Tables[0], src.Formats[0])
	if err != nil {
		t.Fatal(err)
	}
	var got [][]any
	for rows.Next() {
		got = append(got, append([]any(nil), rows.Values()...))
	}
	rows.Close()
	if rows.Err() != nil || fmt.Sprint(got) != "[[1 10.5] [2 1000]]" {
		t.Errorf("rows %v, err %v", got, rows.Err())
	}
	_, err = Load(app("      - {name: no, header: Nº, label: Nº, type: number}\n      - {name: n2, header: Nº, label: N2, type: number}\n      - {name: dobro, header: x, label: Dobro, type: number, formula: \"[Nº] * 2\"}\n"), "workspace.yaml")
	for _, want := range []string{
		`a/app.yaml:9: tables[0].columns[1]: a coluna "Nº" do arquivo já é lida por tables[0].columns[0]; cada coluna do arquivo vira uma coluna só`,
		`a/app.yaml:10: tables[0].columns[2].header: uma coluna calculada não vem do arquivo e não tem header; remova header ou formula`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}
