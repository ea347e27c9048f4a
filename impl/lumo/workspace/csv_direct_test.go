package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestOpenDirectCSV: a plain CSV is read whole by lumo's reader and described for DuckDB (the
// field of each column, its largest number, whether its texts are ASCII and need their spaces
// folded); a file with a number written otherwise, a line break in a text or a row left out is
// read (up to that row) and left to lumo's reader; an encoded file, one whose sample shows the
// Brazilian format, or one outside the operating system's files is not read; a bad value is the
// reader's own error.
func TestOpenDirectCSV(t *testing.T) {
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
		d, ok := OpenDirectCSV(rows, fsys)
		if !ok {
			return nil, false, 0, nil
		}
		n := 0
		exact, err := d.Read(-1, func() bool { n++; return true })
		if !exact || err != nil {
			return nil, true, n, err
		}
		return d, true, n, nil
	}
	d, read, n, err := open(t, "DT,S,N,D\n2026-01-02 10:00,Ana,-12.5,2026-01-02\n,\"São, Paulo\",007,\\N\n2026-01-02,\" a\",,\n")
	if err != nil || !read || d == nil || n != 3 || d.Count != 3 || d.Width != 4 || d.Delimiter != ',' {
		t.Fatalf("a plain file: %+v, read %v, %d rows, %v", d, read, n, err)
	}
	want := []DirectColumn{{Source: "N", Kind: DirectNumber, Scale: 1, Field: 2, MaxAbs: 12.5, ASCII: true, Latin: true},
		{Source: "S", Kind: DirectText, Field: 1, Latin: true, Spaced: true}, {Source: "D", Kind: DirectDate, Field: 3, ASCII: true, Latin: true},
		{Source: "DT", Kind: DirectDatetime, Field: 0, ASCII: true, Latin: true}}
	if diff := cmp.Diff(want, d.Columns); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	// A rune past Latin Extended-B, or white space past ASCII, is folded by lumo's function.
	for _, text := range []string{"Ômega Ω", "São\u00a0Paulo"} {
		d, _, _, err := open(t, "DT,S,N,D\n,"+text+",,\n")
		if err != nil || d == nil || d.Columns[1].ASCII || d.Columns[1].Latin {
			t.Errorf("%q: %+v, %v; want a text column neither ASCII nor Latin", text, d, err)
		}
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
	if d, ok := OpenDirectCSV(rows, fsys); ok || d != nil || !rows.Next() {
		t.Errorf("a file outside the operating system's: %+v, %v; want not read, the rows as opened", d, ok)
	}
	_, read, _, err = open(t, "N,S,D,DT\n1,a,\\N,\\N\n1e5,b,\\N,\\N\n")
	if e, ok := err.(*Error); !read || !ok || e.Line != 3 || e.Field != "N" {
		t.Errorf("a bad number: read %v, %v; want the reader's error at line 3, column N", read, err)
	}
}

// TestDirectCSVSnapshot: the first rows read give a snapshot that the rest of the file does not
// change, while the table read whole shows what the later rows add (more decimals, a larger
// number, an accent, a run of spaces); each returning false stops the read.
func TestDirectCSVSnapshot(t *testing.T) {
	dir := t.TempDir()
	data := "N,S\n1.5,ana\n2.25,São  Paulo\n1000,x\n"
	if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := DirFS(dir)
	rows, err := OpenRows(fsys, "t.csv", table([2]string{"N", "number"}, [2]string{"S", "string"}), Format{})
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	d, ok := OpenDirectCSV(rows, fsys)
	if !ok {
		t.Fatal("a plain file is not DuckDB's to read")
	}
	if exact, err := d.Read(1, func() bool { return true }); !exact || err != nil || d.Count != 1 {
		t.Fatalf("the first row: exact %v, %v, %d rows", exact, err, d.Count)
	}
	first := d.Snapshot()
	if exact, err := d.Read(-1, func() bool { return true }); !exact || err != nil || d.Count != 3 {
		t.Fatalf("the rest: exact %v, %v, %d rows", exact, err, d.Count)
	}
	want := []DirectColumn{{Source: "N", Kind: DirectNumber, Scale: 1, MaxAbs: 1.5, ASCII: true, Latin: true}, {Source: "S", Kind: DirectText, Field: 1, ASCII: true, Latin: true}}
	if diff := cmp.Diff(want, first.Columns); diff != "" || first.Count != 1 || !slices.Equal(first.Scales(), []int{1, 0}) {
		t.Errorf("the snapshot changed with the rest (-want +got):\n%s; %d rows, scales %v", diff, first.Count, first.Scales())
	}
	want = []DirectColumn{{Source: "N", Kind: DirectNumber, Scale: 2, MaxAbs: 1000, ASCII: true, Latin: true}, {Source: "S", Kind: DirectText, Field: 1, Latin: true, Spaced: true}}
	if diff := cmp.Diff(want, d.Columns); diff != "" || !slices.Equal(d.Scales(), []int{2, 0}) {
		t.Errorf("the whole file (-want +got):\n%s; scales %v", diff, d.Scales())
	}

	rows, err = OpenRows(fsys, "t.csv", table([2]string{"N", "number"}, [2]string{"S", "string"}), Format{})
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	d, _ = OpenDirectCSV(rows, fsys)
	calls := 0
	if exact, err := d.Read(-1, func() bool { calls++; return calls < 2 }); exact || err != nil || calls != 2 {
		t.Errorf("a read stopped at the second row: exact %v, %v, %d rows read", exact, err, calls)
	}
}
