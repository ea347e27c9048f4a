package workspace

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"unsafe"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Limits on a workbook, checked on the zip's directory before anything is decompressed: a zip
// bomb (a small file declaring or holding gigabytes) is refused naming the part.
const (
	maxZipEntries = 10000
	// maxPartBytes bounds a sheet's or the shared strings' uncompressed XML, maxZipBytes all
	// parts together; maxSmallPart the workbook, its relationships and styles.
	maxPartBytes = 2 << 30
	maxZipBytes  = 4 << 30
	maxSmallPart = 16 << 20
	// maxZipRatio is the most a part over zipRatioFrom bytes may have compressed: sheets of
	// real data compress 5 to 30 times, a zip bomb a thousand.
	maxZipRatio  = 200
	zipRatioFrom = 16 << 20
	// maxSharedBytes bounds what the shared strings, which stay in memory while the sheet is
	// read, take there: their text plus 4 bytes a string (its end). 8 million one-character
	// strings in a 23 MB file took 401 MB when only the text counted.
	maxSharedBytes = 64 << 20
)

// xlsxRows streams the rows of one sheet, or of a range of it, of an XLSX workbook: the first
// row (of the range) is the header of physical column names, in any order. Cells are read with
// their types (numbers, dates as serials or date-formatted numbers, booleans, texts, the cached
// values of formulas) and converted to their column's type; every problem names the file, the
// sheet and the cell (`vendas.xlsx: Vendas!C17`). The sheet's XML is read as a stream; only the
// shared strings stay in memory.
type xlsxRows struct {
	skipped  []skippedRow // total rows and notes left out
	prevRow  int          // sheet row of the previous row with a value
	skip     bool         // the row just read is no data (its entry is the last of skipped)
	file     string
	f        fs.File
	part     io.ReadCloser
	sc       *xmlScanner
	sheet    string
	where    string // `planilha "Vendas"` or `intervalo "Tabela" (Vendas!A1:F9)`
	area     area
	cols     []*semantic.Column
	at       []int32 // per sheet column from area.c1, the table column (-1 none, -2 unnamed)
	named    []string
	sst      *sharedStrings
	styles   []cellStyle
	date1904 bool

	vals    []any
	texts   []string
	scales  []int
	units   []string
	unitAt  []string // the cell that showed each column's unit
	arena   []byte
	line    int
	count   int64
	err     *Error
	done    bool
	nextRow int // the row number of a <row> without r
	hdr     int // the header's row
	above   int // rows with values above the header: a title, groups of columns
	nums    []float64
	pend    []byte  // per column, how Text writes the value (pend kinds), 0 when texts holds it
	civils  []civil // per column, the date Text writes
	scratch []byte
	rich    []byte

	pk        *xlsxPackage // the workbook's parts, for the merged cells a problem names
	sheetPart string
	merged    []area // the sheet's merged cells, read on the first problem that needs them
	mergedOK  bool
}

// area is a rectangle of a sheet, 1-based and inclusive; 0 in r2 or c2 means no end.
type area struct{ r1, c1, r2, c2 int }

// cellStyle is what a cell's number format says about its number.
type cellStyle struct {
	date     bool   // a date or time format: the number is a serial
	percent  bool   // a % format
	currency string // "BRL" for R$, "USD" for US$
}

// sharedStrings are the workbook's shared strings, one text after the other, in blocks of
// sstBlock bytes and sstEnds ends: growing never copies what was read (appending to one slice
// held the old array and its doubled copy at once).
type sharedStrings struct {
	text  [][]byte   // a string may continue from one block into the next
	ends  [][]uint32 // the end of string i is ends[i/sstEnds][i%sstEnds], an offset into all of text
	count int
	size  int64 // bytes of text
}

const (
	sstBlock = 1 << 20
	sstEnds  = 1 << 16
)

func (s *sharedStrings) add(t []byte) {
	s.size += int64(len(t))
	for len(t) > 0 {
		if len(s.text) == 0 || len(s.text[len(s.text)-1]) == sstBlock {
			s.text = append(s.text, make([]byte, 0, sstBlock))
		}
		last := &s.text[len(s.text)-1]
		n := min(len(t), sstBlock-len(*last))
		*last = append(*last, t[:n]...)
		t = t[n:]
	}
	if s.count%sstEnds == 0 {
		s.ends = append(s.ends, make([]uint32, 0, sstEnds))
	}
	s.ends[len(s.ends)-1] = append(s.ends[len(s.ends)-1], uint32(s.size))
	s.count++
}

// memory is what the strings take: text and ends.
func (s *sharedStrings) memory() int64 { return s.size + 4*int64(s.count) }

func (s *sharedStrings) end(i int) int { return int(s.ends[i/sstEnds][i%sstEnds]) }

func (s *sharedStrings) get(i int) (string, bool) {
	if i < 0 || i >= s.count {
		return "", false
	}
	start := 0
	if i > 0 {
		start = s.end(i - 1)
	}
	end := s.end(i)
	if start == end {
		return "", true
	}
	b, o := start/sstBlock, start%sstBlock
	if o+end-start <= sstBlock { // within one block: no copy
		return unsafe.String(&s.text[b][o], end-start), true
	}
	out := make([]byte, 0, end-start)
	for start < end {
		b, o = start/sstBlock, start%sstBlock
		n := min(end-start, sstBlock-o)
		out = append(out, s.text[b][o:o+n]...)
		start += n
	}
	return string(out), true
}

// openXLSX opens the workbook file and positions the reader after the header row of the sheet
// or range decl names, checking it against t.
func openXLSX(fsys fs.FS, file string, t *semantic.Table, decl XLSXFormat) (_ *xlsxRows, err error) {
	r := &xlsxRows{file: file, cols: t.Columns}
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
	fail := func(format string, args ...any) error {
		return &Error{File: file, Message: fmt.Sprintf(format, args...)}
	}
	f, pk, wb, wbRels, err := openPackage(fsys, file)
	if f != nil {
		r.f = f
	}
	if err != nil {
		return nil, err
	}
	parts := pk.parts
	r.date1904 = wb.date1904
	relTarget := map[string]string{}
	sstPath, stylesPath := "", ""
	for _, rel := range wbRels {
		relTarget[rel.id] = rel.target
		switch {
		case strings.HasSuffix(rel.typ, "/sharedStrings"):
			sstPath = rel.target
		case strings.HasSuffix(rel.typ, "/styles"):
			stylesPath = rel.target
		}
	}
	if len(wb.sheets) == 0 {
		return nil, fail("a planilha não tem nenhuma aba")
	}

	// Which sheet and which part of it.
	sheet := wb.sheets[0]
	r.area = area{r1: 1, c1: 1}
	r.where = fmt.Sprintf("planilha %q", sheet.name)
	find := func(name string) (xlsxSheet, bool) {
		for _, s := range wb.sheets {
			if strings.EqualFold(s.name, name) {
				return s, true
			}
		}
		return xlsxSheet{}, false
	}
	names := func() string {
		var ns []string
		for _, s := range wb.sheets {
			ns = append(ns, strconv.Quote(s.name))
		}
		return ptbr.List(ns)
	}
	if decl.Sheet != "" {
		s, ok := find(decl.Sheet)
		if !ok {
			return nil, fail("a planilha não tem a aba %q declarada em xlsx.sheet; as abas são %s", decl.Sheet, names())
		}
		sheet = s
		r.where = fmt.Sprintf("planilha %q", sheet.name)
	}
	if decl.Range != "" {
		ref, label := decl.Range, ""
		for _, dn := range wb.names {
			if strings.EqualFold(dn.name, decl.Range) && (dn.local < 0 || dn.local < len(wb.sheets) && (decl.Sheet == "" || strings.EqualFold(wb.sheets[dn.local].name, decl.Sheet))) {
				ref, label = dn.ref, dn.name
				if dn.local >= 0 && !strings.Contains(ref, "!") {
					ref = wb.sheets[dn.local].name + "!" + ref
				}
				break
			}
		}
		sheetName, a, ok := parseRange(ref)
		if !ok {
			if label != "" {
				return nil, fail("o nome %q (xlsx.range) aponta para %q, que não é um intervalo retangular de uma aba (como Vendas!$A$1:$F$100); redefina o nome no Excel", label, ref)
			}
			return nil, fail("xlsx.range %q não é um nome definido na planilha nem um intervalo como A1:F100 ou Vendas!A1:F100", decl.Range)
		}
		if sheetName != "" {
			s, ok := find(sheetName)
			if !ok {
				return nil, fail("o intervalo %q (xlsx.range) é da aba %q, que a planilha não tem; as abas são %s", decl.Range, sheetName, names())
			}
			if decl.Sheet != "" && !strings.EqualFold(s.name, decl.Sheet) {
				return nil, fail("o intervalo %q (xlsx.range) é da aba %q, mas xlsx.sheet declara %q; declare só um dos dois, ou os dois da mesma aba", decl.Range, s.name, decl.Sheet)
			}
			sheet = s
		}
		r.area = a
		shown := sheet.name + "!" + a.String()
		if label != "" {
			r.where = fmt.Sprintf("intervalo %q (%s)", label, shown)
		} else {
			r.where = fmt.Sprintf("intervalo %s", shown)
		}
	}
	r.sheet = sheet.name
	sheetPath, ok := relTarget[sheet.rid]
	if !ok || parts[sheetPath] == nil {
		return nil, fail("a aba %q não tem dados no arquivo (a parte %q não existe); salve a planilha de novo no Excel", sheet.name, sheetPath)
	}

	if stylesPath != "" {
		if r.styles, err = pk.styles(stylesPath); err != nil {
			return nil, err
		}
	}
	if sstPath != "" {
		if r.sst, err = pk.sharedStrings(sstPath); err != nil {
			return nil, err
		}
	}
	if r.sst == nil {
		r.sst = &sharedStrings{}
	}

	if r.part, err = parts[sheetPath].Open(); err != nil {
		return nil, fail("a aba %q não pôde ser lida: %v", sheet.name, err)
	}
	r.sc = newXMLScanner(r.part)
	n := len(t.Columns)
	r.vals, r.texts, r.scales, r.units, r.unitAt = make([]any, n), make([]string, n), make([]int, n), make([]string, n), make([]string, n)
	r.nums, r.pend, r.civils = make([]float64, n), make([]byte, n), make([]civil, n)
	r.pk, r.sheetPart = pk, sheetPath
	if err := r.header(t); err != nil {
		return nil, err
	}
	return r, nil
}

// openPackage opens the workbook file, checks its zip directory against the limits and reads
// its workbook part and the workbook's relationships. The file comes back open (when it could
// be opened) even with an error: the caller closes it.
func openPackage(fsys fs.FS, file string) (fs.File, *xlsxPackage, *xlsxWorkbook, []xlsxRel, error) {
	fail := func(format string, args ...any) error {
		return &Error{File: file, Message: fmt.Sprintf(format, args...)}
	}
	f, err := fsys.Open(file)
	if err != nil {
		return nil, nil, nil, nil, &Error{File: file, Message: "o arquivo não pôde ser aberto: " + err.Error()}
	}
	ra, size, err := readerAt(file, f)
	if err != nil {
		return f, nil, nil, nil, err
	}
	if err := checkZipDirectory(ra, size); err != nil {
		return f, nil, nil, nil, fail("%s", err)
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return f, nil, nil, nil, fail("o arquivo não é uma planilha XLSX (o zip não pôde ser lido: %v); salve-a no Excel como Pasta de Trabalho do Excel (.xlsx)", err)
	}
	parts := map[string]*zip.File{}
	var total uint64
	for _, zf := range zr.File {
		u, c := zf.UncompressedSize64, zf.CompressedSize64
		total += u
		if u > maxPartBytes {
			return f, nil, nil, nil, fail("a parte %s da planilha declara %s descompactados, acima do limite de %s; o arquivo parece corrompido ou malicioso", zf.Name, bytesWords(u), bytesWords(maxPartBytes))
		}
		if total > maxZipBytes {
			return f, nil, nil, nil, fail("as partes da planilha declaram mais de %s descompactados; o arquivo parece corrompido ou malicioso", bytesWords(maxZipBytes))
		}
		if u > zipRatioFrom && (c == 0 || u/c > maxZipRatio) {
			return f, nil, nil, nil, fail("a parte %s da planilha se expande de %s para %s (mais de %d vezes), o que uma planilha de dados não faz; o arquivo parece uma bomba de zip e foi recusado", zf.Name, bytesWords(c), bytesWords(u), maxZipRatio)
		}
		parts[strings.TrimPrefix(zf.Name, "/")] = zf
	}
	pk := &xlsxPackage{file: file, parts: parts}

	wbPath := "xl/workbook.xml"
	if rels, err := pk.rels("_rels/.rels", ""); err == nil {
		for _, rel := range rels {
			if strings.HasSuffix(rel.typ, "/officeDocument") {
				wbPath = rel.target
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return f, nil, nil, nil, err
	}
	wb, err := pk.workbook(wbPath)
	if err != nil {
		return f, nil, nil, nil, err
	}
	wbRels, err := pk.rels(path.Join(path.Dir(wbPath), "_rels", path.Base(wbPath)+".rels"), path.Dir(wbPath))
	if err != nil {
		return f, nil, nil, nil, err
	}
	return f, pk, wb, wbRels, nil
}

// SheetMerges are the merged cells of sheet (its name, case aside) of the workbook file, as
// ranges (C1:E1), read from the end of the sheet's part: lumo init tells a title or a group of
// columns above a header from the header by them.
func SheetMerges(fsys fs.FS, file, sheet string) ([]string, error) {
	f, pk, wb, wbRels, err := openPackage(fsys, file)
	if f != nil {
		defer f.Close()
	}
	if err != nil {
		return nil, err
	}
	for _, s := range wb.sheets {
		if !strings.EqualFold(s.name, sheet) {
			continue
		}
		for _, rel := range wbRels {
			if rel.id == s.rid {
				var out []string
				for _, a := range pk.merges(rel.target) {
					out = append(out, a.String())
				}
				return out, nil
			}
		}
	}
	return nil, nil
}

// maxTitleRows is how many rows with values above the header (a title, groups of columns over
// merged cells, a note) the import looks past for the row that names the table's columns.
const maxTitleRows = 10

// header finds the header row and maps its names to t's columns. The header is the area's first
// row with a value, unless that row names none of t's columns: then it is the first of the next
// rows with values (maxTitleRows at most) that names one, and the rows above it are left out,
// as a title or a row of groups of columns are. When none does, the first row is the header,
// and its problems are reported.
func (r *xlsxRows) header(t *semantic.Table) error {
	if !r.toSheetData() {
		if err := r.scanErr(); err != nil {
			return err
		}
		return r.emptySheet()
	}
	index := map[string]int{}
	for i, c := range t.Columns {
		index[c.SourceName()] = i
	}
	names := func(cells []headerCell) bool {
		for _, h := range cells {
			if _, ok := index[h.text]; ok {
				return true
			}
		}
		return false
	}
	var row, first []headerCell
	headerRow, firstRow, above := 0, 0, 0
	for row == nil {
		cells, ok := r.readRow(true)
		if !ok {
			if r.err != nil {
				return r.err
			}
			if first == nil {
				return r.emptySheet()
			}
			break
		}
		switch {
		case len(cells) == 0:
			continue
		case first == nil:
			first, firstRow = cells, r.line
		}
		if names(cells) {
			row, headerRow = cells, r.line
			break
		}
		if above == maxTitleRows {
			break
		}
		above++
	}
	if row == nil { // no row names a column: the first is the header, and says what it lacks
		row, headerRow, above = first, firstRow, 0
	}
	r.above = above
	r.hdr, r.prevRow = headerRow, headerRow
	var errs Errors
	at := map[string]string{}
	width := 0
	for _, h := range row {
		width = max(width, h.col-r.area.c1+1)
	}
	r.at = make([]int32, width)
	for i := range r.at {
		r.at[i] = -2
	}
	found := make([]bool, len(t.Columns))
	for _, h := range row {
		cell := r.sheet + "!" + cellName(h.col, headerRow)
		if prev, dup := at[h.text]; dup {
			errs = append(errs, &Error{File: r.file, Field: cell, Message: fmt.Sprintf("a coluna %q aparece duas vezes no cabeçalho (também em %s); deixe uma só", h.text, prev)})
			continue
		}
		at[h.text] = cell
		i, ok := index[h.text]
		if !ok {
			errs = append(errs, &Error{File: r.file, Field: cell,
				Message: fmt.Sprintf("a coluna %q não está na tabela %q do app.yaml; remova-a da planilha (ou limite-a com xlsx.range) ou declare-a no app.yaml", h.text, t.Name)})
			continue
		}
		r.at[h.col-r.area.c1] = int32(i)
		found[i] = true
	}
	for i, c := range t.Columns {
		if !found[i] {
			errs = append(errs, &Error{File: r.file, Field: fmt.Sprintf("%s!%d:%d", r.sheet, headerRow, headerRow),
				Message: fmt.Sprintf("o cabeçalho (linha %d) não tem a coluna %q da tabela %q do app.yaml; inclua-a ou tire-a do app.yaml", headerRow, c.SourceName(), t.Name)})
		}
	}
	if len(errs) == 0 {
		return nil
	}
	// A merged cell in the header leaves the columns it covers without names: say so, which
	// takes reading the merges at the end of the sheet.
	var hit []area
	for _, m := range r.merges() {
		if m.r1 <= headerRow && headerRow <= m.r2 && (m.c1 != m.c2 || m.r1 != m.r2) {
			hit = append(hit, m)
		}
	}
	if len(hit) > 0 {
		return &Error{File: r.file, Field: r.sheet + "!" + hit[0].String(), Message: mergedHeader(hit, headerRow)}
	}
	return errs
}

func (r *xlsxRows) emptySheet() error {
	return &Error{File: r.file, Field: r.sheet, Message: fmt.Sprintf("a %s está vazia; a primeira linha precisa ser o cabeçalho com os nomes físicos das colunas", r.where)}
}

// headerCell is a text of the header row and its column.
type headerCell struct {
	col  int
	text string
}

// toSheetData moves the scanner into <sheetData>.
func (r *xlsxRows) toSheetData() bool {
	for r.sc.next() {
		if r.sc.is("sheetData") {
			return !r.sc.empty
		}
	}
	return false
}

// scanErr is the scanner's error as an *Error at the current row, nil when none.
func (r *xlsxRows) scanErr() error {
	if r.sc.err == nil && r.err == nil {
		return nil
	}
	if r.err == nil {
		r.err = r.xmlError(r.sc.err, "")
	}
	return r.err
}

func (r *xlsxRows) xmlError(err error, cell string) *Error {
	where := r.sheet
	if cell != "" {
		where += "!" + cell
	} else if r.line > 0 {
		where = fmt.Sprintf("%s!%d:%d", r.sheet, r.line, r.line)
	}
	msg := fmt.Sprintf("a aba não pôde ser lida (%v); salve a planilha de novo no Excel", err)
	if errors.Is(err, errTooLong) {
		msg = fmt.Sprintf("a célula passa do limite de %s por valor; um valor desse tamanho não é dado de tabela", bytesWords(MaxValueBytes))
	}
	return &Error{File: r.file, Field: where, Message: msg}
}

// readRow reads the next <row> of the area: for the header (header true) its texts; otherwise
// the row goes into r.vals. It returns false at the end of the area or on an error (r.err). A
// row with nothing in the area gives no cells (header) or all nil values.
func (r *xlsxRows) readRow(header bool) ([]headerCell, bool) {
	sc := r.sc
	for {
		if r.done || !sc.next() {
			r.done = true
			r.scanErr()
			return nil, false
		}
		if sc.isEnd("sheetData") {
			r.done = true
			return nil, false
		}
		if sc.is("row") {
			break
		}
	}
	num := r.nextRow + 1
	if v, ok := sc.attr("r"); ok {
		n, err := strconv.Atoi(string(v))
		if err != nil || n < 1 || n > 1<<20 {
			r.err = r.xmlError(fmt.Errorf("linha %q", v), "")
			return nil, false
		}
		num = n
	}
	r.nextRow = num
	r.line = num
	if r.area.r2 > 0 && num > r.area.r2 {
		r.done = true
		return nil, false
	}
	inArea := num >= r.area.r1
	var cells []headerCell
	if !header {
		clear(r.vals)
	}
	r.skip = false
	if sc.empty {
		return cells, true
	}
	col := 0 // a cell without r is the one after the last
	// What tells a row that is no data: its first filled cell, how many are filled, and the
	// problem of the first cell, held until the row shows whether it is a note.
	gap := !header && num > r.prevRow+1
	filled, first, firstText, firstCol := 0, "", false, 0
	var held *Error
	for sc.next() {
		if sc.isEnd("row") {
			if !header && filled > 0 {
				r.prevRow = num
			}
			switch {
			case r.skip:
			case gap && filled == 1 && firstText && firstCol == r.area.c1 && len(r.cols) >= 3 && noteLike(first):
				r.skip = true
				r.skipped = append(r.skipped, skippedRow{line: num, text: first, note: true})
			case held != nil:
				r.err = held
				return nil, false
			}
			return cells, true
		}
		if r.skip {
			if !sc.skipElement() {
				break
			}
			continue
		}
		if !sc.is("c") {
			if !sc.skipElement() {
				break
			}
			continue
		}
		col++
		if v, ok := sc.attr("r"); ok {
			c, ok := parseCol(v)
			if !ok {
				r.err = r.xmlError(fmt.Errorf("célula %q", v), "")
				return nil, false
			}
			col = c
		}
		if col > maxSheetColumns {
			r.err = &Error{File: r.file, Field: fmt.Sprintf("%s!%d:%d", r.sheet, num, num), Message: fmt.Sprintf("a linha passa da coluna XFD, a última que o Excel tem (%d colunas); o arquivo parece corrompido", maxSheetColumns)}
			return nil, false
		}
		if !inArea || col < r.area.c1 || (r.area.c2 > 0 && col > r.area.c2) {
			if !sc.skipElement() {
				break
			}
			continue
		}
		var c xlsxCell
		if !r.readCell(&c) {
			switch {
			case r.err == nil:
				r.err = r.xmlError(sc.err, cellName(col, num))
			case r.err.Field == "":
				r.err.Field = r.sheet + "!" + cellName(col, num)
			}
			return nil, false
		}
		if c.kind == cellEmpty {
			continue
		}
		if header {
			text, msg := r.headerText(&c)
			if msg != "" {
				r.err = &Error{File: r.file, Field: r.sheet + "!" + cellName(col, num), Message: msg}
				return nil, false
			}
			cells = append(cells, headerCell{col, text})
			continue
		}
		k := col - r.area.c1
		if k >= len(r.at) || r.at[k] == -2 {
			r.err = &Error{File: r.file, Field: r.sheet + "!" + cellName(col, num), Message: r.unnamed(col)}
			return nil, false
		}
		i := int(r.at[k])
		filled++
		if filled == 1 {
			firstCol = col
		}
		if filled == 1 && c.kind == cellText {
			first, firstText = strings.TrimSpace(c.raw), true
			if isTotal(first) {
				r.skip = true
				r.skipped = append(r.skipped, skippedRow{line: num, text: strings.Clone(first)})
				continue
			}
			first = strings.Clone(first)
		}
		if held != nil {
			r.err = held
			return nil, false
		}
		v, msg := r.convert(i, &c, col, num)
		if msg != "" {
			e := &Error{File: r.file, Field: r.sheet + "!" + cellName(col, num), Message: msg}
			if gap && filled == 1 && firstText && col == r.area.c1 && noteLike(first) {
				held = e // a note under a blank row fails as a value; the row's end decides
				continue
			}
			r.err = e
			return nil, false
		}
		r.vals[i] = v
	}
	r.scanErr()
	if r.err == nil {
		r.err = r.xmlError(errBadXML, "")
	}
	return nil, false
}

// headerRow is the sheet row of the header.
func (r *xlsxRows) headerRow() int { return r.hdr }

// merges are the sheet's merged cells, read (once) from the end of its part.
func (r *xlsxRows) merges() []area {
	if !r.mergedOK && r.pk != nil {
		r.merged, r.mergedOK = r.pk.merges(r.sheetPart), true
	}
	return r.merged
}

// unnamed is the problem of a value in column col, which has no name in the header: its header
// cell is empty, or covered by a merged cell whose name is another column's.
func (r *xlsxRows) unnamed(col int) string {
	hdr := r.headerRow()
	for _, m := range r.merges() {
		if m.r1 <= hdr && hdr <= m.r2 && m.c1 <= col && col <= m.c2 {
			where := fmt.Sprintf("o nome dela vale só para a coluna %s", colName(m.c1))
			if m.r1 != hdr {
				where = fmt.Sprintf("o nome dela está na linha %d, acima do cabeçalho", m.r1)
			}
			return fmt.Sprintf("a célula tem um valor, mas a coluna %s não tem nome no cabeçalho: %s é uma célula mesclada, e %s; desfaça a mesclagem e escreva o nome de cada coluna na linha %d, ou apague os valores da coluna %s",
				colName(col), m.String(), where, hdr, colName(col))
		}
	}
	return fmt.Sprintf("a célula tem um valor, mas a coluna %s não tem nome no cabeçalho (a célula %s está vazia); dê à coluna um nome físico (e declare-a no app.yaml), apague os valores ou limite a tabela com xlsx.range",
		colName(col), cellName(col, hdr))
}

// mergedHeader is the problem of a header (row) with the merged cells hit: the ranges, said to
// be merged, and the columns they leave without a name.
func mergedHeader(hit []area, row int) string {
	var refs, cols []string
	for _, m := range hit {
		refs = append(refs, m.String())
		for c := m.c1; c <= m.c2; c++ {
			if c != m.c1 || row != m.r1 {
				cols = append(cols, colName(c))
			}
		}
	}
	what := ptbr.List(refs) + " é uma célula mesclada"
	if len(refs) > 1 {
		what = ptbr.List(refs) + " são células mescladas"
	}
	nameless := ", e a coluna " + ptbr.List(cols) + " fica sem nome"
	if len(cols) > 1 {
		nameless = ", e as colunas " + ptbr.List(cols) + " ficam sem nome"
	}
	return fmt.Sprintf("o cabeçalho (linha %d) tem células mescladas: %s%s; cada coluna precisa do seu nome físico numa célula própria da linha %d: desfaça a mesclagem e escreva o nome de cada coluna",
		row, what, nameless, row)
}

// Kinds of cells.
const (
	cellEmpty = iota
	cellNumber
	cellText
	cellBool
	cellError
	cellISODate
	cellNoValue // a formula never calculated
)

// xlsxCell is one cell as the sheet has it.
type xlsxCell struct {
	kind  int
	num   float64
	raw   string // the number as written, the text, the error or the ISO date
	style int
}
