package workspace

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

func table(cols ...[2]string) *semantic.Table {
	t := &semantic.Table{Label: "T", Name: "t"}
	for _, c := range cols {
		t.Columns = append(t.Columns, &semantic.Column{Table: t, Name: c[0], Label: c[0], Type: c[1]})
	}
	return t
}

func day(y, m, d, hh, mm, ss int) time.Time {
	return time.Date(y, time.Month(m), d, hh, mm, ss, 0, time.UTC)
}

func TestRows(t *testing.T) {
	tbl := table([2]string{"N", "number"}, [2]string{"S", "string"}, [2]string{"D", "date"}, [2]string{"DT", "datetime"})
	tests := []struct {
		name   string
		csv    string
		want   [][]any
		scales []int
	}{
		{"null and empty text are distinct",
			"N,S,D,DT\n1,\\N,\\N,\\N\n2,,,\n",
			[][]any{{1.0, nil, nil, nil}, {2.0, "", nil, nil}}, []int{0, 0, 0, 0}},
		{"header in another order, quotes, CRLF and a BOM",
			"\uFEFFDT,S,N,D\r\n2026-01-02 03:04,\"a, \"\"b\"\"\",-1.50,2026-12-31\r\n2026-01-02 03:04:05,São João,10,2024-02-29\r\n",
			[][]any{{-1.5, `a, "b"`, day(2026, 12, 31, 0, 0, 0), day(2026, 1, 2, 3, 4, 0)},
				{10.0, "São João", day(2024, 2, 29, 0, 0, 0), day(2026, 1, 2, 3, 4, 5)}}, []int{2, 0, 0, 0}},
		{"scale is the most decimals seen; a bare date is midnight",
			"N,S,D,DT\n0.1,x,2026-01-01,2026-01-01\n2.125,y,2026-01-01,2026-01-01 23:59:59\n3,z,2026-01-01,2026-01-01 00:00\n",
			[][]any{{0.1, "x", day(2026, 1, 1, 0, 0, 0), day(2026, 1, 1, 0, 0, 0)},
				{2.125, "y", day(2026, 1, 1, 0, 0, 0), day(2026, 1, 1, 23, 59, 59)},
				{3.0, "z", day(2026, 1, 1, 0, 0, 0), day(2026, 1, 1, 0, 0, 0)}}, []int{3, 0, 0, 0}},
		{"header only", "N,S,D,DT\n", nil, []int{0, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"t.csv": {Data: []byte(tt.csv)}}
			rows, err := OpenRows(fsys, "t.csv", tbl, Format{})
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var got [][]any
			for rows.Next() {
				got = append(got, append([]any(nil), rows.Values()...))
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.scales, rows.Scales()); diff != "" {
				t.Errorf("scales (-want +got):\n%s", diff)
			}
			if rows.Count() != int64(len(tt.want)) {
				t.Errorf("Count() = %d", rows.Count())
			}
		})
	}
}

func TestRowsErrors(t *testing.T) {
	tbl := table([2]string{"N", "number"}, [2]string{"S", "string"}, [2]string{"D", "date"}, [2]string{"DT", "datetime"})
	tests := []struct {
		name, csv string
		want      *Error
	}{
		{"empty file", "", &Error{File: "t.csv", Line: 1, Message: "o arquivo está vazio; a primeira linha precisa ser o cabeçalho com os nomes físicos das colunas"}},
		{"duplicated header", "N,S,D,DT,N\n", &Error{File: "t.csv", Line: 1, Field: "N", Message: `a coluna "N" aparece duas vezes no cabeçalho; deixe uma só`}},
		{"too many values", "N,S,D,DT\n1,a,2026-01-01,2026-01-01\n1,a,b,2026-01-01,2026-01-01\n",
			&Error{File: "t.csv", Line: 3, Message: "a linha tem 5 valores, mas o cabeçalho tem 4 colunas; confira as vírgulas (um texto com vírgula vai entre aspas)"}},
		{"thousands separator", "N,S,D,DT\n1.000.50,a,2026-01-01,2026-01-01\n",
			&Error{File: "t.csv", Line: 2, Field: "N", Message: `o valor "1.000.50" não é um número com ponto decimal (ex.: 1234.56, 1,234.56, R$ -10.00 ou 25%), nem \N para nulo`}},
		{"exponent", "N,S,D,DT\n1e5,a,2026-01-01,2026-01-01\n",
			&Error{File: "t.csv", Line: 2, Field: "N", Message: `o valor "1e5" não é um número com ponto decimal (ex.: 1234.56, 1,234.56, R$ -10.00 ou 25%), nem \N para nulo`}},
		{"two date formats", "N,S,D,DT\n1,a,01/02/2026,2026-01-01\n",
			&Error{File: "t.csv", Line: 2, Field: "D", Message: `o arquivo escreve datas de mais de um jeito: "2026-01-01" (linha 2, coluna DT) e "01/02/2026" (linha 2, coluna D); escreva todas do mesmo jeito (de preferência AAAA-MM-DD) e declare csv.dateFormat na tabela "t" do app.yaml`}},
		{"hour 24", "N,S,D,DT\n1,a,2026-01-01,2026-01-01 24:00\n",
			&Error{File: "t.csv", Line: 2, Field: "DT", Message: `o valor "2026-01-01 24:00" não é uma data e hora AAAA-MM-DD HH:MM[:SS] válida (ex.: 2026-09-30 14:05), nem \N para nulo`}},
		{"bare quote", "N,S,D,DT\n1,a,2026-01-01,2026-01-01\n1,a\"b,2026-01-01,2026-01-01\n",
			&Error{File: "t.csv", Line: 3, Message: `há aspas no meio de um valor sem aspas; ponha o valor inteiro entre aspas e dobre as aspas de dentro ("")`}},
		{"not utf-8 after a UTF-8 start", "N,S,D,DT\n" + strings.Repeat("1,a,2026-01-01,2026-01-01\n", 3000) + "1,S\xe3o,2026-01-01,2026-01-01\n",
			&Error{File: "t.csv", Line: 3002, Field: "S", Message: `o texto não está em UTF-8; salve o arquivo com a codificação UTF-8, ou, se ele está em Windows-1252 ou ISO-8859-1, declare csv.encoding na tabela "t" do app.yaml (o início do arquivo era UTF-8)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"t.csv": {Data: []byte(tt.csv)}}
			rows, err := OpenRows(fsys, "t.csv", tbl, Format{})
			if err == nil {
				for rows.Next() {
				}
				rows.Close()
				err = rows.Err()
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
