package workspace

import (
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// isTotal's shortcut (a first byte that no total word starts with) answers as the folded match.
func TestIsTotalShortcutAgrees(t *testing.T) {
	for _, text := range []string{"Total", "TOTAL", " total geral:", "\tSubtotal", "Sub-total do mês", "Soma", "SOMA TOTAL",
		"Totais", "Total de outubro", "Totalizador", "Subtotal Centro", "São Paulo", "Śoma", "Ţotal", "\u00a0Total",
		"1", "-3,50", "05/10/2026", "Ana", "sandra", "tatu", "", " ", "Total parcial:", "* Total", "(Total)"} {
		want := totalRe.MatchString(strings.TrimRight(fold.Fold(text), ": "))
		if got := isTotal(text); got != want {
			t.Errorf("isTotal(%q) = %v, the folded match says %v", text, got, want)
		}
	}
	if !isTotal("Total geral:") || isTotal("123") {
		t.Error("isTotal misreads the plain cases")
	}
}
