package caderninho

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/go-faster/jx"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore/cadstoretest"
	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
)

// demoService is a service over a fresh database holding the demo installation, imported.
func demoService(t *testing.T) *Service {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	if err := demo.CopyCaderninho(dir); err != nil {
		t.Fatal(err)
	}
	st := cadstoretest.Open(t)
	inst, err := installation.Load(os.DirFS(dir), "installation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Register(ctx, inst, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ImportConnections(ctx, nil); err != nil {
		t.Fatal(err)
	}
	svc := &Service{Store: st, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Identity: Fixed(LocalAssistant)}
	if _, err := NewServer(svc, Options{}); err != nil { // compiles the schemas the service keeps
		t.Fatal(err)
	}
	return svc
}

// addRecord runs plan_add_record with arguments as a client sends them, decoded as the MCP
// binding decodes them.
func addRecord(ctx context.Context, s *Service, raw json.RawMessage) (*caderninhoapi.PlanAddRecordOutput, error) {
	var in caderninhoapi.PlanAddRecordInput
	if err := in.Decode(jx.DecodeBytes(raw)); err != nil {
		return nil, err
	}
	return s.PlanAddRecord(ctx, &in)
}

// categorize runs plan_categorize likewise.
func categorize(ctx context.Context, s *Service, raw json.RawMessage) (*caderninhoapi.PlanCategorizeOutput, error) {
	var in caderninhoapi.PlanCategorizeInput
	if err := in.Decode(jx.DecodeBytes(raw)); err != nil {
		return nil, err
	}
	return s.PlanCategorize(ctx, &in)
}

func countRows(t *testing.T, s *Service, query string) int {
	t.Helper()
	var n int
	if err := s.Store.DB().SQL().QueryRowContext(context.Background(), query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestParallelWritesOneKey: 20 identical writes racing with one key produce exactly one effect;
// every other call is a replay of it or is told the first is still running.
func TestParallelWritesOneKey(t *testing.T) {
	s := demoService(t)
	revBefore := countRows(t, s, "SELECT revision FROM cad_spaces WHERE space_key = 'casa'")
	args := json.RawMessage(`{"space": "casa", "confirmed": true, "idempotency_key": "paralelo-0001", "day": "2026-11-05",
		"amount": {"amountMinor": "-4500", "currency": "BRL"}, "currency": "BRL", "description": "Feira"}`)
	// the write lingers before its commit, so duplicates arrive while it runs
	s.beforeCommit = func() error { time.Sleep(300 * time.Millisecond); return nil }
	const n = 20
	var wg sync.WaitGroup
	replies := make([]*caderninhoapi.PlanAddRecordOutput, n)
	errs := make([]error, n)
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			replies[i], errs[i] = addRecord(context.Background(), s, args)
		}()
	}
	close(start)
	wg.Wait()
	fresh, replays, running := 0, 0, 0
	var ids []string
	for i := range n {
		var te *mcpserver.ToolError
		switch {
		case errs[i] == nil:
			out := replies[i]
			if out.Replay {
				replays++
			} else {
				fresh++
			}
			if ids == nil {
				ids = out.Ids
			} else if ids[0] != out.Ids[0] {
				t.Errorf("call %d answered ids %v, another %v", i, out.Ids, ids)
			}
		case errors.As(errs[i], &te) && te.Code == "IDEMPOTENCY_IN_PROGRESS":
			running++
		default:
			t.Errorf("call %d: %v", i, errs[i])
		}
	}
	if fresh != 1 {
		t.Errorf("%d calls wrote, want exactly 1 (replays %d, in progress %d)", fresh, replays, running)
	}
	t.Logf("%d wrote, %d replays, %d in progress (%s)", fresh, replays, running, s.Store.DB().Engine())
	if got := countRows(t, s, "SELECT COUNT(*) FROM cad_records"); got != 1 {
		t.Errorf("%d records stored, want 1", got)
	}
	if got := countRows(t, s, "SELECT revision FROM cad_spaces WHERE space_key = 'casa'"); got != revBefore+1 {
		t.Errorf("revision %d, want %d", got, revBefore+1)
	}
	// after the race every repetition is a replay
	s.beforeCommit = nil
	r, err := addRecord(context.Background(), s, args)
	if err != nil || !r.Replay {
		t.Errorf("repetition after the race: %v, %+v", err, r)
	}
}

// TestParallelWritesOneSpace: concurrent writes with different keys to one space all land, each
// bumping the revision once (the revision check retries over the new data).
func TestParallelWritesOneSpace(t *testing.T) {
	s := demoService(t)
	revBefore := countRows(t, s, "SELECT revision FROM cad_spaces WHERE space_key = 'atelie'")
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args, _ := json.Marshal(map[string]any{"space": "atelie", "confirmed": true, "idempotency_key": "espaco-" + string(rune('a'+i)) + "-0001",
				"day": "2026-11-05", "amount": nil, "currency": "BRL", "description": "Registro"})
			_, errs[i] = addRecord(context.Background(), s, args)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("write %d: %v", i, err)
		}
	}
	if got := countRows(t, s, "SELECT COUNT(*) FROM cad_records"); got != n {
		t.Errorf("%d records, want %d", got, n)
	}
	if got := countRows(t, s, "SELECT revision FROM cad_spaces WHERE space_key = 'atelie'"); got != revBefore+n {
		t.Errorf("revision %d, want %d", got, revBefore+n)
	}
}

// TestExpiredClaim: a process that claimed a key and died leaves it running; a repetition
// within ClaimExpiry is told to wait, after it the write runs once.
func TestExpiredClaim(t *testing.T) {
	s := demoService(t)
	ctx := context.Background()
	args := json.RawMessage(`{"space": "casa", "confirmed": true, "idempotency_key": "caiu-0001", "day": "2026-11-05",
		"amount": null, "currency": "BRL", "description": "Feira"}`)
	digest, err := normalisedDigest("plan_add_record", args)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 5, 12, 0, 0, 0, time.UTC)
	s.Store.Now = func() time.Time { return now }
	if c, _, err := s.Store.ClaimWrite(ctx, "caiu-0001", "plan_add_record", digest); err != nil || c == nil {
		t.Fatalf("claim: %v %v", c, err)
	} // ... and the process dies here
	var te *mcpserver.ToolError
	if _, err := addRecord(ctx, s, args); !errors.As(err, &te) || te.Code != "IDEMPOTENCY_IN_PROGRESS" {
		t.Fatalf("within the expiry: %v", err)
	}
	now = now.Add(cadstore.ClaimExpiry + time.Second)
	r, err := addRecord(ctx, s, args)
	if err != nil || r.Replay {
		t.Fatalf("after the expiry: %v %+v", err, r)
	}
	if r, err = addRecord(ctx, s, args); err != nil || !r.Replay {
		t.Fatalf("repetition: %v %+v", err, r)
	}
	if got := countRows(t, s, "SELECT COUNT(*) FROM cad_records"); got != 1 {
		t.Errorf("%d records, want 1", got)
	}
}

// TestNormalisedArguments: key order, the key itself and the confirmation do not change the digest.
func TestNormalisedArguments(t *testing.T) {
	a, _ := normalisedDigest("plan_set_budget", json.RawMessage(`{"space":"casa","month":"2026-11","confirmed":true,"idempotency_key":"k-000001"}`))
	b, _ := normalisedDigest("plan_set_budget", json.RawMessage(`{"idempotency_key":"k-000002","month":"2026-11","space":"casa"}`))
	c, _ := normalisedDigest("plan_set_budget", json.RawMessage(`{"space":"casa","month":"2026-12"}`))
	d, _ := normalisedDigest("plan_categorize", json.RawMessage(`{"space":"casa","month":"2026-11"}`))
	if a != b || a == c || a == d {
		t.Errorf("digests: %s %s %s %s", a, b, c, d)
	}
}

// TestWriteAllOrNothing: a write that fails after changing some records (a crash before the
// commit) leaves nothing: no edit, the same revision, and the key free for the same request.
func TestWriteAllOrNothing(t *testing.T) {
	s := demoService(t)
	ctx := context.Background()
	revBefore := countRows(t, s, "SELECT revision FROM cad_spaces WHERE space_key = 'casa'")
	args := json.RawMessage(`{"space": "casa", "confirmed": true, "idempotency_key": "tudo-ou-nada-1", "category": "Mercado",
		"selection": {"from": "2026-10-01", "to": "2026-10-31"}}`)
	s.beforeCommit = func() error { return errors.New("the process dies") }
	if _, err := categorize(ctx, s, args); err == nil {
		t.Fatal("the failing write succeeded")
	}
	if got := countRows(t, s, "SELECT COUNT(*) FROM cad_edits"); got != 0 {
		t.Errorf("%d edits after a failed write, want 0", got)
	}
	if got := countRows(t, s, "SELECT revision FROM cad_spaces WHERE space_key = 'casa'"); got != revBefore {
		t.Errorf("revision %d after a failed write, want %d", got, revBefore)
	}
	if got := countRows(t, s, "SELECT COUNT(*) FROM cad_writes"); got != 0 {
		t.Errorf("%d idempotency rows after a failed write, want 0", got)
	}
	s.beforeCommit = nil
	r, err := categorize(ctx, s, args)
	if err != nil {
		t.Fatal(err)
	}
	out := r
	if out.Replay || out.Count == 0 || countRows(t, s, "SELECT COUNT(*) FROM cad_edits") != out.Count {
		t.Errorf("retry: %+v, edits %d", out, countRows(t, s, "SELECT COUNT(*) FROM cad_edits"))
	}
	t.Logf("%d records categorised in one transaction", out.Count)
}

// TestWriteRetention: a stored result replays within the retention; once a new key is claimed
// after it, the old key is forgotten (the same key is then a new write), and a running claim
// younger than ClaimExpiry is never purged, however short the retention.
func TestWriteRetention(t *testing.T) {
	s := demoService(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 5, 12, 0, 0, 0, time.UTC)
	s.Store.Now = func() time.Time { return now }
	if s.Store.WriteRetention != cadstore.DefaultWriteRetention || cadstore.DefaultWriteRetention != 30*24*time.Hour {
		t.Fatalf("retention %v, default %v, want 30 days", s.Store.WriteRetention, cadstore.DefaultWriteRetention)
	}
	add := func(key string) *caderninhoapi.PlanAddRecordOutput {
		t.Helper()
		r, err := addRecord(ctx, s, json.RawMessage(`{"space": "casa", "confirmed": true, "idempotency_key": "`+key+`",
			"day": "2026-11-05", "amount": null, "currency": "BRL", "description": "Feira"}`))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		return r
	}
	keys := func(key string) int {
		return countRows(t, s, "SELECT COUNT(*) FROM cad_writes WHERE idempotency_key = '"+key+"'")
	}
	add("antiga-0001")
	if _, _, err := s.Store.ClaimWrite(ctx, "caiu-0001", "plan_add_record", "d"); err != nil { // a process died here
		t.Fatal(err)
	}
	now = now.Add(29 * 24 * time.Hour)
	add("nova-0001")
	if !add("antiga-0001").Replay || keys("caiu-0001") != 1 {
		t.Fatal("within the retention the old key must replay and the old claim stay")
	}
	now = now.Add(24*time.Hour + time.Second)
	add("nova-0002") // a new key purges what is past the retention
	if keys("antiga-0001") != 0 || keys("caiu-0001") != 0 || keys("nova-0001") != 1 {
		t.Fatalf("after the retention: antiga %d, caiu %d, nova %d", keys("antiga-0001"), keys("caiu-0001"), keys("nova-0001"))
	}
	before := countRows(t, s, "SELECT COUNT(*) FROM cad_records")
	if add("antiga-0001").Replay || countRows(t, s, "SELECT COUNT(*) FROM cad_records") != before+1 {
		t.Error("a key past its retention must be a new write")
	}

	// a retention shorter than ClaimExpiry never purges a live claim
	s.Store.WriteRetention = time.Minute
	if _, _, err := s.Store.ClaimWrite(ctx, "viva-0001", "plan_add_record", "d"); err != nil {
		t.Fatal(err)
	}
	now = now.Add(90 * time.Second)
	add("nova-0003")
	if keys("viva-0001") != 1 {
		t.Error("a running claim younger than ClaimExpiry was purged")
	}
	if keys("nova-0001") != 0 {
		t.Error("a result older than the retention was kept")
	}

	// one purge deletes a bounded batch
	defer func(n int) { cadstore.PurgeBatch = n }(cadstore.PurgeBatch)
	cadstore.PurgeBatch = 2
	now = now.Add(time.Hour)
	old := countRows(t, s, "SELECT COUNT(*) FROM cad_writes")
	if old < 3 {
		t.Fatalf("%d rows to purge, want at least 3", old)
	}
	if n, err := s.Store.PurgeWrites(ctx); err != nil || n != 2 {
		t.Errorf("first purge: %d %v, want 2", n, err)
	}
	s.Store.WriteRetention = 0 // 0 keeps everything
	if n, err := s.Store.PurgeWrites(ctx); err != nil || n != 0 {
		t.Errorf("purge with retention 0: %d %v, want 0", n, err)
	}
}
