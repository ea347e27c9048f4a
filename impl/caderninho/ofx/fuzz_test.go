package ofx

import (
	"errors"
	"io/fs"
	"reflect"
	"testing"
	"time"

	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
	"github.com/lumo-caderninho/mcp/impl/platform/money"
)

// FuzzParse feeds the reader mutations of real statements: it must never panic, and it returns
// either every statement of a file or an *Error and nothing (never part of a file).
//
//	go test ./impl/caderninho/ofx -run '^$' -fuzz FuzzParse -fuzztime 60s -fuzzminimizetime 2s
//
// (the seeds are whole statements; the default minimisation of 60 s per new input stalls progress)
func FuzzParse(f *testing.F) {
	err := fs.WalkDir(demo.Caderninho, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || len(p) < 4 || p[len(p)-4:] != ".ofx" {
			return err
		}
		b, err := fs.ReadFile(demo.Caderninho, p)
		if err != nil {
			return err
		}
		f.Add(b)
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(xml2))
	f.Add([]byte("OFXHEADER:100\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL<BANKACCTFROM><ACCTID>1</BANKACCTFROM></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>"))
	f.Add([]byte("<OFX><A>&#x1F600;&amp;&bogus;</A></OFX>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sts, err := Parse(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Reason == "" || e.Line < 0 {
				t.Fatalf("error is not a described *Error: %#v", err)
			}
			if sts != nil {
				t.Fatalf("statements returned with an error")
			}
			return
		}
		if len(sts) == 0 {
			t.Fatal("no statements and no error")
		}
		for _, st := range sts {
			if _, ok := money.Exponent(st.Currency); !ok || st.Account == "" {
				t.Fatalf("statement without currency or account: %+v", st)
			}
			if st.HasPeriod && (!validDay(st.Start) || !validDay(st.End) || st.End < st.Start) {
				t.Fatalf("bad period %s..%s", st.Start, st.End)
			}
			for _, tr := range st.Transactions {
				if !validDay(tr.Posted.Day) {
					t.Fatalf("bad posted day %q", tr.Posted.Day)
				}
				if _, ok := money.Exponent(tr.Currency); !ok {
					t.Fatalf("bad transaction currency %q", tr.Currency)
				}
			}
		}
		again, err := Parse(data)
		if err != nil || !reflect.DeepEqual(sts, again) {
			t.Fatal("parsing twice differs")
		}
	})
}

func validDay(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}
