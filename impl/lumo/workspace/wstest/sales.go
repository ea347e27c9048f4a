// Package wstest writes the sales tables the workspace and store benchmarks read, in the file
// formats lumo imports besides CSV, with excelize and parquet-go: writers independent of lumo's
// readers.
package wstest

import (
	"fmt"
	"io"
	"time"

	"github.com/xuri/excelize/v2"
)

// SalesColumns is the app.yaml columns of the sales table, as YAML lines.
const SalesColumns = "      - {name: ID, label: Id, type: number, role: key}\n      - {name: DATA, label: Data, type: datetime}\n" +
	"      - {name: DIA, label: Dia, type: date}\n      - {name: CLIENTE, label: Cliente, type: string}\n" +
	"      - {name: VALOR, label: Valor, type: number, role: measure}\n      - {name: DESCONTO, label: Desconto, type: number, role: measure}\n" +
	"      - {name: QTD, label: Qtd, type: number, role: measure}\n"

var clients = []string{"Ana Beatriz", "Renata Conceição", "João Araújo", "Loja Çapê"}

// Sale is row i (from 1) of the sales table, the same values the CSV benchmarks write.
func Sale(i int) (id int, at time.Time, day time.Time, client string, cents int, pct int, qty int) {
	d, m, hh, mi := 1+i%28, 1+i%12, i%24, i%60
	day = time.Date(2025, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return i, day.Add(time.Duration(hh)*time.Hour + time.Duration(mi)*time.Minute), day, clients[i%len(clients)], (i * 7919) % 500000, i % 100, i % 9
}

// SalesXLSX writes n sales as sheet "Vendas" of a workbook, as Excel would: a header row, then
// dates and date-times as date-formatted serials, amounts with an R$ format, discounts with a
// percent format, texts as shared strings.
func SalesXLSX(w io.Writer, n int) error {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Vendas"); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter("Vendas")
	if err != nil {
		return err
	}
	dt, _ := f.NewStyle(&excelize.Style{CustomNumFmt: ptr("dd/mm/yyyy hh:mm")})
	day, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
	brl, _ := f.NewStyle(&excelize.Style{CustomNumFmt: ptr(`"R$" #,##0.00`)})
	pct, _ := f.NewStyle(&excelize.Style{NumFmt: 9})
	if err := sw.SetRow("A1", []any{"ID", "DATA", "DIA", "CLIENTE", "VALOR", "DESCONTO", "QTD"}); err != nil {
		return err
	}
	row := make([]any, 7)
	for i := 1; i <= n; i++ {
		id, at, d, c, cents, p, q := Sale(i)
		row[0] = id
		row[1] = excelize.Cell{StyleID: dt, Value: at}
		row[2] = excelize.Cell{StyleID: day, Value: d}
		row[3] = c
		row[4] = excelize.Cell{StyleID: brl, Value: float64(cents) / 100}
		row[5] = excelize.Cell{StyleID: pct, Value: float64(p) / 100}
		row[6] = q
		if err := sw.SetRow(fmt.Sprintf("A%d", i+1), row); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.Write(w)
}

func ptr[T any](v T) *T { return &v }
