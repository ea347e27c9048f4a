package schemabundle

import (
	"strings"
	"testing"
)

func TestInline(t *testing.T) {
	got, err := Inline([]byte(`{"type":"object","properties":{
		"appId":{"$ref":"#/$defs/appId","description":"A Aplicação."},
		"ids":{"type":"array","items":{"$ref":"#/$defs/appId"}},
		"const":{"$ref":"#/$defs/pair"}},
		"$defs":{"appId":{"type":"integer","minimum":1,"description":"Id."},
		"pair":{"type":"object","properties":{"a":{"$ref":"#/$defs/appId"}},"examples":[{"$ref":"x"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"properties":{"appId":{"description":"A Aplicação.","minimum":1,"type":"integer"},` +
		`"const":{"examples":[{"$ref":"x"}],"properties":{"a":{"description":"Id.","minimum":1,"type":"integer"}},"type":"object"},` +
		`"ids":{"items":{"description":"Id.","minimum":1,"type":"integer"},"type":"array"}},"type":"object"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for doc, msg := range map[string]string{
		`{"$ref":"#/$defs/a","$defs":{"a":{"items":{"$ref":"#/$defs/a"}}}}`:                          "refers to itself",
		`{"properties":{"x":{"$ref":"#/$defs/a","type":"string"}},"$defs":{"a":{"type":"integer"}}}`: `sibling "type"`,
		`{"properties":{"x":{"$ref":"other.json#/$defs/a"}}}`:                                        "only refs to this document",
	} {
		if _, err := Inline([]byte(doc)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want %q", doc, err, msg)
		}
	}
}
