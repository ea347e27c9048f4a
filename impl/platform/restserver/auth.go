package restserver

import (
	"net/http"

	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/oauthres"
)

// Bearer wraps the bearer check of /mcp (check: go-sdk's auth.RequireBearerToken with the
// server's verifier) for the mirror: the same tokens pass, with the same TokenInfo in the
// request's context, and each refusal becomes the error body, 401 with the check's
// WWW-Authenticate or else `Bearer` (authguard counts it as a failure as it counts those of /mcp).
func Bearer(check func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rw := &refusalWriter{ResponseWriter: w}
			check(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
				rw.passed = true
				next.ServeHTTP(w, r)
			})).ServeHTTP(rw, r)
		})
	}
}

// refusalWriter turns the answer the check writes itself (a refusal, in plain text) into the
// error body; once the check has let the request through it is not written to.
type refusalWriter struct {
	http.ResponseWriter
	passed, wrote bool
}

func (w *refusalWriter) WriteHeader(status int) {
	if w.passed || w.wrote {
		return
	}
	w.wrote = true
	h := w.ResponseWriter.Header()
	h.Del("Content-Type")
	te := &mcpserver.ToolError{Code: "UNAUTHORIZED",
		Message:     "Token ausente ou inválido: envie o cabeçalho Authorization: Bearer <token>.",
		Suggestions: []string{"Confira o token com quem administra o servidor."}}
	switch status {
	case http.StatusUnauthorized:
		if h.Get("WWW-Authenticate") == "" { // the check's own challenge (resource_metadata, scope) stays
			h.Set("WWW-Authenticate", "Bearer")
		}
	case http.StatusForbidden:
		te = &mcpserver.ToolError{Code: "FORBIDDEN", Message: "O token não dá acesso a esta chamada.", Suggestions: []string{}}
	case http.StatusServiceUnavailable: // the check could not reach the database (oauthres.Unavailable)
		te = Unavailable(oauthres.UnavailableText)
	default:
		te = internal()
	}
	writeError(w.ResponseWriter, status, te)
}

func (w *refusalWriter) Write(p []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusUnauthorized)
	}
	return len(p), nil // the check's own text is dropped
}
