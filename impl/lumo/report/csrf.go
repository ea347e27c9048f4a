package report

import (
	"net/http"
	"time"

	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
	"github.com/lumo-caderninho/mcp/impl/platform/webform"
)

// forms is the anti-CSRF double-submit cookie (__Host-lumo_csrf under https, lumo_csrf otherwise)
// and the same-origin check of the login and logout posts.
func (h *Handler) forms() webform.CSRF {
	return webform.CSRF{Name: "lumo_csrf", PublicURL: h.PublicURL}
}

// csrfToken is the anti-CSRF token of this browser: the one its cookie holds, or a new one
// that it sets.
func (h *Handler) csrfToken(w http.ResponseWriter, r *http.Request) string {
	return h.forms().Token(w, r)
}

// checkPost refuses, with 403 and a Portuguese page, a login or logout post from another site or
// without the anti-CSRF token of this browser's form.
func (h *Handler) checkPost(w http.ResponseWriter, r *http.Request) bool {
	if !h.forms().SameOrigin(r) {
		h.page(w, http.StatusForbidden, &errorPage{Title: "Envio recusado",
			Message: "Este formulário só pode ser enviado a partir das páginas do próprio Lumo. " +
				"Abra o link do relatório de novo e entre por lá."})
		return false
	}
	if !h.forms().Valid(r) {
		h.page(w, http.StatusForbidden, &errorPage{Title: "Formulário expirado",
			Message: "O formulário não traz a marca de segurança deste navegador (ele expirou, ou veio de outro site). " +
				"Abra a página de entrada de novo e envie o token por ela."})
		return false
	}
	return true
}

// purgeEvery is how often a process purges expired report sessions besides each login.
const purgeEvery = time.Minute

// purge deletes a bounded batch of expired report sessions; unless force, at most once per
// purgeEvery per process.
func (h *Handler) purge(r *http.Request, force bool) {
	now := h.now()
	last := h.purged.Load()
	if !force && now.Unix() < last+int64(purgeEvery/time.Second) {
		return
	}
	if !h.purged.CompareAndSwap(last, now.Unix()) && !force {
		return
	}
	if _, err := h.DB.PurgeReportSessions(r.Context(), now, storePurgeBatch); err != nil && h.Log != nil {
		h.Log.WarnContext(r.Context(), "purging expired report sessions", telemetry.ErrAttr(err))
	}
}
