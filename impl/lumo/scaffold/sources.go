package scaffold

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/printable"
)

// source is one file (or folder of Parquet parts) a table or several may come from.
type source struct {
	file     string // relative to the folder, with /; "." for the folder itself
	kind     string // workspace.KindCSV, KindXLSX or KindParquet
	explicit bool   // named by the user
	parts    *workspace.ParquetFolder
	name     string // the folder's name, when file is "."
}

// dataExt are the extensions of the files lumo reads, by kind.
var dataExt = map[string]string{
	".csv": workspace.KindCSV, ".tsv": workspace.KindCSV, ".txt": workspace.KindCSV,
	".xlsx": workspace.KindXLSX, ".parquet": workspace.KindParquet,
}

// otherSheets are spreadsheet formats lumo does not read, with the fix.
var otherSheets = map[string]string{
	".xls":     "é do formato antigo do Excel (.xls), que o lumo não lê; abra-o no Excel e salve como Pasta de Trabalho do Excel (.xlsx)",
	".xlsm":    "é uma pasta de trabalho com macros (.xlsm), que o lumo não lê; salve uma cópia como Pasta de Trabalho do Excel (.xlsx)",
	".xlsb":    "é uma pasta de trabalho binária do Excel (.xlsb), que o lumo não lê; salve-a como Pasta de Trabalho do Excel (.xlsx)",
	".ods":     "é uma planilha do LibreOffice (.ods), que o lumo não lê; salve-a como Pasta de Trabalho do Excel (.xlsx)",
	".numbers": "é uma planilha do Numbers, que o lumo não lê; exporte-a para Excel (.xlsx)",
}

// Names with a control character (a line break, a tab, a terminal's escape) are refused: in
// app.yaml's comments and in the lines init prints they would read as something else.
const (
	controlFile   = "o nome do arquivo tem caracteres de controle (quebra de linha, tabulação ou outro caractere invisível); renomeie o arquivo para usá-lo"
	controlFolder = "o nome da pasta tem caracteres de controle (quebra de linha, tabulação ou outro caractere invisível); renomeie a pasta para usá-la"
)

// partName is how Spark, pandas and DuckDB name the parts of one table: part-00000-<uuid>.snappy.parquet,
// part-0.parquet, data_0.parquet.
var partName = regexp.MustCompile(`(?i)^(part[-_]|data_\d)`)

// expand turns paths into the folder to write in and its sources: one folder is every data file
// in it (and every subfolder of Parquet parts); otherwise each path is a file, or a folder of
// Parquet parts, of one folder. Files of the folder that are not data are skipped with the reason.
// withDB says PostgreSQL tables come too, so a folder without data files is no error.
func expand(paths []string, withDB bool) (dir string, out []source, skipped []Skipped, err error) {
	if len(paths) == 0 {
		return ".", nil, nil, nil
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return "", nil, nil, fmt.Errorf("%s: não encontrei o arquivo ou a pasta", printable.Name(p))
		}
	}
	if st, _ := os.Stat(paths[0]); len(paths) == 1 && st.IsDir() {
		dir = filepath.Clean(paths[0])
		if err := notAPartition(dir); err != nil {
			return "", nil, nil, err
		}
		out, skipped, err = folder(dir)
		if err == nil && len(out) == 0 && len(skipped) == 0 && !withDB {
			err = fmt.Errorf("%s: a pasta não tem arquivos de dados (.csv, .xlsx, .parquet ou pastas de partes Parquet)", printable.Name(dir))
		}
		return dir, out, skipped, err
	}
	dir = filepath.Dir(filepath.Clean(paths[0]))
	absDir, _ := filepath.Abs(dir)
	seen := map[string]bool{}
	for _, p := range paths {
		if abs, _ := filepath.Abs(filepath.Dir(filepath.Clean(p))); abs != absDir {
			return "", nil, nil, fmt.Errorf("os arquivos precisam estar na mesma pasta (%s e %s não estão); copie-os para uma pasta só", printable.Name(paths[0]), printable.Name(p))
		}
		base := filepath.Base(filepath.Clean(p))
		if st, _ := os.Stat(p); printable.HasControl(base) && st.IsDir() {
			return "", nil, nil, fmt.Errorf("%s: %s", printable.Name(p), controlFolder)
		} else if printable.HasControl(base) {
			return "", nil, nil, fmt.Errorf("%s: %s", printable.Name(p), controlFile)
		}
		if seen[base] {
			continue
		}
		seen[base] = true
		st, _ := os.Stat(p)
		if st.IsDir() {
			pf, err := parquetParts(dir, base)
			if err != nil {
				return "", nil, nil, err
			}
			if len(pf.Parts) == 0 {
				return "", nil, nil, fmt.Errorf("%s: a pasta não tem arquivos .parquet; junto com outros caminhos, uma pasta é uma tabela Parquet em partes (para usar uma pasta inteira, passe só ela)", printable.Name(p))
			}
			out = append(out, source{file: base, kind: workspace.KindParquet, explicit: true, parts: pf})
			continue
		}
		kind, why := fileKind(base)
		if why != "" {
			return "", nil, nil, fmt.Errorf("%s: %s", printable.Name(p), why)
		}
		out = append(out, source{file: base, kind: kind, explicit: true})
	}
	return dir, out, skipped, nil
}

// fileKind is how lumo reads a file by its name, or why it does not.
func fileKind(name string) (kind, why string) {
	ext := strings.ToLower(filepath.Ext(name))
	if k, ok := dataExt[ext]; ok {
		return k, ""
	}
	if why, ok := otherSheets[ext]; ok {
		return "", why
	}
	return "", "não é um arquivo que o lumo lê: CSV (.csv, .tsv, .txt), planilha do Excel (.xlsx) ou Parquet (.parquet, ou uma pasta de partes .parquet)"
}

// folder lists the sources of dir, in name order, and what it skips. Hidden files and our own
// workspace.yaml and app.yaml are passed over, a hidden data file saying so. A folder that is
// itself one Parquet table, its parts (part-0.parquet, data_0.parquet, ...) or its partitions
// (ano=2024/...), is one source, "." (its other data files are skipped, saying why).
func folder(dir string) (out []source, skipped []Skipped, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: a pasta não pôde ser lida: %v", printable.Name(dir), err)
	}
	parts, partitions := 0, 0
	for _, e := range entries {
		name := e.Name()
		_, why := fileKind(name)
		data := why == "" && !e.IsDir()
		switch {
		case printable.HasControl(name) && e.IsDir():
			skipped = append(skipped, Skipped{name + "/", controlFolder})
			continue
		case printable.HasControl(name):
			skipped = append(skipped, Skipped{name, controlFile})
			continue
		case name == "workspace.yaml" || name == "app.yaml":
			continue
		case strings.HasPrefix(name, "~$"):
			if data {
				skipped = append(skipped, Skipped{name, "é o arquivo temporário que o Excel cria enquanto a planilha está aberta; ignorado"})
			}
			continue
		case strings.HasPrefix(name, ".") || (e.IsDir() && strings.HasPrefix(name, "_")):
			if data {
				skipped = append(skipped, Skipped{name, "é um arquivo oculto (o nome começa com ponto); ignorado: renomeie-o para usá-lo"})
			}
			continue
		}
		if e.IsDir() || e.Type()&fs.ModeSymlink != 0 && isDir(filepath.Join(dir, name)) {
			if isPartition(name) {
				partitions++
				continue
			}
			pf, err := parquetParts(dir, name)
			if err != nil {
				skipped = append(skipped, Skipped{name + "/", reason(err, name)})
				continue
			}
			if len(pf.Parts) == 0 {
				skipped = append(skipped, Skipped{name + "/", "a subpasta não tem arquivos .parquet; o lumo init lê, das subpastas, só as de partes Parquet de uma tabela"})
				continue
			}
			out = append(out, source{file: name, kind: workspace.KindParquet, parts: pf})
			continue
		}
		kind, why := fileKind(name)
		if why != "" {
			skipped = append(skipped, Skipped{name, why})
			continue
		}
		if kind == workspace.KindParquet && partName.MatchString(name) {
			parts++
		}
		out = append(out, source{file: name, kind: kind})
	}
	if partitions == 0 && (parts == 0 || parts != len(out)) {
		return out, skipped, nil
	}
	// The folder is one table: its partitions, or every data file of it a part.
	pf, err := parquetParts(dir, ".")
	if err != nil {
		return nil, nil, err
	}
	table := folderName(dir)
	var rest []Skipped
	for _, s := range out {
		if !isParquetPart(s.file) || s.kind != workspace.KindParquet || partitions > 0 {
			rest = append(rest, Skipped{s.file, fmt.Sprintf("a pasta é a tabela Parquet %s, em partes; o que não é parte dela fica de fora: mova o arquivo para outra pasta para usá-lo", table)})
		}
	}
	for _, s := range skipped {
		if !strings.HasSuffix(s.What, "/") {
			rest = append(rest, s)
		}
	}
	return []source{{file: ".", kind: workspace.KindParquet, parts: pf, name: table}}, rest, nil
}

// isPartition reports whether a folder's name is a partition's, key=value.
func isPartition(name string) bool {
	k, _, ok := strings.Cut(name, "=")
	return ok && k != ""
}

// notAPartition refuses a folder that is a partition of a partitioned table (vendas/ano=2024):
// its rows lack the keys of the folders above, where the table is.
func notAPartition(dir string) error {
	name := folderName(dir)
	if !isPartition(name) {
		return nil
	}
	up := dir
	if abs, err := filepath.Abs(dir); err == nil {
		up = abs
	}
	for isPartition(filepath.Base(up)) && filepath.Dir(up) != up {
		up = filepath.Dir(up)
	}
	if wd, err := filepath.Abs("."); err == nil && !filepath.IsAbs(dir) {
		if rel, err := filepath.Rel(wd, up); err == nil && !strings.HasPrefix(rel, "..") {
			up = rel // as the user wrote the path: relative
		}
	}
	where := "em " + printable.Name(up)
	if up == "." {
		where = "nesta pasta (.)"
	}
	return fmt.Errorf("%s: a pasta é uma partição (%s) de uma tabela Parquet particionada; rode o lumo init %s, a pasta da tabela, ou na pasta de cima dela", printable.Name(dir), printable.Name(name), where)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// parquetParts lists the Parquet part files of folder name of dir, flat or partitioned, as the
// import reads them.
func parquetParts(dir, name string) (*workspace.ParquetFolder, error) {
	return workspace.ReadParquetFolder(workspace.DirFS(dir), name)
}

// isParquetPart is the import's rule: *.parquet, not hidden nor a writer's marker.
func isParquetPart(name string) bool {
	return strings.EqualFold(filepath.Ext(name), ".parquet") && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_")
}

// discover reads what tables s holds and their headers: a CSV or Parquet source is one table, a
// workbook one per sheet, named range or Excel table with a header row (the others skipped).
func (s source) discover(fsys fs.FS) ([]*Table, []Skipped, error) {
	base := strings.TrimSuffix(s.file, filepath.Ext(s.file))
	t := &Table{File: s.file, kind: s.kind, explicit: s.explicit, labelBase: base, Source: s.file}
	switch s.kind {
	case workspace.KindXLSX:
		return workbookTables(fsys, s)
	case workspace.KindParquet:
		names, err := parquetHeader(fsys, s)
		if err != nil {
			return nil, nil, err
		}
		for i, n := range names {
			if controlInHeader(n) {
				return nil, nil, fmt.Errorf("%s: o nome da coluna %d tem caracteres de controle, que não aparecem na tela (%s); renomeie a coluna ao gravar o arquivo", s.file, i+1, strconv.Quote(n))
			}
		}
		t.Source = s.file + " (Parquet)"
		if s.parts != nil {
			t.labelBase = s.file
			if s.file == "." {
				t.labelBase = s.name
			}
			t.Source = fmt.Sprintf("%s/ (Parquet, %s)", t.labelBase, s.parts.Words())
			t.partitions = s.parts.Keys
		}
		t.Columns = columnsOf(names)
	default:
		names, delim, err := readHeader(fsys, s.file)
		if err != nil {
			return nil, nil, err
		}
		t.Columns, t.delim = columnsOf(names), delim
	}
	if len(t.Columns) > maxColumns {
		return nil, nil, fmt.Errorf("%s: tem %d colunas, acima do limite de %d por tabela do app.yaml", s.file, len(t.Columns), maxColumns)
	}
	return []*Table{t}, nil, nil
}

// maxColumns is the most columns app.yaml's schema allows a table.
const maxColumns = 500

// columnsOf is a text column per header name, labelled from it as typed, with a physical name
// derived from it; the inference types them.
func columnsOf(names []string) []Column {
	cols := make([]Column, len(names))
	labels, physicals := map[string]bool{}, map[string]bool{}
	for i, n := range names {
		cols[i] = Column{Name: physicalFrom(n, physicals), Label: unique(labelFrom(n), labels, " %d"), Type: "string"}
		if cols[i].Name != n {
			cols[i].Header = n
		}
	}
	return cols
}
