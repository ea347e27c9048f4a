package workspace

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// readFormat streams data as the CSV of tbl with the settings decl: the values of every row,
// the texts Text gives, and the description, units and scales at the end.
type readResult struct {
	vals   [][]any
	texts  [][]string
	desc   string
	units  []string
	scales []int
}

func readFormat(t *testing.T, data string, decl Format, cols ...[2]string) (readResult, error) {
	t.Helper()
	tbl := table(cols...)
	rows, err := OpenRows(fstest.MapFS{"t.csv": {Data: []byte(data)}}, "t.csv", tbl, decl)
	if err != nil {
		return readResult{}, err
	}
	defer rows.Close()
	var res readResult
	for rows.Next() {
		res.vals = append(res.vals, append([]any(nil), rows.Values()...))
		var texts []string
		for i, v := range rows.Values() {
			if v != nil {
				texts = append(texts, rows.Text(i))
			} else {
				texts = append(texts, "")
			}
		}
		res.texts = append(res.texts, texts)
	}
	res.desc, res.units, res.scales = rows.Description(), rows.Units(), rows.Scales()
	return res, rows.Err()
}

var (
	numCol      = [2]string{"N", "number"}
	textCol     = [2]string{"S", "string"}
	dateCol     = [2]string{"D", "date"}
	datetimeCol = [2]string{"DT", "datetime"}
)

func TestRowsBrazilianFormats(t *testing.T) {
	tests := []struct {
		name   string
		csv    string
		decl   Format
		cols   [][2]string
		vals   [][]any
		texts  [][]string
		desc   string
		units  []string
		scales []int
	}{
		{name: "the original format says what it is",
			csv:   "N,S,D,DT\n1.5,a,2026-09-30,2026-09-30 14:05\n",
			cols:  [][2]string{numCol, textCol, dateCol, datetimeCol},
			vals:  [][]any{{1.5, "a", day(2026, 9, 30, 0, 0, 0), day(2026, 9, 30, 14, 5, 0)}},
			texts: [][]string{{"1.5", "a", "2026-09-30", "2026-09-30 14:05"}},
			desc:  `t.csv: separador ",", decimal ".", UTF-8, datas aaaa-mm-dd`, units: []string{"", "", "", ""}, scales: []int{1, 0, 0, 0}},
		{name: "a pt-BR export: semicolons, decimal comma, R$, dd/mm/aaaa, Windows-1252, CRLF, blank lines and a trailing delimiter",
			csv: "N;S;D;DT;\r\n" +
				"1.234,56;S\xe3o Jo\xe3o;30/09/2026;30/09/2026 14:05;\r\n" +
				"\r\n" +
				";;;;\r\n" +
				"R$ 10,00;Caf\xe9 \x93bom\x94;01/02/2026;13/01/2026 08:00:59\r\n" +
				"-R$ 10,00;a;\\N;\\N\r\n" +
				"R$ -1.000.000,5;b;;\r\n" +
				"(10,00);c;;\r\n" +
				"(R$ 0,01);d;;\r\n" +
				"7;;;\r\n",
			cols: [][2]string{numCol, textCol, dateCol, datetimeCol},
			vals: [][]any{
				{1234.56, "São João", day(2026, 9, 30, 0, 0, 0), day(2026, 9, 30, 14, 5, 0)},
				{10.0, "Café “bom”", day(2026, 2, 1, 0, 0, 0), day(2026, 1, 13, 8, 0, 59)},
				{-10.0, "a", nil, nil},
				{-1000000.5, "b", nil, nil},
				{-10.0, "c", nil, nil},
				{-0.01, "d", nil, nil},
				{7.0, "", nil, nil},
			},
			texts: [][]string{
				{"1234.56", "São João", "2026-09-30", "2026-09-30 14:05:00"},
				{"10.00", "Café “bom”", "2026-02-01", "2026-01-13 08:00:59"},
				{"-10.00", "a", "", ""},
				{"-1000000.5", "b", "", ""},
				{"-10.00", "c", "", ""},
				{"-0.01", "d", "", ""},
				{"7", "", "", ""},
			},
			desc:  `t.csv: separador ";", decimal ",", Windows-1252, datas dd/mm/aaaa`,
			units: []string{"BRL", "", "", ""}, scales: []int{2, 0, 0, 0}},
		{name: "tab, decimal point with comma thousands, US$, a UTF-8 BOM",
			csv:   "\uFEFFN\tS\n1,234.56\tação\nUS$ 1,000\t\"x\ty\"\n(0.5)\t\\N\n",
			cols:  [][2]string{numCol, textCol},
			vals:  [][]any{{1234.56, "ação"}, {1000.0, "x\ty"}, {-0.5, nil}},
			texts: [][]string{{"1234.56", "ação"}, {"1000", "x\ty"}, {"-0.5", ""}},
			desc:  `t.csv: separador tabulação, decimal ".", UTF-8`, units: []string{"USD", ""}, scales: []int{2, 0}},
		{name: "pipes and dd/mm/aa: 69 is 2069, 70 is 1970",
			csv:   "D|DT\n31/12/69|31/12/70 23:59\n01/01/00|13/02/99 00:00:00\n",
			cols:  [][2]string{dateCol, datetimeCol},
			vals:  [][]any{{day(2069, 12, 31, 0, 0, 0), day(1970, 12, 31, 23, 59, 0)}, {day(2000, 1, 1, 0, 0, 0), day(1999, 2, 13, 0, 0, 0)}},
			texts: [][]string{{"2069-12-31", "1970-12-31 23:59:00"}, {"2000-01-01", "1999-02-13 00:00:00"}},
			desc:  `t.csv: separador "|", UTF-8, datas dd/mm/aa`, units: []string{"", ""}, scales: []int{0, 0}},
		{name: "percentages are fractions with unit percent",
			csv:   "N;S\n25%;a\n25,5 %;b\n-0,5%;c\n100%;d\n(1.250%);e\n",
			cols:  [][2]string{numCol, textCol},
			vals:  [][]any{{0.25, "a"}, {0.255, "b"}, {-0.005, "c"}, {1.0, "d"}, {-12.5, "e"}},
			texts: [][]string{{"0.25", "a"}, {"0.255", "b"}, {"-0.005", "c"}, {"1.00", "d"}, {"-12.50", "e"}},
			desc:  `t.csv: separador ";", decimal ",", UTF-8`, units: []string{"percent", ""}, scales: []int{3, 0}},
		{name: "non-breaking spaces as Excel writes them, in UTF-8",
			csv:  "N;P\nR$\u00a01.234,56;12,5\u00a0%\n",
			cols: [][2]string{numCol, {"P", "number"}},
			vals: [][]any{{1234.56, 0.125}}, units: []string{"BRL", "percent"},
		},
		{name: "declared settings win: no ambiguity left",
			csv:  "N;D;S\n1.000;01/02/2026;Jos\xe9\n",
			decl: Format{Delimiter: ";", Decimal: ",", Encoding: EncodingLatin1, DateFormat: DatesDMY},
			cols: [][2]string{numCol, dateCol, textCol},
			vals: [][]any{{1000.0, day(2026, 2, 1, 0, 0, 0), "José"}},
			desc: `t.csv: separador ";", decimal ",", ISO-8859-1, datas dd/mm/aaaa`},
		{name: "declared decimal point reads 1.000 as one",
			csv:  "N;S\n1.000;a\n",
			decl: Format{Decimal: "."},
			cols: [][2]string{numCol, textCol},
			vals: [][]any{{1.0, "a"}}, scales: []int{3, 0}},
		{name: "declared tab by name",
			csv:  "N\tS\n1\ta\n",
			decl: Format{Delimiter: "tab"},
			cols: [][2]string{numCol, textCol},
			vals: [][]any{{1.0, "a"}}, desc: `t.csv: separador tabulação, UTF-8`},
		{name: "a comma-separated file reads 1.000 as one, as it always did, and a quoted 10,5 as ten and a half",
			csv:  "N,S\n1.000,a\n",
			cols: [][2]string{numCol, textCol},
			vals: [][]any{{1.0, "a"}}, desc: `t.csv: separador ",", decimal ".", UTF-8`},
		{name: "a quoted decimal comma in a comma-separated file",
			csv:  "N,S\n\"1.000,5\",a\n2,b\n",
			cols: [][2]string{numCol, textCol},
			vals: [][]any{{1000.5, "a"}, {2.0, "b"}}, desc: `t.csv: separador ",", decimal ",", UTF-8`},
		{name: "one column: no delimiter to show",
			csv:  "N\n1,5\n",
			cols: [][2]string{numCol},
			vals: [][]any{{1.0}}, // "1" and "5": caught by the count below
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readFormat(t, tt.csv, tt.decl, tt.cols...)
			if tt.name == "one column: no delimiter to show" {
				var e *Error
				if !errors.As(err, &e) || e.Line != 2 || !strings.HasPrefix(e.Message, "a linha tem 2 valores, mas o cabeçalho tem 1 colunas") {
					t.Fatalf("error = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.vals, got.vals); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			if tt.texts != nil {
				if diff := cmp.Diff(tt.texts, got.texts); diff != "" {
					t.Errorf("texts (-want +got):\n%s", diff)
				}
			}
			if tt.desc != "" && got.desc != tt.desc {
				t.Errorf("description %q, want %q", got.desc, tt.desc)
			}
			if tt.units != nil {
				if diff := cmp.Diff(tt.units, got.units); diff != "" {
					t.Errorf("units (-want +got):\n%s", diff)
				}
			}
			if tt.scales != nil {
				if diff := cmp.Diff(tt.scales, got.scales); diff != "" {
					t.Errorf("scales (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// past is rows enough to push what follows past the detection sample.
func past(row string) string { return strings.Repeat(row, sampleSize/len(row)+1) }

// A setting the sample leaves open is settled by the first row that shows it, and the
// description says so at the end.
func TestRowsSettleAfterTheSample(t *testing.T) {
	got, err := readFormat(t, "N;D\n"+past("1;\\N\n")+"12,50;13/01/2026\n1.000;01/02/2026\n", Format{}, numCol, dateCol)
	if err != nil {
		t.Fatal(err)
	}
	last := got.vals[len(got.vals)-2:]
	if diff := cmp.Diff([][]any{{12.5, day(2026, 1, 13, 0, 0, 0)}, {1000.0, day(2026, 2, 1, 0, 0, 0)}}, last); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	if want := `t.csv: separador ";", decimal ",", UTF-8, datas dd/mm/aaaa`; got.desc != want {
		t.Errorf("description %q, want %q", got.desc, want)
	}
}

func TestRowsFormatRefused(t *testing.T) {
	long := past("1;a\n")
	longLines := strings.Count(long, "\n") + 1 // the header
	tests := []struct {
		name, csv string
		decl      Format
		cols      [][2]string
		want      *Error
	}{
		{name: "every amount like 1.000", csv: "N;S\n1.000;a\n2.500;b\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 2, Field: "N", Message: `não dá para saber se "1.000" é 1000 ou 1: nenhum número do arquivo mostra se o "." separa milhar ou decimal; declare csv.decimal: "," (como em 1.234,56) ou csv.decimal: "." (como em 1,234.56) na tabela "t" do app.yaml`}},
		{name: "an amount like 1.000 past a sample of integers", csv: "N;S\n" + long + "R$ 12,345;a\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: longLines + 1, Field: "N", Message: `não dá para saber se "R$ 12,345" é 12345 ou 12.345: nenhum número do arquivo mostra se o "," separa milhar ou decimal; declare csv.decimal: "," (como em 1.234,56) ou csv.decimal: "." (como em 1,234.56) na tabela "t" do app.yaml`}},
		{name: "no day above 12", csv: "D;S\n01/02/2026;a\n12/12/2026;b\n", cols: [][2]string{dateCol, textCol},
			want: &Error{File: "t.csv", Line: 2, Field: "D", Message: `não dá para saber se "01/02/2026" tem o dia ou o mês primeiro: nenhuma data do arquivo tem dia acima de 12; se o dia vem primeiro, declare csv.dateFormat: dd/mm/aaaa na tabela "t" do app.yaml (mês primeiro não é aceito; use AAAA-MM-DD)`}},
		{name: "no day above 12 in dd/mm/aa with times", csv: "DT;S\n01/02/26 10:00;a\n", cols: [][2]string{datetimeCol, textCol},
			want: &Error{File: "t.csv", Line: 2, Field: "DT", Message: `não dá para saber se "01/02/26 10:00" tem o dia ou o mês primeiro: nenhuma data do arquivo tem dia acima de 12; se o dia vem primeiro, declare csv.dateFormat: dd/mm/aa na tabela "t" do app.yaml (mês primeiro não é aceito; use AAAA-MM-DD)`}},
		{name: "month first", csv: "D;S\n02/13/2026;a\n", cols: [][2]string{dateCol, textCol},
			want: &Error{File: "t.csv", Line: 2, Field: "D", Message: `o valor "02/13/2026" não é uma data DD/MM/AAAA válida (ex.: 30/09/2026), nem \N para nulo; o mês parece vir antes do dia, e mm/dd não é aceito: escreva dd/mm/aaaa ou AAAA-MM-DD`}},
		{name: "both decimals", csv: "N;S\n12,50;a\n1.5;b\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 3, Field: "N", Message: `o arquivo mistura decimal com ponto e com vírgula: "12,50" (linha 2, coluna N) e "1.5" (linha 3, coluna N); escreva todos os números do mesmo jeito e declare csv.decimal: "," ou "." na tabela "t" do app.yaml`}},
		{name: "a decimal point past a sample with decimal comma", csv: "N;S\n12,50;a\n" + long + "1.5;b\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: longLines + 2, Field: "N", Message: `o valor "1.5" não é um número com vírgula decimal (ex.: 1234,56, 1.234,56, R$ -10,00 ou 25%), nem \N para nulo; o decimal "," vem de "12,50" (linha 2, coluna N); se não for esse, declare csv.decimal na tabela "t" do app.yaml`}},
		{name: "against the declared decimal", csv: "N;S\n1.5;a\n", decl: Format{Decimal: ","}, cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 2, Field: "N", Message: `o valor "1.5" não é um número com vírgula decimal (ex.: 1234,56, 1.234,56, R$ -10,00 ou 25%), nem \N para nulo; o decimal "," é o que declara csv.decimal na tabela "t" do app.yaml`}},
		{name: "thousands not in threes", csv: "N;S\n1.23,45;a\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 2, Field: "N", Message: `o valor "1.23,45" não é um número (ex.: 1234.56, 1.234,56, R$ -10,00 ou 25%), nem \N para nulo`}},
		{name: "a first group over three digits", csv: "N;S\n1,5;a\n1234.567,5;b\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 3, Field: "N", Message: `o valor "1234.567,5" não é um número com vírgula decimal (ex.: 1234,56, 1.234,56, R$ -10,00 ou 25%), nem \N para nulo; o decimal "," vem de "1,5" (linha 2, coluna N); se não for esse, declare csv.decimal na tabela "t" do app.yaml`}},
		{name: "two minus signs", csv: "N;S\n1,5;a\n(-10,00);b\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 3, Field: "N", Message: `o valor "(-10,00)" não é um número com vírgula decimal (ex.: 1234,56, 1.234,56, R$ -10,00 ou 25%), nem \N para nulo; o decimal "," vem de "1,5" (linha 2, coluna N); se não for esse, declare csv.decimal na tabela "t" do app.yaml`}},
		{name: "two dates formats", csv: "D;DT\n2026-01-30;30/01/2026 10:00\n", cols: [][2]string{dateCol, datetimeCol},
			want: &Error{File: "t.csv", Line: 2, Field: "DT", Message: `o arquivo escreve datas de mais de um jeito: "2026-01-30" (linha 2, coluna D) e "30/01/2026 10:00" (linha 2, coluna DT); escreva todas do mesmo jeito (de preferência AAAA-MM-DD) e declare csv.dateFormat na tabela "t" do app.yaml`}},
		{name: "an ISO date past a sample of dd/mm/aaaa", csv: "D;S\n30/01/2026;a\n" + strings.ReplaceAll(long, "1;", "\\N;") + "2026-01-30;b\n", cols: [][2]string{dateCol, textCol},
			want: &Error{File: "t.csv", Line: longLines + 2, Field: "D", Message: `o valor "2026-01-30" não é uma data DD/MM/AAAA válida (ex.: 30/09/2026), nem \N para nulo; o formato dd/mm/aaaa vem de "30/01/2026" (linha 2, coluna D); escreva todas as datas do mesmo jeito`}},
		{name: "percent and plain in one column", csv: "N;S\n25%;a\n0,3;b\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 3, Field: "N", Message: `o valor "0,3" não tem %, mas o da linha 2 ("25%") tem; escreva todos os números da coluna com % ou todos sem (sem %, o percentual vai como fração: 0.25 é 25%)`}},
		{name: "R$ in a column of unit USD", csv: "N;S\nR$ 10,00;a\n", cols: [][2]string{{"N", "number"}, textCol},
			want: nil}, // filled below: needs a unit
		{name: "R$ and US$ in one column", csv: "N;S\nR$ 10,00;a\nUS$ 2,00;b\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 3, Field: "N", Message: `o valor "US$ 2,00" está em dólares (US$), mas outros valores da coluna estão em reais (R$); use uma moeda só por coluna`}},
		{name: "UTF-16", csv: "\xff\xfeN\x00", cols: [][2]string{numCol},
			want: &Error{File: "t.csv", Line: 1, Message: `o arquivo está em UTF-16, que não é aceito; salve-o como CSV em UTF-8 (ou Windows-1252)`}},
		{name: "a bare quote after a quoted line break", csv: "N;S\n1;a\n2;\"b;\nc\"\n3;d\n4;e\"f\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 6, Message: `há aspas no meio de um valor sem aspas; ponha o valor inteiro entre aspas e dobre as aspas de dentro ("")`}},
		{name: "a short row past a quoted line break", csv: "N;S\n1;a\n2;\"b;\nc\"\n3;d\n4\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 6, Message: `a linha tem 1 valores, mas o cabeçalho tem 2 colunas; confira os separadores ";" (um texto com o separador vai entre aspas)`}},
		{name: "a short row in a semicolon file", csv: "N;S\n1;a;b\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 2, Message: `a linha tem 3 valores, mas o cabeçalho tem 2 colunas; confira os separadores ";" (um texto com o separador vai entre aspas)`}},
		{name: "an invalid UTF-8 byte past the sample", csv: "N;S\n" + long + "1;S\xe3o\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: longLines + 1, Field: "S", Message: `o texto não está em UTF-8; salve o arquivo com a codificação UTF-8, ou, se ele está em Windows-1252 ou ISO-8859-1, declare csv.encoding na tabela "t" do app.yaml (o início do arquivo era UTF-8)`}},
		{name: "UTF-8 and Windows-1252 in one file", csv: "N;S\n1;São\n2;Jos\xe9\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 3, Message: `o arquivo mistura texto em UTF-8 (linha 2) com bytes que não são UTF-8 (linha 3); salve-o todo numa codificação só, ou declare csv.encoding na tabela "t" do app.yaml`}},
		{name: "UTF-8 past a Windows-1252 sample", csv: "N;S\n1;Jos\xe9\n" + strings.ReplaceAll(long, "1;a", "1;Jos\xe9") + "2;São\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: longLines + 2, Field: "S", Message: `o texto "São" está em UTF-8, mas o início do arquivo não estava, e foi lido como Windows-1252; salve o arquivo todo numa codificação só, ou declare csv.encoding na tabela "t" do app.yaml`}},
		{name: "a byte Windows-1252 leaves undefined", csv: "N;S\n1;S\x81o\n", cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 2, Field: "S", Message: `o texto tem o byte 0x81, que não é um caractere em Windows-1252 (a codificação, que foi detectada porque o arquivo não é UTF-8); salve o arquivo em UTF-8`}},
		{name: "an invalid UTF-8 byte against the declared encoding", csv: "N;S\n1;S\xe3o\n", decl: Format{Encoding: EncodingUTF8}, cols: [][2]string{numCol, textCol},
			want: &Error{File: "t.csv", Line: 2, Field: "S", Message: `o texto não está em UTF-8; salve o arquivo com a codificação UTF-8`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.want == nil { // a declared unit
				tbl := table(tt.cols...)
				tbl.Columns[0].Unit = "USD"
				rows, oerr := OpenRows(fstest.MapFS{"t.csv": {Data: []byte(tt.csv)}}, "t.csv", tbl, tt.decl)
				if oerr != nil {
					t.Fatal(oerr)
				}
				for rows.Next() {
				}
				rows.Close()
				err = rows.Err()
				tt.want = &Error{File: "t.csv", Line: 2, Field: "N", Message: `o valor "R$ 10,00" está em reais (R$), mas a coluna tem unit USD no app.yaml; corrija o valor ou a unit`}
			} else {
				_, err = readFormat(t, tt.csv, tt.decl, tt.cols...)
			}
			var e *Error
			var es Errors
			switch {
			case errors.As(err, &es):
				e = es[0]
			case errors.As(err, &e):
			default:
				t.Fatalf("error = %v (%T), want *Error", err, err)
			}
			if diff := cmp.Diff(tt.want, e); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// ptbrWorkspace is a one-app workspace whose app.yaml says tables (YAML list items under
// tables:) and whose files are files.
func ptbrWorkspace(tables string, files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{
		"workspace.yaml": {Data: []byte("tenants:\n  - key: t1\n    name: T\n    users:\n      - {login: ana, name: Ana, token: tok-ana-123}\n" +
			"    apps:\n      - {key: vendas, source: apps/vendas}\n")},
		"apps/vendas/app.yaml": {Data: []byte("name: Vendas\ntables:\n" + tables)},
	}
	for name, data := range files {
		fsys["apps/vendas/"+name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fsys
}

func TestLoadCSVSettings(t *testing.T) {
	fsys := ptbrWorkspace(`  - label: Vendas
    name: vendas
    kind: fact
    file: vendas.csv
    csv: {delimiter: ";", decimal: ",", encoding: windows-1252, dateFormat: dd/mm/aaaa}
    columns:
      - {name: VALOR, label: Valor, type: number}
      - {name: DIA, label: Dia, type: date}
  - label: Lojas
    name: lojas
    kind: dimension
    file: lojas.csv
    columns:
      - {name: ID, label: Id, type: number}
`, map[string]string{"vendas.csv": "VALOR;DIA\n1.000;01/02/2026\n", "lojas.csv": "ID\n1\n"})
	ws, err := Load(fsys, "workspace.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := ws.Tenants[0].Apps[0].Source
	want := []Format{{Delimiter: ";", Decimal: ",", Encoding: EncodingWindows1252, DateFormat: DatesDMY}, {}}
	if diff := cmp.Diff(want, src.Formats); diff != "" {
		t.Errorf("formats (-want +got):\n%s", diff)
	}
}

func TestLoadCSVSettingsRefused(t *testing.T) {
	table := func(extra string) string {
		return "  - label: Vendas\n    name: vendas\n    kind: fact\n" + extra +
			"    columns:\n      - {name: VALOR, label: Valor, type: number}\n      - {name: ID, label: Id, type: number}\n"
	}
	tests := []struct {
		name, tables, csv string
		want              string
	}{
		{"csv without file", table("    csv: {decimal: \",\"}\n"), "",
			`apps/vendas/app.yaml:6: tables[0].csv: a tabela não tem file, então não há CSV para ler; informe file ou remova csv`},
		{"an unknown encoding", table("    file: vendas.csv\n    csv: {encoding: latin9}\n"), "VALOR,ID\n1,1\n",
			`apps/vendas/app.yaml:7: tables[0].csv.encoding: o valor "latin9" não é aceito; use um de: utf-8, windows-1252, iso-8859-1.`},
		{"an ambiguous file names the setting when loading", table("    file: vendas.csv\n"), "ID;VALOR\n1;1.000\n",
			`apps/vendas/vendas.csv:2: VALOR: não dá para saber se "1.000" é 1000 ou 1: nenhum número do arquivo mostra se o "." separa milhar ou decimal; declare csv.decimal: "," (como em 1.234,56) ou csv.decimal: "." (como em 1,234.56) na tabela "vendas" do app.yaml`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(ptbrWorkspace(tt.tables, map[string]string{"vendas.csv": tt.csv}), "workspace.yaml")
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Load error = %v (%T), want Errors", err, err)
			}
			if got := errs[0].Error(); got != tt.want {
				t.Errorf("error\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// The one-pass number reading gives the float ParseFloat gives for the same digits, and the
// day arithmetic the time time.Date gives, for values of every size.
func TestFastPathsAgree(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var values []string
	for range 50_000 {
		intDigits, fracDigits := rnd.IntN(20), rnd.IntN(12)
		var b strings.Builder
		b.WriteByte(byte('1' + rnd.IntN(9)))
		for range intDigits {
			b.WriteByte(byte('0' + rnd.IntN(10)))
		}
		if fracDigits > 0 {
			b.WriteByte('.')
			for range fracDigits {
				b.WriteByte(byte('0' + rnd.IntN(10)))
			}
		}
		values = append(values, b.String())
	}
	got, err := readFormat(t, "N\n"+strings.Join(values, "\n")+"\n", Format{}, numCol)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range values {
		want, _ := strconv.ParseFloat(s, 64)
		if v := got.vals[i][0].(float64); v != want {
			t.Fatalf("%s read as %v, ParseFloat gives %v", s, v, want)
		}
	}
	for range 100_000 {
		c := civil{y: rnd.IntN(10000), m: 1 + rnd.IntN(12), d: 1 + rnd.IntN(28), hh: rnd.IntN(24), mi: rnd.IntN(60), ss: rnd.IntN(60)}
		if got, want := c.time(), time.Date(c.y, time.Month(c.m), c.d, c.hh, c.mi, c.ss, 0, time.UTC); got != want {
			t.Fatalf("%+v: %v, time.Date gives %v", c, got, want)
		}
	}
}
