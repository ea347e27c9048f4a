package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
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
	if len(args) == 1 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(stdout, admin.Usage)
		return nil
	}
	cmd, err := admin.Parse(args, os.Getenv("CADERNINHO_DB"))
	var ue *admin.UsageError
	if errors.As(err, &ue) {
		fmt.Fprint(os.Stderr, admin.Usage)
		return err
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

// panelCommand runs `caderninho panel reset`: a new owner credential, printed once.
func panelCommand(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "reset" {
		return errors.New("uso: caderninho panel reset [--db DSN]")
	}
	fs := flag.NewFlagSet("panel reset", flag.ContinueOnError)
	dsn := dbFlag(fs)
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return errors.New("uso: caderninho panel reset [--db DSN]")
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
