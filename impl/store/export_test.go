package store

// StmtCacheLen is how many statements db keeps prepared (for tests).
func StmtCacheLen(db *DB) int {
	db.stmts.mu.Lock()
	defer db.stmts.mu.Unlock()
	return len(db.stmts.m)
}
