package store

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
)

// idAlloc hands out catalogue ids: the id a natural key had before the import, or a fresh one
// from lumo_ids (never reused), so that clients holding ids keep working after a re-import.
type idAlloc struct {
	old  map[string]int64 // kind + "\x00" + natural key -> id
	want map[string][]idWant
}

type idWant struct {
	key string
	dst *int64
}

func newIDAlloc() *idAlloc {
	return &idAlloc{old: map[string]int64{}, want: map[string][]idWant{}}
}

// remember records the id a natural key of kind had.
func (a *idAlloc) remember(kind, key string, id int64) { a.old[kind+"\x00"+key] = id }

// request asks for the id of a natural key, written to dst by assign.
func (a *idAlloc) request(kind, key string, dst *int64) {
	a.want[kind] = append(a.want[kind], idWant{key, dst})
}

// assign fills every requested id, reserving the fresh ones in lumo_ids.
func (a *idAlloc) assign(ctx context.Context, db *DB, tx *sql.Tx) error {
	kinds := make([]string, 0, len(a.want))
	for k := range a.want {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds) // a fixed order of row locks
	for _, kind := range kinds {
		var fresh []*int64
		for _, w := range a.want[kind] {
			if id, ok := a.old[kind+"\x00"+w.key]; ok {
				*w.dst = id
			} else {
				fresh = append(fresh, w.dst)
			}
		}
		if len(fresh) == 0 {
			continue
		}
		last, err := bumpID(ctx, db, tx, kind, len(fresh))
		if err != nil {
			return err
		}
		for i, dst := range fresh {
			*dst = last - int64(len(fresh)) + int64(i) + 1
		}
	}
	return nil
}

// bumpID reserves n ids of kind and returns the last one.
func bumpID(ctx context.Context, db *DB, tx *sql.Tx, kind string, n int) (int64, error) {
	if _, err := tx.ExecContext(ctx, db.q("UPDATE lumo_ids SET last_id = last_id + ? WHERE kind = ?"), n, kind); err != nil {
		return 0, fmt.Errorf("reserving %s ids: %w", kind, err)
	}
	var last int64
	if err := tx.QueryRowContext(ctx, db.q("SELECT last_id FROM lumo_ids WHERE kind = ?"), kind).Scan(&last); err != nil {
		return 0, fmt.Errorf("reserving %s ids: %w", kind, err)
	}
	return last, nil
}
