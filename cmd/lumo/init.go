package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/lumo-caderninho/mcp/impl/lumo/scaffold"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// initWorkspace is `lumo init FILE...`: a workspace for the user's own files, then the commands
// that import and serve it.
func initWorkspace(args []string, stdout io.Writer) error {
	res, err := scaffold.Init(args)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Escrevi %s e %s.\n", res.Workspace, res.App)
	for _, t := range res.Tables {
		kind := "dimensão"
		if t.Kind == "fact" {
			kind = "fato"
		}
		measures, dates, keys := 0, 0, 0
		for _, c := range t.Columns {
			switch {
			case c.Role == "measure":
				measures++
			case c.Type == "date" || c.Type == "datetime":
				dates++
			case c.Role == "key":
				keys++
			}
		}
		fmt.Fprintf(stdout, "  %s: tabela %s (%s, %s), %s: %s, %s, %s\n    %s\n", t.File, t.Label, kind,
			ptbr.Count(int(t.Rows), "linha", "linhas"), ptbr.Count(len(t.Columns), "coluna", "colunas"),
			ptbr.Count(measures, "medida", "medidas"), ptbr.Count(dates, "data", "datas"), ptbr.Count(keys, "chave", "chaves"), t.Detected)
	}
	fmt.Fprintf(stdout, "Usuário %s, token %s (está em workspace.yaml; guarde-o como uma senha).\n", res.Login, res.Token)
	fmt.Fprintf(stdout, "Confira o app.yaml e depois:\n  lumo import %s\n  lumo serve --user %s\n", filepath.Clean(res.Workspace), res.Login)
	return nil
}
