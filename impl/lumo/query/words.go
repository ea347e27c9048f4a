package query

import (
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// words says a filter in Portuguese: "Situação = Ativa", "Data entre 01/09/2026 e 30/09/2026".
func (p *Pred) words() string {
	if p.Segment != nil {
		return "segmento " + p.Segment.Label
	}
	if p.Exists != nil {
		return p.Exists.Of.Label + " com alguma linha de " + p.Exists.Rows.Label + " em que " + p.valueWords()
	}
	return p.valueWords()
}

// valueWords is the condition on the target's value.
func (p *Pred) valueWords() string {
	vals := make([]string, len(p.Values))
	for i, v := range p.Values {
		vals[i] = valueWords(v)
	}
	blank := len(p.Values) == 1 && p.Values[0] == ""
	switch p.Op {
	case "=":
		if blank {
			return p.label + " em branco"
		}
		return p.label + " = " + vals[0]
	case "!=":
		if blank {
			return p.label + " preenchido"
		}
		return p.label + " diferente de " + vals[0]
	case "between":
		return p.label + " entre " + vals[0] + " e " + vals[1]
	case "not between":
		return p.label + " fora de " + vals[0] + " a " + vals[1]
	case "in":
		return p.label + " em " + strings.Join(vals, ", ")
	case "not in":
		return p.label + " fora de " + strings.Join(vals, ", ")
	case "like":
		return p.label + " como " + quote(vals[0])
	case "not like":
		return p.label + " não como " + quote(vals[0])
	case "is null":
		return p.label + " nulo"
	case "is not null":
		return p.label + " não nulo"
	}
	return p.label + " " + p.Op + " " + vals[0]
}

func valueWords(v any) string {
	switch x := v.(type) {
	case float64:
		return ptbr.Number(x, -1)
	case string:
		if x == "" {
			return "(em branco)"
		}
		if dateRe.MatchString(x) {
			if t, err := time.Parse("2006-01-02", x); err == nil {
				return t.Format("02/01/2006")
			}
		}
		if len(x) == 19 && dateTimeRe.MatchString(x) {
			if t, err := time.Parse("2006-01-02 15:04:05", x); err == nil {
				return t.Format("02/01/2006 15:04")
			}
		}
		return x
	}
	return ""
}
