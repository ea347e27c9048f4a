package workspace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// writeParquet writes rows with parquet-go, as any writer of the format would.
func writeParquet[T any](t testing.TB, rows []T, opts ...parquet.WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, opts...)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readParquet reads every row of file in fsys against tbl: the values and, beside, the texts of
// the values that are not nil.
func readParquet(t *testing.T, fsys fstest.MapFS, file string, tbl *semantic.Table) ([][]any, [][]string, Rows, error) {
	t.Helper()
	rows, err := OpenRows(fsys, file, tbl, Format{})
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	var vals [][]any
	var texts [][]string
	for rows.Next() {
		v := append([]any(nil), rows.Values()...)
		tx := make([]string, len(v))
		for i := range v {
			if v[i] != nil {
				tx[i] = rows.Text(i)
			}
		}
		vals, texts = append(vals, v), append(texts, tx)
	}
	return vals, texts, rows, rows.Err()
}

func epochDays(y, m, d int) int32 {
	return int32(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

type allTypes struct {
	I32 int32            `parquet:"I32"`
	I64 int64            `parquet:"I64"`
	U32 uint32           `parquet:"U32"`
	U64 uint64           `parquet:"U64"`
	F32 float32          `parquet:"F32"`
	F64 float64          `parquet:"F64"`
	B   bool             `parquet:"B"`
	BS  bool             `parquet:"BS"`
	D32 int32            `parquet:"D32,decimal(2:9)"`
	D64 int64            `parquet:"D64,decimal(3:18)"`
	DFL [16]byte         `parquet:"DFL,decimal(4:38)"`
	DAY int32            `parquet:"DAY,date"`
	TSU int64            `parquet:"TSU,timestamp(millisecond:utc)"`
	TSL int64            `parquet:"TSL,timestamp(microsecond:local)"`
	TSN int64            `parquet:"TSN,timestamp(nanosecond)"`
	I96 deprecated.Int96 `parquet:"I96"`
	S   string           `parquet:"S"`
	OS  *string          `parquet:"OS,optional"`
	ON  *int64           `parquet:"ON,optional"`
	OD  *int32           `parquet:"OD,optional,date"`
	NS  int64            `parquet:"NS"`
	DS  int32            `parquet:"DS,date"`
}

func allTypesTable() *semantic.Table {
	n, s, d, dt := "number", "string", "date", "datetime"
	return table([2]string{"I32", n}, [2]string{"I64", n}, [2]string{"U32", n}, [2]string{"U64", n}, [2]string{"F32", n}, [2]string{"F64", n},
		[2]string{"B", n}, [2]string{"BS", s}, [2]string{"D32", n}, [2]string{"D64", n}, [2]string{"DFL", n}, [2]string{"DAY", d},
		[2]string{"TSU", dt}, [2]string{"TSL", dt}, [2]string{"TSN", dt}, [2]string{"I96", dt}, [2]string{"S", s}, [2]string{"OS", s},
		[2]string{"ON", n}, [2]string{"OD", d}, [2]string{"NS", s}, [2]string{"DS", s})
}

// bigBytes is n as 16 bytes of big-endian two's complement.
func bigBytes(s string) (b [16]byte) {
	n, _ := new(big.Int).SetString(s, 10)
	if n.Sign() < 0 {
		n.Add(n, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	n.FillBytes(b[:])
	return b
}

func TestParquetTypes(t *testing.T) {
	sept30 := epochDays(2026, 9, 30)
	os, on, od := "ação", int64(1234567), epochDays(2024, 2, 29)
	at := time.Date(2026, 9, 30, 14, 5, 9, 999e6, time.UTC)
	local := time.Date(2026, 1, 2, 3, 4, 5, 5e5, time.UTC)
	data := writeParquet(t, []allTypes{{
		I32: -7, I64: 1<<53 + 1, U32: 4294967295, U64: 18446744073709551615, F32: 0.1, F64: -2.5, B: true, BS: false,
		D32: 12345, D64: -5, DFL: bigBytes("12345678901234567890123456789012"), DAY: sept30,
		TSU: at.UnixMilli(), TSL: local.UnixMicro(), TSN: -1, I96: deprecated.Int96{817553408 + 1, 838, uint32(2440588 + sept30)},
		S: "São João", OS: &os, ON: &on, OD: &od, NS: -42, DS: sept30,
	}, {
		I32: 0, I64: 3, U32: 1, U64: 2, F32: 1e10, F64: 1, B: false, BS: true,
		D32: -1, D64: 1000, DFL: bigBytes("-1"), DAY: 0, TSU: 0, TSL: 0, TSN: 0, I96: deprecated.Int96{0, 0, 2440588},
		S: "", NS: 0, DS: 0,
	}})
	fsys := fstest.MapFS{"t.parquet": {Data: data}}
	vals, texts, rows, err := readParquet(t, fsys, "t.parquet", allTypesTable())
	if err != nil {
		t.Fatal(err)
	}
	day := func(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }
	wantVals := [][]any{{
		-7.0, float64(1<<53 + 1), 4294967295.0, 18446744073709551615.0, 0.1, -2.5, 1.0, "FALSO", 123.45, -0.005, 1234567890123456789012345678.9012,
		// Instants (TSU, TSN, I96) are their wall clock in Brasília (-03:00); TSL is a local time.
		day(2026, 9, 30), time.Date(2026, 9, 30, 11, 5, 9, 0, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		time.Date(1969, 12, 31, 20, 59, 59, 0, time.UTC), time.Date(2026, 9, 29, 22, 0, 0, 0, time.UTC),
		"São João", "ação", 1234567.0, day(2024, 2, 29), "-42", "2026-09-30",
	}, {
		0.0, 3.0, 1.0, 2.0, 1e10, 1.0, 0.0, "VERDADEIRO", -0.01, 1.0, -0.0001,
		day(1970, 1, 1), time.Date(1969, 12, 31, 21, 0, 0, 0, time.UTC), day(1970, 1, 1),
		time.Date(1969, 12, 31, 21, 0, 0, 0, time.UTC), time.Date(1969, 12, 31, 21, 0, 0, 0, time.UTC),
		"", nil, nil, nil, "0", "1970-01-01",
	}}
	if diff := cmp.Diff(wantVals, vals); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	wantTexts := [][]string{{
		"-7", "9007199254740993", "4294967295", "18446744073709551615", "0.1", "-2.5", "1", "FALSO", "123.45", "-0.005",
		"1234567890123456789012345678.9012", "2026-09-30", "2026-09-30 11:05:09", "2026-01-02 03:04:05", "1969-12-31 20:59:59",
		"2026-09-29 22:00:00", "São João", "ação", "1234567", "2024-02-29", "-42", "2026-09-30",
	}, {
		"0", "3", "1", "2", "10000000000", "1", "0", "VERDADEIRO", "-0.01", "1.000", "-0.0001", "1970-01-01", "1969-12-31 21:00:00",
		"1970-01-01 00:00:00", "1969-12-31 21:00:00", "1969-12-31 21:00:00", "", "", "", "", "0", "1970-01-01",
	}}
	if diff := cmp.Diff(wantTexts, texts); diff != "" {
		t.Errorf("texts (-want +got):\n%s", diff)
	}
	wantScales := []int{0, 0, 0, 0, 1, 1, 0, 0, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	if diff := cmp.Diff(wantScales, rows.Scales()); diff != "" {
		t.Errorf("scales (-want +got):\n%s", diff)
	}
	if rows.Count() != 2 || rows.Line() != 2 || rows.Description() != "t.parquet: Parquet, 2 linhas" {
		t.Errorf("count %d, line %d, description %q", rows.Count(), rows.Line(), rows.Description())
	}
}

// parquetErr is the one *Error of err (a single error, or the first of Errors).
func parquetErrs(t *testing.T, err error) Errors {
	t.Helper()
	var list Errors
	if errors.As(err, &list) {
		return list
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("not a workspace error: %T %v", err, err)
	}
	return Errors{e}
}

// wantParquetErr checks that err has an error for file and field whose message holds each of
// words.
func wantParquetErr(t *testing.T, err error, file, field string, words ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one on %s %s", file, field)
	}
	for _, e := range parquetErrs(t, err) {
		if e.File == file && e.Field == field {
			t.Log(e)
			for _, w := range words {
				if !strings.Contains(e.Message, w) {
					t.Errorf("%v: the message lacks %q", e, w)
				}
			}
			return
		}
	}
	t.Fatalf("no error on %s %q in:\n%v", file, field, err)
}

type nested struct {
	ID    int64 `parquet:"ID"`
	Items []struct {
		SKU string `parquet:"SKU"`
	} `parquet:"ITENS"`
	Addr struct {
		City string `parquet:"CIDADE"`
	} `parquet:"ENDERECO"`
	Tags []string `parquet:"TAGS"`
}

func TestParquetSchemaRefused(t *testing.T) {
	data := writeParquet(t, []nested{{ID: 1, Tags: []string{"a"}}})
	fsys := fstest.MapFS{"t.parquet": {Data: data}}
	// The app uses the nested columns: each refused by name.
	tbl := table([2]string{"ID", "number"}, [2]string{"ITENS", "string"}, [2]string{"ENDERECO", "string"}, [2]string{"TAGS", "string"})
	_, _, _, err := readParquet(t, fsys, "t.parquet", tbl)
	for _, c := range []string{"ITENS", "ENDERECO", "TAGS"} {
		wantParquetErr(t, err, "t.parquet", c, "aninhada", "achatada")
	}
	// Columns the app does not declare are refused as a CSV's are, naming them.
	_, _, _, err = readParquet(t, fsys, "t.parquet", table([2]string{"ID", "number"}))
	wantParquetErr(t, err, "t.parquet", "ENDERECO", `não está na tabela "t" do app.yaml`)
	// A column the file lacks, and a type that does not convert.
	sales := writeParquet(t, []struct {
		ID   int64  `parquet:"ID"`
		NOME string `parquet:"NOME"`
		DIA  int32  `parquet:"DIA,date"`
	}{{1, "a", 0}})
	fsys["s.parquet"] = &fstest.MapFile{Data: sales}
	_, _, _, err = readParquet(t, fsys, "s.parquet", table([2]string{"ID", "date"}, [2]string{"NOME", "number"}, [2]string{"DIA", "number"}, [2]string{"VALOR", "number"}))
	wantParquetErr(t, err, "s.parquet", "ID", "é inteiro (INT64) no Parquet", "declare-a number")
	wantParquetErr(t, err, "s.parquet", "NOME", "é texto no Parquet", "declare-a string")
	wantParquetErr(t, err, "s.parquet", "DIA", "é data no Parquet", "declare-a date")
	wantParquetErr(t, err, "s.parquet", "VALOR", `não tem a coluna "VALOR"`)
	// A Parquet type lumo does not read.
	times := writeParquet(t, []struct {
		H int32 `parquet:"H,time(millisecond)"`
	}{{1}})
	fsys["h.parquet"] = &fstest.MapFile{Data: times}
	_, _, _, err = readParquet(t, fsys, "h.parquet", table([2]string{"H", "string"}))
	wantParquetErr(t, err, "h.parquet", "H", "tipo que o lumo não lê")
}

type part struct {
	ID    int64  `parquet:"ID"`
	NOME  string `parquet:"NOME"`
	VALOR int64  `parquet:"VALOR,decimal(2:12)"`
}

type partDouble struct {
	ID    int64   `parquet:"ID"`
	NOME  string  `parquet:"NOME"`
	VALOR float64 `parquet:"VALOR"`
}

func TestParquetFolder(t *testing.T) {
	tbl := table([2]string{"ID", "number"}, [2]string{"NOME", "string"}, [2]string{"VALOR", "number"})
	fsys := fstest.MapFS{
		"v/part-0001.parquet": {Data: writeParquet(t, []part{{1, "Ana", 1050}, {2, "Bia", 20}}, parquet.MaxRowsPerRowGroup(1))},
		"v/part-0000.parquet": {Data: writeParquet(t, []part{{0, "Zé", -5}})},
		"v/part-0002.parquet": {Data: writeParquet(t, []part{})},
		"v/_SUCCESS":          {Data: nil},
		"v/.part-0001.crc":    {Data: []byte("x")},
	}
	vals, texts, rows, err := readParquet(t, fsys, "v", tbl)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]any{{0.0, "Zé", -0.05}, {1.0, "Ana", 10.5}, {2.0, "Bia", 0.2}}
	if diff := cmp.Diff(want, vals); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	if texts[1][2] != "10.50" || texts[2][2] != "0.20" || rows.Line() != 3 || rows.Scales()[2] != 2 {
		t.Errorf("texts %q, line %d, scales %v", texts, rows.Line(), rows.Scales())
	}
	if d := rows.Description(); d != "v: Parquet, 3 arquivos, 3 linhas" {
		t.Errorf("description %q", d)
	}
	if n := ParquetRows(fsys, "v"); n != 3 {
		t.Errorf("ParquetRows = %d", n)
	}

	// A part whose schema differs is refused naming the part and the column.
	fsys["v/part-0003.parquet"] = &fstest.MapFile{Data: writeParquet(t, []partDouble{{3, "C", 1.5}})}
	_, _, _, err = readParquet(t, fsys, "v", tbl)
	wantParquetErr(t, err, "v/part-0003.parquet", "VALOR", "número DOUBLE nesta parte e DECIMAL(12,2) em part-0000.parquet", "mesmo esquema")
	delete(fsys, "v/part-0003.parquet")

	// Parts beside a partition's folder are refused, not skipped (TestParquetHive reads
	// partitioned folders).
	fsys["v/ano=2026/part-0000.parquet"] = &fstest.MapFile{Data: writeParquet(t, []part{{9, "X", 1}})}
	_, _, _, err = readParquet(t, fsys, "v", tbl)
	wantParquetErr(t, err, "v/part-0000.parquet", "", "não estão todas sob as mesmas partições")

	// A folder without parts.
	fsys["w/leia.txt"] = &fstest.MapFile{Data: []byte("x")}
	_, _, _, err = readParquet(t, fsys, "w", tbl)
	wantParquetErr(t, err, "w", "", "não tem arquivos .parquet")
}

func TestParquetValues(t *testing.T) {
	tbl := table([2]string{"ID", "number"}, [2]string{"NOME", "string"}, [2]string{"VALOR", "number"})
	for _, tc := range []struct {
		name  string
		data  func(t *testing.T) []byte
		tbl   *semantic.Table
		field string
		line  int
		words []string
	}{
		{"text not UTF-8", func(t *testing.T) []byte {
			return writeParquet(t, []part{{1, "ok", 1}, {2, "S\xe3o", 1}})
		}, tbl, "NOME", 2, []string{"não está em UTF-8"}},
		{"value too long", func(t *testing.T) []byte {
			return writeParquet(t, []part{{1, strings.Repeat("x", MaxValueBytes+1), 1}})
		}, tbl, "NOME", 1, []string{"passa de 1 MiB"}},
		{"NaN", func(t *testing.T) []byte {
			return writeParquet(t, []partDouble{{1, "a", 1}, {2, "b", 0}, {3, "c", nan()}})
		}, tbl, "VALOR", 3, []string{"NaN", "não é um número"}},
		{"time in a date column", func(t *testing.T) []byte {
			return writeParquet(t, []struct {
				D int64 `parquet:"D,timestamp(millisecond)"`
			}{{0}, {1000}})
		}, table([2]string{"D", "date"}), "D", 2, []string{"é só data", "declare-a datetime"}},
		{"year 10000", func(t *testing.T) []byte {
			return writeParquet(t, []struct {
				D int32 `parquet:"D,date"`
			}{{epochDays(9999, 12, 31) + 1}})
		}, table([2]string{"D", "date"}), "D", 1, []string{"do ano 10000"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{"t.parquet": {Data: tc.data(t)}}
			_, _, rows, err := readParquet(t, fsys, "t.parquet", tc.tbl)
			wantParquetErr(t, err, "t.parquet", tc.field, tc.words...)
			if e := parquetErrs(t, err)[0]; e.Line != tc.line || rows.Count() != int64(tc.line-1) {
				t.Errorf("error on row %d after %d rows; want row %d", e.Line, rows.Count(), tc.line)
			}
		})
	}
}

// patchPage rewrites the header of the first page of column col in a file of one row group,
// moving the offsets after it by what the header grows or shrinks.
func patchPage(t *testing.T, data []byte, col int, edit func(h *format.PageHeader)) []byte {
	t.Helper()
	var proto thrift.CompactProtocol
	n := int64(binary.LittleEndian.Uint32(data[len(data)-8:]))
	var md format.FileMetaData
	if err := thrift.Unmarshal(&proto, data[int64(len(data))-8-n:len(data)-8], &md); err != nil {
		t.Fatal(err)
	}
	cc := &md.RowGroups[0].Columns[col].MetaData
	at := cc.DataPageOffset
	if cc.DictionaryPageOffset > 0 {
		at = cc.DictionaryPageOffset
	}
	hlen, err := thriftCheck(data[at:])
	if err != nil {
		t.Fatal(err)
	}
	var h format.PageHeader
	if err := thrift.Unmarshal(&proto, data[at:at+int64(hlen)], &h); err != nil {
		t.Fatal(err)
	}
	edit(&h)
	nh, err := thrift.Marshal(&proto, &h)
	if err != nil {
		t.Fatal(err)
	}
	delta := int64(len(nh) - hlen)
	for i := range md.RowGroups[0].Columns {
		c := &md.RowGroups[0].Columns[i].MetaData
		if c.DataPageOffset > at {
			c.DataPageOffset += delta
		}
		if c.DictionaryPageOffset > at {
			c.DictionaryPageOffset += delta
		}
	}
	cc.TotalCompressedSize += delta
	md.RowGroups[0].FileOffset = 0
	footer, err := thrift.Marshal(&proto, &md)
	if err != nil {
		t.Fatal(err)
	}
	end := int64(len(data)) - 8 - n
	out := append([]byte(nil), data[:at]...)
	out = append(out, nh...)
	out = append(out, data[at+int64(hlen):end]...)
	out = append(out, footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// TestParquetHostile reads files whose page headers or footer declare gigabytes: each is
// refused, naming the file and the column, before anything that size is allocated.
func TestParquetHostile(t *testing.T) {
	type dictPart struct {
		ID    int64  `parquet:"ID"`
		NOME  string `parquet:"NOME,dict"`
		VALOR int64  `parquet:"VALOR,decimal(2:12)"`
	}
	var rows []dictPart
	for i := range 2000 {
		rows = append(rows, dictPart{int64(i), []string{"Ana", "Bia", "Caio"}[i%3], int64(i)})
	}
	good := writeParquet(t, rows, parquet.Compression(&parquet.Snappy))
	tbl := table([2]string{"ID", "number"}, [2]string{"NOME", "string"}, [2]string{"VALOR", "number"})
	// NOME, dictionary-encoded by default, is column 1.
	for _, tc := range []struct {
		name  string
		data  []byte
		field string
		words []string
	}{
		{"huge dictionary", patchPage(t, good, 1, func(h *format.PageHeader) {
			if h.Type != format.DictionaryPage {
				t.Fatalf("page type %v", h.Type)
			}
			h.UncompressedPageSize = 1<<31 - 1
		}), "NOME", []string{"2 GiB", "acima do limite de 64 MiB"}},
		{"dictionary of a billion values", patchPage(t, good, 1, func(h *format.PageHeader) {
			h.DictionaryPageHeader.V.NumValues = 1 << 30
		}), "NOME", []string{"o dicionário declara 1.073.741.824 valores"}},
		{"page of a billion values", patchPage(t, good, 0, func(h *format.PageHeader) {
			if h.Type == format.DataPageV2 {
				h.DataPageHeaderV2.V.NumValues = 1 << 30
			} else {
				h.DataPageHeader.V.NumValues = 1 << 30
			}
		}), "ID", []string{"1.073.741.824 valores"}},
		{"huge compressed page", patchPage(t, good, 2, func(h *format.PageHeader) {
			h.CompressedPageSize = 1 << 30
		}), "VALOR", []string{"1 GiB"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{"t.parquet": {Data: tc.data}}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, _, _, err := readParquet(t, fsys, "t.parquet", tbl)
			runtime.ReadMemStats(&after)
			wantParquetErr(t, err, "t.parquet", tc.field, tc.words...)
			if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
				t.Errorf("allocated %d bytes refusing the file", got)
			}
		})
	}

	// A footer whose thrift list declares a billion schema elements in a few bytes.
	footer := []byte{0x15, 0x02, 0x19, 0xfc, 0x80, 0x80, 0x80, 0x80, 0x04, 0x00}
	bomb := append([]byte("PAR1"), footer...)
	bomb = binary.LittleEndian.AppendUint32(bomb, uint32(len(footer)))
	bomb = append(bomb, "PAR1"...)
	for name, tc := range map[string]struct {
		data  []byte
		words string
	}{
		"list bomb":        {bomb, "rodapé do Parquet está corrompido"},
		"footer past file": {append(good[:len(good)-8:len(good)-8], 0xff, 0xff, 0xff, 0x7f, 'P', 'A', 'R', '1'), "mais que o arquivo"},
		"truncated":        {good[:len(good)/2], "truncado"},
		"not parquet":      {[]byte("ID,NOME,VALOR\n1,a,2\n"), "não é Parquet"},
		"corrupt footer":   {append(append(append([]byte(nil), good[:len(good)-40]...), bytes.Repeat([]byte{0xee}, 32)...), good[len(good)-8:]...), "corrompido"},
	} {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{"t.parquet": {Data: tc.data}}
			_, _, _, err := readParquet(t, fsys, "t.parquet", tbl)
			wantParquetErr(t, err, "t.parquet", "", tc.words)
		})
	}

	// Pages whose bytes are damaged: an error naming the file, the row and the column.
	damaged := append([]byte(nil), good...)
	for i := 200; i < len(good)/2; i += 7 {
		damaged[i] ^= 0x5a
	}
	_, _, _, err := readParquet(t, fstest.MapFS{"t.parquet": {Data: damaged}}, "t.parquet", tbl)
	if err == nil {
		t.Fatal("a damaged file read without error")
	}
	for _, e := range parquetErrs(t, err) {
		if e.File != "t.parquet" || e.Message == "" {
			t.Errorf("error %+v", e)
		}
	}
}

func TestThriftCheck(t *testing.T) {
	for _, b := range [][]byte{
		{0x19, 0xfc, 0x80, 0x80, 0x80, 0x80, 0x04}, // a list of 2^30 structs in 7 bytes
		{0x18, 0xff, 0xff, 0xff, 0xff, 0x0f},       // a binary of 4 GiB
		{0x1b, 0x80, 0x80, 0x80, 0x80, 0x04, 0x88}, // a map of 2^30 entries
	} {
		if _, err := thriftCheck(b); err == nil {
			t.Errorf("%x passed", b)
		}
	}
	n, err := thriftCheck([]byte{0x15, 0x02, 0x19, 0x25, 0x02, 0x04, 0x00, 0xff})
	if err != nil || n != 7 {
		t.Errorf("a struct of an i32 and a list of two i32s: %d, %v", n, err)
	}
}

func nan() float64 { return math.NaN() }
