package cli

import (
	"log/slog"
	"os"
)

// QuietLog is the logger of a one-shot command such as call: warnings and errors only, so the
// MCP session's chatter (connected, disconnected) stays out of what the user reads.
func QuietLog() *slog.Logger {
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
