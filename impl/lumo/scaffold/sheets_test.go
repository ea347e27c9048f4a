package scaffold

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// formattedWorkbook writes, with excelize, sheets as people format them: merged cells styled
// over their range, so the cells a merge covers are written as empty styled cells and the
// ranges in <mergeCells>, as Excel writes them.
//   - Vendas: the title "Vendas de outubro" merged over A1:E1; groups of columns on row 2,
//     "Onde e quando" over B2:C2 and "Valores" over D2:E2; the header on row 3.
//   - Metas: the header's META merged over B1:C1, values under B and C.
//   - Equipe: a header on two rows: LOJA merged down A1:A2, "Vendedor" over B1:C1, NOME and
//     META under it on row 2.
func formattedWorkbook(t *testing.T, path string) {
	t.Helper()
	f := excelize.NewFile()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	center, err := f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{Horizontal: "center"}, Font: &excelize.Font{Bold: true}})
	must(err)
	merge := func(sheet, from, to, text string) {
		must(f.SetCellValue(sheet, from, text))
		must(f.MergeCell(sheet, from, to))
		must(f.SetCellStyle(sheet, from, to, center))
	}
	must(f.SetSheetName("Sheet1", "Vendas"))
	merge("Vendas", "A1", "E1", "Vendas de outubro")
	merge("Vendas", "B2", "C2", "Onde e quando")
	merge("Vendas", "D2", "E2", "Valores")
	must(f.SetSheetRow("Vendas", "A3", &[]any{"PEDIDO", "DIA", "LOJA", "QTD", "VALOR"}))
	for i, r := range [][]any{{1, "2026-10-01", "Centro", 2, 21.0}, {2, "2026-10-01", "Praia", 1, 99.9}, {3, "2026-10-02", "Centro", 3, 15.75}} {
		must(f.SetSheetRow("Vendas", fmt.Sprintf("A%d", i+4), &r))
	}
	_, err = f.NewSheet("Metas")
	must(err)
	must(f.SetCellValue("Metas", "A1", "LOJA"))
	merge("Metas", "B1", "C1", "META")
	must(f.SetSheetRow("Metas", "A2", &[]any{"Centro", 1000, "revisar"}))
	_, err = f.NewSheet("Equipe")
	must(err)
	merge("Equipe", "A1", "A2", "LOJA")
	merge("Equipe", "B1", "C1", "Vendedor")
	must(f.SetSheetRow("Equipe", "B2", &[]any{"NOME", "META"}))
	must(f.SetSheetRow("Equipe", "A3", &[]any{"Centro", "Ana", 500}))
	must(f.SaveAs(path))
}

// TestSheetsAsPeopleFormatThem: the header is found below a merged title and a row of merged
// groups of columns, and the report says which row it is; a header with a merged cell, or on
// two rows under merged cells, is named as merged, with its range, never as an empty cell.
func TestSheetsAsPeopleFormatThem(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "loja")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	formattedWorkbook(t, filepath.Join(dir, "vendas.xlsx"))
	res, err := Init(Options{Paths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	contains(t, "app.yaml", read(t, dir, "app.yaml"),
		`xlsx: {sheet: Vendas, range: "A3:E1048576"}`,
		"{name: VALOR, label: Valor, type: number, role: measure, usage: 10}",
	)
	var b strings.Builder
	Report(&b, res)
	contains(t, "the report", b.String(),
		`Vendas (fato): vendas.xlsx, planilha "Vendas"`,
		"3 linhas, 5 colunas",
		"o cabeçalho está na linha 3, abaixo de um título (linha 1) e de grupos de colunas em células mescladas (linha 2: B2:C2 e D2:E2)",
		`vendas.xlsx, planilha "Metas": o cabeçalho (linha 1) tem células mescladas: B1:C1 é uma célula mesclada, e a coluna C fica sem nome`,
		`vendas.xlsx, planilha "Equipe": o cabeçalho (linha 2) tem células mescladas: A1:A2 é uma célula mesclada, e a coluna A fica sem nome`,
	)
	if strings.Contains(b.String(), "está vazia") {
		t.Errorf("a merged cell called empty:\n%s", b.String())
	}
}
