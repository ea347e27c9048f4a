package lumo

import (
	"container/list"
	"context"
	"strconv"
	"sync"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/query"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// BI users ask the same few questions of data that changes only at import. A query's whole answer
// depends only on the app's model and data, which the import counter identifies, and on the
// arguments: so answers are kept, keyed by app, import generation and canonical arguments, and
// shared by every caller who may see the app (visibility is checked before the cache is read).
// Every import and admin change moves the generation, on every replica, so a kept answer is never
// served for other data; entries of older generations age out of the LRU.

// DefaultResultCacheBytes bounds the kept answers (their JSON size).
const DefaultResultCacheBytes = 32 << 20

type resultCache struct {
	mu           sync.Mutex
	max          int64
	size         int64
	ll           *list.List // most recently used first; values are *cachedAnswer
	m            map[string]*list.Element
	hits, misses int64
}

type cachedAnswer struct {
	key  string
	q    *query.Query
	out  *lumoapi.QueryOutput // shared: never modified once kept
	size int64
}

func newResultCache(max int64) *resultCache {
	if max <= 0 {
		return nil
	}
	return &resultCache{max: max, ll: list.New(), m: map[string]*list.Element{}}
}

func answerKey(appID, gen int64, canonicalArgs []byte) string {
	return strconv.FormatInt(appID, 10) + "\x00" + strconv.FormatInt(gen, 10) + "\x00" + string(canonicalArgs)
}

func (c *resultCache) get(key string) (*cachedAnswer, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok {
		c.misses++
		return nil, false
	}
	c.hits++
	c.ll.MoveToFront(e)
	return e.Value.(*cachedAnswer), true
}

func (c *resultCache) put(a *cachedAnswer) {
	if c == nil || a.size > c.max/4 { // one answer never takes more than a quarter of the room
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[a.key]; ok {
		c.ll.MoveToFront(e)
		return
	}
	c.m[a.key] = c.ll.PushFront(a)
	c.size += a.size
	for c.size > c.max {
		old := c.ll.Back()
		c.ll.Remove(old)
		oa := old.Value.(*cachedAnswer)
		delete(c.m, oa.key)
		c.size -= oa.size
	}
}

// stats is the cache's hits and misses, for tests and metrics.
func (c *resultCache) stats() (hits, misses int64) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

// answer runs a decoded query on app, which the caller may see, or returns the kept answer of the
// same query on the same data. The output is shared: copy it before changing a field.
func (s *Service) answer(ctx context.Context, app *semantic.App, in *lumoapi.QueryInput, canonicalArgs []byte) (*query.Query, *lumoapi.QueryOutput, error) {
	cache := s.results()
	var key string
	if cache != nil {
		gen, err := s.DB.Generation(ctx)
		if err != nil {
			return nil, nil, err
		}
		key = answerKey(app.ID, gen, canonicalArgs)
		if a, ok := cache.get(key); ok && a.q.App == app {
			return a.q, a.out, nil
		}
	}
	q, plan, res, err := s.execQuery(ctx, app, in)
	if err != nil {
		return nil, nil, err
	}
	out := outQuery(app.ID, q, plan, res)
	if cache != nil {
		// Keep it only if no import landed meanwhile: then the data read was the key's.
		if gen, err := s.DB.Generation(ctx); err == nil && answerKey(app.ID, gen, canonicalArgs) == key {
			if b, err := out.MarshalJSON(); err == nil {
				cache.put(&cachedAnswer{key: key, q: q, out: out, size: int64(len(b) + len(key))})
			}
		}
	}
	return q, out, nil
}

// results is the service's answer cache, made on first use; nil when off.
func (s *Service) results() *resultCache {
	s.cacheOnce.Do(func() {
		if s.cache != nil {
			return
		}
		size := s.ResultCacheBytes
		if size == 0 {
			size = DefaultResultCacheBytes
		}
		s.cache = newResultCache(size)
	})
	return s.cache
}
