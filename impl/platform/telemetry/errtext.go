package telemetry

import (
	"context"
	"errors"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
)

// Logs never carry an argument value. An error's text often does: a decoder repeats the number
// it could not hold (1e309), a driver the value it could not cast ("0000-01-01"). ErrAttr is how
// every error reaches a log line instead: its text with every quoted text and every number
// replaced ("…" and N) except names the text calls a field, column, table, relation, constraint
// or index (schema names, not values), and the driver's error code when there is one (SQLSTATE on PostgreSQL,
// the result code on SQLite), so the line still says what failed and where.

var (
	quoted = regexp.MustCompile(`((?:field|column|table|relation|constraint|index) )?` +
		`("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`[^`]*`)")
	name    = regexp.MustCompile(`^["'\x60\\]*[A-Za-z_][A-Za-z0-9_.]{0,62}["'\x60\\]*$`)
	numbers = regexp.MustCompile(`[-+]?\b[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\b`)
)

// maxErrText bounds the logged text: a value the patterns miss cannot fill the log.
const maxErrText = 400

// Redact is msg without the texts and numbers it quotes.
func Redact(msg string) string {
	var b strings.Builder
	last := 0
	for _, m := range quoted.FindAllStringSubmatchIndex(msg, -1) {
		q := msg[m[4]:m[5]]
		b.WriteString(numbers.ReplaceAllString(msg[last:m[4]], "N"))
		if m[2] >= 0 && name.MatchString(q) {
			b.WriteString(q)
		} else {
			b.WriteString(q[:1] + "…" + q[len(q)-1:])
		}
		last = m[1]
	}
	b.WriteString(numbers.ReplaceAllString(msg[last:], "N"))
	msg = b.String()
	if r := []rune(msg); len(r) > maxErrText {
		msg = string(r[:maxErrText]) + "…"
	}
	return msg
}

// ErrAttr is err for a log line: a group with the redacted text and, when the chain holds a
// database error, its code.
func ErrAttr(err error) slog.Attr {
	if err == nil {
		return slog.String("err", "")
	}
	attrs := []any{slog.String("text", Redact(err.Error()))}
	var pg interface{ SQLState() string }
	if errors.As(err, &pg) {
		attrs = append(attrs, slog.String("sqlstate", pg.SQLState()))
	}
	var lite interface{ Code() int }
	if errors.As(err, &lite) {
		attrs = append(attrs, slog.String("sqlite_code", strconv.Itoa(lite.Code())))
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		attrs = append(attrs, slog.String("cause", "deadline"))
	case errors.Is(err, context.Canceled):
		attrs = append(attrs, slog.String("cause", "canceled"))
	}
	return slog.Group("err", attrs...)
}
