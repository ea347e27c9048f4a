package scaffold

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
)

// parquetHeader is the top-level column names of s's Parquet file (or first part), in schema
// order. They are asked of the importer's own reader, against a table without columns: it checks
// the file (footer, bounds, codecs) as the import does, then names every column of the schema as
// one the table lacks (Field is the name). Any other problem is the file's.
func parquetHeader(fsys fs.FS, s source) ([]string, error) {
	rows, err := workspace.OpenRows(fsys, s.file, &semantic.Table{Name: "t"}, workspace.Format{})
	if err == nil {
		rows.Close()
		return nil, fmt.Errorf("%s: o arquivo Parquet não tem colunas", s.file)
	}
	var errs workspace.Errors
	if !errors.As(err, &errs) {
		return nil, err
	}
	var names []string
	seen := map[string]bool{}
	for _, e := range errs {
		if e.Field == "" {
			return nil, err
		}
		if !seen[e.Field] {
			seen[e.Field] = true
			names = append(names, e.Field)
		}
	}
	return names, nil
}
