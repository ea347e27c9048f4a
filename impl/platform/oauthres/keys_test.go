package oauthres

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// issuerKeys serves a JWKS of the keys given, counting the fetches.
type issuerKeys struct {
	mu      sync.Mutex
	keys    map[string]*rsa.PrivateKey
	fetches atomic.Int64
	url     string
}

func newIssuerKeys(t *testing.T) *issuerKeys {
	is := &issuerKeys{keys: map[string]*rsa.PrivateKey{}}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		is.fetches.Add(1)
		is.mu.Lock()
		defer is.mu.Unlock()
		var set jose.JSONWebKeySet
		for kid, k := range is.keys {
			set.Keys = append(set.Keys, jose.JSONWebKey{Key: &k.PublicKey, KeyID: kid, Algorithm: "RS256", Use: "sig"})
		}
		json.NewEncoder(w).Encode(set)
	}))
	t.Cleanup(ts.Close)
	is.url = ts.URL
	return is
}

func (is *issuerKeys) add(t *testing.T, kid string) *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	is.mu.Lock()
	is.keys[kid] = k
	is.mu.Unlock()
	return k
}

func sign(t *testing.T, k *rsa.PrivateKey, kid string) string {
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: k}, (&jose.SignerOptions{}).WithHeader("kid", kid))
	if err != nil {
		t.Fatal(err)
	}
	jws, err := s.Sign([]byte(`{"sub":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// Forged tokens (an unknown kid, a bad signature under a known kid) fetch the issuer's keys at
// most once per RefetchEvery, however many arrive and however concurrently; a key the issuer
// starts using is found once that time has passed.
func TestKeysFetchedAtMostOncePerInterval(t *testing.T) {
	is := newIssuerKeys(t)
	k1 := is.add(t, "k1")
	ks := newKeySet(is.url, http.DefaultClient)
	now := time.Now()
	var clock sync.Mutex
	ks.now = func() time.Time { clock.Lock(); defer clock.Unlock(); return now }
	ctx := context.Background()
	if _, err := ks.VerifySignature(ctx, sign(t, k1, "k1")); err != nil {
		t.Fatalf("a good token: %v", err)
	}
	if n := is.fetches.Load(); n != 1 {
		t.Fatalf("%d fetches for the first token, want 1", n)
	}
	stranger, _ := rsa.GenerateKey(rand.Reader, 2048)
	forged := []string{sign(t, stranger, "k1"), sign(t, stranger, "k9"), sign(t, stranger, "")}
	var wg sync.WaitGroup
	for i := range 150 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := ks.VerifySignature(ctx, forged[i%3]); err == nil {
				t.Error("a forged token verified")
			}
		}()
	}
	wg.Wait()
	if n := is.fetches.Load(); n != 1 {
		t.Errorf("150 forged tokens within the interval made %d fetches in all, want the first one only", n)
	}
	// A rotation: the issuer signs with k2. Within the interval the token waits; after it, the
	// first token needing k2 fetches once, and so do 150 forged ones then.
	k2 := is.add(t, "k2")
	if _, err := ks.VerifySignature(ctx, sign(t, k2, "k2")); err == nil {
		t.Error("a new key was fetched before the interval passed")
	}
	clock.Lock()
	now = now.Add(RefetchEvery)
	clock.Unlock()
	if _, err := ks.VerifySignature(ctx, sign(t, k2, "k2")); err != nil {
		t.Fatalf("the new key after the interval: %v", err)
	}
	for i := range 150 {
		ks.VerifySignature(ctx, forged[i%3])
	}
	if n := is.fetches.Load(); n != 2 || ks.Fetches() != 2 {
		t.Errorf("%d fetches (the set counts %d), want 2", n, ks.Fetches())
	}
	if _, err := ks.VerifySignature(ctx, sign(t, k1, "k1")); err != nil {
		t.Errorf("the old key still served: %v", err)
	}
}
