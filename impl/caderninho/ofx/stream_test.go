package ofx

import (
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
)

// sameAsTree fails t when Parse and the former tree parser disagree on data: the statements, or
// the error's line and reason.
func sameAsTree(t *testing.T, name string, data []byte) {
	t.Helper()
	want, werr := treeParse(data)
	got, gerr := Parse(data)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%s: tree error %v, stream error %v", name, werr, gerr)
	}
	if werr != nil {
		var we, ge *Error
		if !errors.As(werr, &we) || !errors.As(gerr, &ge) || *we != *ge {
			t.Fatalf("%s: tree error %#v, stream error %#v", name, werr, gerr)
		}
		if got != nil {
			t.Fatalf("%s: statements with an error", name)
		}
		return
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%s: statements differ:\ntree   %+v\nstream %+v", name, want, got)
	}
}

// corpus is every demo statement, the XML sample and a large generated statement (large enough
// for the reader to jump over its transaction list).
func corpus(t testing.TB) map[string]string {
	out := map[string]string{"xml2": xml2, "large": largeStatement(1000)}
	err := fs.WalkDir(demo.Caderninho, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ofx") {
			return err
		}
		b, err := fs.ReadFile(demo.Caderninho, p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func largeStatement(n int) string {
	var b strings.Builder
	b.WriteString("OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nENCODING:USASCII\nCHARSET:1252\n\n<OFX>\n<SIGNONMSGSRSV1>\n<SONRS>\n" +
		"<STATUS><CODE>0<SEVERITY>INFO</STATUS>\n</SONRS>\n</SIGNONMSGSRSV1>\n<BANKMSGSRSV1>\n<STMTTRNRS>\n<STATUS><CODE>0</STATUS>\n" +
		"<STMTRS>\n<CURDEF>BRL\n<BANKACCTFROM>\n<BANKID>1\n<ACCTID>123-4\n<ACCTTYPE>CHECKING\n</BANKACCTFROM>\n" +
		"<BANKTRANLIST>\n<DTSTART>20260101\n<DTEND>20260131\n")
	for i := range n {
		fmt.Fprintf(&b, "<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>202601%02d\n<TRNAMT>-%d.%02d\n<FITID>F%d\n<MEMO>COMPRA %d\n</STMTTRN>\n",
			1+i%31, i, i%100, i, i)
	}
	b.WriteString("</BANKTRANLIST>\n<LEDGERBAL>\n<BALAMT>10.00\n<DTASOF>20260131\n</LEDGERBAL>\n</STMTRS>\n</STMTTRNRS>\n" +
		"</BANKMSGSRSV1>\n<CREDITCARDMSGSRSV1>\n<CCSTMTTRNRS>\n<CCSTMTRS>\n<CURDEF>BRL\n<CCACCTFROM>\n<ACCTID>9999\n</CCACCTFROM>\n" +
		"<BANKTRANLIST>\n<DTSTART>20260101\n<DTEND>20260131\n<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20260105\n<TRNAMT>-1.00\n" +
		"<FITID>C1\n</STMTTRN>\n</BANKTRANLIST>\n</CCSTMTRS>\n</CCSTMTTRNRS>\n</CREDITCARDMSGSRSV1>\n</OFX>\n")
	return b.String()
}

// mutations are edits that break, reorder or duplicate a statement's parts, so the two parsers
// meet errors in different places and must still report the same one.
func mutations(text string) map[string]string {
	lines := strings.SplitAfter(text, "\n")
	out := map[string]string{}
	step := 1
	if len(lines) > 400 {
		step = len(lines) / 100 // the large statement: a sample of its lines
	}
	join := func(ls []string) string { return strings.Join(ls, "") }
	for i := 0; i < len(lines); i += step {
		out[fmt.Sprintf("drop line %d", i+1)] = join(append(append([]string(nil), lines[:i]...), lines[i+1:]...))
		out[fmt.Sprintf("cut at line %d", i+1)] = join(lines[:i])
		dup := append(append(append([]string(nil), lines[:i+1]...), lines[i]), lines[i+1:]...)
		out[fmt.Sprintf("repeat line %d", i+1)] = join(dup)
		if i+1 < len(lines) {
			sw := append([]string(nil), lines...)
			sw[i], sw[i+1] = sw[i+1], sw[i]
			out[fmt.Sprintf("swap lines %d-%d", i+1, i+2)] = join(sw)
		}
		// move the line to the end of the file and to its start
		rest := append(append([]string(nil), lines[:i]...), lines[i+1:]...)
		out[fmt.Sprintf("line %d last", i+1)] = join(append(append([]string(nil), rest...), lines[i]))
		out[fmt.Sprintf("line %d in the middle", i+1)] = join(append(append(append([]string(nil), rest[:len(rest)/2]...), lines[i]), rest[len(rest)/2:]...))
	}
	for _, r := range [][2]string{
		{"<TRNAMT>", "<TRNAMT>x"}, {"<DTPOSTED>", "<DTPOSTED>2026"}, {"<CURDEF>BRL", "<CURDEF>XXX"}, {"<CODE>0", "<CODE>9"},
		{"</STMTTRN>", ""}, {"</BANKTRANLIST>", ""}, {"</LEDGERBAL>", ""}, {"<STMTTRN>", "<STMTTRN>v"}, {"<FITID>", "<FITID/>"},
		{"<DTEND>", "<DTEND>1999"}, {"<BALAMT>", "<BALAMT>?"}, {"<ACCTID>", "<ACCTID></ACCTID>"}, {"<MEMO>", "<MEMO>&amp;&#233;"},
		{"</STMTRS>", "<CURDEF>USD</STMTRS>"}, {"</STMTRS>", "<LEDGERBAL><BALAMT>1<DTASOF>20260101</LEDGERBAL></STMTRS>"},
		{"<CURDEF>", "<CURRENCY><CURSYM>USD</CURRENCY><CURDEF>"}, {"<STMTTRN>", "<STMTTRN><CURRENCY><CURSYM>ZZZ</CURRENCY>"},
		{"<BANKTRANLIST>", "<BANKTRANLIST><!-- x -->"}, {"<BANKTRANLIST>", "<BANKTRANLIST><!-- x"}, {"<STMTTRN>", "<STMTTRN><NAME>"},
	} {
		if !strings.Contains(text, r[0]) {
			continue
		}
		out["first "+r[0]+" -> "+r[1]] = strings.Replace(text, r[0], r[1], 1)
		if i := strings.LastIndex(text, r[0]); i >= 0 {
			out["last "+r[0]+" -> "+r[1]] = text[:i] + r[1] + text[i+len(r[0]):]
		}
		out["every "+r[0]+" -> "+r[1]] = strings.ReplaceAll(text, r[0], r[1])
	}
	return out
}

// TestStreamMatchesTree compares the streaming reader with the tree parser it replaced over the
// corpus and thousands of broken variants of it: same statements, same first error.
func TestStreamMatchesTree(t *testing.T) {
	n := 0
	for name, text := range corpus(t) {
		sameAsTree(t, name, []byte(text))
		for m, data := range mutations(text) {
			sameAsTree(t, name+": "+m, []byte(data))
			n++
		}
	}
	t.Logf("%d variants", n)
}

// FuzzStreamMatchesTree is TestStreamMatchesTree on the fuzzer's mutations:
//
//	go test ./impl/caderninho/ofx -run '^$' -fuzz FuzzStreamMatchesTree -fuzztime 60s -fuzzminimizetime 2s
func FuzzStreamMatchesTree(f *testing.F) {
	for _, text := range corpus(f) {
		if len(text) < 1<<16 {
			f.Add([]byte(text))
		}
	}
	f.Add([]byte("<OFX><A>&#x1F600;&amp;&bogus;</A></OFX>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsTree(t, "input", data)
	})
}

// TestASCIICharsetsDecodeToThemselves backs decode's shortcut: an ASCII-only file is read as is,
// whatever single-byte charset it declares.
func TestASCIICharsetsDecodeToThemselves(t *testing.T) {
	b := make([]byte, 128)
	for i := range b {
		b[i] = byte(i)
	}
	for _, c := range []*charmap.Charmap{charmap.Windows1252, charmap.ISO8859_1, charmap.ISO8859_15, charmap.CodePage850, charmap.CodePage437} {
		if out, err := c.NewDecoder().Bytes(b); err != nil || string(out) != string(b) {
			t.Errorf("%v decodes ASCII as %q (%v)", c, out, err)
		}
	}
	if !ascii(b) || ascii(append(b, 0x80)) || ascii([]byte("1234567\xe9")) {
		t.Error("ascii is wrong")
	}
}
