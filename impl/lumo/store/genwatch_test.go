package store_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// watchedPair opens the same PostgreSQL database twice, as two processes would, and waits until
// the first listens for imports. The first trusts a remembered counter for an hour, so only a
// notification can tell it of the second's imports.
func watchedPair(t *testing.T) (a, b *store.DB, dsn string, admin *sql.DB) {
	t.Helper()
	a, dsn = storetest.OpenDSN(t)
	if _, _, ok := store.GenerationWatch(a); !ok {
		t.Skip("needs PostgreSQL (LISTEN/NOTIFY): set LUMO_TEST_DB=postgres://...")
	}
	store.TrustGeneration(a, time.Hour)
	b, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	admin, err = sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	importApp(t, b, "Primeira")
	seesApp(t, a, "Primeira", time.Second)
	waitLive(t, a, true)
	seesApp(t, a, "Primeira", 0) // remembers the counter
	return a, b, dsn, admin
}

func importApp(t *testing.T, db *store.DB, name string) {
	t.Helper()
	if _, err := db.ImportWorkspace(ctx, storetest.OneTableWorkspace(name, "", "ID\n1\n"), "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
}

// seesApp waits up to d for db to show ana's one app named name.
func seesApp(t *testing.T, db *store.DB, name string, d time.Duration) {
	t.Helper()
	var got string
	for deadline := time.Now().Add(d); ; time.Sleep(5 * time.Millisecond) {
		u, err := db.UserByLogin(ctx, "ana")
		if err != nil {
			t.Fatal(err)
		}
		apps, err := db.VisibleApps(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		if len(apps) == 1 {
			if got = apps[0].Name; got == name {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v the app is %q, want %q", d, got, name)
		}
	}
}

func waitLive(t *testing.T, db *store.DB, want bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if live, _, _ := store.GenerationWatch(db); live == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the import listener never became live=%v", want)
		}
	}
}

// Between imports, calls do not read the import counter; another process's import reaches this
// one through its notification, and this process's own import at once.
func TestImportCounterIsNotified(t *testing.T) {
	a, b, _, _ := watchedPair(t)
	u, err := a.UserByLogin(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	_, before, _ := store.GenerationWatch(a)
	for range 50 {
		if _, err := a.VisibleApps(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if _, after, _ := store.GenerationWatch(a); after-before > 1 {
		t.Errorf("50 calls read the import counter %d times, want at most 1", after-before)
	}
	importApp(t, b, "Segunda")
	seesApp(t, a, "Segunda", 5*time.Second)
	if err := b.AddUser(ctx, "t1", "bia", "Bia"); err != nil { // an admin change notifies too
		t.Fatal(err)
	}
	_, r0, _ := store.GenerationWatch(a)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		a.VisibleApps(ctx, u)
		if _, r, _ := store.GenerationWatch(a); r > r0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("an admin change in another process was not notified")
		}
	}
}

// While the listener is down every call reads the counter, so nothing committed meanwhile is
// missed; once it is back, notifications work again.
func TestImportCounterWithoutListener(t *testing.T) {
	a, b, _, admin := watchedPair(t)
	var n int
	if err := admin.QueryRowContext(context.Background(), `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND application_name = 'lumo-generation-listener' AND query LIKE 'LISTEN%'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("found no listener connection to end")
	}
	waitLive(t, a, false)
	importApp(t, b, "Segunda")
	seesApp(t, a, "Segunda", 0)
	waitLive(t, a, true)
	importApp(t, b, "Terceira")
	seesApp(t, a, "Terceira", 5*time.Second)
}

// This process's own import is seen by its next call, without waiting for its notification.
func TestOwnImportNeedsNoNotification(t *testing.T) {
	a, _, _, _ := watchedPair(t)
	store.MuteGenerationListener(a)
	importApp(t, a, "Segunda")
	seesApp(t, a, "Segunda", 0)
}
