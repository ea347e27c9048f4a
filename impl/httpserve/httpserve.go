// Package httpserve runs an HTTP handler until its context ends, then shuts down gracefully
// within a bound: the one server loop both binaries share.
package httpserve

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// DefaultGrace is how long in-flight requests get after SIGTERM by default.
const DefaultGrace = 20 * time.Second

// Serve serves h on ln until ctx ends (SIGTERM, SIGINT); then it stops accepting connections,
// lets in-flight requests finish for up to grace, and closes the rest. It returns once every
// connection is closed, so the caller can close the database pool after it.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration, log *slog.Logger) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		log.Info("shutting down: refusing new requests, waiting for the ones in flight", "timeout", grace.String())
		shutdown, cancel := context.WithTimeout(context.Background(), grace)
		defer cancel()
		if err := hs.Shutdown(shutdown); err != nil {
			log.Warn("shutdown timeout: closing the remaining connections", "err", err)
			hs.Close()
		}
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	<-done
	log.Info("server stopped")
	return nil
}
