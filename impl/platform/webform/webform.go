// Package webform is what the servers' browser pages share: the public URL rule, the anti-CSRF
// double-submit cookie, the same-origin check of form posts and the security headers of every page.
package webform

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/crosssite"
)

// ParsePublicURL validates a --public-url: an absolute http or https URL with a host, optionally a
// path prefix, without query, fragment or credentials. It returns it without a trailing slash.
// example names the server in the message ("lumo.exemplo.com.br").
func ParsePublicURL(s, example string) (string, error) {
	bad := fmt.Errorf("--public-url precisa ser um endereço http ou https absoluto, sem ? nem #, "+
		"como https://%s ou https://exemplo.com.br/%s; recebido %q", example, strings.SplitN(example, ".", 2)[0], s)
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" ||
		u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return "", bad
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// BasePath is a validated public URL's path prefix ("" or "/prefix").
func BasePath(publicURL string) string {
	u, err := url.Parse(publicURL)
	if err != nil {
		return ""
	}
	return strings.TrimRight(u.Path, "/")
}

// IsLoopback reports whether a listen address (host:port) is loopback only: 127.0.0.0/8, ::1 or
// localhost. An empty host (all interfaces) is not.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Field is the hidden form field that carries the anti-CSRF token.
const Field = "csrf"

// CSRF is the double-submit anti-CSRF check of one server's forms.
type CSRF struct {
	// Name is the cookie's name over http; over https it gets the __Host- prefix, which a
	// cross-site page can neither read nor set.
	Name string
	// PublicURL is the validated --public-url, or "": https makes the cookie Secure, and its
	// origin is the one form posts must come from.
	PublicURL string
}

// Secure reports whether the public URL is https.
func (c CSRF) Secure() bool { return strings.HasPrefix(c.PublicURL, "https://") }

// Cookie is the anti-CSRF cookie's name.
func (c CSRF) Cookie() string {
	if c.Secure() {
		return "__Host-" + c.Name
	}
	return c.Name
}

// Token is the anti-CSRF token of this browser: the one its cookie holds, or a new one that it
// sets (HttpOnly, SameSite=Strict, Secure under https, Path /, for the browser's session).
func (c CSRF) Token(w http.ResponseWriter, r *http.Request) string {
	if ck, err := r.Cookie(c.Cookie()); err == nil && len(ck.Value) == 43 {
		return ck.Value
	}
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand panics on its own if the OS source breaks)
	v := base64.RawURLEncoding.EncodeToString(b[:])
	http.SetCookie(w, &http.Cookie{Name: c.Cookie(), Value: v, Path: "/", HttpOnly: true,
		Secure: c.Secure(), SameSite: http.SameSiteStrictMode})
	return v
}

// Valid reports whether a parsed form post carries the token of its browser's cookie.
func (c CSRF) Valid(r *http.Request) bool {
	ck, err := r.Cookie(c.Cookie())
	field := r.PostFormValue(Field)
	return err == nil && ck.Value != "" && subtle.ConstantTimeCompare([]byte(ck.Value), []byte(field)) == 1
}

// SameOrigin reports whether a form post comes from a page of this server (crosssite.SameOrigin
// with the public URL). Clients that send neither Sec-Fetch-Site nor Origin are not browsers; the
// anti-CSRF token still guards them.
func (c CSRF) SameOrigin(r *http.Request) bool { return crosssite.SameOrigin(r, c.PublicURL) }

// CSP allows nothing but the page's own inline style (by nonce), images of its own, and forms
// posting to itself; "%s" is the nonce.
const CSP = "default-src 'none'; style-src 'nonce-%s'; img-src 'self'; form-action 'self'; " +
	"frame-ancestors 'none'; base-uri 'none'"

// Nonce is a fresh CSP nonce.
func Nonce() string {
	var n [16]byte
	rand.Read(n[:])
	return base64.StdEncoding.EncodeToString(n[:])
}

// SetHeaders sets what every page carries: HTML type, the strict CSP with nonce, nosniff,
// no-referrer and no-store (a viewer's data must not outlive their access in a cache).
func SetHeaders(h http.Header, nonce string) {
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", strings.ReplaceAll(CSP, "%s", nonce))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
}
