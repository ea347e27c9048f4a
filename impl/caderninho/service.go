// Package caderninho implements the caderninho MCP tools: the bank's origin view (accounts,
// transactions, bills), import requests and the planning reads over the effective view (origin
// plus edits and manual records), over cadstore.
package caderninho

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/cadstore"
	"github.com/lumo-caderninho/mcp/impl/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/schemacheck"
	"github.com/lumo-caderninho/mcp/schemas"
)

// Identity names the assistant a request acts for: the installation's local assistant on
// stdio, or the owner of the bearer token on HTTP.
type Identity func(ctx context.Context, extra *mcp.RequestExtra) (string, error)

// Fixed is the Identity of a stdio server: every request acts as name.
func Fixed(name string) Identity {
	return func(context.Context, *mcp.RequestExtra) (string, error) { return name, nil }
}

// FromToken is the Identity of an HTTP server: the bearer token's verifier stored the name.
func FromToken() Identity {
	return func(ctx context.Context, extra *mcp.RequestExtra) (string, error) {
		if extra == nil || extra.TokenInfo == nil || extra.TokenInfo.UserID == "" {
			return "", errors.New("request without an authenticated assistant")
		}
		return extra.TokenInfo.UserID, nil
	}
}

// LocalAssistant is who a stdio server acts as.
const LocalAssistant = "assistente local"

// Service answers caderninho requests.
type Service struct {
	Store    *cadstore.Store
	Identity Identity
	Log      *slog.Logger

	// syncs are the import requests this process runs, so a call can wait for its own.
	syncs sync.Map // request id -> chan struct{} closed when done
}

// Options of a caderninho MCP server.
type Options struct {
	ValidateOutput bool
}

// Version is the server version announced at initialize.
const Version = "0.1.0"

// NewServer builds the MCP server with every caderninho tool.
func NewServer(svc *Service, opts Options) (*mcp.Server, error) {
	set, err := schemacheck.Compile(schemas.FS, "caderninho")
	if err != nil {
		return nil, err
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "caderninho", Title: "Caderninho", Version: Version}, &mcp.ServerOptions{
		Logger:       svc.Log,
		Instructions: instructions,
	})
	b := &mcpserver.Binder{FS: schemas.FS, Dir: "caderninho", Schemas: set, Log: svc.Log, ValidateOutput: opts.ValidateOutput, TextJSON: true}
	for _, t := range svc.Tools() {
		if err := b.Add(srv, t); err != nil {
			return nil, err
		}
	}
	return srv, nil
}

// instructions repeat the contract's rules a client must keep (spec: caderninho-contracts).
const instructions = "O caderninho mostra as finanças da casa. As quatro ferramentas caderninho_* preservam a visão bancária da origem: " +
	"contas e cartões (caderninho_accounts), transações (caderninho_transactions), faturas (caderninho_bills) e o pedido de importação " +
	"dos extratos novos (caderninho_sync). As ferramentas de planejamento usam a visão efetiva com edições e registros manuais: " +
	"plan_transactions, plan_totals e plan_categories. O catálogo de ferramentas informa o efeito de cada chamada. Consultas e prévias leem; " +
	"escritas alteram dados locais; caderninho_sync pede uma importação. Todas as escritas são locais. Nenhuma ferramenta paga faturas, " +
	"envia Pix, contrata crédito ou altera um registro na instituição.\n" +
	"Um filtro de pessoa seleciona dados para a consulta, mas não limita o acesso de um assistente autorizado: ele pode consultar " +
	"todos os titulares da instalação.\n" +
	"Campos como amountMinor e totalMinor são strings de unidades menores da moeda. Em BRL, \"10000\" representa R$ 100,00. " +
	"Não converta valores grandes para ponto flutuante nem some moedas diferentes. null representa um valor desconhecido. " +
	"Preserve contagem de desconhecidos e subtotais conhecidos. Um valor ausente não representa zero.\n" +
	"Use o cursor com os mesmos filtros e a mesma revisão. Para totais, use uma ferramenta agregadora de toda a seleção. " +
	"Uma página de transações não é o total do período. " +
	"Em RESTART_REQUIRED, descarte o cursor e refaça a leitura. Não misture páginas de revisões diferentes.\n" +
	"partial, truncated, cobertura, último sucesso e dia de referência explicam limites diferentes. " +
	"partial: false não garante dados recentes nem todo o histórico disponibilizado pelo banco."

var (
	readOnly = mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false), DestructiveHint: new(false)}
	// syncAnnotations: it changes local data (imports), reaches the statement folders (open
	// world) and is retry-safe through its idempotency key.
	syncAnnotations = mcp.ToolAnnotations{ReadOnlyHint: false, IdempotentHint: true, OpenWorldHint: new(true), DestructiveHint: new(false)}
)

// Tools is the explicit list of caderninho tools this server answers.
func (s *Service) Tools() []mcpserver.Tool {
	return []mcpserver.Tool{
		{
			Name:  "caderninho_accounts",
			Title: "Contas e cartões",
			Description: "Consulta (só leitura; não altera nada) as contas e cartões da instalação na visão bancária da origem: " +
				"instituição, titular, espaço, tipo, moeda, saldo {amountMinor, currency} no dia de referência e a cobertura dos extratos " +
				"(período coberto, último sucesso, última tentativa, último erro). Use primeiro, para conhecer os ids das contas e os limites dos dados. " +
				"Filtros opcionais: space, person, accounts.",
			Annotations: readOnly,
			Handler:     s.accounts,
		},
		{
			Name:  "caderninho_transactions",
			Title: "Transações bancárias",
			Description: "Consulta (só leitura; não altera nada) as transações bancárias como o banco informou, da mais recente para a mais antiga. " +
				"Filtros: accounts, person, space, from/to (datas locais, inclusivas), direction (in ou out) e text (todas as palavras, sem diferença de acento ou caixa). " +
				"Use para listar lançamentos; pagine com cursor: use o cursor com os mesmos filtros e a mesma revisão. " +
				"Uma página de transações não é o total do período. Informa partial, truncated e a cobertura de cada conta.",
			Annotations: readOnly,
			Handler:     s.transactions,
		},
		{
			Name:  "caderninho_bills",
			Title: "Faturas de cartão",
			Description: "Consulta (só leitura; não paga nada) as faturas de cartão de crédito: as fechadas, uma por extrato do cartão " +
				"(período, fechamento, vencimento quando conhecido, total informado pelo banco), e o ciclo aberto, marcado como estimativa " +
				"e explicando como foi estimado. Use para saber quanto cada cartão deve e o que já entrou na próxima fatura.",
			Annotations: readOnly,
			Handler:     s.bills,
		},
		{
			Name:  "caderninho_sync",
			Title: "Importar extratos novos",
			Description: "Pede uma importação dos extratos novos nas pastas das conexões (todas, ou as de connections) e devolve a solicitação " +
				"com seu estado e o resultado por conexão. Efeito: altera só dados locais (traz transações novas para a visão de origem e " +
				"aumenta a revisão dos espaços que mudaram); não acessa nem altera nada na instituição. Exige idempotency_key: repetir a mesma " +
				"chave com os mesmos argumentos devolve a mesma solicitação e seu estado, sem importar de novo; com a rede incerta, repita " +
				"apenas a mesma operação com a mesma chave. Use depois de salvar extratos " +
				"novos, ou para acompanhar uma importação em segundo plano (waitSeconds: 0 responde sem esperar).",
			Annotations: syncAnnotations,
			Handler:     s.sync,
		},
		{
			Name:  "plan_transactions",
			Title: "Visão efetiva: lançamentos",
			Description: "Consulta (só leitura; não altera nada) a visão efetiva do planejamento: as transações bancárias com as edições " +
				"(categoria, descrição, nota, fora dos totais) e os registros manuais, da mais recente para a mais antiga. " +
				"Filtros: space, person, accounts, from/to (datas locais, inclusivas), category, uncategorised, source (bank ou manual) e text. " +
				"amount null é um valor desconhecido, não zero. Pagine com cursor: use o cursor com os mesmos filtros e a mesma revisão. " +
				"Uma página de transações não é o total do período: para totais, use plan_totals.",
			Annotations: readOnly,
			Handler:     s.planTransactions,
		},
		{
			Name:  "plan_totals",
			Title: "Visão efetiva: totais",
			Description: "Consulta (só leitura; não altera nada) os totais de toda a seleção da visão efetiva (mesmos filtros de plan_transactions), " +
				"por moeda e nunca somando moedas diferentes: knownTotalMinor (string exata de unidades menores), knownCount e unknownCount " +
				"(valores null, desconhecidos, que não entram na soma). Registros fora dos totais são contados à parte. groupBy opcional: " +
				"category, month, person ou account. O texto diz o que os totais não sabem: valores desconhecidos e contas e períodos sem extrato.",
			Annotations: readOnly,
			Handler:     s.planTotals,
		},
		{
			Name:  "plan_categories",
			Title: "Categorias",
			Description: "Consulta (só leitura; não altera nada) as categorias de cada espaço, na ordem da instalação, com quantos registros " +
				"da visão efetiva usam cada uma e quantos estão sem categoria. Use para conhecer os nomes antes de filtrar por category.",
			Annotations: readOnly,
			Handler:     s.planCategories,
		},
	}
}

// decode turns schema-validated arguments into the generated input type.
func decode(args json.RawMessage, v json.Unmarshaler) error {
	if err := v.UnmarshalJSON(args); err != nil {
		return fmt.Errorf("decoding validated arguments: %w", err)
	}
	return nil
}
