// Command gen writes the Parquet files of features/testdata/parquet with parquet-go (a writer
// independent of lumo's reader) and, beside them in check/, the same rows as plain CSV, for
// the features' expected numbers to be computed with the sqlite3 CLI rather than by lumo. Run
// from the repository root:
//
//	go run ./features/testdata/parquet/gen
package main

import (
	"encoding/csv"
	"fmt"
	"log"
	"os"
	"strconv"
	"time"

	"github.com/parquet-go/parquet-go"
)

const dir = "features/testdata/parquet/"

// venda is a sale: an exact decimal amount and discount, the moment as a UTC timestamp in
// milliseconds, the delivery as a local timestamp in microseconds (as is, no zone), the day as
// a DATE, the store dictionary-encoded, the client optional (NULL for some sales).
type venda struct {
	ID       int64   `parquet:"ID"`
	DATA     int64   `parquet:"DATA,timestamp(millisecond:utc)"`
	DIA      int32   `parquet:"DIA,date"`
	LOJA     string  `parquet:"LOJA,dict"`
	CLIENTE  *string `parquet:"CLIENTE,optional"`
	VALOR    int64   `parquet:"VALOR,decimal(2:12)"`
	DESCONTO int32   `parquet:"DESCONTO,decimal(4:5)"`
	QTD      int32   `parquet:"QTD"`
	ENTREGA  *int64  `parquet:"ENTREGA,optional,timestamp(microsecond:local)"`
}

// item is a line of a sale, in the part files of the folder itens.
type item struct {
	ITEM    int64  `parquet:"ITEM"`
	VENDA   int64  `parquet:"VENDA"`
	PRODUTO string `parquet:"PRODUTO,dict"`
	PRECO   int64  `parquet:"PRECO,decimal(2:10)"`
}

var (
	lojas    = []string{"Centro", "Jardins", "Ribeirão"}
	clientes = []string{"João", "Conceição", "José", "Ana “Aninha”", "", "Lúcia"} // "" is NULL
	produtos = []string{"Café", "Pão de queijo", "Açaí", "Guaraná"}
	start    = time.Date(2026, 9, 1, 8, 0, 0, 0, time.UTC)
)

const nVendas = 1000

func main() {
	var vs []venda
	vrows := [][]string{{"ID", "DATA", "DIA", "LOJA", "CLIENTE", "VALOR", "DESCONTO", "QTD", "ENTREGA"}}
	for i := 1; i <= nVendas; i++ {
		at := start.Add(time.Duration(i) * 133 * time.Minute)
		day := at.Truncate(24 * time.Hour)
		cents := int64((i*7919)%500000 - 10000) // some refunds, below zero
		v := venda{ID: int64(i), DATA: at.UnixMilli(), DIA: int32(day.Unix() / 86400), LOJA: lojas[i%len(lojas)],
			VALOR: cents, DESCONTO: int32((i % 21) * 50), QTD: int32(1 + i%9)}
		row := []string{strconv.Itoa(i), at.Format("2006-01-02 15:04:05"), day.Format("2006-01-02"), v.LOJA, "",
			decimal(cents, 2), decimal(int64(v.DESCONTO), 4), strconv.Itoa(int(v.QTD)), ""}
		if c := clientes[i%len(clientes)]; c != "" {
			v.CLIENTE, row[4] = &c, c
		}
		if i%4 != 0 { // every fourth sale not delivered yet
			e := at.Add(50 * time.Hour)
			us := e.UnixMicro()
			v.ENTREGA, row[8] = &us, e.Format("2006-01-02 15:04:05")
		}
		vs = append(vs, v)
		vrows = append(vrows, row)
	}
	must(write(dir+"apps/vendas/vendas.parquet", vs, 300))
	must(writeCSV(dir+"check/vendas.csv", vrows))

	// Two lines a sale, in three parts of 700, 700 and 600 lines.
	var is []item
	irows := [][]string{{"ITEM", "VENDA", "PRODUTO", "PRECO"}}
	for i := 1; i <= 2*nVendas; i++ {
		it := item{ITEM: int64(i), VENDA: int64((i + 1) / 2), PRODUTO: produtos[(i*3)%len(produtos)], PRECO: int64(50 + (i*389)%9000)}
		is = append(is, it)
		irows = append(irows, []string{strconv.Itoa(i), strconv.Itoa(int(it.VENDA)), it.PRODUTO, decimal(it.PRECO, 2)})
	}
	must(os.MkdirAll(dir+"apps/vendas/itens", 0o755))
	for p, r := range [][2]int{{0, 700}, {700, 1400}, {1400, 2000}} {
		must(write(fmt.Sprintf("%sapps/vendas/itens/part-%05d.parquet", dir, p), is[r[0]:r[1]], 500))
	}
	// What a Spark job leaves beside its parts: no table rows.
	must(os.WriteFile(dir+"apps/vendas/itens/_SUCCESS", nil, 0o644))
	must(writeCSV(dir+"check/itens.csv", irows))
}

// write writes rows as a Snappy-compressed Parquet file of row groups of at most group rows.
func write[T any](name string, rows []T, group int64) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := parquet.NewGenericWriter[T](f, parquet.MaxRowsPerRowGroup(group), parquet.Compression(&parquet.Snappy))
	if _, err := w.Write(rows); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

func writeCSV(name string, rows [][]string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(rows); err != nil {
		return err
	}
	return f.Close()
}

// decimal is m/10^scale as -?digits.digits.
func decimal(m int64, scale int) string {
	s := strconv.FormatInt(max(m, -m), 10)
	for len(s) <= scale {
		s = "0" + s
	}
	s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	if m < 0 {
		s = "-" + s
	}
	return s
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
