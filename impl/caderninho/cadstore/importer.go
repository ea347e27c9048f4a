package cadstore

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lib/pq"

	"github.com/lumo-caderninho/mcp/impl/caderninho/ofx"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/printable"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Outcome is what importing one connection's new statements did. It is also the per-connection
// part of a caderninho_sync answer, hence the JSON names.
type Outcome struct {
	Connection      string     `json:"connection"`
	Space           string     `json:"space"`
	Status          string     `json:"status"` // pending, imported, unchanged, failed
	NewFiles        int        `json:"newFiles"`
	NewTransactions int        `json:"newTransactions"`
	Duplicates      int        `json:"duplicates"`
	NewAccounts     int        `json:"newAccounts"`
	RevisionBumped  bool       `json:"revisionBumped"`
	Error           *FileError `json:"error"`
	// Warnings are what was imported but deserves a look: transactions dated outside their
	// statement's DTSTART-DTEND, a CSV's balance column that does not add up, the end of a CSV
	// table before the end of its file (at most MaxWarnings, then one line counting the rest).
	Warnings []FileError `json:"warnings,omitempty"`
	// Ignored are the files of the connection's folder the import did not read, each with the
	// reason (another extension, a folder, an empty file, a CSV of no known format): at most
	// MaxIgnored, then one line counting the rest. Never a file left aside without a word.
	Ignored []FileError `json:"ignored,omitempty"`
	// Categorised counts the new transactions the space's rules categorised.
	Categorised int `json:"categorisedByRules,omitempty"`
}

// MaxWarnings bounds the warnings of one connection's outcome; a last one counts the rest.
const MaxWarnings = 20

// warnOutside adds a warning for each transaction of st dated outside its statement's period.
// Such a transaction is imported as the bank wrote it (card statements list an installment at
// its purchase day), while the coverage stays the statement's period.
func (o *Outcome) warnOutside(file string, st ofx.Statement, extra *int) {
	for i := range st.Transactions {
		o.warnOne(file, st, &st.Transactions[i], extra)
	}
}

// warnOne is warnOutside for one transaction of st.
func (o *Outcome) warnOne(file string, st ofx.Statement, t *ofx.Transaction, extra *int) {
	if !st.HasPeriod || t.Posted.Day >= st.Start && t.Posted.Day <= st.End {
		return
	}
	if len(o.Warnings) >= MaxWarnings {
		*extra++
		return
	}
	id := ""
	if t.FITID != "" {
		id = " (FITID " + t.FITID + ")"
	}
	line := t.Line
	o.Warnings = append(o.Warnings, FileError{File: &file, Line: &line, Message: fmt.Sprintf(
		"a transação de %s%s está fora do período do extrato (DTSTART %s a DTEND %s); foi importada como o banco a informou, "+
			"mas a cobertura da conta continua sendo o período do extrato: confira no banco se o extrato está completo",
		ptbr.Day(t.Posted.Day), id, ptbr.Day(st.Start), ptbr.Day(st.End))})
}

// warn adds a warning about line of file (a CSV's), up to MaxWarnings; past it, *extra counts.
func (o *Outcome) warn(file string, line int, message string, extra *int) {
	if len(o.Warnings) >= MaxWarnings {
		*extra++
		return
	}
	fe := FileError{File: &file, Message: message}
	if line > 0 {
		fe.Line = &line
	}
	o.Warnings = append(o.Warnings, fe)
}

// Outcome statuses.
const (
	StatusPending   = "pending"
	StatusImported  = "imported"
	StatusUnchanged = "unchanged"
	StatusFailed    = "failed"
)

// FileError is why a connection's import was refused: the file (relative to the connection's
// folder; nil when the folder itself is the problem), its line (nil when unknown) and the reason.
type FileError struct {
	File    *string `json:"file"`
	Line    *int    `json:"line"`
	Message string  `json:"message"`
}

// String is the error on one line, the file's name quoted when it holds a control character.
func (e *FileError) String() string {
	var b strings.Builder
	if e.File != nil {
		b.WriteString(printable.Name(*e.File))
		if e.Line != nil {
			b.WriteString(":" + strconv.Itoa(*e.Line))
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// Connection is a connection as stored.
type Connection struct {
	ID         int64
	Key        string
	SpaceID    int64
	SpaceKey   string
	SourcePath string
	// Institution is the bank as installation.yaml or the panel names it.
	Institution string
	// Format is the declared format of its CSV statements (a key of bankcsv.Formats), or "":
	// each CSV is read in the format its header is recognised as.
	Format string
}

// Connections lists the stored connections by key.
func (s *Store) Connections(ctx context.Context) ([]Connection, error) {
	rows, err := s.db.SQL().QueryContext(ctx, `SELECT c.id, c.connection_key, c.space_id, sp.space_key, c.source_path, c.csv_format, c.institution
		FROM cad_connections c JOIN cad_spaces sp ON sp.id = c.space_id ORDER BY c.connection_key`)
	if err != nil {
		return nil, fmt.Errorf("reading connections: %w", err)
	}
	defer rows.Close()
	var out []Connection
	for rows.Next() {
		var c Connection
		if err := rows.Scan(&c.ID, &c.Key, &c.SpaceID, &c.SpaceKey, &c.SourcePath, &c.Format, &c.Institution); err != nil {
			return nil, fmt.Errorf("reading connections: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// statementFile is a statement file of a connection whose content was not imported when the
// folder was listed (or that could not be read then). The import reads and parses it again, one
// file at a time, so memory does not grow with the files.
type statementFile struct {
	name string // relative to the connection's folder
	path string // where it is read
}

// maxFiles bounds the statement files a connection's folder may hold.
const maxFiles = 10000

// ImportConnection imports the statement files (OFX, QFX and bank CSV) of c's folder that were
// not imported yet, in one transaction: all of them or, when one is unreadable or malformed,
// none (the outcome names the file, line and reason). The folder's other files, empty files and
// CSV files of no known format are left aside, each named in the outcome with the reason. Transactions already imported are recognised by account and FITID (or
// by fingerprint when the bank repeats or omits FITIDs) and skipped. The connection's last
// attempt, last success and last error are recorded either way; the space's revision moves when
// readers would see something new. The error is for internal failures only.
func (s *Store) ImportConnection(ctx context.Context, c Connection) (Outcome, error) {
	return s.importConnection(ctx, c, nil)
}

// Auditor describes, for the audit log, an import that stored new files (in its transaction).
type Auditor struct {
	Actor    string
	Describe func(*Outcome) string
	// Only, when set, is the one file of the folder to import (an upload): the folder's other new
	// files wait for the connection's next import, so the outcome is this file's alone.
	Only string
}

// ImportConnectionAudited is ImportConnection writing, in the import's transaction, an audit
// row by a.Actor saying a.Describe when it stores new files.
func (s *Store) ImportConnectionAudited(ctx context.Context, c Connection, a Auditor) (Outcome, error) {
	return s.importConnection(ctx, c, &a)
}

func (s *Store) importConnection(ctx context.Context, c Connection, a *Auditor) (Outcome, error) {
	out := Outcome{Connection: c.Key, Space: c.SpaceKey}
	only := ""
	if a != nil {
		only = a.Only
	}
	extra := 0 // ignored files past MaxIgnored
	files, ferr := s.newFiles(ctx, c, only, &out, &extra)
	reconcile := false
	if ferr == nil && len(files) == 0 {
		var err error
		if reconcile, err = s.needsReconcile(ctx, c); err != nil {
			return out, err
		}
	}
	if ferr == nil && (len(files) > 0 || reconcile) {
		var err error
		ferr, err = s.importFiles(ctx, c, files, &out, a, &extra)
		if err != nil {
			out = Outcome{Connection: c.Key, Space: c.SpaceKey, Status: StatusFailed, Ignored: out.Ignored,
				Error: &FileError{Message: "erro interno ao gravar a importação; nada desta conexão mudou. Tente de novo."}}
			out.closeIgnored(extra)
			s.recordAttempt(ctx, c, out.Error)
			return out, err
		}
	}
	out.closeIgnored(extra)
	if ferr != nil {
		out = Outcome{Connection: c.Key, Space: c.SpaceKey, Status: StatusFailed, Error: ferr, Ignored: out.Ignored}
		if err := s.recordAttempt(ctx, c, ferr); err != nil {
			return out, err
		}
		return out, nil
	}
	if len(files) == 0 && !reconcile {
		out.Status = StatusUnchanged
		return out, s.recordAttempt(ctx, c, nil)
	}
	return out, nil
}

// recordAttempt notes an attempt that changed no data: a failure (fe) or nothing new.
func (s *Store) recordAttempt(ctx context.Context, c Connection, fe *FileError) error {
	now := s.now()
	var err error
	if fe != nil {
		_, err = s.db.SQL().ExecContext(ctx, s.q("UPDATE cad_connections SET last_attempt_at = ?, last_error = ? WHERE id = ?"), now, fe.String(), c.ID)
	} else {
		_, err = s.db.SQL().ExecContext(ctx, s.q("UPDATE cad_connections SET last_attempt_at = ?, last_success_at = ?, last_error = NULL WHERE id = ?"), now, now, c.ID)
	}
	if err != nil {
		return fmt.Errorf("recording the attempt of %s: %w", c.Key, err)
	}
	return nil
}

// within reports whether path is dir or under it (both cleaned, absolute).
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// installationRoot is the installation's folder with its symbolic links resolved ("" when the
// installation was registered before it was recorded).
func (s *Store) installationRoot(ctx context.Context) (string, error) {
	var root sql.NullString
	if err := s.db.SQL().QueryRowContext(ctx, "SELECT root_path FROM cad_installation WHERE id = 1").Scan(&root); err != nil {
		return "", fmt.Errorf("reading the installation folder: %w", err)
	}
	if !root.Valid || root.String == "" {
		return "", nil
	}
	resolved, err := filepath.EvalSymlinks(root.String)
	if err != nil {
		return "", fmt.Errorf("resolving the installation folder: %w", err)
	}
	return resolved, nil
}

// newFiles lists the statement files of c's folder whose content was not imported yet, and adds
// the folder's other files to out.Ignored (not when only names the one file to import). The
// folder and every file are read where their symbolic links lead, which must be inside the
// installation's folder (inside the connection's folder, for an installation registered before
// its folder was recorded): a statement outside it refuses the connection.
func (s *Store) newFiles(ctx context.Context, c Connection, only string, out *Outcome, extra *int) ([]statementFile, *FileError) {
	root, err := s.installationRoot(ctx)
	if err != nil {
		return nil, &FileError{Message: "erro interno ao ler a pasta da instalação; tente de novo"}
	}
	dir, err := filepath.EvalSymlinks(c.SourcePath)
	if err != nil {
		msg := "a pasta de extratos " + printable.Name(c.SourcePath) + " não pôde ser lida: " + printable.Name(err.Error())
		if errors.Is(err, fs.ErrNotExist) {
			msg = "a pasta de extratos " + printable.Name(c.SourcePath) + " não existe; crie-a ou corrija source no installation.yaml"
		}
		return nil, &FileError{Message: msg}
	}
	if root != "" && !within(root, dir) {
		return nil, &FileError{Message: "a pasta de extratos " + printable.Name(c.SourcePath) + " é um link simbólico (ou passa por um) para " + printable.Name(dir) +
			", fora da pasta da instalação (" + printable.Name(root) + "); o caderninho só lê extratos dentro dela. " +
			"Mova os extratos para uma pasta dentro da instalação e aponte source do installation.yaml para ela."}
	}
	bound := root
	if bound == "" {
		bound = dir
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, &FileError{Message: "a pasta de extratos " + printable.Name(c.SourcePath) + " não pôde ser lida: " + printable.Name(err.Error())}
	}
	var names []string
	paths := map[string]string{} // name -> where it is read
	for _, e := range entries {
		if only != "" && e.Name() != only || uploadTemp(e.Name()) {
			continue
		}
		l, fe := classify(dir, bound, e)
		if fe != nil {
			return nil, fe
		}
		if l.ignore != "" {
			out.ignore(e.Name(), l.ignore, extra)
			continue
		}
		names = append(names, e.Name())
		paths[e.Name()] = l.path
	}
	if len(names) > maxFiles {
		return nil, &FileError{Message: fmt.Sprintf("a pasta de extratos tem %d arquivos de extrato; o limite é %d", len(names), maxFiles)}
	}
	sort.Strings(names)
	known, err := s.knownFiles(ctx, s.db.SQL(), c.ID)
	if err != nil {
		return nil, &FileError{Message: "erro interno ao ler os arquivos já importados; tente de novo"}
	}
	var files []statementFile
	seen := map[string]bool{}
	for _, name := range names {
		sha, err := fileSHA(paths[name])
		if err == nil && (known[sha] || seen[sha]) {
			continue // the same content twice in the folder is read once
		}
		seen[sha] = true
		// An unreadable file stays: the import reports it in its place among the others.
		files = append(files, statementFile{name: name, path: paths[name]})
	}
	return files, nil
}

// fileSHA is the hex SHA-256 of a file's content, read in pieces.
func fileSHA(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// prints are a statement's transactions as dedupe sees them: each one's fingerprint and FITID
// (pointing into the file's text), in order.
type prints struct {
	fps    []fp
	fitids []string
}

func (s *Store) knownFiles(ctx context.Context, q queryer, connID int64) (map[string]bool, error) {
	rows, err := q.QueryContext(ctx, s.q("SELECT sha256 FROM cad_files WHERE connection_id = ?"), connID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	known := map[string]bool{}
	for rows.Next() {
		var sha string
		if err := rows.Scan(&sha); err != nil {
			return nil, err
		}
		known[sha] = true
	}
	return known, rows.Err()
}

// fp is a fingerprint as dedupe keeps it in memory: the SHA-256 itself, half its hex.
type fp [sha256.Size]byte

func (f fp) String() string { return hex.EncodeToString(f[:]) }

// account is an account being imported into: what is already stored, for deduplication and to
// tell whether readers will see a change.
type account struct {
	id       int64
	number   string
	kind     string
	currency string
	isNew    bool
	// newFrom is the first id of the transactions this import stored for it (0: none yet); the
	// ids reserved later in the import are higher.
	newFrom int64
	// Dedupe reads a stored FITID key ("f:...") or fingerprint count only for the transactions
	// of the statement being imported, not for every row of the account (a million): fKeys are
	// the statement's FITID keys stored before it, read from the database; stmtKeys the FITID
	// keys it stored itself, of the FITIDs it repeats. A fingerprint's rows (fpCount) and keys
	// ("p:...", keys) are needed only for the fingerprints that may be told apart by fingerprint
	// (no FITID, a FITID naming several, or one stored with another fingerprint): candidates,
	// read from the database for each statement that has some.
	fKeys      map[string]fp
	stmtKeys   map[string]fp
	repeated   map[string]bool
	candidates map[fp]bool
	keys       map[string]fp // "p:" keys of the candidates
	fpCount    map[fp]int    // candidate fingerprint -> rows
	rows       int           // stored, before the statement
	fpNoFitid  map[fp]int    // fingerprint -> rows stored without FITID
	claimed    map[fp]int    // of fpNoFitid, matched by a FITID in this import
	stmtNoFit  map[fp]int    // stored without FITID from the statement being imported
	periods    [][2]string   // statement periods before this import
	added      [][2]string
	balDay     *string
	balMinor   *int64
	balChange  bool
	// sources are the formats ("ofx", "csv") of the files its transactions came from (see
	// crossFormat); renamed says it took the number of an OFX statement (see identify).
	sources map[string]bool
	renamed bool
}

func (s *Store) importFiles(ctx context.Context, c Connection, files []statementFile, out *Outcome, a *Auditor, ignored *int) (*FileError, error) {
	tx, err := s.db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("starting import of %s: %w", c.Key, err)
	}
	defer tx.Rollback()
	now := s.now()
	// Lock order, as Register's: the space, then the connection. A concurrent import of the
	// connection (another replica) waits here.
	if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_spaces SET revision = revision WHERE id = ?"), c.SpaceID); err != nil {
		return nil, fmt.Errorf("locking space %s: %w", c.SpaceKey, err)
	}
	if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_connections SET last_attempt_at = ? WHERE id = ?"), now, c.ID); err != nil {
		return nil, fmt.Errorf("locking connection %s: %w", c.Key, err)
	}
	var spaceID int64
	if err := tx.QueryRowContext(ctx, s.q("SELECT space_id FROM cad_connections WHERE id = ?"), c.ID).Scan(&spaceID); err != nil {
		return nil, fmt.Errorf("reading connection %s: %w", c.Key, err)
	}
	// Errors are reported as when every file was parsed before anything was stored: the first
	// unreadable or malformed file, else the connection's move, else an account's conflict. The
	// first of the last two waits while the remaining files are still parsed (nothing more is
	// stored: the transaction is rolled back).
	var pending *FileError
	if spaceID != c.SpaceID {
		// Moved to another space by a registration since it was listed: retry later.
		pending = &FileError{Message: "a conexão mudou de espaço durante a importação; peça a importação de novo"}
	}
	known, err := s.knownFiles(ctx, tx, c.ID)
	if err != nil {
		return nil, fmt.Errorf("reading imported files of %s: %w", c.Key, err)
	}
	accounts := map[string]*account{}
	extra, other := 0, 0 // period warnings and others past MaxWarnings
	notes := 0           // and what the import says of banks and accounts (see identify, reconcile)
	reconciled := false
	if pending == nil {
		if reconciled, err = s.reconcile(ctx, tx, c, out, &notes); err != nil {
			return nil, err
		}
	}
	var rules *importRules // the space's rules, categorising the new transactions as they are inserted
	if pending == nil {
		if rules, err = s.newImportRules(ctx, tx, c); err != nil {
			return nil, err
		}
		if rules != nil {
			defer rules.w.close()
		}
	}
	var bank *connBank // the connection's bank, read at its first file
	for _, sf := range files {
		sha, f, ps, ignore, fe := readStatement(sf, c.Format)
		if fe != nil {
			return fe, nil
		}
		if ignore != "" {
			out.ignore(sf.name, ignore, ignored)
			continue
		}
		if known[sha] {
			continue // imported meanwhile by someone else, or twice in the folder
		}
		if bank == nil {
			if bank, err = s.connectionBank(ctx, tx, c); err != nil {
				return nil, err
			}
		}
		fe, warning, fb := bank.check(c, sf.name, f)
		if fe != nil {
			return fe, nil
		} else if warning != "" && pending == nil {
			out.warn(sf.name, 0, warning, &notes)
		}
		if pending != nil {
			continue
		}
		if cf, ok := f.(csvFile); ok {
			for _, w := range cf.Warnings {
				out.warn(sf.name, w.Line, w.Message, &other)
			}
			if cf.PeriodFromDates && cf.Statement.Kind == ofx.CreditCard {
				out.warn(sf.name, 0, periodNote(cf.File), &other)
			}
		}
		known[sha] = true
		fileID, err := s.reserveIDs(ctx, tx, "file", 1)
		if err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO cad_files (id, connection_id, path, sha256, imported_at) VALUES (?, ?, ?, ?, ?)"),
			fileID, c.ID, sf.name, sha, now); err != nil {
			return nil, fmt.Errorf("recording file %s: %w", sf.name, err)
		}
		out.NewFiles++
		for i, st := range f.statements() {
			if st.BankID == "" && fb != nil {
				st.BankID = fb.CodeText() // a card's OFX names its bank in its sign-on only
			}
			a, note, fe, err := s.account(ctx, tx, c, accounts, st, sf.name, f, i, warning != "")
			if err != nil {
				return nil, err
			}
			if fe != nil {
				pending = fe
				break
			}
			if note != "" {
				out.warn(sf.name, 0, note, &notes)
			}
			err = s.importStatement(ctx, tx, a, fileID, f, i, ps[i], sf.name, out, &extra, rules)
			ps[i] = prints{}
			if err != nil {
				return nil, err
			}
		}
	}
	if pending != nil {
		return pending, nil
	}
	if notes > 0 {
		out.Warnings = append(out.Warnings, FileError{Message: fmt.Sprintf("e mais %s sobre bancos e contas", ptbr.Count(notes, "aviso", "avisos"))})
	}
	if extra > 0 {
		out.Warnings = append(out.Warnings, FileError{Message: fmt.Sprintf("e mais %s fora do período do extrato",
			ptbr.Count(extra, "transação", "transações"))})
	}
	if other > 0 {
		out.Warnings = append(out.Warnings, FileError{Message: fmt.Sprintf("e mais %s dos arquivos CSV", ptbr.Count(other, "aviso", "avisos"))})
	}
	// The space's rules categorise the new transactions, in the import's transaction.
	var newFrom int64
	for _, a := range accounts {
		if a.newFrom > 0 && (newFrom == 0 || a.newFrom < newFrom) {
			newFrom = a.newFrom
		}
	}
	if newFrom > 0 && rules != nil {
		out.Categorised = int(rules.w.written)
		if rules.fallback {
			n, err := s.applyRules(ctx, tx, c.SpaceKey, c.ID, newFrom)
			if err != nil {
				return nil, fmt.Errorf("applying the rules of %s: %w", c.SpaceKey, err)
			}
			out.Categorised += n
		}
	}
	changed := false
	for _, a := range accounts {
		if a.isNew {
			out.NewAccounts++
		}
		if a.balChange || a.isNew || a.renamed || !sameCoverage(a.periods, a.added) {
			changed = true
		}
	}
	changed = changed || reconciled || out.NewTransactions > 0
	if changed {
		if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_spaces SET revision = revision + 1 WHERE id = ?"), c.SpaceID); err != nil {
			return nil, fmt.Errorf("bumping the revision of %s: %w", c.SpaceKey, err)
		}
	}
	if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_connections SET last_attempt_at = ?, last_success_at = ?, last_error = NULL WHERE id = ?"), now, now, c.ID); err != nil {
		return nil, fmt.Errorf("recording success of %s: %w", c.Key, err)
	}
	if a != nil && out.NewFiles > 0 {
		if err := s.audit(ctx, tx, a.Actor, "statement.import", a.Describe(out)); err != nil {
			return nil, err
		}
	}
	if s.beforeCommit != nil {
		if err := s.beforeCommit(c.Key); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("committing import of %s: %w", c.Key, err)
	}
	out.RevisionBumped = changed
	out.Status = StatusUnchanged
	if changed {
		out.Status = StatusImported
	}
	return nil, nil
}

var kindWords = map[string]string{"bank": "uma conta bancária", "creditcard": "um cartão de crédito"}

// account finds or creates the account statement i of f (file) is for, loading what dedupe
// needs. A number the connection does not have may still be one of its accounts, named
// otherwise by another format (see identify; doubtful when the file may be of another bank than
// the connection's): note then says which, for the outcome.
func (s *Store) account(ctx context.Context, tx *sql.Tx, c Connection, cache map[string]*account, st ofx.Statement, file string,
	f parsedFile, i int, doubtful bool) (*account, string, *FileError, error) {
	kind := string(st.Kind)
	fe := func(format string, args ...any) *FileError {
		line := st.Line
		return &FileError{File: &file, Line: &line, Message: fmt.Sprintf(format, args...)}
	}
	if a, ok := cache[st.Account]; ok {
		if a.kind != kind || a.currency != st.Currency {
			return nil, "", fe("o número %s já é %s em %s nesta conexão; o extrato diz %s em %s", st.Account, kindWords[a.kind], a.currency, kindWords[kind], st.Currency), nil
		}
		return a, "", nil, nil
	}
	a := &account{number: st.Account, kind: kind, currency: st.Currency, keys: map[string]fp{}, fKeys: map[string]fp{}, stmtKeys: map[string]fp{}, fpCount: map[fp]int{},
		fpNoFitid: map[fp]int{}, claimed: map[fp]int{}, stmtNoFit: map[fp]int{}, sources: map[string]bool{}}
	read := func(number string) error {
		return tx.QueryRowContext(ctx, s.q("SELECT id, kind, currency, balance_day, balance_minor FROM cad_accounts WHERE connection_id = ? AND acct_number = ?"),
			c.ID, number).Scan(&a.id, &a.kind, &a.currency, &a.balDay, &a.balMinor)
	}
	err := read(st.Account)
	note := ""
	if errors.Is(err, sql.ErrNoRows) {
		id, ierr := s.identify(ctx, tx, c, st, sourceOf(file), f, i, doubtful)
		if ierr != nil {
			return nil, "", nil, ierr
		}
		if id.refusal != "" {
			return nil, "", fe("%s", id.refusal), nil
		}
		note = id.note
		if id.same != nil {
			if prev, ok := cache[id.same.number]; ok {
				a = prev
			} else if err = read(id.same.number); err != nil {
				return nil, "", nil, fmt.Errorf("reading account: %w", err)
			} else if err = s.loadDedupe(ctx, tx, a); err != nil {
				return nil, "", nil, err
			}
			a.number = id.same.number
			if id.rename {
				if err := s.renameAccount(ctx, tx, c, a, st); err != nil {
					return nil, "", nil, err
				}
				if !a.isNew {
					note += id.newID
				}
			}
			// Cached by its own number only: a statement of another number is identified again.
			delete(cache, id.same.number)
			cache[a.number] = a
			return a, note, nil, nil
		}
	}
	switch {
	case errors.Is(err, sql.ErrNoRows):
		a.isNew = true
		a.kind, a.currency = kind, st.Currency
		if a.id, err = s.reserveIDs(ctx, tx, "account", 1); err != nil {
			return nil, "", nil, err
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO cad_accounts (id, connection_id, acct_number, kind, acct_type, bank_id, branch_id, currency)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`), a.id, c.ID, st.Account, kind, st.Type, st.BankID, st.BranchID, st.Currency); err != nil {
			return nil, "", nil, fmt.Errorf("inserting account: %w", err)
		}
	case err != nil:
		return nil, "", nil, fmt.Errorf("reading account: %w", err)
	default:
		if a.kind != kind || a.currency != st.Currency {
			return nil, "", fe("o número %s já é %s em %s nesta conexão; o extrato diz %s em %s", st.Account, kindWords[a.kind], a.currency, kindWords[kind], st.Currency), nil
		}
		if err := s.loadDedupe(ctx, tx, a); err != nil {
			return nil, "", nil, err
		}
	}
	cache[st.Account] = a
	return a, note, nil, nil
}

func (s *Store) loadDedupe(ctx context.Context, tx *sql.Tx, a *account) error {
	rows, err := tx.QueryContext(ctx, s.q("SELECT dedupe_key, fingerprint, fitid FROM cad_transactions WHERE account_id = ?"), a.id)
	if err != nil {
		return fmt.Errorf("reading imported transactions: %w", err)
	}
	for rows.Next() {
		var key, hexFP, fitid string
		if err := rows.Scan(&key, &hexFP, &fitid); err != nil {
			rows.Close()
			return fmt.Errorf("reading imported transactions: %w", err)
		}
		a.rows++
		if fitid == "" {
			a.fpNoFitid[parseFP(hexFP)]++
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading imported transactions: %w", err)
	}
	if a.sources, err = s.accountSources(ctx, tx, a.id); err != nil {
		return err
	}
	rows, err = tx.QueryContext(ctx, s.q("SELECT start_day, end_day FROM cad_statements WHERE account_id = ? AND start_day IS NOT NULL"), a.id)
	if err != nil {
		return fmt.Errorf("reading statement periods: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p [2]string
		if err := rows.Scan(&p[0], &p[1]); err != nil {
			return fmt.Errorf("reading statement periods: %w", err)
		}
		a.periods = append(a.periods, p)
	}
	return rows.Err()
}

// fingerprint identifies a transaction without its FITID: day, amount, currency, memo and name.
// It is stored in hex. The hashed text (fields joined by \x1f, memo and name folded) is built
// without fmt: this runs for every transaction before anything is stored.
func fingerprint(t *ofx.Transaction) fp {
	var buf [256]byte
	b := append(append(buf[:0], t.Posted.Day...), 0x1f)
	b = append(strconv.AppendInt(b, t.Amount, 10), 0x1f)
	b = append(append(b, t.Currency...), 0x1f)
	b = append(append(b, fold.Fold(t.Memo)...), 0x1f)
	return sha256.Sum256(append(b, fold.Fold(t.Name)...))
}

// parseFP reads a stored fingerprint. One that is not hex (never written so) still stands for
// itself: its hash, which no real fingerprint equals.
func parseFP(s string) fp {
	var f fp
	if n, err := hex.Decode(f[:], []byte(s)); err != nil || n != len(f) || len(s) != 2*len(f) {
		return sha256.Sum256([]byte("stored fingerprint " + s))
	}
	return f
}

// dedupe says which key a transaction is stored under (its FITID's when n is 0, else its
// fingerprint's nth, see keyOf), or dup when it is already stored. occ is its ordinal among the
// statement's transactions with the same fingerprint; fitidUnique says whether its FITID names
// only this fingerprint within the statement.
func (a *account) dedupe(fitid string, fp fp, occ int, fitidUnique bool) (n int, dup bool) {
	if fitid != "" && fitidUnique {
		prev, seen := a.stmtKeys["f:"+fitid]
		if !seen {
			prev, seen = a.fKeys["f:"+fitid]
		}
		switch {
		case seen && prev == fp:
			return 0, true
		case !seen && a.fpNoFitid[fp] > a.claimed[fp]:
			// The same transaction came earlier in a statement without FITIDs.
			a.claimed[fp]++
			return 0, true
		case !seen:
			if a.repeated[fitid] {
				// Only a FITID the statement repeats is looked up again before it is stored.
				a.stmtKeys["f:"+fitid] = fp
			}
			a.store(fp, false)
			return 0, false
		}
		// The bank gave this FITID to another transaction before: tell them apart by fingerprint.
	}
	if a.fpCount[fp] >= occ {
		return 0, true
	}
	for n = a.fpCount[fp] + 1; ; n++ {
		if _, taken := a.keys[keyOf("", fp, n)]; !taken {
			break
		}
	}
	a.keys[keyOf("", fp, n)] = fp
	a.store(fp, fitid == "")
	return n, false
}

// keyOf is the dedupe key of a transaction stored under its FITID (n 0) or as the nth of its
// fingerprint.
func keyOf(fitid string, fp fp, n int) string {
	if n == 0 {
		return "f:" + fitid
	}
	return "p:" + fp.String() + "#" + strconv.Itoa(n)
}

func (a *account) store(fp fp, noFitid bool) {
	if a.candidates[fp] {
		a.fpCount[fp]++ // no other fingerprint's count is read in this statement
	}
	if noFitid {
		// Claimable by a FITID of a later statement, not of this one.
		a.stmtNoFit[fp]++
	}
}

// importStatement stores statement i of f, whose prints are p: the transactions not stored yet,
// the statement and the balance. The statement is never held whole: dedupe decides on the
// prints, then the file is read once more to insert what is new.
func (s *Store) importStatement(ctx context.Context, tx *sql.Tx, a *account, fileID int64, f parsedFile, i int, p prints, file string, out *Outcome, extra *int,
	rules *importRules) error {
	st := f.statements()[i]
	count := f.count(i)
	fps, fitids := p.fps, p.fitids
	// Whether each FITID names one fingerprint only: the first transaction of each FITID, and
	// the FITIDs seen with another fingerprint (not a set per FITID: a million statements lines
	// would hold a million maps).
	firstFP := make(map[string]int32, count)
	shared, repeated := map[string]bool{}, map[string]bool{}
	for n, fitid := range fitids {
		if first, seen := firstFP[fitid]; !seen {
			firstFP[fitid] = int32(n)
		} else {
			repeated[fitid] = true
			if fps[first] != fps[n] {
				shared[fitid] = true
			}
		}
	}
	firstFP = nil
	if err := s.loadFITIDKeys(ctx, tx, a, fitids, shared); err != nil {
		return err
	}
	a.repeated = repeated
	if err := s.loadCandidates(ctx, tx, a, fps, fitids, shared); err != nil {
		return err
	}
	occ := occurrences(fps)
	keys := make([]int32, count) // keyOf's n, -1 for a duplicate
	added := 0
	for n, fp := range fps {
		k, dup := a.dedupe(fitids[n], fp, int(occ[n]), !shared[fitids[n]])
		if dup {
			keys[n] = -1
			out.Duplicates++
			continue
		}
		keys[n] = int32(k)
		added++
	}
	if src := sourceOf(file); a.otherSource(src) {
		dropped, err := s.crossFormat(ctx, tx, a, f, i, src, keys, fps, fitids)
		if err != nil {
			return err
		}
		added -= dropped
		out.Duplicates += dropped
	}
	a.sources[sourceOf(file)] = true
	occ, fitids = nil, nil
	clear(a.fKeys)
	clear(a.stmtKeys)
	clear(a.keys)
	clear(a.fpCount)
	a.repeated, a.candidates = nil, nil
	a.rows += added
	for fp, n := range a.stmtNoFit {
		a.fpNoFitid[fp] += n
	}
	clear(a.stmtNoFit)
	stID, err := s.reserveIDs(ctx, tx, "statement", 1)
	if err != nil {
		return err
	}
	var start, end, ledgerDay any
	var ledger any
	if st.HasPeriod {
		start, end = st.Start, st.End
		a.added = append(a.added, [2]string{st.Start, st.End})
	}
	if st.Ledger != nil {
		ledger, ledgerDay = st.Ledger.Amount, st.Ledger.AsOf.Day
		if a.balDay == nil || st.Ledger.AsOf.Day >= *a.balDay {
			if a.balMinor == nil || *a.balMinor != st.Ledger.Amount || a.balDay == nil || *a.balDay != st.Ledger.AsOf.Day {
				a.balChange = true
			}
			day, amt := st.Ledger.AsOf.Day, st.Ledger.Amount
			a.balDay, a.balMinor = &day, &amt
			var at any
			if st.Ledger.AsOf.HasTime {
				at = st.Ledger.AsOf.Instant.Format(time.RFC3339)
			}
			if _, err := tx.ExecContext(ctx, s.q("UPDATE cad_accounts SET balance_minor = ?, balance_day = ?, balance_at = ? WHERE id = ?"),
				amt, day, at, a.id); err != nil {
				return fmt.Errorf("updating balance: %w", err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO cad_statements (id, account_id, file_id, start_day, end_day, ledger_minor, ledger_day, transactions, added)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`), stID, a.id, fileID, start, end, ledger, ledgerDay, count, added); err != nil {
		return fmt.Errorf("inserting statement: %w", err)
	}
	id, err := s.reserveIDs(ctx, tx, "transaction", added)
	if err != nil {
		return err
	}
	if added > 0 && a.newFrom == 0 {
		a.newFrom = id
	}
	inline, err := rules.inline(ctx, s, tx, a.number)
	if err != nil {
		return err
	}
	var accountKey string
	var subject RuleSubject
	if inline {
		accountKey = AccountKey(rules.conn, a.number)
	}
	ins, err := s.newInserter(ctx, tx)
	if err != nil {
		return err
	}
	defer ins.close()
	n := 0
	stated := periodStated(f)
	err = f.transactions(i, func(t *ofx.Transaction) error {
		k, fp := keys[n], fps[n]
		n++
		if stated {
			out.warnOne(file, st, t, extra)
		}
		if k < 0 {
			return nil
		}
		key := keyOf(t.FITID, fp, int(k))
		var at any
		if t.Posted.HasTime {
			at = t.Posted.Instant.Format(time.RFC3339)
		}
		if err := ins.add(id, a.id, stID, key, t.FITID, fp.String(), t.Posted.Day, at, t.Amount,
			t.Currency, t.Type, t.Name, t.Memo, fold.Fold(t.Memo+" "+t.Name), t.CheckNum, t.RefNum); err != nil {
			return fmt.Errorf("inserting transactions: %w", err)
		}
		id++
		if inline {
			subject = RuleSubject{Fold: fold.Fold(BankDescription(t.Name, t.Memo)), AmountMinor: t.Amount, Currency: t.Currency}
			if err := rules.add(accountKey, key, &subject); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := ins.finish(); err != nil {
		return fmt.Errorf("inserting transactions: %w", err)
	}
	if inline {
		if err := rules.w.flush(); err != nil { // PostgreSQL's, held while the COPY ran
			return err
		}
	}
	out.NewTransactions += added
	return nil
}

// fitidBatch is how many FITID keys one query looks up.
const fitidBatch = 500

// loadFITIDKeys reads into a.fKeys the stored FITID keys among the statement's (those dedupe
// looks up: a FITID naming one fingerprint in the statement), in batches. A new account has none.
func (s *Store) loadFITIDKeys(ctx context.Context, tx *sql.Tx, a *account, fitids []string, shared map[string]bool) error {
	if a.rows == 0 {
		return nil
	}
	asked := map[string]bool{}
	batch := make([]any, 0, fitidBatch+1)
	flush := func() error {
		if len(batch) <= 1 {
			return nil
		}
		err := s.eachKey(ctx, tx, "SELECT dedupe_key, fingerprint FROM cad_transactions WHERE account_id = ? AND dedupe_key IN ("+inList(len(batch)-1)+")",
			batch, func(key string, fp fp) { a.fKeys[key] = fp })
		batch = batch[:1]
		return err
	}
	batch = append(batch, a.id)
	for _, f := range fitids {
		if f == "" || shared[f] || asked[f] {
			continue
		}
		asked[f] = true
		batch = append(batch, "f:"+f)
		if len(batch) > fitidBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// loadCandidates finds the statement's fingerprints that dedupe may tell apart by fingerprint
// (see account) and reads their stored rows and "p:" keys, in one pass over the account's rows.
func (s *Store) loadCandidates(ctx context.Context, tx *sql.Tx, a *account, fps []fp, fitids []string, shared map[string]bool) error {
	a.candidates = map[fp]bool{}
	for n, fp := range fps {
		f := fitids[n]
		if f == "" || shared[f] {
			a.candidates[fp] = true
		} else if prev, ok := a.fKeys["f:"+f]; ok && prev != fp {
			a.candidates[fp] = true
		}
	}
	if a.rows == 0 || len(a.candidates) == 0 {
		return nil
	}
	return s.eachKey(ctx, tx, "SELECT dedupe_key, fingerprint FROM cad_transactions WHERE account_id = ?", []any{a.id}, func(key string, fp fp) {
		if !a.candidates[fp] {
			return
		}
		a.fpCount[fp]++
		if !strings.HasPrefix(key, "f:") {
			a.keys[key] = fp
		}
	})
}

// eachKey runs query (selecting dedupe_key, fingerprint) and hands each stored row to fn.
func (s *Store) eachKey(ctx context.Context, tx *sql.Tx, query string, args []any, fn func(key string, fp fp)) error {
	rows, err := tx.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return fmt.Errorf("reading imported transactions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, hexFP string
		if err := rows.Scan(&key, &hexFP); err != nil {
			return fmt.Errorf("reading imported transactions: %w", err)
		}
		fn(key, parseFP(hexFP))
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading imported transactions: %w", err)
	}
	return nil
}

// occurrences returns, for each fingerprint of fps, how many of fps up to it (itself included)
// are the same: by sorting positions, not with a map of every fingerprint of the statement.
func occurrences(fps []fp) []int32 {
	order := make([]int32, len(fps))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := bytes.Compare(fps[a][:], fps[b][:]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	occ := make([]int32, len(fps))
	for i, p := range order {
		occ[p] = 1
		if i > 0 && fps[order[i-1]] == fps[p] {
			occ[p] = occ[order[i-1]] + 1
		}
	}
	return occ
}

var insertColumns = []string{"id", "account_id", "statement_id", "dedupe_key", "fitid", "fingerprint",
	"posted_day", "posted_at", "amount_minor", "currency", "trn_type", "name", "memo", "search_fold", "check_num", "ref_num"}

// inserter inserts a statement's new transactions as they are read. PostgreSQL gets them through
// one COPY, a stream the server writes while the file is still being read, instead of a statement
// per few hundred rows; SQLite runs in this process, without round trips, and gets them in
// prepared INSERTs of insertBatch rows, which spend less in per-statement work (database/sql,
// binding, VDBE setup) than one a row.
type inserter struct {
	ctx  context.Context
	tx   *sql.Tx
	st   *sql.Stmt
	copy bool
	// planMode is the transaction's plan_cache_mode, set back after the COPY.
	planMode string
	// rows are the values of the SQLite rows not yet inserted.
	rows []any
}

// insertBatch is how many rows one SQLite INSERT carries.
const insertBatch = 64

func (s *Store) newInserter(ctx context.Context, tx *sql.Tx) (*inserter, error) {
	in := &inserter{ctx: ctx, tx: tx, copy: s.db.Engine() == "postgres"}
	var q string
	if in.copy {
		// The COPY checks each row's foreign key (its statement and account, one key) at its
		// end, through a cached plan. Our connections say plan_cache_mode=force_custom_plan
		// (sqldb.Open, for lumo's prepared queries), which plans that check again for every
		// row: 14 s of a 500k-row import's 24 s here. A generic plan, made once, is the same
		// unique-index lookup.
		if err := tx.QueryRowContext(ctx, "SELECT current_setting('plan_cache_mode'), set_config('plan_cache_mode', 'force_generic_plan', true)").
			Scan(&in.planMode, new(string)); err != nil {
			return nil, fmt.Errorf("preparing transaction insert: %w", err)
		}
		q = pq.CopyIn("cad_transactions", insertColumns...)
	} else {
		q = insertTransactions(insertBatch)
		in.rows = make([]any, 0, insertBatch*len(insertColumns))
	}
	var err error
	if in.st, err = tx.PrepareContext(ctx, q); err != nil {
		return nil, fmt.Errorf("preparing transaction insert: %w", err)
	}
	return in, nil
}

// insertTransactions is the SQLite INSERT of n transactions.
func insertTransactions(n int) string {
	row := "(" + inList(len(insertColumns)) + ")"
	return "INSERT INTO cad_transactions (" + strings.Join(insertColumns, ", ") + ") VALUES " + strings.Repeat(row+", ", n-1) + row
}

func (in *inserter) add(row ...any) error {
	if in.copy {
		_, err := in.st.ExecContext(in.ctx, row...)
		return err
	}
	in.rows = append(in.rows, row...)
	if len(in.rows) < insertBatch*len(insertColumns) {
		return nil
	}
	_, err := in.st.ExecContext(in.ctx, in.rows...)
	in.rows = in.rows[:0]
	return err
}

// finish ends the COPY, or inserts the last SQLite rows: the rows are in when it returns.
func (in *inserter) finish() error {
	if !in.copy {
		if len(in.rows) == 0 {
			return nil
		}
		_, err := in.tx.ExecContext(in.ctx, insertTransactions(len(in.rows)/len(insertColumns)), in.rows...)
		in.rows = in.rows[:0]
		return err
	}
	if _, err := in.st.ExecContext(in.ctx); err != nil {
		return err
	}
	_, err := in.tx.ExecContext(in.ctx, "SELECT set_config('plan_cache_mode', $1, true)", in.planMode)
	return err
}

func (in *inserter) close() { in.st.Close() }

// sameCoverage reports whether adding periods to before leaves the covered days unchanged.
func sameCoverage(before, added [][2]string) bool {
	if len(added) == 0 {
		return true
	}
	a := Merge(before)
	b := Merge(append(append([][2]string(nil), before...), added...))
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ImportConnections imports the named connections (all when keys is empty), one after the other
// and each in its own transaction: a failing connection does not stop the others. Unknown keys
// are an error before anything runs.
func (s *Store) ImportConnections(ctx context.Context, keys []string) ([]Outcome, error) {
	conns, err := s.Connections(ctx)
	if err != nil {
		return nil, err
	}
	if len(keys) > 0 {
		byKey := map[string]Connection{}
		for _, c := range conns {
			byKey[c.Key] = c
		}
		conns = conns[:0:0]
		for _, k := range keys {
			c, ok := byKey[k]
			if !ok {
				return nil, fmt.Errorf("connection %q: %w", k, ErrNotFound)
			}
			conns = append(conns, c)
		}
	}
	var outs []Outcome
	var errs []error
	for _, c := range conns {
		o, err := s.ImportConnection(ctx, c)
		outs = append(outs, o)
		if err != nil {
			errs = append(errs, fmt.Errorf("importing %s: %w", c.Key, err))
		}
	}
	return outs, errors.Join(errs...)
}
