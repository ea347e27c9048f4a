package caderninho

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// cursorState is what a transactions cursor carries: the digest of the filters it was issued
// for, the revisions of the spaces read, and where the page ended.
type cursorState struct {
	V         int              `json:"v"`
	Filters   string           `json:"f"`
	Revisions map[string]int64 `json:"r"`
	Day       string           `json:"d"`
	Rank      int              `json:"k,omitempty"` // plan_transactions: manual (1) before bank (0) within a day
	ID        int64            `json:"i"`
}

const cursorVersion = 1

// macSize is the bytes of HMAC-SHA256 a cursor keeps: tampering needs the installation's secret.
const macSize = 16

// encodeCursor writes base64url(JSON) "." base64url(HMAC) with the installation's secret.
func encodeCursor(secret []byte, st cursorState) string {
	st.V = cursorVersion
	payload, _ := json.Marshal(st)
	return base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(mac(secret, payload))
}

// decodeCursor verifies and reads a cursor; ok is false for anything this installation did not
// issue (or someone changed).
func decodeCursor(secret []byte, s string) (st cursorState, ok bool) {
	p, m, found := strings.Cut(s, ".")
	if !found {
		return st, false
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(p)
	sig, err2 := base64.RawURLEncoding.DecodeString(m)
	if err1 != nil || err2 != nil || !hmac.Equal(sig, mac(secret, payload)) {
		return st, false
	}
	if err := json.Unmarshal(payload, &st); err != nil || st.V != cursorVersion {
		return st, false
	}
	return st, true
}

func mac(secret, payload []byte) []byte {
	h := hmac.New(sha256.New, secret)
	h.Write([]byte("caderninho cursor\x00"))
	h.Write(payload)
	return h.Sum(nil)[:macSize]
}

// filterDigest names a set of filters: two reads with the same digest select the same rows.
func filterDigest(parts ...any) string {
	b, _ := json.Marshal(parts)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}
