package cli

import (
	"fmt"

	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
)

// UnknownCommand says, in Portuguese, that name is none of commands, with the closest ones.
func UnknownCommand(name string, commands []string) string {
	msg := fmt.Sprintf("comando desconhecido %q", name)
	if near := suggest.Similar(name, commands, 2); len(near) > 0 {
		msg += "; você quis dizer " + ptbr.QuotedOptions(near) + "?"
	} else {
		msg += "."
	}
	return msg + " Veja os comandos abaixo."
}
