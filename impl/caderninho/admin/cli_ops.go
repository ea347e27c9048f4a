package admin

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/printable"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
)

func (cmd *Cmd) runConnection(ctx context.Context, o Ops, out io.Writer) error {
	p := cmd.pos
	switch cmd.Name {
	case "connection add":
		if err := o.AddConnection(ctx, p[0], cmd.institution, cmd.holder, cmd.space); err != nil {
			return err
		}
		fmt.Fprintf(out, "Conexão %q adicionada. Importe os extratos com: caderninho admin statement import %s ARQUIVO.ofx (ou .csv)\n", p[0], p[0])
	case "connection edit":
		cs, err := o.Store.ConnectionList(ctx)
		if err != nil {
			return err
		}
		for _, c := range cs {
			if c.Key != p[0] {
				continue
			}
			inst, holder, space := c.Institution, c.HolderKey, c.SpaceKey
			if cmd.set["institution"] {
				inst = cmd.institution
			}
			if cmd.set["holder"] {
				holder = cmd.holder
			}
			if cmd.set["space"] {
				space = cmd.space
			}
			changed, err := o.EditConnection(ctx, p[0], inst, holder, space)
			if err != nil {
				return err
			}
			if !changed {
				fmt.Fprintf(out, "A conexão %q já estava assim; nada mudou.\n", p[0])
				return nil
			}
			fmt.Fprintf(out, "Conexão %q alterada.\n", p[0])
			return nil
		}
		return connectionNotFound(p[0])
	case "connection list":
		cs, err := o.Store.ConnectionList(ctx)
		if err != nil {
			return err
		}
		if len(cs) == 0 {
			fmt.Fprintln(out, "Nenhuma conexão.")
		}
		for _, c := range cs {
			last := func(s *string) string {
				if s == nil {
					return "nunca"
				}
				return *s
			}
			errText := "sem erro"
			if c.LastError != nil {
				errText = "último erro: " + *c.LastError
			}
			fmt.Fprintf(out, "%s\t%s\ttitular %s\tespaço %s\t%s\túltimo sucesso %s\túltima tentativa %s\t%s\n", c.Key, c.Institution,
				c.HolderKey, c.SpaceKey, originText(c.Origin), last(c.LastSuccessAt), last(c.LastAttemptAt), errText)
		}
	case "statement import":
		var files []Upload
		for _, path := range p[1:] {
			u := Upload{Name: filepath.Base(path)}
			st, err := os.Stat(path)
			if err != nil {
				return &Refusal{Invalid, "", fmt.Sprintf("%s: o arquivo não pôde ser lido (%s); nada foi importado.", printable.Name(path), printable.Name(err.Error()))}
			}
			if st.Size() > MaxStatementBytes {
				u.TooBig = true
			} else if u.Data, err = os.ReadFile(path); err != nil {
				return &Refusal{Invalid, "", fmt.Sprintf("%s: o arquivo não pôde ser lido (%s); nada foi importado.", printable.Name(path), printable.Name(err.Error()))}
			}
			files = append(files, u)
		}
		reps, err := o.ImportStatements(ctx, p[0], files)
		if err != nil {
			return err
		}
		refused := 0
		for _, r := range reps {
			fmt.Fprintln(out, ReportLine(r))
			if r.Status == FileRefused {
				refused++
			}
		}
		if refused > 0 {
			return &Refusal{Invalid, "", fmt.Sprintf("%s recusado(s); os demais foram tratados como indicado acima.", ptbr.Count(refused, "arquivo", "arquivos"))}
		}
	}
	return nil
}

// ReportLine is one file of an upload's report on one line: file, result and why.
func ReportLine(r FileReport) string {
	switch r.Status {
	case FileNew:
		s := fmt.Sprintf("%s: novo — %s, %s, %s", printable.Name(r.Name), ptbr.Count(r.NewTransactions, "transação nova", "transações novas"),
			ptbr.Count(r.Duplicates, "já importada", "já importadas"), ptbr.Count(r.NewAccounts, "conta nova", "contas novas"))
		if r.Stored != r.Name {
			s += " (gravado como " + printable.Name(r.Stored) + ")"
		}
		for _, w := range r.Warnings {
			s += "\n  aviso: " + w
		}
		return s
	case FileKnown:
		return fmt.Sprintf("%s: já importado — %s", printable.Name(r.Name), r.Reason)
	}
	if r.Line != nil {
		return fmt.Sprintf("%s:%d: recusado — %s", printable.Name(r.Name), *r.Line, r.Reason)
	}
	return fmt.Sprintf("%s: recusado — %s", printable.Name(r.Name), r.Reason)
}

func (cmd *Cmd) runSpace(ctx context.Context, o Ops, out io.Writer) error {
	p := cmd.pos
	same := func(changed bool, done string) {
		if changed {
			fmt.Fprintln(out, done)
			return
		}
		fmt.Fprintln(out, "Já estava assim; nada mudou.")
	}
	switch cmd.Name {
	case "space add":
		if err := o.AddSpace(ctx, p[0], cmd.name); err != nil {
			return err
		}
		fmt.Fprintf(out, "Espaço %q adicionado.\n", p[0])
	case "space rename":
		changed, err := o.RenameSpace(ctx, p[0], cmd.name)
		if err != nil {
			return err
		}
		same(changed, fmt.Sprintf("Espaço %q renomeado.", p[0]))
	case "space remove":
		if err := o.RemoveSpace(ctx, p[0]); err != nil {
			return err
		}
		fmt.Fprintf(out, "Espaço %q removido.\n", p[0])
	case "space list":
		sps, err := o.Store.SpaceList(ctx)
		if err != nil {
			return err
		}
		if len(sps) == 0 {
			fmt.Fprintln(out, "Nenhum espaço.")
		}
		for _, sp := range sps {
			var cats []string
			for _, c := range sp.Categories {
				cats = append(cats, c.Name)
			}
			fmt.Fprintf(out, "%s\t%s\t%s\trevisão %d\tcategorias: %s\n", sp.Key, sp.Name, originText(sp.Origin), sp.Revision, orNone(cats))
		}
	case "category add":
		if err := o.AddCategory(ctx, p[0], cmd.name); err != nil {
			return err
		}
		fmt.Fprintf(out, "Categoria %q adicionada ao espaço %q.\n", strings.TrimSpace(cmd.name), p[0])
	case "category rename":
		changed, moved, err := o.RenameCategory(ctx, p[0], p[1], cmd.name)
		if err != nil {
			return err
		}
		same(changed, fmt.Sprintf("Categoria %q renomeada para %q; acompanharam: %s.", p[1], strings.TrimSpace(cmd.name), UsesText(moved)))
	case "category merge":
		moved, err := o.MergeCategory(ctx, p[0], p[1], cmd.into)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "Categoria %q unida a %q; passaram: %s.\n", p[1], cmd.into, UsesText(moved))
	case "category remove":
		if err := o.RemoveCategory(ctx, p[0], p[1]); err != nil {
			return err
		}
		fmt.Fprintf(out, "Categoria %q removida do espaço %q.\n", p[1], p[0])
	}
	return nil
}
