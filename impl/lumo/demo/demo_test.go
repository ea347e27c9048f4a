package demo

import (
	"io/fs"
	"testing"
)

func TestLumoIsRootedAtWorkspace(t *testing.T) {
	for _, name := range []string{
		"workspace.yaml",
		"apps/vendas/app.yaml",
		"apps/vendas/vendas.csv",
		"apps/vendas-financeiro/app.yaml",
		"apps/vendas-outra/app.yaml",
		"apps/estoque/app.yaml",
	} {
		if _, err := fs.Stat(Lumo, name); err != nil {
			t.Errorf("stat %s: %v", name, err)
		}
	}
}
