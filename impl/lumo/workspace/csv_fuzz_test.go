package workspace

import (
	"errors"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// FuzzRows feeds the lumo importer's CSV reader arbitrary files against a table of every column
// type: it never panics, every problem is an *Error (or Errors, for the header) naming the file, a
// line and a Portuguese message, and every value it yields has its column's Go type.
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
					_, ok = v.(float64)
				case semantic.TypeString:
					var s string
					s, ok = v.(string)
					ok = ok && utf8.ValidString(s)
				case semantic.TypeDate, semantic.TypeDatetime:
					var tm time.Time
					tm, ok = v.(time.Time)
					ok = ok && tm.Location() == time.UTC
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
