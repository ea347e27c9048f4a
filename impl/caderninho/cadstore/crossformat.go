package cadstore

import (
	"context"
	"database/sql"
)

// crossFormat finds, among the transactions of statement i of f that dedupe left as new (keys[n]
// >= 0), those the account already holds from a file of another source (src is the statement's):
// an OFX statement and a CSV export of one account write the same movement with other texts and
// ids (Nubank's card CSV has none), so dedupe, by FITID and fingerprint, cannot see them. They are
// marked duplicates (keys[n] = -1) and their number returned.
//
// Per day, amount and currency, a statement lists every movement of the account on that day, so
// after it the account holds as many as the larger of what it held and what the statement lists:
// of the statement's new ones, only those it lists beyond what is stored are kept, and only where
// the account holds some from the other source (the same source alone is dedupe's, untouched).
// Bank ids are not compared: Nubank's account CSV and OFX share theirs, but dedupe, seeing the
// texts differ, took each for one the bank gave twice; other banks' formats need not share them.
func (s *Store) crossFormat(ctx context.Context, tx *sql.Tx, a *account, f parsedFile, i int, src string, keys []int32, fps []fp, fitids []string) (int, error) {
	var fresh []int
	for n, k := range keys {
		if k >= 0 {
			fresh = append(fresh, n)
		}
	}
	if len(fresh) == 0 {
		return 0, nil
	}
	moves, err := statementMoves(f, i)
	if err != nil {
		return 0, err
	}
	from, to := "", ""
	for _, n := range fresh {
		if from == "" || moves[n].day < from {
			from = moves[n].day
		}
		to = max(to, moves[n].day)
	}
	var sources []string
	stored, err := s.accountMoves(ctx, tx, a.id, from, to, &sources)
	if err != nil {
		return 0, err
	}
	type tally struct{ stored, other, listed int }
	t := map[moveKey]*tally{}
	get := func(k moveKey) *tally {
		if t[k] == nil {
			t[k] = &tally{}
		}
		return t[k]
	}
	for j, m := range stored {
		c := get(m.key())
		c.stored++
		if sources[j] != src {
			c.other++
		}
	}
	for _, m := range moves {
		if c := t[m.key()]; c != nil {
			c.listed++
		}
	}
	kept := map[moveKey]int{}
	dropped := 0
	for _, n := range fresh {
		m := moves[n]
		c := t[m.key()]
		if c == nil || c.other == 0 {
			continue
		}
		// What the statement lists beyond what is stored is new; the rest is stored already.
		if kept[m.key()] < c.listed-c.stored {
			kept[m.key()]++
			continue
		}
		keys[n] = -1
		if fitids[n] == "" {
			a.stmtNoFit[fps[n]]-- // dedupe counted it as stored without FITID
		}
		dropped++
	}
	return dropped, nil
}
