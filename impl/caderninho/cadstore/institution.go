package cadstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/lumo-caderninho/mcp/impl/caderninho/bankcsv"
	"github.com/lumo-caderninho/mcp/impl/caderninho/banks"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// connBank is the bank of a connection as an import checks its files against it: the one its
// institution names (byName), else the one the files it already holds (or those read before in
// this import) come from, else none.
type connBank struct {
	bank   *banks.Bank
	byName bool
}

// connectionBank reads the bank of c: by its institution, else by the banks of its accounts
// (their BANKID, or the bank of the CSV format that made them) when they name one only.
func (s *Store) connectionBank(ctx context.Context, tx *sql.Tx, c Connection) (*connBank, error) {
	if b := banks.ByName(c.Institution); b != nil {
		return &connBank{bank: b, byName: true}, nil
	}
	rows, err := tx.QueryContext(ctx, s.q("SELECT bank_id FROM cad_accounts WHERE connection_id = ?"), c.ID)
	if err != nil {
		return nil, fmt.Errorf("reading the accounts of %s: %w", c.Key, err)
	}
	defer rows.Close()
	cb := &connBank{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("reading the accounts of %s: %w", c.Key, err)
		}
		if b := banks.ByCode(id); b != nil {
			if cb.bank != nil && cb.bank != b {
				return &connBank{}, rows.Err() // accounts of two banks: none to check against
			}
			cb.bank = b
		}
	}
	return cb, rows.Err()
}

// fileBank is the bank a statement file says it comes from, and how it says so: a bank's own CSV
// format, an OFX BANKID or the OFX sign-on's FI (ORG, or FID); nil when it says nothing.
func fileBank(f parsedFile) (*banks.Bank, string) {
	switch f := f.(type) {
	case csvFile:
		if b := banks.ByKey(f.Format.Bank); b != nil {
			return b, fmt.Sprintf("formato %s: %s", f.Format.Key, f.Format.Name)
		}
	case ofxFile:
		for _, st := range f.Statements {
			if b := banks.ByCode(st.BankID); b != nil {
				return b, "BANKID " + st.BankID + " no arquivo"
			}
		}
		if b := banks.ByName(f.Org); b != nil {
			return b, fmt.Sprintf("FI/ORG %q no arquivo", f.Org)
		}
		if b := banks.ByCode(f.FID); b != nil {
			return b, "FI/FID " + f.FID + " no arquivo"
		}
	}
	return nil, ""
}

// check refuses a file of another bank than the connection's, with the fix; a file of a bank
// when the connection's is unknown passes with a warning (and the bank is the connection's for
// the import's next files). It returns the file's bank, when it names one.
func (cb *connBank) check(c Connection, name string, f parsedFile) (*FileError, string, *banks.Bank) {
	fb, how := fileBank(f)
	switch {
	case fb == nil || cb.bank == fb:
		return nil, "", fb
	case cb.bank == nil:
		cb.bank = fb
		return nil, fmt.Sprintf("o arquivo é do %s (%s), e a instituição da conexão %s, %q, não é o nome de um banco que o caderninho conheça: "+
			"confira se o arquivo está na conexão certa; se a conexão é do %s, escreva %s na instituição dela", fb.Name, how, c.Key, c.Institution, fb.Name, fb.Name), fb
	}
	whose := fmt.Sprintf("é do %s (instituição %q)", cb.bank.Name, c.Institution)
	if !cb.byName {
		whose = fmt.Sprintf("já tem extratos do %s (a instituição %q não diz de que banco ela é)", cb.bank.Name, c.Institution)
	}
	return &FileError{File: &name, Message: fmt.Sprintf("o arquivo é do %s (%s), mas a conexão %s %s: o caderninho não lê o extrato de um banco "+
		"na conexão de outro. Mova o arquivo para a pasta de uma conexão do %s (se não houver, crie uma no painel, em Conexões, ou no "+
		"installation.yaml); se esta conexão é mesmo do %s, corrija a instituição dela.", fb.Name, how, c.Key, whose, fb.Name, fb.Name)}, "", fb
}

// periodStated reports whether f states the periods of its statements (an OFX's DTSTART and
// DTEND, Inter's "Período"); a CSV export without one covers its transactions' days.
func periodStated(f parsedFile) bool {
	cf, ok := f.(csvFile)
	return !ok || !cf.PeriodFromDates
}

// periodNote says where the period of a card's CSV export, which states none, came from. An
// account export's (Nubank's, Banco do Brasil's) has always been its transactions' days.
func periodNote(f *bankcsv.File) string {
	st := &f.Statement
	return fmt.Sprintf("o arquivo não informa o período da fatura; a cobertura do cartão foi tirada das datas dos lançamentos: de %s a %s "+
		"(as parcelas não contam, pois a fatura pode listá-las no dia da compra)", ptbr.Day(st.Start), ptbr.Day(st.End))
}
