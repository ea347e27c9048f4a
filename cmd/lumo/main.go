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
	"syscall"

	"github.com/lumo-caderninho/mcp/gen"
	"github.com/lumo-caderninho/mcp/impl/platform/schemapub"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
	"github.com/lumo-caderninho/mcp/schemas"
)

const usage = `lumo: servidor MCP de BI somente leitura.

Uso:
  lumo serve  [--db DSN] [--user LOGIN] [--http 127.0.0.1:PORT] [--validate-output] [--query-timeout 30s]
              [--rate-user 60] [--rate-tenant 300] [--stateless] [--shutdown-timeout 20s]
  lumo import [--db DSN] caminho/workspace.yaml
  lumo call   [--db DSN] [--user LOGIN] FERRAMENTA '{"arg": ...}'
  lumo admin  tenant|user|desk|member|token|publish ... (lumo admin help)
  lumo schemas list | show FERRAMENTA input|output | validate [--tool FERRAMENTA] [--kind input|output] ARQUIVO

--db (ou LUMO_DB): postgres://... para PostgreSQL; qualquer outro valor é um arquivo SQLite.
Sem --db, usa o SQLite em ~/.local/share/lumo/lumo.db, criado e carregado com o workspace de demonstração.

schemas confere payloads contra os schemas publicados sem abrir o banco (0 válido, 1 inválido, 2 uso).
Com --http, GET /schemas/ e GET /openapi.json publicam os schemas e o OpenAPI sem autenticação.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(telemetry.LogHandler{Handler: slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})})
	startPprof(log)
	if err := run(ctx, os.Args[1:], os.Stdout, log); err != nil {
		var code schemapub.ExitCode
		if errors.As(err, &code) {
			os.Exit(int(code))
		}
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "lumo:", err)
		}
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return flag.ErrHelp
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], log)
	case "import":
		return importWorkspace(ctx, args[1:], stdout, log)
	case "call":
		return call(ctx, args[1:], stdout, log)
	case "admin":
		return adminCommand(ctx, args[1:], stdout, log)
	case "schemas":
		cat, err := schemapub.New(schemas.FS, gen.OpenAPI, "lumo")
		if err != nil {
			return err
		}
		return cat.Run(args[1:], os.Stdin, stdout, os.Stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(os.Stderr, usage)
	return fmt.Errorf("comando desconhecido %q", args[0])
}

// dbFlag registers --db with LUMO_DB as its default.
func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", os.Getenv("LUMO_DB"), "DSN: postgres://... ou caminho de arquivo SQLite (padrão: LUMO_DB, ou o SQLite embutido)")
}
