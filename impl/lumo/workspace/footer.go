package workspace

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Spreadsheets carry rows that are not data: a total or subtotal under the values, and notes
// below a blank row ("Fonte: ERP, emitido em 05/10"). Read as data, a total doubles the sums
// and turns a date or key column into text. The readers skip them and say which they skipped.

// totalRe is the first cell of a total row, folded: Total, Subtotal, Total geral, Totais,
// Soma, or Total/Subtotal followed by de/do/da... ("Total de outubro", "Subtotal Centro" is
// not, since a name may start with Total).
var totalRe = regexp.MustCompile(`^(sub-?total|subtotal|total|totais|total geral|soma|soma total|total parcial)$|^(sub-?total|total) (de|do|da|dos|das|geral|parcial|mensal|anual|acumulado)( |$)`)

// isTotal reports whether text, the first filled cell of a row, opens a total row.
func isTotal(text string) bool {
	if len(text) > 80 {
		return false
	}
	// Every total word starts with s or t: a first cell that starts with another ASCII character
	// (a number, a date, most names) is out before folding and matching, which took 6% of a CSV
	// import's CPU.
	if t := strings.TrimLeft(text, " \t\n\v\f\r"); t != "" && t[0] < utf8.RuneSelf && t[0]|0x20 != 's' && t[0]|0x20 != 't' {
		return false
	}
	return totalRe.MatchString(strings.TrimRight(fold.Fold(text), ": "))
}

// noteLike reports whether text, the only filled cell of a row under a blank row, in the table's
// first column, reads as a note ("Fonte: ERP", "Valores em reais") rather than a value: letters,
// and a space or a colon.
func noteLike(text string) bool {
	return strings.IndexFunc(text, unicode.IsLetter) >= 0 && strings.ContainsAny(text, " :")
}

// skippedRow is a row a reader left out, and why.
type skippedRow struct {
	line int
	text string
	note bool // a note under a blank row, else a total row
}

// maxSkippedShown bounds the rows a description lists; the count is always whole.
const maxSkippedShown = 5

// skippedWords is ", 1 linha de total pulada (linha 8: "Total")" for a description, or "".
func skippedWords(rows []skippedRow) string {
	if len(rows) == 0 {
		return ""
	}
	var parts []string
	for i, s := range rows {
		if i == maxSkippedShown {
			parts = append(parts, "...")
			break
		}
		what := "total"
		if s.note {
			what = "nota depois de uma linha em branco"
		}
		t := []rune(s.text)
		if len(t) > 40 {
			t = append(t[:40], '…')
		}
		parts = append(parts, fmt.Sprintf("linha %d, %s: %q", s.line, what, string(t)))
	}
	return fmt.Sprintf(", %s (%s)", ptbr.Count(len(rows), "linha que não é dado pulada", "linhas que não são dados puladas"), strings.Join(parts, "; "))
}
