// Package report serves the permalink report pages of lumo queries: the login form that opens a
// browser session and the page that re-runs a stored query for the viewer.
package report

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/lumo/ratelimit"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/authguard"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
	"github.com/lumo-caderninho/mcp/impl/platform/webform"
)

// CookieName is the browser session cookie of report pages.
const CookieName = "lumo_relatorio"

// DefaultSessionTTL is how long a login form session lasts.
const DefaultSessionTTL = 12 * time.Hour

// Runner re-runs a stored query for a viewer (lumo.Service).
type Runner interface {
	RunReport(ctx context.Context, u *store.User, appID int64, args []byte) (*lumo.Report, error)
}

var _ Runner = (*lumo.Service)(nil)

// Handler serves GET /app/{appId}/report/{id}, GET and POST /login, POST /logout.
type Handler struct {
	DB     *store.DB
	Runner Runner
	Log    *slog.Logger
	// PublicURL is the validated --public-url (see ParsePublicURL), or "" when none: its path is
	// the prefix a reverse proxy strips, used in redirects; https makes the cookie Secure.
	PublicURL string
	// User, when set, is the only viewer (single-user loopback mode): no login needed.
	User *store.User
	// Limiter, when set, counts every report page view (a query re-run) against the viewer's
	// rate limits, as a tool call; over them the page answers 429 with Retry-After.
	Limiter *ratelimit.Limiter
	// Guard, when set, throttles the clients whose tokens fail (a report page's bearer token or
	// the login form's): over its bound they get a 429 page before any token is looked up.
	Guard      *authguard.Guard
	SessionTTL time.Duration    // 0 = DefaultSessionTTL
	Now        func() time.Time // nil = time.Now

	purged atomic.Int64 // Unix second of this process's last purge of expired sessions
}

const storePurgeBatch = store.PurgeReportSessionsBatch

// ParsePublicURL validates --public-url: an absolute http or https URL with a host, optionally a
// path prefix, without query, fragment or credentials. It returns it without a trailing slash.
func ParsePublicURL(s string) (string, error) {
	return webform.ParsePublicURL(s, "lumo.exemplo.com.br")
}

// Register adds the report routes to mux.
func (h *Handler) Register(mux *http.ServeMux) {
	mux.Handle("GET /app/{appId}/report/{id}", h.Guard.Wrap(http.HandlerFunc(h.report), h.throttled))
	mux.HandleFunc("GET /login", h.loginForm)
	mux.Handle("POST /login", h.Guard.Wrap(http.HandlerFunc(h.login), h.throttled))
	mux.HandleFunc("POST /logout", h.logout)
}

func (h *Handler) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}

// basePath is the public URL's path prefix ("" or "/prefix").
func (h *Handler) basePath() string { return webform.BasePath(h.PublicURL) }

func (h *Handler) secure() bool { return h.forms().Secure() }

func (h *Handler) report(w http.ResponseWriter, r *http.Request) {
	appID, err := strconv.ParseInt(r.PathValue("appId"), 10, 64)
	if err != nil || appID <= 0 {
		h.notFound(w)
		return
	}
	h.purge(r, false)
	u, ok := h.viewer(w, r)
	if !ok {
		return
	}
	if h.Limiter != nil {
		d, err := h.Limiter.Take(r.Context(), u)
		if err != nil {
			h.failed(w, r, "counting a report view", err)
			return
		}
		if d != nil {
			w.Header().Set("Retry-After", strconv.Itoa(d.RetryAfter))
			h.page(w, http.StatusTooManyRequests, &errorPage{Title: "Muitas requisições", Message: d.Message()})
			return
		}
	}
	storedApp, args, err := h.DB.Permalink(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) || (err == nil && storedApp != appID) {
		h.notFound(w)
		return
	}
	if err != nil {
		h.failed(w, r, "reading permalink", err)
		return
	}
	rep, err := h.Runner.RunReport(r.Context(), u, appID, args)
	var refused *lumo.ErrReportRefused
	switch {
	case errors.Is(err, store.ErrNotFound):
		h.notFound(w) // no access looks exactly like no app: a link grants nothing
		return
	case errors.As(err, &refused):
		h.page(w, http.StatusUnprocessableEntity, &errorPage{Title: "Relatório indisponível",
			Message: "Este relatório não pode ser refeito agora: " + refused.Message})
		return
	case err != nil:
		h.failed(w, r, "running report", err)
		return
	}
	p := newReportPage(rep, u, h.basePath())
	p.CSRF = h.csrfToken(w, r)
	h.page(w, http.StatusOK, p)
}

// viewer identifies who opens a page: the single user, a bearer token, or the session cookie.
// When nobody is identified it has already answered (redirect to the login form, or 401).
func (h *Handler) viewer(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	if h.User != nil {
		return h.User, true
	}
	if authz := r.Header.Get("Authorization"); authz != "" {
		// The scheme is case-insensitive (RFC 7235), as on /mcp.
		scheme, token, ok := strings.Cut(strings.TrimSpace(authz), " ")
		ok = ok && strings.EqualFold(scheme, "Bearer")
		var u *store.User
		err := store.ErrNotFound
		if ok {
			u, err = h.DB.UserByToken(r.Context(), strings.TrimSpace(token))
		}
		if errors.Is(err, store.ErrNotFound) {
			h.page(w, http.StatusUnauthorized, &errorPage{Title: "Token desconhecido",
				Message: "O token do cabeçalho Authorization não vale. Envie Authorization: Bearer seguido do seu token, ou entre pelo formulário."})
			return nil, false
		}
		if err != nil {
			h.failed(w, r, "verifying a bearer token", err)
			return nil, false
		}
		return u, true
	}
	if c, err := r.Cookie(CookieName); err == nil {
		u, err := h.DB.ReportSessionUser(r.Context(), c.Value, h.now())
		if err == nil {
			return u, true
		}
		if !errors.Is(err, store.ErrNotFound) {
			h.failed(w, r, "reading report session", err)
			return nil, false
		}
	}
	next := h.basePath() + r.URL.Path
	http.Redirect(w, r, h.basePath()+"/login?next="+url.QueryEscape(next), http.StatusSeeOther)
	return nil, false
}

// safeNext keeps a post-login destination only when it is a report page of this server.
func (h *Handler) safeNext(next string) string {
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil ||
		strings.Contains(next, "\\") || strings.HasPrefix(next, "//") ||
		!strings.HasPrefix(u.Path, h.basePath()+"/app/") || strings.Contains(u.Path, "/../") {
		return ""
	}
	return u.Path
}

func (h *Handler) loginForm(w http.ResponseWriter, r *http.Request) {
	h.purge(r, false)
	h.page(w, http.StatusOK, &loginPage{Action: h.basePath() + "/login", Next: h.safeNext(r.URL.Query().Get("next")),
		CSRF: h.csrfToken(w, r)})
}

func (h *Handler) login(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		h.page(w, http.StatusBadRequest, &loginPage{Action: h.basePath() + "/login", CSRF: h.csrfToken(w, r),
			Error: "O formulário chegou incompleto ou grande demais. Cole só o token e tente de novo."})
		return
	}
	if !h.checkPost(w, r) {
		return
	}
	next := h.safeNext(r.PostForm.Get("next"))
	token := strings.TrimSpace(r.PostForm.Get("token"))
	form := &loginPage{Action: h.basePath() + "/login", Next: next, CSRF: h.csrfToken(w, r)}
	if token == "" {
		form.Error = "Informe o token: cole no campo Token o token de acesso que você recebeu."
		h.page(w, http.StatusBadRequest, form)
		return
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		h.failed(w, r, "making a session id", err)
		return
	}
	sid := base64.RawURLEncoding.EncodeToString(b[:])
	ttl := h.SessionTTL
	if ttl <= 0 {
		ttl = DefaultSessionTTL
	}
	_, err := h.DB.CreateReportSession(r.Context(), sid, token, h.now().Add(ttl))
	if errors.Is(err, store.ErrNotFound) {
		form.Error = "Token desconhecido. Confira o token (sem espaços a mais) e cole de novo."
		h.page(w, http.StatusUnauthorized, form)
		return
	}
	if err != nil {
		h.failed(w, r, "creating report session", err)
		return
	}
	h.purge(r, true)
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: sid, Path: h.basePath() + "/", MaxAge: int(ttl.Seconds()),
		HttpOnly: true, Secure: h.secure(), SameSite: http.SameSiteLaxMode})
	if next == "" {
		h.page(w, http.StatusOK, &errorPage{Title: "Você entrou", Message: "Pronto. Abra de novo o link do relatório."})
		return
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (h *Handler) logout(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if !h.checkPost(w, r) {
		return
	}
	if c, err := r.Cookie(CookieName); err == nil {
		if err := h.DB.EndReportSession(r.Context(), c.Value, h.now()); err != nil {
			h.failed(w, r, "ending report session", err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: h.basePath() + "/", MaxAge: -1,
		HttpOnly: true, Secure: h.secure(), SameSite: http.SameSiteLaxMode})
	h.page(w, http.StatusOK, &errorPage{Title: "Você saiu", Message: "A sessão deste navegador foi encerrada."})
}

// throttled answers a client that failed too many logins or tokens.
func (h *Handler) throttled(w http.ResponseWriter, _ *http.Request, retryAfter int) {
	w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
	h.page(w, http.StatusTooManyRequests, &errorPage{Title: "Muitas tentativas", Message: authguard.Message(retryAfter)})
}

func (h *Handler) notFound(w http.ResponseWriter) {
	h.page(w, http.StatusNotFound, &errorPage{Title: "Relatório não encontrado",
		Message: "Este link não leva a um relatório que você possa ver: o link pode estar incompleto, " +
			"ou a Aplicação não existe ou não está entre as suas. Peça acesso à mesa da Aplicação a quem a administra."})
}

// failed logs an internal error (never a token or a row) and answers a generic page.
func (h *Handler) failed(w http.ResponseWriter, r *http.Request, step string, err error) {
	if h.Log != nil {
		h.Log.ErrorContext(r.Context(), "report page failed", "step", step, "path", r.URL.Path, telemetry.ErrAttr(err))
	}
	h.page(w, http.StatusInternalServerError, &errorPage{Title: "Erro ao montar o relatório",
		Message: "Não foi possível montar o relatório agora. Tente de novo em instantes."})
}
