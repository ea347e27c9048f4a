package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"regexp"
	"strings"
	"time"
)

// AdminError is a refused administration change, in Portuguese, naming what to fix. Nothing
// was written.
type AdminError struct{ Msg string }

func (e *AdminError) Error() string { return e.Msg }

func refuse(format string, args ...any) error {
	return &AdminError{Msg: fmt.Sprintf(format, args...)}
}

// keyPattern is the workspace schema's pattern for tenant keys, logins and app keys.
var keyPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,62}$`)

func checkKey(what, v string) error {
	if !keyPattern.MatchString(v) {
		return refuse("%s %q inválido: use de 1 a 63 letras minúsculas, dígitos, _ ou -, começando por letra ou dígito", what, v)
	}
	return nil
}

func checkName(what, v string) error {
	if strings.TrimSpace(v) == "" || len([]rune(v)) > 200 {
		return refuse("%s inválido: informe de 1 a 200 caracteres", what)
	}
	return nil
}

// TokenPrefix starts every token lumo issues, so leaked ones are easy to recognise.
const TokenPrefix = "lumo_"

// adminTx runs f in one transaction, committed only when f succeeds.
func (db *DB) adminTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("starting transaction: %w", err)
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	// Admin changes who sees which app: move the generation that versions cached models, as an
	// import does, so every replica reads the catalogue afresh at its next call.
	if err := db.moveGeneration(ctx, tx); err != nil {
		return fmt.Errorf("moving the catalogue generation: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	db.generationMoved()
	return nil
}

func (db *DB) one(ctx context.Context, tx *sql.Tx, query string, args ...any) (int64, error) {
	var n int64
	err := tx.QueryRowContext(ctx, db.q(query), args...).Scan(&n)
	return n, err
}

func (db *DB) tenantID(ctx context.Context, tx *sql.Tx, key string) (int64, error) {
	id, err := db.one(ctx, tx, "SELECT id FROM lumo_tenants WHERE tenant_key = ?", key)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, refuse("o tenant %q não existe; veja os tenants com `lumo admin tenant list`", key)
	}
	return id, err
}

// userRef is a user's id and tenant.
func (db *DB) userRef(ctx context.Context, tx *sql.Tx, login string) (id, tenant int64, err error) {
	err = tx.QueryRowContext(ctx, db.q("SELECT id, tenant_id FROM lumo_users WHERE login = ?"), login).Scan(&id, &tenant)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, refuse("o usuário %q não existe; veja os usuários com `lumo admin user list`", login)
	}
	return id, tenant, err
}

func (db *DB) deskID(ctx context.Context, tx *sql.Tx, tenant int64, tenantKey, name string) (int64, error) {
	id, err := db.one(ctx, tx, "SELECT id FROM lumo_desks WHERE tenant_id = ? AND name = ?", tenant, name)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, refuse("a mesa %q não existe no tenant %q; veja as mesas com `lumo admin desk list --tenant %s`", name, tenantKey, tenantKey)
	}
	return id, err
}

// AddTenant creates an empty tenant.
func (db *DB) AddTenant(ctx context.Context, key, name string) error {
	if err := checkKey("chave de tenant", key); err != nil {
		return err
	}
	if err := checkName("nome do tenant", name); err != nil {
		return err
	}
	return db.adminTx(ctx, func(tx *sql.Tx) error {
		if _, err := db.one(ctx, tx, "SELECT id FROM lumo_tenants WHERE tenant_key = ?", key); err == nil {
			return refuse("o tenant %q já existe; escolha outra chave", key)
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		id, err := bumpID(ctx, db, tx, "tenant", 1)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, db.q("INSERT INTO lumo_tenants (id, tenant_key, name, imported_at) VALUES (?, ?, ?, ?)"),
			id, key, name, time.Now().UTC().Format(time.RFC3339))
		return err
	})
}

// RemoveTenant deletes a tenant. One with users, desks or apps is refused unless force, which
// deletes all of it: data tables, catalogue, users and their tokens.
func (db *DB) RemoveTenant(ctx context.Context, key string, force bool) error {
	return db.adminTx(ctx, func(tx *sql.Tx) error {
		id, err := db.tenantID(ctx, tx, key)
		if err != nil {
			return err
		}
		var users, desks, apps int64
		err = tx.QueryRowContext(ctx, db.q(`SELECT
			(SELECT COUNT(*) FROM lumo_users WHERE tenant_id = ?),
			(SELECT COUNT(*) FROM lumo_desks WHERE tenant_id = ?),
			(SELECT COUNT(*) FROM lumo_apps WHERE tenant_id = ?)`), id, id, id).Scan(&users, &desks, &apps)
		if err != nil {
			return err
		}
		if users+desks+apps > 0 && !force {
			return refuse("o tenant %q tem %s, %s e %s; remova-os antes ou use --force para apagar tudo", key,
				ptbr.Count(int(users), "usuário", "usuários"), ptbr.Count(int(desks), "mesa", "mesas"), ptbr.Count(int(apps), "Aplicação", "Aplicações"))
		}
		_, err = deleteTenants(ctx, db, tx, []int64{id})
		return err
	})
}

// TenantInfo is a row of `lumo admin tenant list`.
type TenantInfo struct {
	Key, Name          string
	Users, Desks, Apps int64
}

// Tenants lists every tenant by key.
func (db *DB) Tenants(ctx context.Context) ([]TenantInfo, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT t.tenant_key, t.name,
		(SELECT COUNT(*) FROM lumo_users u WHERE u.tenant_id = t.id),
		(SELECT COUNT(*) FROM lumo_desks d WHERE d.tenant_id = t.id),
		(SELECT COUNT(*) FROM lumo_apps a WHERE a.tenant_id = t.id)
		FROM lumo_tenants t ORDER BY t.tenant_key`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TenantInfo
	for rows.Next() {
		var t TenantInfo
		if err := rows.Scan(&t.Key, &t.Name, &t.Users, &t.Desks, &t.Apps); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// AddUser creates a user without a usable token; issue one with IssueToken.
func (db *DB) AddUser(ctx context.Context, tenantKey, login, name string) error {
	if err := checkKey("login", login); err != nil {
		return err
	}
	if err := checkName("nome do usuário", name); err != nil {
		return err
	}
	return db.adminTx(ctx, func(tx *sql.Tx) error {
		tenant, err := db.tenantID(ctx, tx, tenantKey)
		if err != nil {
			return err
		}
		var other string
		err = tx.QueryRowContext(ctx, db.q(`SELECT t.tenant_key FROM lumo_users u JOIN lumo_tenants t ON t.id = u.tenant_id
			WHERE u.login = ?`), login).Scan(&other)
		if err == nil {
			return refuse("o login %q já existe no tenant %q; cada login é único entre todos os tenants", login, other)
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		id, err := bumpID(ctx, db, tx, "user", 1)
		if err != nil {
			return err
		}
		// The workspace token column is required: a digest of random bytes nobody holds.
		unusable, err := randomToken()
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, db.q("INSERT INTO lumo_users (id, tenant_id, login, name, token_sha256) VALUES (?, ?, ?, ?, ?)"),
			id, tenant, login, name, tokenHash(unusable))
		return err
	})
}

// RemoveUser deletes a user with their tokens and desk memberships. A user who owns personal
// copies is refused unless force, which deletes the copies too.
func (db *DB) RemoveUser(ctx context.Context, login string, force bool) error {
	return db.adminTx(ctx, func(tx *sql.Tx) error {
		id, _, err := db.userRef(ctx, tx, login)
		if err != nil {
			return err
		}
		copies, err := db.one(ctx, tx, "SELECT COUNT(*) FROM lumo_apps WHERE owner_id = ?", id)
		if err != nil {
			return err
		}
		if copies > 0 && !force {
			return refuse("o usuário %q tem %d cópias pessoais de Aplicações; use --force para apagá-las junto", login, copies)
		}
		if err := deleteAppCatalogue(ctx, db, tx, "SELECT id FROM lumo_apps WHERE owner_id = ?", id); err != nil {
			return err
		}
		for _, q := range []string{
			"DELETE FROM lumo_tokens WHERE user_id = ?",
			"DELETE FROM lumo_desk_members WHERE user_id = ?",
			"DELETE FROM lumo_users WHERE id = ?",
		} {
			if _, err := tx.ExecContext(ctx, db.q(q), id); err != nil {
				return err
			}
		}
		return nil
	})
}

// UserInfo is a row of `lumo admin user list`.
type UserInfo struct {
	Tenant, Login, Name string
	Tokens              int64 // issued with IssueToken (the workspace token not counted)
	Desks               []string
}

// Users lists the users of tenantKey (all when ""), by tenant and login.
func (db *DB) Users(ctx context.Context, tenantKey string) ([]UserInfo, error) {
	rows, err := db.sql.QueryContext(ctx, db.q(`SELECT t.tenant_key, u.login, u.name,
		(SELECT COUNT(*) FROM lumo_tokens k WHERE k.user_id = u.id), d.name
		FROM lumo_users u JOIN lumo_tenants t ON t.id = u.tenant_id
		LEFT JOIN lumo_desk_members m ON m.user_id = u.id LEFT JOIN lumo_desks d ON d.id = m.desk_id
		WHERE ? = '' OR t.tenant_key = ?
		ORDER BY t.tenant_key, u.login, d.name`), tenantKey, tenantKey)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []UserInfo
	for rows.Next() {
		var u UserInfo
		var desk sql.NullString
		if err := rows.Scan(&u.Tenant, &u.Login, &u.Name, &u.Tokens, &desk); err != nil {
			return nil, err
		}
		if n := len(out); n > 0 && out[n-1].Login == u.Login {
			out[n-1].Desks = append(out[n-1].Desks, desk.String)
			continue
		}
		if desk.Valid {
			u.Desks = []string{desk.String}
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// AddDesk creates an empty desk in a tenant.
func (db *DB) AddDesk(ctx context.Context, tenantKey, name string) error {
	if err := checkName("nome da mesa", name); err != nil {
		return err
	}
	return db.adminTx(ctx, func(tx *sql.Tx) error {
		tenant, err := db.tenantID(ctx, tx, tenantKey)
		if err != nil {
			return err
		}
		if _, err := db.one(ctx, tx, "SELECT id FROM lumo_desks WHERE tenant_id = ? AND name = ?", tenant, name); err == nil {
			return refuse("a mesa %q já existe no tenant %q", name, tenantKey)
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		id, err := bumpID(ctx, db, tx, "desk", 1)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, db.q("INSERT INTO lumo_desks (id, tenant_id, name) VALUES (?, ?, ?)"), id, tenant, name)
		return err
	})
}

// RemoveDesk deletes a desk. One with members or published apps is refused unless force,
// which removes the memberships and unpublishes the apps (they stay, visible to nobody).
func (db *DB) RemoveDesk(ctx context.Context, tenantKey, name string, force bool) error {
	return db.adminTx(ctx, func(tx *sql.Tx) error {
		tenant, err := db.tenantID(ctx, tx, tenantKey)
		if err != nil {
			return err
		}
		id, err := db.deskID(ctx, tx, tenant, tenantKey, name)
		if err != nil {
			return err
		}
		var members, apps int64
		if err := tx.QueryRowContext(ctx, db.q(`SELECT (SELECT COUNT(*) FROM lumo_desk_members WHERE desk_id = ?),
			(SELECT COUNT(*) FROM lumo_apps WHERE desk_id = ?)`), id, id).Scan(&members, &apps); err != nil {
			return err
		}
		if members+apps > 0 && !force {
			return refuse("a mesa %q tem %s e %s; use --force para tirar os membros e despublicar as Aplicações", name,
				ptbr.Count(int(members), "membro", "membros"), ptbr.Count(int(apps), "Aplicação publicada", "Aplicações publicadas"))
		}
		for _, q := range []string{
			"DELETE FROM lumo_desk_members WHERE desk_id = ?",
			"UPDATE lumo_apps SET desk_id = NULL, published_at = NULL WHERE desk_id = ?",
			"DELETE FROM lumo_desks WHERE id = ?",
		} {
			if _, err := tx.ExecContext(ctx, db.q(q), id); err != nil {
				return err
			}
		}
		return nil
	})
}

// DeskInfo is a row of `lumo admin desk list`.
type DeskInfo struct {
	Tenant, Name string
	Members      []string
	Apps         []string // keys of the apps published on it
}

// Desks lists the desks of tenantKey (all when ""), with members and published apps.
func (db *DB) Desks(ctx context.Context, tenantKey string) ([]DeskInfo, error) {
	rows, err := db.sql.QueryContext(ctx, db.q(`SELECT t.tenant_key, d.name, 'm', u.login
		FROM lumo_desks d JOIN lumo_tenants t ON t.id = d.tenant_id
		JOIN lumo_desk_members m ON m.desk_id = d.id JOIN lumo_users u ON u.id = m.user_id
		WHERE ? = '' OR t.tenant_key = ?
		UNION ALL SELECT t.tenant_key, d.name, 'a', a.app_key
		FROM lumo_desks d JOIN lumo_tenants t ON t.id = d.tenant_id JOIN lumo_apps a ON a.desk_id = d.id
		WHERE ? = '' OR t.tenant_key = ?
		UNION ALL SELECT t.tenant_key, d.name, '', ''
		FROM lumo_desks d JOIN lumo_tenants t ON t.id = d.tenant_id
		WHERE ? = '' OR t.tenant_key = ?
		ORDER BY 1, 2, 3, 4`), tenantKey, tenantKey, tenantKey, tenantKey, tenantKey, tenantKey)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []DeskInfo
	for rows.Next() {
		var tenant, desk, kind, v string
		if err := rows.Scan(&tenant, &desk, &kind, &v); err != nil {
			return nil, err
		}
		if n := len(out); n == 0 || out[n-1].Tenant != tenant || out[n-1].Name != desk {
			out = append(out, DeskInfo{Tenant: tenant, Name: desk})
		}
		d := &out[len(out)-1]
		switch kind {
		case "m":
			d.Members = append(d.Members, v)
		case "a":
			d.Apps = append(d.Apps, v)
		}
	}
	return out, rows.Err()
}

// AddMember makes a user a member of a desk of their tenant.
func (db *DB) AddMember(ctx context.Context, desk, login string) error {
	return db.adminTx(ctx, func(tx *sql.Tx) error {
		user, deskID, err := db.memberRefs(ctx, tx, desk, login)
		if err != nil {
			return err
		}
		if _, err := db.one(ctx, tx, "SELECT user_id FROM lumo_desk_members WHERE desk_id = ? AND user_id = ?", deskID, user); err == nil {
			return refuse("o usuário %q já é membro da mesa %q", login, desk)
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		_, err = tx.ExecContext(ctx, db.q("INSERT INTO lumo_desk_members (desk_id, user_id) VALUES (?, ?)"), deskID, user)
		return err
	})
}

// RemoveMember takes a user off a desk.
func (db *DB) RemoveMember(ctx context.Context, desk, login string) error {
	return db.adminTx(ctx, func(tx *sql.Tx) error {
		user, deskID, err := db.memberRefs(ctx, tx, desk, login)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, db.q("DELETE FROM lumo_desk_members WHERE desk_id = ? AND user_id = ?"), deskID, user)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return refuse("o usuário %q não é membro da mesa %q", login, desk)
		}
		return nil
	})
}

// memberRefs resolves a login and a desk of the user's own tenant.
func (db *DB) memberRefs(ctx context.Context, tx *sql.Tx, desk, login string) (user, deskID int64, err error) {
	user, tenant, err := db.userRef(ctx, tx, login)
	if err != nil {
		return 0, 0, err
	}
	var tenantKey string
	if err := tx.QueryRowContext(ctx, db.q("SELECT tenant_key FROM lumo_tenants WHERE id = ?"), tenant).Scan(&tenantKey); err != nil {
		return 0, 0, err
	}
	deskID, err = db.deskID(ctx, tx, tenant, tenantKey, desk)
	return user, deskID, err
}

// randomToken is TokenPrefix and 32 random bytes, base64url.
func randomToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generating a token: %w", err)
	}
	return TokenPrefix + base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// IssueToken creates a new token for login under label and returns it: the only time it exists
// outside the caller (only its SHA-256 is stored).
func (db *DB) IssueToken(ctx context.Context, login, label string) (string, error) {
	if err := checkKey("rótulo do token", label); err != nil {
		return "", err
	}
	token, err := randomToken()
	if err != nil {
		return "", err
	}
	err = db.adminTx(ctx, func(tx *sql.Tx) error {
		user, _, err := db.userRef(ctx, tx, login)
		if err != nil {
			return err
		}
		if _, err := db.one(ctx, tx, "SELECT user_id FROM lumo_tokens WHERE user_id = ? AND label = ?", user, label); err == nil {
			return refuse("o usuário %q já tem um token com o rótulo %q; revogue-o antes ou use outro rótulo", login, label)
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		_, err = tx.ExecContext(ctx, db.q("INSERT INTO lumo_tokens (token_sha256, user_id, label, created_at) VALUES (?, ?, ?, ?)"),
			tokenHash(token), user, label, time.Now().UTC().Format(time.RFC3339))
		return err
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// RevokeToken deletes login's token labelled label; the next request with it gets 401 on
// every replica, since every request looks the token up in the database.
func (db *DB) RevokeToken(ctx context.Context, login, label string) error {
	return db.adminTx(ctx, func(tx *sql.Tx) error {
		user, _, err := db.userRef(ctx, tx, login)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, db.q("DELETE FROM lumo_tokens WHERE user_id = ? AND label = ?"), user, label)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return refuse("o usuário %q não tem token com o rótulo %q; veja os tokens com `lumo admin token list %s`", login, label, login)
		}
		return nil
	})
}

// TokenInfo is a row of `lumo admin token list` (never the token).
type TokenInfo struct {
	Label, CreatedAt string
}

// Tokens lists the tokens issued to login, by label.
func (db *DB) Tokens(ctx context.Context, login string) ([]TokenInfo, error) {
	var out []TokenInfo
	err := db.adminTx(ctx, func(tx *sql.Tx) error {
		user, _, err := db.userRef(ctx, tx, login)
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, db.q("SELECT label, created_at FROM lumo_tokens WHERE user_id = ? ORDER BY label"), user)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var t TokenInfo
			if err := rows.Scan(&t.Label, &t.CreatedAt); err != nil {
				return err
			}
			out = append(out, t)
		}
		return rows.Err()
	})
	return out, err
}

// Publish makes a tenant's app visible on a desk of the same tenant from now on (a personal
// copy cannot be published).
func (db *DB) Publish(ctx context.Context, tenantKey, appKey, desk string) error {
	return db.adminTx(ctx, func(tx *sql.Tx) error {
		tenant, err := db.tenantID(ctx, tx, tenantKey)
		if err != nil {
			return err
		}
		var appID int64
		var cloneOf sql.NullInt64
		err = tx.QueryRowContext(ctx, db.q("SELECT id, clone_of FROM lumo_apps WHERE tenant_id = ? AND app_key = ?"), tenant, appKey).Scan(&appID, &cloneOf)
		if errors.Is(err, sql.ErrNoRows) {
			return refuse("a Aplicação %q não existe no tenant %q; importe-a com `lumo import`", appKey, tenantKey)
		}
		if err != nil {
			return err
		}
		if cloneOf.Valid {
			return refuse("a Aplicação %q é uma cópia pessoal e não pode ser publicada numa mesa", appKey)
		}
		deskID, err := db.deskID(ctx, tx, tenant, tenantKey, desk)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, db.q("UPDATE lumo_apps SET desk_id = ?, published_at = ? WHERE id = ?"),
			deskID, time.Now().UTC().Format(time.RFC3339), appID)
		return err
	})
}

// deleteAppCatalogue deletes the catalogue rows (not the data tables) of the apps appsQuery
// selects with args.
func deleteAppCatalogue(ctx context.Context, db *DB, tx *sql.Tx, appsQuery string, args ...any) error {
	deletes := []struct{ what, sql string }{
		{"rollup columns", "DELETE FROM lumo_rollup_columns WHERE app_id IN (" + appsQuery + ")"},
		{"rollups", "DELETE FROM lumo_rollups WHERE app_id IN (" + appsQuery + ")"},
		{"segments", "DELETE FROM lumo_segments WHERE app_id IN (" + appsQuery + ")"},
		{"indicators", "DELETE FROM lumo_indicators WHERE app_id IN (" + appsQuery + ")"},
		{"expressions", "DELETE FROM lumo_expressions WHERE app_id IN (" + appsQuery + ")"},
		{"relationship keys", "DELETE FROM lumo_relationship_keys WHERE app_id IN (" + appsQuery + ")"},
		{"relationships", "DELETE FROM lumo_relationships WHERE app_id IN (" + appsQuery + ")"},
		{"columns", "DELETE FROM lumo_columns WHERE table_id IN (SELECT id FROM lumo_tables WHERE app_id IN (" + appsQuery + "))"},
		{"tables", "DELETE FROM lumo_tables WHERE app_id IN (" + appsQuery + ")"},
		{"apps", "DELETE FROM lumo_apps WHERE id IN (" + appsQuery + ")"},
	}
	for _, d := range deletes {
		if _, err := tx.ExecContext(ctx, db.q(d.sql), args...); err != nil {
			return fmt.Errorf("deleting %s: %w", d.what, err)
		}
	}
	return nil
}
