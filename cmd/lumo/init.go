package main

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/scaffold"
	"github.com/lumo-caderninho/mcp/impl/platform/cli"
)

// tableList is --table: repeatable, each a table or a comma-separated list of them.
type tableList []string

func (l *tableList) String() string { return strings.Join(*l, ",") }

func (l *tableList) Set(v string) error {
	for _, t := range strings.Split(v, ",") {
		if t = strings.TrimSpace(t); t != "" {
			*l = append(*l, t)
		}
	}
	return nil
}

var initCommand = cli.Command{Name: "lumo init", Args: "ARQUIVO... | PASTA",
	Summary: "Escreve, ao lado dos arquivos, um workspace.yaml (um tenant, um usuário com um token novo) e o app.yaml de\n" +
		"uma Aplicação inferida dos dados: tabelas, rótulos, tipos, papéis, unidades e relacionamentos (conferidos\n" +
		"pelos valores). Lê CSV, XLSX (cada planilha, intervalo nomeado ou tabela do Excel), Parquet (um arquivo ou\n" +
		"uma pasta de partes, também particionada: ano=2024/mes=01/...) e tabelas PostgreSQL (--postgres com\n" +
		"--table); o que não usar, diz por quê.",
	Examples: []string{
		"lumo init minha-pasta",
		"lumo init vendas.csv metas.xlsx",
		"LUMO_ERP_SENHA=... lumo init --postgres postgres://leitor@erp:5432/erp --table vendas.pedidos,cadastro.clientes --password-env LUMO_ERP_SENHA minha-pasta",
	}}

// initWorkspace is `lumo init [--postgres DSN --table esquema.tabela] ARQUIVO... | PASTA`: a
// workspace for the user's own files and tables, then what was inferred and the commands that
// import and serve it.
func initWorkspace(ctx context.Context, args []string, stdout io.Writer) error {
	fs := initCommand.FlagSet()
	var o scaffold.Options
	var tables tableList
	fs.StringVar(&o.Postgres, "postgres", "", "`DSN`, sem senha, de um banco PostgreSQL de onde ler tabelas (postgres://usuario@host:5432/banco)")
	fs.Var(&tables, "table", "tabela ou visão do banco de --postgres, como `esquema.tabela`; repita a opção ou separe por vírgulas")
	timeout := fs.Duration("timeout", 10*time.Minute, "tempo máximo da leitura das tabelas de --postgres; ao passar, a consulta é cancelada no banco e nada é escrito (0 = sem limite)")
	fs.StringVar(&o.PasswordEnv, "password-env", "", "`VARIÁVEL` de ambiente com a senha do banco de --postgres (vai para passwordEnv no workspace.yaml; a senha não)")
	if cli.IsHelp(args) {
		initCommand.Help(stdout, fs)
		return cli.ErrHelpShown
	}
	// Flags may come before or after the paths.
	for {
		if err := initCommand.Parse(fs, args, stdout); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		o.Paths = append(o.Paths, fs.Arg(0))
		args = fs.Args()[1:]
	}
	o.Tables = tables
	if *timeout < 0 {
		return &cli.UsageError{Command: initCommand.Name, Msg: "--timeout precisa ser positivo, ou 0 para sem limite"}
	}
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	o.Context = ctx
	res, err := scaffold.Init(o)
	if err != nil {
		return err
	}
	scaffold.Report(stdout, res)
	return nil
}
