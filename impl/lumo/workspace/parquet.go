package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/big"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// How a Parquet column's values are read, from its physical and logical types.
const (
	pqString    = 1 + iota // BYTE_ARRAY as STRING, ENUM, JSON or without logical type: UTF-8 checked
	pqInt                  // INT32, INT64, signed INT logical types
	pqUint                 // unsigned INT logical types
	pqFloat                // FLOAT
	pqDouble               // DOUBLE
	pqBool                 // BOOLEAN
	pqDecimal              // DECIMAL on INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY
	pqDate                 // DATE: days since 1970-01-01
	pqTimestamp            // TIMESTAMP on INT64 in perSec units a second
	pqInt96                // INT96 timestamps (Spark, Impala): nanoseconds of the day and Julian day
)

// pqType is how one Parquet column is read; two parts agree on a column when their pqTypes are
// equal.
type pqType struct {
	kind   uint8
	phys   format.Type
	scale  int   // decimals of a DECIMAL
	perSec int64 // units a second of a TIMESTAMP
	utc    bool  // a TIMESTAMP adjusted to UTC
	utf8   bool  // a BYTE_ARRAY annotated STRING or UTF8, which DuckDB reads as VARCHAR
	words  string
}

// parquetBatch is how many values of a column one read takes from a page.
const parquetBatch = 1024

// parquetRows streams the rows of a Parquet file, or of a folder of part files read in name
// order, as one table: the top-level columns are matched to app.yaml's by physical name, as a
// CSV header is, and converted by their Parquet types. It reads one row group at a time, and of
// it one page per column, so memory stays bounded by the limits in parquet_bounds.go.
type parquetRows struct {
	fsys  fs.FS
	file  string   // as app.yaml names it: the file or the folder
	parts []string // the files read, in order
	dir   bool
	cols  []*semantic.Column
	types []pqType // per column, from the schema (the same in every part)

	// A partitioned folder's keys, each a column whose value comes from the part's folders.
	folder *ParquetFolder
	hive   []int    // per column, its key in folder.Keys, or -1 (nil when not partitioned)
	hvals  []any    // per column, the open part's partition value
	htexts []string // and its text

	part     int // index of the open part in parts (-1 before)
	f        fs.File
	ra       io.ReaderAt
	size     int64
	pf       *parquet.File
	leaf     []int // per column, its column chunk in the open part's row groups
	group    int   // the next row group of the open part
	left     int64 // rows left in the current row group
	curs     []pqCursor
	partLine int // rows read from the open part
	inflate  inflater

	vals    []any
	texts   []string
	pend    []uint8 // per column, how Text writes the value (pend kinds), 0 when texts holds it
	nums    []float64
	ints    []int64
	scales  []int
	units   []string
	arena   []byte
	scratch []byte
	strs    [][16]textBox
	days    *[1024]dayBox
	ymd     *[1024]civilDay
	line    int
	count   int64
	err     *Error
	done    bool
}

// Pending kinds of a parquetRows text besides pendDate and pendDatetime.
const (
	pendShortest = 10 + iota // the shortest text of nums[i]
	pendDecimal              // ints[i] over 10^scale (the column's), exactly
)

// pqCursor reads one column of the current row group a value at a time, a batch of values
// from a page at a time: as plain integers from a page of INT32 or INT64 without nulls (most
// keys, quantities and decimals), as parquet.Values from any other.
type pqCursor struct {
	pages parquet.Pages
	page  parquet.Page
	vr    parquet.ValueReader
	i32   parquet.Int32Reader // vr as integers (nil when not)
	i64   parquet.Int64Reader
	eof   bool // vr has no more values
	buf   []parquet.Value
	ibuf  []int64
	jbuf  []int32
	n, i  int
}

// next is the column's next value. Its bytes (a BYTE_ARRAY's) last until the page changes:
// after the batch is used.
func (c *pqCursor) next() (parquet.Value, error) {
	for c.i >= c.n {
		if c.vr != nil && !c.eof {
			var n int
			var err error
			switch {
			case c.i64 != nil:
				n, err = c.i64.ReadInt64s(c.ibuf)
			case c.i32 != nil:
				n, err = c.i32.ReadInt32s(c.jbuf)
			default:
				n, err = c.vr.ReadValues(c.buf)
			}
			c.n, c.i = n, 0
			switch {
			case err == io.EOF:
				c.eof = true
			case err != nil:
				return parquet.Value{}, err
			case n == 0: // a reader that neither reads nor ends would loop forever
				return parquet.Value{}, errors.New("a page yields no values and does not end")
			}
			continue
		}
		if c.page != nil {
			parquet.Release(c.page)
			c.page, c.vr = nil, nil
		}
		p, err := c.pages.ReadPage()
		if err == io.EOF {
			return parquet.Value{}, errors.New("the column chunk ends before the row group's rows")
		}
		if err != nil {
			return parquet.Value{}, err
		}
		c.page, c.vr, c.eof = p, p.Values(), false
		c.i64, c.i32 = nil, nil
		if p.NumNulls() == 0 {
			switch vr := c.vr.(type) {
			case parquet.Int64Reader:
				c.i64 = vr
				if c.ibuf == nil {
					c.ibuf = make([]int64, parquetBatch)
				}
			case parquet.Int32Reader:
				c.i32 = vr
				if c.jbuf == nil {
					c.jbuf = make([]int32, parquetBatch)
				}
			}
		}
	}
	i := c.i
	c.i++
	switch {
	case c.i64 != nil:
		return parquet.Int64Value(c.ibuf[i]), nil
	case c.i32 != nil:
		return parquet.Int32Value(c.jbuf[i]), nil
	}
	return c.buf[i], nil
}

func (c *pqCursor) close() {
	if c.page != nil {
		parquet.Release(c.page)
		c.page, c.vr = nil, nil
	}
	if c.pages != nil {
		c.pages.Close()
		c.pages = nil
	}
	c.n, c.i = 0, 0
}

// isParquetPart says whether a folder's entry is a part file: *.parquet, not hidden nor a
// writer's marker (_SUCCESS, _metadata).
func isParquetPart(name string) bool {
	return strings.EqualFold(path.Ext(name), ".parquet") && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_")
}

// openParquet opens file, a Parquet file or a folder of part files, and checks every part's
// schema against t: every column of t once, of a type that converts to the column's, and no
// other column. Problems come back as Errors naming the part and the column.
func openParquet(fsys fs.FS, file string, t *semantic.Table, dir bool) (_ *parquetRows, err error) {
	r := &parquetRows{fsys: fsys, file: file, dir: dir, cols: t.Columns, part: -1}
	var hiveErrs Errors
	if dir {
		pf, err := ReadParquetFolder(fsys, file)
		if err != nil {
			return nil, err
		}
		if len(pf.Parts) == 0 {
			return nil, &Error{File: file, Message: fmt.Sprintf("a pasta da tabela %q não tem arquivos .parquet; ponha nela as partes da tabela, ou aponte file para um arquivo", t.Name)}
		}
		r.parts, r.folder = pf.Parts, pf
		if len(pf.Keys) > 0 {
			r.hive, r.hvals, r.htexts = make([]int, len(t.Columns)), make([]any, len(t.Columns)), make([]string, len(t.Columns))
			for j := range r.hive {
				r.hive[j] = -1
			}
			for k, key := range pf.Keys {
				j := slices.IndexFunc(t.Columns, func(c *semantic.Column) bool { return c.SourceName() == key })
				if j < 0 {
					hiveErrs = append(hiveErrs, &Error{File: file, Field: key, Message: fmt.Sprintf(
						"a pasta é particionada por %s (pastas %s=...), e a tabela %q do app.yaml não tem a coluna %q; declare-a no app.yaml", ptbr.List(pf.Keys), key, t.Name, key)})
					continue
				}
				r.hive[j] = k
			}
		}
	} else {
		r.parts = []string{file}
	}
	var errs Errors
	for i, p := range r.parts {
		if err := r.openPart(i); err != nil {
			return nil, err
		}
		types, perrs := r.checkSchema(t)
		errs = append(errs, perrs...)
		if i == 0 {
			errs = append(errs, hiveErrs...) // after the file's columns, as the partition columns come
		}
		if len(perrs) == 0 {
			if i == 0 {
				r.types = types
			} else {
				for j, c := range t.Columns {
					// A text is a text whatever its annotation; DuckDB reads it only if every
					// part says STRING.
					r.types[j].utf8 = r.types[j].utf8 && types[j].utf8
					types[j].utf8 = r.types[j].utf8
					if types[j] != r.types[j] {
						errs = append(errs, &Error{File: p, Field: c.SourceName(), Message: fmt.Sprintf(
							"a coluna %q é %s nesta parte e %s em %s; todas as partes da pasta precisam do mesmo esquema: gere-as de novo com os mesmos tipos",
							c.SourceName(), types[j].words, r.types[j].words, path.Base(r.parts[0]))})
					}
				}
			}
		}
		r.closePart()
		if len(errs) > 0 {
			return nil, errs
		}
	}
	r.part = -1
	n := len(t.Columns)
	r.vals, r.texts, r.pend, r.nums = make([]any, n), make([]string, n), make([]uint8, n), make([]float64, n)
	r.ints = make([]int64, n)
	r.scales, r.units, r.strs, r.days = make([]int, n), make([]string, n), make([][16]textBox, n), new([1024]dayBox)
	r.ymd = new([1024]civilDay)
	r.curs = make([]pqCursor, n)
	for i := range r.curs {
		r.curs[i].buf = make([]parquet.Value, parquetBatch)
	}
	for i, ty := range r.types {
		if ty.kind == pqDecimal && t.Columns[i].Type == semantic.TypeNumber {
			r.scales[i] = ty.scale
		}
	}
	return r, nil
}

// openPart opens part i and reads its footer.
func (r *parquetRows) openPart(i int) error {
	r.closePart()
	file := r.parts[i]
	f, err := r.fsys.Open(file)
	if err != nil {
		return &Error{File: file, Message: "o arquivo não pôde ser aberto: " + err.Error()}
	}
	ra, size, err := readerAt(file, f)
	if err != nil {
		f.Close()
		return err
	}
	if msg := checkFooter(ra, size); msg != "" {
		f.Close()
		return &Error{File: file, Message: msg}
	}
	pf, err := openParquetFile(ra, size)
	if err != nil {
		f.Close()
		return &Error{File: file, Message: "o arquivo Parquet está corrompido (" + err.Error() + "); gere-o de novo"}
	}
	r.part, r.f, r.ra, r.size, r.pf, r.group, r.partLine = i, f, ra, size, pf, 0, 0
	if err := r.checkGroups(); err != nil {
		r.closePart()
		return err
	}
	if err := r.partitionValues(i); err != nil {
		r.closePart()
		return err
	}
	return nil
}

// partitionValues converts part i's partition values, from its folders' names, to their
// columns' types.
func (r *parquetRows) partitionValues(i int) error {
	for j, k := range r.hive {
		if k < 0 {
			continue
		}
		c, raw := r.cols[j], r.folder.Values[i][k]
		v, text, scale, msg := partitionValue(c, raw)
		if msg != "" {
			return &Error{File: path.Dir(r.parts[i]), Field: c.SourceName(), Message: fmt.Sprintf("a pasta %s=%s dá o valor %q à coluna %q, que %s", c.SourceName(), raw, raw, c.SourceName(), msg)}
		}
		r.hvals[j], r.htexts[j] = v, text
		if r.scales != nil {
			r.scales[j] = max(r.scales[j], scale)
		}
	}
	return nil
}

// openParquetFile is parquet.OpenFile, a panic on a damaged footer an error.
func openParquetFile(ra io.ReaderAt, size int64) (_ *parquet.File, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	return parquet.OpenFile(ra, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true), parquet.ReadBufferSize(64<<10))
}

// checkGroups checks the row groups' metadata the reading trusts: one chunk per column, as
// many values as rows, a codec parquet-go reads.
func (r *parquetRows) checkGroups() error {
	md := r.pf.Metadata()
	for g, rg := range md.RowGroups {
		if rg.NumRows < 0 {
			return &Error{File: r.parts[r.part], Message: fmt.Sprintf("o grupo de linhas %d declara %d linhas; o arquivo está corrompido", g+1, rg.NumRows)}
		}
		for _, cc := range rg.Columns {
			if cc.FilePath != "" {
				return &Error{File: r.parts[r.part], Message: "o arquivo Parquet guarda colunas em outros arquivos (file_path), o que o lumo não lê; gere-o num arquivo só"}
			}
			switch cc.MetaData.Codec {
			case format.Uncompressed, format.Snappy, format.Gzip, format.Brotli, format.Zstd, format.Lz4Raw:
			default:
				return &Error{File: r.parts[r.part], Field: strings.Join(cc.MetaData.PathInSchema, "."), Message: fmt.Sprintf(
					"a coluna está compactada com %s, que o lumo não lê; gere o arquivo com Snappy, Gzip, Zstd, Brotli, LZ4_RAW ou sem compactação", cc.MetaData.Codec)}
			}
		}
	}
	return nil
}

// abandon drops the open part after a panic inside parquet-go, whose state is then unknown:
// its pages are not released (the collector frees them), only the file is closed.
func (r *parquetRows) abandon() {
	for i := range r.curs {
		r.curs[i] = pqCursor{buf: r.curs[i].buf}
	}
	if r.f != nil {
		r.f.Close()
	}
	r.f, r.ra, r.pf, r.left = nil, nil, nil, 0
}

func (r *parquetRows) closePart() {
	for i := range r.curs {
		r.curs[i].close()
	}
	if r.f != nil {
		r.f.Close()
	}
	r.f, r.ra, r.pf, r.left = nil, nil, nil, 0
}

// pqField is a top-level field of a Parquet schema.
type pqField struct {
	el   *format.SchemaElement
	leaf int  // its first column chunk
	flat bool // a primitive, neither repeated nor a group
}

// checkSchema matches the open part's top-level fields to t's columns and returns each
// column's pqType.
func (r *parquetRows) checkSchema(t *semantic.Table) ([]pqType, Errors) {
	file := r.parts[r.part]
	schema := r.pf.Metadata().Schema
	var errs Errors
	if len(schema) == 0 || !schema[0].NumChildren.Valid {
		return nil, Errors{{File: file, Message: "o esquema do Parquet está vazio ou corrompido; gere o arquivo de novo"}}
	}
	fields := map[string]pqField{}
	var order []string
	i, leaf := 1, 0
	for range schema[0].NumChildren.V {
		if i >= len(schema) {
			return nil, Errors{{File: file, Message: "o esquema do Parquet está corrompido (tem menos campos do que declara); gere o arquivo de novo"}}
		}
		el := &schema[i]
		f := pqField{el: el, leaf: leaf}
		// The field's subtree, depth first: a group's children follow it.
		pending, leaves := 1, 0
		for pending > 0 && i < len(schema) {
			e := &schema[i]
			pending--
			if e.NumChildren.Valid && e.NumChildren.V > 0 {
				pending += int(e.NumChildren.V)
			} else {
				leaves++
			}
			i++
		}
		if pending > 0 {
			return nil, Errors{{File: file, Message: "o esquema do Parquet está corrompido (tem menos campos do que declara); gere o arquivo de novo"}}
		}
		leaf += leaves
		f.flat = leaves == 1 && !(el.NumChildren.Valid && el.NumChildren.V > 0) && !(el.RepetitionType.Valid && el.RepetitionType.V == format.Repeated)
		if _, dup := fields[el.Name]; dup {
			errs = append(errs, &Error{File: file, Field: el.Name, Message: fmt.Sprintf("a coluna %q aparece duas vezes no esquema do Parquet; deixe uma só", el.Name)})
			continue
		}
		fields[el.Name] = f
		order = append(order, el.Name)
	}
	types := make([]pqType, len(t.Columns))
	r.leaf = make([]int, len(t.Columns))
	known := map[string]bool{}
	for j, c := range t.Columns {
		known[c.SourceName()] = true
		f, ok := fields[c.SourceName()]
		if r.hive != nil && r.hive[j] >= 0 {
			if ok {
				errs = append(errs, &Error{File: file, Field: c.SourceName(), Message: fmt.Sprintf(
					"a coluna %q está no arquivo e também no nome das pastas (%s=...); gere as partes sem ela, que o valor vem da pasta", c.SourceName(), c.SourceName())})
			}
			continue
		}
		if !ok {
			errs = append(errs, &Error{File: file, Field: c.SourceName(), Message: fmt.Sprintf(
				"o arquivo não tem a coluna %q da tabela %q do app.yaml; inclua-a no Parquet ou tire-a do app.yaml", c.SourceName(), t.Name)})
			continue
		}
		if !f.flat {
			errs = append(errs, &Error{File: file, Field: c.SourceName(), Message: fmt.Sprintf(
				"a coluna %q é aninhada no Parquet (grupo, lista ou mapa), e o lumo lê só colunas simples; gere o arquivo com a coluna achatada (um valor por linha) ou tire-a do app.yaml", c.SourceName())})
			continue
		}
		ty, msg := parquetType(f.el)
		if msg == "" {
			msg = typeFits(c, ty)
		}
		if msg != "" {
			errs = append(errs, &Error{File: file, Field: c.SourceName(), Message: msg})
			continue
		}
		types[j], r.leaf[j] = ty, f.leaf
	}
	for _, name := range order {
		if !known[name] {
			errs = append(errs, &Error{File: file, Field: name, Message: fmt.Sprintf(
				"a coluna %q não está na tabela %q do app.yaml; remova-a do arquivo ou declare-a no app.yaml", name, t.Name)})
		}
	}
	return types, errs
}

// parquetType is how column el is read, or the problem of a type lumo does not read.
func parquetType(el *format.SchemaElement) (pqType, string) {
	if !el.Type.Valid {
		return pqType{}, fmt.Sprintf("a coluna %q não tem tipo no esquema do Parquet; gere o arquivo de novo", el.Name)
	}
	ty := pqType{phys: el.Type.V}
	lt := el.LogicalType.Value
	ct := deprecated.ConvertedType(-1)
	if el.ConvertedType.Valid {
		ct = el.ConvertedType.V
	}
	unsupported := func(what string) (pqType, string) {
		return pqType{}, fmt.Sprintf("a coluna %q é %s no Parquet, tipo que o lumo não lê; converta-a em texto, número, data ou data e hora ao gerar o arquivo", el.Name, what)
	}
	switch v := lt.(type) {
	case *format.DecimalType:
		ty.kind, ty.scale = pqDecimal, int(v.Scale)
	case *format.StringType:
		ty.kind, ty.utf8 = pqString, true
	case *format.EnumType, *format.JsonType:
		ty.kind = pqString
	case *format.DateType:
		ty.kind = pqDate
	case *format.TimestampType:
		ty.kind, ty.utc = pqTimestamp, v.IsAdjustedToUTC
		switch v.Unit.Value.(type) {
		case *format.MilliSeconds:
			ty.perSec = 1e3
		case *format.MicroSeconds:
			ty.perSec = 1e6
		case *format.NanoSeconds:
			ty.perSec = 1e9
		default:
			return unsupported("um TIMESTAMP sem unidade")
		}
	case *format.IntType:
		ty.kind = pqInt
		if !v.IsSigned {
			ty.kind = pqUint
		}
	case nil:
		switch ct {
		case deprecated.Decimal:
			ty.kind, ty.scale = pqDecimal, int(el.Scale.V)
		case deprecated.UTF8:
			ty.kind, ty.utf8 = pqString, true
		case deprecated.Enum, deprecated.Json:
			ty.kind = pqString
		case deprecated.Date:
			ty.kind = pqDate
		case deprecated.TimestampMillis:
			ty.kind, ty.perSec, ty.utc = pqTimestamp, 1e3, true
		case deprecated.TimestampMicros:
			ty.kind, ty.perSec, ty.utc = pqTimestamp, 1e6, true
		case deprecated.Int8, deprecated.Int16, deprecated.Int32, deprecated.Int64:
			ty.kind = pqInt
		case deprecated.Uint8, deprecated.Uint16, deprecated.Uint32, deprecated.Uint64:
			ty.kind = pqUint
		case -1:
		default:
			return unsupported(fmt.Sprintf("o tipo convertido %d", ct))
		}
	default:
		return unsupported(lt.String())
	}
	p := el.Type.V
	if ty.kind == 0 { // no logical type: the physical one
		switch p {
		case format.Boolean:
			ty.kind = pqBool
		case format.Int32, format.Int64:
			ty.kind = pqInt
		case format.Float:
			ty.kind = pqFloat
		case format.Double:
			ty.kind = pqDouble
		case format.ByteArray:
			ty.kind = pqString
		case format.Int96:
			ty.kind, ty.utc = pqInt96, true
		default:
			return unsupported(p.String() + " (bytes sem tipo lógico)")
		}
	}
	okPhys := false
	switch ty.kind {
	case pqString:
		okPhys = p == format.ByteArray
	case pqInt, pqUint:
		okPhys = p == format.Int32 || p == format.Int64
	case pqDecimal:
		okPhys = p == format.Int32 || p == format.Int64 || p == format.FixedLenByteArray || p == format.ByteArray
		if ty.scale < 0 || ty.scale > 38 {
			return unsupported(fmt.Sprintf("DECIMAL com escala %d", ty.scale))
		}
	case pqDate:
		okPhys = p == format.Int32
	case pqTimestamp:
		okPhys = p == format.Int64
	default:
		okPhys = true
	}
	if !okPhys {
		return pqType{}, fmt.Sprintf("a coluna %q declara %s sobre %s no esquema do Parquet, o que o formato não permite; gere o arquivo de novo", el.Name, lt, p)
	}
	ty.words = pqWords(ty, el)
	return ty, ""
}

// pqWords names a Parquet type in Portuguese, for messages.
func pqWords(ty pqType, el *format.SchemaElement) string {
	switch ty.kind {
	case pqString:
		return "texto"
	case pqInt, pqUint:
		return "inteiro (" + ty.phys.String() + ")"
	case pqFloat:
		return "número FLOAT"
	case pqDouble:
		return "número DOUBLE"
	case pqBool:
		return "booleano"
	case pqDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", el.Precision.V, ty.scale)
	case pqDate:
		return "data"
	case pqTimestamp:
		unit := map[int64]string{1e3: "milissegundos", 1e6: "microssegundos", 1e9: "nanossegundos"}[ty.perSec]
		if ty.utc {
			return "data e hora em UTC (" + unit + "), lida no horário de Brasília"
		}
		return "data e hora local (" + unit + ")"
	case pqInt96:
		return "data e hora INT96, lida no horário de Brasília"
	}
	return ty.phys.String()
}

// typeFits is the problem of Parquet type ty for column c ("" when the values convert): a
// number column takes numbers (and booleans, as 0 and 1); a date or date-time column dates and
// timestamps; a text column any value, written as text.
func typeFits(c *semantic.Column, ty pqType) string {
	ok := true
	switch c.Type {
	case semantic.TypeNumber:
		ok = ty.kind != pqString && ty.kind != pqDate && ty.kind != pqTimestamp && ty.kind != pqInt96
	case semantic.TypeDate, semantic.TypeDatetime:
		ok = ty.kind == pqDate || ty.kind == pqTimestamp || ty.kind == pqInt96
	}
	if ok {
		return ""
	}
	want := map[string]string{semantic.TypeNumber: "number", semantic.TypeDate: "date", semantic.TypeDatetime: "datetime"}
	fix := "string"
	switch ty.kind {
	case pqDate:
		fix = "date"
	case pqTimestamp, pqInt96:
		fix = "datetime"
	case pqString:
		fix = "string"
	default:
		fix = "number"
	}
	return fmt.Sprintf("a coluna %q é %s no Parquet, e o app.yaml a declara %s (%s); declare-a %s no app.yaml ou converta-a ao gerar o arquivo",
		c.SourceName(), ty.words, want[c.Type], typeWords[c.Type], fix)
}

// Columns are the table's columns; Values follow this order.
func (r *parquetRows) Columns() []*semantic.Column { return r.cols }

// Next reads the next row, from the next row group or part when one ends.
func (r *parquetRows) Next() (ok bool) {
	if r.err != nil || r.done {
		return false
	}
	col := "" // the column being read, for a panic's message
	defer func() {
		// parquet-go panics on some damaged pages (a negative count, an index past a
		// dictionary): the file is refused like any corrupt one.
		if p := recover(); p != nil {
			r.fail(col, fmt.Sprintf("o arquivo Parquet está corrompido (%v); gere-o de novo", p))
			r.abandon()
			ok = false
		}
	}()
	for r.left == 0 {
		if !r.nextGroup() {
			return false
		}
	}
	r.partLine++
	for i, c := range r.cols {
		if r.hive != nil && r.hive[i] >= 0 { // a partition's value, from its folder
			r.vals[i], r.texts[i], r.pend[i] = r.hvals[i], r.htexts[i], 0
			continue
		}
		col = c.SourceName()
		if cur := &r.curs[i]; cur.i < cur.n && (cur.i64 != nil || cur.i32 != nil) {
			// A page of integers without nulls: no parquet.Value in between.
			var x int64
			if cur.i64 != nil {
				x = cur.ibuf[cur.i]
			} else {
				x = int64(cur.jbuf[cur.i])
			}
			cur.i++
			r.pend[i] = 0
			val, msg := r.convertInt(i, c, x)
			if msg != "" {
				r.fail(c.SourceName(), msg)
				return false
			}
			r.vals[i] = val
			continue
		}
		v, err := r.curs[i].next()
		if err != nil {
			r.fail(c.SourceName(), fmt.Sprintf("o arquivo Parquet está corrompido ou truncado (grupo de linhas %d: %v); gere-o de novo", r.group, err))
			return false
		}
		r.pend[i] = 0
		if v.IsNull() {
			r.vals[i] = nil
			r.texts[i] = ""
			continue
		}
		val, msg := r.convert(i, c, v)
		if msg != "" {
			r.fail(c.SourceName(), msg)
			return false
		}
		r.vals[i] = val
	}
	r.left--
	r.line++
	r.count++
	return true
}

// nextGroup positions the cursors on the next row group, of the next part when the open one
// has no more; false at the end or on a problem.
func (r *parquetRows) nextGroup() bool {
	for r.pf == nil || r.group >= len(r.pf.RowGroups()) {
		next := r.part + 1
		r.closePart()
		if next >= len(r.parts) {
			r.done = true
			return false
		}
		if err := r.openPart(next); err != nil {
			if !errors.As(err, &r.err) {
				r.err = &Error{File: r.parts[next], Message: err.Error()}
			}
			return false
		}
	}
	for i := range r.curs {
		r.curs[i].close()
	}
	g := r.group
	r.group++
	if !r.scanGroup(g, true) {
		return false
	}
	md := &r.pf.Metadata().RowGroups[g]
	r.left = md.NumRows
	return true
}

// scanGroup checks row group g of the open part before its pages are read (see scanPages),
// failing the rows on a problem; with open, it positions the cursors on the group's pages.
func (r *parquetRows) scanGroup(g int, open bool) bool {
	rg := r.pf.RowGroups()[g]
	md := &r.pf.Metadata().RowGroups[g]
	var held int64
	for i, c := range r.cols {
		if r.hive != nil && r.hive[i] >= 0 {
			continue
		}
		j := r.leaf[i]
		if j >= len(md.Columns) || j >= len(rg.ColumnChunks()) {
			r.failGroup(c.SourceName(), fmt.Sprintf("o grupo de linhas %d não tem a coluna; o arquivo está corrompido: gere-o de novo", g+1))
			return false
		}
		cc := &md.Columns[j]
		if cc.MetaData.NumValues != md.NumRows {
			r.failGroup(c.SourceName(), fmt.Sprintf("o grupo de linhas %d declara %d linhas e %d valores na coluna; o arquivo está corrompido: gere-o de novo", g+1, md.NumRows, cc.MetaData.NumValues))
			return false
		}
		pages, err := scanPages(r.ra, r.size, cc, &r.inflate)
		if err != nil {
			r.failGroup(c.SourceName(), fmt.Sprintf("grupo de linhas %d: %v; o arquivo está corrompido ou não é seguro de ler: gere-o de novo com páginas menores", g+1, err))
			return false
		}
		held += pages.dict + pages.maxPage
		if open {
			r.curs[i].pages = rg.ColumnChunks()[j].Pages()
		}
	}
	if held > maxGroupHeld {
		r.failGroup("", fmt.Sprintf("o grupo de linhas %d pede %s em memória de uma vez (dicionários e páginas), acima do limite de %s; gere o arquivo com grupos de linhas ou páginas menores",
			g+1, sizeWords(uint64(held)), sizeWords(maxGroupHeld)))
		return false
	}
	return true
}

// fail records a problem at the current row of the open part.
func (r *parquetRows) fail(col, msg string) {
	file := r.file
	if r.part >= 0 && r.part < len(r.parts) {
		file = r.parts[r.part]
	}
	r.err = &Error{File: file, Line: r.partLine, Field: col, Message: msg}
}

// failGroup records a problem of the row group about to be read, at its first row.
func (r *parquetRows) failGroup(col, msg string) {
	r.fail(col, msg)
	r.err.Line++
}

// convert is value v of column i as its column's type, or the problem.
func (r *parquetRows) convert(i int, c *semantic.Column, v parquet.Value) (any, string) {
	ty := &r.types[i]
	switch ty.kind {
	case pqString:
		b := v.ByteArray()
		if len(b) > MaxValueBytes {
			return nil, fmt.Sprintf("o valor da coluna %s passa de %s; um valor desse tamanho não é dado de tabela", c.SourceName(), sizeWords(MaxValueBytes))
		}
		if !utf8.Valid(b) {
			return nil, fmt.Sprintf("o texto da coluna %q não está em UTF-8; gere o arquivo com os textos em UTF-8", c.SourceName())
		}
		return r.boxText(i, b), ""
	case pqBool:
		if c.Type == semantic.TypeNumber {
			n := 0.0
			if v.Boolean() {
				n = 1
			}
			return r.number(i, n, false), ""
		}
		s := "FALSO"
		if v.Boolean() {
			s = "VERDADEIRO"
		}
		r.texts[i] = s
		return s, ""
	case pqInt, pqUint, pqDate, pqTimestamp:
		if ty.phys == format.Int32 {
			return r.convertInt(i, c, int64(v.Int32()))
		}
		return r.convertInt(i, c, v.Int64())
	case pqFloat, pqDouble:
		f := v.Double()
		bits := 64
		if ty.kind == pqFloat {
			f, bits = float64(v.Float()), 32
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Sprintf("a coluna %q tem o valor %v, que não é um número; troque-o por um número ou por nulo", c.SourceName(), f)
		}
		if bits == 32 {
			// The float's shortest text is what its writer meant (0.1, not 0.100000001490116).
			r.scratch = strconv.AppendFloat(r.scratch[:0], f, 'f', -1, 32)
			f, _ = strconv.ParseFloat(unsafe.String(unsafe.SliceData(r.scratch), len(r.scratch)), 64)
		}
		return r.number(i, f, c.Type != semantic.TypeNumber), ""
	case pqDecimal:
		switch {
		case ty.phys == format.Int32:
			return r.convertInt(i, c, int64(v.Int32()))
		case ty.phys == format.Int64:
			return r.convertInt(i, c, v.Int64())
		case len(v.ByteArray()) <= 8:
			return r.decimalValue(i, c, r.unscaled(v.ByteArray()), ty.scale), ""
		}
		b, ok := r.bigDecimal(ty, v)
		if !ok {
			return nil, fmt.Sprintf("o DECIMAL da coluna %q tem %d bytes, acima dos 16 (38 dígitos) que o Parquet permite; o arquivo está corrompido", c.SourceName(), len(v.ByteArray()))
		}
		f, _ := strconv.ParseFloat(unsafe.String(unsafe.SliceData(b), len(b)), 64)
		return r.exact(i, c, f, b), ""
	case pqInt96:
		t := v.Int96()
		nanos := uint64(t[1])<<32 | uint64(t[0])
		if nanos >= 86400e9 {
			return nil, fmt.Sprintf("a data e hora INT96 da coluna %q tem uma hora inválida; o arquivo está corrompido", c.SourceName())
		}
		// An instant, as Spark writes one; its day is counted from the Julian day of 1970-01-01.
		days := int64(t[2]) - 2440588
		return r.instant(i, c, days*86400+int64(nanos/1e9))
	}
	return nil, fmt.Sprintf("a coluna %q tem um tipo que o lumo não lê", c.SourceName())
}

// convertInt is integer x, an INT32 (widened) or INT64 of column i, as the column's type:
// integers, DECIMALs, DATEs and TIMESTAMPs.
func (r *parquetRows) convertInt(i int, c *semantic.Column, x int64) (any, string) {
	ty := &r.types[i]
	switch ty.kind {
	case pqInt:
		return r.decimalValue(i, c, x, 0), ""
	case pqUint:
		if ty.phys == format.Int32 {
			return r.decimalValue(i, c, int64(uint32(x)), 0), ""
		}
		if x < 0 { // over 2^63: no int64, written now
			u := uint64(x)
			return r.exact(i, c, float64(u), strconv.AppendUint(r.scratch[:0], u, 10)), ""
		}
		return r.decimalValue(i, c, x, 0), ""
	case pqDecimal:
		return r.decimalValue(i, c, x, ty.scale), ""
	case pqDate:
		return r.date(i, c, x*86400)
	case pqTimestamp:
		if ty.utc {
			return r.instant(i, c, floorDiv(x, ty.perSec))
		}
		return r.date(i, c, floorDiv(x, ty.perSec))
	}
	return nil, fmt.Sprintf("a coluna %q tem um tipo que o lumo não lê", c.SourceName())
}

// exact is a number whose text b is exact (an integer, a decimal): a number for a number
// column, the text for a text column.
func (r *parquetRows) exact(i int, c *semantic.Column, f float64, b []byte) any {
	s := r.keep(b)
	r.texts[i] = s
	if c.Type != semantic.TypeNumber {
		return s
	}
	if dot := strings.IndexByte(s, '.'); dot >= 0 && r.types[i].kind != pqDecimal {
		r.scales[i] = max(r.scales[i], len(s)-dot-1)
	}
	return boxFloat(f)
}

// number is float f of column i, its text written when asked (or now, as the value, when asText).
func (r *parquetRows) number(i int, f float64, asText bool) any {
	r.scratch = strconv.AppendFloat(r.scratch[:0], f, 'f', -1, 64)
	if dot := bytes.IndexByte(r.scratch, '.'); dot >= 0 && !asText {
		r.scales[i] = max(r.scales[i], len(r.scratch)-dot-1)
	}
	if asText {
		s := r.keep(r.scratch)
		r.texts[i] = s
		return s
	}
	r.nums[i], r.pend[i] = f, pendShortest
	return boxFloat(f)
}

// decimalValue is m/10^scale for column i: a number whose text Text writes when asked, or the
// text now for a text column.
func (r *parquetRows) decimalValue(i int, c *semantic.Column, m int64, scale int) any {
	u, neg := uint64(m), m < 0
	if neg {
		u = uint64(-m)
	}
	if c.Type != semantic.TypeNumber {
		r.scratch = appendDecimal(r.scratch[:0], neg, u, scale)
		s := r.keep(r.scratch)
		r.texts[i] = s
		return s
	}
	var f float64
	if u < 1<<53 && scale < len(pow10) {
		// Both exact, so the one division rounds correctly: the float the text reads as.
		f = float64(m) / pow10[scale]
	} else {
		r.scratch = appendDecimal(r.scratch[:0], neg, u, scale)
		f, _ = strconv.ParseFloat(unsafe.String(unsafe.SliceData(r.scratch), len(r.scratch)), 64)
	}
	r.ints[i], r.pend[i] = m, pendDecimal
	return boxFloat(f)
}

// unscaled is the integer of a DECIMAL's bytes, big-endian two's complement, at most 8.
func (r *parquetRows) unscaled(b []byte) int64 {
	var m int64
	for _, c := range b {
		m = m<<8 | int64(c)
	}
	if len(b) > 0 && len(b) < 8 && b[0]&0x80 != 0 {
		m -= 1 << (8 * len(b))
	}
	return m
}

// bigDecimal writes a DECIMAL of 9 to 16 bytes as -?digits(.digits)? in r.scratch.
func (r *parquetRows) bigDecimal(ty *pqType, v parquet.Value) ([]byte, bool) {
	b := v.ByteArray()
	if len(b) > 16 {
		return nil, false
	}
	n := new(big.Int).SetBytes(b)
	if b[0]&0x80 != 0 { // two's complement
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	s := n.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if len(s) <= ty.scale {
		s = strings.Repeat("0", ty.scale-len(s)+1) + s
	}
	out := r.scratch[:0]
	if neg {
		out = append(out, '-')
	}
	out = append(out, s[:len(s)-ty.scale]...)
	if ty.scale > 0 {
		out = append(out, '.')
		out = append(out, s[len(s)-ty.scale:]...)
	}
	r.scratch = out
	return out, true
}

// Bounds of the moments whose year has four digits, 0001-01-01 00:00:00 to 9999-12-31 23:59:59.
const (
	minSec = -62135596800
	maxSec = 253402300799
)

// instant is an instant sec seconds from the epoch as column i's type: its wall clock in
// Brasília, as a PostgreSQL timestamptz is read, except on a date column an instant at UTC
// midnight, which is how tools with zone-aware types write a day.
func (r *parquetRows) instant(i int, c *semantic.Column, sec int64) (any, string) {
	if c.Type == semantic.TypeDate && sec%86400 == 0 {
		return r.date(i, c, sec)
	}
	return r.date(i, c, WallClock(sec))
}

// date is the moment sec seconds from 1970-01-01 00:00 UTC (the civil day and time the file
// holds) as column i's type; its text is written when asked.
func (r *parquetRows) date(i int, c *semantic.Column, sec int64) (any, string) {
	if sec < minSec || sec > maxSec {
		y, _, _ := civilFromDays(floorDiv(sec, 86400))
		return nil, fmt.Sprintf("a coluna %q tem uma data do ano %d, fora dos anos 1 a 9999; corrija o valor", c.SourceName(), y)
	}
	days := floorDiv(sec, 86400)
	datetime := sec != days*86400
	switch c.Type {
	case semantic.TypeDate:
		if datetime {
			return nil, fmt.Sprintf("a coluna %q é só data no app.yaml, e o valor tem hora (%s); declare-a datetime no app.yaml ou tire a hora", c.SourceName(), civilWords(secCivil(sec)))
		}
		r.ints[i], r.pend[i] = sec, pendDate
		key := int32(days)
		e := &r.days[int(key)&(len(r.days)-1)]
		if e.key != key || e.v == nil {
			e.key, e.v = key, time.Unix(sec, 0).UTC()
		}
		return e.v, ""
	case semantic.TypeDatetime:
		r.ints[i], r.pend[i] = sec, pendDatetime
		return time.Unix(sec, 0).UTC(), ""
	}
	cv := secCivil(sec)
	r.scratch = cv.appendISO(r.scratch[:0], datetime || r.types[i].kind != pqDate)
	s := r.keep(r.scratch)
	r.texts[i] = s
	return s, ""
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

// secCivil is the civil day and time sec seconds from 1970-01-01 00:00.
func secCivil(sec int64) civil {
	days := floorDiv(sec, 86400)
	rem := sec - days*86400
	var cv civil
	cv.y, cv.m, cv.d = civilFromDays(days)
	cv.hh, cv.mi, cv.ss = int(rem/3600), int(rem/60%60), int(rem%60)
	return cv
}

// civilDay is a day's civil date (parquetRows.ymd).
type civilDay struct {
	days int64
	y    int16
	m, d int8
}

// civilFromDays is the day days after 1970-01-01 (H. Hinnant's civil_from_days).
func civilFromDays(days int64) (y, m, d int) {
	z := days + 719468
	era := z
	if era < 0 {
		era -= 146096
	}
	era /= 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	m = int(mp + 3)
	if mp >= 10 {
		m = int(mp - 9)
	}
	y = int(yoe + era*400)
	if m <= 2 {
		y++
	}
	return y, m, d
}

// boxText is b as a lasting string in an interface: a text repeated in a column comes from a
// small cache of the column's boxed texts.
func (r *parquetRows) boxText(i int, b []byte) any {
	if len(b) == 0 {
		r.texts[i] = ""
		return ""
	}
	e := &r.strs[i][(len(b)*7+int(b[0])+int(b[len(b)-1]))&(len(r.strs[i])-1)]
	if e.v == nil || e.s != string(b) {
		s := r.keep(b)
		e.s, e.v = s, s
	}
	r.texts[i] = e.s
	return e.v
}

// keep is b as a string that lasts: the arena is only ever appended to (see csvRows.keep).
func (r *parquetRows) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(r.arena)+len(b) > cap(r.arena) {
		r.arena = make([]byte, 0, max(arenaSize, len(b)))
	}
	start := len(r.arena)
	r.arena = append(r.arena, b...)
	return unsafe.String(&r.arena[start], len(b))
}

// Values is the current row in Columns order.
func (r *parquetRows) Values() []any { return r.vals }

// Text is the current row's value of column i in the original CSV format.
func (r *parquetRows) Text(i int) string {
	p := r.pend[i]
	if p == 0 {
		return r.texts[i]
	}
	// Written at the end of the arena (see keep): the texts given before keep their bytes.
	if cap(r.arena)-len(r.arena) < 64 {
		r.arena = make([]byte, 0, arenaSize)
	}
	b, start := r.arena, len(r.arena)
	switch p {
	case pendDate, pendDatetime:
		sec := r.ints[i]
		days := floorDiv(sec, 86400)
		// Days repeat: their civil date comes from a small cache, Hinnant's arithmetic otherwise.
		e := &r.ymd[int(days)&(len(r.ymd)-1)]
		if e.days != days || e.y == 0 {
			y, m, d := civilFromDays(days)
			e.days, e.y, e.m, e.d = days, int16(y), int8(m), int8(d)
		}
		rem := int(sec - days*86400)
		cv := civil{y: int(e.y), m: int(e.m), d: int(e.d), hh: rem / 3600, mi: rem / 60 % 60, ss: rem % 60}
		b = cv.appendISO(b, p == pendDatetime)
	case pendShortest:
		b = strconv.AppendFloat(b, r.nums[i], 'f', -1, 64)
	case pendDecimal:
		m, scale := r.ints[i], 0
		if r.types[i].kind == pqDecimal {
			scale = r.types[i].scale
		}
		if scale == 0 {
			b = strconv.AppendInt(b, m, 10)
		} else {
			u, neg := uint64(m), m < 0
			if neg {
				u = uint64(-m)
			}
			b = appendDecimal(b, neg, u, scale)
		}
	}
	r.arena = b
	r.texts[i], r.pend[i] = unsafe.String(&b[start], len(b)-start), 0
	return r.texts[i]
}

// Line is the current row, from 1, counting the rows of every part before.
func (r *parquetRows) Line() int { return r.line }

// Count is how many rows were read so far.
func (r *parquetRows) Count() int64 { return r.count }

// Scales are, per column, the decimals of a DECIMAL, or the most decimals a number showed.
func (r *parquetRows) Scales() []int { return r.scales }

// Units are all "": Parquet types say nothing of currencies or percents.
func (r *parquetRows) Units() []string { return r.units }

// Description is `vendas.parquet: Parquet, 1.234 linhas` or, for a folder,
// `vendas: Parquet, 3 arquivos, 1.234 linhas`.
func (r *parquetRows) Description() string { return r.describe(r.count) }

func (r *parquetRows) describe(count int64) string {
	s := r.file + ": Parquet, "
	if r.file == "." { // the folder of workspace.yaml itself
		s = "./: Parquet, "
	}
	if r.dir {
		s += r.folder.Words() + ", "
	}
	return s + ptbr.Count(int(count), "linha", "linhas")
}

// Err is the first error met; nil at a clean end.
func (r *parquetRows) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// Close releases the open part.
func (r *parquetRows) Close() error {
	r.closePart()
	r.inflate.close()
	r.done = true
	return nil
}

// ParquetRows is how many rows the footers of a Parquet file or folder declare, for an import's
// progress total; 0 when they cannot be read (the import then reports the problem).
func ParquetRows(fsys fs.FS, file string) int64 {
	st, err := fs.Stat(fsys, file)
	if err != nil {
		return 0
	}
	parts := []string{file}
	if st.IsDir() {
		pf, err := ReadParquetFolder(fsys, file)
		if err != nil {
			return 0
		}
		parts = pf.Parts
	}
	var n int64
	for _, p := range parts {
		f, err := fsys.Open(p)
		if err != nil {
			continue
		}
		if ra, size, err := readerAt(p, f); err == nil && checkFooter(ra, size) == "" {
			if pf, err := openParquetFile(ra, size); err == nil {
				n += max(pf.NumRows(), 0)
			}
		}
		f.Close()
	}
	return n
}
