//go:build cgo

package columnar_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const directCSVApp = `name: Vendas
tables:
  - label: Vendas
    name: vendas
    kind: fact
    file: vendas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: QTD, label: Qtd, type: number, role: measure}
      - {name: V, label: Valor, type: number, role: measure}
      - {name: GRANDE, label: Grande, type: number, role: measure}
      - {name: CLIENTE, label: Cliente, type: string}
      - {name: OBS, label: Observação, type: string}
      - {name: D, label: Dia, type: date}
      - {name: T, label: Hora, type: datetime}
      - {name: LOJA, label: Loja id, type: number, role: key}
  - label: Lojas
    name: lojas
    kind: dimension
    file: lojas.csv
    columns:
      - {name: ID, label: Id, type: number, role: key}
      - {name: NOME, label: Loja, type: string}
  - label: Metas
    name: metas
    kind: fact
    file: metas.csv
    columns:
      - {name: LOJA, label: Loja da meta, type: number, role: key}
      - {name: ALVO, label: Alvo, type: number, role: measure}
  - label: Notas
    name: notas
    kind: fact
    file: notas.csv
    columns:
      - {name: ID, label: Nota, type: number, role: key}
      - {name: A, label: Texto A, type: string}
      - {name: B, label: Texto B, type: string}
      - {name: C, label: Texto C, type: string}
relationships:
  - {from: Vendas.Loja id, to: Lojas.Id}
rollups:
  - name: por_loja
    table: Vendas
    dimensions: [Lojas.Loja]
  - name: por_hora
    table: Vendas
    time: {ref: Vendas.Hora, grain: hour}
    measures: [Vendas.Valor]
`

// directCSVWorkspace writes the workspace of directCSVApp into a new folder: sales in the
// original format (columns in another order than app.yaml, CRLF line ends, quoted texts with
// the delimiter and quotes, \N and empty fields, exact decimals and a column past them, -0,
// leading zeros, dates with and without seconds, accents folded in SQL and a Greek letter by
// lumo's function), stores separated by ";" with accented and
// spaced names, goals in the Brazilian format (lumo's reader's) and notes of a line over 2 MB.
func directCSVWorkspace(t *testing.T, extra int, edit func(sales []string) []string) string {
	t.Helper()
	dir := t.TempDir()
	app := filepath.Join(dir, "apps", "app")
	if err := os.MkdirAll(app, 0o755); err != nil {
		t.Fatal(err)
	}
	sales := []string{
		`LOJA,ID,QTD,V,GRANDE,CLIENTE,OBS,D,T`,
		`1,1,3,0.30,100000000000000000000,Ana,"vendido, pago",2024-02-29,2024-01-01 00:00`,
		`2,2,-1,-2.67,-3,\N,"disse ""oi""",1969-12-31,1960-06-15 23:59:59`,
		`1,3,0,9999999999999.99,0.1,,"\N",0001-01-01,2024-12-31`,
		`2,4,007,-9999999999999.99,12345678901234567890,"  São  JOÃO ",	tab	,9999-12-31,9999-12-31 23:59:59`,
		`\N,5,-0,1234567890123.45,-0.0,ZÉ,Ação ,\N,\N`,
		`1,6,,0,-1.5e0x,Conceição,  ,,`,
		`2,7,12,\N,1.7976931348623157,  x  y  ,A  Ω B,2026-09-30,2026-09-30 14:05`,
	}
	sales[6] = strings.Replace(sales[6], "-1.5e0x", "5", 1)
	for i := range extra {
		sales = append(sales, fmt.Sprintf("%d,%d,%d,%d.%02d,%d.5,Cliente %c,obs %d,2025-01-%02d,2025-01-01 10:%02d:00", 1+i%2, 100+i, i%9, i, i%100, i, 'A'+i%26, i%7, 1+i%28, i%60))
	}
	if edit != nil {
		sales = edit(sales)
	}
	long := strings.Repeat("x", 900<<10)
	files := map[string]string{
		filepath.Join(dir, "workspace.yaml"): string(sinkWorkspace(0)["workspace.yaml"].Data), // one app, apps/app
		filepath.Join(app, "app.yaml"):       directCSVApp,
		filepath.Join(app, "vendas.csv"):     strings.Join(sales, "\r\n") + "\r\n",
		filepath.Join(app, "lojas.csv"):      "ID;NOME\n1;Centro\n2;São  João \n3;\"Sul; Norte\"\n",
		filepath.Join(app, "metas.csv"):      "LOJA;ALVO\n1;1.234,56\n2;10,5\n",
		filepath.Join(app, "notas.csv"):      "ID,A,B,C\n1," + long + "," + long + "," + long + "\n2,a,b,c\n",
	}
	for p, data := range files {
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDirectCSVLoadsWhatLumosReaderLoads: the tables DuckDB's CSV reader loads are, type for
// type and value for value, what lumo's reader loads (texts as written and folded as fold.Fold
// folds them, numbers exact decimals or floats alike, -0 as 0, empty fields NULL but for texts),
// with their value tables, rollups and catalogue facts; a file in the Brazilian format is loaded
// by lumo's reader.
func TestDirectCSVLoadsWhatLumosReaderLoads(t *testing.T) {
	got, app := importBothWays(t, directCSVWorkspace(t, 3000, nil), 3)
	if dump := tableDump(t, got, app.Tables[0].SQLName); !strings.Contains(dump, "  São  JOÃO |sao joao|") ||
		!strings.Contains(dump, "\ttab\t|tab|") || !strings.Contains(dump, `disse "oi"|`) || !strings.Contains(dump, "DECIMAL(18,2)") ||
		!strings.Contains(dump, "_grande DOUBLE") {
		t.Errorf("the sales table lacks a folded text, a quoted text or an exact decimal:\n%.3000s", dump)
	}
}

// TestDirectCSVLeavesTheFileToLumosReader: a file lumo's reader refuses fails the import with
// its message whether or not DuckDB's reader could load it; a file with a record of delimiters
// only, or a total row, is read by lumo's reader (which leaves those out), with the same rows.
func TestDirectCSVLeavesTheFileToLumosReader(t *testing.T) {
	for name, c := range map[string]struct {
		edit   func([]string) []string
		direct int
		fails  bool
	}{
		"a number with an exponent": {func(s []string) []string { s[9] = strings.Replace(s[9], ",101,", ",1e2,", 1); return s }, 0, true},
		"a day that is not":         {func(s []string) []string { s[9] = strings.Replace(s[9], "2025-01-02", "2025-02-30", 1); return s }, 0, true},
		"a blank record":            {func(s []string) []string { return append(s[:9], append([]string{",,,,,,,,"}, s[9:]...)...) }, 2, false},
		"a total row":               {func(s []string) []string { return append(s, "Total,,,,,,,,") }, 2, false},
		"thousands":                 {func(s []string) []string { s[9] = strings.Replace(s[9], ",1.01,", `,"1,001.01",`, 1); return s }, 2, false},
	} {
		t.Run(name, func(t *testing.T) {
			dir := directCSVWorkspace(t, 20, c.edit)
			refDB, ref, _, _, want := importDirect(t, dir, true)
			db, got, _, direct, err := importDirect(t, dir, false)
			if c.fails {
				if want == nil || err == nil || err.Error() != want.Error() || !strings.Contains(err.Error(), "vendas.csv") {
					t.Fatalf("with DuckDB's reader: %v\nwith lumo's alone: %v\nwant lumo's message, naming the file", err, want)
				}
				return
			}
			if err != nil || want != nil {
				t.Fatalf("import: %v; with lumo's reader alone: %v", err, want)
			}
			if direct != c.direct {
				t.Errorf("DuckDB's reader loaded %d tables, want %d", direct, c.direct)
			}
			name := onlyApp(t, db).Tables[0].SQLName
			if onlyApp(t, refDB).Tables[0].SQLName != name {
				t.Fatal("the imports named the sales table differently")
			}
			if diff := cmp.Diff(tableDump(t, ref.DB().(*sql.DB), name), tableDump(t, got.DB().(*sql.DB), name)); diff != "" {
				t.Errorf("sales (-lumo's reader +with DuckDB's):\n%s", diff)
			}
		})
	}
}

// TestDirectCSVPastItsFirstRows: DuckDB starts loading from what the file's first rows show, and
// a row past them that shows more (more decimals, a number past an exact decimal, an accent and
// a run of spaces) makes it load the file again as the whole file shows it; a row past them that
// DuckDB would read otherwise (a total) leaves the file to lumo's reader. Either way the tables
// are lumo's reader's.
func TestDirectCSVPastItsFirstRows(t *testing.T) {
	later := func(row string) func([]string) []string {
		return func(s []string) []string { return append(s, row) }
	}
	t.Run("more shown later", func(t *testing.T) {
		dir := directCSVWorkspace(t, 70000, later(`1,999999,1,1.125,12345678901234567.5,"Zoë  Q",ação,2025-01-01,2025-01-01 10:00:00`))
		got, app := importBothWays(t, dir, 3)
		if dump := tableDump(t, got, app.Tables[0].SQLName); !strings.Contains(dump, "_v DOUBLE") || !strings.Contains(dump, "_grande DOUBLE") ||
			!strings.Contains(dump, "Zoë  Q|zoe q|") {
			t.Errorf("the sales table is not typed and folded as its last row shows:\n%.1500s", dump)
		}
	})
	t.Run("a total row later", func(t *testing.T) {
		importBothWays(t, directCSVWorkspace(t, 70000, later("Total,,,,,,,,")), 2)
	})
}
