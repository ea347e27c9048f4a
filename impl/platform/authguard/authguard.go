// Package authguard throttles failed authentication per client address, for the bearer checks of
// both servers and lumo's report login. A client (an IPv4 address, or an IPv6 /64) that has
// failed MaxFailures times within Window is answered 429 with Retry-After before its
// credentials are looked at, so a guessing client costs no database work.
//
// Failures drain like a leaky bucket of MaxFailures: a burst of MaxFailures failures, then one more every
// Window/MaxFailures (10 and 6 s by default: 10 a minute). A success neither adds nor removes
// a failure, so alternating good and bad tokens does not reset the count. While a client has
// recent failures, its requests still in flight count as failures until they answer, so
// concurrent guesses cannot overrun the bound. A bearer credential that answered without 401 is
// remembered (its digest, a few per client) and passes without waiting: one mistyped token must not
// throttle the same client's good requests in parallel, nor the other users behind its address.
// The state is in the memory of each process: behind N replicas a client gets at most N times the
// bound.
package authguard

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"math"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Defaults of serve --http.
const (
	DefaultMaxFailures = 10
	DefaultWindow      = time.Minute
)

// Guard counts failed authentications per client address. A nil Guard admits everything.
type Guard struct {
	MaxFailures int
	Window      time.Duration
	Now         func() time.Time // nil: time.Now

	mu      sync.Mutex
	clients map[string]*client
	swept   time.Time
}

type client struct {
	level   float64   // failures not yet drained, as of at
	at      time.Time //
	pending int       // requests in flight, counted while level > 0
	good    []string  // digests of credentials that answered without 401, newest last
}

// maxGood bounds the remembered good credentials of one client.
const maxGood = 16

// New is a Guard with the default window, or nil (off) when maxFailures is 0 or less.
func New(maxFailures int) *Guard {
	if maxFailures <= 0 {
		return nil
	}
	return &Guard{MaxFailures: maxFailures, Window: DefaultWindow}
}

// RegisterFlag adds --auth-failures to fs and returns its value.
func RegisterFlag(fs *flag.FlagSet) *int {
	return fs.Int("auth-failures", DefaultMaxFailures,
		"tentativas com token inválido por minuto por endereço IP do cliente antes de responder 429 (0 = sem teto, atrás de um proxy reverso)")
}

// Message is the Portuguese text of a refusal.
func Message(retryAfter int) string {
	return fmt.Sprintf("Muitas tentativas com token inválido a partir deste endereço; tente de novo em %d s.", retryAfter)
}

// Refuser answers a throttled request; retryAfter is in whole seconds, at least 1.
type Refuser func(w http.ResponseWriter, r *http.Request, retryAfter int)

// TextRefuser answers 429 with Retry-After and Message as plain text.
func TextRefuser(w http.ResponseWriter, _ *http.Request, retryAfter int) {
	w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusTooManyRequests)
	fmt.Fprintln(w, Message(retryAfter))
}

// Wrap guards next, whose 401 answers are the failures: a throttled client gets refuse's
// answer (TextRefuser when nil) and next never sees the request. A nil g returns next.
func (g *Guard) Wrap(next http.Handler, refuse Refuser) http.Handler {
	if g == nil {
		return next
	}
	if refuse == nil {
		refuse = TextRefuser
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := ClientKey(r.RemoteAddr)
		cred := ""
		if h := r.Header.Get("Authorization"); h != "" {
			sum := sha256.Sum256([]byte(h))
			cred = string(sum[:])
		}
		retry, counted, ok := g.begin(key, cred)
		if !ok {
			refuse(w, r, retry)
			return
		}
		sw := &statusWriter{ResponseWriter: w}
		defer func() { g.end(key, cred, counted, sw.status == http.StatusUnauthorized) }()
		next.ServeHTTP(sw, r)
	})
}

func (g *Guard) now() time.Time {
	if g.Now != nil {
		return g.Now()
	}
	return time.Now()
}

// drained is c's level at now. A now before c.at (requests read the clock before they take the
// lock, so they may take it out of order) drains nothing: a level grows only by a failure.
func (g *Guard) drained(c *client, now time.Time) float64 {
	rate := float64(g.MaxFailures) / g.Window.Seconds() // failures drained per second
	return max(0, c.level-max(0, now.Sub(c.at).Seconds())*rate)
}

// settle brings c's level to now, never moving c.at back.
func (g *Guard) settle(c *client, now time.Time) {
	if now.After(c.at) {
		c.level, c.at = g.drained(c, now), now
	}
}

// begin admits a request of key with the credential digest cred ("" for none), counting it as
// pending unless cred is remembered as good, or returns the seconds to wait.
func (g *Guard) begin(key, cred string) (retryAfter int, counted, ok bool) {
	now := g.now()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sweepLocked(now)
	c := g.clients[key]
	if c == nil {
		if g.clients == nil {
			g.clients = map[string]*client{}
		}
		c = &client{at: now}
		g.clients[key] = c
	}
	g.settle(c, now)
	if cred != "" && slices.Contains(c.good, cred) {
		return 0, false, true
	}
	limit := float64(g.MaxFailures)
	if c.level > 0 && c.level+float64(c.pending)+1 > limit {
		// Wait until one more failure fits; requests in flight answer soon, so only the
		// recorded failures decide how long.
		secs := max(0, c.level+1-limit) * g.Window.Seconds() / limit
		return max(1, int(math.Ceil(secs))), false, false
	}
	c.pending++
	return 0, true, true
}

// end records the answer to a request that begin admitted (counted: as pending).
func (g *Guard) end(key, cred string, counted, failed bool) {
	now := g.now()
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.clients[key]
	if c == nil { // swept while in flight
		c = &client{at: now}
		g.clients[key] = c
	}
	if counted {
		c.pending = max(0, c.pending-1)
	}
	switch i := slices.Index(c.good, cred); {
	case failed:
		g.settle(c, now)
		c.level++
		if i >= 0 { // revoked since: guessed no more than any other
			c.good = slices.Delete(c.good, i, i+1)
		}
	case cred != "" && i < 0:
		c.good = append(c.good, cred)
		if len(c.good) > maxGood {
			c.good = c.good[1:]
		}
	}
}

// sweepLocked forgets, at most once per Window, the clients whose failures have drained.
func (g *Guard) sweepLocked(now time.Time) {
	if now.Sub(g.swept) < g.Window {
		return
	}
	g.swept = now
	for k, c := range g.clients {
		if c.pending == 0 && g.drained(c, now) == 0 && now.Sub(c.at) >= g.Window {
			delete(g.clients, k)
		}
	}
}

// Clients is how many client addresses g tracks (for tests).
func (g *Guard) Clients() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.clients)
}

// ClientKey is the throttled unit of a request's RemoteAddr: the IPv4 address, or the /64 of an
// IPv6 address (one host usually holds a whole /64).
func ClientKey(remoteAddr string) string {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return host
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return ip.To4().String()
}

// statusWriter records the status of an answer.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
