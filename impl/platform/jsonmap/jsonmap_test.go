package jsonmap

import (
	"testing"

	"github.com/go-faster/jx"
)

func TestSortedAndRoundTrip(t *testing.T) {
	half := 0.5
	for _, tt := range []struct {
		v    interface{ Encode(*jx.Encoder) }
		want string
	}{
		{Ints{"z": 3, "a": 1, "m": -2, "b": 9007199254740993}, `{"a":1,"b":9007199254740993,"m":-2,"z":3}`},
		{Ints{}, `{}`},
		{Numbers{"b": nil, "a": &half, "c": new(float64)}, `{"a":0.5,"b":null,"c":0}`},
	} {
		for range 10 {
			var e jx.Encoder
			tt.v.Encode(&e)
			if got := e.String(); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		}
	}
	var i Ints
	if err := i.Decode(jx.DecodeStr(`{"b":2,"a":1}`)); err != nil || len(i) != 2 || i["a"] != 1 {
		t.Fatalf("Ints.Decode: %v %v", i, err)
	}
	var n Numbers
	if err := n.Decode(jx.DecodeStr(`{"b":null,"a":1.5}`)); err != nil || n["b"] != nil || *n["a"] != 1.5 {
		t.Fatalf("Numbers.Decode: %v %v", n, err)
	}
}
