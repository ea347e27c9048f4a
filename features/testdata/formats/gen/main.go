// Command gen writes the workbook (and Parquet files) of features/testdata/formats with
// excelize and parquet-go, writers independent of lumo's readers; the values are the ones the
// features list by hand. Run from the repository root:
//
//	go run ./features/testdata/formats/gen
package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/xuri/excelize/v2"
)

const dir = "features/testdata/formats/apps/planilhas/"

func main() {
	if err := workbook(dir + "vendas.xlsx"); err != nil {
		log.Fatal(err)
	}
}

func day(y, m, d, hh, mi int) time.Time {
	return time.Date(y, time.Month(m), d, hh, mi, 0, 0, time.UTC)
}

// workbook writes vendas.xlsx: a first sheet that is no table, the sheet Vendas (header on row
// 1, R$ and % formats, dates as date-formatted serials, a boolean, a formula with its cached
// value, formatted empty rows after the data) and the sheet Metas (a merged title, the table in
// the range named MetasLoja, a total row below it).
func workbook(name string) error {
	f := excelize.NewFile()
	defer f.Close()
	must := func(err error) {
		if err != nil {
			log.Fatal(err)
		}
	}
	must(f.SetSheetName("Sheet1", "Resumo"))
	must(f.SetCellValue("Resumo", "A1", "Planilha de vendas de exemplo"))
	_, err := f.NewSheet("Vendas")
	must(err)
	_, err = f.NewSheet("Metas")
	must(err)

	dt, _ := f.NewStyle(&excelize.Style{CustomNumFmt: ptr("dd/mm/yyyy hh:mm")})
	date, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
	brl, _ := f.NewStyle(&excelize.Style{CustomNumFmt: ptr(`"R$" #,##0.00`)})
	pct, _ := f.NewStyle(&excelize.Style{NumFmt: 10})

	must(f.SetSheetRow("Vendas", "A1", &[]any{"ID", "DATA", "DIA", "LOJA", "CLIENTE", "VALOR", "DESCONTO", "PAGO"}))
	rows := []struct {
		at       time.Time
		loja     string
		cliente  string
		valor    any // a number, or nil for the formula
		desconto any
		pago     bool
	}{
		{day(2026, 9, 30, 14, 5), "Centro", "João", 1234.56, 0.10, true},
		{day(2026, 10, 1, 9, 30), "Bairro", "Conceição", 10.00, 0.255, false},
		{day(2026, 10, 15, 18, 0), "Centro", "José", -10.00, 0.0, true},
		{day(2026, 10, 20, 11, 15), "Bairro", "Ana “Aninha”", nil, nil, false},
		{day(2026, 11, 2, 8, 0), "Centro", "João", 2000000.00, 0.05, true},
	}
	for i, r := range rows {
		n := i + 2
		cell := func(col string) string { c, _ := excelize.JoinCellName(col, n); return c }
		must(f.SetCellValue("Vendas", cell("A"), i+1))
		must(f.SetCellValue("Vendas", cell("B"), r.at))
		must(f.SetCellValue("Vendas", cell("C"), r.at.Truncate(24*time.Hour)))
		must(f.SetCellValue("Vendas", cell("D"), r.loja))
		must(f.SetCellValue("Vendas", cell("E"), r.cliente))
		if r.valor == nil {
			// F5 = F2 * 0.5, with Excel's cached result 617.28.
			must(f.SetCellValue("Vendas", cell("F"), 617.28))
			must(f.SetCellFormula("Vendas", cell("F"), "F2*0.5"))
		} else {
			must(f.SetCellValue("Vendas", cell("F"), r.valor))
		}
		if r.desconto != nil {
			must(f.SetCellValue("Vendas", cell("G"), r.desconto))
		}
		must(f.SetCellValue("Vendas", cell("H"), r.pago))
		must(f.SetCellStyle("Vendas", cell("B"), cell("B"), dt))
		must(f.SetCellStyle("Vendas", cell("C"), cell("C"), date))
		must(f.SetCellStyle("Vendas", cell("F"), cell("F"), brl))
		must(f.SetCellStyle("Vendas", cell("G"), cell("G"), pct))
	}
	// Formatted cells without values below the data, as a sheet prepared for more rows has.
	must(f.SetCellStyle("Vendas", "A7", "H40", brl))

	must(f.SetCellValue("Metas", "A1", "Metas por loja"))
	must(f.MergeCell("Metas", "A1", "C1"))
	must(f.SetSheetRow("Metas", "A3", &[]any{"MES", "LOJA", "META"}))
	metas := []struct {
		mes  time.Time
		loja string
		meta float64
	}{
		{day(2026, 9, 1, 0, 0), "Centro", 1000},
		{day(2026, 10, 1, 0, 0), "Centro", 2500.5},
		{day(2026, 10, 1, 0, 0), "Bairro", 750},
	}
	for i, m := range metas {
		n := i + 4
		c, _ := excelize.JoinCellName("A", n)
		must(f.SetSheetRow("Metas", c, &[]any{m.mes, m.loja, m.meta}))
		must(f.SetCellStyle("Metas", c, c, date))
	}
	must(f.SetSheetRow("Metas", "A8", &[]any{"Total", "", 4250.5}))
	must(f.SetDefinedName(&excelize.DefinedName{Name: "MetasLoja", RefersTo: "Metas!$A$3:$C$6"}))
	var buf bytes.Buffer
	must(f.Write(&buf))
	// excelize marks a formula's cached number as a text (t="str"); Excel writes it as a number,
	// and so does this file.
	return rewrite(name, buf.Bytes(), "xl/worksheets/sheet2.xml", `s="3" t="str"><f>`, `s="3"><f>`)
}

// rewrite writes the zip data to name with old replaced by new in its part part.
func rewrite(name string, data []byte, part, old, new string) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			return err
		}
		b, err := io.ReadAll(rc)
		if err != nil {
			return err
		}
		if zf.Name == part {
			if !bytes.Contains(b, []byte(old)) {
				return fmt.Errorf("%s has no %s", part, old)
			}
			b = bytes.ReplaceAll(b, []byte(old), []byte(new))
		}
		w, err := zw.Create(zf.Name)
		if err != nil {
			return err
		}
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(name, out.Bytes(), 0o644)
}

func ptr[T any](v T) *T { return &v }
