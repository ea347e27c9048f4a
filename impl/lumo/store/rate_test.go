package store_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

const minute = 60_000 // the window, in milliseconds

func TestTakeRequestCountsAndStopsAtTheLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	user := store.RateBudget{Scope: "user", Subject: 1, Limit: 2}
	tenant := store.RateBudget{Scope: "tenant", Subject: 9, Limit: 3}
	for i := range 2 {
		if full, _, err := db.TakeRequest(ctx, 600_000, minute, user, tenant); err != nil || full != nil {
			t.Fatalf("request %d: full %v, err %v", i+1, full, err)
		}
	}
	full, wait, err := db.TakeRequest(ctx, 600_500, minute, user, tenant)
	if err != nil || full == nil || full.Scope != "user" || wait != minute-500 {
		t.Fatalf("third request of the user: full %v, wait %d, err %v; want the user budget, %d ms", full, wait, err, minute-500)
	}
	// Another user of the tenant takes the tenant's last request, then finds it full; the
	// failed attempt does not spend that user's own budget.
	other := store.RateBudget{Scope: "user", Subject: 2, Limit: 2}
	if full, _, err := db.TakeRequest(ctx, 601_000, minute, other, tenant); err != nil || full != nil {
		t.Fatalf("other user: full %v, err %v", full, err)
	}
	full, _, err = db.TakeRequest(ctx, 601_000, minute, other, tenant)
	if err != nil || full == nil || full.Scope != "tenant" {
		t.Fatalf("tenant over its limit: full %v, err %v; want the tenant budget", full, err)
	}
	for _, c := range []struct {
		scope   string
		subject int64
		want    int64
	}{{"user", 1, 2}, {"user", 2, 1}, {"tenant", 9, 3}} {
		if n, err := db.RequestsIn(ctx, c.scope, c.subject, 601_000, minute); err != nil || n != c.want {
			t.Errorf("%s %d counted %d (err %v), want %d", c.scope, c.subject, n, err, c.want)
		}
	}
	// A minute after its first two requests the user has room again; pruning drops only the
	// budgets with nothing left in the window.
	if full, _, err := db.TakeRequest(ctx, 660_000, minute, user); err != nil || full != nil {
		t.Fatalf("a minute later: full %v, err %v", full, err)
	}
	if err := db.PruneRateBudgets(ctx, 660_000-minute+1); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.RequestsIn(ctx, "user", 1, 660_000, minute); n != 1 {
		t.Errorf("user budget has %d after pruning, want 1", n)
	}
	if n, _ := db.RequestsIn(ctx, "tenant", 9, 661_000, 2*minute); n != 3 {
		t.Errorf("tenant budget has %d after pruning, want 3", n)
	}
	if err := db.PruneRateBudgets(ctx, 661_001); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.RequestsIn(ctx, "tenant", 9, 661_000, 2*minute); n != 0 {
		t.Errorf("tenant budget kept %d after pruning past its newest request", n)
	}
}

// TestTakeRequestHoldsOverEverySpan: fixed windows let twice the limit through around a window
// boundary; the sliding window refuses the second burst until the first leaves it.
func TestTakeRequestHoldsOverEverySpan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	b := store.RateBudget{Scope: "user", Subject: 7, Limit: 3}
	const t0 = 1_700_000_000_000 // any time after the epoch's first window
	take := func(at int64) (bool, int64) {
		t.Helper()
		full, wait, err := db.TakeRequest(ctx, at, minute, b)
		if err != nil {
			t.Fatal(err)
		}
		return full == nil, wait
	}
	for range 3 {
		if ok, _ := take(t0 + 59_000); !ok {
			t.Fatal("first burst refused")
		}
	}
	if ok, wait := take(t0 + 61_000); ok || wait != 58_000 {
		t.Fatalf("a request 2 s after a full burst: admitted %v, wait %d ms; want refused, 58000 ms", ok, wait)
	}
	if ok, _ := take(t0 + 118_999); ok {
		t.Fatal("admitted 1 ms before the burst left the window")
	}
	for range 3 {
		if ok, _ := take(t0 + 119_000); !ok {
			t.Fatal("refused once the burst left the window")
		}
	}
	if ok, _ := take(t0 + 119_000); ok {
		t.Fatal("a fourth request in the same instant admitted")
	}
}

// TestTakeRequestMatchesASlidingLog compares the database's decisions with the definition: a
// request is admitted when fewer than Limit admitted requests fall in the window before it.
func TestTakeRequestMatchesASlidingLog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	const limit, window = 5, 1_000
	b := store.RateBudget{Scope: "tenant", Subject: 3, Limit: limit}
	rng := rand.New(rand.NewPCG(1, 2))
	var log []int64 // admission times
	now := int64(1_000_000)
	admitted := 0
	for i := range 400 {
		now += rng.Int64N(400)
		in := 0
		for _, at := range log {
			if at > now-window {
				in++
			}
		}
		want := in < limit
		full, _, err := db.TakeRequest(ctx, now, window, b)
		if err != nil {
			t.Fatal(err)
		}
		if got := full == nil; got != want {
			t.Fatalf("request %d at %d: admitted %v, want %v (%d admitted in the window before it)", i, now, got, want, in)
		}
		if want {
			log = append(log, now)
			admitted++
		}
	}
	if admitted == 400 || admitted < 100 {
		t.Fatalf("admitted %d of 400: the sequence does not exercise the limit", admitted)
	}
}

// TestTakeRequestNewLimit: a budget whose limit changed (a restart with another flag) starts over.
func TestTakeRequestNewLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	two := store.RateBudget{Scope: "user", Subject: 4, Limit: 2}
	for range 2 {
		if full, _, err := db.TakeRequest(ctx, 5_000_000, minute, two); err != nil || full != nil {
			t.Fatalf("full %v, err %v", full, err)
		}
	}
	three := two
	three.Limit = 3
	for i := range 3 {
		if full, _, err := db.TakeRequest(ctx, 6_000_000, minute, three); err != nil || full != nil {
			t.Fatalf("request %d under the new limit: full %v, err %v", i+1, full, err)
		}
	}
	if full, _, err := db.TakeRequest(ctx, 6_000_000, minute, three); err != nil || full == nil {
		t.Fatalf("fourth request under a limit of 3: full %v, err %v", full, err)
	}
	if _, _, err := db.TakeRequest(ctx, 6_000_000, minute, store.RateBudget{Scope: "user", Subject: 5, Limit: 0}); err == nil {
		t.Fatal("a limit of 0 accepted")
	}
}

// TestTakeRequestConcurrentAdmitsExactlyTheLimit runs on the engine LUMO_TEST_DB selects: many
// goroutines (and, on PostgreSQL, many connections, like many replicas) race for one budget.
func TestTakeRequestConcurrentAdmitsExactlyTheLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	const limit, workers, each = 37, 50, 3
	user := func(i int) store.RateBudget {
		return store.RateBudget{Scope: "user", Subject: int64(i % 5), Limit: 1000}
	}
	tenant := store.RateBudget{Scope: "tenant", Subject: 1, Limit: limit}
	var admitted, refused atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for i := range workers {
		wg.Go(func() {
			for range each {
				full, _, err := db.TakeRequest(ctx, 1_200_000, minute, user(i), tenant)
				switch {
				case err != nil:
					errs <- err
				case full == nil:
					admitted.Add(1)
				default:
					refused.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if admitted.Load() != limit || refused.Load() != workers*each-limit {
		t.Fatalf("admitted %d, refused %d; want %d and %d", admitted.Load(), refused.Load(), limit, workers*each-limit)
	}
	if n, err := db.RequestsIn(ctx, "tenant", 1, 1_200_000, minute); err != nil || n != limit {
		t.Fatalf("tenant counter %d (err %v), want %d", n, err, limit)
	}
	var users int64
	for i := range 5 {
		n, err := db.RequestsIn(ctx, "user", int64(i), 1_200_000, minute)
		if err != nil {
			t.Fatal(err)
		}
		users += n
	}
	if users != limit {
		t.Fatalf("user counters add up to %d, want %d (a refused request left its user budget spent)", users, limit)
	}
}

func TestReady(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	if err := db.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().Exec("DELETE FROM schema_migrations WHERE version = '0005_lumo_rate_log'"); err != nil {
		t.Fatal(err)
	}
	if err := db.Ready(context.Background()); err == nil {
		t.Fatal("ready with a migration missing")
	}
	db.Close()
	if err := db.Ready(context.Background()); err == nil {
		t.Fatal("ready with the database closed")
	}
}

// BenchmarkTakeRequest is the rate-limit cost every tool call pays (a user and a tenant budget).
func BenchmarkTakeRequest(b *testing.B) {
	ctx := context.Background()
	db := storetest.Open(b)
	// The default limits; each request is a window after the last, so the rings never fill.
	user := store.RateBudget{Scope: "user", Subject: 1, Limit: 60}
	tenant := store.RateBudget{Scope: "tenant", Subject: 9, Limit: 300}
	now := int64(1_000_000)
	for b.Loop() {
		now += minute
		if full, _, err := db.TakeRequest(ctx, now, minute, user, tenant); err != nil || full != nil {
			b.Fatalf("full %v, err %v", full, err)
		}
	}
}
