package workspace

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// mergedSheet is a sheet part holding rows and, after sheetData, the merged cells refs, as Excel
// and LibreOffice write them: <mergeCells count="n"><mergeCell ref="A1:E1"/>...</mergeCells>.
func mergedSheet(rows string, refs ...string) zipPart {
	var m strings.Builder
	for _, r := range refs {
		m.WriteString(`<mergeCell ref="` + r + `"/>`)
	}
	return zipPart{"xl/worksheets/sheet1.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:E9"/><sheetData>` + rows +
		`</sheetData><mergeCells count="` + string(rune('0'+len(refs))) + `">` + m.String() + `</mergeCells><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`}
}

// inline is a cell holding text inline.
func inline(ref, text string) string {
	return `<c r="` + ref + `" t="inlineStr"><is><t>` + text + `</t></is></c>`
}

// TestXLSXTitleAndGroupsAboveTheHeader: a title merged over the columns and a row of groups of
// columns, merged over them, stand above the header as people format a sheet; the import reads
// the header below them, with no range declared, and says which row it is. Excel writes the
// cells a merge covers as empty styled cells (<c r="B1" s="1"/>), LibreOffice as empty cells
// of a type (<c r="B1" s="1" t="n"/>).
func TestXLSXTitleAndGroupsAboveTheHeader(t *testing.T) {
	header3 := strings.ReplaceAll(header, `1"`, `3"`)
	for name, covered := range map[string]string{
		"Excel":       `<c r="%s" s="1"/>`,
		"LibreOffice": `<c r="%s" s="1" t="n"/>`,
	} {
		t.Run(name, func(t *testing.T) {
			cov := func(refs ...string) string {
				var b strings.Builder
				for _, r := range refs {
					b.WriteString(strings.Replace(covered, "%s", r, 1))
				}
				return b.String()
			}
			rows := `<row r="1">` + inline("A1", "Vendas de setembro") + cov("B1", "C1", "D1", "E1") + `</row>` +
				`<row r="2">` + inline("A2", "Pedido") + inline("B2", "Datas") + cov("C2") + inline("D2", "Venda") + cov("E2") + `</row>` +
				header3 + `<row r="4"><c r="A4"><v>7</v></c><c r="D4" t="inlineStr"><is><t>Ana</t></is></c><c r="E4"><v>10</v></c></row>`
			got, err := readXLSX(t, rawXLSX(t, "", mergedSheet(rows, "A1:E1", "B2:C2", "D2:E2")), XLSXFormat{})
			if err != nil {
				t.Fatal(err)
			}
			want := xlsxResult{rows: [][]string{{"7=7", "NULL", "NULL", "Ana", "10=10"}}, lines: []int{4},
				desc: `vendas.xlsx: planilha "Planilha1", cabeçalho na linha 3, 1 linha`, units: make([]string, 5), scale: make([]int, 5)}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(xlsxResult{})); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// TestXLSXMergedHeader: a merged cell in the header leaves the columns it covers without a name;
// the problem names the merged range as merged, never as an empty cell.
func TestXLSXMergedHeader(t *testing.T) {
	// The header's QUANDO over C1:D1, NOME missing: the header's problem is the merge.
	rows := `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" s="1"/><c r="E1" t="s"><v>4</v></c></row>` +
		`<row r="2"><c r="A2"><v>1</v></c></row>`
	_, err := readXLSX(t, rawXLSX(t, "", mergedSheet(rows, "C1:D1")), XLSXFormat{})
	want := `vendas.xlsx: Planilha1!C1:D1: o cabeçalho (linha 1) tem células mescladas: C1:D1 é uma célula mesclada, e a coluna D fica sem nome; cada coluna precisa do seu nome físico numa célula própria da linha 1: desfaça a mesclagem e escreva o nome de cada coluna`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}

	// Every column named, but NOME over B1:C1 and a value under C: the value's column has no
	// name because of the merge, not because C1 is empty.
	tbl := &semantic.Table{Name: "vendas"}
	for _, n := range []string{"ID", "NOME"} {
		tbl.Columns = append(tbl.Columns, &semantic.Column{Table: tbl, Name: n, Type: semantic.TypeString})
	}
	rows = `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>3</v></c><c r="C1" s="1"/></row>` +
		`<row r="2"><c r="A2"><v>1</v></c>` + inline("B2", "Ana") + inline("C2", "Silva") + `</row>`
	fsys := fstest.MapFS{"vendas.xlsx": {Data: rawXLSX(t, "", mergedSheet(rows, "B1:C1"))}}
	r, err := OpenRows(fsys, "vendas.xlsx", tbl, Format{})
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
	}
	r.Close()
	want = `vendas.xlsx: Planilha1!C2: a célula tem um valor, mas a coluna C não tem nome no cabeçalho: B1:C1 é uma célula mesclada, e o nome dela vale só para a coluna B; desfaça a mesclagem e escreva o nome de cada coluna na linha 1, ou apague os valores da coluna C`
	if err := r.Err(); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}

	// SheetMerges lists them for lumo init.
	merges, err := SheetMerges(fsys, "vendas.xlsx", "planilha1")
	if err != nil || len(merges) != 1 || merges[0] != "B1:C1" {
		t.Errorf("SheetMerges: %v %v", merges, err)
	}
}
