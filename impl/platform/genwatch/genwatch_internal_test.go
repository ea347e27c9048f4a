package genwatch

import (
	"log/slog"
	"testing"
	"time"
)

const trust = time.Second

// A counter read that a notification overtook is not remembered: it may predate the change.
func TestOvertakenReadIsNotRemembered(t *testing.T) {
	w := New("postgres://127.0.0.1/x", slog.Default(), Config{Channel: "c", Trust: trust})
	w.setLive(true)
	now := time.Now()
	_, epoch, ok := w.current(now)
	if ok {
		t.Fatal("trusted before any read")
	}
	w.Forget() // the notification arrives while the read is on its way
	w.remember(epoch, 7, now)
	if _, _, ok := w.current(now); ok {
		t.Fatal("remembered a read that a notification overtook")
	}
	_, epoch, _ = w.current(now)
	w.remember(epoch, 8, now)
	if gen, _, ok := w.current(now); !ok || gen != 8 {
		t.Fatalf("current = %d, %v; want 8, true", gen, ok)
	}
	if _, _, ok := w.current(now.Add(trust)); ok {
		t.Fatal("trusted longer than Config.Trust")
	}
	w.setLive(false)
	if _, _, ok := w.current(now); ok {
		t.Fatal("trusted while the listener is down")
	}
}
