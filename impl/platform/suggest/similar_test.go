package suggest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSimilar(t *testing.T) {
	refs := []string{
		"Vendas.Id", "Vendas.Data", "Vendas.Valor da venda", "Vendas.VALOR_LIQ", "Vendas.Situação",
		"Lojas.Id", "Lojas.Loja", "Lojas.Cidade", "Metas.Mês", "Metas.Meta",
	}
	tests := []struct {
		name, s    string
		candidates []string
		want       []string
	}{
		// Two letters are no evidence: "id" inside "Cidade" or one edit away from "Ida" is noise.
		{"short query finds only its own column", "Id", refs, []string{"Vendas.Id", "Lojas.Id"}},
		{"short label among values", "Id", []string{"Ida", "Dia", "Cidade", "Ativa"}, []string{"Ida"}},
		{"two-letter substring is not a match", "Lo", refs, nil},
		{"short candidate inside a long query is not a match", "Vendas.Valid", []string{"Va", "Id"}, nil},
		{"three-letter substring is a match", "Cid", refs, []string{"Lojas.Cidade"}},
		{"bare column finds its table", "Valor da venda", refs, []string{"Vendas.Valor da venda"}},
		{"one typo in a short word", "Ativo", []string{"Ativa", "Inativa", "Cancelada"}, []string{"Ativa"}},
		{"typo in a ref", "Lojas.Cidad", refs, []string{"Lojas.Cidade", "Lojas.Id"}},
		{"a table name is not a column", "Lojas.Lojx", refs, []string{"Lojas.Loja"}},
		{"column part of a longer ref", "Vendas.Valor da vendas", refs, []string{"Vendas.Valor da venda"}},
		{"accents and case are ignored", "vendas.situacao", refs, []string{"Vendas.Situação"}},
		{"old syntax", "[Vendas].[Valor da venda]", refs, []string{"Vendas.Valor da venda"}},
		{"swapped letters are one edit", "bai", []string{"bia", "ana"}, []string{"bia"}},
		{"far edits are dropped", "Meta", []string{"Mesa", "Data", "Loja"}, []string{"Mesa"}},
		// Substring matches (score 0) come before edit distances, then candidate order.
		{"ordering", "Ativa", []string{"Ativo", "Inativa", "Ativas"}, []string{"Inativa", "Ativas", "Ativo"}},
		{"at most n", "Vendas", refs, []string{"Vendas.Id", "Vendas.Data", "Vendas.Valor da venda", "Vendas.VALOR_LIQ", "Vendas.Situação"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, Similar(tt.s, tt.candidates, 5)); d != "" {
				t.Errorf("Similar(%q) (-want +got):\n%s", tt.s, d)
			}
		})
	}
}
