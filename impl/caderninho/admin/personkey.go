package admin

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// KeyFromName is the key a person gets from their name when none is given: lower case, accents
// removed, every run of other characters a single hyphen ("José da Silva" -> "jose-da-silva"),
// "pessoa" when nothing is left, short enough for a numeric suffix.
func KeyFromName(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range fold.Fold(name) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	key := b.String()
	if max := MaxKey - 4; len(key) > max { // room for -999
		key = strings.TrimRight(key[:max], "-")
	}
	if key == "" {
		key = "pessoa"
	}
	return key
}

// AddPersonNamed adds a person; without a key the key is derived from the name (KeyFromName),
// made unique with -2, -3... It returns the key used.
func (o Ops) AddPersonNamed(ctx context.Context, key, name string) (string, error) {
	if key != "" {
		return key, o.AddPerson(ctx, key, name)
	}
	if _, err := CheckName("name", "Nome", name); err != nil {
		return "", err
	}
	people, err := o.Store.People(ctx)
	if err != nil {
		return "", err
	}
	base := KeyFromName(name)
	for n := 1; n < 1000; n++ {
		key = base
		if n > 1 {
			key = base + "-" + strconv.Itoa(n)
		}
		if _, taken := people[key]; taken {
			continue
		}
		err := o.AddPerson(ctx, key, name)
		var ref *Refusal
		if errors.As(err, &ref) && ref.Kind == Conflict && ref.Field == "key" {
			continue // added meanwhile by another request
		}
		return key, err
	}
	return "", &Refusal{Conflict, "key", "Chave: não foi possível criar uma chave a partir do nome; informe uma chave em Avançado."}
}
