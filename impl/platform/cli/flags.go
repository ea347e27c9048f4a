package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/impl/platform/printable"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
)

// ErrHelpShown is returned once a command's help was written because the user asked for it; the
// program exits 0.
var ErrHelpShown = errors.New("ajuda mostrada")

// UsageError is a command line that does not parse. The program prints it with a pointer to the
// command's help and exits 2.
type UsageError struct {
	Command string // "lumo import"
	Msg     string
}

func (e *UsageError) Error() string { return e.Command + ": " + e.Msg }

// Hint is the line that follows a usage error.
func (e *UsageError) Hint() string { return "Veja as opções com: " + e.Command + " -h" }

// Command is one subcommand, for its help and its errors: Go's flag package prints English
// ("Usage of import:", "(default 1h0m0s)", "flag provided but not defined") and none of it may
// reach a user, so a Command's flag set prints nothing and Parse speaks Portuguese.
type Command struct {
	Name     string   // "lumo import"
	Args     string   // what follows the options in the usage line: "caminho/workspace.yaml"
	Summary  string   // what it does, one or more lines
	Examples []string // whole command lines
	Notes    string   // printed after the options, when set
}

// FlagSet is an empty flag set for c that writes nothing itself.
func (c Command) FlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// IsHelp reports whether args ask for help: -h, -help or --help before any "--", or "help" alone.
func IsHelp(args []string) bool {
	if len(args) == 1 && args[0] == "help" {
		return true
	}
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// Parse parses args into fs (made by FlagSet). A request for help writes c's help to stdout and
// returns ErrHelpShown; anything the flag package refuses comes back as a *UsageError in
// Portuguese, naming the nearest flag to an unknown one.
func (c Command) Parse(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	if IsHelp(args) {
		c.Help(stdout, fs)
		return ErrHelpShown
	}
	if err := fs.Parse(args); err != nil {
		return c.FlagError(fs, err)
	}
	return nil
}

// Help writes c's usage, what it does, its flags with their defaults, and examples.
func (c Command) Help(w io.Writer, fs *flag.FlagSet) {
	usage := c.Name
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		usage += " [opções]"
	}
	if c.Args != "" {
		usage += " " + c.Args
	}
	fmt.Fprintf(w, "Uso: %s\n", usage)
	if c.Summary != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.Summary, "\n"))
	}
	if hasFlags {
		fmt.Fprint(w, "\nOpções:\n")
		PrintFlags(w, fs)
	}
	if c.Notes != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.Notes, "\n"))
	}
	if len(c.Examples) > 0 {
		fmt.Fprint(w, "\nExemplos:\n")
		for _, e := range c.Examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}

// PrintFlags writes fs's flags as Go's PrintDefaults does, in Portuguese: `--name valor`, the
// usage, and the default when it is not the zero value (`(padrão 1h)`). A usage that names its
// own default ("(padrão: LUMO_DB ...)") keeps it: such defaults come from the environment and may
// hold a secret.
func PrintFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		if name == "value" && isInteger(f.DefValue) {
			name = "int"
		}
		line := "  --" + f.Name
		if arg := argWord(name); arg != "" {
			line += " " + arg
		}
		if d := defaultText(f); d != "" && !strings.Contains(usage, "(padrão") {
			// "... (0 = sem limite)" becomes "... (padrão 60; 0 = sem limite)"
			if i := strings.LastIndex(usage, " ("); i >= 0 && strings.HasSuffix(usage, ")") {
				usage = usage[:i] + " (padrão " + d + "; " + usage[i+2:]
			} else {
				usage += " (padrão " + d + ")"
			}
		}
		line += "\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t")
		fmt.Fprintln(w, line)
	})
}

func isInteger(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// argWord is the placeholder of a flag's value: the backquoted word of its usage, or its type.
func argWord(name string) string {
	switch name {
	case "":
		return "" // a boolean
	case "string":
		return "texto"
	case "duration":
		return "duração"
	case "int", "uint":
		return "n"
	case "float":
		return "número"
	case "value":
		return "valor"
	}
	return name
}

// defaultText is a flag's default as a user would type it, or "" for the zero value.
func defaultText(f *flag.Flag) string {
	switch v := f.Value.(type) {
	case flag.Getter:
		switch g := v.Get().(type) {
		case time.Duration:
			if g == 0 {
				return ""
			}
			return Duration(g)
		case bool:
			if g {
				return "true"
			}
			return ""
		case string:
			if g == "" {
				return ""
			}
			return fmt.Sprintf("%q", g)
		}
	}
	if f.DefValue == "" || f.DefValue == "0" || f.DefValue == "false" || f.DefValue == "[]" {
		return ""
	}
	return f.DefValue
}

// Duration writes d without its zero parts: 1h, 30m, 720h, 1m30s, 500ms.
func Duration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

var (
	reUndefined = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	reNeedsArg  = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
	reInvalid   = regexp.MustCompile(`^invalid (?:boolean )?value (".*") for (?:flag )?-+([^:]*): (.*)$`)
	reBoolFlag  = regexp.MustCompile(`^invalid boolean flag ([^:]*): (.*)$`)
	reSyntax    = regexp.MustCompile(`^bad flag syntax: (.*)$`)
)

// FlagError turns an error of fs.Parse into a Portuguese *UsageError. The flag package's errors
// are plain texts; each of their forms is matched here, and a form this does not know still
// comes out in Portuguese, without the English text.
func (c Command) FlagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	switch {
	case errors.Is(err, flag.ErrHelp):
		return &UsageError{Command: c.Name, Msg: "peça a ajuda com -h"}
	case reUndefined.MatchString(msg):
		name := reUndefined.FindStringSubmatch(msg)[1]
		return &UsageError{Command: c.Name, Msg: unknownFlag(name, fs)}
	case reNeedsArg.MatchString(msg):
		name := reNeedsArg.FindStringSubmatch(msg)[1]
		return &UsageError{Command: c.Name, Msg: fmt.Sprintf("--%s precisa de um valor%s", name, valueHint(fs.Lookup(name)))}
	case reInvalid.MatchString(msg):
		m := reInvalid.FindStringSubmatch(msg)
		return &UsageError{Command: c.Name, Msg: fmt.Sprintf("valor inválido %s para --%s%s", m[1], m[2], valueHint(fs.Lookup(m[2])))}
	case reBoolFlag.MatchString(msg):
		m := reBoolFlag.FindStringSubmatch(msg)
		return &UsageError{Command: c.Name, Msg: fmt.Sprintf("valor inválido em %s: use true ou false", m[1])}
	case reSyntax.MatchString(msg):
		return &UsageError{Command: c.Name, Msg: fmt.Sprintf("opção mal escrita: %s (escreva --nome ou --nome=valor)", reSyntax.FindStringSubmatch(msg)[1])}
	}
	return &UsageError{Command: c.Name, Msg: "opções que não entendi"}
}

// unknownFlag names the nearest flags of fs to name.
func unknownFlag(name string, fs *flag.FlagSet) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	msg := fmt.Sprintf("opção desconhecida --%s", name)
	if near := suggest.Similar(name, names, 2); len(near) > 0 {
		for i := range near {
			near[i] = "--" + near[i]
		}
		return msg + "; você quis dizer " + ptbr.QuotedOptions(near) + "?"
	}
	if len(names) == 0 {
		return msg + "; este comando não tem opções"
	}
	return msg
}

// valueHint says what a flag's value looks like.
func valueHint(f *flag.Flag) string {
	if f == nil {
		return ""
	}
	name, _ := flag.UnquoteUsage(f)
	switch name {
	case "duration":
		return ": use uma duração como 30s, 5m ou 1h"
	case "int", "uint":
		return ": use um número inteiro"
	case "float":
		return ": use um número"
	case "":
		return ": use true ou false"
	}
	return ""
}

// UnknownSubcommand says, in Portuguese, that name is none of a command's subcommands, with the
// closest ones.
func UnknownSubcommand(command, name string, subcommands []string) *UsageError {
	msg := fmt.Sprintf("subcomando desconhecido %q", name)
	if near := suggest.Similar(name, subcommands, 2); len(near) > 0 {
		msg += "; você quis dizer " + ptbr.QuotedOptions(near) + "?"
	} else {
		msg += "; os subcomandos são " + strings.Join(subcommands, ", ")
	}
	return &UsageError{Command: command, Msg: msg}
}

// Exit reports err on stderr as program's last words and returns the exit status: 0 without an
// error or after help asked for; 2 after a usage error (with a pointer to the help) or when the
// usage was already printed (flag.ErrHelp); 2 for any other failure, its message on one line.
// A control character in the message (a name in it) is written as its escape.
func Exit(program string, err error, stderr io.Writer) int {
	var ue *UsageError
	switch {
	case err == nil, errors.Is(err, ErrHelpShown):
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 2
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "%s\n%s\n", printable.Text(ue.Error()), ue.Hint())
		return 2
	}
	fmt.Fprintf(stderr, "%s: %s\n", program, printable.Text(strings.TrimRight(err.Error(), "\n")))
	return 2
}
