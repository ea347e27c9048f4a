package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// TestParquetDirect: DuckDB may read a Parquet table itself only from the operating system's
// files, when every column converts as lumo converts it and every page passed lumo's bounds;
// otherwise the rows read the table as before, and name a page the bounds refused.
func TestParquetDirect(t *testing.T) {
	type part struct {
		ID    int64   `parquet:"ID"`
		NOME  string  `parquet:"NOME,dict"`
		VALOR int64   `parquet:"VALOR,decimal(2:12)"`
		ALVO  float64 `parquet:"ALVO"`
		HORA  int64   `parquet:"HORA,timestamp(millisecond:utc)"`
	}
	var rows []part
	for i := range 2000 {
		rows = append(rows, part{int64(i), []string{"Ana", "Bia", "Caio"}[i%3], int64(i), 0.5, int64(i) * 1000})
	}
	good := writeParquet(t, rows, parquet.Compression(&parquet.Snappy))
	type float32Part struct {
		ID    int64   `parquet:"ID"`
		NOME  string  `parquet:"NOME,dict"`
		VALOR int64   `parquet:"VALOR,decimal(2:12)"`
		ALVO  float32 `parquet:"ALVO"`
		HORA  int64   `parquet:"HORA,timestamp(millisecond:utc)"`
	}
	dir := t.TempDir()
	files := map[string][]byte{
		"good.parquet":    good,
		"float32.parquet": writeParquet(t, []float32Part{{1, "a", 2, 0.1, 0}}),
		"huge.parquet": patchPage(t, good, 1, func(h *format.PageHeader) {
			h.UncompressedPageSize = 1<<31 - 1
		}),
		"glob[1].parquet": good,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tbl := table([2]string{"ID", "number"}, [2]string{"NOME", "string"}, [2]string{"VALOR", "number"}, [2]string{"ALVO", "number"}, [2]string{"HORA", "datetime"})
	direct := func(fsys fs.FS, file string) (*DirectParquet, bool, Rows) {
		t.Helper()
		rows, err := OpenRows(fsys, file, tbl, Format{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rows.Close() })
		d, ok := Direct(rows, fsys)
		return d, ok, rows
	}

	d, ok, read := direct(DirFS(dir), "good.parquet")
	if !ok {
		t.Fatal("DuckDB may not read a file of integers, texts, DECIMALs, DOUBLEs and UTC TIMESTAMPs")
	}
	for read.Next() { // the rows still read the whole table, should DuckDB refuse it
	}
	if read.Err() != nil || read.Count() != 2000 {
		t.Errorf("after the checks the rows read %d rows (%v), want 2000", read.Count(), read.Err())
	}
	want := []DirectColumn{{Source: "ID", Kind: DirectNumber}, {Source: "NOME", Kind: DirectText}, {Source: "VALOR", Kind: DirectNumber, Scale: 2}, {Source: "ALVO", Kind: DirectFloat}, {Source: "HORA", Kind: DirectInstant}}
	if diff := cmp.Diff(want, d.Columns); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	if abs, _ := filepath.Abs(filepath.Join(dir, "good.parquet")); len(d.Files) != 1 || d.Files[0] != abs {
		t.Errorf("files %v, want %s", d.Files, abs)
	}
	if got := d.Describe(2000); got != "good.parquet: Parquet, 2.000 linhas" {
		t.Errorf("described as %q", got)
	}
	if _, ok, _ := direct(fstest.MapFS{"good.parquet": {Data: good}}, "good.parquet"); ok {
		t.Error("DuckDB may read a file that is not on the operating system's disk")
	}
	if _, ok, _ := direct(DirFS(dir), "float32.parquet"); ok {
		t.Error("DuckDB may read a FLOAT, which lumo reads as its shortest text")
	}
	if _, ok, _ := direct(DirFS(dir), "glob[1].parquet"); ok {
		t.Error("DuckDB may read a file whose name it would take for a pattern")
	}
	// A folder whose parts annotate the texts differently (STRING, ENUM) is one table, which
	// DuckDB does not read: it reads an ENUM otherwise.
	type enumPart struct {
		ID    int64   `parquet:"ID"`
		NOME  string  `parquet:"NOME,enum"`
		VALOR int64   `parquet:"VALOR,decimal(2:12)"`
		ALVO  float64 `parquet:"ALVO"`
		HORA  int64   `parquet:"HORA,timestamp(millisecond:utc)"`
	}
	if err := os.MkdirAll(filepath.Join(dir, "mixed"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"part-0.parquet": good, "part-1.parquet": writeParquet(t, []enumPart{{1, "a", 2, 0.1, 0}})} {
		if err := os.WriteFile(filepath.Join(dir, "mixed", name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, mixed := direct(DirFS(dir), "mixed"); ok {
		t.Error("DuckDB may read a folder with an ENUM part")
	} else {
		for mixed.Next() {
		}
		if mixed.Err() != nil || mixed.Count() != 2001 {
			t.Errorf("the folder read %d rows (%v), want 2001", mixed.Count(), mixed.Err())
		}
	}
	_, ok, huge := direct(DirFS(dir), "huge.parquet")
	if ok {
		t.Fatal("DuckDB may read a file whose dictionary declares 2 GiB")
	}
	for huge.Next() {
	}
	wantParquetErr(t, huge.Err(), "huge.parquet", "NOME", "2 GiB", "acima do limite de 64 MiB")
}
