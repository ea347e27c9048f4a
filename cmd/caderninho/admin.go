package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/cli"
)

// openAdminStore opens dsn, or the embedded default file, without seeding the demo:
// administration acts on the database it is pointed at.
func openAdminStore(ctx context.Context, dsn string) (*cadstore.Store, error) {
	if dsn == "" {
		dir, err := dataDir()
		if err != nil {
			return nil, err
		}
		dsn = filepath.Join(dir, "caderninho.db")
	}
	return cadstore.Open(ctx, dsn)
}

// adminCommand runs `caderninho admin ...`.
func adminCommand(ctx context.Context, args []string, stdout io.Writer) error {
	if cli.IsHelp(args) {
		fmt.Fprint(stdout, admin.Usage)
		return cli.ErrHelpShown
	}
	cmd, err := admin.Parse(args, os.Getenv("CADERNINHO_DB"))
	var ue *admin.UsageError
	if errors.As(err, &ue) {
		fmt.Fprint(os.Stderr, admin.Usage)
		return &cli.UsageError{Command: "caderninho admin", Msg: ue.Msg}
	}
	if err != nil {
		return err
	}
	s, err := openAdminStore(ctx, cmd.DB)
	if err != nil {
		return err
	}
	defer s.DB().Close()
	return cmd.Run(ctx, s, stdout)
}

var panelResetCommand = cli.Command{Name: "caderninho panel reset",
	Summary: "Cria uma nova credencial do painel (/painel/) e a imprime uma única vez, sozinha na primeira linha;\n" +
		"a anterior deixa de valer e as sessões abertas do painel são encerradas.",
	Examples: []string{"caderninho panel reset", "caderninho panel reset --db postgres://caderninho@db/casa"}}

// panelCommand runs `caderninho panel reset`: a new owner credential, printed once.
func panelCommand(ctx context.Context, args []string, stdout io.Writer) error {
	fs := panelResetCommand.FlagSet()
	dsn := dbFlag(fs)
	switch {
	case cli.IsHelp(args):
		panelResetCommand.Help(stdout, fs)
		return cli.ErrHelpShown
	case len(args) == 0:
		return &cli.UsageError{Command: "caderninho panel", Msg: "informe o subcomando: reset"}
	case args[0] != "reset":
		return cli.UnknownSubcommand("caderninho panel", args[0], []string{"reset"})
	}
	if err := panelResetCommand.Parse(fs, args[1:], stdout); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return &cli.UsageError{Command: panelResetCommand.Name, Msg: "reset não recebe argumentos além das opções"}
	}
	s, err := openAdminStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer s.DB().Close()
	c, err := (admin.Ops{Store: s, Actor: admin.ActorCLI}).ResetCredential(ctx)
	if err != nil {
		return err
	}
	printCredential(stdout, c, "Nova credencial do painel; a anterior deixou de valer e as sessões abertas foram encerradas.")
	return nil
}

// printCredential prints an owner credential alone on the first line (for scripts), then what
// it is; it is shown only this once.
func printCredential(w io.Writer, credential, what string) {
	fmt.Fprintln(w, credential)
	fmt.Fprintf(w, "%s Guarde-a agora: ela não será mostrada de novo. Entre em /painel/ do caderninho serve --http.\n", what)
}
