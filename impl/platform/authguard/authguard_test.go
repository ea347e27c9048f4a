package authguard_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/platform/authguard"
)

// clock is a settable time for the guard.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// guarded is a handler that accepts the token "good" and counts the checks that reached it.
func guarded(t *testing.T) (*authguard.Guard, *clock, http.Handler, *atomic.Int64) {
	t.Helper()
	clk := &clock{t: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	g := authguard.New(10)
	g.Now = clk.now
	var checks atomic.Int64
	h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		checks.Add(1)
		if r.Header.Get("Authorization") != "Bearer good" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Write([]byte("ok"))
	}), nil)
	return g, clk, h, &checks
}

func call(h http.Handler, addr, token string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/mcp", nil)
	r.RemoteAddr = addr
	r.Header.Set("Authorization", "Bearer "+token)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestWrongTokensAreThrottledPerClient(t *testing.T) {
	_, clk, h, checks := guarded(t)
	refused := 0
	for i := range 1000 {
		w := call(h, "203.0.113.7:4000", "wrong")
		switch w.Code {
		case http.StatusUnauthorized:
		case http.StatusTooManyRequests:
			refused++
			if w.Header().Get("Retry-After") != "6" || !strings.Contains(w.Body.String(), "Muitas tentativas com token inválido") {
				t.Fatalf("request %d: Retry-After %q, body %q", i, w.Header().Get("Retry-After"), w.Body.String())
			}
		default:
			t.Fatalf("request %d: status %d", i, w.Code)
		}
		if i%100 == 0 {
			clk.add(30 * time.Millisecond) // 1,000 requests in 0.3 s
		}
	}
	if checks.Load() != 10 || refused != 990 {
		t.Errorf("%d token checks, %d refused; want 10 and 990", checks.Load(), refused)
	}
	// The blocked address is refused even with a good token; another address is not.
	if w := call(h, "203.0.113.7:4001", "good"); w.Code != http.StatusTooManyRequests {
		t.Errorf("blocked address with a good token: %d", w.Code)
	}
	if w := call(h, "198.51.100.1:4000", "good"); w.Code != http.StatusOK {
		t.Errorf("another address: %d", w.Code)
	}
	if w := call(h, "198.51.100.1:4000", "wrong"); w.Code != http.StatusUnauthorized {
		t.Errorf("another address's first failure: %d", w.Code)
	}
	// One failure drains every 6 s: then exactly one more attempt.
	clk.add(6 * time.Second)
	if w := call(h, "203.0.113.7:4000", "wrong"); w.Code != http.StatusUnauthorized {
		t.Errorf("after 6 s: %d", w.Code)
	}
	if w := call(h, "203.0.113.7:4000", "wrong"); w.Code != http.StatusTooManyRequests {
		t.Errorf("second attempt after 6 s: %d", w.Code)
	}
	// After a minute without attempts the client starts afresh.
	clk.add(time.Minute)
	for i := range 10 {
		if w := call(h, "203.0.113.7:4000", "wrong"); w.Code != http.StatusUnauthorized {
			t.Fatalf("fresh failure %d: %d", i, w.Code)
		}
	}
}

// Good tokens in between do not reset the count, and one IPv6 /64 is one client; a token that
// answered well keeps passing while the address is throttled for the wrong ones.
func TestSuccessDoesNotResetTheCount(t *testing.T) {
	_, _, h, checks := guarded(t)
	wrong := 0
	for i := range 40 {
		addr := "[2001:db8::1]:5000"
		if i%2 == 1 {
			addr = "[2001:db8::ffff]:5001" // same /64
		}
		token := "wrong"
		if i%2 == 1 {
			token = "good"
		}
		if w := call(h, addr, token); w.Code != http.StatusTooManyRequests && token == "wrong" {
			wrong++
		}
	}
	if wrong != 10 || checks.Load() != 30 {
		t.Errorf("%d wrong tokens checked (%d checks in all); want 10 (30: 10 wrong, every one of the 20 good)", wrong, checks.Load())
	}
}

// Concurrent guesses from a client that has failed before cannot overrun the bound.
func TestConcurrentGuessesStayWithinTheBound(t *testing.T) {
	clk := &clock{t: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	g := authguard.New(10)
	g.Now = clk.now
	var checks atomic.Int64
	release := make(chan struct{})
	h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if checks.Add(1) > 1 {
			<-release
		}
		w.WriteHeader(http.StatusUnauthorized)
	}), nil)
	call(h, "192.0.2.9:1", "wrong") // one failure on record
	var wg sync.WaitGroup
	var refused atomic.Int64
	for range 200 {
		wg.Go(func() {
			if call(h, "192.0.2.9:1", "wrong").Code == http.StatusTooManyRequests {
				refused.Add(1)
			}
		})
	}
	for deadline := time.Now().Add(10 * time.Second); refused.Load() < 191 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if checks.Load() != 10 || refused.Load() != 191 {
		t.Errorf("%d checks, %d refused; want 10 and 191", checks.Load(), refused.Load())
	}
	if g.Clients() != 1 {
		t.Errorf("tracking %d clients", g.Clients())
	}
}

func TestNilGuardAndKeys(t *testing.T) {
	var g *authguard.Guard
	next := http.NotFoundHandler()
	if g.Wrap(next, nil) == nil || authguard.New(0) != nil {
		t.Error("a nil or zero guard must pass requests through")
	}
	for in, want := range map[string]string{
		"203.0.113.7:80":         "203.0.113.7",
		"[2001:db8:1:2:3::9]:80": "2001:db8:1:2::/64",
		"[::ffff:10.0.0.1]:80":   "10.0.0.1",
		"pipe":                   "pipe",
	} {
		if got := authguard.ClientKey(in); got != want {
			t.Errorf("ClientKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// One failure, then many requests at once with a token that answered well before: none waits
// (before remembering good credentials, one mistyped token throttled the parallel good ones).
func TestAGoodTokenIsNotThrottledByConcurrency(t *testing.T) {
	_, _, h, _ := guarded(t)
	const addr = "198.51.100.9:7000"
	if w := call(h, addr, "wrong"); w.Code != http.StatusUnauthorized {
		t.Fatalf("wrong token: %d", w.Code)
	}
	if w := call(h, addr, "good"); w.Code != http.StatusOK {
		t.Fatalf("good token: %d", w.Code)
	}
	var wg sync.WaitGroup
	var refused atomic.Int64
	for range 50 {
		wg.Go(func() {
			if w := call(h, addr, "good"); w.Code == http.StatusTooManyRequests {
				refused.Add(1)
			}
		})
	}
	wg.Wait()
	if refused.Load() != 0 {
		t.Errorf("%d of 50 concurrent requests with a good token got 429", refused.Load())
	}
}

// TestNoFailureNoThrottleWhateverTheClockOrder: a client that never failed is never refused, however
// many of its requests are in flight, even when the times the guard reads arrive out of order
// (each request reads the clock before it takes the guard's lock). A time read before the last
// one used to count as negative drain, raising the level above 0 without a failure.
func TestNoFailureNoThrottleWhateverTheClockOrder(t *testing.T) {
	base := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	var reads atomic.Int64
	g := authguard.New(10)
	g.Now = func() time.Time {
		i := reads.Add(1)
		if i%2 == 0 {
			return base // behind the previous read
		}
		return base.Add(time.Duration(i) * time.Millisecond)
	}
	release := make(chan struct{})
	var entered, refused atomic.Int64
	h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered.Add(1)
		<-release
		w.Write([]byte("ok"))
	}), nil)
	const n = 60
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			r := httptest.NewRequest("POST", "/mcp", nil)
			r.RemoteAddr = "192.0.2.1:5000"
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code == http.StatusTooManyRequests {
				refused.Add(1)
			}
		})
	}
	for entered.Load()+refused.Load() < n {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if refused.Load() != 0 {
		t.Errorf("%d of %d requests without a failure got 429", refused.Load(), n)
	}
}
