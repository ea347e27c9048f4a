package caderninho

import (
	"context"
	"fmt"
	"strings"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

func selectionOf(space, person caderninhoapi.OptKey, accounts []caderninhoapi.AccountId) selection {
	sel := selection{Space: string(space.Or("")), Person: string(person.Or(""))}
	for _, a := range accounts {
		sel.Accounts = append(sel.Accounts, string(a))
	}
	return sel
}

func (s *Service) accounts(ctx context.Context, in *caderninhoapi.CaderninhoAccountsInput) (*caderninhoapi.CaderninhoAccountsOutput, func() string, error) {
	v, period, err := s.accountsFacts(ctx, selectionOf(in.Space, in.Person, in.Accounts))
	if err != nil {
		return nil, nil, err
	}
	return v, func() string { return accountsText(v, period) }, nil
}

// AccountTypeText is how the texts name an account type ("checking", "creditcard", ...).
func AccountTypeText(t caderninhoapi.CaderninhoAccountsOutputAccountType) string {
	return accountTypeWords[string(t)]
}

// AccountsFacts is what caderninho_accounts returns for every account of the installation (the
// private panel shows it). The error is a *mcpserver.ToolError when there is no installation.
func (s *Service) AccountsFacts(ctx context.Context) (*caderninhoapi.CaderninhoAccountsOutput, error) {
	v, _, err := s.accountsFacts(ctx, selection{})
	return v, err
}

func (s *Service) accountsFacts(ctx context.Context, sel selection) (*caderninhoapi.CaderninhoAccountsOutput, *cadstore.Period, error) {
	rc, err := s.readContext(ctx)
	if err != nil {
		return nil, nil, err
	}
	accounts, err := s.selectAccounts(ctx, rc, sel)
	if err != nil {
		return nil, nil, err
	}
	period := coveragePeriod(accounts, "", "")
	covs, partial := rc.coverage(accounts, period)
	v := &caderninhoapi.CaderninhoAccountsOutput{Accounts: make([]caderninhoapi.CaderninhoAccountsOutputAccount, 0, len(accounts)),
		Period: nilPeriod(period), Partial: partial, Revisions: caderninhoapi.Revisions(revisions(rc, accounts, sel.Space))}
	for i, a := range accounts {
		av := caderninhoapi.CaderninhoAccountsOutputAccount{ID: caderninhoapi.AccountId(a.Key), Label: rc.label(a.Key), Connection: caderninhoapi.Key(a.Connection),
			Institution: a.Institution, Holder: caderninhoapi.Person{Key: caderninhoapi.Key(a.HolderKey), Name: a.HolderName},
			Space: caderninhoapi.Space{Key: caderninhoapi.Key(a.SpaceKey), Name: a.SpaceName},
			Type:  caderninhoapi.CaderninhoAccountsOutputAccountType(accountType(a)), Number: a.Number, Currency: a.Currency,
			Balance: caderninhoapi.NilMoney{Null: true}, ReferenceDay: nilDate(a.BalanceDay), Coverage: covs[i]}
		if a.BalanceMinor != nil {
			av.Balance = caderninhoapi.NewNilMoney(moneyOf(*a.BalanceMinor, a.Currency))
		}
		v.Accounts = append(v.Accounts, av)
	}
	return v, period, nil
}

func accountsText(v *caderninhoapi.CaderninhoAccountsOutput, period *cadstore.Period) string {
	var b strings.Builder
	rc := &readContext{labels: map[string]string{}}
	for _, a := range v.Accounts {
		rc.labels[string(a.ID)] = a.Label
	}
	fmt.Fprintf(&b, "%s (%s).\n", ptbr.Count(len(v.Accounts), "conta ou cartão", "contas e cartões"), revisionsText(v.Revisions))
	covs := make([]caderninhoapi.Coverage, 0, len(v.Accounts))
	for _, a := range v.Accounts {
		balance := "saldo não informado pelo banco"
		if m, ok := a.Balance.Get(); ok {
			balance = "saldo " + moneyText(m) + " em " + dateText(a.ReferenceDay) + " (amountMinor " + m.AmountMinor + ")"
		}
		fmt.Fprintf(&b, "- %s (%s, espaço %s, em %s): %s.\n", a.Label, a.Holder.Name, a.Space.Name, a.Currency, balance)
		covs = append(covs, a.Coverage)
	}
	if len(v.Accounts) > 0 {
		b.WriteString("Saldos em moedas diferentes não se somam. " + moneyNote + "\n")
	}
	b.WriteString(coverageText(rc, covs, period, v.Partial))
	return b.String()
}
