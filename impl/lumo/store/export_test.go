package store

import "time"

// StmtCacheLen is how many statements db keeps prepared (for tests).
func StmtCacheLen(db *DB) int {
	db.stmts.mu.Lock()
	defer db.stmts.mu.Unlock()
	return len(db.stmts.m)
}

// GenerationWatch reports, on PostgreSQL, whether db's listener vouches for the remembered import
// counter and how many times the counter was read from the database; ok is false on SQLite.
func GenerationWatch(db *DB) (live bool, reads int64, ok bool) {
	if db.watch == nil {
		return false, 0, false
	}
	live, reads = db.watch.State()
	return live, reads, true
}

// TrustGeneration sets how long db trusts a remembered import counter.
func TrustGeneration(db *DB, d time.Duration) { db.watch.SetTrust(d) }

// MuteGenerationListener closes db's listener without telling the watch, which keeps trusting
// what it remembers: only this process's own changes can make it read the counter again.
func MuteGenerationListener(db *DB) { db.watch.MuteListener() }

// RegroupRollups turns the building of rollups from finer ones on or off, and reports what each
// rollup was built from (a rollup's name or the fact's) to built, for tests.
func RegroupRollups(on bool, built func(rollup, from string)) {
	regroupRollups, onRollupBuilt = on, built
}

// Preaggregate turns the grouping of rollups while their fact loads on or off, and reports each
// rollup so grouped to heard, for tests.
func Preaggregate(on bool, heard func(rollup string)) {
	preaggregate, onPreaggregated = on, heard
}

// PreGroupBudget sets how many groups an import may hold while facts load, for tests; the
// returned func restores it.
func PreGroupBudget(n int) (restore func()) {
	old := preGroupBudget
	preGroupBudget = n
	return func() { preGroupBudget = old }
}
