package store

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lib/pq"
)

// On PostgreSQL, reading the import counter was one of a small tool call's two round trips. Every
// transaction that moves the counter also notifies generationChannel (delivered when it commits),
// so a listener on a connection of its own tells when the value read last is no longer current:
// between changes, calls use the remembered value and go to the database once.
//
// Notifications travel asynchronously, so another process's import or admin change is seen a
// moment (normally well under a millisecond) after it commits; this process's own changes are seen
// at once (generationMoved after commit). A value is never trusted for longer than generationTrust,
// and not at all while the listener is down, so a lost notification (a pooler in transaction mode
// that does not keep LISTEN, a connection that died silently, a hot standby that refuses LISTEN)
// costs at most that much staleness, never a wrong answer for good.

// generationChannel is the NOTIFY channel of the import counter.
const generationChannel = "lumo_generation"

// generationTrust bounds how long a remembered counter value is used without reading it again.
const generationTrust = time.Second

// genWatch remembers the import counter between notifications.
type genWatch struct {
	dsn   string
	log   *slog.Logger
	trust time.Duration
	start sync.Once
	reads atomic.Int64 // counter reads that went to the database (tests)

	mu       sync.Mutex
	live     bool   // LISTEN is active: a change will be notified
	epoch    uint64 // moves at every notification, listener state change and local change
	known    bool
	gen      int64
	readAt   time.Time // when the read of gen started
	listener *pq.Listener
	closed   bool
}

// listenerApp names the listener's connection in pg_stat_activity.
const listenerApp = "lumo-generation-listener"

func newGenWatch(dsn string, log *slog.Logger) *genWatch {
	if u, err := url.Parse(dsn); err == nil && !u.Query().Has("application_name") {
		q := u.Query()
		q.Set("application_name", listenerApp)
		u.RawQuery = q.Encode()
		dsn = u.String()
	}
	return &genWatch{dsn: dsn, log: log, trust: generationTrust}
}

// current is the remembered counter when it can be trusted at now; otherwise ok is false and epoch
// is what remember must be given after reading the counter.
func (w *genWatch) current(now time.Time) (gen int64, epoch uint64, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.live && w.known && now.Sub(w.readAt) < w.trust {
		return w.gen, w.epoch, true
	}
	return 0, w.epoch, false
}

// remember keeps gen, read from the database starting at readAt, unless something happened since
// epoch (a notification could have overtaken the read).
func (w *genWatch) remember(epoch uint64, gen int64, readAt time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if epoch == w.epoch {
		w.known, w.gen, w.readAt = true, gen, readAt
	}
}

// forget drops the remembered value: the counter moved or may have.
func (w *genWatch) forget() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.epoch++
	w.known = false
}

func (w *genWatch) setLive(live bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.live = live
	w.epoch++
	w.known = false
}

// listen starts the listener, once, in the background: LISTEN waits for a connection, and a call
// must never wait for it (calls read the counter meanwhile). Notifications carry the schema of the
// counter that moved: installations in other schemas of the database do not concern this one.
func (w *genWatch) listen(pool *sql.DB) {
	w.start.Do(func() { go w.run(pool) })
}

func (w *genWatch) run(pool *sql.DB) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var schema string
	if err := pool.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		w.log.Info("not listening for imports; reading the import counter at every call", "err", err)
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
			w.log.Warn("lost the connection that listens for imports; reading the import counter at every call until it is back", "err", err)
		case pq.ListenerEventReconnected: // LISTEN is active again; what was missed is unknown
			w.setLive(true)
		}
	})
	w.listener = l
	w.mu.Unlock()
	go func() {
		for n := range l.Notify { // nil after a reconnection: what was missed is unknown
			if n == nil || n.Extra == schema {
				w.forget()
			}
		}
	}()
	if err := l.Listen(generationChannel); err != nil {
		w.log.Info("not listening for imports; reading the import counter at every call", "err", err)
		l.Close()
		return
	}
	w.setLive(true)
}

func (w *genWatch) close() {
	w.mu.Lock()
	w.closed, w.live = true, false
	l := w.listener
	w.mu.Unlock()
	if l != nil {
		l.Close() // outside mu: the listener's goroutines take it
	}
}

// importGeneration is the import counter: remembered on PostgreSQL while the listener vouches for
// it, read from the database otherwise.
func (db *DB) importGeneration(ctx context.Context) (int64, error) {
	w := db.watch
	if w == nil {
		return scanGeneration(db.queryRow(ctx, importGenerationSQL))
	}
	w.listen(db.sql)
	now := time.Now()
	gen, epoch, ok := w.current(now)
	if ok {
		return gen, nil
	}
	w.reads.Add(1)
	gen, err := scanGeneration(db.queryRow(ctx, importGenerationSQL))
	if err != nil {
		return 0, err
	}
	w.remember(epoch, gen, now)
	return gen, nil
}

// moveGeneration moves the import counter in tx, as every import and admin change does, and
// notifies the other processes (PostgreSQL delivers it at commit). Once tx has committed, call
// generationMoved.
func (db *DB) moveGeneration(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, "UPDATE lumo_ids SET last_id = last_id + 1 WHERE kind = 'import'"); err != nil {
		return err
	}
	if db.watch != nil {
		if _, err := tx.ExecContext(ctx, "SELECT pg_notify($1, current_schema())", generationChannel); err != nil {
			return fmt.Errorf("notifying the import: %w", err)
		}
	}
	return nil
}

// generationMoved makes this process read the counter afresh, without waiting for its own
// notification.
func (db *DB) generationMoved() {
	if db.watch != nil {
		db.watch.forget()
	}
}
