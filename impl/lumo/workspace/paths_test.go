package workspace

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// pathsApp is a workspace whose app has tables A (fact), B, C, D (dimensions, key ID, foreign
// keys X and Y) and the given relationships.
func pathsApp(relationships string) fstest.MapFS {
	table := func(label, kind string) string {
		return "  - label: " + label + "\n    name: " + strings.ToLower(label) + "\n    kind: " + kind + "\n    columns:\n" +
			"      - {name: ID, label: Id, type: number, role: key}\n" +
			"      - {name: X, label: X, type: number, role: key}\n" +
			"      - {name: Y, label: Y, type: number, role: key}\n"
	}
	app := "name: P\ntables:\n" + table("A", "fact") + table("B", "dimension") + table("C", "dimension") + table("D", "dimension") +
		"relationships:\n" + relationships
	return fstest.MapFS{
		"workspace.yaml": {Data: []byte("tenants:\n  - key: t\n    name: T\n    users:\n      - {login: u, name: U, token: tok-u-123456}\n" +
			"    desks:\n      - {name: M, members: [u]}\n    apps:\n      - {key: p, source: app, desk: M}\n")},
		"app/app.yaml": {Data: []byte(app)},
	}
}

func TestCheckPaths(t *testing.T) {
	tests := []struct {
		name, relationships, want string // want "" = accepted
	}{
		{"star", "  - {from: A.X, to: B.Id}\n  - {from: A.Y, to: C.Id}\n", ""},
		{"snowflake", "  - {from: A.X, to: B.Id}\n  - {from: B.X, to: C.Id}\n  - {from: C.X, to: D.Id}\n", ""},
		{"cycle back to the start", "  - {from: A.X, to: B.Id}\n  - {from: B.X, to: A.Id}\n", ""},
		{"cycle inside", "  - {from: A.X, to: B.Id}\n  - {from: B.X, to: C.Id}\n  - {from: C.X, to: B.Id}\n", ""},
		{"self", "  - {from: B.X, to: B.Id}\n", ""},
		{"two keys into one table", "  - {from: A.X, to: B.Id}\n  - {from: A.Y, to: B.Id}\n",
			`app/app.yaml:33: relationships[1]: a tabela B é alcançada a partir de A por dois caminhos: A → B (relationships[0]: A.X = B.Id) e A → B (relationships[1]: A.Y = B.Id)`},
		{"paths of different lengths", "  - {from: A.X, to: B.Id}\n  - {from: B.X, to: C.Id}\n  - {from: A.Y, to: C.Id}\n",
			// breadth first: the shorter path is the one found first
			`app/app.yaml:33: relationships[1]: a tabela C é alcançada a partir de A por dois caminhos: A → C (relationships[2]: A.Y = C.Id) e A → B → C (relationships[0]: A.X = B.Id; relationships[1]: B.X = C.Id)`},
		{"diamond below a dimension", "  - {from: B.X, to: C.Id}\n  - {from: B.Y, to: D.Id}\n  - {from: C.X, to: A.Id}\n  - {from: D.X, to: A.Id}\n",
			`app/app.yaml:35: relationships[3]: a tabela A é alcançada a partir de B por dois caminhos: B → C → A (relationships[0]: B.X = C.Id; relationships[2]: C.X = A.Id) e B → D → A (relationships[1]: B.Y = D.Id; relationships[3]: D.X = A.Id)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(pathsApp(tt.relationships), "workspace.yaml")
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var errs Errors
			if !errors.As(err, &errs) || len(errs) != 1 {
				t.Fatalf("Load error = %v, want one error", err)
			}
			if got := errs[0].Error(); !strings.HasPrefix(got, tt.want+"; uma consulta não teria como escolher.") {
				t.Errorf("error =\n%s\nwant it to start with\n%s", got, tt.want)
			}
		})
	}
}
