package oauthres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// RefetchEvery is the shortest time between two fetches of the issuer's keys.
const RefetchEvery = 30 * time.Second

// maxJWKS bounds the issuer's key document.
const maxJWKS = 1 << 20

// signingAlgs are the algorithms a token may be signed with (the verifier checks them too).
var signingAlgs = []jose.SignatureAlgorithm{jose.RS256, jose.ES256, jose.PS256, jose.EdDSA}

// keySet is the issuer's JWKS (an oidc.KeySet). A token whose key it does not hold, or whose
// signature no held key verifies, makes it fetch the keys again, at most once per every: go-oidc's
// remote key set fetched them for each such token, so forged tokens made the server call the
// issuer as often as they arrived. A key the issuer starts using is found by the first token that
// needs it once every has passed since the last fetch.
type keySet struct {
	url    string
	client *http.Client
	every  time.Duration
	now    func() time.Time

	mu      sync.Mutex // keys, fetched, fetches
	keys    []jose.JSONWebKey
	fetched time.Time // the last fetch, successful or not; zero before the first
	fetches int

	fetching sync.Mutex // one fetch at a time
}

func newKeySet(url string, client *http.Client) *keySet {
	return &keySet{url: url, client: client, every: RefetchEvery, now: time.Now}
}

// VerifySignature returns the payload of a JWS signed by one of the issuer's keys.
func (k *keySet) VerifySignature(ctx context.Context, raw string) ([]byte, error) {
	jws, err := jose.ParseSigned(raw, signingAlgs)
	if err != nil {
		return nil, fmt.Errorf("malformed jwt: %w", err)
	}
	if len(jws.Signatures) != 1 {
		return nil, errors.New("a token must carry exactly one signature")
	}
	kid := jws.Signatures[0].Header.KeyID
	keys, fetched := k.current()
	if payload, ok := verifyWith(jws, keys, kid); ok {
		return payload, nil
	}
	keys, err = k.refresh(ctx, fetched)
	if err != nil {
		return nil, err
	}
	if payload, ok := verifyWith(jws, keys, kid); ok {
		return payload, nil
	}
	return nil, errors.New("no key of the issuer verifies the token's signature")
}

func verifyWith(jws *jose.JSONWebSignature, keys []jose.JSONWebKey, kid string) ([]byte, bool) {
	for i := range keys {
		if kid == "" || keys[i].KeyID == kid {
			if payload, err := jws.Verify(&keys[i]); err == nil {
				return payload, true
			}
		}
	}
	return nil, false
}

func (k *keySet) current() ([]jose.JSONWebKey, time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.keys, k.fetched
}

// refresh fetches the keys unless they were fetched after seen (by another caller meanwhile) or
// less than every ago, and returns the keys held then.
func (k *keySet) refresh(ctx context.Context, seen time.Time) ([]jose.JSONWebKey, error) {
	k.fetching.Lock()
	defer k.fetching.Unlock()
	keys, fetched := k.current()
	if fetched.After(seen) || (!fetched.IsZero() && k.now().Sub(fetched) < k.every) {
		return keys, nil
	}
	fresh, err := k.fetch(ctx)
	k.mu.Lock()
	defer k.mu.Unlock()
	k.fetched, k.fetches = k.now(), k.fetches+1
	if err != nil {
		return k.keys, fmt.Errorf("fetching the issuer's keys: %w", err)
	}
	k.keys = fresh
	return fresh, nil
}

// Fetches counts the fetches so far.
func (k *keySet) Fetches() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.fetches
}

func (k *keySet) fetch(ctx context.Context) ([]jose.JSONWebKey, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := k.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %s", k.url, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKS+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxJWKS {
		return nil, fmt.Errorf("%s: the key set is over %d bytes", k.url, maxJWKS)
	}
	var doc struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("%s: not a key set: %w", k.url, err)
	}
	var keys []jose.JSONWebKey
	for _, raw := range doc.Keys {
		var key jose.JSONWebKey
		if err := key.UnmarshalJSON(raw); err != nil || !key.Valid() || !key.IsPublic() {
			continue // a key of a kind go-jose does not read, or a private one: never a signing key of ours
		}
		if key.Use != "" && key.Use != "sig" {
			continue
		}
		keys = append(keys, key)
	}
	return keys, nil
}
