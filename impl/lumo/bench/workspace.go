// Package bench measures lumo at scale: it generates a deterministic workspace, imports it,
// drives the real server over MCP and times the same questions as hand-written SQL.
package bench

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/bench/genfs"
)

// The bench workspace: tenant "bench" (user ana) with one sales app of the demo fixture's shape
// whose fact table has Rows rows, and tenant "catalogo" (user cat) with CatalogApps apps for
// search_catalog (a few small sources and their clones, which share data and cost one row each).
const (
	Login        = "ana"
	CatalogLogin = "cat"
	AppKey       = "vendas"

	stores    = 50
	products  = 500
	clients   = 10_400
	months    = 24
	catSource = 20
)

const salesAppYAML = `name: Vendas
description: Vendas por item, com lojas, produtos e metas mensais (gerado para o benchmark).
tables:
  - label: Vendas
    name: vendas
    kind: fact
    file: vendas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: DATA, label: Data, type: datetime}
      - {name: LOJA_ID, label: Loja id, type: number, role: key}
      - {name: PRODUTO_ID, label: Produto id, type: number, role: key}
      - {name: CLIENTE, label: Cliente, type: string}
      - {name: SITUACAO, label: Situação, type: string}
      - {name: CANAL, label: Canal, type: string}
      - {name: VALOR, label: Valor da venda, type: number, role: measure, unit: BRL}
      - {name: CUSTO, label: Custo, type: number, role: measure, unit: BRL}
      - {name: QTD, label: Quantidade, type: number, role: measure}
      - {name: MARGEM, label: Margem, type: number, role: measure, unit: BRL, formula: "[Valor da venda] - [Custo]"}
  - label: Lojas
    name: lojas
    kind: dimension
    file: lojas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Loja, type: string}
      - {name: CIDADE, label: Cidade, type: string}
      - {name: UF, label: UF, type: string}
  - label: Produtos
    name: produtos
    kind: dimension
    file: produtos.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Produto, type: string}
      - {name: CATEGORIA, label: Categoria, type: string}
  - label: Metas
    name: metas
    kind: fact
    file: metas.csv
    columns:
      - {name: MES, label: Mês, type: date}
      - {name: LOJA_ID, label: Loja id, type: number, role: key}
      - {name: META, label: Meta, type: number, role: measure, unit: BRL}
relationships:
  - {from: Vendas.Loja id, to: Lojas.Id}
  - {from: Vendas.Produto id, to: Produtos.Id}
  - {from: Metas.Loja id, to: Lojas.Id}
expressions:
  - {label: Parte ativa, formula: 'sum([Vendas.Valor da venda]) onde [Situação] = "Ativa" / sum([Vendas.Valor da venda])'}
indicators:
  - name: Faturamento
    description: Soma do valor das vendas ativas.
    fields: [{ref: Vendas.Valor da venda, agg: sum}]
    filters: [{ref: Vendas.Situação, op: "=", value: Ativa}]
` + salesRollupYAML

// salesRollupYAML is the rollups a user would declare for the usual questions: sales by day and
// by month, store (with its state), situation and channel; sales by product; sales by client
// and state. The monthly one is regrouped from the daily one at import.
const salesRollupYAML = `rollups:
  - name: vendas_diarias
    table: Vendas
    dimensions: [Vendas.Loja id, Lojas.Loja, Lojas.UF, Vendas.Situação, Vendas.Canal]
    time: {ref: Vendas.Data, grain: day}
    measures: [Vendas.Valor da venda, Vendas.Custo, Vendas.Quantidade]
  - name: vendas_mensais
    table: Vendas
    dimensions: [Vendas.Loja id, Lojas.Loja, Lojas.UF, Vendas.Situação, Vendas.Canal]
    time: {ref: Vendas.Data, grain: month}
  - name: vendas_produtos
    table: Vendas
    dimensions: [Produtos.Produto, Produtos.Categoria, Vendas.Situação]
  - name: vendas_clientes
    table: Vendas
    dimensions: [Vendas.Cliente, Lojas.UF, Vendas.Situação]
    measures: [Vendas.Valor da venda]
`

var (
	firstNames = []string{"Ana", "João", "José", "Maria", "Sérgio", "Luíza", "Otávio", "Débora", "Íris", "Tânia",
		"Paulo", "Renata", "Fernanda", "Gustavo", "Letícia", "Natália", "Marta", "Bruno", "Carla", "Davi"}
	lastNames = []string{"Souza", "Lima", "Conceição", "Gonçalves", "Araújo", "Câmara", "Brandão", "Fontes", "Moura", "Sá",
		"Rocha", "Dias", "Reis", "Nunes", "Alves", "Cruz", "Pereira", "Ribeiro", "Magalhães", "Assunção"}
	cities = []string{"São Paulo", "Ribeirão Preto", "Maceió", "Belo Horizonte", "Goiânia", "Curitiba", "Belém",
		"São João del-Rei", "Florianópolis", "Niterói", "Vitória", "Cuiabá", "Macapá", "Jundiaí", "São Luís", "Aracaju"}
	ufs        = []string{"SP", "SP", "AL", "MG", "GO", "PR", "PA", "MG", "SC", "RJ", "ES", "MT", "AP", "SP", "MA", "SE"}
	situations = []string{"Ativa", "Ativa", "Ativa", "Cancelada", "Pendente", `\N`}
	channels   = []string{"Loja", "Aplicativo", "Site", "Telefone"}
	categories = []string{"Eletrônicos", "Casa", "Papelaria", "Brinquedos", "Alimentos", "Vestuário", "Esporte", "Beleza"}
	catWords   = []string{"Vendas", "Estoque", "Compras", "Financeiro", "Logística", "Marketing", "Atendimento",
		"Cobrança", "Frota", "Produção", "Qualidade", "Recursos Humanos", "Contábil", "Fiscal", "Comercial",
		"Expedição", "Devoluções", "Franquias", "E-commerce", "Pós-venda"}
	day0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
)

// Workspace is the generated sales workspace (root file "workspace.yaml"). The sales rows are
// made while the importer reads them, in constant memory, and are the same for the same rows.
func Workspace(rows int) genfs.FS { return workspace(rows, salesAppYAML) }

// WorkspaceNoRollups is Workspace without rollups (not even automatic ones), to time the import
// and the queries without them.
func WorkspaceNoRollups(rows int) genfs.FS { return workspace(rows, salesAppNoRollups) }

// salesAppNoRollups is the sales app with an empty rollups list, which turns the automatic
// rollups off.
var salesAppNoRollups = strings.TrimSuffix(salesAppYAML, salesRollupYAML) + "rollups: []\n"

func workspace(rows int, appYAML string) genfs.FS {
	files := fstest.MapFS{
		"workspace.yaml":           {Data: []byte(workspaceYAML(0))},
		"apps/vendas/app.yaml":     {Data: []byte(appYAML)},
		"apps/vendas/lojas.csv":    {Data: []byte(storesCSV())},
		"apps/vendas/produtos.csv": {Data: []byte(productsCSV())},
		"apps/vendas/metas.csv":    {Data: []byte(targetsCSV())},
	}
	return genfs.FS{Files: files, Generated: map[string]func() genfs.Lines{"apps/vendas/vendas.csv": salesRows(rows)}}
}

// Catalog is the workspace of tenant "catalogo" alone, with apps apps; importing it leaves the
// sales tenant as it is.
func Catalog(apps int) fs.FS {
	files := fstest.MapFS{"workspace.yaml": {Data: []byte(workspaceYAML(apps))}}
	for i := range min(catSource, apps) {
		files[fmt.Sprintf("apps/cat%d/app.yaml", i)] = &fstest.MapFile{Data: []byte(catalogAppYAML(i))}
		files[fmt.Sprintf("apps/cat%d/itens.csv", i)] = &fstest.MapFile{Data: []byte("ID,NOME,VALOR\n1,Primeiro,10.50\n2,Segundo,20\n")}
	}
	return files
}

func workspaceYAML(catalogApps int) string {
	var b strings.Builder
	b.WriteString("tenants:\n")
	if catalogApps == 0 {
		b.WriteString(`  - key: bench
    name: Benchmark
    users:
      - {login: ana, name: Ana Souza, token: tok-ana-bench}
    desks:
      - {name: Comercial, members: [ana]}
    apps:
      - {key: vendas, source: apps/vendas, desk: Comercial}
`)
		return b.String()
	}
	b.WriteString(`  - key: catalogo
    name: Catálogo grande
    users:
      - {login: cat, name: Catarina Reis, token: tok-cat-bench}
    desks:
      - {name: Geral, members: [cat]}
    apps:
`)
	for i := range catalogApps {
		if i < catSource {
			fmt.Fprintf(&b, "      - {key: cat%d, source: apps/cat%d, desk: Geral}\n", i, i)
		} else {
			fmt.Fprintf(&b, "      - {key: cat%d-copia%d, cloneOf: cat%d, owner: cat}\n", i%catSource, i, i%catSource)
		}
	}
	return b.String()
}

func catalogAppYAML(i int) string {
	w := catWords[i%len(catWords)]
	return fmt.Sprintf(`name: %s %d
description: Painel de %s da unidade %d.
tables:
  - label: Itens
    name: itens
    kind: fact
    file: itens.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Nome do item, type: string}
      - {name: VALOR, label: Valor de %s, type: number, role: measure, unit: BRL}
indicators:
  - name: Total de %s
    fields: [{ref: Itens.Valor de %s, agg: sum}]
`, w, i, strings.ToLower(w), i, strings.ToLower(w), strings.ToLower(w), strings.ToLower(w))
}

func storesCSV() string {
	var b strings.Builder
	b.WriteString("ID,NOME,CIDADE,UF\n")
	for i := 1; i <= stores; i++ {
		c := (i * 7) % len(cities)
		fmt.Fprintf(&b, "%d,Loja %s %02d,%s,%s\n", i, cities[c], i, cities[c], ufs[c])
	}
	return b.String()
}

func productsCSV() string {
	var b strings.Builder
	b.WriteString("ID,NOME,CATEGORIA\n")
	for i := 1; i <= products; i++ {
		fmt.Fprintf(&b, "%d,Produto %03d,%s\n", i, i, categories[i%len(categories)])
	}
	return b.String()
}

func targetsCSV() string {
	var b strings.Builder
	b.WriteString("MES,LOJA_ID,META\n")
	for m := range months {
		for s := 1; s <= stores; s++ {
			fmt.Fprintf(&b, "%s,%d,%d.00\n", day0.AddDate(0, m, 0).Format("2006-01-02"), s, 100000+(s*3571+m*977)%90000)
		}
	}
	return b.String()
}

// salesRows generates vendas.csv: DATA spans 2025-2026 to the minute, CLIENTE has 10.400
// names, SITUACAO 4 values and the blank (\N).
func salesRows(n int) func() genfs.Lines {
	return func() genfs.Lines {
		i := -1
		var buf []byte
		return func() ([]byte, bool) {
			i++
			if i == 0 {
				return []byte("ID,DATA,LOJA_ID,PRODUTO_ID,CLIENTE,SITUACAO,CANAL,VALOR,CUSTO,QTD"), true
			}
			if i > n {
				return nil, false
			}
			minute := (i * 7919) % (730 * 24 * 60)
			c := (i * 31) % clients
			v := 500 + (i*48271)%99500 // cents
			b := strconv.AppendInt(buf[:0], int64(i), 10)
			b = append(b, ',')
			b = day0.Add(time.Duration(minute)*time.Minute).AppendFormat(b, "2006-01-02 15:04:00")
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(1+(i*13)%stores), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(1+(i*17)%products), 10)
			b = append(b, ',')
			b = append(b, firstNames[c%20]...)
			b = append(b, ' ', byte('A'+(c/20)%26), '.', ' ')
			b = append(b, lastNames[(c/520)%20]...)
			b = append(b, ',')
			b = append(b, situations[i%len(situations)]...)
			b = append(b, ',')
			b = append(b, channels[(i/3)%len(channels)]...)
			b = append(b, ',')
			b = appendCents(b, v)
			b = append(b, ',')
			b = appendCents(b, v*6/10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(1+i%5), 10)
			buf = b
			return b, true
		}
	}
}

func appendCents(b []byte, c int) []byte {
	b = strconv.AppendInt(b, int64(c/100), 10)
	b = append(b, '.', byte('0'+c%100/10), byte('0'+c%10))
	return b
}
