package workspace

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// xlsxTable is the table the XLSX tests read.
func xlsxTable() *semantic.Table {
	t := &semantic.Table{Name: "vendas"}
	for _, c := range []struct{ name, typ string }{
		{"ID", semantic.TypeNumber}, {"DIA", semantic.TypeDate}, {"QUANDO", semantic.TypeDatetime},
		{"NOME", semantic.TypeString}, {"VALOR", semantic.TypeNumber},
	} {
		t.Columns = append(t.Columns, &semantic.Column{Table: t, Name: c.name, Type: c.typ})
	}
	return t
}

// zipPart is one part of a workbook built by hand.
type zipPart struct{ name, data string }

// Styles of the hand-built workbooks, by index: 0 General, 1 a date (built-in 14), 2 R$, 3 a
// percent (built-in 10), 4 a date and time, 5 US$.
const testStyles = `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<numFmts count="3"><numFmt numFmtId="164" formatCode="&quot;R$&quot;\ #,##0.00"/><numFmt numFmtId="165" formatCode="dd/mm/yyyy\ hh:mm"/><numFmt numFmtId="166" formatCode="[$US$-409]\ #,##0.00"/></numFmts>
<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>
<cellXfs count="6"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164"/><xf numFmtId="10"/><xf numFmtId="165"/><xf numFmtId="166"/></cellXfs>
</styleSheet>`

// rawXLSX is a workbook with sheet "Planilha1" holding rows (the XML inside sheetData), and
// the parts in extra added or replaced.
func rawXLSX(t testing.TB, rows string, extra ...zipPart) []byte {
	t.Helper()
	parts := []zipPart{
		{"[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`},
		{"_rels/.rels", `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`},
		{"xl/workbook.xml", `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Planilha1" sheetId="1" r:id="rId1"/></sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`},
		{"xl/styles.xml", testStyles},
		{"xl/sharedStrings.xml", `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>ID</t></si><si><t>DIA</t></si><si><t>QUANDO</t></si><si><t>NOME</t></si><si><t>VALOR</t></si><si><r><t>Jo</t></r><r><rPr><b/></rPr><t>ão</t></r><rPh><t>x</t></rPh></si></sst>`},
		{"xl/worksheets/sheet1.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:E9"/><sheetData>` + rows + `</sheetData></worksheet>`},
	}
	for _, e := range extra {
		replaced := false
		for i := range parts {
			if parts[i].name == e.name {
				parts[i], replaced = e, true
			}
		}
		if !replaced {
			parts = append(parts, e)
		}
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		w, err := zw.Create(p.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(p.data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// header is the header row of xlsxTable's columns, as shared strings 0-4.
const header = `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c></row>`

type xlsxResult struct {
	rows  [][]string // per row, Text of each non-null value, "NULL" for nil
	lines []int
	desc  string
	units []string
	scale []int
}

func readXLSX(t *testing.T, data []byte, decl XLSXFormat) (xlsxResult, error) {
	t.Helper()
	fsys := fstest.MapFS{"vendas.xlsx": {Data: data}}
	rows, err := OpenRows(fsys, "vendas.xlsx", xlsxTable(), Format{XLSX: decl})
	if err != nil {
		return xlsxResult{}, err
	}
	defer rows.Close()
	var res xlsxResult
	for rows.Next() {
		var row []string
		for i, v := range rows.Values() {
			switch v := v.(type) {
			case nil:
				row = append(row, "NULL")
			case float64:
				row = append(row, fmt.Sprintf("%v=%s", v, rows.Text(i)))
			case time.Time:
				if got := rows.Text(i); !strings.HasPrefix(got, v.Format("2006-01-02")) {
					t.Errorf("time %v has text %q", v, got)
				}
				row = append(row, rows.Text(i))
			case string:
				row = append(row, v)
			default:
				t.Fatalf("value %T", v)
			}
		}
		res.rows = append(res.rows, row)
		res.lines = append(res.lines, rows.Line())
	}
	res.desc, res.units, res.scale = rows.Description(), rows.Units(), rows.Scales()
	return res, rows.Err()
}

func TestXLSXTypes(t *testing.T) {
	data := rawXLSX(t, header+`
<row r="2" spans="1:5"><c r="A2"><v>1</v></c><c r="B2" s="1"><v>46295</v></c><c r="C2" s="4"><v>46295.586805555555</v></c><c r="D2" t="s"><v>5</v></c><c r="E2" s="2"><v>1234.56</v></c></row>
<row r="3"><c r="A3"><v>2</v></c><c r="B3"><v>46296</v></c><c r="C3" t="d"><v>2026-10-01T09:30:00Z</v></c><c r="D3" t="inlineStr"><is><t xml:space="preserve">Ana &amp; Bia </t></is></c><c r="E3" s="2"><f>E2*0.1</f><v>123.45600000000002</v></c></row>
<row r="4"><c r="A4"><v>3</v></c><c r="B4" t="str"><v>2026-10-02</v></c><c r="D4" t="b"><v>1</v></c><c r="E4" s="2"><v>-1.5E-3</v></c></row>
<row r="5"><c r="A5" s="3"/><c r="B5" s="1"/></row>
<row r="6"><c r="A6"><v>4</v></c><c r="D6" t="str"><f>"Re"&amp;"sultado"</f><v>Resultado</v></c><c r="E6"><v>0.30000000000000004</v></c></row>
<row r="7"><c r="A7"><v>5</v></c><c r="B7" t="inlineStr"><is><t>31/12/2026</t></is></c><c r="C7" t="inlineStr"><is><t>01/10/2026 09:30</t></is></c></row>
<row r="9" customFormat="1" s="3"><c r="A9" s="3"/><c r="B9" s="3"/></row>`)
	got, err := readXLSX(t, data, XLSXFormat{})
	if err != nil {
		t.Fatal(err)
	}
	want := xlsxResult{
		rows: [][]string{
			{"1=1", "2026-09-30", "2026-09-30 14:05:00", "João", "1234.56=1234.56"},
			{"2=2", "2026-10-01", "2026-10-01 09:30:00", "Ana & Bia ", "123.456=123.456"},
			{"3=3", "2026-10-02", "NULL", "VERDADEIRO", "-0.0015=-0.0015"},
			{"4=4", "NULL", "NULL", "Resultado", "0.3=0.3"},
			{"5=5", "2026-12-31", "2026-10-01 09:30:00", "NULL", "NULL"}, // dates written as text, as a CSV's
		},
		lines: []int{2, 3, 4, 6, 7},
		desc:  `vendas.xlsx: planilha "Planilha1", 5 linhas`,
		units: []string{"", "", "", "", "BRL"},
		scale: []int{0, 0, 0, 0, 4},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(xlsxResult{})); diff != "" {
		t.Error(diff)
	}
}

func TestXLSXErrors(t *testing.T) {
	for _, tt := range []struct {
		name, row string
		extra     []zipPart
		decl      XLSXFormat
		want      string
	}{
		{"text in a number column", `<row r="17"><c r="A17" t="inlineStr"><is><t>abc</t></is></c></row>`, nil, XLSXFormat{},
			`vendas.xlsx: Planilha1!A17: a célula tem o texto "abc", e a coluna "ID" é número; corrija o valor ou apague-o`},
		{"number stored as text", `<row r="3"><c r="E3" t="inlineStr"><is><t>1.234,56</t></is></c></row>`, nil, XLSXFormat{},
			`vendas.xlsx: Planilha1!E3: a célula tem o texto "1.234,56", e a coluna "VALOR" é número; é um número guardado como texto`},
		{"formula error", `<row r="4"><c r="E4" t="e"><f>1/0</f><v>#DIV/0!</v></c></row>`, nil, XLSXFormat{},
			`vendas.xlsx: Planilha1!E4: a célula tem o erro #DIV/0! (de uma fórmula)`},
		{"formula never calculated", `<row r="2"><c r="E2"><f>A2*2</f></c></row>`, nil, XLSXFormat{},
			`vendas.xlsx: Planilha1!E2: a célula tem uma fórmula sem resultado guardado`},
		{"date in a number column", `<row r="2"><c r="E2" s="1"><v>46295</v></c></row>`, nil, XLSXFormat{},
			`vendas.xlsx: Planilha1!E2: a célula tem a data 30/09/2026, e a coluna "VALOR" é número`},
		{"time in a date column", `<row r="2"><c r="B2" s="4"><v>46295.5</v></c></row>`, nil, XLSXFormat{},
			`vendas.xlsx: Planilha1!B2: a célula tem data e hora (30/09/2026 12:00:00), e a coluna "DIA" é só data`},
		{"text that is no date", `<row r="2"><c r="B2" t="inlineStr"><is><t>31/09/2026</t></is></c></row>`, nil, XLSXFormat{},
			`vendas.xlsx: Planilha1!B2: a célula tem o texto "31/09/2026", e a coluna "DIA" é data; no Excel, guarde a data como data (não como texto) ou escreva-a DD/MM/AAAA ou AAAA-MM-DD`},
		{"boolean in a date column", `<row r="2"><c r="B2" t="b"><v>0</v></c></row>`, nil, XLSXFormat{},
			`vendas.xlsx: Planilha1!B2: a célula tem o valor lógico FALSO, e a coluna "DIA" é data`},
		{"a value without header", `<row r="2"><c r="G2"><v>5</v></c></row>`, nil, XLSXFormat{},
			`vendas.xlsx: Planilha1!G2: a célula tem um valor, mas a coluna G não tem nome no cabeçalho (a célula G1 está vazia)`},
		{"mixed currencies", `<row r="2"><c r="E2" s="2"><v>1</v></c></row><row r="3"><c r="E3" s="5"><v>2</v></c></row>`, nil, XLSXFormat{},
			`vendas.xlsx: Planilha1!E3: a célula tem formato de dólares (US$), mas a célula E2 da coluna "VALOR" tem formato de reais (R$)`},
		{"past column XFD", `<row r="2"><c r="XFE2"><v>5</v></c></row>`, nil, XLSXFormat{},
			`vendas.xlsx: Planilha1!2:2: a linha passa da coluna XFD`},
		{"no such sheet", ``, nil, XLSXFormat{Sheet: "Vendas"},
			`vendas.xlsx: a planilha não tem a aba "Vendas" declarada em xlsx.sheet; as abas são "Planilha1"`},
		{"bad range", ``, nil, XLSXFormat{Range: "Tabela9"},
			`vendas.xlsx: xlsx.range "Tabela9" não é um nome definido na planilha nem um intervalo como A1:F100 ou Vendas!A1:F100`},
		{"bad shared string", `<row r="2"><c r="D2" t="s"><v>99</v></c></row>`, nil, XLSXFormat{},
			`vendas.xlsx: Planilha1!D2: a célula aponta para o texto compartilhado "99", que a planilha não tem`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readXLSX(t, rawXLSX(t, header+tt.row, tt.extra...), tt.decl)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v\nwant %s", err, tt.want)
			}
		})
	}
}

func TestXLSXHeader(t *testing.T) {
	// A title row merged over the columns, the header on row 3.
	titled := `<row r="1"><c r="A1" t="inlineStr"><is><t>Vendas de setembro</t></is></c></row>` +
		strings.ReplaceAll(header, `1"`, `3"`) + `<row r="4"><c r="A4"><v>7</v></c><c r="E4"><v>10</v></c></row>`
	merged := zipPart{"xl/worksheets/sheet1.xml", `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + titled +
		`</sheetData><mergeCells count="1"><mergeCell ref="A1:E1"/></mergeCells></worksheet>`}
	// Without a range, the import reads the header below the title, and says so.
	got, err := readXLSX(t, rawXLSX(t, "", merged), XLSXFormat{})
	if err != nil || len(got.rows) != 1 || got.rows[0][0] != "7=7" || got.desc != `vendas.xlsx: planilha "Planilha1", cabeçalho na linha 3, 1 linha` {
		t.Fatalf("%v %v", got, err)
	}
	for _, rng := range []string{"A3:E4", "Planilha1!$A$3:$E$1048576", "A3:E", "Tabela"} {
		names := zipPart{"xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Planilha1" sheetId="1" r:id="rId1"/></sheets><definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">Planilha1!$A$1:$E$1</definedName><definedName name="Tabela">Planilha1!$A$3:$E$4</definedName></definedNames></workbook>`}
		got, err := readXLSX(t, rawXLSX(t, "", merged, names), XLSXFormat{Range: rng})
		if rng == "A3:E" {
			if err == nil || !strings.Contains(err.Error(), "não é um nome definido") {
				t.Errorf("%s: %v", rng, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", rng, err)
		}
		if len(got.rows) != 1 || got.rows[0][0] != "7=7" || got.lines[0] != 4 {
			t.Errorf("%s: %v", rng, got)
		}
		if rng == "Tabela" && got.desc != `vendas.xlsx: intervalo "Tabela" (Planilha1!A3:E4), 1 linha` {
			t.Errorf("%q", got.desc)
		}
	}
	// Blank rows before the header are skipped, and a missing column is named.
	_, err = readXLSX(t, rawXLSX(t, `<row r="2"/><row r="3"><c r="A3" t="s"><v>0</v></c></row>`), XLSXFormat{})
	if err == nil || !strings.Contains(err.Error(), `vendas.xlsx: Planilha1!3:3: o cabeçalho (linha 3) não tem a coluna "DIA" da tabela "vendas" do app.yaml`) {
		t.Fatal(err)
	}
	_, err = readXLSX(t, rawXLSX(t, ``), XLSXFormat{})
	if err == nil || !strings.Contains(err.Error(), `vendas.xlsx: Planilha1: a planilha "Planilha1" está vazia`) {
		t.Fatal(err)
	}
}

// TestXLSXExcelize reads a workbook excelize writes (as Excel does: shared strings, styles),
// in a second sheet and in the 1904 date system.
func TestXLSXExcelize(t *testing.T) {
	f := excelize.NewFile()
	f.NewSheet("Vendas")
	f.SetSheetRow("Vendas", "A1", &[]any{"ID", "DIA", "QUANDO", "NOME", "VALOR"})
	day := time.Date(2026, 9, 30, 0, 0, 0, 0, time.UTC)
	brl, _ := f.NewStyle(&excelize.Style{CustomNumFmt: ptr(`"R$" #,##0.00`)})
	dateStyle, _ := f.NewStyle(&excelize.Style{NumFmt: 14})
	for i := range 3 {
		row := i + 2
		f.SetSheetRow("Vendas", fmt.Sprintf("A%d", row), &[]any{i + 1, day.AddDate(0, 0, i), day.Add(time.Duration(i) * time.Hour), "Loja " + string(rune('A'+i)), 10.5 * float64(i+1)})
		f.SetCellStyle("Vendas", fmt.Sprintf("E%d", row), fmt.Sprintf("E%d", row), brl)
		f.SetCellStyle("Vendas", fmt.Sprintf("B%d", row), fmt.Sprintf("C%d", row), dateStyle)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := readXLSX(t, buf.Bytes(), XLSXFormat{Sheet: "vendas"})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"1=1", "2026-09-30", "2026-09-30 00:00:00", "Loja A", "10.5=10.5"},
		{"2=2", "2026-10-01", "2026-09-30 01:00:00", "Loja B", "21=21"},
		{"3=3", "2026-10-02", "2026-09-30 02:00:00", "Loja C", "31.5=31.5"},
	}
	if diff := cmp.Diff(want, got.rows); diff != "" {
		t.Error(diff)
	}
	if got.units[4] != "BRL" || got.desc != `vendas.xlsx: planilha "Vendas", 3 linhas` {
		t.Errorf("%v %q", got.units, got.desc)
	}

	// The 1904 system counts from 1904-01-01: serial 44833 is 2026-09-30.
	wb := zipPart{"xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><workbookPr date1904="1"/><sheets><sheet name="Planilha1" sheetId="1" r:id="rId1"/></sheets></workbook>`}
	got, err = readXLSX(t, rawXLSX(t, header+`<row r="2"><c r="A2"><v>1</v></c><c r="B2" s="1"><v>44833</v></c></row>`, wb), XLSXFormat{})
	if err != nil || got.rows[0][1] != "2026-09-30" || !strings.HasSuffix(got.desc, ", datas no sistema 1904") {
		t.Fatalf("%v %v", got, err)
	}
}

func ptr[T any](v T) *T { return &v }

func TestSerialCivil(t *testing.T) {
	for serial, want := range map[float64]string{
		1: "1900-01-01", 59: "1900-02-28", 61: "1900-03-01", 25569: "1970-01-01", 46295: "2026-09-30",
		46295.999999: "2026-10-01", 2958465: "9999-12-31",
	} {
		c, ok := serialCivil(serial, false)
		if got := string(c.appendISO(nil, false)); !ok || got != want {
			t.Errorf("%v: %s, want %s", serial, got, want)
		}
	}
	for _, bad := range []float64{0, 60, -1, 2958466} {
		if _, ok := serialCivil(bad, false); ok {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestFormatStyle(t *testing.T) {
	for code, want := range map[string]cellStyle{
		`dd/mm/yyyy`: {date: true}, `[$-416]d\ mmm\ yy`: {date: true}, `[h]:mm`: {date: true},
		`"R$"\ #,##0.00;[Red]\-"R$"\ #,##0.00`: {currency: "BRL"}, `[$R$-416]\ #,##0.00`: {currency: "BRL"},
		`0.0%`: {percent: true}, `#,##0.00`: {}, `0.00E+00`: {}, `"dias" 0`: {}, `General`: {},
	} {
		if got := formatStyle(code); got != want {
			t.Errorf("%s: %+v, want %+v", code, got, want)
		}
	}
}

// virtualZip is a zip file of stored (uncompressed) parts, one of which (big) holds head, then
// n times the byte fill, then tail, without the bytes being anywhere: a hostile workbook of any
// size costs nothing to build.
type virtualZip struct {
	segs []vseg
	size int64
}

type vseg struct {
	off  int64
	data []byte // or, when nil, n bytes of fill
	n    int64
	fill byte
}

func (z *virtualZip) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for _, s := range z.segs {
		l := s.n
		if s.data != nil {
			l = int64(len(s.data))
		}
		for off >= s.off && off < s.off+l && n < len(p) {
			k := min(int64(len(p)-n), s.off+l-off)
			if s.data != nil {
				copy(p[n:], s.data[off-s.off:off-s.off+k])
			} else {
				for j := range k {
					p[n+int(j)] = s.fill
				}
			}
			n += int(k)
			off += k
		}
	}
	if n < len(p) {
		return n, fmt.Errorf("EOF")
	}
	return n, nil
}

// hostileXLSX is rawXLSX with the part name replaced by a stored part of head, n fill bytes and
// tail (declared, when declared > 0, as that many bytes uncompressed from comp compressed: a
// zip bomb's directory).
func hostileXLSX(t *testing.T, name, head string, n int64, fill byte, tail string, declared, comp uint64) *virtualZip {
	// The small parts from rawXLSX, rewritten as stored entries by hand.
	small, err := zip.NewReader(bytes.NewReader(rawXLSX(t, header)), int64(len(rawXLSX(t, header))))
	if err != nil {
		t.Fatal(err)
	}
	z := &virtualZip{}
	var dir bytes.Buffer
	count := 0
	add := func(fname string, parts []vseg, size int64, crc uint32, method uint16, usize, csize uint64) {
		lh := new(bytes.Buffer)
		le := func(v any) { binaryWrite(lh, v) }
		le(uint32(0x04034b50))
		le(uint16(20))
		le(uint16(0))
		le(method)
		le(uint32(0))
		le(crc)
		le(uint32(csize))
		le(uint32(usize))
		le(uint16(len(fname)))
		le(uint16(0))
		lh.WriteString(fname)
		off := z.size
		z.segs = append(z.segs, vseg{off: z.size, data: lh.Bytes()})
		z.size += int64(lh.Len())
		for _, p := range parts {
			p.off = z.size
			z.segs = append(z.segs, p)
			if p.data != nil {
				z.size += int64(len(p.data))
			} else {
				z.size += p.n
			}
		}
		d := new(bytes.Buffer)
		dw := func(v any) { binaryWrite(d, v) }
		dw(uint32(0x02014b50))
		dw(uint16(20))
		dw(uint16(20))
		dw(uint16(0))
		dw(method)
		dw(uint32(0))
		dw(crc)
		dw(uint32(csize))
		dw(uint32(usize))
		dw(uint16(len(fname)))
		dw(uint16(0))
		dw(uint16(0))
		dw(uint16(0))
		dw(uint16(0))
		dw(uint32(0))
		dw(uint32(off))
		d.WriteString(fname)
		dir.Write(d.Bytes())
		count++
	}
	for _, f := range small.File {
		if f.Name == name {
			continue
		}
		rc, _ := f.Open()
		var b bytes.Buffer
		b.ReadFrom(rc)
		add(f.Name, []vseg{{data: b.Bytes()}}, int64(b.Len()), f.CRC32, zip.Store, uint64(b.Len()), uint64(b.Len()))
	}
	size := uint64(len(head)) + uint64(n) + uint64(len(tail))
	usize, csize := size, size
	if declared > 0 {
		usize, csize = declared, comp
	}
	add(name, []vseg{{data: []byte(head)}, {n: n, fill: fill}, {data: []byte(tail)}}, int64(size), 0, zip.Store, usize, csize)
	dirOff := z.size
	z.segs = append(z.segs, vseg{off: z.size, data: dir.Bytes()})
	z.size += int64(dir.Len())
	end := new(bytes.Buffer)
	ew := func(v any) { binaryWrite(end, v) }
	ew(uint32(0x06054b50))
	ew(uint16(0))
	ew(uint16(0))
	ew(uint16(count))
	ew(uint16(count))
	ew(uint32(dir.Len()))
	ew(uint32(dirOff))
	ew(uint16(0))
	z.segs = append(z.segs, vseg{off: z.size, data: end.Bytes()})
	z.size += int64(end.Len())
	return z
}

// TestXLSXHostile reads hostile workbooks within bounded memory: a cell of a gigabyte, in the
// sheet and in the shared strings, and a zip bomb's directory.
func TestXLSXHostile(t *testing.T) {
	const gb = 1 << 30
	sheetHead := `<worksheet><sheetData>` + header + `<row r="2"><c r="D2" t="inlineStr"><is><t>`
	for _, tt := range []struct {
		name string
		z    *virtualZip
		want string
	}{
		{"1 GB cell", hostileXLSX(t, "xl/worksheets/sheet1.xml", sheetHead, gb, 'a', `</t></is></c></row></sheetData></worksheet>`, 0, 0),
			"vendas.xlsx: Planilha1!D2: a célula passa do limite de 1 MiB por valor"},
		{"1 GB number", hostileXLSX(t, "xl/worksheets/sheet1.xml", `<worksheet><sheetData>`+header+`<row r="2"><c r="A2"><v>`, gb, '7', `</v></c></row></sheetData></worksheet>`, 0, 0),
			"vendas.xlsx: Planilha1!A2: a célula passa do limite de 1 MiB por valor"},
		{"1 GB shared string", hostileXLSX(t, "xl/sharedStrings.xml", `<sst><si><t>`, gb, 'b', `</t></si></sst>`, 0, 0),
			"vendas.xlsx: a parte xl/sharedStrings.xml da planilha tem um valor acima do limite de 1 MiB"},
		{"zip bomb", hostileXLSX(t, "xl/worksheets/sheet1.xml", "", 1<<20, ' ', "", 1<<30, 1<<20/10),
			"vendas.xlsx: a parte xl/worksheets/sheet1.xml da planilha se expande de 102 KiB para 1 GiB (mais de 200 vezes)"},
		{"too big", hostileXLSX(t, "xl/worksheets/sheet1.xml", "", 1<<20, ' ', "", 3<<30, 2<<30),
			"vendas.xlsx: a parte xl/worksheets/sheet1.xml da planilha declara 3 GiB descompactados, acima do limite de 2 GiB"},
		{"1 GB tag", hostileXLSX(t, "xl/worksheets/sheet1.xml", `<worksheet><sheetData><row r="1" x="`, gb, 'c', `"/></sheetData></worksheet>`, 0, 0),
			"vendas.xlsx: Planilha1: a célula passa do limite"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := openXLSXAt(tt.z)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v\nwant %s", err, tt.want)
			}
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<20 {
				t.Errorf("allocated %d MiB", grown>>20)
			}
		})
	}
}

// openXLSXAt reads a virtual workbook as vendas.xlsx to its end.
func openXLSXAt(z *virtualZip) (int64, error) {
	rows, err := OpenRows(readerAtFS{z}, "vendas.xlsx", xlsxTable(), Format{})
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Count(), rows.Err()
}

func binaryWrite(b *bytes.Buffer, v any) {
	if err := binary.Write(b, binary.LittleEndian, v); err != nil {
		panic(err)
	}
}

// readerAtFS is a file system of one file, vendas.xlsx, read from z.
type readerAtFS struct{ z *virtualZip }

func (f readerAtFS) Open(name string) (fs.File, error) {
	if name != "vendas.xlsx" {
		return nil, fs.ErrNotExist
	}
	return &readerAtFile{z: f.z}, nil
}

type readerAtFile struct {
	z   *virtualZip
	off int64
}

func (f *readerAtFile) Stat() (fs.FileInfo, error) { return fileInfo{f.z.size}, nil }
func (f *readerAtFile) Read(p []byte) (int, error) {
	if f.off >= f.z.size {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), f.z.size-f.off)]
	n, err := f.z.ReadAt(p, f.off)
	f.off += int64(n)
	return n, err
}
func (f *readerAtFile) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.z.size {
		n, _ := f.z.ReadAt(p[:max(0, f.z.size-off)], off)
		return n, io.EOF
	}
	return f.z.ReadAt(p, off)
}
func (f *readerAtFile) Close() error { return nil }

type fileInfo struct{ size int64 }

func (i fileInfo) Name() string       { return "vendas.xlsx" }
func (i fileInfo) Size() int64        { return i.size }
func (i fileInfo) Mode() fs.FileMode  { return 0o644 }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return nil }

// The shared strings grow in blocks: a string that starts near a block's end continues in the
// next, and each reads back whole; the memory counted is the text plus 4 bytes a string.
func TestSharedStringsBlocks(t *testing.T) {
	var s sharedStrings
	var want []string
	for i := 0; s.size < 3*sstBlock+100; i++ {
		w := strings.Repeat(string(rune('a'+i%26)), 1+(i*7919)%5000)
		if i%1000 == 0 {
			w = ""
		}
		s.add([]byte(w))
		want = append(want, w)
	}
	for i, w := range want {
		if got, ok := s.get(i); !ok || got != w {
			t.Fatalf("string %d: %d bytes, want %d", i, len(got), len(w))
		}
	}
	if _, ok := s.get(len(want)); ok {
		t.Error("a string past the last")
	}
	if s.memory() != s.size+4*int64(len(want)) || len(s.ends) != (len(want)+sstEnds-1)/sstEnds {
		t.Errorf("memory %d, size %d, %d strings in %d blocks of ends", s.memory(), s.size, len(want), len(s.ends))
	}
}

// TestNotDataRows: a total row under the values and a note below a blank row, as a workbook made
// by excelize (and a CSV saved from one) carry them, are skipped and named in the description;
// a row after a blank one that has two values is data, and its bad value still fails.
func TestNotDataRows(t *testing.T) {
	f := excelize.NewFile()
	f.NewSheet("Vendas")
	f.SetSheetRow("Vendas", "A1", &[]any{"ID", "DIA", "QUANDO", "NOME", "VALOR"})
	day := time.Date(2026, 9, 30, 0, 0, 0, 0, time.UTC)
	f.SetSheetRow("Vendas", "A2", &[]any{1, day, day, "Loja A", 10.5})
	f.SetSheetRow("Vendas", "A3", &[]any{2, day, day, "Total Express", 20})
	f.SetSheetRow("Vendas", "A4", &[]any{"Subtotal", nil, nil, nil, 30.5})
	f.SetSheetRow("Vendas", "A6", &[]any{"Total geral:", nil, nil, nil, 30.5})
	f.SetSheetRow("Vendas", "A8", &[]any{"Fonte: ERP, emitido em 05/10/2026"})
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := readXLSX(t, buf.Bytes(), XLSXFormat{Sheet: "Vendas"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.rows) != 2 || got.rows[1][3] != "Total Express" {
		t.Errorf("rows %v", got.rows)
	}
	want := `vendas.xlsx: planilha "Vendas", 2 linhas, 3 linhas que não são dados puladas (linha 4, total: "Subtotal"; linha 6, total: "Total geral:"; linha 8, nota depois de uma linha em branco: "Fonte: ERP, emitido em 05/10/2026")`
	if got.desc != want {
		t.Errorf("description\n%s\nwant\n%s", got.desc, want)
	}

	f.SetSheetRow("Vendas", "A8", &[]any{"Fonte", "x"})
	buf.Reset()
	f.Write(&buf)
	if _, err := readXLSX(t, buf.Bytes(), XLSXFormat{Sheet: "Vendas"}); err == nil || !strings.Contains(err.Error(), "Vendas!A8") {
		t.Errorf("a row of two values after a blank row: %v", err)
	}

	fsys := fstest.MapFS{"v.csv": {Data: []byte("ID;NOME;VALOR\n1;Ana;10,50\n2;Bia;20,00\nTotal;;30,50\n\nFonte: ERP\n")}}
	tb := &semantic.Table{Name: "v"}
	for _, c := range []struct{ name, typ string }{{"ID", semantic.TypeNumber}, {"NOME", semantic.TypeString}, {"VALOR", semantic.TypeNumber}} {
		tb.Columns = append(tb.Columns, &semantic.Column{Table: tb, Name: c.name, Type: c.typ})
	}
	rows, err := OpenRows(fsys, "v.csv", tb, Format{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	rows.Close()
	if err := rows.Err(); err != nil || n != 2 || !strings.HasSuffix(rows.Description(), `, 2 linhas que não são dados puladas (linha 4, total: "Total"; linha 6, nota depois de uma linha em branco: "Fonte: ERP")`) {
		t.Errorf("csv: %d rows, %v, %q", n, err, rows.Description())
	}
}
