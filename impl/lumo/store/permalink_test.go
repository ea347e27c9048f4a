package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

func TestSavePermalinkIsStableAndInsertsOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	args := []byte(`{"appId":7,"fields":[{"ref":"Vendas.Loja"}]}`)
	ids := make([]string, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			id, err := db.SavePermalink(ctx, 7, args)
			if err != nil {
				t.Error(err)
			}
			ids[i] = id
		})
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] || id != store.PermalinkID(7, args) || len(id) < 22 {
			t.Fatalf("ids %v", ids)
		}
	}
	if store.PermalinkID(8, args) == ids[0] {
		t.Error("another app got the same id")
	}
	app, got, err := db.Permalink(ctx, ids[0])
	if err != nil || app != 7 || string(got) != string(args) {
		t.Errorf("Permalink: %d %s %v", app, got, err)
	}
	if _, _, err := db.Permalink(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
}

func TestReportSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	if _, err := db.CreateReportSession(ctx, "sid-1", "wrong", now.Add(time.Hour)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown token: %v", err)
	}
	if u, err := db.CreateReportSession(ctx, "sid-1", "tok-ana-loja", now.Add(time.Hour)); err != nil || u.Login != "ana" {
		t.Fatalf("create: %v %v", u, err)
	}
	if u, err := db.ReportSessionUser(ctx, "sid-1", now); err != nil || u.Login != "ana" {
		t.Errorf("session: %v %v", u, err)
	}
	for name, c := range map[string]struct {
		sid string
		at  time.Time
	}{"expired": {"sid-1", now.Add(time.Hour)}, "unknown": {"sid-2", now}, "empty": {"", now}} {
		if _, err := db.ReportSessionUser(ctx, c.sid, c.at); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s session: %v", name, err)
		}
	}
	if err := db.EndReportSession(ctx, "sid-1", now); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ReportSessionUser(ctx, "sid-1", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ended session: %v", err)
	}
}

// A session opened with an issued token lasts only while that token is not revoked.
func TestReportSessionOfRevokedToken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	token, err := db.IssueToken(ctx, "ana", "notebook")
	if err != nil {
		t.Fatal(err)
	}
	if u, err := db.CreateReportSession(ctx, "sid-issued", token, now.Add(time.Hour)); err != nil || u.Login != "ana" {
		t.Fatalf("create with an issued token: %v %v", u, err)
	}
	if u, err := db.ReportSessionUser(ctx, "sid-issued", now); err != nil || u.Login != "ana" {
		t.Fatalf("session of an issued token: %v %v", u, err)
	}
	if err := db.RevokeToken(ctx, "ana", "notebook"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ReportSessionUser(ctx, "sid-issued", now); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("session of a revoked token: %v", err)
	}
}

// Expired sessions are purged in bounded batches, the oldest first; live ones stay.
func TestPurgeReportSessionsIsBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for i := range 7 {
		if _, err := db.CreateReportSession(ctx, fmt.Sprintf("old-%d", i), "tok-ana-loja", now.Add(-time.Duration(i+1)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.CreateReportSession(ctx, "live", "tok-ana-loja", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct{ deleted, left int64 }{{3, 5}, {3, 2}, {1, 1}, {0, 1}} {
		n, err := db.PurgeReportSessions(ctx, now, 3)
		if err != nil {
			t.Fatal(err)
		}
		left, err := db.ReportSessionCount(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n != want.deleted || left != want.left {
			t.Errorf("purge deleted %d, left %d; want %d, %d", n, left, want.deleted, want.left)
		}
	}
	if u, err := db.ReportSessionUser(ctx, "live", now); err != nil || u.Login != "ana" {
		t.Errorf("the live session: %v %v", u, err)
	}
}
