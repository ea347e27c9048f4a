// Package oauthtest is a minimal OpenID issuer for tests: its discovery document and JWKS over
// HTTP, and access tokens (JWTs) signed with its key.
package oauthtest

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Issuer serves /.well-known/openid-configuration and /jwks.
type Issuer struct {
	URL string
	key *rsa.PrivateKey
}

// New starts an issuer for the test's lifetime.
func New(t testing.TB) *Issuer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	is := &Issuer{key: key}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": is.URL, "jwks_uri": is.URL + "/jwks",
			"authorization_endpoint": is.URL + "/auth", "token_endpoint": is.URL + "/token",
			"response_types_supported": []string{"code"}, "subject_types_supported": []string{"public"},
			"id_token_signing_alg_values_supported": []string{"RS256"},
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, _ *http.Request) {
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"}}})
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	is.URL = ts.URL
	return is
}

// Token is an access token's claims; zero Expiry means an hour from now.
type Token struct {
	Issuer, Audience, Subject, Email, Scope string
	Expiry                                  time.Time
	IssuedAt                                time.Time // zero: a minute ago
}

// Sign returns tok as a signed JWT; an empty Issuer is the issuer's own.
func (is *Issuer) Sign(t testing.TB, tok Token) string {
	t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: is.key},
		(&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	if tok.Issuer == "" {
		tok.Issuer = is.URL
	}
	if tok.Expiry.IsZero() {
		tok.Expiry = time.Now().Add(time.Hour)
	}
	if tok.IssuedAt.IsZero() {
		tok.IssuedAt = time.Now().Add(-time.Minute)
	}
	claims := map[string]any{"iss": tok.Issuer, "aud": tok.Audience, "sub": tok.Subject, "exp": tok.Expiry.Unix(),
		"iat": tok.IssuedAt.Unix()}
	if tok.Email != "" {
		claims["email"] = tok.Email
	}
	if tok.Scope != "" {
		claims["scope"] = tok.Scope
	}
	raw, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
