package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
)

// UnknownCommand says, in Portuguese, that name is none of commands, with the closest ones; a
// name written as a flag (--verison) is suggested as one (--version, --help).
func UnknownCommand(name string, commands []string) string {
	msg := fmt.Sprintf("comando desconhecido %q", name)
	near := suggest.Similar(name, commands, 2)
	if bare := strings.TrimLeft(name, "-"); bare != name {
		near = suggest.Similar(bare, commands, 2)
		if bare == "v" || bare == "V" {
			near = []string{"version"}
		}
		for i, c := range near {
			if c == "version" || c == "help" {
				near[i] = "--" + c
			}
		}
	}
	if len(near) > 0 {
		msg += "; você quis dizer " + ptbr.QuotedOptions(near) + "?"
	} else {
		msg += "."
	}
	return msg + " Veja os comandos abaixo."
}

// UnknownAdminCommand says, in Portuguese, that the command args begin with is none of names
// (each one or two words: "tenant add", "audit"), with the closest ones: the pair first, else
// the first word among the objects; without any, the list of objects.
func UnknownAdminCommand(args, names []string, objects string) string {
	given := strings.Join(args[:min(2, len(args))], " ")
	slices.Sort(names)
	near := suggest.Similar(given, names, 3)
	if len(near) == 0 {
		first := map[string]bool{}
		for _, n := range names {
			first[strings.Fields(n)[0]] = true
		}
		near = suggest.Similar(args[0], slices.Sorted(maps.Keys(first)), 2)
	}
	msg := fmt.Sprintf("comando de administração desconhecido %q", given)
	if len(near) > 0 {
		return msg + "; você quis dizer " + ptbr.QuotedOptions(near) + "?"
	}
	return msg + "; os comandos são " + objects
}
