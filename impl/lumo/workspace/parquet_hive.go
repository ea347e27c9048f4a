package workspace

import (
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// A folder of Parquet parts may be Hive-partitioned, as DuckDB (COPY ... PARTITION_BY), Spark
// and pandas/pyarrow write a table: vendas/ano=2024/mes=01/part-0.parquet. Every part then
// sits at the same depth under folders named key=value, with the same keys in the same order,
// and each key is a column of the table whose value, the same for every row of the part, comes
// from the folder's name (URL-escaped, as those writers escape it).

// hiveNull is the folder value Hive, Spark and pyarrow write for a NULL key; DuckDB up to 1.4
// wrote NULL, read as NULL in a column of numbers or dates.
const hiveNull = "__HIVE_DEFAULT_PARTITION__"

// maxPartitionDepth bounds how deep a partitioned folder's keys go.
const maxPartitionDepth = 16

// ParquetFolder is what a folder of Parquet parts holds: the part files, in name order, and
// for a partitioned folder the keys (outermost first) and each part's values.
type ParquetFolder struct {
	Parts  []string   // paths in the file system, in name order
	Keys   []string   // partition keys; none for a flat folder
	Values [][]string // per part, the value of each key as its folder names it, unescaped
}

// partitionDir reads a folder name key=value: the key and the unescaped value.
func partitionDir(name string) (key, value string, ok bool) {
	key, raw, ok := strings.Cut(name, "=")
	if !ok || key == "" {
		return "", "", false
	}
	if v, err := url.PathUnescape(raw); err == nil {
		raw = v
	}
	return key, raw, true
}

// hidden is a name the writers use for their own files and folders (_SUCCESS, _temporary,
// .part-0.crc), never data.
func hidden(name string) bool { return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") }

// ReadParquetFolder lists the parts of the folder dir of fsys: every *.parquet in it, or, for a
// partitioned folder, under its key=value folders. A subfolder that is no partition, parts at
// two depths, keys that differ between folders or a key twice in a path are refused naming the
// folder. A folder without parts gives no Parts and no error.
func ReadParquetFolder(fsys fs.FS, dir string) (*ParquetFolder, error) {
	pf := &ParquetFolder{}
	var keys []string // of the first part found
	var walk func(p string, ks, vals []string) error
	walk = func(p string, ks, vals []string) error {
		entries, err := fs.ReadDir(fsys, p)
		if err != nil {
			return &Error{File: p, Message: "a pasta não pôde ser lida: " + err.Error()}
		}
		for _, e := range entries { // in name order
			name := e.Name()
			if hidden(name) {
				continue
			}
			sub := path.Join(p, name)
			if !e.IsDir() {
				if !isParquetPart(name) {
					continue
				}
				if keys == nil {
					keys = append([]string{}, ks...)
				}
				if !slices.Equal(keys, ks) {
					return partsAtTwoDepths(dir, pf.Parts[0], sub)
				}
				if len(pf.Parts) >= maxParts {
					return &Error{File: dir, Message: fmt.Sprintf("a pasta tem mais de %d arquivos .parquet, o limite; junte-os em arquivos maiores", maxParts)}
				}
				pf.Parts = append(pf.Parts, sub)
				pf.Values = append(pf.Values, append([]string{}, vals...))
				continue
			}
			key, value, ok := partitionDir(name)
			if !ok {
				return &Error{File: sub, Message: fmt.Sprintf(
					"a pasta %s tem a subpasta %q, que não é uma partição (uma pasta nome=valor, como ano=2024); o lumo lê de uma pasta os arquivos .parquet dela ou os das suas partições: tire a subpasta dali", dir, name)}
			}
			for _, k := range ks {
				if k == key {
					return &Error{File: sub, Message: fmt.Sprintf("a partição %q aparece duas vezes no caminho %s; cada chave de partição vem uma vez só", key, sub)}
				}
			}
			if len(ks) >= maxPartitionDepth {
				return &Error{File: sub, Message: fmt.Sprintf("as partições passam de %d níveis de pastas, o limite", maxPartitionDepth)}
			}
			if keys != nil && (len(ks) >= len(keys) || keys[len(ks)] != key) {
				return partsAtTwoDepths(dir, pf.Parts[0], sub)
			}
			if err := walk(sub, append(ks, key), append(vals, value)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(dir, nil, nil); err != nil {
		return nil, err
	}
	pf.Keys = keys
	return pf, nil
}

// partsAtTwoDepths refuses a folder whose parts are not all under the same partition keys.
func partsAtTwoDepths(dir, first, other string) error {
	return &Error{File: other, Message: fmt.Sprintf(
		"as partes da pasta %s não estão todas sob as mesmas partições (%s e %s); uma tabela particionada tem as mesmas chaves, na mesma ordem, em todas as pastas (ano=2024/mes=01/...), e nenhum arquivo fora delas",
		dir, partitionPath(dir, first), partitionPath(dir, other))}
}

// partitionPath is p relative to dir, for a message.
func partitionPath(dir, p string) string {
	if rel, ok := strings.CutPrefix(p, dir+"/"); ok && dir != "." {
		return rel
	}
	return p
}

// Words is how the import names the folder's layout: "3 arquivos" or "particionado por ano e
// mes, 12 arquivos".
func (pf *ParquetFolder) Words() string {
	s := ptbr.Count(len(pf.Parts), "arquivo", "arquivos")
	if len(pf.Keys) > 0 {
		s = "particionado por " + ptbr.List(pf.Keys) + ", " + s
	}
	return s
}

// hiveNumber is a partition value a number column reads: an integer or a decimal with a point.
var hiveNumber = regexp.MustCompile(`^-?\d+(\.\d+)?$`)

// partitionValue is a partition's value as column c's type, its text as Rows.Text gives it and
// the decimals of a number; the problem when it is not one.
func partitionValue(c *semantic.Column, raw string) (v any, text string, scale int, msg string) {
	if raw == hiveNull || raw == "" || raw == "NULL" && c.Type != semantic.TypeString {
		return nil, "", 0, ""
	}
	switch c.Type {
	case semantic.TypeNumber:
		if !hiveNumber.MatchString(raw) {
			return nil, "", 0, "é número no app.yaml; declare-a string no app.yaml"
		}
		neg := strings.HasPrefix(raw, "-")
		digits := strings.TrimLeft(strings.TrimPrefix(raw, "-"), "0")
		if digits == "" || digits[0] == '.' {
			digits = "0" + digits
		}
		if neg && strings.Trim(digits, "0.") != "" {
			digits = "-" + digits
		}
		f, err := strconv.ParseFloat(digits, 64)
		if err != nil {
			return nil, "", 0, "é número no app.yaml; declare-a string no app.yaml"
		}
		if dot := strings.IndexByte(digits, '.'); dot >= 0 {
			scale = len(digits) - dot - 1
		}
		return boxFloat(f), digits, scale, ""
	case semantic.TypeDate, semantic.TypeDatetime:
		var cv civil
		datetime := c.Type == semantic.TypeDatetime
		if !parseISO(strings.Replace(raw, "T", " ", 1), datetime, &cv) {
			want := "data AAAA-MM-DD"
			if datetime {
				want = "data e hora AAAA-MM-DD HH:MM:SS"
			}
			return nil, "", 0, fmt.Sprintf("é %s no app.yaml (%s); declare-a string no app.yaml", typeWords[c.Type], want)
		}
		return cv.time(), string(cv.appendISO(nil, datetime)), 0, ""
	}
	if !utf8.ValidString(raw) {
		return nil, "", 0, "é texto, e o nome da pasta não está em UTF-8; renomeie a pasta"
	}
	return raw, raw, 0, ""
}
