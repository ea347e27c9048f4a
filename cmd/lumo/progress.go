package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// stderr is where import progress and its summary go (a variable for tests).
var stderr io.Writer = os.Stderr

// isTerminal reports whether w is a terminal, where a progress line that rewrites itself makes
// sense; a file, a pipe or /dev/null (a character device, but no terminal) gets only the summary.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// importProgress prints rows, rows/s and the ETA on one rewritten line, at most 4 times a second.
type importProgress struct {
	w     io.Writer
	start time.Time
	last  time.Time
	drawn bool
}

func (p *importProgress) update(pr store.Progress) {
	now := time.Now()
	if now.Sub(p.last) < 250*time.Millisecond && pr.Rows != pr.TotalRows {
		return
	}
	p.last = now
	elapsed := now.Sub(p.start).Seconds()
	rate := 0.0
	if elapsed > 0 {
		rate = float64(pr.Rows) / elapsed
	}
	eta := "?"
	if rate > 0 && pr.TotalRows >= pr.Rows {
		eta = seconds(float64(pr.TotalRows-pr.Rows) / rate)
	}
	if pr.Rows > pr.TotalRows { // rows of workbooks, which the total does not count
		fmt.Fprintf(p.w, "\r\033[K%s, %s linhas/s", rowCount(pr.Rows), ptbr.Int(int64(rate)))
	} else {
		fmt.Fprintf(p.w, "\r\033[K%s de %s, %s linhas/s, faltam ~%s", ptbr.Int(pr.Rows), rowCount(pr.TotalRows), ptbr.Int(int64(rate)), eta)
	}
	p.drawn = true
}

// summary ends the progress line and always prints one line: rows, time and rate.
func (p *importProgress) summary(rows int64) {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
	elapsed := time.Since(p.start).Seconds()
	rate := int64(0)
	if elapsed > 0 {
		rate = int64(float64(rows) / elapsed)
	}
	fmt.Fprintf(p.w, "Importação concluída: %s em %s (%s linhas/s).\n", rowCount(rows), seconds(elapsed), ptbr.Int(rate))
}

// rowCount is "1 linha", "2 linhas", "1.000 linhas".
func rowCount(n int64) string {
	return ptbr.Int(n) + " " + ptbr.Plural(int(min(n, 2)), "linha", "linhas")
}

// seconds is a duration in seconds with a decimal comma (1,5 s).
func seconds(s float64) string {
	return strings.Replace(strconv.FormatFloat(s, 'f', 1, 64), ".", ",", 1) + " s"
}
