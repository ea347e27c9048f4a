package cadstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The administration of an installation outside installation.yaml (the private panel and
// caderninho admin): people, assistants, the owner's credential and sessions, and the audit log.
// Every change is one transaction that also writes its audit row and bumps the revisions it
// affects; each takes the registration lock first, so it never interleaves with a re-import.

// Origins of people and assistants.
const (
	OriginFile  = "file"  // installation.yaml
	OriginPanel = "panel" // the panel or caderninho admin
)

// Actors of the audit log.
const (
	ActorFile = "installation.yaml"
)

// ErrExists is returned when a key or name is already taken.
var ErrExists = errors.New("already exists")

// InUseError refuses to remove a person that something still names.
type InUseError struct {
	Connections []string // keys of the connections the person holds
	Records     int      // manual records naming the person
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("in use by %d connections and %d records", len(e.Connections), e.Records)
}

// staleDefinition marks a space whose stored definition digest no longer says what the file
// made of it (the panel changed it): the next registration bumps its revision whatever it finds.
var staleDefinition = strings.Repeat("0", 64)

// adminTx runs fn in one transaction under the registration lock.
func (s *Store) adminTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("starting an administrative change: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE cad_ids SET last_id = last_id + 1 WHERE kind = 'lock'"); err != nil {
		return fmt.Errorf("locking for an administrative change: %w", err)
	}
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("committing an administrative change: %w", err)
	}
	return nil
}

// audit records one change in tx.
func (s *Store) audit(ctx context.Context, tx *sql.Tx, actor, action, detail string) error {
	id, err := s.reserveIDs(ctx, tx, "audit", 1)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_audit (id, logged_at, actor, action, detail) VALUES (?, ?, ?, ?, ?)"),
		id, s.now(), actor, action, detail); err != nil {
		return fmt.Errorf("writing the audit log: %w", err)
	}
	return nil
}

// bumpAllSpaces moves every space's revision: people are part of what every space shows.
func (s *Store) bumpAllSpaces(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_spaces SET revision = revision + 1, definition = ?"), staleDefinition); err != nil {
		return fmt.Errorf("bumping the spaces' revisions: %w", err)
	}
	return nil
}

// AuditEntry is one row of the audit log.
type AuditEntry struct {
	At                    time.Time
	Actor, Action, Detail string
}

// Audit is the latest limit entries of the audit log, newest first.
func (s *Store) Audit(ctx context.Context, limit int) ([]AuditEntry, error) {
	rows, err := s.db.SQL().QueryContext(ctx, s.q("SELECT logged_at, actor, action, detail FROM cad_audit ORDER BY id DESC LIMIT ?"), limit)
	if err != nil {
		return nil, fmt.Errorf("reading the audit log: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var at string
		if err := rows.Scan(&at, &e.Actor, &e.Action, &e.Detail); err != nil {
			return nil, fmt.Errorf("reading the audit log: %w", err)
		}
		e.At, _ = time.Parse(time.RFC3339, at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// PersonInfo is a person as the panel lists it.
type PersonInfo struct {
	Key, Name, Origin string
	Connections       []string // keys of the connections the person holds
}

// PeopleList is every person by key, with the connections each holds.
func (s *Store) PeopleList(ctx context.Context) ([]PersonInfo, error) {
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT p.person_key, p.name, p.origin, c.connection_key
		FROM cad_people p LEFT JOIN cad_connections c ON c.holder_id = p.id ORDER BY p.person_key, c.connection_key`)
	if err != nil {
		return nil, fmt.Errorf("reading people: %w", err)
	}
	defer rows.Close()
	var out []PersonInfo
	for rows.Next() {
		var p PersonInfo
		var conn sql.NullString
		if err := rows.Scan(&p.Key, &p.Name, &p.Origin, &conn); err != nil {
			return nil, fmt.Errorf("reading people: %w", err)
		}
		if n := len(out); n > 0 && out[n-1].Key == p.Key {
			out[n-1].Connections = append(out[n-1].Connections, conn.String)
			continue
		}
		if conn.Valid {
			p.Connections = []string{conn.String}
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// AddPerson adds a person made outside the file; ErrExists when the key is taken.
func (s *Store) AddPerson(ctx context.Context, actor, key, name string) error {
	return s.adminTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, s.q("SELECT COUNT(*) FROM cad_people WHERE person_key = ?"), key).Scan(&n); err != nil {
			return fmt.Errorf("looking up person %s: %w", key, err)
		}
		if n > 0 {
			return ErrExists
		}
		id, err := s.reserveIDs(ctx, tx, "person", 1)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_people (id, person_key, name, origin) VALUES (?, ?, ?, ?)"),
			id, key, name, OriginPanel); err != nil {
			return fmt.Errorf("inserting person %s: %w", key, err)
		}
		if err := s.bumpAllSpaces(ctx, tx); err != nil {
			return err
		}
		return s.audit(ctx, tx, actor, "person.add", fmt.Sprintf("Pessoa %q adicionada com o nome %q.", key, name))
	})
}

// RenamePerson renames a person; ErrNotFound when there is none. Renaming to the same name
// changes nothing (no revision, no audit row) and reports false.
func (s *Store) RenamePerson(ctx context.Context, actor, key, name string) (bool, error) {
	changed := false
	err := s.adminTx(ctx, func(tx *sql.Tx) error {
		var old string
		err := tx.QueryRowContext(ctx, s.q("SELECT name FROM cad_people WHERE person_key = ?"), key).Scan(&old)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("looking up person %s: %w", key, err)
		}
		if old == name {
			return nil
		}
		changed = true
		if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_people SET name = ? WHERE person_key = ?"), name, key); err != nil {
			return fmt.Errorf("renaming person %s: %w", key, err)
		}
		if err := s.bumpAllSpaces(ctx, tx); err != nil {
			return err
		}
		return s.audit(ctx, tx, actor, "person.rename", fmt.Sprintf("Pessoa %q renomeada de %q para %q.", key, old, name))
	})
	return changed, err
}

// RemovePerson removes a person that no connection holds and no manual record names:
// ErrNotFound, or *InUseError with nothing written.
func (s *Store) RemovePerson(ctx context.Context, actor, key string) error {
	return s.adminTx(ctx, func(tx *sql.Tx) error {
		var id int64
		var name string
		err := tx.QueryRowContext(ctx, s.q("SELECT id, name FROM cad_people WHERE person_key = ?"), key).Scan(&id, &name)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("looking up person %s: %w", key, err)
		}
		use := &InUseError{}
		rows, err := tx.QueryContext(ctx, s.q("SELECT connection_key FROM cad_connections WHERE holder_id = ? ORDER BY connection_key"), id)
		if err != nil {
			return fmt.Errorf("reading connections of %s: %w", key, err)
		}
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				rows.Close()
				return fmt.Errorf("reading connections of %s: %w", key, err)
			}
			use.Connections = append(use.Connections, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("reading connections of %s: %w", key, err)
		}
		if err := tx.QueryRowContext(ctx, s.q("SELECT COUNT(*) FROM cad_records WHERE person_key = ?"), key).Scan(&use.Records); err != nil {
			return fmt.Errorf("counting records of %s: %w", key, err)
		}
		if len(use.Connections) > 0 || use.Records > 0 {
			return use
		}
		if _, err := tx.ExecContext(ctx, s.q("DELETE FROM cad_people WHERE id = ?"), id); err != nil {
			return fmt.Errorf("deleting person %s: %w", key, err)
		}
		if err := s.bumpAllSpaces(ctx, tx); err != nil {
			return err
		}
		return s.audit(ctx, tx, actor, "person.remove", fmt.Sprintf("Pessoa %q (%s) removida.", key, name))
	})
}

// AssistantInfo is an assistant as the panel lists it (never its token).
type AssistantInfo struct {
	ID         int64
	Name       string
	Origin     string
	CreatedAt  *time.Time // nil for assistants of installation.yaml registered before the panel
	LastUsedAt *time.Time // nil: never used since the panel exists
}

// AssistantList is every assistant by name.
func (s *Store) AssistantList(ctx context.Context) ([]AssistantInfo, error) {
	rows, err := s.db.SQL().QueryContext(ctx, "SELECT id, name, origin, created_at, last_used_at FROM cad_assistants ORDER BY name, id")
	if err != nil {
		return nil, fmt.Errorf("reading assistants: %w", err)
	}
	defer rows.Close()
	var out []AssistantInfo
	for rows.Next() {
		var a AssistantInfo
		var created, used sql.NullString
		if err := rows.Scan(&a.ID, &a.Name, &a.Origin, &created, &used); err != nil {
			return nil, fmt.Errorf("reading assistants: %w", err)
		}
		a.CreatedAt, a.LastUsedAt = parseTime(created), parseTime(used)
		out = append(out, a)
	}
	return out, rows.Err()
}

func parseTime(s sql.NullString) *time.Time {
	if !s.Valid {
		return nil
	}
	t, err := time.Parse(time.RFC3339, s.String)
	if err != nil {
		return nil
	}
	return &t
}

// IssueAssistant authorises a new assistant named name whose bearer token is token (stored
// hashed); ErrExists when the name is taken.
func (s *Store) IssueAssistant(ctx context.Context, actor, name, token string) (int64, error) {
	var id int64
	err := s.adminTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, s.q("SELECT COUNT(*) FROM cad_assistants WHERE name = ?"), name).Scan(&n); err != nil {
			return fmt.Errorf("looking up assistant: %w", err)
		}
		if n > 0 {
			return ErrExists
		}
		var err error
		if id, err = s.reserveIDs(ctx, tx, "assistant", 1); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_assistants (id, name, token_sha256, origin, created_at) VALUES (?, ?, ?, ?, ?)"),
			id, name, TokenHash(token), OriginPanel, s.now()); err != nil {
			return fmt.Errorf("inserting assistant: %w", err)
		}
		return s.audit(ctx, tx, actor, "assistant.issue", fmt.Sprintf("Token emitido para o assistente %q.", name))
	})
	return id, err
}

// assistantName is the name of assistant id in tx, or ErrNotFound.
func (s *Store) assistantName(ctx context.Context, tx *sql.Tx, id int64) (string, error) {
	var name string
	err := tx.QueryRowContext(ctx, s.q("SELECT name FROM cad_assistants WHERE id = ?"), id).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("looking up assistant %d: %w", id, err)
	}
	return name, nil
}

// RelabelAssistant renames assistant id; ErrNotFound, or ErrExists when another has the name.
// The token stays valid.
func (s *Store) RelabelAssistant(ctx context.Context, actor string, id int64, name string) error {
	return s.adminTx(ctx, func(tx *sql.Tx) error {
		old, err := s.assistantName(ctx, tx, id)
		if err != nil || old == name {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, s.q("SELECT COUNT(*) FROM cad_assistants WHERE name = ? AND id <> ?"), name, id).Scan(&n); err != nil {
			return fmt.Errorf("looking up assistant: %w", err)
		}
		if n > 0 {
			return ErrExists
		}
		if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_assistants SET name = ? WHERE id = ?"), name, id); err != nil {
			return fmt.Errorf("renaming assistant: %w", err)
		}
		return s.audit(ctx, tx, actor, "assistant.label", fmt.Sprintf("Assistente %q agora se chama %q.", old, name))
	})
}

// RevokeAssistant deletes assistant id and returns its name: its token gets 401 at its next
// request on every replica (tokens are looked up in the database at each request).
func (s *Store) RevokeAssistant(ctx context.Context, actor string, id int64) (string, error) {
	var name string
	err := s.adminTx(ctx, func(tx *sql.Tx) error {
		var err error
		if name, err = s.assistantName(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q("DELETE FROM cad_assistants WHERE id = ?"), id); err != nil {
			return fmt.Errorf("revoking assistant: %w", err)
		}
		return s.audit(ctx, tx, actor, "assistant.revoke", fmt.Sprintf("Token do assistente %q revogado.", name))
	})
	return name, err
}

// lastUsedStep is how stale an assistant's last use may get before a request records it: one
// write a minute per assistant at most, not one per request.
const lastUsedStep = time.Minute

// touchAssistant records that assistant id was used now, unless it was within lastUsedStep.
func (s *Store) touchAssistant(ctx context.Context, id int64, last sql.NullString) error {
	now := s.Now().UTC()
	if t := parseTime(last); t != nil && now.Sub(*t) < lastUsedStep {
		return nil
	}
	_, err := s.db.SQL().ExecContext(ctx, s.q("UPDATE cad_assistants SET last_used_at = ? WHERE id = ?"), now.Format(time.RFC3339), id)
	if err != nil {
		return fmt.Errorf("recording an assistant's use: %w", err)
	}
	return nil
}

// HasOwnerCredential reports whether the panel's owner credential was made.
func (s *Store) HasOwnerCredential(ctx context.Context) (bool, error) {
	return hasOwnerCredential(ctx, s.db.SQL())
}

func hasOwnerCredential(ctx context.Context, q queryer) (bool, error) {
	var n int
	if err := q.QueryRowContext(ctx, "SELECT COUNT(*) FROM cad_panel_owner").Scan(&n); err != nil {
		return false, fmt.Errorf("reading the panel credential: %w", err)
	}
	return n > 0, nil
}

// CreateOwnerCredential makes credential (stored hashed) the panel's first one; false, with
// nothing written, when the installation already has one. It is checked and made in one
// administrative transaction, so of imports racing on a new installation only one makes it.
func (s *Store) CreateOwnerCredential(ctx context.Context, actor, credential string) (bool, error) {
	made := false
	err := s.adminTx(ctx, func(tx *sql.Tx) error {
		if has, err := hasOwnerCredential(ctx, tx); err != nil || has {
			return err
		}
		if err := s.insertOwnerCredential(ctx, tx, credential); err != nil {
			return err
		}
		made = true
		return s.audit(ctx, tx, actor, "panel.credential", "Credencial do painel criada.")
	})
	return made && err == nil, err
}

// SetOwnerCredential makes credential (stored hashed) the only one that opens the panel, ending
// every panel session.
func (s *Store) SetOwnerCredential(ctx context.Context, actor, credential string) error {
	return s.adminTx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{"DELETE FROM cad_panel_sessions", "DELETE FROM cad_panel_owner"} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("replacing the panel credential: %w", err)
			}
		}
		if err := s.insertOwnerCredential(ctx, tx, credential); err != nil {
			return err
		}
		return s.audit(ctx, tx, actor, "panel.credential", "Nova credencial do painel criada; as sessões abertas foram encerradas.")
	})
}

func (s *Store) insertOwnerCredential(ctx context.Context, tx *sql.Tx, credential string) error {
	if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_panel_owner (id, credential_sha256, created_at) VALUES (1, ?, ?)"),
		TokenHash(credential), s.now()); err != nil {
		return fmt.Errorf("saving the panel credential: %w", err)
	}
	return nil
}

// PanelSessionsPurgeBatch bounds the expired panel sessions one purge deletes.
const PanelSessionsPurgeBatch = 500

// OpenPanelSession signs a browser in until expires when credential is the owner's (ErrNotFound
// otherwise): it stores the SHA-256 of sessionID, records the login and purges expired sessions.
func (s *Store) OpenPanelSession(ctx context.Context, actor, sessionID, credential string, expires time.Time) error {
	return s.adminTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, s.q("SELECT COUNT(*) FROM cad_panel_owner WHERE credential_sha256 = ?"), TokenHash(credential)).Scan(&n); err != nil {
			return fmt.Errorf("checking the panel credential: %w", err)
		}
		if n == 0 {
			return ErrNotFound
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM cad_panel_sessions WHERE id_sha256 IN
			(SELECT id_sha256 FROM cad_panel_sessions WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)`),
			s.Now().Unix(), PanelSessionsPurgeBatch); err != nil {
			return fmt.Errorf("purging expired panel sessions: %w", err)
		}
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_panel_sessions (id_sha256, credential_sha256, expires_at) VALUES (?, ?, ?)"),
			TokenHash(sessionID), TokenHash(credential), expires.Unix()); err != nil {
			return fmt.Errorf("saving the panel session: %w", err)
		}
		return s.audit(ctx, tx, actor, "panel.login", "Entrada no painel.")
	})
}

// PanelSession checks that sessionID is a live session of the current credential (ErrNotFound
// otherwise).
func (s *Store) PanelSession(ctx context.Context, sessionID string, now time.Time) error {
	if sessionID == "" {
		return ErrNotFound
	}
	var n int
	err := s.db.SQL().QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM cad_panel_sessions s
		JOIN cad_panel_owner o ON o.credential_sha256 = s.credential_sha256
		WHERE s.id_sha256 = ? AND s.expires_at > ?`), TokenHash(sessionID), now.Unix()).Scan(&n)
	if err != nil {
		return fmt.Errorf("reading the panel session: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// EndPanelSession deletes sessionID.
func (s *Store) EndPanelSession(ctx context.Context, sessionID string) error {
	if _, err := s.db.SQL().ExecContext(ctx, s.q("DELETE FROM cad_panel_sessions WHERE id_sha256 = ?"), TokenHash(sessionID)); err != nil {
		return fmt.Errorf("ending the panel session: %w", err)
	}
	return nil
}

// PanelSessionCount is how many panel sessions are stored (for tests).
func (s *Store) PanelSessionCount(ctx context.Context) (int, error) {
	var n int
	err := s.db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM cad_panel_sessions").Scan(&n)
	return n, err
}
