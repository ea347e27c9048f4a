package cadstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/caderninho/bankcsv"
	"github.com/lumo-caderninho/mcp/impl/caderninho/ofx"
	"github.com/lumo-caderninho/mcp/impl/platform/printable"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Statement file extensions the importer reads; any other file of a connection's folder is
// named as ignored.
var statementExts = map[string]bool{".ofx": true, ".qfx": true, ".csv": true}

// IsStatementName reports whether a file name has an extension the importer reads.
func IsStatementName(name string) bool { return statementExts[strings.ToLower(filepath.Ext(name))] }

// uploadTemp is how the panel names a file it is still writing into a connection's folder
// (admin.store): neither a statement nor ignored.
func uploadTemp(name string) bool {
	return strings.HasPrefix(name, ".envio-") && strings.HasSuffix(name, ".tmp")
}

// MaxIgnored bounds the ignored files of one connection's outcome; a last one counts the rest.
const MaxIgnored = 20

// ignore adds a file the import leaves aside, with the reason, to the outcome.
func (o *Outcome) ignore(name, reason string, extra *int) {
	if len(o.Ignored) >= MaxIgnored {
		*extra++
		return
	}
	o.Ignored = append(o.Ignored, FileError{File: &name, Message: reason})
}

// closeIgnored counts, in a last line, the ignored files past MaxIgnored.
func (o *Outcome) closeIgnored(extra int) {
	if extra > 0 {
		o.Ignored = append(o.Ignored, FileError{Message: fmt.Sprintf("e mais %s ignorados", ptbr.Count(extra, "arquivo", "arquivos"))})
	}
}

// Reasons a file of a connection's folder is not read.
const (
	reasonExtension = "não é lido: o caderninho lê extratos .ofx, .qfx e .csv (exporte o extrato do banco num desses formatos, " +
		"ou tire o arquivo da pasta)"
	reasonFolder  = "é uma pasta: o caderninho lê só os arquivos da pasta da conexão, não as subpastas"
	reasonSpecial = "não é um arquivo comum (nem uma pasta); não é lido"
	reasonEmpty   = "o arquivo está vazio; exporte o extrato de novo (ou apague o arquivo)"
)

// parsedFile is a statement file read whole: its statements (an OFX file's without their
// transactions) and a reading of each one's transactions, in order.
type parsedFile interface {
	statements() []ofx.Statement
	count(i int) int
	transactions(i int, fn func(t *ofx.Transaction) error) error
}

type ofxFile struct{ *ofx.File }

func (f ofxFile) statements() []ofx.Statement { return f.Statements }
func (f ofxFile) count(i int) int             { return f.Count(i) }
func (f ofxFile) transactions(i int, fn func(*ofx.Transaction) error) error {
	return f.Transactions(i, fn)
}

// csvFile is a bank CSV export: one statement, held whole (exports are small).
type csvFile struct {
	*bankcsv.File
}

func (f csvFile) statements() []ofx.Statement { return []ofx.Statement{f.Statement} }
func (f csvFile) count(int) int               { return len(f.Statement.Transactions) }
func (f csvFile) transactions(_ int, fn func(*ofx.Transaction) error) error {
	for i := range f.Statement.Transactions {
		if err := fn(&f.Statement.Transactions[i]); err != nil {
			return err
		}
	}
	return nil
}

// parseStatement reads the content of a statement file named name, by its extension: OFX/QFX,
// or a bank CSV in format (a connection's declared format; "" recognises each file by its
// header). It returns the parsed file and its prints; or why the file is left aside (ignore:
// empty, a CSV of no known format, a CSV with a header and nothing else), which does not stop
// the import; or why it is refused (fe), which fails its connection.
func parseStatement(name string, b []byte, format string) (f parsedFile, ps []prints, ignore string, fe *FileError) {
	refuse := func(line int, reason string) *FileError {
		fe := &FileError{File: &name, Message: reason}
		if line > 0 {
			fe.Line = &line
		}
		return fe
	}
	if len(bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))) == 0 {
		return nil, nil, reasonEmpty, nil
	}
	if strings.EqualFold(filepath.Ext(name), ".csv") {
		cf, err := bankcsv.Parse(b, format)
		var unknown *bankcsv.UnknownError
		var ce *bankcsv.Error
		switch {
		case errors.As(err, &unknown):
			return nil, nil, unknown.Error(), nil
		case errors.As(err, &ce):
			return nil, nil, "", refuse(ce.Line, ce.Reason)
		case err != nil:
			return nil, nil, "", refuse(0, err.Error())
		}
		st := &cf.Statement
		if len(st.Transactions) == 0 && !st.HasPeriod && st.Ledger == nil {
			return nil, nil, fmt.Sprintf("o arquivo (%s, formato %s) só tem o cabeçalho: nenhuma transação para importar", cf.Format.Name, cf.Format.Key), nil
		}
		p := prints{fps: make([]fp, len(st.Transactions)), fitids: make([]string, len(st.Transactions))}
		for i := range st.Transactions {
			p.fps[i], p.fitids[i] = fingerprint(&st.Transactions[i]), st.Transactions[i].FITID
		}
		return csvFile{cf}, []prints{p}, "", nil
	}
	parsed, err := ofx.OpenVisiting(b, func(i int, t *ofx.Transaction) error {
		for len(ps) <= i {
			ps = append(ps, prints{})
		}
		ps[i].fps = append(ps[i].fps, fingerprint(t))
		ps[i].fitids = append(ps[i].fitids, t.FITID)
		return nil
	})
	if err != nil {
		var oe *ofx.Error
		if errors.As(err, &oe) {
			return nil, nil, "", refuse(oe.Line, oe.Reason)
		}
		return nil, nil, "", refuse(0, err.Error())
	}
	for len(ps) < len(parsed.Statements) {
		ps = append(ps, prints{}) // statements without transactions
	}
	return ofxFile{parsed}, ps, "", nil
}

// readStatement reads and parses a candidate file: its content's SHA-256, its statements and
// their prints (an OFX file's taken as the parser checks each transaction, not in a reading of
// their own), or why it is left aside, or why it is refused.
func readStatement(f statementFile, format string) (string, parsedFile, []prints, string, *FileError) {
	name := f.name
	b, err := readBounded(f.path, name)
	if err != nil {
		return "", nil, nil, "", &FileError{File: &name, Message: "o arquivo não pôde ser lido: " + printable.Name(err.Error())}
	}
	sum := sha256.Sum256(b)
	parsed, ps, ignore, fe := parseStatement(name, b, format)
	return hex.EncodeToString(sum[:]), parsed, ps, ignore, fe
}

// readBounded reads at most one byte more than its parser takes for a file named name (an OFX
// or a CSV): a larger file, read no further, is refused by the parser's own size check, so a
// huge file in a connection's folder never reaches memory whole.
func readBounded(path, name string) ([]byte, error) {
	limit := int64(ofx.MaxSize)
	if strings.EqualFold(filepath.Ext(name), ".csv") {
		limit = bankcsv.MaxSize
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return io.ReadAll(io.LimitReader(file, limit+1))
}

// CheckStatement is what an import of c would say of a file named name holding data, before it
// is stored (an upload): "" when it reads it, else why it refuses it or leaves it aside (a
// file it would leave aside in a folder is refused here: an upload is never kept unread), and
// the line when one is concerned.
func CheckStatement(c Connection, name string, data []byte) (reason string, line *int) {
	if !IsStatementName(name) {
		return reasonExtension, nil
	}
	_, _, ignore, fe := parseStatement(name, data, c.Format)
	if fe != nil {
		return fe.Message, fe.Line
	}
	return ignore, nil
}

// listed is one entry of a connection's folder: a candidate statement (path set) or a file
// left aside (ignore set).
type listed struct {
	path, ignore string
}

// classify says what the importer does with the folder entry e of dir: read it (where its
// symbolic link leads, which must stay inside bound) or leave it aside, saying why; fe refuses
// the connection.
func classify(dir, bound string, e fs.DirEntry) (listed, *FileError) {
	name := e.Name()
	p := filepath.Join(dir, name)
	isLink := e.Type()&fs.ModeSymlink != 0
	if !IsStatementName(name) {
		switch {
		case e.IsDir():
			return listed{ignore: reasonFolder}, nil
		case isLink:
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				return listed{ignore: reasonFolder}, nil
			}
		}
		return listed{ignore: reasonExtension}, nil
	}
	if isLink {
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			return listed{}, &FileError{File: &name, Message: "o arquivo é um link simbólico que não leva a um arquivo legível (" + printable.Name(err.Error()) +
				"); troque o link pelo próprio extrato"}
		}
		if !within(bound, target) {
			return listed{}, &FileError{File: &name, Message: "o arquivo é um link simbólico para " + printable.Name(target) + ", fora da pasta da instalação (" +
				printable.Name(bound) + "); o caderninho só lê extratos dentro dela. Copie o extrato para a pasta da conexão no lugar do link."}
		}
		st, err := os.Stat(target)
		if err != nil || !st.Mode().IsRegular() {
			if err == nil && st.IsDir() {
				return listed{ignore: reasonFolder}, nil
			}
			return listed{ignore: reasonSpecial}, nil
		}
		return listed{path: target}, nil
	}
	if e.IsDir() {
		return listed{ignore: reasonFolder}, nil
	}
	if !e.Type().IsRegular() {
		return listed{ignore: reasonSpecial}, nil
	}
	return listed{path: p}, nil
}
