package httpserve

import (
	"container/list"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// phase is what a connection is doing, for choosing which to close at a cap.
type phase uint8

const (
	// fresh: accepted, its first request's header not yet read (net/http's StateNew). An honest
	// client's header is already on its way, so a fresh connection gets patience to be read.
	fresh phase = iota
	// kept: kept alive between requests (net/http's StateIdle), or sending the next header.
	// Cheapest to close: it was served, and its client opens a new one when it needs one.
	kept
	// receiving: the handler is waiting for the request's body.
	receiving
	// busy: the handler is running (an SSE stream among them); never closed to make room.
	busy
	phases
)

// patience is how long a fresh connection or a body in progress is left alone before it counts
// as stuck and may be closed to make room.
const patience = time.Second

// refusal is what a connection over a cap gets before it is closed.
var refusal = func() string {
	const body = "Conexões demais abertas com este servidor. Tente de novo em instantes.\n"
	return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n" +
		"Retry-After: 1\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}()

// tracker counts the open connections in total and per client address and makes room at the
// caps (see Limits.MaxConns).
type tracker struct {
	lim Limits
	log *slog.Logger

	mu      sync.Mutex
	total   int
	clients map[string]map[*conn]struct{}
	byPhase [phases]list.List // the connections in each phase, the longest in it first
	closed  struct{ evicted, refused int }
	logged  time.Time

	refusing chan struct{} // bounds the goroutines writing refusals
}

// conn is an accepted connection known to the tracker.
type conn struct {
	net.Conn
	t      *tracker
	client string
	phase  phase
	since  time.Time
	elem   *list.Element // in t.byPhase[phase]; nil once untracked
	once   sync.Once
}

func newTracker(lim Limits, log *slog.Logger) *tracker {
	return &tracker{lim: lim, log: log, clients: map[string]map[*conn]struct{}{}, refusing: make(chan struct{}, 64)}
}

func (t *tracker) listener(ln net.Listener) net.Listener { return &capListener{Listener: ln, t: t} }

type capListener struct {
	net.Listener
	t *tracker
}

// Accept returns the next connection within the caps, closing or refusing others to keep them.
func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if tc := l.t.admit(c); tc != nil {
			return tc, nil
		}
	}
}

// clientOf is the IP of a remote address (without the port); for IPv6, its /64 network, which
// one subscriber usually holds whole.
func clientOf(a net.Addr) string {
	if ta, ok := a.(*net.TCPAddr); ok {
		if ta.IP.To4() == nil && len(ta.IP) == net.IPv6len {
			return ta.IP.Mask(net.CIDRMask(64, 128)).String() + "/64"
		}
		return ta.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// admit tracks c, first making room at the caps; nil when c was refused.
func (t *tracker) admit(c net.Conn) *conn {
	client := clientOf(c.RemoteAddr())
	now := time.Now()
	var victims []*conn
	t.mu.Lock()
	mine := t.clients[client]
	if t.lim.MaxConnsPerClient > 0 && len(mine) >= t.lim.MaxConnsPerClient {
		v := evictable(mine, now)
		if v == nil {
			t.refuseLocked(c, now)
			return nil
		}
		t.untrackLocked(v)
		victims = append(victims, v)
	}
	if t.total >= t.lim.MaxConns {
		v := t.makeRoomLocked(client, now)
		if v == nil {
			t.refuseLocked(c, now)
			for _, v := range victims {
				v.Conn.Close()
			}
			return nil
		}
		t.untrackLocked(v)
		victims = append(victims, v)
	}
	tc := &conn{Conn: c, t: t, client: client, phase: fresh, since: now}
	tc.elem = t.byPhase[fresh].PushBack(tc)
	if mine == nil {
		mine = map[*conn]struct{}{}
		t.clients[client] = mine
	}
	mine[tc] = struct{}{}
	t.total++
	t.closed.evicted += len(victims)
	t.reportLocked(now)
	t.mu.Unlock()
	for _, v := range victims {
		v.Conn.Close()
	}
	return tc
}

// rank orders the connections that may be closed to make room: kept-alive ones first, then
// those stuck in their first header, then those stuck in a body; ok is false for one that may
// not be closed.
func rank(c *conn, now time.Time) (r int, ok bool) {
	switch c.phase {
	case kept:
		return 0, true
	case fresh, receiving:
		return int(c.phase), now.Sub(c.since) >= patience
	}
	return 0, false
}

func evictableNow(c *conn, now time.Time) bool {
	_, ok := rank(c, now)
	return ok
}

// evictable is the connection of one client to close first, or nil.
func evictable(conns map[*conn]struct{}, now time.Time) *conn {
	var best *conn
	bestRank := 0
	for c := range conns {
		r, ok := rank(c, now)
		if ok && (best == nil || r < bestRank || (r == bestRank && c.since.Before(best.since))) {
			best, bestRank = c, r
		}
	}
	return best
}

// makeRoomLocked is the connection to close so that one of client may open at the total cap:
// the oldest kept-alive one; else one of the client holding the most, while it holds more than
// this one (so a client with few connections gets in however many others hold); else the oldest
// stuck one; nil when none may be closed.
func (t *tracker) makeRoomLocked(client string, now time.Time) *conn {
	if e := t.byPhase[kept].Front(); e != nil {
		return e.Value.(*conn)
	}
	var heaviest map[*conn]struct{}
	for _, conns := range t.clients {
		if len(conns) > len(heaviest) {
			heaviest = conns
		}
	}
	if len(heaviest) > len(t.clients[client])+1 {
		var pick *conn
		for c := range heaviest {
			if c.phase != busy && (pick == nil || c.phase < pick.phase || (c.phase == pick.phase && c.since.Before(pick.since))) {
				pick = c
			}
		}
		if pick != nil {
			return pick
		}
	}
	for _, p := range []phase{fresh, receiving} {
		if e := t.byPhase[p].Front(); e != nil && evictableNow(e.Value.(*conn), now) {
			return e.Value.(*conn)
		}
	}
	return nil
}

func (t *tracker) untrackLocked(c *conn) {
	if c.elem == nil {
		return
	}
	t.byPhase[c.phase].Remove(c.elem)
	c.elem = nil
	t.total--
	mine := t.clients[c.client]
	delete(mine, c)
	if len(mine) == 0 {
		delete(t.clients, c.client)
	}
}

// refuseLocked answers c with 503 and closes it, off the accept loop (and unlocks t.mu).
func (t *tracker) refuseLocked(c net.Conn, now time.Time) {
	t.closed.refused++
	t.reportLocked(now)
	t.mu.Unlock()
	select {
	case t.refusing <- struct{}{}:
		go func() {
			defer func() { <-t.refusing }()
			c.SetDeadline(time.Now().Add(time.Second))
			io.WriteString(c, refusal)
			// Let the client read the answer: closing with its request unread would reset the
			// connection and drop the 503 on the way.
			if cw, ok := c.(interface{ CloseWrite() error }); ok {
				cw.CloseWrite()
				io.Copy(io.Discard, io.LimitReader(c, 64<<10))
			}
			c.Close()
		}()
	default: // refusing many already: no answer, no goroutine
		c.Close()
	}
}

// reportLocked logs what the caps closed, at most every 10 s (an attack must not flood the log).
func (t *tracker) reportLocked(now time.Time) {
	if t.closed.evicted+t.closed.refused == 0 || now.Sub(t.logged) < 10*time.Second {
		return
	}
	t.log.Warn("connection caps reached", "closed_to_make_room", t.closed.evicted, "refused", t.closed.refused,
		"open", t.total, "max_conns", t.lim.MaxConns, "max_conns_per_client", t.lim.MaxConnsPerClient)
	t.closed.evicted, t.closed.refused = 0, 0
	t.logged = now
}

func (t *tracker) setPhase(c *conn, p phase) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c.elem == nil || c.phase == p {
		return
	}
	t.byPhase[c.phase].Remove(c.elem)
	c.phase, c.since = p, time.Now()
	c.elem = t.byPhase[p].PushBack(c)
}

// connState follows net/http's view of each connection.
func (t *tracker) connState(nc net.Conn, s http.ConnState) {
	c, ok := nc.(*conn)
	if !ok {
		return
	}
	switch s {
	case http.StateIdle:
		// The answer is flushed: no write deadline while waiting for the next request.
		c.Conn.SetWriteDeadline(time.Time{})
		t.setPhase(c, kept)
	case http.StateActive, http.StateHijacked:
		t.setPhase(c, busy)
	}
}

// Close untracks the connection once, whoever closes it.
func (c *conn) Close() error {
	c.once.Do(func() {
		c.t.mu.Lock()
		c.t.untrackLocked(c)
		c.t.mu.Unlock()
	})
	return c.Conn.Close()
}

// CloseWrite keeps net/http's graceful close of TCP connections.
func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

type connKey struct{}

// connOf is the tracked connection of a request, or nil.
func connOf(r *http.Request) *conn {
	c, _ := r.Context().Value(connKey{}).(*conn)
	return c
}
