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

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/restserver"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
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
		ti := auth.TokenInfoFromContext(ctx) // a REST call: the verifier put it on the request
		if extra != nil {
			ti = extra.TokenInfo
		}
		if ti == nil || ti.UserID == "" {
			return "", errors.New("request without an authenticated assistant")
		}
		return ti.UserID, nil
	}
}

// LocalAssistant is who a stdio server acts as.
const LocalAssistant = "assistente local"

// Service answers caderninho requests.
type Service struct {
	Store    *cadstore.Store
	Identity Identity
	Log      *slog.Logger

	// schemas are the tools' compiled schemas; plan_preview checks a write's arguments with them.
	schemas *schemacheck.Set
	// beforeCommit, when set, runs after a write's changes and before its commit; tests use it to
	// simulate a crash mid-write.
	beforeCommit func() error

	// syncs are the import requests this process runs, so a call can wait for its own.
	syncs sync.Map // request id -> chan struct{} closed when done
	// running counts those runs, so a short-lived process can let them finish before it exits.
	running sync.WaitGroup
}

// WaitBackground waits until the import requests this process started have finished, or ctx
// ends. A one-shot process calls it before exiting: otherwise its request is left running and
// only later counts as interrupted.
func (s *Service) WaitBackground(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Options of a caderninho MCP server.
type Options struct {
	ValidateOutput bool
	// MaxResultBytes bounds one answer (text, structuredContent and its JSON text block); 0 means
	// DefaultMaxResultBytes.
	MaxResultBytes int
	// ReadOnly publishes and serves only the tools that change nothing (readOnlyHint): no
	// planning write and no caderninho_sync.
	ReadOnly bool
}

// SoftMemoryLimit is the Go runtime's soft memory limit for every caderninho command (GOMEMLIMIT
// wins): an import's live data is about its largest OFX file and one statement's rows, well
// under it, and without it the collector let the heap grow to twice that (import peak 260-296
// MiB for two 61 MiB files; 210-257 MiB with it, at the same rate).
const SoftMemoryLimit = 200 << 20

// DefaultMaxResultBytes is the largest answer a caderninho tool gives: 4 MiB, as lumo's. A larger
// one is the error RESULT_TOO_LARGE with tooLargeSuggestions.
const DefaultMaxResultBytes = 4 << 20

// tooLargeSuggestions say how to ask caderninho for a smaller answer.
var tooLargeSuggestions = []string{
	"Peça menos linhas (limit), um período menor (from/to) ou filtre mais (accounts, person, space, text).",
}

// binder binds the tools to MCP and to the REST mirror with opts' checks and bounds.
func (s *Service) binder(set *schemacheck.Set, opts Options) *mcpserver.Binder {
	b := &mcpserver.Binder{FS: schemas.FS, Dir: "caderninho", Schemas: set, Log: s.Log, ValidateOutput: opts.ValidateOutput, TextJSON: true,
		MaxResultBytes: opts.MaxResultBytes, TooLargeSuggestions: tooLargeSuggestions}
	if b.MaxResultBytes <= 0 {
		b.MaxResultBytes = DefaultMaxResultBytes
	}
	return b
}

// served is the tools a server with opts publishes: with ReadOnly, only those that change nothing.
func (s *Service) served(opts Options) []mcpserver.Tool {
	var out []mcpserver.Tool
	for _, t := range s.Tools() {
		if opts.ReadOnly && !t.Annotations.ReadOnlyHint {
			continue
		}
		out = append(out, t)
	}
	return out
}

// Version is the server version announced at initialize: the module version, as --version says it.
var Version = cli.ModuleVersion()

// NewServer builds the MCP server with every caderninho tool.
func NewServer(svc *Service, opts Options) (*mcp.Server, error) {
	set, err := schemacheck.Compile(schemas.FS, "caderninho")
	if err != nil {
		return nil, err
	}
	svc.schemas = set
	instr := instructions
	if opts.ReadOnly {
		instr += readOnlyInstructions
	}
	// The tools never change while the server runs, so tools/list_changed is not advertised.
	srv := mcp.NewServer(&mcp.Implementation{Name: "caderninho", Title: "Caderninho", Version: Version}, &mcp.ServerOptions{
		Logger:       svc.Log,
		Instructions: instr,
		Capabilities: &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Tools: &mcp.ToolCapabilities{}},
	})
	b := svc.binder(set, opts)
	for _, t := range svc.served(opts) {
		if err := b.Add(srv, t); err != nil {
			return nil, err
		}
	}
	return srv, nil
}

// readOnlyInstructions tell a client of a read-only server why the writes are missing.
const readOnlyInstructions = "\nEste servidor está em modo somente leitura: só as consultas e plan_preview estão disponíveis; " +
	"as escritas de planejamento e caderninho_sync não existem aqui."

// instructions repeat the contract's rules a client must keep (spec: caderninho-contracts).
const instructions = "O caderninho mostra as finanças da casa. As quatro ferramentas caderninho_* preservam a visão bancária da origem: " +
	"contas e cartões (caderninho_accounts), transações (caderninho_transactions), faturas (caderninho_bills) e o pedido de importação " +
	"dos extratos novos (caderninho_sync). As ferramentas de planejamento usam a visão efetiva com edições e registros manuais: " +
	"plan_transactions, plan_totals, plan_categories, plan_budget e plan_rules (consultas); plan_preview (prévia de uma escrita, sem escrever); " +
	"plan_categorize, plan_edit_transaction, plan_add_record, plan_delete_record, plan_set_budget, plan_set_rule e plan_delete_rule (escritas locais). " +
	"As regras de cada espaço (plan_rules) categorizam sozinhas os movimentos bancários a cada importação; o que uma pessoa categoriza ou edita sempre vence. " +
	"O catálogo de ferramentas informa o efeito de cada chamada. Consultas e prévias leem; " +
	"escritas alteram dados locais; caderninho_sync pede uma importação. Todas as escritas são locais. Nenhuma ferramenta paga faturas, " +
	"envia Pix, contrata crédito ou altera um registro na instituição.\n" +
	"Um filtro de pessoa seleciona dados para a consulta, mas não limita o acesso de um assistente autorizado: ele pode consultar " +
	"todos os titulares da instalação.\n" +
	"Campos como amountMinor e totalMinor são strings de unidades menores da moeda. Em BRL, \"10000\" representa R$ 100,00. " +
	"Não converta valores grandes para ponto flutuante nem some moedas diferentes. null representa um valor desconhecido. " +
	"Preserve contagem de desconhecidos e subtotais conhecidos. Um valor ausente não representa zero.\n" +
	"Use o cursor com os mesmos filtros e a mesma revisão. Para totais, use uma ferramenta agregadora de toda a seleção. " +
	"Uma página de transações não é o total do período. " +
	"Em RESTART_REQUIRED, descarte o cursor e refaça a leitura. Não misture páginas de revisões diferentes. " +
	"Escritas por seleção ou período recusam seleções acima do limite atômico de 500 registros.\n" +
	"Toda escrita de planejamento exige o espaço explícito, confirmed: true e uma idempotency_key única para a solicitação. " +
	"Obtenha a confirmação do proprietário antes de executar. Uma repetição com a mesma chave e os mesmos argumentos normalizados " +
	"devolve o resultado durável anterior. Outra solicitação precisa de outra chave. Uma chave reutilizada para dados diferentes é recusada. " +
	"Com a rede incerta após uma escrita, repita apenas a mesma operação com a mesma chave.\n" +
	"partial, truncated, cobertura, último sucesso e dia de referência explicam limites diferentes. " +
	"partial: false não garante dados recentes nem todo o histórico disponibilizado pelo banco."

var (
	readOnly = mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false), DestructiveHint: new(false)}
	// syncAnnotations: it changes local data (imports), reaches the statement folders (open
	// world) and is retry-safe through its idempotency key.
	syncAnnotations = mcp.ToolAnnotations{ReadOnlyHint: false, IdempotentHint: true, OpenWorldHint: new(true), DestructiveHint: new(false)}
	// writeAnnotations: planning writes change local data only; the idempotency key makes a
	// repetition harmless.
	writeAnnotations = mcp.ToolAnnotations{ReadOnlyHint: false, IdempotentHint: true, OpenWorldHint: new(false), DestructiveHint: new(false)}
	// removeAnnotations: writes that can remove something (a manual record, a budget).
	removeAnnotations = mcp.ToolAnnotations{ReadOnlyHint: false, IdempotentHint: true, OpenWorldHint: new(false), DestructiveHint: new(true)}
)

// writeContract is what every planning write's description repeats.
const writeContract = " Efeito: altera só dados locais, numa transação (tudo ou nada), e aumenta a revisão do espaço; nada muda na instituição. " +
	"Uma escrita sem efeito (os dados já estavam assim) responde 0 mudanças e mantém a revisão. " +
	"Exige space, confirmed: true (obtenha a confirmação do proprietário antes de executar) e uma idempotency_key única; " +
	"expectedRevision opcional (outra revisão atual: RESTART_REQUIRED). Repetir a mesma chave com os mesmos argumentos devolve o " +
	"resultado durável anterior (replay: true), sem escrever de novo; com a rede incerta, repita apenas a mesma operação com a mesma chave. " +
	"Use plan_preview antes para mostrar o que mudará."

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
			Handler:     mcpserver.Typed(s.accounts),
		},
		{
			Name:  "caderninho_transactions",
			Title: "Transações bancárias",
			Description: "Consulta (só leitura; não altera nada) as transações bancárias como o banco informou, da mais recente para a mais antiga. " +
				"Filtros: accounts, person, space, from/to (datas locais, inclusivas), direction (in ou out) e text (todas as palavras, sem diferença de acento ou caixa). " +
				"Use para listar lançamentos; pagine com cursor: use o cursor com os mesmos filtros e a mesma revisão. " +
				"Uma página de transações não é o total do período. Informa partial, truncated e a cobertura de cada conta.",
			Annotations: readOnly,
			Handler:     mcpserver.Typed(s.transactions),
		},
		{
			Name:  "caderninho_bills",
			Title: "Faturas de cartão",
			Description: "Consulta (só leitura; não paga nada) as faturas de cartão de crédito: as fechadas, uma por extrato do cartão " +
				"(período, fechamento, vencimento quando conhecido, total informado pelo banco), e o ciclo aberto, marcado como estimativa " +
				"e explicando como foi estimado. Use para saber quanto cada cartão deve e o que já entrou na próxima fatura.",
			Annotations: readOnly,
			Handler:     mcpserver.Typed(s.bills),
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
			Handler:     mcpserver.Typed(s.sync),
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
			Handler:     mcpserver.Typed(s.planTransactions),
		},
		{
			Name:  "plan_totals",
			Title: "Visão efetiva: totais",
			Description: "Consulta (só leitura; não altera nada) os totais de toda a seleção da visão efetiva (mesmos filtros de plan_transactions), " +
				"por moeda e nunca somando moedas diferentes: knownTotalMinor (string exata de unidades menores), knownCount e unknownCount " +
				"(valores null, desconhecidos, que não entram na soma). Registros fora dos totais são contados à parte. groupBy opcional: " +
				"category, month, person ou account. O texto diz o que os totais não sabem: valores desconhecidos e contas e períodos sem extrato.",
			Annotations: readOnly,
			Handler:     mcpserver.Typed(s.planTotals),
		},
		{
			Name:  "plan_categories",
			Title: "Categorias",
			Description: "Consulta (só leitura; não altera nada) as categorias de cada espaço, na ordem da instalação, com quantos registros " +
				"da visão efetiva usam cada uma e quantos estão sem categoria. Use para conhecer os nomes antes de filtrar por category.",
			Annotations: readOnly,
			Handler:     mcpserver.Typed(s.planCategories),
		},
		{
			Name:  "plan_budget",
			Title: "Orçamento e realizado",
			Description: "Consulta (só leitura; não altera nada) o orçamento e o realizado por mês, categoria e moeda na visão efetiva: " +
				"budgetMinor, actual (knownTotalMinor, knownCount, unknownCount) e remainingMinor, strings exatas de unidades menores, " +
				"sem somar moedas. Valores null são desconhecidos e contados à parte. Filtros: space, from/to (meses AAAA-MM), category.",
			Annotations: readOnly,
			Handler:     mcpserver.Typed(s.planBudget),
		},
		{
			Name:  "plan_preview",
			Title: "Prévia de uma escrita",
			Description: "Prévia (só leitura; não escreve nada) do que uma escrita de planejamento mudaria: tool é a escrita e arguments os " +
				"argumentos dela. Devolve quantos registros mudariam, uma amostra de antes e depois, subtotais por moeda, overLimit " +
				"(seleção acima do limite atômico de 500 registros) e a revisão atual do espaço, para passar como expectedRevision.",
			Annotations: readOnly,
			Handler:     mcpserver.Typed(s.planPreview),
		},
		{
			Name:  "plan_categorize",
			Title: "Categorizar registros",
			Description: "Escrita local: aplica uma categoria do espaço (ou null, sem categoria) aos registros da visão efetiva, por ids " +
				"ou por selection (os filtros de plan_transactions). Escritas por seleção ou período recusam seleções acima do limite " +
				"atômico de 500 registros (SELECTION_TOO_LARGE, nada escrito). A categoria dada por uma pessoa vence as regras: nenhuma regra a muda depois. " +
				"Por ids, a resposta sugere a regra que teria feito essa categorização (suggestedRule, com quantos outros movimentos ela mudaria); " +
				"nada é criado sem confirmação: ofereça ao proprietário e, se ele aceitar, chame plan_set_rule." + writeContract,
			Annotations: writeAnnotations,
			Handler:     mcpserver.Typed(s.planCategorize),
		},
		{
			Name:  "plan_edit_transaction",
			Title: "Editar um registro",
			Description: "Escrita local: edita um registro da visão efetiva (transação bancária ou registro manual): category, description, " +
				"note, excludedFromTotals e splits (partes por categoria que somam exatamente o valor). A transação do banco não é alterada: " +
				"a edição fica numa camada própria e sobrevive a novas importações." + writeContract,
			Annotations: writeAnnotations,
			Handler:     mcpserver.Typed(s.planEditTransaction),
		},
		{
			Name:  "plan_add_record",
			Title: "Adicionar registro manual",
			Description: "Escrita local: adiciona um registro manual (dinheiro, uma conta fora dos extratos) ao espaço: day, amount " +
				"{amountMinor, currency} ou null quando o valor é desconhecido (não é zero), currency, description e, opcionais, person, " +
				"account, category, note, excludedFromTotals." + writeContract,
			Annotations: writeAnnotations,
			Handler:     mcpserver.Typed(s.planAddRecord),
		},
		{
			Name:  "plan_delete_record",
			Title: "Apagar registro manual",
			Description: "Escrita local: apaga um registro manual (manual:<id>). Transações bancárias não são apagadas: para tirá-las dos " +
				"totais, use plan_edit_transaction com excludedFromTotals: true." + writeContract,
			Annotations: removeAnnotations,
			Handler:     mcpserver.Typed(s.planDeleteRecord),
		},
		{
			Name:  "plan_set_budget",
			Title: "Definir orçamento",
			Description: "Escrita local: define o orçamento de um mês para uma categoria do espaço, numa moeda (amount {amountMinor, currency}); " +
				"amount null remove esse orçamento. Compare com o realizado em plan_budget." + writeContract,
			Annotations: removeAnnotations,
			Handler:     mcpserver.Typed(s.planSetBudget),
		},
		{
			Name:  "plan_rules",
			Title: "Regras de categorização",
			Description: "Consulta (só leitura; não altera nada) as regras de categorização de cada espaço, na ordem em que são avaliadas: " +
				"a condição (a descrição do banco contém, começa com ou é igual a um texto, sem diferença de acento ou caixa; opcionais: valor " +
				"sem sinal, conta, pessoa e direção), a categoria que a regra dá, quantos movimentos ela categoriza agora e uma amostra deles. " +
				"A primeira regra que um movimento bancário cumpre o categoriza, a cada importação; o que uma pessoa categorizou ou editou nunca muda. " +
				"Use para entender por que um movimento tem uma categoria (plan_transactions mostra categorisedBy e ruleId) e antes de criar ou mudar regras.",
			Annotations: readOnly,
			Handler:     mcpserver.Typed(s.planRules),
		},
		{
			Name:  "plan_set_rule",
			Title: "Criar ou substituir uma regra",
			Description: "Escrita local: cria uma regra de categorização no espaço, ou substitui a de id: quando a descrição do banco contém, " +
				"começa com ou é igual a when.bankDescription.text (sem diferença de acento ou caixa) e, se dados, o valor sem sinal fica entre " +
				"when.amountMin e when.amountMax (strings de unidades menores), a conta é when.account, o titular é when.person e a direção é " +
				"when.direction, o movimento bancário recebe category (e description, se dada). position ordena as regras (1 é a primeira " +
				"avaliada; as seguintes descem uma posição). A regra já categoriza os movimentos que passa a pegar, deixa os que não pega mais " +
				"e vale a cada importação; nunca muda o que uma pessoa categorizou ou editou. Uma categoria, conta ou pessoa que não existe é " +
				"recusada, com as parecidas." + writeContract,
			Annotations: writeAnnotations,
			Handler:     mcpserver.Typed(s.planSetRule),
		},
		{
			Name:  "plan_delete_rule",
			Title: "Apagar uma regra",
			Description: "Escrita local: apaga uma regra de categorização do espaço; as seguintes sobem uma posição. Os movimentos que ela " +
				"categorizava ficam sem categoria, ou com a da próxima regra que os pega; o que uma pessoa categorizou ou editou não muda." + writeContract,
			Annotations: removeAnnotations,
			Handler:     mcpserver.Typed(s.planDeleteRule),
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

// extraOf is the extra of the MCP request a tool call answers; nil outside one.
func extraOf(ctx context.Context) *mcp.RequestExtra {
	if req := mcpserver.Request(ctx); req != nil {
		return req.Extra
	}
	return nil
}

// The tools as the generated Handler interface: each method takes the generated input and returns
// the generated output model; the MCP tools run the same code (Tools) and add the text.
var _ caderninhoapi.Handler = (*Service)(nil)

func result[Out any](out Out, _ func() string, err error) (Out, error) { return out, err }

// CaderninhoAccounts answers caderninho_accounts.
func (s *Service) CaderninhoAccounts(ctx context.Context, in *caderninhoapi.CaderninhoAccountsInput) (*caderninhoapi.CaderninhoAccountsOutput, error) {
	return result(s.accounts(ctx, in))
}

// CaderninhoTransactions answers caderninho_transactions.
func (s *Service) CaderninhoTransactions(ctx context.Context, in *caderninhoapi.CaderninhoTransactionsInput) (*caderninhoapi.CaderninhoTransactionsOutput, error) {
	return result(s.transactions(ctx, in))
}

// CaderninhoBills answers caderninho_bills.
func (s *Service) CaderninhoBills(ctx context.Context, in *caderninhoapi.CaderninhoBillsInput) (*caderninhoapi.CaderninhoBillsOutput, error) {
	return result(s.bills(ctx, in))
}

// CaderninhoSync answers caderninho_sync.
func (s *Service) CaderninhoSync(ctx context.Context, in *caderninhoapi.CaderninhoSyncInput) (*caderninhoapi.CaderninhoSyncOutput, error) {
	return result(s.sync(ctx, in))
}

// PlanTransactions answers plan_transactions.
func (s *Service) PlanTransactions(ctx context.Context, in *caderninhoapi.PlanTransactionsInput) (*caderninhoapi.PlanTransactionsOutput, error) {
	return result(s.planTransactions(ctx, in))
}

// PlanTotals answers plan_totals.
func (s *Service) PlanTotals(ctx context.Context, in *caderninhoapi.PlanTotalsInput) (*caderninhoapi.PlanTotalsOutput, error) {
	return result(s.planTotals(ctx, in))
}

// PlanCategories answers plan_categories.
func (s *Service) PlanCategories(ctx context.Context, in *caderninhoapi.PlanCategoriesInput) (*caderninhoapi.PlanCategoriesOutput, error) {
	return result(s.planCategories(ctx, in))
}

// PlanBudget answers plan_budget.
func (s *Service) PlanBudget(ctx context.Context, in *caderninhoapi.PlanBudgetInput) (*caderninhoapi.PlanBudgetOutput, error) {
	return result(s.planBudget(ctx, in))
}

// PlanPreview answers plan_preview.
func (s *Service) PlanPreview(ctx context.Context, in *caderninhoapi.PlanPreviewInput) (*caderninhoapi.PlanPreviewOutput, error) {
	return result(s.planPreview(ctx, in))
}

// PlanCategorize answers plan_categorize.
func (s *Service) PlanCategorize(ctx context.Context, in *caderninhoapi.PlanCategorizeInput) (*caderninhoapi.PlanCategorizeOutput, error) {
	return result(s.planCategorize(ctx, in))
}

// PlanEditTransaction answers plan_edit_transaction.
func (s *Service) PlanEditTransaction(ctx context.Context, in *caderninhoapi.PlanEditTransactionInput) (*caderninhoapi.PlanEditTransactionOutput, error) {
	return result(s.planEditTransaction(ctx, in))
}

// PlanAddRecord answers plan_add_record.
func (s *Service) PlanAddRecord(ctx context.Context, in *caderninhoapi.PlanAddRecordInput) (*caderninhoapi.PlanAddRecordOutput, error) {
	return result(s.planAddRecord(ctx, in))
}

// PlanDeleteRecord answers plan_delete_record.
func (s *Service) PlanDeleteRecord(ctx context.Context, in *caderninhoapi.PlanDeleteRecordInput) (*caderninhoapi.PlanDeleteRecordOutput, error) {
	return result(s.planDeleteRecord(ctx, in))
}

// PlanSetBudget answers plan_set_budget.
func (s *Service) PlanSetBudget(ctx context.Context, in *caderninhoapi.PlanSetBudgetInput) (*caderninhoapi.PlanSetBudgetOutput, error) {
	return result(s.planSetBudget(ctx, in))
}

// PlanRules answers plan_rules.
func (s *Service) PlanRules(ctx context.Context, in *caderninhoapi.PlanRulesInput) (*caderninhoapi.PlanRulesOutput, error) {
	return result(s.planRules(ctx, in))
}

// PlanSetRule answers plan_set_rule.
func (s *Service) PlanSetRule(ctx context.Context, in *caderninhoapi.PlanSetRuleInput) (*caderninhoapi.PlanSetRuleOutput, error) {
	return result(s.planSetRule(ctx, in))
}

// PlanDeleteRule answers plan_delete_rule.
func (s *Service) PlanDeleteRule(ctx context.Context, in *caderninhoapi.PlanDeleteRuleInput) (*caderninhoapi.PlanDeleteRuleOutput, error) {
	return result(s.planDeleteRule(ctx, in))
}

// NewError turns an error of a method above into the generated error response: a
// *mcpserver.ToolError as it is (400), anything else as the generic INTERNAL (500).
func (s *Service) NewError(ctx context.Context, err error) *caderninhoapi.ErrorResponseStatusCode {
	status, te := restserver.Refusal(ctx, s.Log, err)
	suggestions := te.Suggestions
	if suggestions == nil {
		suggestions = []string{}
	}
	return &caderninhoapi.ErrorResponseStatusCode{StatusCode: status, Response: caderninhoapi.ErrorResponse{
		Error: caderninhoapi.Error{Code: te.Code, Message: te.Message, Suggestions: suggestions}}}
}
