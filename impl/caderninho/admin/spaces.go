package admin

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// AddSpace makes a space, without categories.
func (o Ops) AddSpace(ctx context.Context, key, name string) error {
	if err := CheckKey("key", "Chave", key); err != nil {
		return err
	}
	name, err := CheckName("name", "Nome", name)
	if err != nil {
		return err
	}
	if err := o.Store.AddSpace(ctx, o.Actor, key, name); errors.Is(err, cadstore.ErrExists) {
		return &Refusal{Conflict, "key", fmt.Sprintf("Chave: já existe um espaço %q; escolha outra chave ou renomeie o existente.", key)}
	} else if err != nil {
		return err
	}
	return nil
}

// RenameSpace renames a space; false when the name was already that.
func (o Ops) RenameSpace(ctx context.Context, key, name string) (bool, error) {
	name, err := CheckName("name", "Nome", name)
	if err != nil {
		return false, err
	}
	changed, err := o.Store.RenameSpace(ctx, o.Actor, key, name)
	return changed, spaceRefusal(err, key, "")
}

// RemoveSpace removes a space nothing belongs to.
func (o Ops) RemoveSpace(ctx context.Context, key string) error {
	err := o.Store.RemoveSpace(ctx, o.Actor, key)
	var use *cadstore.SpaceInUseError
	if errors.As(err, &use) {
		var why []string
		if n := len(use.Connections); n > 0 {
			why = append(why, fmt.Sprintf("é o espaço de %s (%s)", ptbr.Plural(n, "uma conexão", "conexões"), strings.Join(use.Connections, ", ")))
		}
		if use.Edits > 0 {
			why = append(why, "tem "+ptbr.Count(use.Edits, "edição de transação", "edições de transações"))
		}
		if use.Records > 0 {
			why = append(why, "tem "+ptbr.Count(use.Records, "registro manual", "registros manuais"))
		}
		if use.Budgets > 0 {
			why = append(why, "tem "+ptbr.Count(use.Budgets, "orçamento", "orçamentos"))
		}
		if use.Rules > 0 {
			why = append(why, "tem "+ptbr.Count(use.Rules, "regra", "regras"))
		}
		return &Refusal{Conflict, "", fmt.Sprintf("O espaço %q não foi removido: %s. Mova ou remova primeiro o que é dele.", key, ptbr.List(why))}
	}
	return spaceRefusal(err, key, "")
}

func spaceRefusal(err error, space, category string) error {
	switch {
	case errors.Is(err, cadstore.ErrNotFound):
		return &Refusal{NotFound, "", fmt.Sprintf("Não existe o espaço %q; confira a chave na lista de espaços.", space)}
	case errors.Is(err, cadstore.ErrNoCategory):
		return &Refusal{NotFound, "", fmt.Sprintf("O espaço %q não tem a categoria %q; confira a lista de categorias dele.", space, category)}
	}
	return err
}

// AddCategory adds a category to a space.
func (o Ops) AddCategory(ctx context.Context, space, name string) error {
	name, err := CheckName("name", "Categoria", name)
	if err != nil {
		return err
	}
	err = o.Store.AddCategory(ctx, o.Actor, space, name)
	if errors.Is(err, cadstore.ErrExists) {
		return &Refusal{Conflict, "name", fmt.Sprintf("Categoria: o espaço %q já tem a categoria %q (acento e caixa não distinguem categorias).", space, name)}
	}
	return spaceRefusal(err, space, name)
}

// RenameCategory renames a space's category; what names it follows. false when nothing changed.
func (o Ops) RenameCategory(ctx context.Context, space, old, name string) (bool, cadstore.CategoryUses, error) {
	name, err := CheckName("name", "Novo nome", name)
	if err != nil {
		return false, cadstore.CategoryUses{}, err
	}
	changed, moved, err := o.Store.RenameCategory(ctx, o.Actor, space, old, name)
	if errors.Is(err, cadstore.ErrExists) {
		return false, moved, &Refusal{Conflict, "name", fmt.Sprintf("Novo nome: o espaço %q já tem a categoria %q; para juntar as duas, use Unir.", space, name)}
	}
	return changed, moved, spaceRefusal(err, space, old)
}

// MergeCategory folds category from into category into.
func (o Ops) MergeCategory(ctx context.Context, space, from, into string) (cadstore.CategoryUses, error) {
	if strings.TrimSpace(into) == "" {
		return cadstore.CategoryUses{}, &Refusal{Invalid, "into", "Unir a: escolha a categoria que fica."}
	}
	moved, err := o.Store.MergeCategory(ctx, o.Actor, space, from, into)
	switch {
	case errors.Is(err, cadstore.ErrExists):
		return moved, &Refusal{Invalid, "into", "Unir a: escolha uma categoria diferente da que sai."}
	case errors.Is(err, cadstore.ErrNoCategory):
		return moved, &Refusal{NotFound, "", fmt.Sprintf("O espaço %q não tem a categoria %q ou %q; confira a lista de categorias dele.", space, from, into)}
	}
	return moved, spaceRefusal(err, space, from)
}

// RemoveCategory removes a category nothing names.
func (o Ops) RemoveCategory(ctx context.Context, space, name string) error {
	err := o.Store.RemoveCategory(ctx, o.Actor, space, name)
	var use *cadstore.CategoryInUseError
	if errors.As(err, &use) {
		return &Refusal{Conflict, "", fmt.Sprintf("A categoria %q não foi removida: %s a usam. Para tirá-la da lista, una-a a outra categoria (o que a usa passa para a outra).",
			name, UsesText(use.CategoryUses))}
	}
	return spaceRefusal(err, space, name)
}

// UsesText says what names a category, in Portuguese.
func UsesText(u cadstore.CategoryUses) string {
	var parts []string
	if u.Edits > 0 {
		parts = append(parts, ptbr.Count(u.Edits, "edição", "edições"))
	}
	if u.Records > 0 {
		parts = append(parts, ptbr.Count(u.Records, "registro manual", "registros manuais"))
	}
	if u.Budgets > 0 {
		parts = append(parts, ptbr.Count(u.Budgets, "orçamento", "orçamentos"))
	}
	if u.Rules > 0 {
		parts = append(parts, ptbr.Count(u.Rules, "regra", "regras"))
	}
	if len(parts) == 0 {
		return "nada"
	}
	return ptbr.List(parts)
}
