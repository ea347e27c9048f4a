// Package jsonmap holds the map types of the generated models (specgen names them with
// x-ogen-type): JSON objects whose keys are data. They are written with their keys sorted, so the
// same value always makes the same bytes; ogen's own maps follow Go's random iteration order.
package jsonmap

import (
	"slices"

	"github.com/go-faster/jx"
)

// Ints is an object of integers, such as {"casa": 4, "pessoal": 2}.
type Ints map[string]int64

// Encode writes m with its keys sorted.
func (m Ints) Encode(e *jx.Encoder) {
	e.ObjStart()
	for _, k := range sortedKeys(m) {
		e.FieldStart(k)
		e.Int64(m[k])
	}
	e.ObjEnd()
}

// Decode reads an object of integers.
func (m *Ints) Decode(d *jx.Decoder) error {
	out := Ints{}
	if err := d.ObjBytes(func(d *jx.Decoder, k []byte) error {
		v, err := d.Int64()
		if err != nil {
			return err
		}
		out[string(k)] = v
		return nil
	}); err != nil {
		return err
	}
	*m = out
	return nil
}

// Numbers is an object of numbers or nulls (a nil value), such as {"12_SUM": 10.5, "3_AGP": null}.
type Numbers map[string]*float64

// Encode writes m with its keys sorted.
func (m Numbers) Encode(e *jx.Encoder) {
	e.ObjStart()
	for _, k := range sortedKeys(m) {
		e.FieldStart(k)
		if v := m[k]; v != nil {
			e.Float64(*v)
		} else {
			e.Null()
		}
	}
	e.ObjEnd()
}

// Decode reads an object of numbers or nulls.
func (m *Numbers) Decode(d *jx.Decoder) error {
	out := Numbers{}
	if err := d.ObjBytes(func(d *jx.Decoder, k []byte) error {
		if d.Next() == jx.Null {
			out[string(k)] = nil
			return d.Null()
		}
		v, err := d.Float64()
		if err != nil {
			return err
		}
		out[string(k)] = &v
		return nil
	}); err != nil {
		return err
	}
	*m = out
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
