package caderninho

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
)

// Next actions from the contract's table of refusals, exact.
const (
	nextNotFound      = "Consulte novamente os IDs e o espaço selecionado"
	nextInvalidFilter = "Revise os campos apontados e preserve moeda e intervalo"
	nextRestart       = "Atualize a leitura antes de repetir"
	nextPartial       = "Informe o limite e restrinja ou complete a análise"
)

// Sentences of the contract the texts repeat, exact.
const (
	partialFalseNote = "partial: false não garante dados recentes nem todo o histórico disponibilizado pelo banco."
	moneyNote        = "Não converta valores grandes para ponto flutuante nem some moedas diferentes."
	pageNote         = "Uma página de transações não é o total do período."
	cursorNote       = "Use o cursor com os mesmos filtros e a mesma revisão."
	restartNote      = "Em RESTART_REQUIRED, descarte o cursor e refaça a leitura. Não misture páginas de revisões diferentes."
)

func notFound(msg string, more ...string) *mcpserver.ToolError {
	return &mcpserver.ToolError{Code: "NOT_FOUND", Message: msg, Suggestions: append([]string{nextNotFound}, more...)}
}

func invalidFilter(msg string, more ...string) *mcpserver.ToolError {
	return &mcpserver.ToolError{Code: "INVALID_FILTER", Message: msg, Suggestions: append([]string{nextInvalidFilter}, more...)}
}

// readContext is what every read needs: the installation, its spaces and people.
type readContext struct {
	inst   *cadstore.Installation
	spaces map[string]cadstore.Space
	people map[string]string
	labels map[string]string // account id -> its label for people (accountLabels), set by selectAccounts
}

func (s *Service) readContext(ctx context.Context) (*readContext, error) {
	inst, err := s.Store.Installation(ctx)
	if errors.Is(err, cadstore.ErrNoInstallation) {
		return nil, notFound("A instalação ainda não foi importada: não há contas, espaços nem pessoas.",
			"Peça ao responsável pela instalação para rodar caderninho import com o installation.yaml.")
	}
	if err != nil {
		return nil, err
	}
	rc := &readContext{inst: inst}
	if rc.spaces, err = s.Store.Spaces(ctx); err != nil {
		return nil, err
	}
	if rc.people, err = s.Store.People(ctx); err != nil {
		return nil, err
	}
	return rc, nil
}

// selection is what the space, person and accounts filters select.
type selection struct {
	Space    string
	Person   string
	Accounts []string
	Kind     string // "creditcard" for bills
}

// selectAccounts resolves the filters; unknown names are NOT_FOUND, as are accounts the other
// filters leave out.
func (s *Service) selectAccounts(ctx context.Context, rc *readContext, sel selection) ([]*cadstore.Account, error) {
	if sel.Space != "" {
		if _, ok := rc.spaces[sel.Space]; !ok {
			return nil, notFound(fmt.Sprintf("O espaço %q não existe nesta instalação.", sel.Space), "Espaços: "+strings.Join(sortedKeys(rc.spaces), ", ")+".")
		}
	}
	if sel.Person != "" {
		if _, ok := rc.people[sel.Person]; !ok {
			return nil, notFound(fmt.Sprintf("A pessoa %q não existe nesta instalação.", sel.Person), "Pessoas: "+strings.Join(sortedKeys(rc.people), ", ")+".")
		}
	}
	all, err := s.Store.Accounts(ctx, cadstore.AccountFilter{})
	if err != nil {
		return nil, err
	}
	rc.labels = accountLabels(all)
	byKey := map[string]*cadstore.Account{}
	var keys []string
	for _, a := range all {
		byKey[a.Key] = a
		keys = append(keys, a.Key)
	}
	want := map[string]bool{}
	for _, k := range sel.Accounts {
		a, ok := byKey[k]
		if !ok {
			more := "Use caderninho_accounts para ver os ids das contas."
			if sim := suggest.Similar(k, keys, 3); len(sim) > 0 {
				more = "Ids parecidos: " + strings.Join(sim, ", ") + "."
			}
			return nil, notFound(fmt.Sprintf("A conta %q não existe nesta instalação.", k), more)
		}
		if sel.Space != "" && a.SpaceKey != sel.Space {
			return nil, notFound(fmt.Sprintf("A conta %q é do espaço %q, não do espaço selecionado %q.", k, a.SpaceKey, sel.Space))
		}
		if sel.Person != "" && a.HolderKey != sel.Person {
			return nil, notFound(fmt.Sprintf("A conta %q é de %s (%s), não da pessoa selecionada %q.", k, a.HolderName, a.HolderKey, sel.Person))
		}
		if sel.Kind != "" && a.Kind != sel.Kind {
			return nil, invalidFilter(fmt.Sprintf("accounts: a conta %q não é um cartão de crédito; faturas existem só para cartões.", k))
		}
		want[k] = true
	}
	var out []*cadstore.Account
	for _, a := range all {
		switch {
		case sel.Space != "" && a.SpaceKey != sel.Space,
			sel.Person != "" && a.HolderKey != sel.Person,
			sel.Kind != "" && a.Kind != sel.Kind,
			len(want) > 0 && !want[a.Key]:
			continue
		}
		out = append(out, a)
	}
	return out, nil
}

// revisions of the spaces of accounts (or of the selected space when there are none).
func revisions(rc *readContext, accounts []*cadstore.Account, space string) map[string]int64 {
	out := map[string]int64{}
	for _, a := range accounts {
		out[a.SpaceKey] = rc.spaces[a.SpaceKey].Revision
	}
	if space != "" {
		out[space] = rc.spaces[space].Revision
	}
	return out
}

func revisionsText(revs map[string]int64) string {
	var parts []string
	for _, k := range sortedKeys(revs) {
		parts = append(parts, fmt.Sprintf("%s %d", k, revs[k]))
	}
	if len(parts) == 0 {
		return "nenhum espaço"
	}
	return ptbr.Plural(len(parts), "revisão do espaço ", "revisões dos espaços ") + strings.Join(parts, ", ")
}

// coveragePeriod is the period coverage is judged over: the one asked for (from <= to when both
// are given), an open end taken from the first or last day covered among the accounts. nil when
// nothing was asked and nothing is covered.
func coveragePeriod(accounts []*cadstore.Account, from, to string) *cadstore.Period {
	first, last := "", ""
	for _, a := range accounts {
		c := a.Covered()
		if len(c) == 0 {
			continue
		}
		if first == "" || c[0].From < first {
			first = c[0].From
		}
		if c[len(c)-1].To > last {
			last = c[len(c)-1].To
		}
	}
	p := cadstore.Period{From: from, To: to}
	if p.From == "" {
		p.From = first
	}
	if p.To == "" {
		p.To = last
	}
	switch {
	case p.From == "" && p.To == "":
		return nil
	case p.From == "":
		p.From = p.To
	case p.To == "":
		p.To = p.From
	case p.From > p.To && from != "":
		p.To = p.From // asked to start after the last covered day
	case p.From > p.To:
		p.From = p.To // asked to end before the first covered day
	}
	return &p
}

// coverage describes each account's statements against period; partial is true when any of
// them leaves a day of the period uncovered (or has no statement at all).
func (rc *readContext) coverage(accounts []*cadstore.Account, period *cadstore.Period) (covs []caderninhoapi.Coverage, partial bool) {
	covs = make([]caderninhoapi.Coverage, 0, len(accounts))
	for _, a := range accounts {
		covered := a.Covered()
		v := caderninhoapi.Coverage{AccountId: caderninhoapi.AccountId(a.Key), CoveredFrom: caderninhoapi.NilDate{Null: true},
			CoveredTo: caderninhoapi.NilDate{Null: true}, Gaps: periodsOf(cadstore.Gaps(covered)), Uncovered: []caderninhoapi.Period{},
			ReferenceDay: nilDate(a.BalanceDay), LastSuccessAt: rc.instant(a.LastSuccessAt), LastAttemptAt: rc.instant(a.LastAttemptAt),
			LastError: nilString(a.LastError)}
		if len(covered) > 0 {
			v.CoveredFrom, v.CoveredTo = nilDate(&covered[0].From), nilDate(&covered[len(covered)-1].To)
		} else {
			partial = true
		}
		if period != nil {
			v.Uncovered = periodsOf(cadstore.Uncovered(covered, *period))
		}
		if len(v.Uncovered) > 0 {
			partial = true
		}
		covs = append(covs, v)
	}
	return covs, partial
}

// coverageText explains the limits of a read: per account what is uncovered, then the notes
// every read repeats.
func coverageText(rc *readContext, views []caderninhoapi.Coverage, period *cadstore.Period, partial bool) string {
	var b strings.Builder
	if period != nil {
		fmt.Fprintf(&b, "Cobertura avaliada de %s a %s.\n", ptbr.Day(period.From), ptbr.Day(period.To))
	}
	for _, v := range views {
		var parts []string
		if v.CoveredFrom.Null {
			parts = append(parts, "nenhum extrato com período importado")
		} else {
			parts = append(parts, "extratos de "+dateText(v.CoveredFrom)+" a "+dateText(v.CoveredTo))
		}
		if len(v.Gaps) > 0 {
			parts = append(parts, "sem extrato em "+periodsText(v.Gaps))
		}
		if len(v.Uncovered) > 0 {
			parts = append(parts, "fora da cobertura no período lido: "+periodsText(v.Uncovered))
		}
		if !v.ReferenceDay.Null {
			parts = append(parts, "saldo de "+dateText(v.ReferenceDay))
		}
		if t, ok := v.LastSuccessAt.Get(); ok {
			parts = append(parts, "última importação bem-sucedida em "+instantText(t))
		}
		if e, ok := v.LastError.Get(); ok {
			parts = append(parts, "a última tentativa falhou: "+e)
		}
		fmt.Fprintf(&b, "- %s: %s.\n", rc.label(string(v.AccountId)), strings.Join(parts, "; "))
	}
	if partial {
		b.WriteString("partial: true — há dias do período sem extrato em alguma conta. " + nextPartial + ".\n")
	} else {
		b.WriteString("partial: false — cada conta tem extrato para todo o período avaliado.\n")
	}
	b.WriteString(partialFalseNote)
	return b.String()
}

func periodsText(ps []caderninhoapi.Period) string {
	var parts []string
	for _, p := range ps {
		if p.From == p.To {
			parts = append(parts, dayText(p.From))
		} else {
			parts = append(parts, dayText(p.From)+" a "+dayText(p.To))
		}
	}
	return ptbr.List(parts)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

var accountTypes = map[string]string{
	"CHECKING": "checking", "SAVINGS": "savings", "MONEYMRKT": "moneymrkt", "CREDITLINE": "creditline", "CD": "cd", "CREDITCARD": "creditcard",
}

var accountTypeWords = map[string]string{
	"checking": "conta corrente", "savings": "poupança", "moneymrkt": "conta de investimento", "creditline": "linha de crédito",
	"cd": "CDB", "creditcard": "cartão de crédito", "other": "conta",
}

func accountType(a *cadstore.Account) string {
	if t, ok := accountTypes[strings.ToUpper(a.Type)]; ok {
		return t
	}
	if a.Kind == "creditcard" {
		return "creditcard"
	}
	return "other"
}
