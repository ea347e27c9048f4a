package webform

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "127.0.0.2:1": true, "[::1]:80": true, "localhost:8080": true,
		":8080": false, "0.0.0.0:8080": false, "192.168.0.10:80": false, "[::]:80": false, "bad": false,
	} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

func TestParsePublicURL(t *testing.T) {
	if got, err := ParsePublicURL("https://x.example.com/p/", "x.exemplo.com.br"); err != nil || got != "https://x.example.com/p" {
		t.Errorf("got %q, %v", got, err)
	}
	for _, bad := range []string{"ftp://x", "/p", "https://x?a=1", "https://u:p@x"} {
		if _, err := ParsePublicURL(bad, "x.exemplo.com.br"); err == nil || !strings.Contains(err.Error(), "https://exemplo.com.br/x") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if BasePath("https://x.example.com/p") != "/p" || BasePath("") != "" {
		t.Error("BasePath")
	}
}

func TestCSRFAndOrigin(t *testing.T) {
	c := CSRF{Name: "t_csrf", PublicURL: "https://x.example.com"}
	if c.Cookie() != "__Host-t_csrf" || (CSRF{Name: "t_csrf"}).Cookie() != "t_csrf" {
		t.Errorf("cookie names %q", c.Cookie())
	}
	w := httptest.NewRecorder()
	tok := c.Token(w, httptest.NewRequest("GET", "/", nil))
	ck := w.Result().Cookies()[0]
	if !ck.HttpOnly || !ck.Secure || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" {
		t.Errorf("cookie %+v", ck)
	}
	post := func(field string, hdr ...string) *http.Request {
		r := httptest.NewRequest("POST", "/", strings.NewReader(url.Values{Field: {field}}.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.AddCookie(ck)
		for i := 0; i+1 < len(hdr); i += 2 {
			r.Header.Set(hdr[i], hdr[i+1])
		}
		return r
	}
	if !c.Valid(post(tok)) || c.Valid(post(tok+"x")) || c.Valid(post("")) {
		t.Error("Valid")
	}
	for hdr, want := range map[[2]string]bool{
		{"Origin", "https://x.example.com"}: true, {"Origin", "https://evil.example"}: false,
		{"Sec-Fetch-Site", "same-origin"}: true, {"Sec-Fetch-Site", "cross-site"}: false, {"X-None", ""}: true,
	} {
		if got := c.SameOrigin(post(tok, hdr[0], hdr[1])); got != want {
			t.Errorf("%v: SameOrigin %v, want %v", hdr, got, want)
		}
	}
}
