package store_test

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// A pt-BR export (";", "1.234,56", R$, %, dd/mm/aaaa, Windows-1252) loads the same values on
// every engine, its column units come from R$ and % where app.yaml has none, and the summary
// says how each file was read.
func TestImportBrazilianCSV(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"workspace.yaml": {Data: []byte("tenants:\n  - key: br\n    name: BR\n    users:\n      - {login: rui, name: Rui, token: tok-rui-123}\n" +
			"    desks:\n      - {name: Vendas, members: [rui]}\n" +
			"    apps:\n      - {key: vendas, source: apps/vendas, desk: Vendas}\n")},
		"apps/vendas/app.yaml": {Data: []byte(`name: Vendas
tables:
  - label: Vendas
    name: vendas
    kind: fact
    file: vendas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: DIA, label: Dia, type: date}
      - {name: HORA, label: Hora, type: datetime}
      - {name: CLIENTE, label: Cliente, type: string}
      - {name: VALOR, label: Valor, type: number, role: measure}
      - {name: DESCONTO, label: Desconto, type: number, role: measure}
  - label: Metas
    name: metas
    kind: fact
    file: metas.csv
    csv: {delimiter: "|", decimal: ",", encoding: iso-8859-1, dateFormat: dd/mm/aa}
    columns:
      - {name: MES, label: Mês, type: date}
      - {name: META, label: Meta, type: number, role: measure, unit: BRL}
`)},
		"apps/vendas/vendas.csv": {Data: []byte("ID;DIA;HORA;CLIENTE;VALOR;DESCONTO;\r\n" +
			"1;30/09/2026;30/09/2026 14:05;Jo\xe3o;R$ 1.234,56;25%;\r\n" +
			";;;;;;\r\n" +
			"2;01/10/2026;01/10/2026 08:00:30;Concei\xe7\xe3o;-R$ 10,00;12,5 %;\r\n" +
			"3;\\N;\\N;\\N;(0,44);\\N;\r\n")},
		"apps/vendas/metas.csv": {Data: []byte("MES|META\n01/01/26|1.000\n01/02/70|2.500,5\n")},
	}
	db := storetest.Open(t)
	sum, err := db.ImportWorkspace(ctx, fsys, "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, tl := range sum.Tables {
		lines = append(lines, tl.CSV)
	}
	if diff := cmp.Diff([]string{
		`apps/vendas/vendas.csv: separador ";", decimal ",", Windows-1252, datas dd/mm/aaaa`,
		`apps/vendas/metas.csv: separador "|", decimal ",", ISO-8859-1, datas dd/mm/aa`,
	}, lines); diff != "" {
		t.Errorf("how the files were read (-want +got):\n%s", diff)
	}
	if sum.Rows() != 5 {
		t.Errorf("%d rows, want 5 (the line of delimiters is blank)", sum.Rows())
	}

	apps, err := db.VisibleApps(ctx, user(t, db, "rui"))
	if err != nil {
		t.Fatal(err)
	}
	a := appByKey(t, apps, "vendas")
	units, scales := map[string]string{}, map[string]int{}
	for _, tb := range a.Tables {
		for _, c := range tb.Columns {
			units[tb.Name+"."+c.Name], scales[tb.Name+"."+c.Name] = c.Unit, c.Scale
		}
	}
	if diff := cmp.Diff(map[string]string{"vendas.ID": "", "vendas.DIA": "", "vendas.HORA": "", "vendas.CLIENTE": "",
		"vendas.VALOR": "BRL", "vendas.DESCONTO": "percent", "metas.MES": "", "metas.META": "BRL"}, units); diff != "" {
		t.Errorf("units (-want +got):\n%s", diff)
	}
	if scales["vendas.VALOR"] != 2 || scales["vendas.DESCONTO"] != 3 || scales["metas.META"] != 1 {
		t.Errorf("scales = %v", scales)
	}

	vendas, metas := a.Tables[0].SQLName, a.Tables[1].SQLName
	col := func(tb int, name string) string {
		for _, c := range a.Tables[tb].Columns {
			if c.Name == name {
				return db.Dialect().QuoteIdent(c.SQLName)
			}
		}
		t.Fatalf("no column %s", name)
		return ""
	}
	q := func(query string, out ...any) {
		t.Helper()
		if err := db.SQL().QueryRowContext(ctx, query).Scan(out...); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}
	// By hand: 1234.56 - 10.00 - 0.44 = 1224.12; 0.25 + 0.125 = 0.375; 1000 + 2500.5 = 3500.5.
	var valor, desconto, meta float64
	q("SELECT SUM("+col(0, "VALOR")+"), SUM("+col(0, "DESCONTO")+") FROM "+db.Dialect().QuoteIdent(vendas), &valor, &desconto)
	q("SELECT SUM("+col(1, "META")+") FROM "+db.Dialect().QuoteIdent(metas), &meta)
	if valor != 1224.12 || desconto != 0.375 || meta != 3500.5 {
		t.Errorf("sums %v, %v, %v; want 1224.12, 0.375, 3500.5", valor, desconto, meta)
	}
	var first, last, client string
	q("SELECT CAST(MIN("+col(0, "HORA")+") AS VARCHAR(30)), CAST(MAX("+col(1, "MES")+") AS VARCHAR(30)) FROM "+db.Dialect().QuoteIdent(vendas)+", "+db.Dialect().QuoteIdent(metas), &first, &last)
	if first != "2026-09-30 14:05:00" || last != "2026-01-01" {
		t.Errorf("first sale %q, last goal %q; want 2026-09-30 14:05:00, 2026-01-01", first, last)
	}
	q("SELECT MAX("+col(0, "CLIENTE")+") FROM "+db.Dialect().QuoteIdent(vendas), &client)
	if client != "João" {
		t.Errorf("client %q, want João", client)
	}
}
