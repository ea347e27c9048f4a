// Package oauthres makes an HTTP server an OAuth 2.1 protected resource, as the MCP authorization
// spec asks: it publishes the protected resource metadata (RFC 9728), validates access tokens that
// are JWTs of the configured authorization server against its JWKS, with the audience bound to this
// server's URL (RFC 8707), and maps a configured claim to the server's own identity (a lumo user
// login, a caderninho assistant name). Every 401 carries WWW-Authenticate with the metadata URL and,
// for a refused token, the error.
package oauthres

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/text/unicode/norm"
)

// Config is what serve's flags say of the authorization server.
type Config struct {
	Issuer   string   // the authorization server (its OpenID configuration is read at start)
	Audience string   // the resource, this server's MCP URL; default <public URL>/mcp
	Claim    string   // the claim that names the caller; default email
	Scopes   []string // scopes a token must carry (and the metadata lists)
}

// RegisterFlags adds --oauth-issuer, --oauth-audience, --oauth-claim and --oauth-scopes to fs.
func (c *Config) RegisterFlags(fs *flag.FlagSet, who string) {
	fs.StringVar(&c.Issuer, "oauth-issuer", "", "aceita também tokens OAuth (JWT) deste servidor de autorização (URL https do emissor); exige --public-url")
	fs.StringVar(&c.Audience, "oauth-audience", "", "o recurso que os tokens OAuth precisam ter em aud (padrão: --public-url + /mcp)")
	fs.StringVar(&c.Claim, "oauth-claim", "email", "o claim do token OAuth que diz "+who)
	fs.Func("oauth-scopes", "escopos exigidos dos tokens OAuth, separados por espaço", func(s string) error {
		c.Scopes = strings.Fields(s)
		return nil
	})
}

// Resource is a configured protected resource.
type Resource struct {
	cfg         Config
	keys        *keySet
	verifier    *oidc.IDTokenVerifier
	metadataURL string
	metadata    *oauthex.ProtectedResourceMetadata
}

// MaxClockSkew is how far in the future a token's iat may be (the issuer's clock may run ahead).
const MaxClockSkew = time.Minute

// MetadataPath is where the metadata is served for a resource at <origin>/mcp (RFC 9728 §3.1:
// the well-known prefix, then the resource's path).
const MetadataPath = "/.well-known/oauth-protected-resource/mcp"

// New reads the issuer's OpenID configuration (its JWKS is fetched when a token first needs it,
// and again, at most every RefetchEvery, when a token needs a key it does not hold). publicURL is the server's public origin (https, or loopback http).
func New(ctx context.Context, cfg Config, publicURL string) (*Resource, error) {
	if publicURL == "" {
		return nil, errors.New("--oauth-issuer exige --public-url: o endereço público deste servidor é o recurso dos tokens")
	}
	if err := checkURL("--oauth-issuer", cfg.Issuer); err != nil {
		return nil, err
	}
	if cfg.Audience == "" {
		cfg.Audience = strings.TrimSuffix(publicURL, "/") + "/mcp"
	}
	if cfg.Claim == "" {
		cfg.Claim = "email"
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	// The provider keeps using its context for key fetches: give it one that outlives the start.
	p, err := oidc.NewProvider(oidc.ClientContext(context.WithoutCancel(ctx), &http.Client{Timeout: 10 * time.Second}), cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("--oauth-issuer %s: não foi possível ler a configuração OpenID do emissor: %w", cfg.Issuer, err)
	}
	var discovery struct {
		Issuer  string `json:"issuer"`
		JWKSURL string `json:"jwks_uri"`
	}
	if err := p.Claims(&discovery); err != nil || discovery.JWKSURL == "" {
		return nil, fmt.Errorf("--oauth-issuer %s: a configuração OpenID do emissor não traz jwks_uri", cfg.Issuer)
	}
	if err := checkURL("jwks_uri do emissor", discovery.JWKSURL); err != nil {
		return nil, err
	}
	keys := newKeySet(discovery.JWKSURL, &http.Client{Timeout: 10 * time.Second})
	var algs []string
	for _, a := range signingAlgs {
		algs = append(algs, string(a))
	}
	r := &Resource{cfg: cfg, keys: keys,
		verifier:    oidc.NewVerifier(discovery.Issuer, keys, &oidc.Config{ClientID: cfg.Audience, SupportedSigningAlgs: algs}),
		metadataURL: strings.TrimSuffix(publicURL, "/") + MetadataPath,
	}
	r.metadata = &oauthex.ProtectedResourceMetadata{
		Resource:               cfg.Audience,
		AuthorizationServers:   []string{cfg.Issuer},
		ScopesSupported:        cfg.Scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "MCP em " + publicURL,
	}
	return r, nil
}

// checkURL accepts an https URL, or http on loopback (for local tests).
func checkURL(flag, s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%s %q não é uma URL; use, por exemplo, https://login.exemplo.com.br", flag, s)
	}
	if u.Scheme == "https" || (u.Scheme == "http" && isLoopbackHost(u.Hostname())) {
		return nil
	}
	return fmt.Errorf("%s %q: use https (http só em endereço local)", flag, s)
}

func isLoopbackHost(h string) bool {
	return h == "localhost" || h == "127.0.0.1" || h == "::1"
}

// Register serves the protected resource metadata (no token; any origin may read it).
func (r *Resource) Register(mux *http.ServeMux) {
	h := auth.ProtectedResourceMetadataHandler(r.metadata)
	mux.Handle(MetadataPath, h)
	mux.Handle("/.well-known/oauth-protected-resource", h)
}

// KeyFetches counts the fetches of the issuer's keys so far.
func (r *Resource) KeyFetches() int { return r.keys.Fetches() }

// MetadataURL is the metadata's absolute URL, for WWW-Authenticate; "" for a nil Resource.
func (r *Resource) MetadataURL() string {
	if r == nil {
		return ""
	}
	return r.metadataURL
}

// LooksLikeJWT says whether token has a JWT's three parts (static tokens never do).
func LooksLikeJWT(token string) bool { return strings.Count(token, ".") == 2 }

// Verify checks a JWT access token: signature by the issuer's keys, issuer, audience, expiry and
// scopes. It returns the configured claim's value, the expiry and the token's scopes; a refused
// token's error wraps auth.ErrInvalidToken and says why, in Portuguese.
func (r *Resource) Verify(ctx context.Context, token string) (who string, exp time.Time, scopes []string, err error) {
	tok, err := r.verifier.Verify(ctx, token)
	if err != nil {
		var expired *oidc.TokenExpiredError
		switch {
		case errors.As(err, &expired):
			return "", time.Time{}, nil, fmt.Errorf("%w: o token OAuth expirou", auth.ErrInvalidToken)
		case strings.Contains(err.Error(), "audience"):
			return "", time.Time{}, nil, fmt.Errorf("%w: o token OAuth não é para este servidor (aud deve incluir %s)", auth.ErrInvalidToken, r.cfg.Audience)
		case strings.Contains(err.Error(), "different provider"):
			return "", time.Time{}, nil, fmt.Errorf("%w: o token OAuth não é do emissor %s", auth.ErrInvalidToken, r.cfg.Issuer)
		}
		return "", time.Time{}, nil, fmt.Errorf("%w: token OAuth inválido (assinatura ou formato)", auth.ErrInvalidToken)
	}
	var claims map[string]any
	if err := tok.Claims(&claims); err != nil {
		return "", time.Time{}, nil, fmt.Errorf("%w: claims ilegíveis", auth.ErrInvalidToken)
	}
	// go-oidc checks iat only against a skew of its own when the token has no exp; a token
	// issued in the future is refused whatever its expiry.
	if iat, ok := claims["iat"].(float64); ok && time.Unix(int64(iat), 0).After(time.Now().Add(MaxClockSkew)) {
		return "", time.Time{}, nil, fmt.Errorf("%w: o token OAuth diz ter sido emitido no futuro (iat); confira o relógio do emissor", auth.ErrInvalidToken)
	}
	who, _ = claims[r.cfg.Claim].(string)
	if who == "" {
		return "", time.Time{}, nil, fmt.Errorf("%w: o token OAuth não tem o claim %s", auth.ErrInvalidToken, r.cfg.Claim)
	}
	scope, _ := claims["scope"].(string)
	scopes = strings.Fields(scope)
	for _, want := range r.cfg.Scopes {
		if !slices.Contains(scopes, want) {
			return "", time.Time{}, nil, fmt.Errorf("%w: falta o escopo %s", auth.ErrInvalidToken, want)
		}
	}
	return who, tok.Expiry, scopes, nil
}

// Challenge adds WWW-Authenticate to every 401 next writes: the scheme, the metadata URL when r is
// set, and the error of a refused token (RFC 6750 §3). A 401 must carry it for a client to start
// the OAuth flow. A check that could not finish (Unavailable) answers 503 with Retry-After instead
// of go-sdk's 500.
func Challenge(r *Resource, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		c := &challenger{ResponseWriter: w, metadata: r.MetadataURL(),
			hasToken: strings.HasPrefix(strings.ToLower(req.Header.Get("Authorization")), "bearer ")}
		next.ServeHTTP(c, req.WithContext(context.WithValue(req.Context(), verdictKey{}, &c.verdict)))
	})
}

type verdictKey struct{}

// verdict is what the token check of one request found out, besides its answer.
type verdict struct {
	reason      string // set by Refused
	unavailable bool   // set by Unavailable
}

// Refused records why the token of the request ctx belongs to was refused, for its
// WWW-Authenticate error_description, and returns err.
func Refused(ctx context.Context, err error) error {
	if v, ok := ctx.Value(verdictKey{}).(*verdict); ok {
		v.reason = strings.TrimPrefix(err.Error(), auth.ErrInvalidToken.Error()+": ")
	}
	return err
}

// RetryUnavailable is the Retry-After, in seconds, of a token check the database did not answer.
const RetryUnavailable = 2

// UnavailableText is the answer to such a check.
var UnavailableText = fmt.Sprintf("Não foi possível verificar o token agora: o banco de dados não respondeu. "+
	"Tente de novo em %d s.", RetryUnavailable)

// Unavailable records that the token of the request ctx belongs to could not be checked (the
// database failed or did not answer in time) and returns err, which is not an invalid token: the
// client gets 503 with Retry-After, which no failed-authentication count takes for a guess.
func Unavailable(ctx context.Context, err error) error {
	if v, ok := ctx.Value(verdictKey{}).(*verdict); ok {
		v.unavailable = true
	}
	return err
}

type challenger struct {
	http.ResponseWriter
	metadata string
	hasToken bool
	verdict  verdict
	wrote    bool
	replaced bool // the answer is ours, not the check's: what it writes is dropped
}

func (c *challenger) WriteHeader(code int) {
	if c.wrote {
		return
	}
	if code == http.StatusInternalServerError && c.verdict.unavailable {
		c.wrote, c.replaced = true, true
		h := c.Header()
		h.Set("Retry-After", strconv.Itoa(RetryUnavailable))
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Del("Content-Length")
		c.ResponseWriter.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(c.ResponseWriter, UnavailableText+"\n")
		return
	}
	if code == http.StatusUnauthorized && c.Header().Get("WWW-Authenticate") == "" {
		params := []string{`realm="mcp"`}
		if c.metadata != "" {
			params = append(params, fmt.Sprintf("resource_metadata=%q", c.metadata))
		}
		if c.hasToken {
			reason := c.verdict.reason
			if reason == "" {
				reason = "token recusado"
			}
			// RFC 6750 allows only printable ASCII here: the reason without accents.
			params = append(params, `error="invalid_token"`, fmt.Sprintf("error_description=%q", ascii(reason)))
		}
		c.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
	}
	c.wrote = true
	if code == http.StatusUnauthorized { // go-sdk's body is English ("no bearer token", "invalid token")
		c.replaced = true
		h := c.Header()
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Del("Content-Length")
		c.ResponseWriter.WriteHeader(code)
		msg := "Token ausente: envie o cabeçalho Authorization: Bearer <token>."
		if c.hasToken {
			msg = "Token recusado"
			if c.verdict.reason != "" {
				msg += ": " + c.verdict.reason
			}
			msg += ". Confira o token com quem administra o servidor."
		}
		io.WriteString(c.ResponseWriter, msg+"\n")
		return
	}
	c.ResponseWriter.WriteHeader(code)
}

// ascii drops the accents of Portuguese text and any other byte outside printable ASCII.
func ascii(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if r >= 0x20 && r < 0x7f && r != '"' && r != '\\' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (c *challenger) Write(b []byte) (int, error) {
	if !c.wrote {
		c.WriteHeader(http.StatusOK)
	}
	if c.replaced {
		return len(b), nil
	}
	return c.ResponseWriter.Write(b)
}

// Flush keeps streaming answers (SSE) working through the wrapper.
func (c *challenger) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection (per-write deadlines).
func (c *challenger) Unwrap() http.ResponseWriter { return c.ResponseWriter }
