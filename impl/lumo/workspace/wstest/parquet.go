package wstest

import (
	"io"

	"github.com/parquet-go/parquet-go"
)

// ParquetSale is a sale as a Parquet writer's struct: the amount and the discount as exact
// decimals, the moment as a UTC timestamp in milliseconds, the day as a DATE, the client
// dictionary-encoded.
type ParquetSale struct {
	ID       int64  `parquet:"ID"`
	DATA     int64  `parquet:"DATA,timestamp(millisecond:utc)"`
	DIA      int32  `parquet:"DIA,date"`
	CLIENTE  string `parquet:"CLIENTE,dict"`
	VALOR    int64  `parquet:"VALOR,decimal(2:12)"`
	DESCONTO int32  `parquet:"DESCONTO,decimal(2:4)"`
	QTD      int32  `parquet:"QTD"`
}

// ParquetSaleOf is row i of the sales table (Sale) as a ParquetSale.
func ParquetSaleOf(i int) ParquetSale {
	id, at, day, client, cents, pct, qty := Sale(i)
	return ParquetSale{ID: int64(id), DATA: at.UnixMilli(), DIA: int32(day.Unix() / 86400), CLIENTE: client,
		VALOR: int64(cents), DESCONTO: int32(pct), QTD: int32(qty)}
}

// SalesParquet writes n sales as a Snappy-compressed Parquet file with row groups of at most
// groupRows rows, as parquet-go writes them.
func SalesParquet(w io.Writer, n, groupRows int) error {
	pw := parquet.NewGenericWriter[ParquetSale](w, parquet.MaxRowsPerRowGroup(int64(groupRows)), parquet.Compression(&parquet.Snappy))
	batch := make([]ParquetSale, 0, 1024)
	for i := 1; i <= n; i++ {
		batch = append(batch, ParquetSaleOf(i))
		if len(batch) == cap(batch) || i == n {
			if _, err := pw.Write(batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return pw.Close()
}
