// Package admin is the `lumo admin` command line: tenants, users, desks, memberships, tokens
// and publishing, over the store's administration operations. Messages are Portuguese.
package admin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Usage is the help of `lumo admin`.
const Usage = `Uso:
  lumo admin tenant add CHAVE --name NOME
  lumo admin tenant remove CHAVE [--force]
  lumo admin tenant list
  lumo admin user add LOGIN --tenant CHAVE --name NOME
  lumo admin user remove LOGIN [--force]
  lumo admin user list [--tenant CHAVE]
  lumo admin desk add MESA --tenant CHAVE
  lumo admin desk remove MESA --tenant CHAVE [--force]
  lumo admin desk list [--tenant CHAVE]
  lumo admin member add MESA LOGIN
  lumo admin member remove MESA LOGIN
  lumo admin token issue LOGIN [--label ROTULO]
  lumo admin token revoke LOGIN ROTULO
  lumo admin token list LOGIN
  lumo admin publish APLICACAO --tenant CHAVE --desk MESA

Todas aceitam --db DSN (ou LUMO_DB). O token emitido aparece uma única vez, na saída padrão;
o banco guarda só o SHA-256. Revogar vale na próxima requisição, em todas as réplicas.
Um novo lumo import de um tenant substitui usuários, mesas, membros e publicações pelos do
arquivo, mas mantém os tokens emitidos dos usuários que o arquivo ainda lista.

Exemplos:
  lumo admin user add zeca --tenant minha-empresa --name "Zeca Souza"
  lumo admin token issue zeca --label notebook
  lumo admin token revoke zeca notebook
`

// UsageError is a command line that does not parse, or a command missing a flag it needs;
// the caller prints the usage of Command (CommandUsage), or Usage when Command is "".
type UsageError struct {
	Command string // "tenant add"; "" when the command is unknown
	Msg     string
}

func (e *UsageError) Error() string { return e.Msg }

// command is one `lumo admin OBJECT VERB`.
type command struct {
	args  int // positional arguments
	names string
	run   func(ctx context.Context, db *store.DB, f *flags, pos []string, out io.Writer) error
}

// examples are a command line of each command, for its help.
var examples = map[string]string{
	"tenant add":    `lumo admin tenant add minha-empresa --name "Minha Empresa"`,
	"tenant remove": "lumo admin tenant remove minha-empresa --force",
	"tenant list":   "lumo admin tenant list --db postgres://lumo@db.interno:5432/lumo",
	"user add":      `lumo admin user add zeca --tenant minha-empresa --name "Zeca Souza"`,
	"user remove":   "lumo admin user remove zeca",
	"user list":     "lumo admin user list --tenant minha-empresa",
	"desk add":      "lumo admin desk add Comercial --tenant minha-empresa",
	"desk remove":   "lumo admin desk remove Comercial --tenant minha-empresa",
	"desk list":     "lumo admin desk list --tenant minha-empresa",
	"member add":    "lumo admin member add Comercial zeca",
	"member remove": "lumo admin member remove Comercial zeca",
	"token issue":   "lumo admin token issue zeca --label notebook",
	"token revoke":  "lumo admin token revoke zeca notebook",
	"token list":    "lumo admin token list zeca",
	"publish":       "lumo admin publish vendas --tenant minha-empresa --desk Comercial",
}

// CommandUsage is the help of one admin command (name as "tenant add"): its usage line from
// Usage, the flags all take and an example; Usage when name is no command.
func CommandUsage(name string) string {
	var lines []string
	for _, l := range strings.Split(Usage, "\n") {
		if l == "  lumo admin "+name || strings.HasPrefix(l, "  lumo admin "+name+" ") {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 || commands[name].run == nil {
		return Usage
	}
	return "Uso:\n" + strings.Join(lines, "\n") + "\n\nAceita também --db DSN (ou LUMO_DB). Todos os comandos: lumo admin -h\n\nExemplo:\n  " + examples[name] + "\n"
}

// Name is the admin command args begin with ("tenant add", "publish"), "" when none.
func Name(args []string) string {
	switch {
	case len(args) >= 1 && commands[args[0]].run != nil:
		return args[0]
	case len(args) >= 2 && commands[args[0]+" "+args[1]].run != nil:
		return args[0] + " " + args[1]
	}
	return ""
}

type flags struct {
	name, tenant, desk, label string
	force                     bool
}

var commands = map[string]command{
	"tenant add": {1, "CHAVE", func(ctx context.Context, db *store.DB, f *flags, p []string, out io.Writer) error {
		if err := need("--name", f.name); err != nil {
			return err
		}
		if err := db.AddTenant(ctx, p[0], f.name); err != nil {
			return err
		}
		fmt.Fprintf(out, "Tenant %q criado.\n", p[0])
		return nil
	}},
	"tenant remove": {1, "CHAVE", func(ctx context.Context, db *store.DB, f *flags, p []string, out io.Writer) error {
		if err := db.RemoveTenant(ctx, p[0], f.force); err != nil {
			return err
		}
		fmt.Fprintf(out, "Tenant %q removido.\n", p[0])
		return nil
	}},
	"tenant list": {0, "", func(ctx context.Context, db *store.DB, _ *flags, _ []string, out io.Writer) error {
		ts, err := db.Tenants(ctx)
		if err != nil {
			return err
		}
		if len(ts) == 0 {
			fmt.Fprintln(out, "Nenhum tenant.")
		}
		for _, t := range ts {
			fmt.Fprintf(out, "%s\t%s\t%s\t%s\t%s\n", t.Key, t.Name, ptbr.Count(int(t.Users), "usuário", "usuários"),
				ptbr.Count(int(t.Desks), "mesa", "mesas"), ptbr.Count(int(t.Apps), "Aplicação", "Aplicações"))
		}
		return nil
	}},
	"user add": {1, "LOGIN", func(ctx context.Context, db *store.DB, f *flags, p []string, out io.Writer) error {
		if err := need("--tenant", f.tenant); err != nil {
			return err
		}
		if err := need("--name", f.name); err != nil {
			return err
		}
		if err := db.AddUser(ctx, f.tenant, p[0], f.name); err != nil {
			return err
		}
		fmt.Fprintf(out, "Usuário %q criado no tenant %q. Emita um token com: lumo admin token issue %s\n", p[0], f.tenant, p[0])
		return nil
	}},
	"user remove": {1, "LOGIN", func(ctx context.Context, db *store.DB, f *flags, p []string, out io.Writer) error {
		if err := db.RemoveUser(ctx, p[0], f.force); err != nil {
			return err
		}
		fmt.Fprintf(out, "Usuário %q removido, com seus tokens.\n", p[0])
		return nil
	}},
	"user list": {0, "", func(ctx context.Context, db *store.DB, f *flags, _ []string, out io.Writer) error {
		us, err := db.Users(ctx, f.tenant)
		if err != nil {
			return err
		}
		if len(us) == 0 {
			fmt.Fprintln(out, "Nenhum usuário.")
		}
		for _, u := range us {
			fmt.Fprintf(out, "%s\t%s\t%s\t%d tokens emitidos\tmesas: %s\n", u.Tenant, u.Login, u.Name, u.Tokens, strings.Join(u.Desks, ", "))
		}
		return nil
	}},
	"desk add": {1, "MESA", func(ctx context.Context, db *store.DB, f *flags, p []string, out io.Writer) error {
		if err := need("--tenant", f.tenant); err != nil {
			return err
		}
		if err := db.AddDesk(ctx, f.tenant, p[0]); err != nil {
			return err
		}
		fmt.Fprintf(out, "Mesa %q criada no tenant %q.\n", p[0], f.tenant)
		return nil
	}},
	"desk remove": {1, "MESA", func(ctx context.Context, db *store.DB, f *flags, p []string, out io.Writer) error {
		if err := need("--tenant", f.tenant); err != nil {
			return err
		}
		if err := db.RemoveDesk(ctx, f.tenant, p[0], f.force); err != nil {
			return err
		}
		fmt.Fprintf(out, "Mesa %q removida do tenant %q.\n", p[0], f.tenant)
		return nil
	}},
	"desk list": {0, "", func(ctx context.Context, db *store.DB, f *flags, _ []string, out io.Writer) error {
		ds, err := db.Desks(ctx, f.tenant)
		if err != nil {
			return err
		}
		if len(ds) == 0 {
			fmt.Fprintln(out, "Nenhuma mesa.")
		}
		for _, d := range ds {
			fmt.Fprintf(out, "%s\t%s\tmembros: %s\tAplicações: %s\n", d.Tenant, d.Name, strings.Join(d.Members, ", "), strings.Join(d.Apps, ", "))
		}
		return nil
	}},
	"member add": {2, "MESA LOGIN", func(ctx context.Context, db *store.DB, _ *flags, p []string, out io.Writer) error {
		if err := db.AddMember(ctx, p[0], p[1]); err != nil {
			return err
		}
		fmt.Fprintf(out, "Usuário %q agora é membro da mesa %q.\n", p[1], p[0])
		return nil
	}},
	"member remove": {2, "MESA LOGIN", func(ctx context.Context, db *store.DB, _ *flags, p []string, out io.Writer) error {
		if err := db.RemoveMember(ctx, p[0], p[1]); err != nil {
			return err
		}
		fmt.Fprintf(out, "Usuário %q saiu da mesa %q.\n", p[1], p[0])
		return nil
	}},
	"token issue": {1, "LOGIN", func(ctx context.Context, db *store.DB, f *flags, p []string, out io.Writer) error {
		label := f.label
		if label == "" {
			label = "padrao"
		}
		tok, err := db.IssueToken(ctx, p[0], label)
		if err != nil {
			return err
		}
		// The token alone on the first line, so scripts can read it; shown only this once.
		fmt.Fprintln(out, tok)
		fmt.Fprintf(out, "Token %q emitido para %q. Guarde-o agora: ele não será mostrado de novo.\n", label, p[0])
		return nil
	}},
	"token revoke": {2, "LOGIN ROTULO", func(ctx context.Context, db *store.DB, _ *flags, p []string, out io.Writer) error {
		if err := db.RevokeToken(ctx, p[0], p[1]); err != nil {
			return err
		}
		fmt.Fprintf(out, "Token %q de %q revogado; vale a partir da próxima requisição.\n", p[1], p[0])
		return nil
	}},
	"token list": {1, "LOGIN", func(ctx context.Context, db *store.DB, _ *flags, p []string, out io.Writer) error {
		ts, err := db.Tokens(ctx, p[0])
		if err != nil {
			return err
		}
		if len(ts) == 0 {
			fmt.Fprintf(out, "Nenhum token emitido para %q (o token do workspace, se houver, não aparece aqui).\n", p[0])
		}
		for _, t := range ts {
			fmt.Fprintf(out, "%s\temitido em %s\n", t.Label, t.CreatedAt)
		}
		return nil
	}},
	"publish": {1, "APLICACAO", func(ctx context.Context, db *store.DB, f *flags, p []string, out io.Writer) error {
		if err := need("--tenant", f.tenant); err != nil {
			return err
		}
		if err := need("--desk", f.desk); err != nil {
			return err
		}
		if err := db.Publish(ctx, f.tenant, p[0], f.desk); err != nil {
			return err
		}
		fmt.Fprintf(out, "Aplicação %q publicada na mesa %q.\n", p[0], f.desk)
		return nil
	}},
}

// unknownCommand names the admin commands nearest to the one given.
func unknownCommand(args []string) string {
	return cli.UnknownAdminCommand(args, slices.Collect(maps.Keys(commands)), "tenant, user, desk, member, token e publish")
}

func need(flag, v string) error {
	if strings.TrimSpace(v) == "" {
		return &UsageError{Msg: fmt.Sprintf("falta %s", flag)} // Run names the command
	}
	return nil
}

// Cmd is a parsed admin command line.
type Cmd struct {
	Name string
	DB   string // --db, or the default given to Parse
	c    command
	f    *flags
	pos  []string
}

// Parse reads `lumo admin` arguments ("tenant add acme --name Acme", "publish ..."); flags may
// come before or after the positional arguments. defaultDB is --db's default (LUMO_DB).
func Parse(args []string, defaultDB string) (*Cmd, error) {
	cmd := &Cmd{f: &flags{}}
	switch cmd.Name = Name(args); {
	case cmd.Name != "":
		args = args[len(strings.Fields(cmd.Name)):]
	case len(args) == 0:
		return nil, &UsageError{Msg: "informe o comando de administração"}
	default:
		return nil, &UsageError{Msg: unknownCommand(args)}
	}
	cmd.c = commands[cmd.Name]
	f := cmd.f
	cc := cli.Command{Name: "lumo admin " + cmd.Name}
	fs := cc.FlagSet()
	fs.StringVar(&f.name, "name", "", "nome")
	fs.StringVar(&f.tenant, "tenant", "", "chave do tenant")
	fs.StringVar(&f.desk, "desk", "", "mesa")
	fs.StringVar(&f.label, "label", "", "rótulo do token")
	fs.BoolVar(&f.force, "force", false, "apaga também o que depende do objeto")
	fs.StringVar(&cmd.DB, "db", defaultDB, "DSN")
	for {
		if err := fs.Parse(args); err != nil {
			var ue *cli.UsageError
			errors.As(cc.FlagError(fs, err), &ue)
			return nil, &UsageError{Command: cmd.Name, Msg: ue.Msg}
		}
		if fs.NArg() == 0 {
			break
		}
		cmd.pos = append(cmd.pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(cmd.pos) != cmd.c.args {
		want := cmd.c.names
		if cmd.c.args == 0 {
			want = "nenhum argumento além das opções"
		}
		return nil, &UsageError{Command: cmd.Name, Msg: "espera " + want}
	}
	return cmd, nil
}

// Run runs the command on db, writing its messages to out. A refused change comes back as
// the store's *store.AdminError, with nothing written.
func (cmd *Cmd) Run(ctx context.Context, db *store.DB, out io.Writer) error {
	err := cmd.c.run(ctx, db, cmd.f, cmd.pos, out)
	var ae *store.AdminError
	var ue *UsageError
	if errors.As(err, &ue) && ue.Command == "" {
		ue.Command = cmd.Name
	}
	if err == nil || errors.As(err, &ae) || ue != nil {
		return err
	}
	return fmt.Errorf("lumo admin %s: %w", cmd.Name, err)
}
