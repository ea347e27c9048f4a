package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestReadDirectCSV: a plain CSV is read whole by lumo's reader and described for DuckDB (the
// field of each column, its largest number, whether its texts are ASCII and need their spaces
// folded); a file with a number written otherwise, a line break in a text or a row left out is
// read (up to that row) and left to lumo's reader; an encoded file, one whose sample shows the
// Brazilian format, or one outside the operating system's files is not read; a bad value is the
// reader's own error.
func TestReadDirectCSV(t *testing.T) {
	tbl := table([2]string{"N", "number"}, [2]string{"S", "string"}, [2]string{"D", "date"}, [2]string{"DT", "datetime"})
	open := func(t *testing.T, data string) (*DirectCSV, bool, int, error) {
		t.Helper()
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		fsys := DirFS(dir)
		rows, err := OpenRows(fsys, "t.csv", tbl, Format{})
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		n := 0
		d, read, err := ReadDirectCSV(rows, fsys, func() { n++ })
		return d, read, n, err
	}
	d, read, n, err := open(t, "DT,S,N,D\n2026-01-02 10:00,Ana,-12.5,2026-01-02\n,\"São, Paulo\",007,\\N\n2026-01-02,\" a\",,\n")
	if err != nil || !read || d == nil || n != 3 || d.Count != 3 || d.Width != 4 || d.Delimiter != ',' {
		t.Fatalf("a plain file: %+v, read %v, %d rows, %v", d, read, n, err)
	}
	want := []DirectColumn{{Source: "N", Kind: DirectNumber, Scale: 1, Field: 2, MaxAbs: 12.5, ASCII: true},
		{Source: "S", Kind: DirectText, Field: 1, Spaced: true}, {Source: "D", Kind: DirectDate, Field: 3, ASCII: true},
		{Source: "DT", Kind: DirectDatetime, Field: 0, ASCII: true}}
	if diff := cmp.Diff(want, d.Columns); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	if abs, _ := filepath.Abs(d.File); !strings.HasSuffix(d.File, "t.csv") || abs != d.File {
		t.Errorf("file %q, want the absolute path of t.csv", d.File)
	}
	for name, data := range map[string]string{
		"thousands":            "N,S,D,DT\n\"1,234.5\",a,\\N,\\N\n",
		"a percent":            "N,S,D,DT\n25%,a,\\N,\\N\n",
		"a line break in text": "N,S,D,DT\n1,\"a\nb\",\\N,\\N\n",
		"a total row":          "N,S,D,DT\n1,a,\\N,\\N\nTotal,,,\n",
		"separators only":      "N,S,D,DT\n1,a,\\N,\\N\n,,,\n",
	} {
		if d, read, _, err := open(t, data); err != nil || !read || d != nil {
			t.Errorf("%s: %+v, read %v, %v; want read and left to lumo's reader", name, d, read, err)
		}
	}
	for name, data := range map[string]string{
		"Windows-1252":      "N,S,D,DT\n1,Jo\xe3o,\\N,\\N\n",
		"Brazilian numbers": "N;S;D;DT\n1,5;a;\\N;\\N\n",
		"day-first dates":   "N,S,D,DT\n1,a,30/09/2026,\\N\n",
	} {
		if d, read, _, err := open(t, data); err != nil || read || d != nil {
			t.Errorf("%s: %+v, read %v, %v; want not read (the sample settles it)", name, d, read, err)
		}
	}
	fsys := fstest.MapFS{"t.csv": {Data: []byte("N,S,D,DT\n1,a,\\N,\\N\n")}}
	rows, err := OpenRows(fsys, "t.csv", tbl, Format{})
	if err != nil {
		t.Fatal(err)
	}
	if d, read, err := ReadDirectCSV(rows, fsys, func() {}); err != nil || read || d != nil || !rows.Next() {
		t.Errorf("a file outside the operating system's: %+v, read %v, %v; want not read, the rows as opened", d, read, err)
	}
	_, read, _, err = open(t, "N,S,D,DT\n1,a,\\N,\\N\n1e5,b,\\N,\\N\n")
	if e, ok := err.(*Error); !read || !ok || e.Line != 3 || e.Field != "N" {
		t.Errorf("a bad number: read %v, %v; want the reader's error at line 3, column N", read, err)
	}
}
