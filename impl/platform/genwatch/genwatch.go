// Package genwatch remembers, on PostgreSQL, a counter that every change moves and notifies on a
// channel, so that between changes calls use the value read last instead of reading it again.
package genwatch

import (
	"context"
	"database/sql"
	"log/slog"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lib/pq"
)

// Every transaction that moves the counter also notifies Config.Channel (Notify; delivered when it
// commits), so a listener on a connection of its own tells when the value read last is no longer
// current: between changes, calls use the remembered value and go to the database once.
//
// Notifications travel asynchronously, so another process's change is seen a moment (normally
// well under a millisecond) after it commits; this process's own changes are seen at once (Forget
// after commit). A value is never trusted for longer than Config.Trust, and not at all while the
// listener is down, so a lost notification (a pooler in transaction mode that does not keep
// LISTEN, a connection that died silently, a hot standby that refuses LISTEN) costs at most that
// much staleness, never a wrong answer for good.

// Config says what a Watch watches.
type Config struct {
	// Channel is the NOTIFY channel every move of the counter notifies.
	Channel string
	// ApplicationName names the listener's connection in pg_stat_activity, unless the DSN names
	// one.
	ApplicationName string
	// Trust bounds how long a remembered value is used without reading it again.
	Trust time.Duration
	// Changes and Counter name, in log messages, what moves the counter ("imports") and the
	// counter ("the import counter").
	Changes, Counter string
}

// Watch remembers the counter between notifications.
type Watch struct {
	dsn     string
	log     *slog.Logger
	channel string
	changes string
	counter string
	trust   time.Duration
	start   sync.Once
	reads   atomic.Int64 // counter reads that went to the database (tests)

	mu       sync.Mutex
	live     bool   // LISTEN is active: a change will be notified
	epoch    uint64 // moves at every notification, listener state change and local change
	known    bool
	gen      int64
	readAt   time.Time // when the read of gen started
	listener *pq.Listener
	closed   bool
}

// New returns a Watch that will listen on dsn, a PostgreSQL URL. Nothing connects before the
// first Value.
func New(dsn string, log *slog.Logger, c Config) *Watch {
	if u, err := url.Parse(dsn); err == nil && !u.Query().Has("application_name") {
		q := u.Query()
		q.Set("application_name", c.ApplicationName)
		u.RawQuery = q.Encode()
		dsn = u.String()
	}
	return &Watch{dsn: dsn, log: log, channel: c.Channel, changes: c.Changes, counter: c.Counter, trust: c.Trust}
}

// Value is the counter: the remembered value while the listener vouches for it, otherwise what
// read returns (remembered unless a notification overtook the read). The first call starts the
// listener, in the background, on pool's database.
func (w *Watch) Value(pool *sql.DB, read func() (int64, error)) (int64, error) {
	w.listen(pool)
	now := time.Now()
	gen, epoch, ok := w.current(now)
	if ok {
		return gen, nil
	}
	w.reads.Add(1)
	gen, err := read()
	if err != nil {
		return 0, err
	}
	w.remember(epoch, gen, now)
	return gen, nil
}

// Notify notifies the channel from tx, which moves the counter; PostgreSQL delivers it at commit.
// The payload is the schema, so installations in other schemas of the database are not
// disturbed. Once tx has committed, call Forget.
func (w *Watch) Notify(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, "SELECT pg_notify($1, current_schema())", w.channel)
	return err
}

// current is the remembered counter when it can be trusted at now; otherwise ok is false and epoch
// is what remember must be given after reading the counter.
func (w *Watch) current(now time.Time) (gen int64, epoch uint64, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.live && w.known && now.Sub(w.readAt) < w.trust {
		return w.gen, w.epoch, true
	}
	return 0, w.epoch, false
}

// remember keeps gen, read from the database starting at readAt, unless something happened since
// epoch (a notification could have overtaken the read).
func (w *Watch) remember(epoch uint64, gen int64, readAt time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if epoch == w.epoch {
		w.known, w.gen, w.readAt = true, gen, readAt
	}
}

// Forget drops the remembered value: the counter moved or may have. This process calls it after
// committing its own change, so it reads the counter afresh without waiting for the notification.
func (w *Watch) Forget() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.epoch++
	w.known = false
}

func (w *Watch) setLive(live bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.live = live
	w.epoch++
	w.known = false
}

// listen starts the listener, once, in the background: LISTEN waits for a connection, and a call
// must never wait for it (calls read the counter meanwhile). Notifications carry the schema of the
// counter that moved: installations in other schemas of the database do not concern this one.
func (w *Watch) listen(pool *sql.DB) {
	w.start.Do(func() { go w.run(pool) })
}

func (w *Watch) run(pool *sql.DB) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var schema string
	if err := pool.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		w.log.Info("not listening for "+w.changes+"; reading "+w.counter+" at every call", "err", err)
		return
	}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	l := pq.NewListener(w.dsn, 100*time.Millisecond, 10*time.Second, func(ev pq.ListenerEventType, err error) {
		switch ev {
		case pq.ListenerEventDisconnected:
			w.setLive(false)
			w.log.Warn("lost the connection that listens for "+w.changes+"; reading "+w.counter+" at every call until it is back", "err", err)
		case pq.ListenerEventReconnected: // LISTEN is active again; what was missed is unknown
			w.setLive(true)
		}
	})
	w.listener = l
	w.mu.Unlock()
	go func() {
		for n := range l.Notify { // nil after a reconnection: what was missed is unknown
			if n == nil || n.Extra == schema {
				w.Forget()
			}
		}
	}()
	if err := l.Listen(w.channel); err != nil {
		w.log.Info("not listening for "+w.changes+"; reading "+w.counter+" at every call", "err", err)
		l.Close()
		return
	}
	w.setLive(true)
}

// Close stops the listener.
func (w *Watch) Close() {
	w.mu.Lock()
	w.closed, w.live = true, false
	l := w.listener
	w.mu.Unlock()
	if l != nil {
		l.Close() // outside mu: the listener's goroutines take it
	}
}

// State reports whether the listener vouches for the remembered value and how many times the
// counter was read from the database, for tests.
func (w *Watch) State() (live bool, reads int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.live, w.reads.Load()
}

// SetTrust sets how long a remembered value is trusted, for tests.
func (w *Watch) SetTrust(d time.Duration) { w.trust = d }

// MuteListener closes the listener without telling the watch, which keeps trusting what it
// remembers: only this process's own Forget can make it read the counter again. For tests.
func (w *Watch) MuteListener() {
	w.mu.Lock()
	l := w.listener
	w.mu.Unlock()
	l.Close()
}
