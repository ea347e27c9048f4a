package store

import (
	"container/list"
	"context"
	"database/sql"
	"sync"
)

// Tool calls run the same few SQL texts over and over (the import counter, a user by token, the
// queries an assistant repeats with other values). Preparing one is a fifth of a small query's CPU on
// SQLite, and lib/pq spends a round trip preparing every statement that has parameters; a prepared
// statement skips both. Statements are kept per import generation: an import may change the tables
// they read, so the next generation starts afresh.

// stmtCacheSize bounds the SQL texts kept prepared (each on every connection that ran it).
const stmtCacheSize = 256

type stmtCache struct {
	mu  sync.Mutex
	gen int64
	ll  *list.List // most recently used first; values are *cachedStmt
	m   map[string]*list.Element
}

type cachedStmt struct {
	sql     string
	st      *sql.Stmt
	users   int  // calls between acquire and release
	evicted bool // close once the last user releases it
}

// acquire returns the prepared statement of query at generation gen, preparing it if needed.
// The caller must release it once it has started the statement (open rows keep it alive).
func (c *stmtCache) acquire(ctx context.Context, db *sql.DB, gen int64, query string) (*cachedStmt, error) {
	c.mu.Lock()
	if c.m == nil || c.gen != gen {
		c.flushLocked()
		c.gen, c.ll, c.m = gen, list.New(), map[string]*list.Element{}
	}
	if e, ok := c.m[query]; ok {
		c.ll.MoveToFront(e)
		cs := e.Value.(*cachedStmt)
		cs.users++
		c.mu.Unlock()
		return cs, nil
	}
	c.mu.Unlock()

	st, err := db.PrepareContext(ctx, query) // outside the lock: on PostgreSQL a round trip
	if err != nil {
		return nil, err
	}
	cs := &cachedStmt{sql: query, st: st, users: 1}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || c.m == nil {
		cs.evicted = true // a newer generation arrived meanwhile: use it once, keep nothing
		return cs, nil
	}
	if e, ok := c.m[query]; ok { // another call prepared it meanwhile
		st.Close()
		c.ll.MoveToFront(e)
		other := e.Value.(*cachedStmt)
		other.users++
		return other, nil
	}
	c.m[query] = c.ll.PushFront(cs)
	for c.ll.Len() > stmtCacheSize {
		c.evictLocked(c.ll.Back())
	}
	return cs, nil
}

func (c *stmtCache) release(cs *cachedStmt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cs.users--
	if cs.evicted && cs.users == 0 {
		cs.st.Close()
	}
}

func (c *stmtCache) evictLocked(e *list.Element) {
	cs := c.ll.Remove(e).(*cachedStmt)
	delete(c.m, cs.sql)
	cs.evicted = true
	if cs.users == 0 {
		cs.st.Close()
	}
}

func (c *stmtCache) flushLocked() {
	for c.ll != nil && c.ll.Len() > 0 {
		c.evictLocked(c.ll.Front())
	}
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
	c.m = nil
}

// QueryContext runs a read through a statement prepared once per generation (see stmtCache); query
// uses the engine's placeholders.
func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	cs, err := db.stmts.acquire(ctx, db.sql, db.models.generation(), query)
	if err != nil {
		return nil, err
	}
	defer db.stmts.release(cs)
	return cs.st.QueryContext(ctx, args...)
}

// queryRow is QueryContext for one row.
func (db *DB) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	cs, err := db.stmts.acquire(ctx, db.sql, db.models.generation(), query)
	if err != nil {
		// database/sql offers no Row holding an error: run it unprepared, which reports the error.
		return db.sql.QueryRowContext(ctx, query, args...)
	}
	defer db.stmts.release(cs)
	return cs.st.QueryRowContext(ctx, args...)
}
