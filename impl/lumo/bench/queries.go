package bench

import (
	"fmt"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// Query is one typical question, asked through the query tool (Args, appId added) and as the
// hand-written rows-only SQL a careful analyst would run on the same engine.
type Query struct {
	Name    string
	Args    map[string]any
	SQL     string // with ? placeholders, rebound for the engine
	SQLArgs []any
	Rows    int // rows both answers must have; -1: the same number, whatever it is
}

func ref(r string) map[string]any { return map[string]any{"ref": r} }
func agg(r, a string) map[string]any {
	return map[string]any{"ref": r, "agg": a}
}

// Queries are the typical questions on the sales app a, with SQL for dialect d.
func Queries(a *semantic.App, d sqldialect.Dialect) ([]Query, error) {
	n := names{a: a, d: d}
	v, l, p, m := n.table("Vendas"), n.table("Lojas"), n.table("Produtos"), n.table("Metas")
	month := sqldialect.Bucket(d, "v."+n.col("Vendas.Data"), "month")
	joinStore := fmt.Sprintf(" LEFT JOIN %s l ON v.%s = l.%s", l, n.col("Vendas.Loja id"), n.col("Lojas.Id"))
	joinProduct := fmt.Sprintf(" LEFT JOIN %s p ON v.%s = p.%s", p, n.col("Vendas.Produto id"), n.col("Produtos.Id"))
	value, store, uf := n.col("Vendas.Valor da venda"), n.col("Lojas.Loja"), n.col("Lojas.UF")
	client, channel, date := n.col("Vendas.Cliente"), n.col("Vendas.Canal"), n.col("Vendas.Data")
	qs := []Query{{
		Name: "grouped sum by store and month, filtered",
		Args: map[string]any{
			"fields":  []any{ref("Lojas.Loja"), map[string]any{"ref": "Vendas.Data", "bucket": "month"}, agg("Vendas.Valor da venda", "sum")},
			"filters": []any{map[string]any{"ref": "Vendas.Situação", "op": "=", "value": "Ativa"}},
			"orderBy": []any{map[string]any{"ref": "Lojas.Loja", "dir": "asc"}, map[string]any{"ref": "Vendas.Data", "bucket": "month", "dir": "asc"}},
			"limit":   100,
		},
		SQL: fmt.Sprintf("SELECT l.%s, %s AS mes, SUM(v.%s) FROM %s v%s WHERE v.%s = ? GROUP BY l.%s, mes ORDER BY l.%s, mes LIMIT 100",
			store, month, value, v, joinStore, n.col("Vendas.Situação"), store, store),
		SQLArgs: []any{"Ativa"},
		Rows:    100,
	}, {
		Name: "sum and average by UF and channel in a quarter (rollup)",
		Args: map[string]any{
			"fields": []any{ref("Lojas.UF"), ref("Vendas.Canal"), agg("Vendas.Valor da venda", "sum"), agg("Vendas.Valor da venda", "avg")},
			"filters": []any{map[string]any{"ref": "Vendas.Data", "op": "between", "value": []any{"2025-04-01", "2025-06-30"}},
				map[string]any{"ref": "Vendas.Situação", "op": "in", "value": []any{"Ativa", "Pendente"}}},
			"limit": 100,
		},
		SQL: fmt.Sprintf("SELECT l.%s, v.%s, SUM(v.%s), AVG(v.%s) FROM %s v%s WHERE v.%s >= ? AND v.%s < ? AND v.%s IN (?, ?) "+
			"GROUP BY l.%s, v.%s ORDER BY l.%s, v.%s LIMIT 100",
			uf, channel, value, value, v, joinStore, date, date, n.col("Vendas.Situação"), uf, channel, uf, channel),
		SQLArgs: []any{dateArg(d, "2025-04-01"), dateArg(d, "2025-07-01"), "Ativa", "Pendente"},
		Rows:    -1,
	}, {
		Name: "top-10 products by value",
		Args: map[string]any{
			"fields":  []any{ref("Produtos.Produto"), agg("Vendas.Valor da venda", "sum")},
			"orderBy": []any{map[string]any{"ref": "Vendas.Valor da venda", "agg": "sum", "dir": "desc"}},
			"limit":   10,
		},
		SQL: fmt.Sprintf("SELECT p.%s, SUM(v.%s) AS total FROM %s v%s GROUP BY p.%s ORDER BY total DESC LIMIT 10",
			n.col("Produtos.Produto"), value, v, joinProduct, n.col("Produtos.Produto")),
		Rows: 10,
	}, {
		Name: "count_distinct clients by UF",
		Args: map[string]any{
			"fields": []any{ref("Lojas.UF"), agg("Vendas.Cliente", "count_distinct")},
			"limit":  50,
		},
		SQL:  fmt.Sprintf("SELECT l.%s, COUNT(DISTINCT v.%s) FROM %s v%s GROUP BY l.%s ORDER BY l.%s", uf, client, v, joinStore, uf, uf),
		Rows: -1,
	}, {
		Name: "multi-fact: value and target by UF",
		Args: map[string]any{
			"fields": []any{ref("Lojas.UF"), agg("Vendas.Valor da venda", "sum"), agg("Metas.Meta", "sum")},
			"limit":  50,
		},
		SQL: fmt.Sprintf("WITH s AS (SELECT l.%s AS uf, SUM(v.%s) AS valor FROM %s v%s GROUP BY l.%s), "+
			"t AS (SELECT l.%s AS uf, SUM(m.%s) AS meta FROM %s m LEFT JOIN %s l ON m.%s = l.%s GROUP BY l.%s) "+
			"SELECT s.uf, s.valor, t.meta FROM s LEFT JOIN t ON t.uf = s.uf ORDER BY s.uf",
			uf, value, v, joinStore, uf, uf, n.col("Metas.Meta"), m, l, n.col("Metas.Loja id"), n.col("Lojas.Id"), uf),
		Rows: -1,
	}, {
		Name: "500 of 10,400 rows (truncated, with summary)",
		Args: map[string]any{
			"fields":  []any{ref("Vendas.Cliente"), agg("Vendas.Valor da venda", "sum")},
			"orderBy": []any{map[string]any{"ref": "Vendas.Cliente", "dir": "asc"}},
			"limit":   500,
		},
		SQL:  fmt.Sprintf("SELECT v.%s, SUM(v.%s) FROM %s v GROUP BY v.%s ORDER BY v.%s LIMIT 500", client, value, v, client, client),
		Rows: 500,
	}, {
		// A calculated column (Margem = [Valor da venda] - [Custo]) aggregated, against the same
		// arithmetic written by hand.
		Name: "calculated column: margin by UF",
		Args: map[string]any{
			"fields": []any{ref("Lojas.UF"), agg("Vendas.Margem", "sum")},
			"limit":  50,
		},
		SQL: fmt.Sprintf("SELECT l.%s, SUM(v.%s - v.%s) FROM %s v%s GROUP BY l.%s ORDER BY l.%s",
			uf, value, n.col("Vendas.Custo"), v, joinStore, uf, uf),
		Rows: -1,
	}, {
		// A conditional measure over an unconditional one, one pass over the fact table.
		Name: "conditional measure: active share by UF",
		Args: map[string]any{
			"fields": []any{ref("Lojas.UF"), ref("Parte ativa")},
			"limit":  50,
		},
		SQL: fmt.Sprintf("SELECT l.%s, SUM(CASE WHEN v.%s = ? THEN v.%s END) / SUM(v.%s) FROM %s v%s GROUP BY l.%s ORDER BY l.%s",
			uf, n.col("Vendas.Situação"), value, value, v, joinStore, uf, uf),
		SQLArgs: []any{"Ativa"},
		Rows:    -1,
	}}
	if n.err != nil {
		return nil, n.err
	}
	for i := range qs {
		qs[i].Args["appId"] = a.ID
		qs[i].SQL = sqldialect.Rebind(d, qs[i].SQL)
	}
	return qs, nil
}

// SmallCall is the trivial tool call: the distinct UFs of the 50-row stores table.
// dateArg is a date-time bound as the engine stores it (TIMESTAMP on PostgreSQL, ISO text on SQLite).
func dateArg(d sqldialect.Dialect, day string) any {
	if d.Name() == sqldialect.PostgresName {
		t, _ := time.Parse("2006-01-02", day)
		return t
	}
	return day + " 00:00:00"
}

func SmallCall(appID int64) map[string]any {
	return map[string]any{"appId": appID, "fields": []any{ref("Lojas.UF")}, "limit": 5}
}

// SmallSQL is the hand-written rows-only SQL of SmallCall.
func SmallSQL(a *semantic.App, d sqldialect.Dialect) (string, error) {
	n := names{a: a, d: d}
	l, uf := n.table("Lojas"), n.col("Lojas.UF")
	return fmt.Sprintf("SELECT %s FROM %s GROUP BY %s ORDER BY %s LIMIT 5", uf, l, uf, uf), n.err
}

// names quotes the physical names of the app's tables and columns (from the catalogue only).
type names struct {
	a   *semantic.App
	d   sqldialect.Dialect
	err error
}

func (n *names) table(label string) string {
	for _, t := range n.a.Tables {
		if t.Label == label {
			return n.d.QuoteIdent(t.SQLName)
		}
	}
	n.err = fmt.Errorf("table %s not in app %s", label, n.a.Name)
	return ""
}

func (n *names) col(ref string) string {
	c, err := n.a.ResolveColumn(ref)
	if err != nil {
		n.err = err
		return ""
	}
	return n.d.QuoteIdent(c.SQLName)
}
