package workspace

// CheckDSN says what is wrong with a PostgreSQL source's DSN, in Portuguese ("" when nothing),
// by the rules workspace.yaml's databases follow (a postgres:// URL with host and database, and
// no password), never repeating it: lumo init checks a --postgres DSN with it before writing it.
func CheckDSN(dsn string) string { return checkDSN(dsn) }
