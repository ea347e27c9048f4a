package caderninho

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

type personView struct {
	Key  string `json:"key"`
	Name string `json:"name"`
}

type accountView struct {
	ID           string        `json:"id"`
	Connection   string        `json:"connection"`
	Institution  string        `json:"institution"`
	Holder       personView    `json:"holder"`
	Space        personView    `json:"space"`
	Type         string        `json:"type"`
	Number       string        `json:"number"`
	Currency     string        `json:"currency"`
	Balance      *money.Amount `json:"balance"`
	ReferenceDay *string       `json:"referenceDay"`
	Coverage     coverageView  `json:"coverage"`
}

type accountsView struct {
	Accounts  []accountView    `json:"accounts"`
	Period    *cadstore.Period `json:"period"`
	Partial   bool             `json:"partial"`
	Truncated bool             `json:"truncated"`
	Revisions map[string]int64 `json:"revisions"`
}

func selectionOf(space, person caderninhoapi.OptKey, accounts []caderninhoapi.AccountId) selection {
	sel := selection{Space: string(space.Or("")), Person: string(person.Or(""))}
	for _, a := range accounts {
		sel.Accounts = append(sel.Accounts, string(a))
	}
	return sel
}

func (s *Service) accounts(ctx context.Context, _ *mcp.CallToolRequest, raw json.RawMessage) (mcpserver.Reply, error) {
	var args caderninhoapi.CaderninhoAccountsInput
	if err := decode(raw, &args); err != nil {
		return mcpserver.Reply{}, err
	}
	v, covs, err := s.accountsFacts(ctx, selectionOf(args.Space, args.Person, args.Accounts))
	if err != nil {
		return mcpserver.Reply{}, err
	}
	return mcpserver.Reply{Text: accountsText(v, covs), Structured: v}, nil
}

// AccountTypeText is how the texts name an account type ("checking", "creditcard", ...).
func AccountTypeText(t string) string { return accountTypeWords[t] }

// AccountsFacts are the facts caderninho_accounts returns: accounts with their coverage.
type AccountsFacts = accountsView

// AccountFacts is one account of AccountsFacts.
type AccountFacts = accountView

// CoverageFacts is the coverage of one account.
type CoverageFacts = coverageView

// AccountsFacts is what caderninho_accounts returns for every account of the installation (the
// private panel shows it). The error is a *mcpserver.ToolError when there is no installation.
func (s *Service) AccountsFacts(ctx context.Context) (AccountsFacts, error) {
	v, _, err := s.accountsFacts(ctx, selection{})
	return v, err
}

func (s *Service) accountsFacts(ctx context.Context, sel selection) (accountsView, []coverageView, error) {
	rc, err := s.readContext(ctx)
	if err != nil {
		return accountsView{}, nil, err
	}
	accounts, err := s.selectAccounts(ctx, rc, sel)
	if err != nil {
		return accountsView{}, nil, err
	}
	period := coveragePeriod(accounts, "", "")
	covs, partial := rc.coverage(accounts, period)
	v := accountsView{Accounts: []accountView{}, Period: period, Partial: partial, Revisions: revisions(rc, accounts, sel.Space)}
	for i, a := range accounts {
		av := accountView{ID: a.Key, Connection: a.Connection, Institution: a.Institution,
			Holder: personView{a.HolderKey, a.HolderName}, Space: personView{a.SpaceKey, a.SpaceName},
			Type: accountType(a), Number: a.Number, Currency: a.Currency, ReferenceDay: a.BalanceDay, Coverage: covs[i]}
		if a.BalanceMinor != nil {
			m := money.Of(*a.BalanceMinor, a.Currency)
			av.Balance = &m
		}
		v.Accounts = append(v.Accounts, av)
	}
	return v, covs, nil
}

func accountsText(v accountsView, covs []coverageView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s).\n", ptbr.Count(len(v.Accounts), "conta ou cartão", "contas e cartões"), revisionsText(v.Revisions))
	for _, a := range v.Accounts {
		balance := "saldo não informado pelo banco"
		if a.Balance != nil {
			balance = "saldo " + ptbr.Money(a.Balance.AmountMinor, a.Balance.Currency) + " em " + ptbr.Day(*a.ReferenceDay) +
				" (amountMinor " + a.Balance.AmountMinor + ")"
		}
		fmt.Fprintf(&b, "- %s: %s de %s, %s, espaço %s, em %s; %s.\n", a.ID, accountTypeWords[a.Type], a.Holder.Name,
			a.Institution, a.Space.Name, a.Currency, balance)
	}
	if len(v.Accounts) > 0 {
		b.WriteString("Saldos em moedas diferentes não se somam. " + moneyNote + "\n")
	}
	b.WriteString(coverageText(covs, v.Period, v.Partial))
	return b.String()
}
