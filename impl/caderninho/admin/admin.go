// Package admin is the administration of a caderninho installation outside installation.yaml —
// people, assistants and the panel's owner credential — shared by the private panel and the
// `caderninho admin` command line: it checks the input, makes the secrets and turns the store's
// refusals into Portuguese messages that name the field to fix.
package admin

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Actors of the audit log.
const (
	ActorPanel = "proprietário (painel)"
	ActorCLI   = "linha de comando (caderninho admin)"
)

// Bounds of what the operations accept (the installation schema's).
const (
	MaxKey  = 63
	MaxName = 200
)

// Kind says why an operation was refused.
type Kind int

const (
	Invalid  Kind = iota // the input breaks a rule
	Conflict             // the key or name is taken, or the object is in use
	NotFound             // there is no such object
)

// Refusal is an operation refused with nothing written: Message is Portuguese and starts with
// the field's label when a field is at fault.
type Refusal struct {
	Kind    Kind
	Field   string // the form field at fault ("key", "name"), or ""
	Message string
}

func (r *Refusal) Error() string { return r.Message }

var keyPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// CheckKey checks a person key against the installation's rule; label names the field.
func CheckKey(field, label, key string) error {
	if key == "" {
		return &Refusal{Invalid, field, label + ": informe a chave."}
	}
	if n := utf8.RuneCountInString(key); n > MaxKey {
		return &Refusal{Invalid, field, fmt.Sprintf("%s: tem %d caracteres; o limite é %d.", label, n, MaxKey)}
	}
	if !keyPattern.MatchString(key) {
		return &Refusal{Invalid, field, fmt.Sprintf("%s: %q não serve; use letras minúsculas sem acento, algarismos, - e _, começando por letra ou algarismo (ex.: rafael).", label, key)}
	}
	return nil
}

// CheckName trims a name and checks it: 1 to MaxName characters, no control characters.
func CheckName(field, label, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", &Refusal{Invalid, field, label + ": informe o nome."}
	}
	if !utf8.ValidString(name) {
		return "", &Refusal{Invalid, field, label + ": o texto não é UTF-8 válido."}
	}
	if n := utf8.RuneCountInString(name); n > MaxName {
		return "", &Refusal{Invalid, field, fmt.Sprintf("%s: tem %s caracteres; o limite é %d.", label, ptbr.Int(int64(n)), MaxName)}
	}
	if strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return "", &Refusal{Invalid, field, label + ": tem caracteres de controle (quebras de linha, tabulações); escreva o nome numa linha só."}
	}
	return name, nil
}

// Ops are the administrative operations, recorded in the audit log as done by Actor.
type Ops struct {
	Store *cadstore.Store
	Actor string
}

// AddPerson adds a person.
func (o Ops) AddPerson(ctx context.Context, key, name string) error {
	if err := CheckKey("key", "Chave", key); err != nil {
		return err
	}
	name, err := CheckName("name", "Nome", name)
	if err != nil {
		return err
	}
	err = o.Store.AddPerson(ctx, o.Actor, key, name)
	if errors.Is(err, cadstore.ErrExists) {
		return &Refusal{Conflict, "key", fmt.Sprintf("Chave: já existe uma pessoa %q; escolha outra chave ou renomeie a existente.", key)}
	}
	return err
}

// RenamePerson renames a person; false when the name was already that.
func (o Ops) RenamePerson(ctx context.Context, key, name string) (bool, error) {
	name, err := CheckName("name", "Nome", name)
	if err != nil {
		return false, err
	}
	changed, err := o.Store.RenamePerson(ctx, o.Actor, key, name)
	if errors.Is(err, cadstore.ErrNotFound) {
		return false, personNotFound(key)
	}
	return changed, err
}

// RemovePerson removes a person that no connection holds and no manual record names.
func (o Ops) RemovePerson(ctx context.Context, key string) error {
	err := o.Store.RemovePerson(ctx, o.Actor, key)
	var use *cadstore.InUseError
	switch {
	case errors.Is(err, cadstore.ErrNotFound):
		return personNotFound(key)
	case errors.As(err, &use):
		var why []string
		if len(use.Connections) > 0 {
			why = append(why, fmt.Sprintf("é titular de %s (%s)", ptbr.Plural(len(use.Connections), "uma conexão", "conexões"),
				strings.Join(use.Connections, ", ")))
		}
		if use.Records > 0 {
			why = append(why, "é citada em "+ptbr.Count(use.Records, "registro manual", "registros manuais"))
		}
		return &Refusal{Conflict, "", fmt.Sprintf("A pessoa %q não foi removida: %s. Remova ou transfira primeiro o que a usa.",
			key, strings.Join(why, " e "))}
	}
	return err
}

func personNotFound(key string) error {
	return &Refusal{NotFound, "", fmt.Sprintf("Não existe a pessoa %q; confira a chave na lista de pessoas.", key)}
}

// TokenPrefix starts every assistant token the panel issues.
const TokenPrefix = "cad_"

// CredentialPrefix starts every owner credential.
const CredentialPrefix = "cadpainel_"

func secret(prefix string) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making a secret: %w", err)
	}
	return prefix + base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// IssueAssistant authorises a new assistant named name and returns its bearer token: the only
// time it is seen (the store keeps its SHA-256).
func (o Ops) IssueAssistant(ctx context.Context, name string) (string, int64, error) {
	name, err := CheckName("name", "Nome do assistente", name)
	if err != nil {
		return "", 0, err
	}
	tok, err := secret(TokenPrefix)
	if err != nil {
		return "", 0, err
	}
	id, err := o.Store.IssueAssistant(ctx, o.Actor, name, tok)
	if errors.Is(err, cadstore.ErrExists) {
		return "", 0, assistantExists(name)
	}
	if err != nil {
		return "", 0, err
	}
	return tok, id, nil
}

func assistantExists(name string) error {
	return &Refusal{Conflict, "name", fmt.Sprintf("Nome do assistente: já existe um assistente %q; dê outro nome.", name)}
}

// RelabelAssistant renames assistant id; its token keeps working.
func (o Ops) RelabelAssistant(ctx context.Context, id int64, name string) error {
	name, err := CheckName("name", "Nome do assistente", name)
	if err != nil {
		return err
	}
	err = o.Store.RelabelAssistant(ctx, o.Actor, id, name)
	switch {
	case errors.Is(err, cadstore.ErrExists):
		return assistantExists(name)
	case errors.Is(err, cadstore.ErrNotFound):
		return assistantNotFound()
	}
	return err
}

// RevokeAssistant revokes assistant id and returns its name.
func (o Ops) RevokeAssistant(ctx context.Context, id int64) (string, error) {
	name, err := o.Store.RevokeAssistant(ctx, o.Actor, id)
	if errors.Is(err, cadstore.ErrNotFound) {
		return "", assistantNotFound()
	}
	return name, err
}

func assistantNotFound() error {
	return &Refusal{NotFound, "", "Este assistente não existe mais (talvez já tenha sido revogado); confira a lista de assistentes."}
}

// AssistantID finds an assistant by its name, for the command line.
func (o Ops) AssistantID(ctx context.Context, name string) (int64, error) {
	as, err := o.Store.AssistantList(ctx)
	if err != nil {
		return 0, err
	}
	for _, a := range as {
		if a.Name == name {
			return a.ID, nil
		}
	}
	return 0, &Refusal{NotFound, "", fmt.Sprintf("Não existe o assistente %q; veja os nomes com: caderninho admin assistant list", name)}
}

// ResetCredential makes a new owner credential, ending every panel session, and returns it: the
// only time it is seen.
func (o Ops) ResetCredential(ctx context.Context) (string, error) {
	c, err := secret(CredentialPrefix)
	if err != nil {
		return "", err
	}
	if err := o.Store.SetOwnerCredential(ctx, o.Actor, c); err != nil {
		return "", err
	}
	return c, nil
}

// EnsureCredential makes the owner credential when the installation has none yet and returns it
// ("" when there already was one).
func (o Ops) EnsureCredential(ctx context.Context) (string, error) {
	c, err := secret(CredentialPrefix)
	if err != nil {
		return "", err
	}
	made, err := o.Store.CreateOwnerCredential(ctx, o.Actor, c)
	if err != nil || !made {
		return "", err
	}
	return c, nil
}
