package workspace

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/format"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// FuzzParquetRows feeds the Parquet reader damaged versions of real files (every type, NULLs,
// dictionaries, Snappy and Zstd, several row groups): it never panics, every problem is an
// *Error (or Errors) naming the file, every value it yields has its column's Go type, and the
// text beside each number and date is that value in the original format.
//
// Minimizing an input of several KiB takes the fuzzer minutes (it looks stuck), hence
// -fuzzminimizetime:
//
//	go test ./impl/lumo/workspace -run '^$' -fuzz FuzzParquetRows -fuzztime 60s -fuzzminimizetime 1x
func FuzzParquetRows(f *testing.F) {
	rows := make([]allTypes, 40)
	for i := range rows {
		rows[i] = allTypes{I32: int32(i), I64: int64(i) * 1e9, F64: float64(i) / 3, D64: int64(i * 101), DAY: int32(i * 400), TSU: int64(i) * 86399999,
			S: strconv.Itoa(i), DFL: bigBytes(strconv.Itoa(i * 7))}
		if i%3 == 0 {
			s, n := "ação", int64(-i)
			rows[i].OS, rows[i].ON = &s, &n
		}
	}
	snappy := writeParquet(f, rows, parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(16))
	zstd := writeParquet(f, rows, parquet.Compression(&parquet.Zstd))
	plain := writeParquet(f, rows[:5])
	for _, seed := range [][]byte{snappy, zstd, plain, snappy[:len(snappy)/2], zstd[:len(zstd)-9], []byte("PAR1PAR1")} {
		f.Add(seed)
	}
	hostile := patchPage(&testing.T{}, plain, 17, func(h *format.PageHeader) { h.UncompressedPageSize = 1 << 30 })
	f.Add(hostile)
	tbl := allTypesTable()
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{"t.parquet": {Data: data}}
		rows, err := OpenRows(fsys, "t.parquet", tbl, Format{})
		if err != nil {
			checkParquetError(t, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			if rows.Line() < 1 {
				t.Fatalf("a row on line %d", rows.Line())
			}
			for i, v := range rows.Values() {
				if v == nil {
					continue
				}
				ok := false
				switch tbl.Columns[i].Type {
				case semantic.TypeNumber:
					var f float64
					f, ok = v.(float64)
					if back, err := strconv.ParseFloat(rows.Text(i), 64); ok && (err != nil || back != f || math.IsNaN(f)) {
						t.Fatalf("number %v has the text %q", f, rows.Text(i))
					}
				case semantic.TypeString:
					var s string
					s, ok = v.(string)
					ok = ok && utf8.ValidString(s) && len(s) <= MaxValueBytes
				case semantic.TypeDate, semantic.TypeDatetime:
					var tm time.Time
					tm, ok = v.(time.Time)
					back, good := parseDate(rows.Text(i))
					if tbl.Columns[i].Type == semantic.TypeDatetime {
						back, good = parseDatetime(rows.Text(i))
					}
					if ok && (!good || !back.Equal(tm) || tm.Location() != time.UTC) {
						t.Fatalf("date %v has the text %q", tm, rows.Text(i))
					}
				}
				if !ok {
					t.Fatalf("column %s holds %T %v", tbl.Columns[i].Name, v, v)
				}
			}
		}
		if err := rows.Err(); err != nil {
			checkParquetError(t, err)
		}
	})
}

func checkParquetError(t *testing.T, err error) {
	t.Helper()
	for _, e := range parquetErrs(t, err) {
		if e.File != "t.parquet" || e.Message == "" {
			t.Fatalf("an error without file or message: %+v", e)
		}
	}
}

// TestParquetDamaged reads thousands of copies of real files (every codec) with a few bytes
// changed at random (a fixed seed): none panics, runs away with memory or loops, and every
// problem is a workspace error naming the file. It found parquet-go panicking on damaged
// pages and its LZ4 codec doubling its buffer forever on a damaged block.
func TestParquetDamaged(t *testing.T) {
	rows := make([]allTypes, 40)
	for i := range rows {
		rows[i] = allTypes{I32: int32(i), I64: int64(i) * 1e9, F64: float64(i) / 3, D64: int64(i * 101), DAY: int32(i * 400), S: strconv.Itoa(i)}
		if i%3 == 0 {
			s, n := "ação", int64(-i)
			rows[i].OS, rows[i].ON = &s, &n
		}
	}
	var seeds [][]byte
	for _, c := range []compress.Codec{&parquet.Uncompressed, &parquet.Snappy, &parquet.Gzip, &parquet.Zstd, &parquet.Brotli, &parquet.Lz4Raw} {
		seeds = append(seeds, writeParquet(t, rows, parquet.Compression(c), parquet.MaxRowsPerRowGroup(16)))
	}
	tbl := allTypesTable()
	rng := rand.New(rand.NewPCG(17, 4))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		data := append([]byte(nil), seeds[rng.IntN(len(seeds))]...)
		for range 1 + rng.IntN(4) {
			data[rng.IntN(len(data))] = byte(rng.IntN(256))
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("panic %v reading a damaged file of %d bytes", p, len(data))
				}
			}()
			rows, err := OpenRows(fstest.MapFS{"t.parquet": {Data: data}}, "t.parquet", tbl, Format{})
			if err != nil {
				checkParquetError(t, err)
				return
			}
			defer rows.Close()
			for rows.Next() {
				for i := range rows.Values() {
					rows.Text(i)
				}
			}
			if err := rows.Err(); err != nil {
				checkParquetError(t, err)
			}
		}()
	}
}
