package cadstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Spaces and their categories, administered from the panel and caderninho admin. Categories
// match as the planning tools match them: accent and case-insensitive. A category's uses are the
// edits, manual records and split parts naming it and the budgets for it; renaming or merging
// one moves every use with it, in the same transaction.

// CategoryInfo is a category of a space and how many things name it.
type CategoryInfo struct {
	Name string
	Uses CategoryUses
}

// CategoryUses counts what names a category.
type CategoryUses struct{ Edits, Records, Budgets, Rules int }

// Total is every use.
func (u CategoryUses) Total() int { return u.Edits + u.Records + u.Budgets + u.Rules }

// SpaceInfo is a space as the panel lists it.
type SpaceInfo struct {
	Key, Name, Origin string
	Revision          int64
	Categories        []CategoryInfo
	Use               SpaceUses
}

// SpaceUses counts what belongs to a space: it is removable only when all are zero.
type SpaceUses struct {
	Connections                    []string
	Edits, Records, Budgets, Rules int
}

// InUse reports whether anything belongs to the space.
func (u SpaceUses) InUse() bool {
	return len(u.Connections) > 0 || u.Edits+u.Records+u.Budgets+u.Rules > 0
}

// SpaceInUseError refuses to remove a space something still belongs to.
type SpaceInUseError struct{ SpaceUses }

func (e *SpaceInUseError) Error() string { return "space in use" }

// CategoryInUseError refuses to remove a category something still names.
type CategoryInUseError struct{ CategoryUses }

func (e *CategoryInUseError) Error() string { return "category in use" }

// SpaceList is every space by key, with its categories and their uses.
func (s *Store) SpaceList(ctx context.Context) ([]SpaceInfo, error) {
	tx, err := s.db.SQL().BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("reading spaces: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, "SELECT id, space_key, name, origin, revision FROM cad_spaces ORDER BY space_key")
	if err != nil {
		return nil, fmt.Errorf("reading spaces: %w", err)
	}
	var out []SpaceInfo
	var ids []int64
	for rows.Next() {
		var sp SpaceInfo
		var id int64
		if err := rows.Scan(&id, &sp.Key, &sp.Name, &sp.Origin, &sp.Revision); err != nil {
			rows.Close()
			return nil, fmt.Errorf("reading spaces: %w", err)
		}
		out = append(out, sp)
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading spaces: %w", err)
	}
	for i := range out {
		cats, err := s.categories(ctx, tx, ids[i])
		if err != nil {
			return nil, err
		}
		uses, err := s.spaceUses(ctx, tx, ids[i], out[i].Key)
		if err != nil {
			return nil, err
		}
		out[i].Use = uses.SpaceUses
		for _, c := range cats {
			out[i].Categories = append(out[i].Categories, CategoryInfo{Name: c, Uses: uses.byCategory[fold.Fold(c)]})
		}
	}
	return out, nil
}

func (s *Store) categories(ctx context.Context, q queryer, spaceID int64) ([]string, error) {
	rows, err := q.QueryContext(ctx, s.q("SELECT name FROM cad_categories WHERE space_id = ? ORDER BY pos"), spaceID)
	if err != nil {
		return nil, fmt.Errorf("reading categories: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("reading categories: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

type spaceUses struct {
	SpaceUses
	byCategory map[string]CategoryUses // by folded name
}

// storedSplit is one part of a stored split, kept as written but for its category.
type storedSplit struct {
	Amount   json.RawMessage `json:"amount"`
	Category *string         `json:"category"`
	Note     *string         `json:"note"`
}

// splitCategories are the folded categories a stored split names.
func splitCategories(js sql.NullString) map[string]bool {
	if !js.Valid {
		return nil
	}
	var parts []storedSplit
	if json.Unmarshal([]byte(js.String), &parts) != nil {
		return nil
	}
	out := map[string]bool{}
	for _, p := range parts {
		if p.Category != nil {
			out[fold.Fold(*p.Category)] = true
		}
	}
	return out
}

// spaceUses counts what belongs to a space and names each of its categories.
func (s *Store) spaceUses(ctx context.Context, q queryer, spaceID int64, key string) (spaceUses, error) {
	u := spaceUses{byCategory: map[string]CategoryUses{}}
	rows, err := q.QueryContext(ctx, s.q("SELECT connection_key FROM cad_connections WHERE space_id = ? ORDER BY connection_key"), spaceID)
	if err != nil {
		return u, fmt.Errorf("reading connections of %s: %w", key, err)
	}
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			rows.Close()
			return u, fmt.Errorf("reading connections of %s: %w", key, err)
		}
		u.Connections = append(u.Connections, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return u, fmt.Errorf("reading connections of %s: %w", key, err)
	}
	for _, t := range []struct {
		query string
		count *int
		use   func(*CategoryUses)
	}{
		{"SELECT category, splits FROM cad_edits WHERE space_key = ?", &u.Edits, func(c *CategoryUses) { c.Edits++ }},
		{"SELECT category, splits FROM cad_records WHERE space_key = ?", &u.Records, func(c *CategoryUses) { c.Records++ }},
		{"SELECT category, NULL FROM cad_budgets WHERE space_key = ?", &u.Budgets, func(c *CategoryUses) { c.Budgets++ }},
		{"SELECT category, NULL FROM cad_rules WHERE space_key = ?", &u.Rules, func(c *CategoryUses) { c.Rules++ }},
	} {
		rows, err := q.QueryContext(ctx, s.q(t.query), key)
		if err != nil {
			return u, fmt.Errorf("reading the uses of %s: %w", key, err)
		}
		for rows.Next() {
			var cat, splits sql.NullString
			if err := rows.Scan(&cat, &splits); err != nil {
				rows.Close()
				return u, fmt.Errorf("reading the uses of %s: %w", key, err)
			}
			*t.count++
			named := splitCategories(splits)
			if cat.Valid {
				if named == nil {
					named = map[string]bool{}
				}
				named[fold.Fold(cat.String)] = true
			}
			for f := range named {
				c := u.byCategory[f]
				t.use(&c)
				u.byCategory[f] = c
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return u, fmt.Errorf("reading the uses of %s: %w", key, err)
		}
	}
	return u, nil
}

// spaceID finds a space in tx, or ErrNotFound.
func (s *Store) spaceID(ctx context.Context, tx *sql.Tx, key string) (int64, string, error) {
	var id int64
	var name string
	err := tx.QueryRowContext(ctx, s.q("SELECT id, name FROM cad_spaces WHERE space_key = ?"), key).Scan(&id, &name)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", ErrNotFound
	}
	if err != nil {
		return 0, "", fmt.Errorf("looking up space %s: %w", key, err)
	}
	return id, name, nil
}

// AddSpace makes a space of the panel, without categories; ErrExists when the key is taken.
func (s *Store) AddSpace(ctx context.Context, actor, key, name string) error {
	return s.adminTx(ctx, func(tx *sql.Tx) error {
		if _, _, err := s.spaceID(ctx, tx, key); err == nil {
			return ErrExists
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
		id, err := s.reserveIDs(ctx, tx, "space", 1)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_spaces (id, space_key, name, revision, definition, origin) VALUES (?, ?, ?, 1, ?, ?)"),
			id, key, name, staleDefinition, OriginPanel); err != nil {
			return fmt.Errorf("inserting space %s: %w", key, err)
		}
		return s.audit(ctx, tx, actor, "space.add", fmt.Sprintf("Espaço %q adicionado com o nome %q.", key, name))
	})
}

// RenameSpace renames a space (its revision moves); false when the name was already that.
func (s *Store) RenameSpace(ctx context.Context, actor, key, name string) (bool, error) {
	changed := false
	err := s.adminTx(ctx, func(tx *sql.Tx) error {
		id, old, err := s.spaceID(ctx, tx, key)
		if err != nil || old == name {
			return err
		}
		changed = true
		if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_spaces SET name = ? WHERE id = ?"), name, id); err != nil {
			return fmt.Errorf("renaming space %s: %w", key, err)
		}
		if err := s.staleSpace(ctx, tx, id); err != nil {
			return err
		}
		return s.audit(ctx, tx, actor, "space.rename", fmt.Sprintf("Espaço %q renomeado de %q para %q.", key, old, name))
	})
	return changed, err
}

// RemoveSpace removes a space nothing belongs to (no connection, edit, manual record, budget or
// rule): ErrNotFound, or *SpaceInUseError with nothing written.
func (s *Store) RemoveSpace(ctx context.Context, actor, key string) error {
	return s.adminTx(ctx, func(tx *sql.Tx) error {
		id, name, err := s.spaceID(ctx, tx, key)
		if err != nil {
			return err
		}
		u, err := s.spaceUses(ctx, tx, id, key)
		if err != nil {
			return err
		}
		if u.InUse() {
			return &SpaceInUseError{u.SpaceUses}
		}
		for _, q := range []string{"DELETE FROM cad_categories WHERE space_id = ?", "DELETE FROM cad_spaces WHERE id = ?"} {
			if _, err := tx.ExecContext(ctx, s.q(q), id); err != nil {
				return fmt.Errorf("deleting space %s: %w", key, err)
			}
		}
		return s.audit(ctx, tx, actor, "space.remove", fmt.Sprintf("Espaço %q (%s) removido.", key, name))
	})
}

// findCategory is the stored name of the space's category matching name, or "".
func findCategory(cats []string, name string) string {
	f := fold.Fold(name)
	for _, c := range cats {
		if fold.Fold(c) == f {
			return c
		}
	}
	return ""
}

// spaceCategories is the id and the categories of the space with key space, in tx.
func (s *Store) spaceCategories(ctx context.Context, tx *sql.Tx, space string) (int64, []string, error) {
	id, _, err := s.spaceID(ctx, tx, space)
	if err != nil {
		return 0, nil, err
	}
	cats, err := s.categories(ctx, tx, id)
	return id, cats, err
}

// AddCategory adds a category at the end of a space's list: ErrNotFound (no such space), or
// ErrExists when the space has it (accent and case-insensitive).
func (s *Store) AddCategory(ctx context.Context, actor, space, name string) error {
	return s.adminTx(ctx, func(tx *sql.Tx) error {
		id, cats, err := s.spaceCategories(ctx, tx, space)
		if err != nil {
			return err
		}
		if findCategory(cats, name) != "" {
			return ErrExists
		}
		var pos int
		if err := tx.QueryRowContext(ctx, s.q("SELECT COALESCE(MAX(pos), -1) + 1 FROM cad_categories WHERE space_id = ?"), id).Scan(&pos); err != nil {
			return fmt.Errorf("placing a category: %w", err)
		}
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_categories (space_id, pos, name) VALUES (?, ?, ?)"), id, pos, name); err != nil {
			return fmt.Errorf("inserting a category: %w", err)
		}
		if err := s.staleSpace(ctx, tx, id); err != nil {
			return err
		}
		return s.audit(ctx, tx, actor, "category.add", fmt.Sprintf("Categoria %q adicionada ao espaço %q.", name, space))
	})
}

// ErrNoCategory is returned when a space has no such category.
var ErrNoCategory = errors.New("no such category")

// RenameCategory renames a space's category; every edit, manual record, split part and budget
// naming it follows. ErrNotFound (space), ErrNoCategory, or ErrExists when another category
// has the new name; false when the name was already that.
func (s *Store) RenameCategory(ctx context.Context, actor, space, old, name string) (bool, CategoryUses, error) {
	changed := false
	var moved CategoryUses
	err := s.adminTx(ctx, func(tx *sql.Tx) error {
		id, cats, err := s.spaceCategories(ctx, tx, space)
		if err != nil {
			return err
		}
		from := findCategory(cats, old)
		if from == "" {
			return ErrNoCategory
		}
		if other := findCategory(cats, name); other != "" && other != from {
			return ErrExists
		}
		if from == name {
			return nil
		}
		changed = true
		if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_categories SET name = ? WHERE space_id = ? AND name = ?"), name, id, from); err != nil {
			return fmt.Errorf("renaming a category: %w", err)
		}
		if moved, err = s.retag(ctx, tx, space, from, name); err != nil {
			return err
		}
		if err := s.staleSpace(ctx, tx, id); err != nil {
			return err
		}
		return s.audit(ctx, tx, actor, "category.rename", fmt.Sprintf("Categoria %q do espaço %q renomeada para %q (%s).", from, space, name, usesText(moved)))
	})
	return changed, moved, err
}

// MergeCategory folds category from into category into: everything naming from names into,
// budgets of the same month and currency are added up, and from leaves the list. ErrNotFound
// (space), ErrNoCategory (either), or ErrExists when both are the same category.
func (s *Store) MergeCategory(ctx context.Context, actor, space, from, into string) (CategoryUses, error) {
	var moved CategoryUses
	err := s.adminTx(ctx, func(tx *sql.Tx) error {
		id, cats, err := s.spaceCategories(ctx, tx, space)
		if err != nil {
			return err
		}
		src, dst := findCategory(cats, from), findCategory(cats, into)
		if src == "" || dst == "" {
			return ErrNoCategory
		}
		if src == dst {
			return ErrExists
		}
		if moved, err = s.retag(ctx, tx, space, src, dst); err != nil {
			return err
		}
		if err := s.removeCategory(ctx, tx, id, src); err != nil {
			return err
		}
		if err := s.staleSpace(ctx, tx, id); err != nil {
			return err
		}
		return s.audit(ctx, tx, actor, "category.merge", fmt.Sprintf("Categoria %q do espaço %q unida a %q (%s).", src, space, dst, usesText(moved)))
	})
	return moved, err
}

// RemoveCategory removes a category nothing names: ErrNotFound (space), ErrNoCategory, or
// *CategoryInUseError with nothing written.
func (s *Store) RemoveCategory(ctx context.Context, actor, space, name string) error {
	return s.adminTx(ctx, func(tx *sql.Tx) error {
		id, cats, err := s.spaceCategories(ctx, tx, space)
		if err != nil {
			return err
		}
		c := findCategory(cats, name)
		if c == "" {
			return ErrNoCategory
		}
		u, err := s.spaceUses(ctx, tx, id, space)
		if err != nil {
			return err
		}
		if n := u.byCategory[fold.Fold(c)]; n.Total() > 0 {
			return &CategoryInUseError{n}
		}
		if err := s.removeCategory(ctx, tx, id, c); err != nil {
			return err
		}
		if err := s.staleSpace(ctx, tx, id); err != nil {
			return err
		}
		return s.audit(ctx, tx, actor, "category.remove", fmt.Sprintf("Categoria %q removida do espaço %q.", c, space))
	})
}

// removeCategory deletes a category and closes the gap in the positions after it.
func (s *Store) removeCategory(ctx context.Context, tx *sql.Tx, spaceID int64, name string) error {
	cats, err := s.categories(ctx, tx, spaceID)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q("DELETE FROM cad_categories WHERE space_id = ?"), spaceID); err != nil {
		return fmt.Errorf("removing a category: %w", err)
	}
	pos := 0
	for _, c := range cats {
		if c == name {
			continue
		}
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_categories (space_id, pos, name) VALUES (?, ?, ?)"), spaceID, pos, c); err != nil {
			return fmt.Errorf("removing a category: %w", err)
		}
		pos++
	}
	return nil
}

func usesText(u CategoryUses) string {
	parts := []string{ptbr.Count(u.Edits, "edição", "edições"), ptbr.Count(u.Records, "registro manual", "registros manuais"),
		ptbr.Count(u.Budgets, "orçamento", "orçamentos")}
	if u.Rules > 0 {
		parts = append(parts, ptbr.Count(u.Rules, "regra", "regras"))
	}
	return "acompanharam: " + ptbr.List(parts)
}

// retag makes everything of space naming category from (accent and case-insensitive) name to:
// edits, manual records and their split parts, and budgets (adding up a budget of the same month
// and currency that to already has).
func (s *Store) retag(ctx context.Context, tx *sql.Tx, space, from, to string) (CategoryUses, error) {
	var moved CategoryUses
	f := fold.Fold(from)
	edits, err := s.retagRows(ctx, tx, "SELECT account_key, dedupe_key, category, splits FROM cad_edits WHERE space_key = ?",
		"UPDATE cad_edits SET category = ?, splits = ? WHERE account_key = ? AND dedupe_key = ?", space, f, to,
		func() []any { return []any{new(string), new(string)} })
	if err != nil {
		return moved, err
	}
	records, err := s.retagRows(ctx, tx, "SELECT id, category, splits FROM cad_records WHERE space_key = ?",
		"UPDATE cad_records SET category = ?, splits = ? WHERE id = ?", space, f, to,
		func() []any { return []any{new(int64)} })
	if err != nil {
		return moved, err
	}
	moved.Edits, moved.Records = edits, records
	if moved.Rules, err = s.retagRules(ctx, tx, space, f, to); err != nil {
		return moved, err
	}

	type budget struct {
		month, cat, currency string
		amount               int64
	}
	rows, err := tx.QueryContext(ctx, s.q("SELECT budget_month, category, currency, amount_minor FROM cad_budgets WHERE space_key = ?"), space)
	if err != nil {
		return moved, fmt.Errorf("reading budgets: %w", err)
	}
	var all []budget
	for rows.Next() {
		var b budget
		if err := rows.Scan(&b.month, &b.cat, &b.currency, &b.amount); err != nil {
			rows.Close()
			return moved, fmt.Errorf("reading budgets: %w", err)
		}
		all = append(all, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return moved, fmt.Errorf("reading budgets: %w", err)
	}
	target := map[[2]string]*budget{} // month, currency -> the budget already named to
	for i := range all {
		if all[i].cat == to {
			target[[2]string{all[i].month, all[i].currency}] = &all[i]
		}
	}
	now := s.now()
	for _, b := range all {
		if fold.Fold(b.cat) != f || b.cat == to {
			continue
		}
		moved.Budgets++
		if _, err := tx.ExecContext(ctx, s.q("DELETE FROM cad_budgets WHERE space_key = ? AND budget_month = ? AND category = ? AND currency = ?"),
			space, b.month, b.cat, b.currency); err != nil {
			return moved, fmt.Errorf("moving a budget: %w", err)
		}
		if t := target[[2]string{b.month, b.currency}]; t != nil {
			if (b.amount > 0 && t.amount > math.MaxInt64-b.amount) || (b.amount < 0 && t.amount < math.MinInt64-b.amount) {
				return moved, fmt.Errorf("adding up the budgets of %s %s: the sum does not fit", b.month, b.currency)
			}
			t.amount += b.amount
			if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_budgets SET amount_minor = ?, updated_at = ? WHERE space_key = ? AND budget_month = ? AND category = ? AND currency = ?"),
				t.amount, now, space, b.month, to, b.currency); err != nil {
				return moved, fmt.Errorf("adding up budgets: %w", err)
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO cad_budgets (space_key, budget_month, category, currency, amount_minor, updated_at)
			VALUES (?, ?, ?, ?, ?, ?)`), space, b.month, to, b.currency, b.amount, now); err != nil {
			return moved, fmt.Errorf("moving a budget: %w", err)
		}
		nb := b
		nb.cat = to
		target[[2]string{b.month, b.currency}] = &nb
	}
	return moved, nil
}

// retagRows renames category f (folded) to to in the category and splits of the rows sel
// lists (their key columns first, made by key), writing each changed row with upd (category,
// splits, then the key). It returns how many rows changed.
func (s *Store) retagRows(ctx context.Context, tx *sql.Tx, sel, upd, space, f, to string, key func() []any) (int, error) {
	rows, err := tx.QueryContext(ctx, s.q(sel), space)
	if err != nil {
		return 0, fmt.Errorf("reading what names a category: %w", err)
	}
	var change [][]any
	for rows.Next() {
		k := key()
		var cat, splits sql.NullString
		if err := rows.Scan(append(append([]any(nil), k...), &cat, &splits)...); err != nil {
			rows.Close()
			return 0, fmt.Errorf("reading what names a category: %w", err)
		}
		hit := false
		newCat, newSp := nullString(nullPtr(cat)), nullString(nullPtr(splits))
		if cat.Valid && fold.Fold(cat.String) == f {
			newCat, hit = to, true
		}
		var parts []storedSplit
		if splits.Valid && json.Unmarshal([]byte(splits.String), &parts) == nil {
			sh := false
			for i := range parts {
				if parts[i].Category != nil && fold.Fold(*parts[i].Category) == f {
					c := to
					parts[i].Category, sh = &c, true
				}
			}
			if sh {
				js, err := json.Marshal(parts)
				if err != nil {
					rows.Close()
					return 0, fmt.Errorf("encoding splits: %w", err)
				}
				newSp, hit = string(js), true
			}
		}
		if hit {
			args := []any{newCat, newSp}
			for _, p := range k {
				switch v := p.(type) {
				case *string:
					args = append(args, *v)
				case *int64:
					args = append(args, *v)
				}
			}
			change = append(change, args)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("reading what names a category: %w", err)
	}
	for _, args := range change {
		if _, err := tx.ExecContext(ctx, s.q(upd), args...); err != nil {
			return 0, fmt.Errorf("moving a category: %w", err)
		}
	}
	return len(change), nil
}

// retagRules makes the rules of space naming category f (folded) name to; it returns how many
// changed.
func (s *Store) retagRules(ctx context.Context, tx *sql.Tx, space, f, to string) (int, error) {
	rows, err := tx.QueryContext(ctx, s.q("SELECT id, category FROM cad_rules WHERE space_key = ?"), space)
	if err != nil {
		return 0, fmt.Errorf("reading the rules naming a category: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		var c string
		if err := rows.Scan(&id, &c); err != nil {
			rows.Close()
			return 0, fmt.Errorf("reading the rules naming a category: %w", err)
		}
		if fold.Fold(c) == f && c != to {
			ids = append(ids, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("reading the rules naming a category: %w", err)
	}
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_rules SET category = ?, updated_at = ? WHERE id = ?"), to, s.now(), id); err != nil {
			return 0, fmt.Errorf("renaming a rule's category: %w", err)
		}
	}
	return len(ids), nil
}
