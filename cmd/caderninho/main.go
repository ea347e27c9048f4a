// Command caderninho is the caderninho MCP server: import an installation, serve (stdio or HTTP),
// call a tool.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/schemapub"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

const usage = `caderninho: servidor MCP de finanças da casa.

Uso:
  caderninho import [--db DSN] caminho/installation.yaml
  caderninho serve  [opções]                    (stdio; --http 127.0.0.1:PORT para HTTP)
  caderninho call   [--db DSN] FERRAMENTA '{"arg": ...}'
  caderninho admin  person|assistant|connection|statement|space|category|audit ...   (caderninho admin help)
  caderninho panel  reset [--db DSN]
  caderninho schemas list | show FERRAMENTA input|output | validate [--tool FERRAMENTA] [--kind input|output] ARQUIVO | doc FERRAMENTA
  caderninho --version

A ajuda de cada comando, com suas opções e exemplos: caderninho COMANDO -h (ou caderninho help COMANDO).

Exemplos:
  caderninho serve                            # a instalação de demonstração, em stdio
  caderninho import minha-casa/installation.yaml
  caderninho serve --http 127.0.0.1:8090

--db (ou CADERNINHO_DB): postgres://... para PostgreSQL; qualquer outro valor é um arquivo SQLite.
Sem --db, usa o SQLite em ~/.local/share/caderninho/caderninho.db; serve e call o criam com a
instalação de demonstração (copiada para ~/.local/share/caderninho/demo) quando ele está vazio.

Com --http, o painel privado fica em /painel/ (só em endereço local, ou com --public-url https://):
entra-se com a credencial do painel, mostrada no primeiro import ou por caderninho panel reset.

schemas confere payloads contra os schemas publicados sem abrir o banco (0 válido, 1 inválido, 2 uso).
Com --http, GET /schemas/, GET /openapi.json e GET /docs/ (referência em HTML) publicam os schemas, o OpenAPI e a referência sem autenticação.
`

func main() {
	cli.SoftMemoryLimit(caderninho.SoftMemoryLimit)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	err := run(ctx, os.Args[1:], os.Stdout, log)
	var code schemapub.ExitCode
	if errors.As(err, &code) {
		os.Exit(int(code))
	}
	os.Exit(cli.Exit("caderninho", err, os.Stderr))
}

func run(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return flag.ErrHelp
	}
	switch args[0] {
	case "import":
		return importInstallation(ctx, args[1:], stdout)
	case "serve":
		return serve(ctx, args[1:], log)
	case "call":
		return call(ctx, args[1:], stdout, log)
	case "admin":
		return adminCommand(ctx, args[1:], stdout)
	case "panel":
		return panelCommand(ctx, args[1:], stdout)
	case "schemas":
		cat, err := publishedCatalog()
		if err != nil {
			return err
		}
		return cat.Run(args[1:], os.Stdin, stdout, os.Stderr)
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && slices.Contains(commands, args[1]) && args[1] != "help" { // caderninho help serve
			return run(ctx, []string{args[1], "-h"}, stdout, log)
		}
		fmt.Fprint(stdout, usage)
		return cli.ErrHelpShown
	case "version", "-version", "--version", "-v", "-V":
		fmt.Fprintln(stdout, cli.Version("caderninho"))
		return nil
	}
	fmt.Fprintf(os.Stderr, "caderninho: %s\n\n%s", cli.UnknownCommand(args[0], commands), usage)
	return flag.ErrHelp
}

// commands are caderninho's subcommands, for suggesting one.
var commands = []string{"import", "serve", "call", "admin", "panel", "schemas", "help", "version"}

// dbFlag registers --db with CADERNINHO_DB as its default.
func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", os.Getenv("CADERNINHO_DB"), "DSN: postgres://... ou caminho de arquivo SQLite (padrão: CADERNINHO_DB, ou o SQLite embutido)")
}

// dataDir is $XDG_DATA_HOME/caderninho or ~/.local/share/caderninho, created.
func dataDir() (string, error) { return sqldb.DataDir("caderninho") }
