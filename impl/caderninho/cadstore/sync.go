package cadstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Sync request statuses.
const (
	SyncRunning     = "running"
	SyncCompleted   = "completed"
	SyncInterrupted = "interrupted"
)

// StaleAfter is how long a running request may go without news before it counts as interrupted
// (its process died: the connection being imported rolled back).
const StaleAfter = 10 * time.Minute

// SyncRequest is a durable caderninho_sync request.
type SyncRequest struct {
	ID          int64
	Key         string
	Arguments   string // normalised JSON of what was asked
	RequestedBy string
	Status      string
	RequestedAt string
	FinishedAt  *string
	Outcomes    []Outcome
}

// CreateSync stores a new request for conns under key, unless the key exists: then it returns
// the stored request and created false (the caller compares Arguments).
func (s *Store) CreateSync(ctx context.Context, key, arguments, by string, conns []Connection) (req *SyncRequest, created bool, err error) {
	outcomes := make([]Outcome, len(conns))
	for i, c := range conns {
		outcomes[i] = Outcome{Connection: c.Key, Space: c.SpaceKey, Status: StatusPending}
	}
	js, err := json.Marshal(outcomes)
	if err != nil {
		return nil, false, err
	}
	tx, err := s.db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return nil, false, fmt.Errorf("starting sync request: %w", err)
	}
	defer tx.Rollback()
	id, err := s.reserveIDs(ctx, tx, "sync", 1)
	if err != nil {
		return nil, false, err
	}
	now := s.now()
	res, err := tx.ExecContext(ctx, s.q(`INSERT INTO cad_syncs (id, idempotency_key, arguments, requested_by, status, requested_at, heartbeat_at, outcome)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING`), id, key, arguments, by, SyncRunning, now, now, string(js))
	if err != nil {
		return nil, false, fmt.Errorf("inserting sync request: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return nil, false, err
	}
	if err := tx.Commit(); err != nil {
		return nil, false, fmt.Errorf("committing sync request: %w", err)
	}
	req, err = s.SyncByKey(ctx, key)
	return req, n == 1, err
}

// SyncByKey reads a request by its idempotency key; a running request whose heartbeat is older
// than StaleAfter is marked interrupted first.
func (s *Store) SyncByKey(ctx context.Context, key string) (*SyncRequest, error) {
	stale := s.Now().Add(-StaleAfter).UTC().Format(time.RFC3339)
	if _, err := s.db.SQL().ExecContext(ctx, s.q("UPDATE cad_syncs SET status = ?, finished_at = heartbeat_at WHERE idempotency_key = ? AND status = ? AND heartbeat_at < ?"),
		SyncInterrupted, key, SyncRunning, stale); err != nil {
		return nil, fmt.Errorf("expiring sync request: %w", err)
	}
	r := &SyncRequest{}
	var outcome string
	err := s.db.SQL().QueryRowContext(ctx, s.q(`SELECT id, idempotency_key, arguments, requested_by, status, requested_at, finished_at, outcome
		FROM cad_syncs WHERE idempotency_key = ?`), key).Scan(&r.ID, &r.Key, &r.Arguments, &r.RequestedBy, &r.Status, &r.RequestedAt, &r.FinishedAt, &outcome)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("reading sync request: %w", err)
	}
	if err := json.Unmarshal([]byte(outcome), &r.Outcomes); err != nil {
		return nil, fmt.Errorf("decoding sync outcome: %w", err)
	}
	return r, nil
}

// UpdateSync records the outcomes so far (and the heartbeat); done finishes the request.
func (s *Store) UpdateSync(ctx context.Context, id int64, outcomes []Outcome, done bool) error {
	js, err := json.Marshal(outcomes)
	if err != nil {
		return err
	}
	now := s.now()
	if done {
		_, err = s.db.SQL().ExecContext(ctx, s.q("UPDATE cad_syncs SET outcome = ?, heartbeat_at = ?, status = ?, finished_at = ? WHERE id = ?"),
			string(js), now, SyncCompleted, now, id)
	} else {
		_, err = s.db.SQL().ExecContext(ctx, s.q("UPDATE cad_syncs SET outcome = ?, heartbeat_at = ? WHERE id = ?"), string(js), now, id)
	}
	if err != nil {
		return fmt.Errorf("updating sync request: %w", err)
	}
	return nil
}
