package workspace

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// TestHugeLinesAndValuesAreRefused: a line over MaxLineBytes (with or without quotes before it)
// and a value over MaxValueBytes are refused with the file, the line and, for a value, its
// column, instead of being held whole.
func TestHugeLinesAndValuesAreRefused(t *testing.T) {
	table := &semantic.Table{Name: "t"}
	for _, n := range []string{"ID", "TEXTO"} {
		table.Columns = append(table.Columns, &semantic.Column{Table: table, Name: n, Type: "string"})
	}
	huge := strings.Repeat("x", MaxLineBytes+10)
	for name, c := range map[string]struct{ data, want string }{
		"a huge line":               {"ID,TEXTO\n1,a\n2," + huge + "\n", "t.csv:3: a linha passa de 16 MiB"},
		"a huge line after a quote": {"ID,TEXTO\n1,\"a\"\n2," + huge + "\n", "t.csv:3: a linha passa de 16 MiB"},
		"a huge value":              {"ID,TEXTO\n1," + strings.Repeat("y", MaxValueBytes+1) + "\n", "o valor da coluna TEXTO passa de 1 MiB"},
		"a huge quoted value":       {"ID,TEXTO\n1,\"" + strings.Repeat("y", MaxValueBytes+1) + "\"\n", "o valor da coluna TEXTO passa de 1 MiB"},
		"a million columns":         {"ID,TEXTO\n" + strings.Repeat("1,", 1_000_000) + "\n", "t.csv:2:"},
	} {
		rows, err := OpenRows(fstest.MapFS{"t.csv": {Data: []byte(c.data)}}, "t.csv", table, Format{})
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}
