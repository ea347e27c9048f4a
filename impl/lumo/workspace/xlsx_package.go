package workspace

import (
	"archive/zip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// xlsxPackage is a workbook's zip parts, by name.
type xlsxPackage struct {
	file  string
	parts map[string]*zip.File
}

func (p *xlsxPackage) fail(part string, err error) error {
	msg := fmt.Sprintf("a parte %s da planilha não pôde ser lida (%v); salve a planilha de novo no Excel", part, err)
	if errors.Is(err, errTooLong) {
		msg = fmt.Sprintf("a parte %s da planilha tem um valor acima do limite de %s; um valor desse tamanho não é dado de tabela", part, bytesWords(MaxValueBytes))
	}
	return &Error{File: p.file, Message: msg}
}

// open is a scanner over the part name, which must exist unless optional.
func (p *xlsxPackage) open(name string, limit uint64) (*xmlScanner, io.Closer, error) {
	zf := p.parts[name]
	if zf == nil {
		return nil, nil, fs.ErrNotExist
	}
	if zf.UncompressedSize64 > limit {
		return nil, nil, &Error{File: p.file, Message: fmt.Sprintf("a parte %s da planilha declara %s descompactados, acima do limite de %s para ela; o arquivo parece corrompido ou malicioso", name, bytesWords(zf.UncompressedSize64), bytesWords(limit))}
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, nil, p.fail(name, err)
	}
	return newXMLScanner(rc), rc, nil
}

// xlsxRel is one relationship of a part: its id, type and target part.
type xlsxRel struct{ id, typ, target string }

// rels reads a relationships part; targets are resolved against base.
func (p *xlsxPackage) rels(name, base string) ([]xlsxRel, error) {
	sc, c, err := p.open(name, maxSmallPart)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var rels []xlsxRel
	for sc.next() {
		if !sc.is("Relationship") {
			continue
		}
		if mode, _ := sc.attr("TargetMode"); string(mode) == "External" {
			continue
		}
		id, _ := sc.attr("Id")
		rel := xlsxRel{id: string(id)}
		typ, _ := sc.attr("Type")
		rel.typ = string(typ)
		target, _ := sc.attr("Target")
		if t := string(target); strings.HasPrefix(t, "/") {
			rel.target = strings.TrimPrefix(t, "/")
		} else {
			rel.target = path.Join(base, t)
		}
		rels = append(rels, rel)
	}
	if sc.err != nil {
		return nil, p.fail(name, sc.err)
	}
	return rels, nil
}

// xlsxWorkbook is what workbook.xml says: the sheets in order, the defined names, the date
// system.
type xlsxWorkbook struct {
	sheets   []xlsxSheet
	names    []definedName
	date1904 bool
}

type xlsxSheet struct{ name, rid string }

// definedName is a name for a range; local is the index of the sheet it belongs to, -1 for the
// workbook.
type definedName struct {
	name, ref string
	local     int
}

func (p *xlsxPackage) workbook(name string) (*xlsxWorkbook, error) {
	sc, c, err := p.open(name, maxSmallPart)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &Error{File: p.file, Message: "o arquivo não é uma planilha XLSX (não tem xl/workbook.xml); salve-a no Excel como Pasta de Trabalho do Excel (.xlsx)"}
	}
	if err != nil {
		return nil, err
	}
	defer c.Close()
	wb := &xlsxWorkbook{}
	for sc.next() {
		switch {
		case sc.is("workbookPr"):
			v, _ := sc.attr("date1904")
			wb.date1904 = string(v) == "1" || string(v) == "true"
		case sc.is("sheet"):
			n, _ := sc.attr("name")
			s := xlsxSheet{name: string(n)}
			id, _ := sc.attr("id")
			s.rid = string(id)
			wb.sheets = append(wb.sheets, s)
		case sc.is("definedName"):
			n, _ := sc.attr("name")
			dn := definedName{name: string(n), local: -1}
			if v, ok := sc.attr("localSheetId"); ok {
				if i, err := strconv.Atoi(string(v)); err == nil {
					dn.local = i
				}
			}
			t, ok := sc.readText(maxTagBytes)
			if !ok {
				return nil, p.fail(name, sc.err)
			}
			dn.ref = string(t)
			if !strings.HasPrefix(dn.name, "_xlnm.") {
				wb.names = append(wb.names, dn)
			}
		}
	}
	if sc.err != nil {
		return nil, p.fail(name, sc.err)
	}
	return wb, nil
}

// styles reads the number format of every cell format (cellXfs).
func (p *xlsxPackage) styles(name string) ([]cellStyle, error) {
	sc, c, err := p.open(name, maxSmallPart)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer c.Close()
	custom := map[int]string{}
	var ids []int
	inXfs := false
	for sc.next() {
		switch {
		case sc.is("numFmt"):
			id, _ := sc.attr("numFmtId")
			code, _ := sc.attr("formatCode")
			if n, err := strconv.Atoi(string(id)); err == nil {
				custom[n] = string(code)
			}
		case sc.is("cellXfs"):
			inXfs = !sc.empty
		case sc.isEnd("cellXfs"):
			inXfs = false
		case inXfs && sc.is("xf"):
			id, _ := sc.attr("numFmtId")
			n, _ := strconv.Atoi(string(id))
			ids = append(ids, n)
		}
	}
	if sc.err != nil {
		return nil, p.fail(name, sc.err)
	}
	styles := make([]cellStyle, len(ids))
	for i, id := range ids {
		if code, ok := custom[id]; ok {
			styles[i] = formatStyle(code)
			continue
		}
		switch {
		case id >= 14 && id <= 22, id >= 27 && id <= 36, id >= 45 && id <= 47, id >= 50 && id <= 58:
			styles[i].date = true
		case id == 9 || id == 10:
			styles[i].percent = true
		}
	}
	return styles, nil
}

// formatStyle reads a custom number format: a date or time when, outside quotes, escapes and
// brackets, it has d, m, y, h or s (or the [h] [m] [s] of elapsed time); a percent with %; a
// currency with R$ or US$ (quoted, escaped or as [$R$-416]).
func formatStyle(code string) cellStyle {
	var st cellStyle
	if i := strings.IndexByte(code, ';'); i >= 0 { // the positive numbers' section
		code = code[:i]
	}
	switch {
	case strings.Contains(code, "R$"):
		st.currency = "BRL"
	case strings.Contains(code, "US$"), strings.Contains(code, "[$$"):
		st.currency = "USD"
	}
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '"':
			if j := strings.IndexByte(code[i+1:], '"'); j >= 0 {
				i += j + 1
			} else {
				i = len(code)
			}
		case '\\', '_', '*':
			i++
		case '[':
			j := strings.IndexByte(code[i:], ']')
			if j < 0 {
				return st
			}
			switch strings.ToLower(code[i+1 : i+j]) {
			case "h", "hh", "m", "mm", "s", "ss":
				st.date = true
			}
			i += j
		case '%':
			st.percent = true
		case 'd', 'D', 'm', 'M', 'y', 'Y', 'h', 'H', 's', 'S':
			st.date = true
		}
	}
	if st.date {
		st.percent, st.currency = false, ""
	}
	return st
}

// sharedStrings reads the shared strings part into memory, within maxSharedBytes.
func (p *xlsxPackage) sharedStrings(name string) (*sharedStrings, error) {
	sc, c, err := p.open(name, maxPartBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return &sharedStrings{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer c.Close()
	sst := &sharedStrings{}
	var buf []byte
	for sc.next() {
		if !sc.is("si") {
			continue
		}
		t, ok := readRich(sc, "si", &buf)
		if !ok {
			break
		}
		if sst.memory()+int64(len(t))+4 > maxSharedBytes {
			return nil, &Error{File: p.file, Message: fmt.Sprintf("os textos da planilha (%s: %d textos diferentes até aqui) passam do limite de %s "+
				"na memória (o texto e 4 bytes por texto); divida a planilha em arquivos menores ou use CSV ou Parquet",
				name, sst.count, bytesWords(maxSharedBytes))}
		}
		sst.add(t)
	}
	if sc.err != nil {
		return nil, p.fail(name, sc.err)
	}
	return sst, nil
}

// merges reads the merged cells of the sheet part name (at its end), at most 10000; nil when
// the part cannot be read.
func (p *xlsxPackage) merges(name string) []area {
	sc, c, err := p.open(name, maxPartBytes)
	if err != nil {
		return nil
	}
	defer c.Close()
	var out []area
	for sc.next() && len(out) < 10000 {
		if sc.is("mergeCell") {
			ref, _ := sc.attr("ref")
			if _, a, ok := parseRange(string(ref)); ok {
				out = append(out, a)
			}
		}
	}
	return out
}

// checkZipDirectory refuses a zip whose directory lists more than maxZipEntries parts before
// archive/zip reads it (it keeps every entry in memory).
func checkZipDirectory(ra io.ReaderAt, size int64) error {
	n := min(size, 22+65535)
	tail := make([]byte, n)
	if _, err := ra.ReadAt(tail, size-n); err != nil && err != io.EOF {
		return fmt.Errorf("o arquivo não pôde ser lido: %v", err)
	}
	for i := len(tail) - 22; i >= 0; i-- {
		if binary.LittleEndian.Uint32(tail[i:]) != 0x06054b50 {
			continue
		}
		count := uint64(binary.LittleEndian.Uint16(tail[i+10:]))
		if count == 0xffff && i >= 20 && binary.LittleEndian.Uint32(tail[i-20:]) == 0x07064b50 {
			off := int64(binary.LittleEndian.Uint64(tail[i-20+8:]))
			rec := make([]byte, 56)
			if _, err := ra.ReadAt(rec, off); err == nil && binary.LittleEndian.Uint32(rec) == 0x06064b50 {
				count = binary.LittleEndian.Uint64(rec[32:])
			}
		}
		if count > maxZipEntries {
			return fmt.Errorf("o arquivo tem %d partes no zip, mais que as %d que uma planilha tem; o arquivo parece corrompido ou malicioso", count, maxZipEntries)
		}
		return nil
	}
	return fmt.Errorf("o arquivo não é uma planilha XLSX (não é um zip); salve-a no Excel como Pasta de Trabalho do Excel (.xlsx)")
}

// parseRange reads [Sheet!]A1:F100, with $ anywhere and the sheet name quoted ('Minha
// planilha'!A1:F9) when it has to be, or whole columns [Sheet!]A:F.
func parseRange(ref string) (string, area, bool) {
	ref = strings.TrimSpace(ref)
	sheet := ""
	if i := strings.LastIndexByte(ref, '!'); i >= 0 {
		sheet, ref = ref[:i], ref[i+1:]
		if len(sheet) >= 2 && sheet[0] == '\'' && sheet[len(sheet)-1] == '\'' {
			sheet = strings.ReplaceAll(sheet[1:len(sheet)-1], "''", "'")
		}
		if sheet == "" {
			return "", area{}, false
		}
	}
	ref = strings.ReplaceAll(ref, "$", "")
	from, to, ok := strings.Cut(ref, ":")
	if !ok {
		return "", area{}, false
	}
	c1, r1, ok1 := splitCell(from)
	c2, r2, ok2 := splitCell(to)
	if !ok1 || !ok2 || (r1 == 0) != (r2 == 0) || c1 > c2 || (r1 > 0 && r1 > r2) {
		return "", area{}, false
	}
	if r1 == 0 {
		r1 = 1
	}
	return sheet, area{r1: r1, c1: c1, r2: r2, c2: c2}, true
}

// splitCell reads A1 (or A, a whole column: row 0).
func splitCell(s string) (col, row int, ok bool) {
	i := 0
	for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z') {
		i++
	}
	if i == 0 || i > 3 {
		return 0, 0, false
	}
	col, ok = parseCol([]byte(s[:i]))
	if !ok || col > maxSheetColumns {
		return 0, 0, false
	}
	if i == len(s) {
		return col, 0, true
	}
	row, err := strconv.Atoi(s[i:])
	if err != nil || row < 1 || row > 1<<20 {
		return 0, 0, false
	}
	return col, row, true
}

// parseCol is the column of a cell reference (C17 is 3), from 1.
func parseCol(ref []byte) (int, bool) {
	col, n := 0, 0
	for _, c := range ref {
		switch {
		case c >= 'A' && c <= 'Z':
			col = col*26 + int(c-'A'+1)
		case c >= 'a' && c <= 'z':
			col = col*26 + int(c-'a'+1)
		case c >= '0' && c <= '9':
			if n == 0 {
				return 0, false
			}
			return col, true // past XFD: the caller says so
		default:
			return 0, false
		}
		n++
		if n > 3 {
			return 0, false
		}
	}
	return col, n > 0
}

// colName is column col's letters (3 is C).
func colName(col int) string {
	var b []byte
	for col > 0 {
		col--
		b = append([]byte{byte('A' + col%26)}, b...)
		col /= 26
	}
	return string(b)
}

func cellName(col, row int) string { return colName(col) + strconv.Itoa(row) }

func (a area) String() string {
	c2 := a.c2
	if c2 == 0 {
		c2 = maxSheetColumns
	}
	if a.r2 == 0 {
		if a.r1 <= 1 {
			return colName(a.c1) + ":" + colName(c2)
		}
		return fmt.Sprintf("%s%d:%s%d", colName(a.c1), a.r1, colName(c2), 1<<20)
	}
	return fmt.Sprintf("%s%d:%s%d", colName(a.c1), a.r1, colName(c2), a.r2)
}

// bytesWords is n bytes in KiB, MiB or GiB, for messages.
func bytesWords(n uint64) string {
	switch {
	case n >= 1<<30:
		return strings.Replace(strconv.FormatFloat(float64(n)/(1<<30), 'f', -1, 64), ".", ",", 1) + " GiB"
	case n >= 1<<20:
		return strings.Replace(strconv.FormatFloat(float64(n)/(1<<20), 'f', -1, 64), ".", ",", 1) + " MiB"
	case n >= 1<<10:
		return strconv.FormatUint(n>>10, 10) + " KiB"
	}
	return strconv.FormatUint(n, 10) + " bytes"
}
