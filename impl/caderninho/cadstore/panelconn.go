package cadstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/printable"
)

// PanelStatementsDir is the folder, under the installation's, holding the statements of the
// connections made in the panel: one subfolder per connection key.
const PanelStatementsDir = "extratos-painel"

// ErrNoRoot refuses to make a connection when no installation folder was recorded (the
// installation was never imported from an installation.yaml).
var ErrNoRoot = errors.New("no installation folder")

// ConnectionInfo is a connection as the panel lists it.
type ConnectionInfo struct {
	Key, Institution, Origin     string
	HolderKey, HolderName        string
	SpaceKey, SpaceName          string
	SourcePath                   string
	LastAttemptAt, LastSuccessAt *string // RFC 3339, UTC
	LastError                    *string
	Accounts, Files              int
}

// ConnectionList is every connection by key, with its holder, space, accounts and last import.
func (s *Store) ConnectionList(ctx context.Context) ([]ConnectionInfo, error) {
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT c.connection_key, c.institution, c.origin, p.person_key, p.name, sp.space_key, sp.name,
		c.source_path, c.last_attempt_at, c.last_success_at, c.last_error,
		(SELECT COUNT(*) FROM cad_accounts a WHERE a.connection_id = c.id), (SELECT COUNT(*) FROM cad_files f WHERE f.connection_id = c.id)
		FROM cad_connections c JOIN cad_people p ON p.id = c.holder_id JOIN cad_spaces sp ON sp.id = c.space_id
		ORDER BY c.connection_key`)
	if err != nil {
		return nil, fmt.Errorf("reading connections: %w", err)
	}
	defer rows.Close()
	var out []ConnectionInfo
	for rows.Next() {
		var c ConnectionInfo
		var attempt, success, lastErr sql.NullString
		if err := rows.Scan(&c.Key, &c.Institution, &c.Origin, &c.HolderKey, &c.HolderName, &c.SpaceKey, &c.SpaceName,
			&c.SourcePath, &attempt, &success, &lastErr, &c.Accounts, &c.Files); err != nil {
			return nil, fmt.Errorf("reading connections: %w", err)
		}
		c.LastAttemptAt, c.LastSuccessAt, c.LastError = nullPtr(attempt), nullPtr(success), nullPtr(lastErr)
		out = append(out, c)
	}
	return out, rows.Err()
}

func nullPtr(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	v := s.String
	return &v
}

// ConnectionByKey is the stored connection key, or ErrNotFound.
func (s *Store) ConnectionByKey(ctx context.Context, key string) (Connection, error) {
	cs, err := s.Connections(ctx)
	if err != nil {
		return Connection{}, err
	}
	for _, c := range cs {
		if c.Key == key {
			return c, nil
		}
	}
	return Connection{}, ErrNotFound
}

// MissingError names what a change refers to but does not exist: a person or a space.
type MissingError struct{ Person, Space string }

func (e *MissingError) Error() string {
	return fmt.Sprintf("missing person %q or space %q", e.Person, e.Space)
}

// PanelConnectionDir is where the statements of a connection made in the panel live, under the
// installation's folder root.
func PanelConnectionDir(root, key string) string {
	return filepath.Join(root, PanelStatementsDir, key)
}

// InstallationFolder is the installation's folder as registered ("" when none was recorded).
func (s *Store) InstallationFolder(ctx context.Context) (string, error) {
	var root sql.NullString
	err := s.db.SQL().QueryRowContext(ctx, "SELECT root_path FROM cad_installation WHERE id = 1").Scan(&root)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading the installation folder: %w", err)
	}
	return root.String, nil
}

// personSpaceIDs resolves a holder and a space key in tx; *MissingError when either is unknown.
func (s *Store) personSpaceIDs(ctx context.Context, tx *sql.Tx, holder, space string) (int64, int64, error) {
	var pid, sid int64
	miss := &MissingError{}
	if err := tx.QueryRowContext(ctx, s.q("SELECT id FROM cad_people WHERE person_key = ?"), holder).Scan(&pid); errors.Is(err, sql.ErrNoRows) {
		miss.Person = holder
	} else if err != nil {
		return 0, 0, fmt.Errorf("looking up person %s: %w", holder, err)
	}
	if err := tx.QueryRowContext(ctx, s.q("SELECT id FROM cad_spaces WHERE space_key = ?"), space).Scan(&sid); errors.Is(err, sql.ErrNoRows) {
		miss.Space = space
	} else if err != nil {
		return 0, 0, fmt.Errorf("looking up space %s: %w", space, err)
	}
	if miss.Person != "" || miss.Space != "" {
		return 0, 0, miss
	}
	return pid, sid, nil
}

// staleSpace moves a space's revision and marks its definition as no longer the file's.
func (s *Store) staleSpace(ctx context.Context, tx *sql.Tx, spaceID int64) error {
	if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_spaces SET revision = revision + 1, definition = ? WHERE id = ?"), staleDefinition, spaceID); err != nil {
		return fmt.Errorf("bumping a space's revision: %w", err)
	}
	return nil
}

// AddConnection makes a connection of the panel whose statements live in dir (made by the
// caller, under the installation's folder): ErrExists when the key or the folder is taken,
// *MissingError when the holder or space is unknown. The space's revision moves.
func (s *Store) AddConnection(ctx context.Context, actor, key, institution, holder, space, dir string) error {
	return s.adminTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, s.q("SELECT COUNT(*) FROM cad_connections WHERE connection_key = ? OR source_path = ?"), key, dir).Scan(&n); err != nil {
			return fmt.Errorf("looking up connection %s: %w", key, err)
		}
		if n > 0 {
			return ErrExists
		}
		pid, sid, err := s.personSpaceIDs(ctx, tx, holder, space)
		if err != nil {
			return err
		}
		id, err := s.reserveIDs(ctx, tx, "connection", 1)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO cad_connections (id, connection_key, institution, holder_id, space_id, source_path, origin)
			VALUES (?, ?, ?, ?, ?, ?, ?)`), id, key, institution, pid, sid, dir, OriginPanel); err != nil {
			return fmt.Errorf("inserting connection %s: %w", key, err)
		}
		if err := s.staleSpace(ctx, tx, sid); err != nil {
			return err
		}
		return s.audit(ctx, tx, actor, "connection.add", fmt.Sprintf("Conexão %q adicionada: %s, titular %q, espaço %q.", key, institution, holder, space))
	})
}

// EditConnection sets a connection's institution, holder and space: ErrNotFound, or
// *MissingError. The revisions of the spaces it leaves and joins move; false when nothing
// changed (no revision, no audit row).
func (s *Store) EditConnection(ctx context.Context, actor, key, institution, holder, space string) (bool, error) {
	changed := false
	err := s.adminTx(ctx, func(tx *sql.Tx) error {
		var id, oldSpace int64
		var oldInst, oldHolder, oldSpaceKey string
		err := tx.QueryRowContext(ctx, s.q(`SELECT c.id, c.institution, p.person_key, c.space_id, sp.space_key FROM cad_connections c
			JOIN cad_people p ON p.id = c.holder_id JOIN cad_spaces sp ON sp.id = c.space_id WHERE c.connection_key = ?`), key).
			Scan(&id, &oldInst, &oldHolder, &oldSpace, &oldSpaceKey)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("looking up connection %s: %w", key, err)
		}
		pid, sid, err := s.personSpaceIDs(ctx, tx, holder, space)
		if err != nil {
			return err
		}
		var what []string
		if oldInst != institution {
			what = append(what, fmt.Sprintf("instituição de %q para %q", oldInst, institution))
		}
		if oldHolder != holder {
			what = append(what, fmt.Sprintf("titular de %q para %q", oldHolder, holder))
		}
		if oldSpaceKey != space {
			what = append(what, fmt.Sprintf("espaço de %q para %q", oldSpaceKey, space))
		}
		if len(what) == 0 {
			return nil
		}
		changed = true
		if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_connections SET institution = ?, holder_id = ?, space_id = ? WHERE id = ?"),
			institution, pid, sid, id); err != nil {
			return fmt.Errorf("updating connection %s: %w", key, err)
		}
		if oldSpaceKey != space || oldHolder != holder {
			// the rules of its (new) space, with its (new) holder, categorise its transactions
			if err := s.reapplyConnection(ctx, tx, id); err != nil {
				return err
			}
		}
		for _, sp := range uniqueIDs(oldSpace, sid) {
			if err := s.staleSpace(ctx, tx, sp); err != nil {
				return err
			}
		}
		return s.audit(ctx, tx, actor, "connection.edit", fmt.Sprintf("Conexão %q alterada: %s.", key, strings.Join(what, "; ")))
	})
	return changed, err
}

func uniqueIDs(a, b int64) []int64 {
	if a == b {
		return []int64{a}
	}
	return []int64{a, b}
}

// KnownStatement reports whether a file with this SHA-256 was already imported for the
// connection, and under which name.
func (s *Store) KnownStatement(ctx context.Context, connID int64, sha string) (string, bool, error) {
	var path string
	err := s.db.SQL().QueryRowContext(ctx, s.q("SELECT path FROM cad_files WHERE connection_id = ? AND sha256 = ?"), connID, sha).Scan(&path)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("looking up an imported statement: %w", err)
	}
	return path, true, nil
}

// StatementsFolder is where c's statements are read, its symbolic links resolved; an error (in
// Portuguese) when it is not a folder inside the installation's, where nothing may be written.
func (s *Store) StatementsFolder(ctx context.Context, c Connection) (string, error) {
	root, err := s.installationRoot(ctx)
	if err != nil {
		return "", err
	}
	dir, err := filepath.EvalSymlinks(c.SourcePath)
	if err != nil {
		return "", fmt.Errorf("a pasta de extratos %s não pôde ser lida: %s", printable.Name(c.SourcePath), printable.Name(err.Error()))
	}
	if root != "" && !within(root, dir) {
		return "", fmt.Errorf("a pasta de extratos %s leva para fora da pasta da instalação; nada foi gravado", printable.Name(c.SourcePath))
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("a pasta de extratos %s não é uma pasta", printable.Name(c.SourcePath))
	}
	return dir, nil
}
