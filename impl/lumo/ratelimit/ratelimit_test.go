package ratelimit

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// TestRetryAfterIsWhenTheOldestRequestLeaves: the wait is until the oldest counted request is a
// minute old, rounded up to whole seconds; a minute boundary in between changes nothing.
func TestRetryAfterIsWhenTheOldestRequestLeaves(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	for i, c := range []struct {
		first, second string
		want          int
	}{{"12:00:00", "12:00:00", 60}, {"12:01:37.2", "12:01:38", 60}, {"12:02:30", "12:03:29.9", 1}, {"12:04:59", "12:05:01", 58}} {
		u := &store.User{ID: int64(i + 1), TenantID: 1}
		at := func(clock string) *Limiter {
			now, err := time.Parse("2006-01-02 15:04:05.999", "2026-12-01 "+clock)
			if err != nil {
				t.Fatal(err)
			}
			return &Limiter{DB: db, PerUser: 1, Now: func() time.Time { return now }}
		}
		if d, err := at(c.first).Take(context.Background(), u); err != nil || d != nil {
			t.Fatalf("%s: first call refused: %v %v", c.first, d, err)
		}
		d, err := at(c.second).Take(context.Background(), u)
		if err != nil || d == nil {
			t.Fatalf("%s: second call admitted (%v)", c.second, err)
		}
		if d.RetryAfter != c.want || d.Scope != "user" || d.Limit != 1 {
			t.Errorf("%s then %s: %+v, want RetryAfter %d", c.first, c.second, d, c.want)
		}
	}
}

func TestCountedRequestsInAMessageOrABatch(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]int{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`:                                        1,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`:                                                    0,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`:                                            0,
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`:                                        1,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`:                                                          0,
		` [{"id":1,"method":"tools/call"},{"id":2,"method":"initialize"},{"id":"x","method":"tools/call"}]`: 3,
		`not json`: 0,
	} {
		if got := len(counted([]byte(body))); got != want {
			t.Errorf("%s: %d counted requests, want %d", body, got, want)
		}
	}
}

// TestMiddlewareReplicasShareOneBudget puts two replicas (two limiters and handlers) on one
// database and races 50 clients through both: exactly the tenant's budget reaches the tools.
func TestMiddlewareReplicasShareOneBudget(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	const budget, clients = 20, 50
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var work atomic.Int64
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(b), "tools/call") {
			t.Errorf("next got the body %q", b)
		}
		work.Add(1)
	})
	users := func(r *http.Request) (*store.User, error) {
		id := int64(len(r.Header.Get("X-Who"))) // five users of one tenant
		return &store.User{ID: id, TenantID: 7}, nil
	}
	var urls []string
	for range 2 {
		// A fixed clock: no request leaves the window during the race.
		l := &Limiter{DB: db, PerUser: 100, PerTenant: budget, Now: func() time.Time { return time.Unix(6000, 0) }}
		ts := httptest.NewServer(l.Middleware(users, log, next))
		t.Cleanup(ts.Close)
		urls = append(urls, ts.URL)
	}
	var refused atomic.Int64
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodPost, urls[i%2],
				strings.NewReader(`{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"tools/call"}`))
			req.Header.Set("X-Who", strings.Repeat("x", i%5+1))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			res.Body.Close()
			switch res.StatusCode {
			case http.StatusOK:
			case http.StatusTooManyRequests:
				if res.Header.Get("Retry-After") == "" {
					t.Error("429 without Retry-After")
				}
				refused.Add(1)
			default:
				t.Errorf("status %d", res.StatusCode)
			}
		})
	}
	wg.Wait()
	if work.Load() != budget || refused.Load() != clients-budget {
		t.Fatalf("%d reached the tools and %d were refused; want %d and %d", work.Load(), refused.Load(), budget, clients-budget)
	}
}
