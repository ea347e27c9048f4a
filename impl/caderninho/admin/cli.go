package admin

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Usage is the help of `caderninho admin`.
const Usage = `Uso:
  caderninho admin person add CHAVE --name NOME
  caderninho admin person rename CHAVE --name NOME
  caderninho admin person remove CHAVE          # recusado enquanto uma conexão ou registro a usa
  caderninho admin person list
  caderninho admin assistant issue --name NOME  # o token aparece uma única vez, sozinho na 1ª linha
  caderninho admin assistant label NOME --name NOVO
  caderninho admin assistant revoke NOME
  caderninho admin assistant list
  caderninho admin connection add CHAVE --institution INSTITUIÇÃO --holder PESSOA --space ESPAÇO
  caderninho admin connection edit CHAVE [--institution ...] [--holder ...] [--space ...]
  caderninho admin connection list              # titular, espaço, último sucesso, tentativa e erro
  caderninho admin statement import CONEXÃO ARQUIVO...  # .ofx, .qfx ou .csv de banco (veja o README)
  caderninho admin space add CHAVE --name NOME
  caderninho admin space rename CHAVE --name NOME
  caderninho admin space remove CHAVE           # recusado enquanto algo é do espaço
  caderninho admin space list
  caderninho admin category add ESPAÇO --name CATEGORIA
  caderninho admin category rename ESPAÇO CATEGORIA --name NOVA   # edições e orçamentos acompanham
  caderninho admin category merge ESPAÇO CATEGORIA --into OUTRA
  caderninho admin category remove ESPAÇO CATEGORIA              # recusado enquanto algo a usa
  caderninho admin audit [--limit 50]
  caderninho panel reset                        # nova credencial do painel (encerra as sessões)

Todas aceitam --db DSN (ou CADERNINHO_DB). Fazem o mesmo que o painel (/painel/), no mesmo
registro de auditoria. Uma mudança recusada não grava nada e sai com código 2.

Exemplos:
  caderninho admin assistant issue --name "Assistente do notebook"
  caderninho admin connection list
  caderninho admin statement import nubank-ana ~/Downloads/extrato-novembro.ofx
  caderninho admin statement import nubank-ana ~/Downloads/Nubank_2026-11-15.csv
`

// UsageError is a command line that does not parse; the caller prints Usage.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Cmd is a parsed admin command line.
type Cmd struct {
	Name  string
	DB    string // --db, or the default given to Parse
	name  string
	limit int
	pos   []string

	institution, holder, space, into string
	set                              map[string]bool // the flags given
}

// commands are the admin commands and their positional arguments.
var commands = map[string][]string{
	"person add": {"CHAVE"}, "person rename": {"CHAVE"}, "person remove": {"CHAVE"}, "person list": nil,
	"assistant issue": nil, "assistant label": {"NOME"}, "assistant revoke": {"NOME"}, "assistant list": nil,
	"audit":          nil,
	"connection add": {"CHAVE"}, "connection edit": {"CHAVE"}, "connection list": nil,
	"statement import": {"CONEXÃO", "ARQUIVO..."},
	"space add":        {"CHAVE"}, "space rename": {"CHAVE"}, "space remove": {"CHAVE"}, "space list": nil,
	"category add": {"ESPAÇO"}, "category rename": {"ESPAÇO", "CATEGORIA"}, "category merge": {"ESPAÇO", "CATEGORIA"},
	"category remove": {"ESPAÇO", "CATEGORIA"},
}

// Parse reads `caderninho admin` arguments; flags may come before or after the positional ones.
// defaultDB is --db's default (CADERNINHO_DB).
func Parse(args []string, defaultDB string) (*Cmd, error) {
	cmd := &Cmd{}
	switch {
	case len(args) >= 1 && args[0] == "audit":
		cmd.Name, args = args[0], args[1:]
	case len(args) >= 2 && hasCommand(args[0]+" "+args[1]):
		cmd.Name, args = args[0]+" "+args[1], args[2:]
	case len(args) == 0:
		return nil, &UsageError{Msg: "informe o comando de administração"}
	default:
		return nil, &UsageError{Msg: unknownCommand(args)}
	}
	cc := cli.Command{Name: "caderninho admin " + cmd.Name}
	fs := cc.FlagSet()
	fs.StringVar(&cmd.name, "name", "", "nome")
	fs.IntVar(&cmd.limit, "limit", 50, "linhas do registro de auditoria")
	fs.StringVar(&cmd.DB, "db", defaultDB, "DSN")
	fs.StringVar(&cmd.institution, "institution", "", "instituição")
	fs.StringVar(&cmd.holder, "holder", "", "titular")
	fs.StringVar(&cmd.space, "space", "", "espaço")
	fs.StringVar(&cmd.into, "into", "", "categoria que fica")
	for {
		if err := fs.Parse(args); err != nil {
			var ue *cli.UsageError
			errors.As(cc.FlagError(fs, err), &ue)
			return nil, &UsageError{Msg: cmd.Name + ": " + ue.Msg}
		}
		if fs.NArg() == 0 {
			break
		}
		cmd.pos = append(cmd.pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	cmd.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { cmd.set[f.Name] = true })
	want := commands[cmd.Name]
	variadic := len(want) > 0 && strings.HasSuffix(want[len(want)-1], "...")
	if variadic && len(cmd.pos) < len(want) || !variadic && len(cmd.pos) != len(want) {
		w := strings.Join(want, " ")
		if len(want) == 0 {
			w = "nenhum argumento além das opções"
		}
		return nil, &UsageError{Msg: fmt.Sprintf("%s espera %s", cmd.Name, w)}
	}
	need := map[string][]string{
		"person add": {"name"}, "person rename": {"name"}, "assistant issue": {"name"}, "assistant label": {"name"},
		"connection add": {"institution", "holder", "space"}, "space add": {"name"}, "space rename": {"name"},
		"category add": {"name"}, "category rename": {"name"}, "category merge": {"into"},
	}
	for _, f := range need[cmd.Name] {
		if !cmd.set[f] {
			return nil, &UsageError{Msg: fmt.Sprintf("%s: falta --%s", cmd.Name, f)}
		}
	}
	if cmd.Name == "connection edit" && !cmd.set["institution"] && !cmd.set["holder"] && !cmd.set["space"] {
		return nil, &UsageError{Msg: "connection edit: informe --institution, --holder ou --space"}
	}
	if cmd.limit < 1 || cmd.limit > 10000 {
		return nil, &UsageError{Msg: "--limit precisa ficar entre 1 e 10000"}
	}
	return cmd, nil
}

// unknownCommand names the admin commands nearest to the one given.
func unknownCommand(args []string) string {
	return cli.UnknownAdminCommand(args, slices.Collect(maps.Keys(commands)), "person, assistant, connection, statement, space, category e audit")
}

func hasCommand(name string) bool {
	_, ok := commands[name]
	return ok
}

// Run runs the command on s, writing its messages to out; a refused change is a *Refusal.
func (cmd *Cmd) Run(ctx context.Context, s *cadstore.Store, out io.Writer) error {
	o := Ops{Store: s, Actor: ActorCLI}
	p := cmd.pos
	switch cmd.Name {
	case "person add":
		if err := o.AddPerson(ctx, p[0], cmd.name); err != nil {
			return err
		}
		fmt.Fprintf(out, "Pessoa %q adicionada.\n", p[0])
	case "person rename":
		changed, err := o.RenamePerson(ctx, p[0], cmd.name)
		if err != nil {
			return err
		}
		if !changed {
			fmt.Fprintf(out, "A pessoa %q já tem esse nome; nada mudou.\n", p[0])
			return nil
		}
		fmt.Fprintf(out, "Pessoa %q renomeada.\n", p[0])
	case "person remove":
		if err := o.RemovePerson(ctx, p[0]); err != nil {
			return err
		}
		fmt.Fprintf(out, "Pessoa %q removida.\n", p[0])
	case "person list":
		ps, err := s.PeopleList(ctx)
		if err != nil {
			return err
		}
		if len(ps) == 0 {
			fmt.Fprintln(out, "Nenhuma pessoa.")
		}
		for _, x := range ps {
			fmt.Fprintf(out, "%s\t%s\t%s\tconexões: %s\n", x.Key, x.Name, originText(x.Origin), orNone(x.Connections))
		}
	case "assistant issue":
		tok, _, err := o.IssueAssistant(ctx, cmd.name)
		if err != nil {
			return err
		}
		// The token alone on the first line, so scripts can read it; shown only this once.
		fmt.Fprintln(out, tok)
		fmt.Fprintf(out, "Token emitido para o assistente %q. Guarde-o agora: ele não será mostrado de novo.\n", strings.TrimSpace(cmd.name))
	case "assistant label":
		id, err := o.AssistantID(ctx, p[0])
		if err != nil {
			return err
		}
		if err := o.RelabelAssistant(ctx, id, cmd.name); err != nil {
			return err
		}
		fmt.Fprintf(out, "Assistente %q agora se chama %q; o token continua valendo.\n", p[0], strings.TrimSpace(cmd.name))
	case "assistant revoke":
		id, err := o.AssistantID(ctx, p[0])
		if err != nil {
			return err
		}
		if _, err := o.RevokeAssistant(ctx, id); err != nil {
			return err
		}
		fmt.Fprintf(out, "Token do assistente %q revogado; vale a partir da próxima requisição, em todas as réplicas.\n", p[0])
	case "assistant list":
		as, err := s.AssistantList(ctx)
		if err != nil {
			return err
		}
		if len(as) == 0 {
			fmt.Fprintln(out, "Nenhum assistente.")
		}
		for _, a := range as {
			used := "nunca usado"
			if a.LastUsedAt != nil {
				used = "último uso " + ptbr.DateTime(*a.LastUsedAt)
			}
			fmt.Fprintf(out, "%s\t%s\t%s\n", a.Name, originText(a.Origin), used)
		}
	case "connection add", "connection edit", "connection list", "statement import":
		return cmd.runConnection(ctx, o, out)
	case "space add", "space rename", "space remove", "space list", "category add", "category rename", "category merge", "category remove":
		return cmd.runSpace(ctx, o, out)
	case "audit":
		es, err := s.Audit(ctx, cmd.limit)
		if err != nil {
			return err
		}
		if len(es) == 0 {
			fmt.Fprintln(out, "Nenhuma mudança registrada.")
		}
		for _, e := range es {
			fmt.Fprintf(out, "%s\t%s\t%s\n", ptbr.DateTime(e.At), e.Actor, e.Detail)
		}
	}
	return nil
}

// OriginText says where a person or assistant came from.
func OriginText(origin string) string { return originText(origin) }

func originText(origin string) string {
	if origin == cadstore.OriginPanel {
		return "criado no painel"
	}
	return "do installation.yaml"
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "nenhuma"
	}
	return strings.Join(xs, ", ")
}
