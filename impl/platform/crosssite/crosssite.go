// Package crosssite refuses what a web page on another site can make its visitor's browser send to
// one of our servers: a request that reached a loopback address under a name that is not this
// server's (DNS rebinding: the attacker's name resolves to 127.0.0.1, so the page reads the answers
// as its own origin), and, where no bearer token authenticates the call, a call from a page of
// another origin (a cross-site fetch in no-cors mode needs no CORS preflight to write).
package crosssite

import (
	"encoding/json"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/restserver"
)

// MCPPath is the Streamable HTTP endpoint of both servers.
const MCPPath = "/mcp"

// Guard is the policy of one server's HTTP routes.
type Guard struct {
	// PublicURL is the validated --public-url, or "". Its host is accepted besides the loopback
	// names (a reverse proxy on the same machine that forwards the public Host), and its origin is
	// this server's origin for the Origin check.
	PublicURL string
	// Tokenless: the calls of /mcp and /tools/ run without a bearer token (lumo serve --user,
	// caderninho serve --no-token), so nothing but the origin tells the owner's own client from a
	// page the owner happens to visit: a call from another origin is refused.
	Tokenless bool
}

// Wrap applies the guard to every route of next.
func (g Guard) Wrap(next http.Handler) http.Handler {
	publicHost := ""
	if u, err := url.Parse(g.PublicURL); err == nil && g.PublicURL != "" {
		publicHost = u.Hostname()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// An empty Host (HTTP/1.1 "Host:" with no name, HTTP/1.0 without one) names nothing: it
		// is no loopback name, nor the public one when there is none.
		if arrivedOnLoopback(r) && !loopbackHost(r.Host) && (publicHost == "" || !strings.EqualFold(hostname(r.Host), publicHost)) {
			refuse(w, r, "Host não permitido: este servidor escuta num endereço local e só atende pelos nomes "+
				"localhost, 127.0.0.1 e [::1]"+publicNote(publicHost)+".",
				"Conecte-se por http://127.0.0.1:<porta> ou http://localhost:<porta>.")
			return
		}
		if g.Tokenless && isAPI(r.URL.Path) && !SameOrigin(r, g.PublicURL) {
			refuse(w, r, "Chamada de outra origem recusada: este servidor atende sem token, então só aceita "+
				"chamadas que não venham de páginas de outros sites.",
				"Chame o servidor de um cliente MCP ou por HTTP direto (curl, um programa), não de uma página web; "+
					"para uso a partir de outros sites, sirva com tokens.")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func publicNote(publicHost string) string {
	if publicHost == "" {
		return ""
	}
	return " (e " + publicHost + ", o de --public-url)"
}

// SameOrigin reports whether a request does not come from a page of another origin. A browser
// that sends Sec-Fetch-Site says so itself: same-origin, or none (typed by the user), passes
// whatever Origin says, since under a Referrer-Policy of no-referrer Chromium sends Origin: null
// on its own forms; any other value (same-site: another port of this host; cross-site) does not.
// Without Sec-Fetch-Site, an Origin header must be the public URL's origin (without one: the
// scheme and Host of the request). Clients that send neither header are not browsers.
func SameOrigin(r *http.Request, publicURL string) bool {
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
	if u, err := url.Parse(publicURL); err == nil && publicURL != "" {
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

func isAPI(path string) bool {
	return path == MCPPath || strings.HasPrefix(path, restserver.Prefix)
}

// arrivedOnLoopback reports whether the connection was made to a loopback address of this
// machine, whatever address the server listens on.
func arrivedOnLoopback(r *http.Request) bool {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || a == nil {
		return false
	}
	ap, err := netip.ParseAddrPort(a.String())
	return err == nil && ap.Addr().Unmap().IsLoopback()
}

// hostname is a Host header without its port.
func hostname(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.Trim(host, "[]")
}

// loopbackHost reports whether a Host header names this machine's loopback: localhost or a
// loopback address, with or without a port. Names under .localhost are not accepted: a
// resolver other than the browser's may send them anywhere.
func loopbackHost(host string) bool {
	h := hostname(host)
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.Unmap().IsLoopback()
}

// refuse answers 403 in the form of the route: the REST error body under /tools/, a JSON-RPC
// error on /mcp, plain text elsewhere.
func refuse(w http.ResponseWriter, r *http.Request, message, suggestion string) {
	switch {
	case strings.HasPrefix(r.URL.Path, restserver.Prefix):
		restserver.WriteError(w, &mcpserver.ToolError{Code: "FORBIDDEN", Message: message, Suggestions: []string{suggestion}})
	case r.URL.Path == MCPPath:
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{
			"code": -32600, "message": message, "data": map[string]any{"code": "FORBIDDEN", "suggestions": []string{suggestion}},
		}})
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusForbidden)
		w.Write(body)
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(message + " " + suggestion + "\n"))
	}
}
