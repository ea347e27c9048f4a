// Package panel serves caderninho's private panel under /painel/: server-rendered Portuguese
// pages, reached only by the installation's owner, over the administration operations of
// package admin (people, assistants, connections and their statements, spaces and categories), the
// categorisation rules of each space (through the rule tools of package caderninho),
// the coverage of every account and the audit log.
package panel

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/authguard"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
	"github.com/lumo-caderninho/mcp/impl/platform/webform"
)

// CookieName is the panel's session cookie.
const CookieName = "caderninho_painel"

// DefaultSessionTTL is how long a panel session lasts.
const DefaultSessionTTL = 12 * time.Hour

// AuditShown is how many audit entries the log page shows.
const AuditShown = 200

// maxForm bounds a form post's body.
const maxForm = 16 << 10

// Handler serves the panel.
type Handler struct {
	Store *cadstore.Store
	Log   *slog.Logger
	// PublicURL is the validated --public-url, or "": its path is the prefix a reverse proxy
	// strips (used in links and redirects); https makes the cookies Secure.
	PublicURL string
	// Guard, when set, throttles the clients whose logins fail: over its bound they get a 429
	// page with Retry-After before the credential is looked at.
	Guard *authguard.Guard
	// Refused, when not "", is why this server does not serve the panel: every panel page
	// answers 403 with it.
	Refused string
	// ReadOnly is caderninho serve --read-only: the pages are served, every change is refused
	// (signing in and out still work).
	ReadOnly   bool
	SessionTTL time.Duration    // 0 = DefaultSessionTTL
	Now        func() time.Time // nil = time.Now
}

// Register adds the panel's routes to mux.
func (h *Handler) Register(mux *http.ServeMux) {
	if h.Refused != "" {
		mux.HandleFunc("/painel/", func(w http.ResponseWriter, _ *http.Request) {
			h.page(w, http.StatusForbidden, &view{Title: "Painel indisponível", Error: h.Refused, Bare: true})
		})
		return
	}
	mux.HandleFunc("GET /painel/{$}", h.owner(h.home))
	mux.HandleFunc("GET /painel/entrar", h.loginForm)
	mux.Handle("POST /painel/entrar", h.Guard.Wrap(http.HandlerFunc(h.login), h.throttled))
	mux.HandleFunc("POST /painel/sair", h.post(h.logout))
	mux.HandleFunc("GET /painel/pessoas", h.owner(h.people))
	mux.HandleFunc("POST /painel/pessoas", h.writing(h.post(h.addPerson)))
	mux.HandleFunc("POST /painel/pessoas/renomear", h.writing(h.post(h.renamePerson)))
	mux.HandleFunc("POST /painel/pessoas/remover", h.writing(h.post(h.removePerson)))
	mux.HandleFunc("GET /painel/assistentes", h.owner(h.assistants))
	mux.HandleFunc("POST /painel/assistentes", h.writing(h.post(h.issueAssistant)))
	mux.HandleFunc("POST /painel/assistentes/rotulo", h.writing(h.post(h.relabelAssistant)))
	mux.HandleFunc("POST /painel/assistentes/revogar", h.writing(h.post(h.revokeAssistant)))
	mux.HandleFunc("GET /painel/conexoes", h.owner(h.connections))
	mux.HandleFunc("POST /painel/conexoes", h.writing(h.post(h.addConnection)))
	mux.HandleFunc("POST /painel/conexoes/editar", h.writing(h.post(h.editConnection)))
	mux.HandleFunc("POST /painel/conexoes/extratos", h.writing(h.uploadStatements))
	mux.HandleFunc("GET /painel/cobertura", h.owner(h.coverage))
	mux.HandleFunc("GET /painel/espacos", h.owner(h.spaces))
	mux.HandleFunc("POST /painel/espacos", h.writing(h.post(h.addSpace)))
	mux.HandleFunc("POST /painel/espacos/renomear", h.writing(h.post(h.renameSpace)))
	mux.HandleFunc("POST /painel/espacos/remover", h.writing(h.post(h.removeSpace)))
	mux.HandleFunc("POST /painel/espacos/categorias", h.writing(h.post(h.addCategory)))
	mux.HandleFunc("POST /painel/espacos/categorias/renomear", h.writing(h.post(h.renameCategory)))
	mux.HandleFunc("POST /painel/espacos/categorias/unir", h.writing(h.post(h.mergeCategory)))
	mux.HandleFunc("POST /painel/espacos/categorias/remover", h.writing(h.post(h.removeCategory)))
	mux.HandleFunc("GET /painel/regras", h.owner(h.rules))
	mux.HandleFunc("POST /painel/regras", h.writing(h.post(h.saveRule)))
	mux.HandleFunc("POST /painel/regras/mover", h.writing(h.post(h.moveRule)))
	mux.HandleFunc("POST /painel/regras/remover", h.writing(h.post(h.deleteRule)))
	mux.HandleFunc("GET /painel/registro", h.owner(h.auditLog))
	mux.HandleFunc("/painel/", func(w http.ResponseWriter, r *http.Request) {
		h.page(w, http.StatusNotFound, &view{Title: "Página não encontrada", Bare: true,
			Error: "Esta página não existe no painel. Volte ao início do painel."})
	})
}

// readOnlyNotice is what a read-only server's pages say, and its answer to a change.
const readOnlyNotice = "Este servidor está em modo somente leitura (caderninho serve --read-only): o painel mostra tudo, mas não muda nada. " +
	"Para mudar, use um servidor sem --read-only ou caderninho admin na linha de comando."

// writing refuses a change on a read-only server, before anything is read or written.
func (h *Handler) writing(next http.HandlerFunc) http.HandlerFunc {
	if !h.ReadOnly {
		return next
	}
	return func(w http.ResponseWriter, r *http.Request) {
		h.page(w, http.StatusForbidden, &view{Title: "Somente leitura", Bare: true, Error: readOnlyNotice})
	}
}

func (h *Handler) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}

func (h *Handler) ttl() time.Duration {
	if h.SessionTTL > 0 {
		return h.SessionTTL
	}
	return DefaultSessionTTL
}

func (h *Handler) base() string { return webform.BasePath(h.PublicURL) + "/painel" }

func (h *Handler) forms() webform.CSRF {
	return webform.CSRF{Name: "caderninho_painel_csrf", PublicURL: h.PublicURL}
}

func (h *Handler) ops() admin.Ops { return admin.Ops{Store: h.Store, Actor: admin.ActorPanel} }

// signedIn reports whether the request carries a live session of the owner.
func (h *Handler) signedIn(w http.ResponseWriter, r *http.Request) (bool, error) {
	c, err := r.Cookie(CookieName)
	if err != nil {
		return false, nil
	}
	err = h.Store.PanelSession(r.Context(), c.Value, h.now())
	if errors.Is(err, cadstore.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// owner serves a page only to the signed-in owner; others are sent to the login form.
func (h *Handler) owner(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ok, err := h.signedIn(w, r)
		if err != nil {
			h.failed(w, r, "reading the panel session", err)
			return
		}
		if !ok {
			http.Redirect(w, r, h.base()+"/entrar", http.StatusSeeOther)
			return
		}
		next(w, r)
	}
}

// post guards a form post: parsed and bounded, from this server's own pages, with the anti-CSRF
// token of this browser, and (but for the login) from the signed-in owner.
func (h *Handler) post(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !h.checkPost(w, r) {
			return
		}
		ok, err := h.signedIn(w, r)
		if err != nil {
			h.failed(w, r, "reading the panel session", err)
			return
		}
		if !ok {
			h.page(w, http.StatusUnauthorized, &view{Title: "Sessão encerrada", Bare: true,
				Error: "A sessão deste navegador terminou (expirou, saiu, ou a credencial do painel mudou). Entre de novo e repita a operação."})
			return
		}
		next(w, r)
	}
}

// checkPost parses a form post and refuses it with 403 unless it comes from the panel's own
// pages and carries this browser's anti-CSRF token.
func (h *Handler) checkPost(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		h.page(w, http.StatusBadRequest, &view{Title: "Formulário inválido", Bare: true,
			Error: "O formulário chegou incompleto ou grande demais. Volte, confira os campos e envie de novo."})
		return false
	}
	f := h.forms()
	if !f.SameOrigin(r) {
		h.page(w, http.StatusForbidden, &view{Title: "Envio recusado", Bare: true,
			Error: "Este formulário só pode ser enviado a partir das páginas do próprio painel. Abra o painel de novo e faça a operação por lá."})
		return false
	}
	if !f.Valid(r) {
		h.page(w, http.StatusForbidden, &view{Title: "Formulário expirado", Bare: true,
			Error: "O formulário não traz a marca de segurança deste navegador (ele expirou, ou veio de outro site). Abra a página de novo e repita."})
		return false
	}
	return true
}

func (h *Handler) loginForm(w http.ResponseWriter, r *http.Request) {
	v := &view{Title: "Entrar no painel", Bare: true, CSRF: h.forms().Token(w, r)}
	if ok, err := h.Store.HasOwnerCredential(r.Context()); err != nil {
		h.failed(w, r, "reading the panel credential", err)
		return
	} else if !ok {
		v.Notice = "Esta instalação ainda não tem credencial do painel. No servidor, rode: caderninho panel reset"
	}
	h.render(w, r, http.StatusOK, "entrar", v)
}

func (h *Handler) login(w http.ResponseWriter, r *http.Request) {
	if !h.checkPost(w, r) {
		return
	}
	v := &view{Title: "Entrar no painel", Bare: true, CSRF: h.forms().Token(w, r)}
	cred := strings.TrimSpace(r.PostForm.Get("credencial"))
	if cred == "" {
		v.Error = "Credencial: cole a credencial do painel (ela foi mostrada na instalação, ou por caderninho panel reset)."
		h.render(w, r, http.StatusBadRequest, "entrar", v)
		return
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		h.failed(w, r, "making a session id", err)
		return
	}
	sid := base64.RawURLEncoding.EncodeToString(b[:])
	err := h.Store.OpenPanelSession(r.Context(), admin.ActorPanel, sid, cred, h.now().Add(h.ttl()))
	if errors.Is(err, cadstore.ErrNotFound) {
		v.Error = "Credencial: não confere. Cole a credencial do painel inteira, sem espaços a mais; se a perdeu, rode caderninho panel reset no servidor."
		h.render(w, r, http.StatusUnauthorized, "entrar", v)
		return
	}
	if err != nil {
		h.failed(w, r, "opening a panel session", err)
		return
	}
	http.SetCookie(w, h.sessionCookie(sid, int(h.ttl().Seconds())))
	http.Redirect(w, r, h.base()+"/", http.StatusSeeOther)
}

func (h *Handler) sessionCookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: CookieName, Value: value, Path: h.base() + "/", MaxAge: maxAge,
		HttpOnly: true, Secure: h.forms().Secure(), SameSite: http.SameSiteStrictMode}
}

func (h *Handler) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(CookieName); err == nil {
		if err := h.Store.EndPanelSession(r.Context(), c.Value); err != nil {
			h.failed(w, r, "ending the panel session", err)
			return
		}
	}
	http.SetCookie(w, h.sessionCookie("", -1))
	http.Redirect(w, r, h.base()+"/entrar", http.StatusSeeOther)
}

// throttled answers a client that failed too many logins.
func (h *Handler) throttled(w http.ResponseWriter, _ *http.Request, retryAfter int) {
	w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
	h.page(w, http.StatusTooManyRequests, &view{Title: "Muitas tentativas", Bare: true,
		Error: "Muitas tentativas com credencial errada a partir deste endereço; tente de novo em " + strconv.Itoa(retryAfter) + " s."})
}

// done redirects to a page after a successful change, naming it for the page's notice.
func (h *Handler) done(w http.ResponseWriter, r *http.Request, page, code string) {
	http.Redirect(w, r, h.base()+"/"+page+"?feito="+code, http.StatusSeeOther)
}

// notices are the messages a page shows after a change (?feito=...).
var notices = map[string]string{
	"pessoa-adicionada":    "Pessoa adicionada.",
	"pessoa-renomeada":     "Pessoa renomeada.",
	"pessoa-igual":         "A pessoa já tinha esse nome; nada mudou.",
	"pessoa-removida":      "Pessoa removida.",
	"assistente-rotulo":    "Assistente renomeado; o token continua valendo.",
	"assistente-revogado":  "Token revogado: a próxima requisição com ele recebe 401, em qualquer réplica.",
	"conexao-adicionada":   "Conexão adicionada. Envie os extratos dela abaixo.",
	"conexao-alterada":     "Conexão alterada.",
	"conexao-igual":        "A conexão já estava assim; nada mudou.",
	"espaco-adicionado":    "Espaço adicionado.",
	"espaco-renomeado":     "Espaço renomeado.",
	"espaco-removido":      "Espaço removido.",
	"categoria-adicionada": "Categoria adicionada.",
	"categoria-renomeada":  "Categoria renomeada; as edições, registros, orçamentos e regras que a usavam acompanharam.",
	"categoria-unida":      "Categorias unidas; o que usava a que saiu passou para a que ficou (orçamentos do mesmo mês e moeda foram somados).",
	"categoria-removida":   "Categoria removida.",
	"nada-mudou":           "Já estava assim; nada mudou.",
	"regra-criada":         "Regra criada e aplicada aos movimentos do espaço.",
	"regra-alterada":       "Regra alterada e aplicada de novo aos movimentos do espaço.",
	"regra-movida":         "Regra movida; a ordem nova já vale para os movimentos do espaço.",
	"regra-removida":       "Regra apagada; os movimentos que ela categorizava passaram à regra seguinte que os pega, ou ficaram sem categoria.",
}

// refusal answers a refused change on its page (status by kind), keeping what was typed.
func (h *Handler) refusal(w http.ResponseWriter, r *http.Request, err error, show func(status int, msg string)) {
	var ref *admin.Refusal
	if !errors.As(err, &ref) {
		h.failed(w, r, "changing the installation", err)
		return
	}
	status := http.StatusUnprocessableEntity
	switch ref.Kind {
	case admin.Conflict:
		status = http.StatusConflict
	case admin.NotFound:
		status = http.StatusNotFound
	}
	show(status, ref.Message)
}

func (h *Handler) home(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	ps, err := h.Store.PeopleList(ctx)
	if err != nil {
		h.failed(w, r, "reading people", err)
		return
	}
	as, err := h.Store.AssistantList(ctx)
	if err != nil {
		h.failed(w, r, "reading assistants", err)
		return
	}
	log, err := h.Store.Audit(ctx, 5)
	if err != nil {
		h.failed(w, r, "reading the audit log", err)
		return
	}
	h.render(w, r, http.StatusOK, "inicio", &view{Title: "Painel", People: people(ps), Assistants: assistants(as), Audit: audit(log)})
}

func (h *Handler) people(w http.ResponseWriter, r *http.Request) {
	h.showPeople(w, r, http.StatusOK, &view{Notice: notices[r.URL.Query().Get("feito")]})
}

func (h *Handler) showPeople(w http.ResponseWriter, r *http.Request, status int, v *view) {
	ps, err := h.Store.PeopleList(r.Context())
	if err != nil {
		h.failed(w, r, "reading people", err)
		return
	}
	v.Title, v.People = "Pessoas", people(ps)
	h.render(w, r, status, "pessoas", v)
}

func (h *Handler) addPerson(w http.ResponseWriter, r *http.Request) {
	key, name := strings.TrimSpace(r.PostForm.Get("key")), r.PostForm.Get("name")
	if _, err := h.ops().AddPersonNamed(r.Context(), key, name); err != nil {
		h.refusal(w, r, err, func(status int, msg string) {
			h.showPeople(w, r, status, &view{Error: msg, Form: map[string]string{"key": key, "name": name}})
		})
		return
	}
	h.done(w, r, "pessoas", "pessoa-adicionada")
}

func (h *Handler) renamePerson(w http.ResponseWriter, r *http.Request) {
	key, name := r.PostForm.Get("key"), r.PostForm.Get("name")
	changed, err := h.ops().RenamePerson(r.Context(), key, name)
	if err != nil {
		h.refusal(w, r, err, func(status int, msg string) {
			h.showPeople(w, r, status, &view{Error: msg, Form: map[string]string{"rename:" + key: name}})
		})
		return
	}
	if !changed {
		h.done(w, r, "pessoas", "pessoa-igual")
		return
	}
	h.done(w, r, "pessoas", "pessoa-renomeada")
}

func (h *Handler) removePerson(w http.ResponseWriter, r *http.Request) {
	if err := h.ops().RemovePerson(r.Context(), r.PostForm.Get("key")); err != nil {
		h.refusal(w, r, err, func(status int, msg string) { h.showPeople(w, r, status, &view{Error: msg}) })
		return
	}
	h.done(w, r, "pessoas", "pessoa-removida")
}

func (h *Handler) assistants(w http.ResponseWriter, r *http.Request) {
	h.showAssistants(w, r, http.StatusOK, &view{Notice: notices[r.URL.Query().Get("feito")]})
}

func (h *Handler) showAssistants(w http.ResponseWriter, r *http.Request, status int, v *view) {
	as, err := h.Store.AssistantList(r.Context())
	if err != nil {
		h.failed(w, r, "reading assistants", err)
		return
	}
	v.Title, v.Assistants = "Assistentes", assistants(as)
	h.render(w, r, status, "assistentes", v)
}

func (h *Handler) issueAssistant(w http.ResponseWriter, r *http.Request) {
	name := r.PostForm.Get("name")
	tok, _, err := h.ops().IssueAssistant(r.Context(), name)
	if err != nil {
		h.refusal(w, r, err, func(status int, msg string) {
			h.showAssistants(w, r, status, &view{Error: msg, Form: map[string]string{"name": name}})
		})
		return
	}
	// Shown on this answer only (no redirect: nothing keeps it), under no-store.
	h.showAssistants(w, r, http.StatusOK, &view{Token: tok, TokenFor: strings.TrimSpace(name)})
}

func (h *Handler) assistantID(r *http.Request) int64 {
	id, err := strconv.ParseInt(r.PostForm.Get("id"), 10, 64)
	if err != nil {
		return 0
	}
	return id
}

func (h *Handler) relabelAssistant(w http.ResponseWriter, r *http.Request) {
	id, name := h.assistantID(r), r.PostForm.Get("name")
	if err := h.ops().RelabelAssistant(r.Context(), id, name); err != nil {
		h.refusal(w, r, err, func(status int, msg string) {
			h.showAssistants(w, r, status, &view{Error: msg, Form: map[string]string{"label:" + strconv.FormatInt(id, 10): name}})
		})
		return
	}
	h.done(w, r, "assistentes", "assistente-rotulo")
}

func (h *Handler) revokeAssistant(w http.ResponseWriter, r *http.Request) {
	if _, err := h.ops().RevokeAssistant(r.Context(), h.assistantID(r)); err != nil {
		h.refusal(w, r, err, func(status int, msg string) { h.showAssistants(w, r, status, &view{Error: msg}) })
		return
	}
	h.done(w, r, "assistentes", "assistente-revogado")
}

func (h *Handler) auditLog(w http.ResponseWriter, r *http.Request) {
	log, err := h.Store.Audit(r.Context(), AuditShown)
	if err != nil {
		h.failed(w, r, "reading the audit log", err)
		return
	}
	h.render(w, r, http.StatusOK, "registro", &view{Title: "Registro de mudanças", Audit: audit(log)})
}

// failed logs an internal error (never a secret) and answers a generic page.
func (h *Handler) failed(w http.ResponseWriter, r *http.Request, step string, err error) {
	if h.Log != nil {
		h.Log.ErrorContext(r.Context(), "panel page failed", "step", step, "path", r.URL.Path, telemetry.ErrAttr(err))
	}
	h.page(w, http.StatusInternalServerError, &view{Title: "Erro no painel", Bare: true,
		Error: "Não foi possível concluir agora; nada foi alterado pela metade. Tente de novo em instantes."})
}
