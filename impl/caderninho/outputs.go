package caderninho

import (
	"time"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Conversions from the store's values to the generated output models of schemas/caderninho;
// tests validate every result against the published output schemas.

// dayOf is a local day (YYYY-MM-DD) as the generated models hold it.
func dayOf(s string) caderninhoapi.Day {
	t, _ := time.Parse(time.DateOnly, s)
	return caderninhoapi.Day(t)
}

// dayString is a generated day as YYYY-MM-DD.
func dayString(d caderninhoapi.Day) string { return time.Time(d).Format(time.DateOnly) }

// dayText is a generated day as the texts write it (DD/MM/AAAA).
func dayText(d caderninhoapi.Day) string { return ptbr.Day(dayString(d)) }

// dateText is a nullable day's value as the texts write it.
func dateText(d caderninhoapi.NilDate) string { return ptbr.Day(d.Value.Format(time.DateOnly)) }

func nilDate(s *string) caderninhoapi.NilDate {
	if s == nil {
		return caderninhoapi.NilDate{Null: true}
	}
	return caderninhoapi.NewNilDate(time.Time(dayOf(*s)))
}

func nilString(s *string) caderninhoapi.NilString {
	if s == nil {
		return caderninhoapi.NilString{Null: true}
	}
	return caderninhoapi.NewNilString(*s)
}

// stringPtr is a nullable string as a pointer, nil for null.
func stringPtr(s caderninhoapi.NilString) *string {
	if s.Null {
		return nil
	}
	return &s.Value
}

func periodOf(p cadstore.Period) caderninhoapi.Period {
	return caderninhoapi.Period{From: dayOf(p.From), To: dayOf(p.To)}
}

func nilPeriod(p *cadstore.Period) caderninhoapi.NilPeriod {
	if p == nil {
		return caderninhoapi.NilPeriod{Null: true}
	}
	return caderninhoapi.NewNilPeriod(periodOf(*p))
}

func periodsOf(ps []cadstore.Period) []caderninhoapi.Period {
	out := make([]caderninhoapi.Period, 0, len(ps))
	for _, p := range ps {
		out = append(out, periodOf(p))
	}
	return out
}

// moneyOf is an exact amount: minor units as a string, never a float.
func moneyOf(minor int64, currency string) caderninhoapi.Money {
	m := money.Of(minor, currency)
	return caderninhoapi.Money{AmountMinor: m.AmountMinor, Currency: m.Currency}
}

func moneyText(m caderninhoapi.Money) string { return ptbr.Money(m.AmountMinor, m.Currency) }

// instant is a stored UTC instant in the installation's time zone; null for nil (and for a
// stored text that is not an instant, which the store never writes).
func (rc *readContext) instant(s *string) caderninhoapi.NilDateTime {
	if s == nil {
		return caderninhoapi.NilDateTime{Null: true}
	}
	t, err := time.Parse(time.RFC3339, *s)
	if err != nil {
		return caderninhoapi.NilDateTime{Null: true}
	}
	return caderninhoapi.NewNilDateTime(t.In(rc.inst.Location))
}

// instantText is an instant as the texts write it, in its own zone.
func instantText(t time.Time) string { return t.Format("02/01/2006 15:04") }
