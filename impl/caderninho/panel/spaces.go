package panel

import (
	"net/http"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
)

type categoryRow struct {
	Name, Uses string
	InUse      bool
}

type spaceRow struct {
	Key, Name, Origin, Connections, Uses string
	InUse                                bool
	Categories                           []categoryRow
}

func (h *Handler) spaces(w http.ResponseWriter, r *http.Request) {
	h.showSpaces(w, r, http.StatusOK, &view{Notice: notices[r.URL.Query().Get("feito")]})
}

func (h *Handler) showSpaces(w http.ResponseWriter, r *http.Request, status int, v *view) {
	sps, err := h.Store.SpaceList(r.Context())
	if err != nil {
		h.failed(w, r, "reading spaces", err)
		return
	}
	for _, sp := range sps {
		row := spaceRow{Key: sp.Key, Name: sp.Name, Origin: admin.OriginText(sp.Origin), Connections: "nenhuma", InUse: sp.Use.InUse(),
			Uses: admin.UsesText(cadstore.CategoryUses{Edits: sp.Use.Edits, Records: sp.Use.Records, Budgets: sp.Use.Budgets, Rules: sp.Use.Rules})}
		if len(sp.Use.Connections) > 0 {
			row.Connections = strings.Join(sp.Use.Connections, ", ")
		}
		for _, c := range sp.Categories {
			row.Categories = append(row.Categories, categoryRow{Name: c.Name, Uses: admin.UsesText(c.Uses), InUse: c.Uses.Total() > 0})
		}
		v.Spaces = append(v.Spaces, row)
	}
	v.Title = "Espaços e categorias"
	h.render(w, r, status, "espacos", v)
}

// spaceStep runs one change of the spaces page: on success it goes back to the page with the
// notice code; a refusal shows the page with the message, keeping what was typed in form.
func (h *Handler) spaceStep(w http.ResponseWriter, r *http.Request, code string, form map[string]string, run func() (bool, error)) {
	changed, err := run()
	if err != nil {
		h.refusal(w, r, err, func(status int, msg string) { h.showSpaces(w, r, status, &view{Error: msg, Form: form}) })
		return
	}
	if !changed {
		code = "nada-mudou"
	}
	h.done(w, r, "espacos", code)
}

func (h *Handler) addSpace(w http.ResponseWriter, r *http.Request) {
	key, name := strings.TrimSpace(r.PostForm.Get("key")), r.PostForm.Get("name")
	h.spaceStep(w, r, "espaco-adicionado", map[string]string{"key": key, "name": name}, func() (bool, error) {
		return true, h.ops().AddSpace(r.Context(), key, name)
	})
}

func (h *Handler) renameSpace(w http.ResponseWriter, r *http.Request) {
	key, name := r.PostForm.Get("key"), r.PostForm.Get("name")
	h.spaceStep(w, r, "espaco-renomeado", map[string]string{"rename:" + key: name}, func() (bool, error) {
		return h.ops().RenameSpace(r.Context(), key, name)
	})
}

func (h *Handler) removeSpace(w http.ResponseWriter, r *http.Request) {
	h.spaceStep(w, r, "espaco-removido", nil, func() (bool, error) {
		return true, h.ops().RemoveSpace(r.Context(), r.PostForm.Get("key"))
	})
}

func (h *Handler) addCategory(w http.ResponseWriter, r *http.Request) {
	space, name := r.PostForm.Get("space"), r.PostForm.Get("name")
	h.spaceStep(w, r, "categoria-adicionada", map[string]string{"category:" + space: name}, func() (bool, error) {
		return true, h.ops().AddCategory(r.Context(), space, name)
	})
}

func (h *Handler) renameCategory(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	h.spaceStep(w, r, "categoria-renomeada", nil, func() (bool, error) {
		changed, _, err := h.ops().RenameCategory(r.Context(), f.Get("space"), f.Get("category"), f.Get("name"))
		return changed, err
	})
}

func (h *Handler) mergeCategory(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	h.spaceStep(w, r, "categoria-unida", nil, func() (bool, error) {
		_, err := h.ops().MergeCategory(r.Context(), f.Get("space"), f.Get("category"), f.Get("into"))
		return true, err
	})
}

func (h *Handler) removeCategory(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	h.spaceStep(w, r, "categoria-removida", nil, func() (bool, error) {
		return true, h.ops().RemoveCategory(r.Context(), f.Get("space"), f.Get("category"))
	})
}
