package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/lumo-caderninho/mcp/impl/lumo/admin"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/cli"
)

// adminCommand runs `lumo admin ...`. It never seeds the demo: administration acts on the
// database it is pointed at (the embedded default file when --db is not given).
func adminCommand(ctx context.Context, args []string, stdout io.Writer, log *slog.Logger) error {
	if cli.IsHelp(args) { // lumo admin -h, or one command's: lumo admin tenant add -h
		fmt.Fprint(stdout, admin.CommandUsage(admin.Name(args)))
		return cli.ErrHelpShown
	}
	cmd, err := admin.Parse(args, os.Getenv("LUMO_DB"))
	if err != nil {
		return adminUsage(err)
	}
	dsn := cmd.DB
	if dsn == "" {
		if dsn, err = store.DefaultDSN(); err != nil {
			return err
		}
	}
	db, err := store.Open(ctx, dsn, store.WithLogger(log))
	if err != nil {
		return err
	}
	defer db.Close()
	return adminUsage(cmd.Run(ctx, db, stdout))
}

// adminUsage turns an admin usage error into the command line's, after printing the usage of
// the command it is about (all of them when the command is unknown).
func adminUsage(err error) error {
	var ue *admin.UsageError
	if !errors.As(err, &ue) {
		return err
	}
	fmt.Fprint(os.Stderr, admin.CommandUsage(ue.Command))
	name := "lumo admin"
	if ue.Command != "" {
		name += " " + ue.Command
	}
	return &cli.UsageError{Command: name, Msg: ue.Msg}
}
