package httpserve

import (
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// The defaults of Limits. The timeouts fit Streamable HTTP: a POST carries one small JSON-RPC
// message, and a GET's SSE stream may stay open for hours, writing now and then; each write (not
// the stream) must finish within WriteTimeout.
const (
	DefaultMaxConns          = 4096
	DefaultMaxConnsPerClient = 256
	DefaultHeaderTimeout     = 10 * time.Second
	DefaultBodyTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 30 * time.Second
	DefaultIdleTimeout       = 60 * time.Second
	DefaultMaxBody           = 1 << 20
	// fdReserve is what MaxConns leaves of the process's file limit for the database pool, the
	// SQLite files, logs and the listener.
	fdReserve = 256
)

// Limits bound what clients may hold of a server. A zero field takes its default.
type Limits struct {
	// MaxConns caps the open connections in total, kept below the process's file limit. At the
	// cap a new connection closes the oldest kept-alive one, or failing that the oldest stuck for
	// a second in its first header, then in a body; with none of those it is refused with 503.
	MaxConns int
	// MaxConnsPerClient caps the open connections of one client IP address the same way; < 0 is
	// no per-client cap (behind a reverse proxy every client has the proxy's address).
	MaxConnsPerClient int
	HeaderTimeout     time.Duration // to receive a request's header
	BodyTimeout       time.Duration // to receive a request's whole body (408 past it)
	WriteTimeout      time.Duration // for each write of an answer to reach the client
	IdleTimeout       time.Duration // a kept-alive connection between requests
	MaxBody           int64         // a request body's bytes (413 past it)
	// MaxBodyFor, when set, is the bound of the requests it gives a positive bound for (a route
	// that takes uploads); the others keep MaxBody.
	MaxBodyFor func(*http.Request) int64
}

// RegisterFlags adds the connection caps of serve --http to fs, with their defaults.
func (l *Limits) RegisterFlags(fs *flag.FlagSet) {
	fs.IntVar(&l.MaxConns, "max-conns", DefaultMaxConns,
		"conexões HTTP abertas ao mesmo tempo, no total; no teto, a nova conexão fecha a ociosa mais antiga ou recebe 503")
	fs.Func("max-conns-per-client", fmt.Sprintf("conexões HTTP abertas ao mesmo tempo por endereço IP do cliente (padrão %d; 0 = sem teto, atrás de um proxy reverso)", DefaultMaxConnsPerClient),
		func(s string) error {
			var n int
			if _, err := fmt.Sscan(s, &n); err != nil || n < 0 {
				return fmt.Errorf("use um número inteiro de 0 (sem teto) para cima, não %q", s)
			}
			l.MaxConnsPerClient = n
			if n == 0 {
				l.MaxConnsPerClient = -1
			}
			return nil
		})
}

// Check refuses caps a flag may have set wrong.
func (l Limits) Check() error {
	if l.MaxConns < 0 {
		return fmt.Errorf("--max-conns precisa ser positivo (veio %d)", l.MaxConns)
	}
	return nil
}

// resolve fills the defaults and keeps MaxConns below the file limit.
func (l Limits) resolve(log *slog.Logger) Limits {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.HeaderTimeout, DefaultHeaderTimeout)
	def(&l.BodyTimeout, DefaultBodyTimeout)
	def(&l.WriteTimeout, DefaultWriteTimeout)
	def(&l.IdleTimeout, DefaultIdleTimeout)
	if l.MaxBody <= 0 {
		l.MaxBody = DefaultMaxBody
	}
	if l.MaxConns <= 0 {
		l.MaxConns = DefaultMaxConns
	}
	if l.MaxConnsPerClient == 0 {
		l.MaxConnsPerClient = DefaultMaxConnsPerClient
	}
	if files := openFileLimit(); files > 0 && l.MaxConns > files-fdReserve {
		capped := max(1, files-fdReserve)
		log.Warn("connection cap lowered below the open-file limit", "max_conns", l.MaxConns, "file_limit", files, "now", capped)
		l.MaxConns = capped
	}
	return l
}
