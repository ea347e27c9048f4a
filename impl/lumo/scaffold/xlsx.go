package scaffold

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// A workbook's tables: each Excel table (Inserir > Tabela) and each named range with a header row
// is one, read as xlsx.range; each sheet none of them covers, whose first row with values (after
// a title, when one stands above) is a header of column names, is one, read as xlsx.sheet.
// Sheets and ranges without such a header are skipped, with the reason.

// lastRow is the last row of a sheet, which ends a range that runs to the bottom.
const lastRow = 1 << 20

// maxHeaderScan is how many rows are read looking for a sheet's header before giving up.
const maxHeaderScan = 200

var (
	// defaultTableName is how Excel names a table nobody named: Tabela1, Table2.
	defaultTableName = regexp.MustCompile(`(?i)^(tabela|table)\d*$`)
	// plainSheet is a sheet name a reference needs not quote.
	plainSheet = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)
)

// area is a rectangle of a sheet, 1-based and inclusive.
type area struct{ r1, c1, r2, c2 int }

func (a area) contains(row, col int) bool {
	return a.r1 <= row && row <= a.r2 && a.c1 <= col && col <= a.c2
}

func (a area) String() string {
	return cellRef(a.c1, a.r1) + ":" + cellRef(a.c2, a.r2)
}

func cellRef(col, row int) string {
	n, _ := excelize.CoordinatesToCellName(col, row)
	return n
}

// sheetHeader is a header row found in a sheet or range: its row, its cells, and whether a
// title or groups of columns stand above it (the rows with values above, then).
type sheetHeader struct {
	row   int
	cells []headerCell
	title bool
	above []sheetHeader
}

type headerCell struct {
	col  int
	text string
}

// xlRange is a named range or Excel table that may hold a table.
type xlRange struct {
	sheet, name, excel string // the sheet; the defined name, or the Excel table's name
	local              bool   // a name defined for its sheet only
	area               area
}

// workbookTables opens s's workbook and lists its tables.
func workbookTables(fsys fs.FS, s source) ([]*Table, []Skipped, error) {
	f, err := fsys.Open(s.file)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: o arquivo não pôde ser aberto: %v", s.file, err)
	}
	defer f.Close()
	x, err := excelize.OpenReader(f, excelize.Options{UnzipSizeLimit: 4 << 30, UnzipXMLSizeLimit: 16 << 20})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: não consegui ler a planilha (%v); abra-a no Excel e salve como Pasta de Trabalho do Excel (.xlsx), sem senha", s.file, err)
	}
	defer x.Close()
	var tables []*Table
	var skipped []Skipped
	what := func(kind, name string) string { return fmt.Sprintf("%s, %s %q", s.file, kind, name) }
	ranges, skip := workbookRanges(x, s.file)
	skipped = append(skipped, skip...)
	var used []xlRange
	for _, r := range ranges {
		kind, name := "intervalo", r.name
		if r.excel != "" {
			kind, name = "tabela do Excel", r.excel
		}
		h, err := findHeader(x, r.sheet, r.area, false, sheetMerges(fsys, s.file, r.sheet))
		if err != nil {
			skipped = append(skipped, Skipped{what(kind, name), err.Error()})
			continue
		}
		t := xlsxTable(s, r.sheet, h)
		ref := quoteSheet(r.sheet) + "!" + r.area.String()
		t.Format.XLSX.Range = ref
		t.labelBase = r.name
		t.Source = fmt.Sprintf("%s, %s %q (%s)", s.file, kind, name, ref)
		if r.excel != "" {
			t.labelBase = r.excel
			if defaultTableName.MatchString(r.excel) {
				t.labelBase = r.sheet // Excel's default name says nothing
			}
			t.Note = fmt.Sprintf("é a tabela do Excel %q: se ela ganhar linhas ou colunas, atualize o intervalo no app.yaml", r.excel)
		} else {
			t.Format.XLSX.Range = r.name // the import resolves the name: the range may grow in Excel
			if r.local {
				t.Format.XLSX.Sheet = r.sheet
			}
			t.Note = fmt.Sprintf("o intervalo nomeado %q é %s", r.name, ref)
		}
		used = append(used, r)
		tables = append(tables, t)
	}
	for _, sheet := range x.GetSheetList() {
		merges := sheetMerges(fsys, s.file, sheet)
		h, err := findHeader(x, sheet, area{1, 1, lastRow, maxSheetColumns}, true, merges)
		if err != nil {
			covered := false
			for _, r := range used {
				covered = covered || r.sheet == sheet
			}
			if !covered {
				skipped = append(skipped, Skipped{what("planilha", sheet), err.Error()})
			}
			continue
		}
		covered := false
		for _, r := range used {
			covered = covered || (r.sheet == sheet && r.area.contains(h.row, h.cells[0].col))
		}
		if covered {
			continue
		}
		t := xlsxTable(s, sheet, h)
		t.Format.XLSX.Sheet = sheet
		t.Source = fmt.Sprintf("%s, planilha %q", s.file, sheet)
		if h.title {
			first, last := h.cells[0].col, h.cells[len(h.cells)-1].col
			t.Format.XLSX.Range = area{h.row, first, lastRow, last}.String()
			t.Note = fmt.Sprintf("o cabeçalho está na linha %d, abaixo de %s", h.row, aboveWords(h, merges))
		}
		tables = append(tables, t)
	}
	order := map[string]int{}
	for i, sheet := range x.GetSheetList() {
		order[sheet] = i
	}
	sort.SliceStable(tables, func(i, j int) bool { return order[tables[i].sheet] < order[tables[j].sheet] })
	if len(tables) == 1 && tables[0].Format.XLSX.Range == "" {
		tables[0].labelBase = strings.TrimSuffix(s.file, filepath.Ext(s.file)) // a workbook of one sheet: the file names it
	}
	if len(tables) == 0 {
		var why []string
		for _, sk := range skipped {
			why = append(why, strings.TrimPrefix(sk.What, s.file+", ")+": "+sk.Reason)
		}
		return nil, nil, fmt.Errorf("%s: nenhuma aba ou intervalo tem um cabeçalho com os nomes das colunas (%s)", s.file, strings.Join(why, "; "))
	}
	return tables, skipped, nil
}

// sheetMerges are the merged cells of sheet, read as the import reads the workbook; none when
// they cannot be read (the import then names the problem).
func sheetMerges(fsys fs.FS, file, sheet string) []area {
	refs, _ := workspace.SheetMerges(fsys, file, sheet)
	var out []area
	for _, ref := range refs {
		if _, a, ok := parseRef(ref); ok {
			out = append(out, a)
		}
	}
	return out
}

// xlsxTable is a table of s read from sheet under header h.
func xlsxTable(s source, sheet string, h *sheetHeader) *Table {
	t := &Table{File: s.file, kind: workspace.KindXLSX, explicit: s.explicit, labelBase: sheet, header: h, sheet: sheet}
	names := make([]string, len(h.cells))
	for i, c := range h.cells {
		names[i] = c.text
	}
	t.Columns = columnsOf(names)
	return t
}

// workbookRanges are the workbook's named ranges and Excel tables that may hold a table; a name
// that is no range of two columns or more is skipped, as a constant or a list, saying so.
func workbookRanges(x *excelize.File, file string) ([]xlRange, []Skipped) {
	var out []xlRange
	var skipped []Skipped
	for _, dn := range x.GetDefinedName() {
		if strings.HasPrefix(dn.Name, "_xlnm.") || strings.HasPrefix(dn.Name, "_") {
			continue // print areas, filters: Excel's own
		}
		what := fmt.Sprintf("%s, intervalo %q", file, dn.Name)
		sheet, a, ok := parseRef(dn.RefersTo)
		switch {
		case !ok && isCell(dn.RefersTo):
			skipped = append(skipped, Skipped{what, fmt.Sprintf("o nome aponta para uma célula só (%s), e não para uma tabela com cabeçalho", strings.TrimPrefix(dn.RefersTo, "="))})
			continue
		case !ok:
			skipped = append(skipped, Skipped{what, fmt.Sprintf("o nome aponta para %q, que não é um intervalo de uma aba (como Vendas!$A$1:$F$100)", dn.RefersTo)})
			continue
		case a.c1 == a.c2:
			skipped = append(skipped, Skipped{what, fmt.Sprintf("o nome aponta para %s, de uma coluna só (uma lista ou um valor), e não para uma tabela com cabeçalho", strings.TrimPrefix(dn.RefersTo, "="))})
			continue
		}
		out = append(out, xlRange{sheet: sheet, name: dn.Name, local: dn.Scope != "Workbook", area: a})
	}
	meta := excelTableMeta(x)
	for _, sheet := range x.GetSheetList() {
		tbls, _ := x.GetTables(sheet)
		for _, tb := range tbls {
			what := fmt.Sprintf("%s, tabela do Excel %q", file, tb.Name)
			_, a, ok := parseRef(tb.Range)
			m := meta[tb.Name]
			switch {
			case !ok:
				skipped = append(skipped, Skipped{what, fmt.Sprintf("o intervalo %q da tabela não pôde ser lido", tb.Range)})
				continue
			case m.HeaderRowCount != nil && *m.HeaderRowCount == 0:
				skipped = append(skipped, Skipped{what, "a tabela não tem linha de cabeçalho; no Excel, marque Design da Tabela > Linha de Cabeçalho e dê nomes às colunas"})
				continue
			}
			a.r2 -= m.TotalsRowCount // the totals row is no data
			dup := false
			for _, r := range out {
				dup = dup || (r.sheet == sheet && r.area == a)
			}
			if !dup {
				out = append(out, xlRange{sheet: sheet, excel: tb.Name, area: a})
			}
		}
	}
	return out, skipped
}

// tableMeta is what the reader needs of an Excel table's part that excelize does not give.
type tableMeta struct {
	Name           string `xml:"name,attr"`
	HeaderRowCount *int   `xml:"headerRowCount,attr"`
	TotalsRowCount int    `xml:"totalsRowCount,attr"`
}

// excelTableMeta reads every Excel table's header and totals row counts, by table name.
func excelTableMeta(x *excelize.File) map[string]tableMeta {
	out := map[string]tableMeta{}
	x.Pkg.Range(func(k, v any) bool {
		name, _ := k.(string)
		data, _ := v.([]byte)
		if strings.HasPrefix(name, "xl/tables/") && strings.HasSuffix(name, ".xml") {
			var m tableMeta
			if xml.Unmarshal(data, &m) == nil {
				out[m.Name] = m
			}
		}
		return true
	})
	return out
}

// parseRef reads =Sheet!$A$1:$F$100 (the sheet quoted when it has to be) or A1:F100.
func parseRef(ref string) (sheet string, a area, ok bool) {
	ref = strings.TrimPrefix(strings.TrimSpace(ref), "=")
	if i := strings.LastIndexByte(ref, '!'); i >= 0 {
		sheet, ref = ref[:i], ref[i+1:]
		if len(sheet) >= 2 && sheet[0] == '\'' && sheet[len(sheet)-1] == '\'' {
			sheet = strings.ReplaceAll(sheet[1:len(sheet)-1], "''", "'")
		}
	}
	from, to, found := strings.Cut(strings.ReplaceAll(ref, "$", ""), ":")
	if !found {
		return "", area{}, false
	}
	c1, r1, err1 := excelize.CellNameToCoordinates(from)
	c2, r2, err2 := excelize.CellNameToCoordinates(to)
	if err1 != nil || err2 != nil || c1 > c2 || r1 > r2 {
		return "", area{}, false
	}
	return sheet, area{r1, c1, r2, c2}, true
}

// isCell reports whether ref is one cell: =Sheet!$E$2.
func isCell(ref string) bool {
	if i := strings.LastIndexByte(ref, '!'); i >= 0 {
		ref = ref[i+1:]
	}
	_, _, err := excelize.CellNameToCoordinates(strings.ReplaceAll(ref, "$", ""))
	return err == nil
}

// quoteSheet writes a sheet name as a range reference needs it.
func quoteSheet(s string) string {
	if plainSheet.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// maxTitleRows is how many rows with values may stand above a sheet's header: titles and rows
// of groups of columns.
const maxTitleRows = 5

// findHeader is the header of area a of sheet: its first row with values, whose values must be
// column names (text, not numbers). With title, rows above the header are passed over: a title
// (one value on its row) and groups of columns (a row whose values start merged cells spanning
// columns: "Valores" over D2:F2), when a row of two names or more, with no merged cell, follows
// (within the next few rows with values). A header with a merged cell is refused, naming it:
// the columns it covers would have no name.
func findHeader(x *excelize.File, sheet string, a area, title bool, merges []area) (*sheetHeader, error) {
	rows, err := x.Rows(sheet)
	if err != nil {
		return nil, fmt.Errorf("a aba %q não tem células que o lumo leia (é um gráfico, ou não existe)", sheet)
	}
	defer rows.Close()
	startsMerge := func(row, col int) bool {
		for _, m := range merges {
			if m.r1 == row && m.c1 == col && m.c2 > m.c1 {
				return true
			}
		}
		return false
	}
	// above says whether a row with values may stand above a header: a title or a row of groups.
	above := func(h sheetHeader) bool {
		if len(h.cells) == 1 {
			return true
		}
		for _, c := range h.cells {
			if startsMerge(h.row, c.col) {
				return true
			}
		}
		return false
	}
	var found []sheetHeader
	for n := 1; n <= a.r2 && n-a.r1 <= maxHeaderScan && rows.Next(); n++ {
		if n < a.r1 {
			continue
		}
		vals, err := rows.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return nil, fmt.Errorf("a linha %d não pôde ser lida; salve a planilha de novo no Excel", n)
		}
		var cells []headerCell
		for i, v := range vals {
			if col := i + 1; col >= a.c1 && col <= a.c2 && strings.TrimSpace(v) != "" {
				cells = append(cells, headerCell{col, strings.TrimSpace(v)})
			}
		}
		if len(cells) == 0 {
			continue
		}
		found = append(found, sheetHeader{row: n, cells: cells})
		if !title || !above(found[len(found)-1]) || len(found) > maxTitleRows {
			break
		}
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("está vazia")
	}
	h := found[0]
	if last := found[len(found)-1]; len(found) > 1 && !above(last) && allHeaderLike(last.cells) {
		h = last
		h.title = true
		h.above = found[:len(found)-1]
	}
	var bad []string
	for _, c := range h.cells {
		if !headerLike(c.text) || len(h.cells) == 1 && !shortName(c.text) {
			bad = append(bad, fmt.Sprintf("%s tem %q", cellRef(c.col, h.row), truncate(c.text, 60)))
		}
	}
	if msg := mergedHeader(h, merges); msg != "" && (len(h.cells) > 1 || len(bad) == 0) { // a note alone is no header, merged or not
		return nil, errors.New(msg)
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("a primeira linha com valores (linha %d) não é um cabeçalho: %s, que não são nomes de coluna (um nome tem letras e não é um número); se é uma tabela, escreva os nomes das colunas nessa linha",
			h.row, strings.Join(bad, ", "))
	}
	if len(h.cells) > maxColumns {
		return nil, fmt.Errorf("o cabeçalho tem %d colunas, acima do limite de %d por tabela do app.yaml", len(h.cells), maxColumns)
	}
	// A name in a row of groups over a column the header leaves without one: the header is on
	// two rows, which the import does not read.
	named := map[int]bool{}
	for _, c := range h.cells {
		named[c.col] = true
	}
	for _, r := range h.above {
		if len(r.cells) == 1 {
			continue // a title
		}
		for _, c := range r.cells {
			if !named[c.col] {
				return nil, fmt.Errorf("o cabeçalho (linha %d) não tem nome na coluna %s, e a linha %d, acima dele, tem %q em %s; escreva o nome de cada coluna na linha %d",
					h.row, colLetters(c.col), r.row, truncate(c.text, 60), cellRef(c.col, r.row), h.row)
			}
		}
	}
	return &h, nil
}

// mergedHeader is the problem of a header row that merged cells cross (a name over two columns,
// a name merged down from the row above), naming them as merged and the columns they leave
// without a name; "" when none does.
func mergedHeader(h sheetHeader, merges []area) string {
	// The table's columns: the header's, and those of the groups above it.
	first, last := h.cells[0].col, h.cells[len(h.cells)-1].col
	for _, r := range h.above {
		if len(r.cells) > 1 {
			first, last = min(first, r.cells[0].col), max(last, r.cells[len(r.cells)-1].col)
		}
	}
	var refs, cols []string
	for _, m := range merges {
		if m.r1 > h.row || m.r2 < h.row || m.c2 < first || m.c1 > last || m.r1 == m.r2 && m.c1 == m.c2 {
			continue
		}
		refs = append(refs, m.String())
		for c := m.c1; c <= m.c2; c++ {
			if c != m.c1 || h.row != m.r1 {
				cols = append(cols, colLetters(c))
			}
		}
	}
	if len(refs) == 0 {
		return ""
	}
	what := ptbr.List(refs) + " é uma célula mesclada"
	if len(refs) > 1 {
		what = ptbr.List(refs) + " são células mescladas"
	}
	nameless := ", e a coluna " + ptbr.List(cols) + " fica sem nome"
	if len(cols) > 1 {
		nameless = ", e as colunas " + ptbr.List(cols) + " ficam sem nome"
	}
	return fmt.Sprintf("o cabeçalho (linha %d) tem células mescladas: %s%s; cada coluna precisa do seu nome numa célula própria da linha %d: desfaça a mesclagem (Página Inicial > Mesclar e Centralizar) e escreva o nome de cada coluna",
		h.row, what, nameless, h.row)
}

// colLetters is a column's letters: 3 is C.
func colLetters(col int) string {
	n, _ := excelize.ColumnNumberToName(col)
	return n
}

// aboveWords says what stands above a header found below its sheet's first row with values:
// `um título (linha 1) e grupos de colunas em células mescladas (linha 2: B2:C2 e D2:E2)`.
func aboveWords(h *sheetHeader, merges []area) string {
	var titles []string
	var groupRows []int
	for _, r := range h.above {
		if len(r.cells) == 1 {
			titles = append(titles, strconv.Itoa(r.row))
			continue
		}
		groupRows = append(groupRows, r.row)
	}
	var parts []string
	switch len(titles) {
	case 0:
	case 1:
		parts = append(parts, "um título (linha "+titles[0]+")")
	default:
		parts = append(parts, "títulos (linhas "+ptbr.List(titles)+")")
	}
	de := ""
	if len(parts) > 0 {
		de = "de "
	}
	for _, row := range groupRows {
		var refs []string
		for _, m := range merges {
			if m.r1 == row && m.c2 > m.c1 {
				refs = append(refs, m.String())
			}
		}
		parts = append(parts, fmt.Sprintf("%sgrupos de colunas em células mescladas (linha %d: %s)", de, row, ptbr.List(refs)))
		de = "de "
	}
	return ptbr.List(parts)
}

func allHeaderLike(cells []headerCell) bool {
	for _, c := range cells {
		if !headerLike(c.text) {
			return false
		}
	}
	return true
}

// maxSheetColumns is the widest sheet Excel writes (column XFD).
const maxSheetColumns = 16384

// columnOfCell is the index of t's column whose header stands over cell (Vendas!D17), or -1.
func (t *Table) columnOfCell(cell string) int {
	if t.header == nil {
		return -1
	}
	if i := strings.LastIndexByte(cell, '!'); i >= 0 {
		cell = cell[i+1:]
	}
	col, _, err := excelize.CellNameToCoordinates(cell)
	if err != nil {
		return -1
	}
	for _, h := range t.header.cells {
		if h.col == col {
			return t.columnIndex(h.text)
		}
	}
	return -1
}

// truncate is s cut to n runes, for quoting.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
