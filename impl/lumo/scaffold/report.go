package scaffold

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/workspace"
	"github.com/lumo-caderninho/mcp/impl/platform/printable"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

// Report writes, in Portuguese, what Init wrote: every table with its source, rows, measures,
// dates and keys; the relationships inferred and those left out, with the reasons; what was not
// used and why; the user's token and the commands that follow. Names that do not print as
// themselves (a control character, a line break) are quoted with their escapes.
func Report(w io.Writer, res *Result) {
	name := printable.Name
	fmt.Fprintf(w, "Escrevi %s e %s.\n", name(res.Workspace), name(res.App))
	fmt.Fprintf(w, "\n%s:\n", ptbr.Count(len(res.Tables), "Tabela", "Tabelas"))
	for _, t := range res.Tables {
		fmt.Fprintf(w, "  %s (%s): %s\n", name(t.Label), ptbr.TableKind(t.Kind), name(t.Source))
		var measures, dates, keys []string
		for _, c := range t.Columns {
			switch {
			case c.Role == "measure":
				measures = append(measures, c.Label+unitWords(c.Unit))
			case c.Type == "date" || c.Type == "datetime":
				dates = append(dates, c.Label)
			case c.Role == "key":
				keys = append(keys, c.Label)
			}
		}
		fmt.Fprintf(w, "    %s, %s: %s, %s, %s\n", ptbr.Count(int(t.Rows), "linha", "linhas"), ptbr.Count(len(t.Columns), "coluna", "colunas"),
			listed(measures, "medida", "medidas"), listed(dates, "data", "datas"), listed(keys, "chave", "chaves"))
		if how := t.how(); how != "" {
			fmt.Fprintf(w, "    lido: %s\n", name(how))
		}
		if t.Note != "" {
			fmt.Fprintf(w, "    %s\n", name(t.Note))
		}
	}
	if len(res.Relationships) > 0 {
		fmt.Fprintf(w, "\n%s:\n", ptbr.Count(len(res.Relationships), "Relacionamento", "Relacionamentos"))
		for _, r := range res.Relationships {
			fmt.Fprintf(w, "  %s → %s: %s\n", name(r.From), name(r.To), name(r.Reason))
		}
	} else if len(res.Tables) > 1 {
		fmt.Fprint(w, "\nNenhum relacionamento: nenhuma coluna de uma tabela tem o nome e os valores da chave de outra.\n")
	}
	if len(res.Declined) > 0 {
		fmt.Fprint(w, "\nNão liguei:\n")
		for _, r := range res.Declined {
			fmt.Fprintf(w, "  %s → %s: %s\n", name(r.From), name(r.To), name(r.Reason))
		}
	}
	if len(res.Skipped) > 0 {
		fmt.Fprint(w, "\nNão usei:\n")
		for _, s := range res.Skipped {
			fmt.Fprintf(w, "  %s: %s\n", name(s.What), name(s.Reason))
		}
	}
	fmt.Fprintf(w, "\nTenant e Aplicação %s, usuário %s, token %s (está em workspace.yaml; guarde-o como uma senha).\n", res.Key, res.Login, res.Token)
	if res.Database != nil && res.Database.PasswordEnv != "" {
		fmt.Fprintf(w, "A senha do banco %s vem de %s: defina-a também ao rodar o lumo import.\n", res.Database.Name, res.Database.PasswordEnv)
	}
	fmt.Fprintf(w, "Confira o app.yaml e depois:\n  lumo import %s\n  lumo serve --user %s\n", shellWord(filepath.Clean(res.Workspace)), res.Login)
	// The client setups of the README, for this user instead of the demo's.
	fmt.Fprintf(w, "Num cliente MCP, como %s: no Claude Code,\n  claude mcp add lumo -- lumo serve --user %s\n", res.Login, res.Login)
	fmt.Fprintf(w, "e em mcpServers (Claude Desktop, Cursor) ou servers (VS Code):\n  \"lumo\": {\"command\": \"lumo\", \"args\": [\"serve\", \"--user\", \"%s\"]}\n", res.Login)
}

// shellWord is s as a shell word: quoted when it holds anything but letters, digits and / . _ -,
// in $'...' with escapes when it holds characters that do not print as themselves.
func shellWord(s string) string {
	if !printable.Plain(s) {
		q := strconv.Quote(s)
		return "$'" + strings.ReplaceAll(q[1:len(q)-1], "'", `\'`) + "'"
	}
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// how is what the reader says of how it read t, beyond its source and rows: a CSV's separator,
// decimal, encoding and dates.
func (t *Table) how() string {
	if t.kind != workspace.KindCSV {
		// A workbook's reading needs no words, but the rows left out do.
		return strings.TrimPrefix(skippedRe.FindString(t.Detected), ", ")
	}
	how := strings.TrimPrefix(t.Detected, t.File+": ")
	if how == t.Detected {
		return ""
	}
	return how
}

// skippedRe is the end of a reader's description that lists the rows it left out.
var skippedRe = regexp.MustCompile(`, \d+ linhas? que não (é dado pulada|são dados puladas) \(.*\)$`)

// listed is "2 medidas (Valor, Desconto)", or "0 medidas".
func listed(items []string, one, many string) string {
	s := ptbr.Count(len(items), one, many)
	if len(items) > 0 {
		s += " (" + strings.Join(items, ", ") + ")"
	}
	return s
}

func unitWords(unit string) string {
	if unit == "" {
		return ""
	}
	return " em " + map[string]string{"BRL": "R$", "USD": "US$", "percent": "%"}[unit]
}
