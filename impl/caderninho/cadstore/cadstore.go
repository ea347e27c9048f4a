// Package cadstore keeps caderninho's installation and the bank data imported from statements in
// the shared database (tables cad_*, made by its own migrations), on SQLite and PostgreSQL alike.
package cadstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/platform/migrate"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// ErrNotFound is returned for an assistant token, connection or installation that does not exist.
var ErrNotFound = errors.New("not found")

// ErrNoInstallation is returned by reads before any installation was imported.
var ErrNoInstallation = errors.New("no installation imported")

// Store reads and writes caderninho data in a migrated database.
type Store struct {
	db *sqldb.DB
	// Now is the clock (UTC); tests may replace it.
	Now func() time.Time
	// WriteRetention is how long a planning write's stored result is kept for replays; 0 keeps
	// them forever. See PurgeWrites.
	WriteRetention time.Duration
	// ClaimExpiry is how long a running write claim holds its key (default ClaimExpiry); the
	// fault tests shorten it to prove recovery without waiting minutes.
	ClaimExpiry time.Duration
	// beforeCommit, when set, runs just before an import transaction commits; tests use it to
	// simulate a crash mid-import.
	beforeCommit func(connection string) error
	// unmatched is the last answer of UnmatchedEdits.
	unmatched unmatchedCache
}

// migrations are caderninho's: migrations/<version>.sql (cad_*), recorded by version in the
// schema_migrations table the servers share.
//
//go:embed migrations/*.sql
var migrations embed.FS

// sqliteTempStore keeps SQLite's temporary files in memory, on caderninho's connections only. Rules
// write their edits in upserts of many rows (an import's, on an account that had edits; a rule
// change's), and each such statement keeps a journal of the pages it changes (to undo it alone);
// past 64 KiB that journal goes to a temporary file, written and read back through system calls
// every statement: a fifth of what the rules added to an import of 10^6 transactions, measured
// when the import wrote upserts too (it writes plain inserts now, see sqliteRuleInsert).
var sqliteTempStore = sqldb.SQLitePragma("temp_store(MEMORY)")

// Open connects to dsn (see sqldb.Open), runs caderninho's migrations and returns its store.
func Open(ctx context.Context, dsn string) (*Store, error) {
	db, err := sqldb.Open(ctx, dsn, sqliteTempStore)
	if err != nil {
		return nil, err
	}
	if err := migrate.Apply(ctx, db.SQL(), db.Dialect(), migrations); err != nil {
		db.Close()
		return nil, err
	}
	s := &Store{db: db, Now: func() time.Time { return time.Now().UTC().Truncate(time.Second) },
		WriteRetention: DefaultWriteRetention, ClaimExpiry: ClaimExpiry}
	if err := s.foldEdits(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// DB is the underlying database.
func (s *Store) DB() *sqldb.DB { return s.db }

func (s *Store) q(query string) string { return sqldialect.Rebind(s.db.Dialect(), query) }

func (s *Store) now() string { return s.Now().UTC().Format(time.RFC3339) }

// queryer is what both *sql.DB and *sql.Tx offer.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// reserveIDs reserves n ids of kind and returns the first.
func (s *Store) reserveIDs(ctx context.Context, tx *sql.Tx, kind string, n int) (int64, error) {
	if n == 0 {
		return 0, nil
	}
	if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_ids SET last_id = last_id + ? WHERE kind = ?"), n, kind); err != nil {
		return 0, fmt.Errorf("reserving %s ids: %w", kind, err)
	}
	var last int64
	if err := tx.QueryRowContext(ctx, s.q("SELECT last_id FROM cad_ids WHERE kind = ?"), kind).Scan(&last); err != nil {
		return 0, fmt.Errorf("reserving %s ids: %w", kind, err)
	}
	return last - int64(n) + 1, nil
}

// TokenHash is how assistant tokens are kept: the hex SHA-256, never the token.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Assistant is an authorised MCP client of the installation.
type Assistant struct {
	ID   int64
	Name string

	lastUsed sql.NullString
}

// RecordUse records that a was used now (the panel shows it), unless that was already recorded
// within the last minute: at most one write a minute per assistant, not one per request.
func (s *Store) RecordUse(ctx context.Context, a *Assistant) error {
	return s.touchAssistant(ctx, a.ID, a.lastUsed)
}

// AssistantByToken finds the assistant a bearer token belongs to, in the database at every call:
// a revoked token fails at its next request on every replica. See RecordUse.
func (s *Store) AssistantByToken(ctx context.Context, token string) (*Assistant, error) {
	if token == "" {
		return nil, ErrNotFound
	}
	a := &Assistant{}
	err := s.db.SQL().QueryRowContext(ctx, s.q("SELECT id, name, last_used_at FROM cad_assistants WHERE token_sha256 = ?"),
		TokenHash(token)).Scan(&a.ID, &a.Name, &a.lastUsed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("reading assistant: %w", err)
	}
	return a, nil
}

// AssistantByName finds an assistant by its name (an OAuth token's claim names it); ErrNotFound
// when none has it, or several do.
func (s *Store) AssistantByName(ctx context.Context, name string) (*Assistant, error) {
	rows, err := s.db.SQL().QueryContext(ctx, s.q("SELECT id, name, last_used_at FROM cad_assistants WHERE name = ?"), name)
	if err != nil {
		return nil, fmt.Errorf("reading assistant: %w", err)
	}
	defer rows.Close()
	var found []*Assistant
	for rows.Next() {
		a := &Assistant{}
		if err := rows.Scan(&a.ID, &a.Name, &a.lastUsed); err != nil {
			return nil, fmt.Errorf("reading assistant: %w", err)
		}
		found = append(found, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading assistant: %w", err)
	}
	if len(found) != 1 {
		return nil, ErrNotFound
	}
	return found[0], nil
}

// Installation is the installation-wide settings.
type Installation struct {
	Location     *time.Location
	CursorSecret []byte
}

// Installation reads the time zone and the cursor secret; ErrNoInstallation before an import.
func (s *Store) Installation(ctx context.Context) (*Installation, error) {
	var tz, secret string
	err := s.db.SQL().QueryRowContext(ctx, "SELECT timezone, cursor_secret FROM cad_installation WHERE id = 1").Scan(&tz, &secret)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoInstallation
	}
	if err != nil {
		return nil, fmt.Errorf("reading installation: %w", err)
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return nil, fmt.Errorf("loading time zone %q: %w", tz, err)
	}
	key, err := hex.DecodeString(secret)
	if err != nil {
		return nil, fmt.Errorf("decoding the cursor secret: %w", err)
	}
	return &Installation{Location: loc, CursorSecret: key}, nil
}

// inList is "?, ?, ?" for n values.
func inList(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

func nullString(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}
