package mcpserver

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
)

// Numbers in arguments follow one rule before the schema sees them: a number is what float64
// holds. An integer-valued number written with a fraction or an exponent (6.0, 6e0, 5e2) is that
// integer, rewritten as 6, 6 and 500, so integer fields accept it; a number float64 cannot hold
// (1e309, a 400-digit integer, a nonzero 1e-400 that would round to 0) is refused naming the field.
// Every other number is left as it was sent.

// normaliseNumbers returns args with integer-valued numbers rewritten as integers, or the
// violations of numbers out of float64's range. args is returned unchanged (same slice) when no
// number needs rewriting, so the common call costs one scan and no decoding.
func normaliseNumbers(args json.RawMessage) (json.RawMessage, []schemacheck.Violation) {
	if !hasOddNumber(args) {
		return args, nil
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return args, nil // not JSON: the schema check reports it
	}
	var vs []schemacheck.Violation
	changed := false
	var walk func(v any, path []string) any
	walk = func(v any, path []string) any {
		switch x := v.(type) {
		case json.Number:
			n, ok := canonicalNumber(string(x))
			if !ok {
				vs = append(vs, schemacheck.At(append([]string(nil), path...),
					"número fora do intervalo aceito (0 ou, em módulo, de 5e-324 a 1,79e308); envie um valor dentro dele."))
				return x
			}
			if n != string(x) {
				changed = true
				return json.Number(n)
			}
			return x
		case []any:
			for i, e := range x {
				x[i] = walk(e, append(path, strconv.Itoa(i)))
			}
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e, append(path, k))
			}
		}
		return v
	}
	v = walk(v, nil)
	if len(vs) > 0 {
		return args, vs
	}
	if !changed {
		return args, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return args, nil
	}
	return b, nil
}

// withNumberViolations lists the numbers out of range with the schema's violations of other
// fields (the schema would also call 1e309 too large for appId: one message per field is enough).
func withNumberViolations(numbers, schema []schemacheck.Violation) []schemacheck.Violation {
	if len(numbers) == 0 {
		return schema
	}
	seen := map[string]bool{}
	for _, v := range numbers {
		seen[v.Field] = true
	}
	out := numbers
	for _, v := range schema {
		if !seen[v.Field] {
			out = append(out, v)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}

// hasOddNumber reports whether args holds, outside strings, a number with a fraction, an exponent
// or more than 15 digits: the only ones normaliseNumbers may change or refuse.
func hasOddNumber(args []byte) bool {
	in := false
	digits := 0
	for i := 0; i < len(args); i++ {
		c := args[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case in:
		case c >= '0' && c <= '9':
			if digits++; digits > 15 {
				return true
			}
		case c == '.' || c == 'e' || c == 'E':
			return true
		default:
			digits = 0
		}
	}
	return false
}

// canonicalNumber is s (a JSON number) as normaliseNumbers sends it on: an integer literal when
// s is integer-valued and fits int64, s itself otherwise; ok is false when float64 cannot hold s.
func canonicalNumber(s string) (string, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return s, false
	}
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	mant, exp := body, 0
	if i := strings.IndexAny(body, "eE"); i >= 0 {
		mant = body[:i]
		e, err := strconv.Atoi(strings.TrimPrefix(body[i+1:], "+"))
		if err != nil { // an exponent beyond int: the value overflowed or underflowed above
			e = math.MinInt32
			if !strings.HasPrefix(body[i+1:], "-") {
				e = math.MaxInt32
			}
		}
		exp = e
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	point := len(intPart) - (len(intPart+frac) - len(digits)) + exp // where the point falls in digits
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return "0", true
	}
	if f == 0 { // nonzero digits that round to zero
		return s, false
	}
	if point < len(digits) || point > 19 {
		return s, true // a fraction, or beyond int64: float64 holds it as it is
	}
	lit := digits + strings.Repeat("0", point-len(digits))
	if neg {
		lit = "-" + lit
	}
	if _, err := strconv.ParseInt(lit, 10, 64); err != nil {
		return s, true
	}
	return lit, true
}
