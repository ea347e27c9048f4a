package lumo

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Conversions from the semantic model to the generated output models of schemas/lumo; tests
// validate every result against the published output schemas.

func outApp(a *semantic.App) lumoapi.GetAppOutputApp {
	v := lumoapi.GetAppOutputApp{ID: lumoapi.AppId(a.ID), Name: a.Name, Description: nilString(a.Description),
		Desk: nilStringPtr(a.Desk), ClonedFrom: lumoapi.NilAppRef{Null: true}, PublishedAt: nilTime(a.PublishedAt)}
	if a.ClonedFrom != nil {
		v.ClonedFrom = lumoapi.NewNilAppRef(lumoapi.AppRef{ID: lumoapi.AppId(a.ClonedFrom.ID), Name: a.ClonedFrom.Name})
	}
	return v
}

func refOf(a *semantic.App) lumoapi.AppRef {
	return lumoapi.AppRef{ID: lumoapi.AppId(a.ID), Name: a.Name}
}

// nilString is null for "": the spec's texts that an app may leave out.
func nilString(s string) lumoapi.NilString {
	if s == "" {
		return lumoapi.NilString{Null: true}
	}
	return lumoapi.NewNilString(s)
}

func nilStringPtr(s *string) lumoapi.NilString {
	if s == nil {
		return lumoapi.NilString{Null: true}
	}
	return lumoapi.NewNilString(*s)
}

func nilUnit(u string) lumoapi.NilUnit {
	if u == "" {
		return lumoapi.NilUnit{Null: true}
	}
	return lumoapi.NewNilUnit(lumoapi.Unit(u))
}

// optNilUnit is a unit that is always sent, null included.
func optNilUnit(u string) lumoapi.OptNilUnit {
	return lumoapi.OptNilUnit{Value: lumoapi.Unit(u), Set: true, Null: u == ""}
}

// nilTime is the instant at Brasília's offset, as ptbr.ISO writes it; null for nil.
func nilTime(t *time.Time) lumoapi.NilDateTime {
	if t == nil {
		return lumoapi.NilDateTime{Null: true}
	}
	return lumoapi.NewNilDateTime(t.In(ptbr.Brasilia))
}

// fieldFor is the object a column goes into query's fields with: measures are summed, technical
// keys counted distinct, everything else groups.
func fieldFor(c *semantic.Column) lumoapi.Field {
	f := lumoapi.Field{Ref: lumoapi.Ref(c.Ref())}
	switch {
	case c.Role == semantic.RoleMeasure && c.Type == semantic.TypeNumber:
		f.Agg = lumoapi.NewOptAgg(lumoapi.AggSum)
	case c.Role == semantic.RoleKey:
		f.Agg = lumoapi.NewOptAgg(lumoapi.AggCountDistinct)
	}
	return f
}

// fieldText is a field as the texts show it, ref first: {"ref":"Vendas.Valor","agg":"sum"}.
func fieldText(f lumoapi.Field) string {
	s := fmt.Sprintf(`{"ref":%s`, jsonString(string(f.Ref)))
	if agg, ok := f.Agg.Get(); ok {
		s += `,"agg":` + jsonString(string(agg))
	}
	if b, ok := f.Bucket.Get(); ok {
		s += `,"bucket":` + jsonString(string(b))
	}
	return s + "}"
}

// example is the ready query call of a valid indicator, with refs in canonical form.
func example(a *semantic.App, ind *semantic.Indicator) lumoapi.OptQueryCall {
	if ind.Problem != "" {
		return lumoapi.OptQueryCall{}
	}
	call := lumoapi.QueryCall{AppId: lumoapi.AppId(a.ID), Fields: []lumoapi.Field{}}
	for _, it := range ind.Fields {
		call.Fields = append(call.Fields, lumoapi.Field{Ref: canonicalRef(a, it["ref"]), Agg: optAgg(it["agg"]), Bucket: optBucket(it["bucket"])})
	}
	for _, it := range ind.Filters {
		f := lumoapi.ColumnFilter{Ref: canonicalRef(a, it["ref"]), Agg: optAgg(it["agg"]), Bucket: optBucket(it["bucket"])}
		op, _ := it["op"].(string)
		f.Op = lumoapi.Op(op)
		if v, ok := it["value"]; ok {
			f.Value = lumoapi.NewOptFilterValue(filterValue(v))
		}
		call.Filters = append(call.Filters, lumoapi.NewColumnFilterFilter(f))
	}
	return lumoapi.NewOptQueryCall(call)
}

func canonicalRef(a *semantic.App, v any) lumoapi.Ref {
	ref, _ := v.(string)
	if t, err := a.Resolve(ref); err == nil {
		if t.Column != nil {
			return lumoapi.Ref(t.Column.Ref())
		}
		return lumoapi.Ref(t.Expression.Label)
	}
	return lumoapi.Ref(ref)
}

func optAgg(v any) lumoapi.OptAgg {
	if s, ok := v.(string); ok {
		return lumoapi.NewOptAgg(lumoapi.Agg(s))
	}
	return lumoapi.OptAgg{}
}

func optBucket(v any) lumoapi.OptBucket {
	if s, ok := v.(string); ok {
		return lumoapi.NewOptBucket(lumoapi.Bucket(s))
	}
	return lumoapi.OptBucket{}
}

// filterValue is an indicator's stored filter value (a text, a number or a list of them).
func filterValue(v any) lumoapi.FilterValue {
	switch x := v.(type) {
	case string:
		return lumoapi.NewStringFilterValue(x)
	case []any:
		list := make([]lumoapi.Scalar, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				list = append(list, lumoapi.NewStringScalar(s))
			} else {
				list = append(list, lumoapi.NewFloat64Scalar(number(e)))
			}
		}
		return lumoapi.NewScalarArrayFilterValue(list)
	}
	return lumoapi.NewFloat64FilterValue(number(v))
}

func number(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case interface{ Float64() (float64, error) }: // json.Number
		f, _ := x.Float64()
		return f
	}
	return 0
}

// cells turns a result row (string, float64 or nil cells) into the generated cells.
func cells(row []any) []lumoapi.Cell {
	out := make([]lumoapi.Cell, len(row))
	for i, x := range row {
		switch v := x.(type) {
		case nil:
			out[i] = lumoapi.NewNullCell(struct{}{})
		case string:
			out[i] = lumoapi.NewStringCell(v)
		case float64:
			out[i] = lumoapi.NewFloat64Cell(v)
		default:
			out[i] = lumoapi.NewStringCell(fmt.Sprint(v))
		}
	}
	return out
}

// sameFolded reports whether two names are equal ignoring accents and case.
func sameFolded(a, b string) bool { return fold.Fold(a) == fold.Fold(b) }

// jsonString is s as a JSON string, escaped as encoding/json does.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
