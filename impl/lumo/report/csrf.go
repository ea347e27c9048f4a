package report

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// csrfField is the hidden form field that carries the anti-CSRF token.
const csrfField = "csrf"

// csrfCookie is the pre-login cookie that the anti-CSRF token must match (double submit): a
// cross-site page can neither read it nor, under the __Host- prefix that https gets, set it.
func (h *Handler) csrfCookie() string {
	if h.secure() {
		return "__Host-lumo_csrf"
	}
	return "lumo_csrf"
}

// csrfToken is the anti-CSRF token of this browser: the one its cookie holds, or a new one
// that it sets.
func (h *Handler) csrfToken(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(h.csrfCookie()); err == nil && len(c.Value) == 43 {
		return c.Value
	}
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand panics on its own if the OS source breaks)
	v := base64.RawURLEncoding.EncodeToString(b[:])
	// Path / so that __Host- is allowed; a session cookie (no Max-Age) that lasts as long as
	// the browser keeps the form open.
	http.SetCookie(w, &http.Cookie{Name: h.csrfCookie(), Value: v, Path: "/", HttpOnly: true,
		Secure: h.secure(), SameSite: http.SameSiteStrictMode})
	return v
}

// sameOrigin reports whether a form post comes from a page of this server. A browser that sends
// Sec-Fetch-Site says so itself: same-origin (or none: typed by the user) passes whatever Origin
// says, since under the pages' Referrer-Policy: no-referrer Chromium sends Origin: null; any other
// value is refused. Without Sec-Fetch-Site, an Origin header must be the public URL's origin
// (without --public-url: the scheme and Host of the request). Clients that send neither header
// are not browsers; the anti-CSRF token still guards them.
func (h *Handler) sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return true
	case "":
	default:
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	want := ""
	if u, err := url.Parse(h.PublicURL); err == nil && h.PublicURL != "" {
		want = u.Scheme + "://" + u.Host
	} else {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		want = scheme + "://" + r.Host
	}
	return strings.EqualFold(origin, want)
}

// checkPost refuses, with 403 and a Portuguese page, a login or logout post from another site or
// without the anti-CSRF token of this browser's form.
func (h *Handler) checkPost(w http.ResponseWriter, r *http.Request) bool {
	if !h.sameOrigin(r) {
		h.page(w, http.StatusForbidden, &errorPage{Title: "Envio recusado",
			Message: "Este formulário só pode ser enviado a partir das páginas do próprio Lumo. " +
				"Abra o link do relatório de novo e entre por lá."})
		return false
	}
	c, err := r.Cookie(h.csrfCookie())
	field := r.PostFormValue(csrfField)
	if err != nil || c.Value == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(field)) != 1 {
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
		h.Log.WarnContext(r.Context(), "purging expired report sessions", "err", err)
	}
}
