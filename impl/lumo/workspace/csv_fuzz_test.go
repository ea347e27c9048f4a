package workspace

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// FuzzRows feeds the lumo importer's CSV reader arbitrary files against a table of every column
// type: it never panics, every problem is an *Error (or Errors, for the header) naming the file, a
// line and a Portuguese message, every value it yields has its column's Go type, and the text
// beside each number and date is that value in the original format (point decimal, ISO dates).
//
//	go test ./impl/lumo/workspace -run '^$' -fuzz FuzzRows -fuzztime 30s
func FuzzRows(f *testing.F) {
	for _, seed := range []string{
		"N,S,D,DT\n1,\\N,\\N,\\N\n2,,,\n",
		"\uFEFFDT,S,N,D\r\n2026-01-02 03:04,\"a, \"\"b\"\"\",-1.50,2026-12-31\r\n2026-01-02 03:04:05,São João,10,2024-02-29\r\n",
		"N,S,D,DT\n1.5,x,2026-02-30,2026-01-01 24:00\n",
		"N,S,D,DT\n1,a\"b,2026-01-01,2026-01-01\n",
		"N,S,D,DT\n1,\"unterminated,2026-01-01,2026-01-01\n",
		"N,S,D\n1,2,3\n",
		"N,N,S,D,DT\n",
		"N,S,D,DT\n1,\xff\xfe,2026-01-01,2026-01-01 00:00:00\n1,2\n",
		"",
		// pt-BR exports
		"N;S;D;DT\n1.234,56;S\xe3o;30/09/2026;30/09/2026 14:05\nR$ -10,00;a;\\N;\\N\n",
		"N;S;D;DT;\r\n(R$ 1.000,00);\x93x\x94;13/01/26;13/01/26 00:00:59;\r\n;;;;\r\n\r\n25,5 %;b;;;\r\n",
		"N\tS\tD\tDT\n1,234.56\tx\t2026-01-02\t2026-01-02 03:04\nUS$ 1,000\t\"a\tb\"\t\\N\t\\N\n",
		"N|S|D|DT\n25%|a|31/12/2026|01/02/2026 10:00\n-0,5%|b|01/01/2026|\n",
		"N;S;D;DT\n1.000;a;01/02/2026;01/02/2026 10:00\n",
		"N;S;D;DT\n12,50;a;02/13/2026;\n1.5;b;;\n",
		"N;S;D;DT\nR$\xa01.234,56;a;;\n12,5\u00a0%;b;;\n(-1);c;;\n1.23,4;d;;\n",
		"\xff\xfeN\x00;\x00S\x00",
	} {
		f.Add([]byte(seed))
	}
	tbl := table([2]string{"N", "number"}, [2]string{"S", "string"}, [2]string{"D", "date"}, [2]string{"DT", "datetime"})
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{"t.csv": {Data: data}}
		rows, err := OpenRows(fsys, "t.csv", tbl, Format{})
		if err != nil {
			checkCSVError(t, err)
			return
		}
		defer rows.Close()
		if !strings.HasPrefix(rows.Description(), "t.csv: ") {
			t.Fatalf("description %q", rows.Description())
		}
		for rows.Next() {
			if rows.Line() < 2 {
				t.Fatalf("a data row on line %d", rows.Line())
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
					if back, err := strconv.ParseFloat(rows.Text(i), 64); ok && (err != nil || back != f) {
						t.Fatalf("number %v has the text %q", f, rows.Text(i))
					}
				case semantic.TypeString:
					var s string
					s, ok = v.(string)
					ok = ok && utf8.ValidString(s)
				case semantic.TypeDate, semantic.TypeDatetime:
					var tm time.Time
					tm, ok = v.(time.Time)
					ok = ok && tm.Location() == time.UTC
					back, good := parseDate(rows.Text(i))
					if tbl.Columns[i].Type == semantic.TypeDatetime {
						back, good = parseDatetime(rows.Text(i))
					}
					if ok && (!good || !back.Equal(tm)) {
						t.Fatalf("date %v has the text %q", tm, rows.Text(i))
					}
				}
				if !ok {
					t.Fatalf("column %s holds %T %v", tbl.Columns[i].Name, v, v)
				}
			}
		}
		if err := rows.Err(); err != nil {
			checkCSVError(t, err)
		}
	})
}

func checkCSVError(t *testing.T, err error) {
	t.Helper()
	var list Errors
	if errors.As(err, &list) {
		if len(list) == 0 {
			t.Fatal("an empty error list")
		}
		for _, e := range list {
			checkOneCSVError(t, e)
		}
		return
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("not a workspace error: %T %v", err, err)
	}
	checkOneCSVError(t, e)
}

func checkOneCSVError(t *testing.T, e *Error) {
	t.Helper()
	if e.File != "t.csv" || e.Line < 1 || e.Message == "" {
		t.Fatalf("an error without file, line or message: %+v", e)
	}
}
