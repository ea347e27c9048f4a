package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// PermalinkID is the id of the permalink of a query: base64url of the first 18 bytes (144 bits)
// of SHA-256 over the app id and the canonical arguments. The same query always gets the same
// id, on every replica, and an id reveals nothing about the query.
func PermalinkID(appID int64, canonicalArgs []byte) string {
	h := sha256.New()
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(appID))
	h.Write([]byte("lumo-permalink-v1\x00"))
	h.Write(b[:])
	h.Write(canonicalArgs)
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:18])
}

// SavePermalink stores the query of app appID with canonical arguments args, unless it is already
// stored, and returns its id. Concurrent replicas saving the same query agree on one row.
func (db *DB) SavePermalink(ctx context.Context, appID int64, args []byte) (string, error) {
	id := PermalinkID(appID, args)
	_, err := db.sql.ExecContext(ctx, db.q(`INSERT INTO lumo_permalinks (id, app_id, args, created_at)
		VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`), id, appID, string(args), time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return "", fmt.Errorf("saving permalink: %w", err)
	}
	return id, nil
}

// Permalink returns the app id and canonical arguments stored under id. ErrNotFound if none.
func (db *DB) Permalink(ctx context.Context, id string) (appID int64, args []byte, err error) {
	var s string
	err = db.sql.QueryRowContext(ctx, db.q("SELECT app_id, args FROM lumo_permalinks WHERE id = ?"), id).Scan(&appID, &s)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, ErrNotFound
	}
	if err != nil {
		return 0, nil, fmt.Errorf("reading permalink: %w", err)
	}
	return appID, []byte(s), nil
}

// CreateReportSession signs in the owner of token for report pages until expires: it stores
// the SHA-256 of sessionID (a random value the caller sets as a cookie) with the token's
// digest. ErrNotFound when no user has that token (nothing is stored).
func (db *DB) CreateReportSession(ctx context.Context, sessionID, token string, expires time.Time) (*User, error) {
	u, err := db.UserByToken(ctx, token)
	if err != nil {
		return nil, err
	}
	if _, err := db.sql.ExecContext(ctx, db.q(`INSERT INTO lumo_report_sessions (id_sha256, token_sha256, expires_at)
		VALUES (?, ?, ?)`), tokenHash(sessionID), tokenHash(token), expires.Unix()); err != nil {
		return nil, fmt.Errorf("saving report session: %w", err)
	}
	return u, nil
}

// ReportSessionUser is the user signed in by sessionID: ErrNotFound when the session does not
// exist, has expired, or its token no longer belongs to anyone (revoked or replaced).
func (db *DB) ReportSessionUser(ctx context.Context, sessionID string, now time.Time) (*User, error) {
	if sessionID == "" {
		return nil, ErrNotFound
	}
	// The session's token must still be the user's: the workspace token or an issued, unrevoked one.
	return db.user(ctx, `JOIN lumo_report_sessions s ON s.token_sha256 = u.token_sha256
			OR s.token_sha256 IN (SELECT k.token_sha256 FROM lumo_tokens k WHERE k.user_id = u.id)
		WHERE s.id_sha256 = ? AND s.expires_at > ?`, tokenHash(sessionID), now.Unix())
}

// EndReportSession deletes sessionID, then purges expired sessions (see PurgeReportSessions).
func (db *DB) EndReportSession(ctx context.Context, sessionID string, now time.Time) error {
	if _, err := db.sql.ExecContext(ctx, db.q("DELETE FROM lumo_report_sessions WHERE id_sha256 = ?"),
		tokenHash(sessionID)); err != nil {
		return fmt.Errorf("ending report session: %w", err)
	}
	_, err := db.PurgeReportSessions(ctx, now, PurgeReportSessionsBatch)
	return err
}

// PurgeReportSessionsBatch bounds the rows one purge of expired report sessions deletes.
const PurgeReportSessionsBatch = 500

// PurgeReportSessions deletes at most limit sessions that expired at or before now (the oldest
// first, by the expires_at index) and returns how many it deleted. Each call's work is bounded,
// so callers on the request path run it often instead of once in a long while.
func (db *DB) PurgeReportSessions(ctx context.Context, now time.Time, limit int) (int64, error) {
	res, err := db.sql.ExecContext(ctx, db.q(`DELETE FROM lumo_report_sessions WHERE id_sha256 IN (
		SELECT id_sha256 FROM lumo_report_sessions WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)`),
		now.Unix(), limit)
	if err != nil {
		return 0, fmt.Errorf("purging expired report sessions: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("purging expired report sessions: %w", err)
	}
	return n, nil
}

// ReportSessionCount is the number of stored report sessions, expired or not (for tests and
// operations).
func (db *DB) ReportSessionCount(ctx context.Context) (int64, error) {
	var n int64
	if err := db.sql.QueryRowContext(ctx, "SELECT COUNT(*) FROM lumo_report_sessions").Scan(&n); err != nil {
		return 0, fmt.Errorf("counting report sessions: %w", err)
	}
	return n, nil
}
