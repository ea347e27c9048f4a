package cadstore

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
	"github.com/lumo-caderninho/mcp/impl/platform/printable"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/yamldoc"
)

// RegisterSummary says what Register stored.
type RegisterSummary struct {
	People, Spaces, Connections, Assistants int
	Removed                                 []string // connections, spaces, people and assistants no longer in the file
	Updated                                 []string // people whose name the file changed (perhaps the panel's)
	Kept                                    []string // people and assistants made in the panel, which the file does not name
}

// Register stores the installation, in one transaction: time zone, people, spaces with their
// categories, connections (with source folders resolved under root, the OS folder the
// installation's file system stands for) and assistants (tokens hashed; the file's list replaces
// the stored ones of the file). Keys keep their ids across imports. A connection, space or person
// missing from the file is removed, unless a connection with imported accounts would go: that is
// refused. What the panel made is the panel's: a person or assistant made there and not named by
// the file is kept (and listed in Kept); one the file names is the file's from then on (a name
// the file changes is listed in Updated); a file assistant may not take a panel assistant's name.
// A space whose definition changed gets a new revision. Statements are not read here. The
// registration is written to the audit log.
func (s *Store) Register(ctx context.Context, inst *installation.Installation, root string) (RegisterSummary, error) {
	tx, err := s.db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return RegisterSummary{}, fmt.Errorf("starting registration: %w", err)
	}
	defer tx.Rollback()
	sum, err := s.register(ctx, tx, inst, root)
	if err != nil {
		return RegisterSummary{}, err
	}
	if err := tx.Commit(); err != nil {
		return RegisterSummary{}, fmt.Errorf("committing registration: %w", err)
	}
	return sum, nil
}

func (s *Store) register(ctx context.Context, tx *sql.Tx, inst *installation.Installation, root string) (RegisterSummary, error) {
	if _, err := tx.ExecContext(ctx, "UPDATE cad_ids SET last_id = last_id + 1 WHERE kind = 'lock'"); err != nil {
		return RegisterSummary{}, fmt.Errorf("locking for registration: %w", err)
	}
	before, err := s.installationDigest(ctx, tx)
	if err != nil {
		return RegisterSummary{}, err
	}
	now := s.now()
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return RegisterSummary{}, fmt.Errorf("resolving the installation folder: %w", err)
	}
	res, err := tx.ExecContext(ctx, s.q("UPDATE cad_installation SET timezone = ?, imported_at = ?, root_path = ? WHERE id = 1"), inst.Timezone, now, absRoot)
	if err != nil {
		return RegisterSummary{}, fmt.Errorf("updating installation: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		var key [32]byte
		if _, err := rand.Read(key[:]); err != nil {
			return RegisterSummary{}, fmt.Errorf("making the cursor secret: %w", err)
		}
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_installation (id, timezone, cursor_secret, imported_at, root_path) VALUES (1, ?, ?, ?, ?)"),
			inst.Timezone, hex.EncodeToString(key[:]), now, absRoot); err != nil {
			return RegisterSummary{}, fmt.Errorf("inserting installation: %w", err)
		}
	}
	sum := RegisterSummary{People: len(inst.People), Spaces: len(inst.Spaces), Connections: len(inst.Connections), Assistants: len(inst.Assistants)}

	oldConns, err := keyIDs(ctx, tx, "SELECT connection_key, id FROM cad_connections")
	if err != nil {
		return sum, err
	}
	connOrigins, err := keyNames(ctx, tx, "SELECT connection_key, origin FROM cad_connections")
	if err != nil {
		return sum, err
	}
	inFile := map[string]bool{}
	for _, c := range inst.Connections {
		inFile[c.Key] = true
	}
	var gone []int64
	var errs yamldoc.Errors
	for _, key := range sortedKeys(oldConns) {
		if inFile[key] {
			continue
		}
		if connOrigins[key] == OriginPanel {
			sum.Kept = append(sum.Kept, "conexão "+key)
			continue
		}
		var n int
		if err := tx.QueryRowContext(ctx, s.q("SELECT COUNT(*) FROM cad_accounts WHERE connection_id = ?"), oldConns[key]).Scan(&n); err != nil {
			return sum, fmt.Errorf("counting accounts of %s: %w", key, err)
		}
		if n > 0 {
			errs = append(errs, &yamldoc.Error{File: inst.File, Field: "connections", Message: fmt.Sprintf(
				"a conexão %q já tem %s e não está no arquivo; mantenha-a em connections (remover dados bancários importados não é feito por importação)",
				key, ptbr.Count(n, "conta importada", "contas importadas"))})
			continue
		}
		gone = append(gone, oldConns[key])
		sum.Removed = append(sum.Removed, "conexão "+key)
	}
	if len(errs) > 0 {
		return sum, errs
	}
	for _, id := range gone {
		if _, err := tx.ExecContext(ctx, s.q("DELETE FROM cad_connections WHERE id = ?"), id); err != nil {
			return sum, fmt.Errorf("deleting connection: %w", err)
		}
	}

	people, err := s.upsertPeople(ctx, tx, inst, &sum)
	if err != nil {
		return sum, err
	}
	spaces, err := s.upsertSpaces(ctx, tx, inst, &sum)
	if err != nil {
		return sum, err
	}
	if err := s.upsertConnections(ctx, tx, inst, root, people, spaces, &sum); err != nil {
		return sum, err
	}
	removed, err := s.deleteMissing(ctx, tx, inst, &sum)
	if err != nil {
		return sum, err
	}
	sum.Removed = append(sum.Removed, removed...)
	if err := s.upsertAssistants(ctx, tx, inst, &sum); err != nil {
		return sum, err
	}
	detail := fmt.Sprintf("installation.yaml registrado: %s, %s, %s, %s.", ptbr.Count(sum.People, "pessoa", "pessoas"),
		ptbr.Count(sum.Spaces, "espaço", "espaços"), ptbr.Count(sum.Connections, "conexão", "conexões"),
		ptbr.Count(sum.Assistants, "assistente", "assistentes"))
	if len(sum.Removed) > 0 {
		detail += " Removidos: " + ptbr.List(sum.Removed) + "."
	}
	if len(sum.Updated) > 0 {
		detail += " Atualizados pelo arquivo: " + ptbr.List(sum.Updated) + "."
	}
	after, err := s.installationDigest(ctx, tx)
	if err != nil {
		return sum, err
	}
	if after == before { // a re-import that changed nothing is no change to log
		return sum, nil
	}
	if err := s.audit(ctx, tx, ActorFile, "installation.register", detail); err != nil {
		return sum, err
	}
	return sum, nil
}

// installationDigest digests what a registration may change (time zone, people, spaces and
// categories, connections, assistants), to tell whether it changed anything.
func (s *Store) installationDigest(ctx context.Context, tx *sql.Tx) (string, error) {
	h := sha256.New()
	for _, q := range []string{
		"SELECT timezone, root_path FROM cad_installation",
		"SELECT person_key, name, origin FROM cad_people ORDER BY person_key",
		"SELECT space_key, name, revision FROM cad_spaces ORDER BY space_key",
		"SELECT space_id, pos, name FROM cad_categories ORDER BY space_id, pos",
		"SELECT connection_key, institution, holder_id, space_id, source_path, csv_format FROM cad_connections ORDER BY connection_key",
		"SELECT name, token_sha256, origin FROM cad_assistants ORDER BY name",
	} {
		rows, err := tx.QueryContext(ctx, q)
		if err != nil {
			return "", fmt.Errorf("digesting the installation: %w", err)
		}
		cols, _ := rows.Columns()
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return "", fmt.Errorf("digesting the installation: %w", err)
			}
			for _, v := range vals {
				fmt.Fprintf(h, "%t%q\x00", v.Valid, v.String)
			}
			h.Write([]byte{'\n'})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return "", fmt.Errorf("digesting the installation: %w", err)
		}
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// upsertAssistants makes the file's assistants the stored assistants of origin file: by name,
// a changed token replaces the old one (which stops working), a name gone from the file is
// revoked; the panel's assistants are kept, and the file may not reuse their names.
func (s *Store) upsertAssistants(ctx context.Context, tx *sql.Tx, inst *installation.Installation, sum *RegisterSummary) error {
	type old struct {
		id           int64
		hash, origin string
	}
	rows, err := tx.QueryContext(ctx, "SELECT id, name, token_sha256, origin FROM cad_assistants")
	if err != nil {
		return fmt.Errorf("reading assistants: %w", err)
	}
	stored := map[string]old{}
	for rows.Next() {
		var o old
		var name string
		if err := rows.Scan(&o.id, &name, &o.hash, &o.origin); err != nil {
			rows.Close()
			return fmt.Errorf("reading assistants: %w", err)
		}
		stored[name] = o
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading assistants: %w", err)
	}
	var errs yamldoc.Errors
	inFile := map[string]bool{}
	var fresh []*installation.Assistant
	for _, a := range inst.Assistants {
		inFile[a.Name] = true
		o, ok := stored[a.Name]
		switch {
		case !ok:
			fresh = append(fresh, a)
		case o.origin == OriginPanel:
			errs = append(errs, &yamldoc.Error{File: inst.File, Line: a.Line, Field: "assistants", Message: fmt.Sprintf(
				"o assistente %q foi autorizado no painel; dê outro nome a este, ou revogue o do painel antes de importar", a.Name)})
		case o.hash != TokenHash(a.Token):
			if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_assistants SET token_sha256 = ?, last_used_at = NULL WHERE id = ?"),
				TokenHash(a.Token), o.id); err != nil {
				return fmt.Errorf("replacing the token of assistant %s: %w", a.Name, err)
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	for _, name := range sortedKeys(stored) {
		o := stored[name]
		if inFile[name] {
			continue
		}
		if o.origin == OriginPanel {
			sum.Kept = append(sum.Kept, "assistente "+name)
			continue
		}
		if _, err := tx.ExecContext(ctx, s.q("DELETE FROM cad_assistants WHERE id = ?"), o.id); err != nil {
			return fmt.Errorf("revoking assistant %s: %w", name, err)
		}
		sum.Removed = append(sum.Removed, "assistente "+name)
	}
	first, err := s.reserveIDs(ctx, tx, "assistant", len(fresh))
	if err != nil {
		return err
	}
	for i, a := range fresh {
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_assistants (id, name, token_sha256, origin, created_at) VALUES (?, ?, ?, ?, ?)"),
			first+int64(i), a.Name, TokenHash(a.Token), OriginFile, s.now()); err != nil {
			return fmt.Errorf("inserting assistant: %w", err)
		}
	}
	return nil
}

func (s *Store) upsertPeople(ctx context.Context, tx *sql.Tx, inst *installation.Installation, sum *RegisterSummary) (map[string]int64, error) {
	ids, err := keyIDs(ctx, tx, "SELECT person_key, id FROM cad_people")
	if err != nil {
		return nil, err
	}
	names, err := keyNames(ctx, tx, "SELECT person_key, name FROM cad_people")
	if err != nil {
		return nil, err
	}
	var fresh []*installation.Person
	for _, p := range inst.People {
		if id, ok := ids[p.Key]; ok {
			if names[p.Key] != p.Name {
				sum.Updated = append(sum.Updated, fmt.Sprintf("pessoa %s (de %q para %q)", p.Key, names[p.Key], p.Name))
			}
			if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_people SET name = ?, origin = ? WHERE id = ?"), p.Name, OriginFile, id); err != nil {
				return nil, fmt.Errorf("updating person %s: %w", p.Key, err)
			}
			continue
		}
		fresh = append(fresh, p)
	}
	first, err := s.reserveIDs(ctx, tx, "person", len(fresh))
	if err != nil {
		return nil, err
	}
	for i, p := range fresh {
		ids[p.Key] = first + int64(i)
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_people (id, person_key, name, origin) VALUES (?, ?, ?, ?)"), ids[p.Key], p.Key, p.Name, OriginFile); err != nil {
			return nil, fmt.Errorf("inserting person %s: %w", p.Key, err)
		}
	}
	return ids, nil
}

// definition digests what the file says about a space and its connections: a different digest
// means readers see something else, so the space's revision moves.
func definition(inst *installation.Installation, sp *installation.Space) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q\n%q\n", sp.Name, sp.Categories)
	var conns []string
	for _, c := range inst.Connections {
		if c.Space == sp.Key {
			conns = append(conns, fmt.Sprintf("%q %q %q", c.Key, c.Institution, c.Holder))
		}
	}
	sort.Strings(conns)
	fmt.Fprintf(h, "%s\n", strings.Join(conns, "\n"))
	for _, p := range inst.People {
		fmt.Fprintf(h, "%q %q\n", p.Key, p.Name)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (s *Store) upsertSpaces(ctx context.Context, tx *sql.Tx, inst *installation.Installation, sum *RegisterSummary) (map[string]int64, error) {
	type old struct {
		id                int64
		def, name, origin string
	}
	rows, err := tx.QueryContext(ctx, "SELECT space_key, id, definition, name, origin FROM cad_spaces")
	if err != nil {
		return nil, fmt.Errorf("reading spaces: %w", err)
	}
	existing := map[string]old{}
	for rows.Next() {
		var k string
		var o old
		if err := rows.Scan(&k, &o.id, &o.def, &o.name, &o.origin); err != nil {
			rows.Close()
			return nil, fmt.Errorf("reading spaces: %w", err)
		}
		existing[k] = o
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading spaces: %w", err)
	}
	ids := map[string]int64{}
	var fresh []*installation.Space
	for _, sp := range inst.Spaces {
		o, ok := existing[sp.Key]
		if !ok {
			fresh = append(fresh, sp)
			continue
		}
		ids[sp.Key] = o.id
		def := definition(inst, sp)
		if def == o.def && o.origin == OriginFile {
			continue
		}
		if o.origin == OriginPanel {
			sum.Updated = append(sum.Updated, fmt.Sprintf("espaço %s (criado no painel, passa a seguir o arquivo)", sp.Key))
		} else if o.name != sp.Name && o.def == staleDefinition {
			sum.Updated = append(sum.Updated, fmt.Sprintf("espaço %s (de %q para %q)", sp.Key, o.name, sp.Name))
		}
		stored, err := s.categories(ctx, tx, o.id)
		if err != nil {
			return nil, err
		}
		var dropped []string
		for _, c := range stored {
			if findCategory(sp.Categories, c) == "" {
				dropped = append(dropped, c)
			}
		}
		if len(dropped) > 0 {
			sum.Updated = append(sum.Updated, fmt.Sprintf("categorias do espaço %s que o arquivo não lista: %s (o que as usa fica com elas; acrescente-as em categories para tê-las na lista)",
				sp.Key, strings.Join(dropped, ", ")))
		}
		if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_spaces SET name = ?, definition = ?, origin = ?, revision = revision + 1 WHERE id = ?"), sp.Name, def, OriginFile, o.id); err != nil {
			return nil, fmt.Errorf("updating space %s: %w", sp.Key, err)
		}
		if err := s.insertCategories(ctx, tx, o.id, sp); err != nil {
			return nil, err
		}
	}
	first, err := s.reserveIDs(ctx, tx, "space", len(fresh))
	if err != nil {
		return nil, err
	}
	for i, sp := range fresh {
		id := first + int64(i)
		ids[sp.Key] = id
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_spaces (id, space_key, name, revision, definition) VALUES (?, ?, ?, 1, ?)"),
			id, sp.Key, sp.Name, definition(inst, sp)); err != nil {
			return nil, fmt.Errorf("inserting space %s: %w", sp.Key, err)
		}
		if err := s.insertCategories(ctx, tx, id, sp); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

func (s *Store) insertCategories(ctx context.Context, tx *sql.Tx, spaceID int64, sp *installation.Space) error {
	if _, err := tx.ExecContext(ctx, s.q("DELETE FROM cad_categories WHERE space_id = ?"), spaceID); err != nil {
		return fmt.Errorf("replacing categories of %s: %w", sp.Key, err)
	}
	for i, c := range sp.Categories {
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_categories (space_id, pos, name) VALUES (?, ?, ?)"), spaceID, i, c); err != nil {
			return fmt.Errorf("inserting category of %s: %w", sp.Key, err)
		}
	}
	return nil
}

func (s *Store) upsertConnections(ctx context.Context, tx *sql.Tx, inst *installation.Installation, root string, people, spaces map[string]int64, sum *RegisterSummary) error {
	ids, err := keyIDs(ctx, tx, "SELECT connection_key, id FROM cad_connections")
	if err != nil {
		return err
	}
	origins, err := keyNames(ctx, tx, "SELECT connection_key, origin FROM cad_connections")
	if err != nil {
		return err
	}
	var fresh []*installation.Connection
	for _, c := range inst.Connections {
		src := filepath.Join(root, filepath.FromSlash(c.Source))
		if id, ok := ids[c.Key]; ok {
			if origins[c.Key] == OriginPanel {
				sum.Updated = append(sum.Updated, fmt.Sprintf("conexão %s (criada no painel, passa a seguir o arquivo e a ler a pasta %s)", c.Key, printable.Name(c.Source)))
			}
			var oldHolder, oldSpace int64
			if err := tx.QueryRowContext(ctx, s.q("SELECT holder_id, space_id FROM cad_connections WHERE id = ?"), id).Scan(&oldHolder, &oldSpace); err != nil {
				return fmt.Errorf("reading connection %s: %w", c.Key, err)
			}
			if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_connections SET institution = ?, holder_id = ?, space_id = ?, source_path = ?, csv_format = ?, origin = ? WHERE id = ?"),
				c.Institution, people[c.Holder], spaces[c.Space], src, c.Format, OriginFile, id); err != nil {
				return fmt.Errorf("updating connection %s: %w", c.Key, err)
			}
			if oldHolder != people[c.Holder] || oldSpace != spaces[c.Space] {
				// the rules of its (new) space, with its (new) holder, categorise its transactions
				if err := s.reapplyConnection(ctx, tx, id); err != nil {
					return err
				}
			}
			continue
		}
		fresh = append(fresh, c)
	}
	first, err := s.reserveIDs(ctx, tx, "connection", len(fresh))
	if err != nil {
		return err
	}
	for i, c := range fresh {
		src := filepath.Join(root, filepath.FromSlash(c.Source))
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO cad_connections (id, connection_key, institution, holder_id, space_id, source_path, csv_format)
			VALUES (?, ?, ?, ?, ?, ?, ?)`), first+int64(i), c.Key, c.Institution, people[c.Holder], spaces[c.Space], src, c.Format); err != nil {
			return fmt.Errorf("inserting connection %s: %w", c.Key, err)
		}
	}
	return nil
}

// deleteMissing removes the spaces and the file's people the file no longer names (connections
// went first); the panel's people stay, listed in sum.Kept.
func (s *Store) deleteMissing(ctx context.Context, tx *sql.Tx, inst *installation.Installation, sum *RegisterSummary) ([]string, error) {
	var removed []string
	spaces, err := keyIDs(ctx, tx, "SELECT space_key, id FROM cad_spaces")
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, sp := range inst.Spaces {
		keep[sp.Key] = true
	}
	spaceOrigins, err := keyNames(ctx, tx, "SELECT space_key, origin FROM cad_spaces")
	if err != nil {
		return nil, err
	}
	var errs yamldoc.Errors
	held := func(query, key string) ([]string, error) {
		rows, err := tx.QueryContext(ctx, s.q(query), key)
		if err != nil {
			return nil, fmt.Errorf("reading connections of %s: %w", key, err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				return nil, fmt.Errorf("reading connections of %s: %w", key, err)
			}
			out = append(out, c)
		}
		return out, rows.Err()
	}
	for _, k := range sortedKeys(spaces) {
		if keep[k] {
			continue
		}
		if spaceOrigins[k] == OriginPanel {
			sum.Kept = append(sum.Kept, "espaço "+k)
			continue
		}
		conns, err := held(`SELECT c.connection_key FROM cad_connections c JOIN cad_spaces sp ON sp.id = c.space_id
			WHERE sp.space_key = ? ORDER BY c.connection_key`, k)
		if err != nil {
			return nil, err
		}
		if len(conns) > 0 {
			errs = append(errs, &yamldoc.Error{File: inst.File, Field: "spaces", Message: fmt.Sprintf(
				"o espaço %q não está mais no arquivo, mas é o espaço de %s, criada(s) no painel; mantenha-o em spaces ou mude a conexão de espaço no painel",
				k, strings.Join(conns, ", "))})
			continue
		}
		for _, q := range []string{"DELETE FROM cad_categories WHERE space_id = ?", "DELETE FROM cad_spaces WHERE id = ?"} {
			if _, err := tx.ExecContext(ctx, s.q(q), spaces[k]); err != nil {
				return nil, fmt.Errorf("deleting space %s: %w", k, err)
			}
		}
		removed = append(removed, "espaço "+k)
	}
	people, err := keyIDs(ctx, tx, "SELECT person_key, id FROM cad_people")
	if err != nil {
		return nil, err
	}
	origins, err := keyNames(ctx, tx, "SELECT person_key, origin FROM cad_people")
	if err != nil {
		return nil, err
	}
	keep = map[string]bool{}
	for _, p := range inst.People {
		keep[p.Key] = true
	}
	for _, k := range sortedKeys(people) {
		if keep[k] {
			continue
		}
		if origins[k] == OriginPanel {
			sum.Kept = append(sum.Kept, "pessoa "+k)
			continue
		}
		conns, err := held(`SELECT c.connection_key FROM cad_connections c JOIN cad_people p ON p.id = c.holder_id
			WHERE p.person_key = ? ORDER BY c.connection_key`, k)
		if err != nil {
			return nil, err
		}
		if len(conns) > 0 {
			errs = append(errs, &yamldoc.Error{File: inst.File, Field: "people", Message: fmt.Sprintf(
				"a pessoa %q não está mais no arquivo, mas é titular de %s, criada(s) no painel; mantenha-a em people ou troque o titular no painel",
				k, strings.Join(conns, ", "))})
			continue
		}
		if _, err := tx.ExecContext(ctx, s.q("DELETE FROM cad_people WHERE id = ?"), people[k]); err != nil {
			return nil, fmt.Errorf("deleting person %s: %w", k, err)
		}
		removed = append(removed, "pessoa "+k)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return removed, nil
}

func keyIDs(ctx context.Context, q queryer, query string) (map[string]int64, error) {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("reading ids: %w", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var k string
		var id int64
		if err := rows.Scan(&k, &id); err != nil {
			return nil, fmt.Errorf("reading ids: %w", err)
		}
		out[k] = id
	}
	return out, rows.Err()
}

func keyNames(ctx context.Context, q queryer, query string) (map[string]string, error) {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("reading names: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("reading names: %w", err)
		}
		out[k] = v
	}
	return out, rows.Err()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
