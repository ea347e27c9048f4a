package telemetry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

type fakePQ struct{ code, msg string }

func (e *fakePQ) Error() string    { return "pq: " + e.msg }
func (e *fakePQ) SQLState() string { return e.code }

func TestErrAttrCarriesNoValues(t *testing.T) {
	errs := []error{
		fmt.Errorf("decoding validated arguments: %w", errors.New(`decode QueryInput: callback: decode field "limit": strconv.ParseFloat: parsing "1e309": value out of range`)),
		fmt.Errorf("json: cannot unmarshal number 1e309 into Go struct field .appId of type int64"),
		fmt.Errorf("running query: %w", &fakePQ{"22008", `date/time field value out of range: "0000-01-01"`}),
		fmt.Errorf("searching: %w", &fakePQ{"22P02", `invalid input syntax for type numeric: '; DROP TABLE x; --'`}),
		errors.New("value " + strings.Repeat("9", 400) + " and `secret`"),
		&fakePQ{"42703", `column "VALOR" does not exist`},
		errors.New(`field "9999 OR 1=1" is odd`),
	}
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	for _, err := range errs {
		log.Error("tool failed", "tool", "query", ErrAttr(err))
	}
	out := buf.String()
	for _, v := range []string{"1e309", "0000-01-01", "DROP TABLE", "99999", "secret", "OR N", "OR 1"} {
		if strings.Contains(out, v) {
			t.Errorf("the log carries %q:\n%s", v, out)
		}
	}
	for _, want := range []string{`"sqlstate":"22008"`, `decode field \"limit\"`, `column \"VALOR\" does not exist`, `value out of range`, `type int64`} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %s:\n%s", want, out)
		}
	}
	var line map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &line); err != nil {
		t.Fatal(err)
	}
	if g, ok := line["err"].(map[string]any); !ok || g["text"] == "" {
		t.Errorf("err is not a group with a text: %v", line["err"])
	}
}
