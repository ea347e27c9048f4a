package store_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

func TestTakeRequestCountsAndStopsAtTheLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	user := store.RateBudget{Scope: "user", Subject: 1, Limit: 2}
	tenant := store.RateBudget{Scope: "tenant", Subject: 9, Limit: 3}
	for i := range 2 {
		if full, err := db.TakeRequest(ctx, 600, user, tenant); err != nil || full != nil {
			t.Fatalf("request %d: full %v, err %v", i+1, full, err)
		}
	}
	full, err := db.TakeRequest(ctx, 600, user, tenant)
	if err != nil || full == nil || full.Scope != "user" {
		t.Fatalf("third request of the user: full %v, err %v; want the user budget", full, err)
	}
	// Another user of the tenant takes the tenant's last request, then finds it full; the
	// failed attempt does not spend that user's own budget.
	other := store.RateBudget{Scope: "user", Subject: 2, Limit: 2}
	if full, err := db.TakeRequest(ctx, 600, other, tenant); err != nil || full != nil {
		t.Fatalf("other user: full %v, err %v", full, err)
	}
	full, err = db.TakeRequest(ctx, 600, other, tenant)
	if err != nil || full == nil || full.Scope != "tenant" {
		t.Fatalf("tenant over its limit: full %v, err %v; want the tenant budget", full, err)
	}
	for _, c := range []struct {
		scope   string
		subject int64
		want    int64
	}{{"user", 1, 2}, {"user", 2, 1}, {"tenant", 9, 3}} {
		if n, err := db.RequestsIn(ctx, c.scope, c.subject, 600); err != nil || n != c.want {
			t.Errorf("%s %d counted %d (err %v), want %d", c.scope, c.subject, n, err, c.want)
		}
	}
	// A new window starts from zero; pruning drops the old one.
	if full, err := db.TakeRequest(ctx, 660, user, tenant); err != nil || full != nil {
		t.Fatalf("next window: full %v, err %v", full, err)
	}
	if err := db.PruneRateWindows(ctx, 660); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.RequestsIn(ctx, "tenant", 9, 600); n != 0 {
		t.Errorf("old window kept %d after pruning", n)
	}
	if n, _ := db.RequestsIn(ctx, "tenant", 9, 660); n != 1 {
		t.Errorf("new window has %d, want 1", n)
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
				full, err := db.TakeRequest(ctx, 1200, user(i), tenant)
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
	if n, err := db.RequestsIn(ctx, "tenant", 1, 1200); err != nil || n != limit {
		t.Fatalf("tenant counter %d (err %v), want %d", n, err, limit)
	}
	var users int64
	for i := range 5 {
		n, err := db.RequestsIn(ctx, "user", int64(i), 1200)
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
	if _, err := db.SQL().Exec("DELETE FROM schema_migrations WHERE version = '0002_lumo_rate'"); err != nil {
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
	user := store.RateBudget{Scope: "user", Subject: 1, Limit: 1 << 40}
	tenant := store.RateBudget{Scope: "tenant", Subject: 9, Limit: 1 << 40}
	for b.Loop() {
		if full, err := db.TakeRequest(ctx, 600, user, tenant); err != nil || full != nil {
			b.Fatalf("full %v, err %v", full, err)
		}
	}
}
