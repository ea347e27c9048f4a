package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
)

// serve and call arrive with the MCP tools.
func serve(context.Context, []string, *slog.Logger) error {
	return errors.New("serve ainda não está disponível")
}

func call(context.Context, []string, io.Writer, *slog.Logger) error {
	return errors.New("call ainda não está disponível")
}
