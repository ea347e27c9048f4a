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
	if cli.IsHelp(args) {
		fmt.Fprint(stdout, admin.Usage)
		return cli.ErrHelpShown
	}
	cmd, err := admin.Parse(args, os.Getenv("LUMO_DB"))
	var ue *admin.UsageError
	if errors.As(err, &ue) {
		fmt.Fprint(os.Stderr, admin.Usage)
		return &cli.UsageError{Command: "lumo admin", Msg: ue.Msg}
	}
	if err != nil {
		return err
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
	return cmd.Run(ctx, db, stdout)
}
