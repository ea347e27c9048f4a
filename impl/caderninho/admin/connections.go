package admin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/printable"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Bounds of a statement upload.
const (
	MaxStatementBytes = 5 << 20  // one file
	MaxUploadBytes    = 20 << 20 // every file of one upload together
	MaxUploadFiles    = 20
	maxFileName       = 120
)

// AddConnection makes a connection of holder's statements at institution, in space. Its
// statements live in extratos-painel/KEY under the installation's folder (made here).
func (o Ops) AddConnection(ctx context.Context, key, institution, holder, space string) error {
	if err := CheckKey("key", "Chave", key); err != nil {
		return err
	}
	institution, err := CheckName("institution", "Instituição", institution)
	if err != nil {
		return err
	}
	root, err := o.Store.InstallationFolder(ctx)
	if err != nil {
		return err
	}
	if root == "" {
		return &Refusal{Invalid, "", "Esta instalação não tem pasta registrada: importe primeiro um installation.yaml com caderninho import; os extratos das conexões do painel ficam numa pasta dentro da dela."}
	}
	dir := cadstore.PanelConnectionDir(root, key)
	_, statErr := os.Stat(dir)
	// A folder left with files (by an earlier database, or by hand) is not this connection's:
	// adopting it would import those statements into this holder's space at the next sync.
	if statErr == nil {
		if left, err := os.ReadDir(dir); err != nil || len(left) > 0 {
			return &Refusal{Conflict, "key", fmt.Sprintf("Chave: a pasta de extratos %s já existe com arquivos que não são de uma conexão nova; escolha outra chave ou esvazie a pasta.",
				filepath.Join(cadstore.PanelStatementsDir, key))}
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("making the statements folder of %s: %w", key, err)
	}
	err = o.Store.AddConnection(ctx, o.Actor, key, institution, holder, space, dir)
	if err != nil && statErr != nil {
		os.Remove(dir) // made here for a refused connection (and still empty)
	}
	return connectionRefusal(err, key, holder, space)
}

// EditConnection sets a connection's institution, holder and space; false when nothing changed.
func (o Ops) EditConnection(ctx context.Context, key, institution, holder, space string) (bool, error) {
	institution, err := CheckName("institution", "Instituição", institution)
	if err != nil {
		return false, err
	}
	changed, err := o.Store.EditConnection(ctx, o.Actor, key, institution, holder, space)
	return changed, connectionRefusal(err, key, holder, space)
}

func connectionRefusal(err error, key, holder, space string) error {
	var miss *cadstore.MissingError
	switch {
	case errors.Is(err, cadstore.ErrExists):
		return &Refusal{Conflict, "key", fmt.Sprintf("Chave: já existe uma conexão %q (ou a pasta de extratos dela); escolha outra chave.", key)}
	case errors.Is(err, cadstore.ErrNotFound):
		return connectionNotFound(key)
	case errors.As(err, &miss) && miss.Person != "":
		return &Refusal{Invalid, "holder", fmt.Sprintf("Titular: não existe a pessoa %q; cadastre-a em Pessoas ou escolha outra.", holder)}
	case errors.As(err, &miss):
		return &Refusal{Invalid, "space", fmt.Sprintf("Espaço: não existe o espaço %q; crie-o em Espaços ou escolha outro.", space)}
	}
	return err
}

func connectionNotFound(key string) error {
	return &Refusal{NotFound, "", fmt.Sprintf("Não existe a conexão %q; confira a chave na lista de conexões.", key)}
}

// Upload is one statement file sent to a connection.
type Upload struct {
	Name   string // as the browser or the command line named it
	Data   []byte
	TooBig bool // over MaxStatementBytes: Data holds only its start
}

// Statuses of a file of an upload.
const (
	FileNew     = "novo"
	FileKnown   = "já importado"
	FileRefused = "recusado"
)

// FileReport is what an upload did with one file.
type FileReport struct {
	Name            string // as sent
	Stored          string // its name in the connection's folder ("" when not stored)
	Status          string
	NewTransactions int
	Duplicates      int
	NewAccounts     int
	Line            *int   // of a refusal, when known
	Reason          string // why refused, or what it repeats
	Warnings        []string
}

// StatementName checks the name a statement was sent under and returns the name it is stored
// under: a plain file name ending in .ofx, .qfx or .csv, never a path.
func StatementName(name string) (string, string) {
	switch {
	case name == "":
		return "", "o arquivo veio sem nome; envie-o de novo escolhendo o arquivo no seu computador"
	case !utf8.ValidString(name):
		return "", "o nome do arquivo não é UTF-8 válido; renomeie o arquivo e envie de novo"
	case strings.ContainsAny(name, `/\`) || name == "." || name == "..":
		return "", "o nome do arquivo traz um caminho de pasta; envie só o arquivo, com um nome simples como extrato-marco.ofx"
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return "", "o nome do arquivo tem caracteres de controle; renomeie o arquivo e envie de novo"
	case strings.HasPrefix(name, "."):
		return "", "o nome do arquivo começa com ponto (arquivo oculto); renomeie-o, por exemplo para extrato.ofx"
	case utf8.RuneCountInString(name) > maxFileName:
		return "", fmt.Sprintf("o nome do arquivo tem %d caracteres; o limite é %d", utf8.RuneCountInString(name), maxFileName)
	}
	if !cadstore.IsStatementName(name) {
		return "", "não é um extrato OFX ou QFX nem um CSV de banco: o nome precisa terminar em .ofx, .qfx ou .csv " +
			"(exporte o extrato do banco num desses formatos)"
	}
	safe := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" ._()-", r) {
			return r
		}
		return '_'
	}, name)
	return safe, ""
}

// ImportStatements stores each file in the connection's statements folder and imports it with
// the importer, one at a time and each in its own transaction (with its audit row); a file that
// is refused is not left in the folder. The report says, per file, what was new, what was
// already imported and what was refused (line and reason).
func (o Ops) ImportStatements(ctx context.Context, key string, files []Upload) ([]FileReport, error) {
	c, err := o.Store.ConnectionByKey(ctx, key)
	if errors.Is(err, cadstore.ErrNotFound) {
		return nil, connectionNotFound(key)
	}
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, &Refusal{Invalid, "files", "Extratos: escolha ao menos um arquivo .ofx, .qfx ou .csv."}
	}
	if len(files) > MaxUploadFiles {
		return nil, &Refusal{Invalid, "files", fmt.Sprintf("Extratos: vieram %d arquivos; envie no máximo %d por vez.", len(files), MaxUploadFiles)}
	}
	out := make([]FileReport, 0, len(files))
	sent := map[string]string{} // sha -> name, within this upload
	for _, f := range files {
		rep, err := o.importOne(ctx, c, f, sent)
		if err != nil {
			return nil, err
		}
		out = append(out, rep)
	}
	return out, nil
}

func (o Ops) importOne(ctx context.Context, c cadstore.Connection, f Upload, sent map[string]string) (FileReport, error) {
	rep := FileReport{Name: f.Name, Status: FileRefused}
	stored, why := StatementName(f.Name)
	if why != "" {
		rep.Reason = why
		return rep, nil
	}
	if f.TooBig || len(f.Data) > MaxStatementBytes {
		rep.Reason = fmt.Sprintf("o arquivo passa de %d MB, o limite por arquivo; extratos costumam ter poucos KB — confira se é mesmo um extrato", MaxStatementBytes>>20)
		return rep, nil
	}
	// What the importer would refuse, or leave aside in a folder (empty, a CSV of no known
	// format), is refused before anything is written.
	if why, line := cadstore.CheckStatement(c, stored, f.Data); why != "" {
		rep.Reason, rep.Line = why, line
		return rep, nil
	}
	sum := sha256.Sum256(f.Data)
	sha := hex.EncodeToString(sum[:])
	if prev, ok := sent[sha]; ok {
		rep.Status, rep.Reason = FileKnown, fmt.Sprintf("tem o mesmo conteúdo de %s, enviado junto", printable.Name(prev))
		return rep, nil
	}
	sent[sha] = f.Name
	if prev, ok, err := o.Store.KnownStatement(ctx, c.ID, sha); err != nil {
		return rep, err
	} else if ok {
		rep.Status, rep.Reason = FileKnown, fmt.Sprintf("o mesmo conteúdo já foi importado nesta conexão (como %s); nada mudou", printable.Name(prev))
		return rep, nil
	}
	dir, err := o.Store.StatementsFolder(ctx, c)
	if err != nil {
		rep.Reason = err.Error()
		return rep, nil
	}
	path, err := store(dir, stored, f.Data)
	if err != nil {
		rep.Reason = "o arquivo não pôde ser gravado na pasta de extratos da conexão: " + err.Error()
		return rep, nil
	}
	rep.Stored = filepath.Base(path)
	res, err := o.Store.ImportConnectionAudited(ctx, c, cadstore.Auditor{Actor: o.Actor, Only: rep.Stored, Describe: func(out *cadstore.Outcome) string {
		return fmt.Sprintf("Extrato %q importado na conexão %q: %s, %s, %s.", rep.Stored, c.Key,
			ptbr.Count(out.NewTransactions, "transação nova", "transações novas"),
			ptbr.Count(out.Duplicates, "já importada", "já importadas"), ptbr.Count(out.NewAccounts, "conta nova", "contas novas"))
	}})
	if err != nil || res.Status == cadstore.StatusFailed {
		os.Remove(path) // nothing half-written: the folder is as it was
		rep.Stored = ""
		if err != nil {
			return rep, err
		}
		rep.Reason = res.Error.Message
		if res.Error.File != nil && *res.Error.File != filepath.Base(path) {
			rep.Reason = fmt.Sprintf("a importação da conexão parou no arquivo %s, que já estava na pasta: %s", printable.Name(*res.Error.File), res.Error.Message)
		} else if res.Error.Line != nil {
			rep.Line = res.Error.Line
		}
		return rep, nil
	}
	if res.NewFiles == 0 {
		rep.Status, rep.Reason = FileKnown, "o mesmo conteúdo foi importado agora mesmo por outra importação; nada mudou"
		return rep, nil
	}
	rep.Status = FileNew
	rep.NewTransactions, rep.Duplicates, rep.NewAccounts = res.NewTransactions, res.Duplicates, res.NewAccounts
	for _, w := range res.Warnings {
		rep.Warnings = append(rep.Warnings, w.String())
	}
	return rep, nil
}

// store writes data as name in dir without replacing a file there (name-2.ofx, name-3.ofx, ...
// when taken): written under a hidden temporary name the importer skips, then linked into place.
func store(dir, name string, data []byte) (string, error) {
	tmp, err := os.CreateTemp(dir, ".envio-*.tmp")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for n := 1; n <= 1000; n++ {
		cand := name
		if n > 1 {
			cand = fmt.Sprintf("%s-%d%s", stem, n, ext)
		}
		path := filepath.Join(dir, cand)
		if filepath.Dir(path) != filepath.Clean(dir) {
			return "", errors.New("nome de arquivo inválido")
		}
		err := os.Link(tmp.Name(), path)
		if err == nil {
			return path, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", err
		}
	}
	return "", errors.New("já há arquivos demais com esse nome na pasta")
}
