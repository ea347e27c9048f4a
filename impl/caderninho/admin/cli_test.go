package admin_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore/cadstoretest"
	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
)

const statement = "OFXHEADER:100\nDATA:OFXSGML\nENCODING:USASCII\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL\n" +
	"<BANKACCTFROM><BANKID>1<ACCTID>9<ACCTTYPE>SAVINGS</BANKACCTFROM>\n<BANKTRANLIST><DTSTART>20260801<DTEND>20260831\n" +
	"<STMTTRN><TRNTYPE>OTHER<DTPOSTED>20260803<TRNAMT>-10.00<FITID>X1<MEMO>A\n</STMTTRN>\n</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"

// The command line runs the same operations as the panel: connections, statements, spaces and
// categories, each refusal a *Refusal (exit 2) with nothing written.
func TestCommandLine(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := cadstoretest.Open(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "installation.yaml"), []byte("timezone: America/Sao_Paulo\npeople:\n  - {key: ze, name: Zé}\nspaces:\n  - {key: casa, name: Casa, categories: [Mercado]}\n"), 0o600)
	inst, err := installation.Load(os.DirFS(dir), "installation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Register(ctx, inst, dir); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "agosto.ofx")
	os.WriteFile(good, []byte(statement), 0o600)
	junk := filepath.Join(dir, "notas.ofx")
	os.WriteFile(junk, []byte("isto não é OFX"), 0o600)
	for _, c := range []struct {
		args    string
		want    string
		refused bool
	}{
		{"space add viagem --name Viagem", `Espaço "viagem" adicionado.`, false},
		{"space add viagem --name Outra", "Chave: já existe um espaço", true},
		{"connection add sabia-ze --institution Sabiá --holder ze --space viagem", `Conexão "sabia-ze" adicionada.`, false},
		{"connection add outra --institution X --holder ninguem --space casa", "Titular: não existe a pessoa", true},
		{"connection edit sabia-ze --space casa", `Conexão "sabia-ze" alterada.`, false},
		{"connection edit sabia-ze --space casa", "nada mudou", false},
		{"statement import sabia-ze " + good + " " + junk, "agosto.ofx: novo — 1 transação nova, 0 já importadas, 1 conta nova", true},
		{"statement import sabia-ze " + good, "agosto.ofx: já importado", false},
		{"statement import nada " + good, `Não existe a conexão "nada"`, true},
		{"connection list", "sabia-ze\tSabiá\ttitular ze\tespaço casa\tcriado no painel\túltimo sucesso 20", false},
		{"category add casa --name Feira", `Categoria "Feira" adicionada ao espaço "casa".`, false},
		{"category rename casa feira --name Sacolão", `Categoria "feira" renomeada para "Sacolão"; acompanharam: nada.`, false},
		{"category merge casa Sacolão --into Mercado", `unida a "Mercado"`, false},
		{"category remove casa Sacolão", `não tem a categoria "Sacolão"`, true},
		{"space list", "casa\tCasa\tdo installation.yaml\trevisão", false},
		{"space remove casa", "é o espaço de uma conexão (sabia-ze)", true},
		{"space remove viagem", `Espaço "viagem" removido.`, false},
		{"audit --limit 50", "Extrato \"agosto.ofx\" importado na conexão \"sabia-ze\"", false},
	} {
		cmd, err := admin.Parse(strings.Fields(c.args), "")
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		var out bytes.Buffer
		err = cmd.Run(ctx, s, &out)
		var ref *admin.Refusal
		if c.refused != errors.As(err, &ref) || (err != nil && !c.refused) {
			t.Errorf("%s: err %v, refused want %v\n%s", c.args, err, c.refused, out.String())
		}
		if got := out.String() + "\n" + errString(err); !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.args, got, c.want)
		}
	}
	if got, _ := os.ReadDir(filepath.Join(dir, "extratos-painel", "sabia-ze")); len(got) != 1 || got[0].Name() != "agosto.ofx" {
		t.Errorf("the connection's folder: %v", got)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
