package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCanonicalNumber(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"6", "6", true}, {"6.0", "6", true}, {"6e0", "6", true}, {"5e2", "500", true}, {"5E+2", "500", true},
		{"10e-1", "1", true}, {"-3.000", "-3", true}, {"0.0", "0", true}, {"-0", "0", true}, {"0e999999999999", "0", true},
		{"1.5", "1.5", true}, {"0.05", "0.05", true}, {"1e20", "1e20", true}, {"9223372036854775807", "9223372036854775807", true},
		{"9223372036854775808", "9223372036854775808", true}, {"1e300", "1e300", true}, {"4.9e-324", "4.9e-324", true},
		{"1e309", "1e309", false}, {"-1e309", "-1e309", false}, {strings.Repeat("9", 400), strings.Repeat("9", 400), false},
		{"1e-400", "1e-400", false}, {"1e99999999999999999999", "1e99999999999999999999", false},
		{"1e-99999999999999999999", "1e-99999999999999999999", false},
	}
	for _, c := range cases {
		got, ok := canonicalNumber(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("canonicalNumber(%s) = %s, %v; want %s, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestNormaliseNumbers(t *testing.T) {
	in := json.RawMessage(`{"appId": 6.0, "limit": 5e2, "filters": [{"value": [1, 2.5, "3.0"]}]}`)
	out, vs := normaliseNumbers(in)
	if len(vs) > 0 {
		t.Fatal(vs)
	}
	var got, want any
	_ = json.Unmarshal(out, &got)
	_ = json.Unmarshal([]byte(`{"appId": 6, "limit": 500, "filters": [{"value": [1, 2.5, "3.0"]}]}`), &want)
	if b1, b2 := mustJSON(got), mustJSON(want); b1 != b2 || strings.Contains(string(out), "6.0") {
		t.Errorf("got %s, want %s", out, b2)
	}
	plain := json.RawMessage(`{"appId": 6, "terms": ["1.5e3"]}`)
	if out, _ := normaliseNumbers(plain); &out[0] != &plain[0] {
		t.Error("arguments without odd numbers were rewritten")
	}
	_, vs = normaliseNumbers(json.RawMessage(`{"appId": 1e309, "filters": [{"value": [1, -1e309]}]}`))
	var fields []string
	for _, v := range vs {
		fields = append(fields, v.Field)
		if strings.Contains(v.String(), "1e309") {
			t.Errorf("the message repeats the value: %s", v)
		}
	}
	if strings.Join(fields, " ") != "appId filters[0].value[1]" && strings.Join(fields, " ") != "filters[0].value[1] appId" {
		t.Errorf("fields %v, want appId and filters[0].value[1]", fields)
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }
