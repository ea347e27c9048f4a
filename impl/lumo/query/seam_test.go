package query

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"
)

// TestPlannerIgnoresTheEngine: the files that analyze, plan and rewrite a query neither import
// the engines' package nor name the renderer, so that the planner's rules hold alike on every
// engine (see the package doc).
func TestPlannerIgnoresTheEngine(t *testing.T) {
	renderSide := map[string]bool{"builder": true, "engine": true, "renderer": true, "Renderer": true, "RendererFor": true}
	for _, file := range []string{"request.go", "analyze.go", "plan.go", "rollup.go", "words.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "github.com/lumo-caderninho/mcp/impl/platform/sqldialect" {
				t.Errorf("%s imports %s", file, path)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && renderSide[id.Name] {
				t.Errorf("%s names %s", file, id.Name)
			}
			return true
		})
	}
}
