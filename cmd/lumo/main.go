// Command lumo is the lumo MCP server: serve (stdio or HTTP), import a workspace, call a tool.
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
	"strings"
	"syscall"

	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/schemapub"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

const usage = `lumo: servidor MCP de BI somente leitura.

Uso:
  lumo init   [--postgres DSN --table ESQUEMA.TABELA] ARQUIVO... | PASTA
                                              (CSV, XLSX, Parquet e tabelas PostgreSQL viram um workspace.yaml e um app.yaml)
  lumo serve  [opções de serve, abaixo]
  lumo import [--db DSN] [--timeout 1h] caminho/workspace.yaml
  lumo call   [--db DSN] [--user LOGIN] FERRAMENTA '{"arg": ...}'
  lumo admin  tenant|user|desk|member|token|publish ... (lumo admin help)
  lumo schemas list | show FERRAMENTA input|output | validate [--tool FERRAMENTA] [--kind input|output] ARQUIVO | doc FERRAMENTA
  lumo --version (ou -v)

A ajuda de cada comando, com suas opções e exemplos: lumo COMANDO -h (ou lumo help COMANDO).

Exemplos:
  lumo serve                                  # o workspace de demonstração, como o usuário ana
  lumo init minha-pasta                       # os seus arquivos viram um workspace
  lumo import minha-pasta/workspace.yaml
  lumo serve --user voce

--db (ou LUMO_DB): postgres://... para PostgreSQL; qualquer outro valor é um arquivo SQLite.
Sem --db, usa o SQLite em ~/.local/share/lumo/lumo.db, criado e carregado com o workspace de demonstração.

schemas confere payloads contra os schemas publicados sem abrir o banco (0 válido, 1 inválido, 2 uso).
Com --http, GET /schemas/, GET /openapi.json e GET /docs/ (referência em HTML) publicam os schemas, o OpenAPI e a referência sem autenticação.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// LUMO_LOG_LEVEL=debug adds, per query, where it ran and which rollup it read.
	level := slog.LevelInfo
	if os.Getenv("LUMO_LOG_LEVEL") == "debug" {
		level = slog.LevelDebug
	}
	log := slog.New(telemetry.LogHandler{Handler: slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level})})
	startPprof(log)
	err := run(ctx, os.Args[1:], os.Stdout, log)
	var code schemapub.ExitCode
	if errors.As(err, &code) {
		os.Exit(int(code))
	}
	os.Exit(cli.Exit("lumo", err, os.Stderr))
}

// commands are lumo's subcommands, for the help and for suggesting one.
var commands = []string{"init", "serve", "import", "call", "admin", "schemas", "help", "version"}

// help is the usage with every flag of serve, listed from the flag set serve parses.
func help() string {
	fs, _ := newServeFlags()
	var b strings.Builder
	b.WriteString(usage)
	b.WriteString("\nOpções de lumo serve:\n")
	cli.PrintFlags(&b, fs)
	return b.String()
}

func run(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, help())
		return flag.ErrHelp
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], log)
	case "init":
		return initWorkspace(ctx, args[1:], stdout)
	case "import":
		return importWorkspace(ctx, args[1:], stdout, log)
	case "call":
		return call(ctx, args[1:], stdout, log)
	case "admin":
		return adminCommand(ctx, args[1:], stdout, log)
	case "schemas":
		cat, err := publishedCatalog()
		if err != nil {
			return err
		}
		return cat.Run(args[1:], os.Stdin, stdout, os.Stderr)
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && slices.Contains(commands, args[1]) && args[1] != "help" { // lumo help import
			return run(ctx, []string{args[1], "-h"}, stdout, log)
		}
		fmt.Fprint(stdout, help())
		return cli.ErrHelpShown
	case "version", "-version", "--version", "-v", "-V":
		fmt.Fprintln(stdout, cli.Version("lumo"))
		return nil
	}
	fmt.Fprintf(os.Stderr, "lumo: %s\n\n%s", cli.UnknownCommand(args[0], commands), help())
	return flag.ErrHelp
}

// dbFlag registers --db with LUMO_DB as its default.
func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", os.Getenv("LUMO_DB"), "DSN: postgres://... ou caminho de arquivo SQLite (padrão: LUMO_DB, ou o SQLite embutido)")
}
