// Package httpserve runs an HTTP handler until its context ends, shuts it down gracefully within a
// bound, and bounds what each client may hold (connections, slow bodies, unread answers): the one
// server loop both binaries share.
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
// connection is closed, so the caller can close the database pool after it. lim bounds the
// connections and requests (its zero fields take the defaults).
func Serve(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration, lim Limits, log *slog.Logger) error {
	hs, t := newServer(h, lim.resolve(log), log)
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
	if err := hs.Serve(t.listener(ln)); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	<-done
	log.Info("server stopped")
	return nil
}

// newServer is the server of h within lim (resolved), and the tracker its listener must go through.
func newServer(h http.Handler, lim Limits, log *slog.Logger) (*http.Server, *tracker) {
	t := newTracker(lim, log)
	return &http.Server{
		Handler:           bounded(h, lim),
		ReadHeaderTimeout: lim.HeaderTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ConnState:         t.connState,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}, t
}
