package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/caderninho/admin"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/yamldoc"
)

var importCommand = cli.Command{Name: "caderninho import", Args: "caminho/installation.yaml",
	Summary: "Registra a instalação (pessoas, espaços, categorias, conexões e assistentes) e importa os extratos OFX\n" +
		"e CSV das pastas das conexões (os outros arquivos são listados como ignorados, com o motivo); cada\n" +
		"conexão numa transação: ao falhar, nada dela muda. O primeiro import\n" +
		"de um banco imprime a credencial do painel, uma única vez.",
	Examples: []string{"caderninho import minha-casa/installation.yaml", "caderninho import --db postgres://caderninho@db/casa installation.yaml"}}

func importInstallation(ctx context.Context, args []string, stdout io.Writer) error {
	fs := importCommand.FlagSet()
	dsn := dbFlag(fs)
	if err := importCommand.Parse(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return &cli.UsageError{Command: importCommand.Name, Msg: "informe o caminho do installation.yaml (um só)"}
	}
	if *dsn == "" {
		dir, err := dataDir()
		if err != nil {
			return err
		}
		*dsn = filepath.Join(dir, "caderninho.db")
	}
	s, err := cadstore.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer s.DB().Close()
	if err := importInto(ctx, s, fs.Arg(0), stdout); err != nil {
		return err
	}
	// The first import installs: it makes the panel's owner credential, shown this once.
	c, err := (admin.Ops{Store: s, Actor: cadstore.ActorFile}).EnsureCredential(ctx)
	if err != nil {
		return err
	}
	if c != "" {
		fmt.Fprintln(stdout)
		printCredential(stdout, c, "Credencial do painel privado (a linha acima).")
	}
	return nil
}

// importInto registers the installation at path and imports every connection's statements.
func importInto(ctx context.Context, s *cadstore.Store, path string, stdout io.Writer) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	shown := filepath.Dir(path) // how the operator named the folder, for messages
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		abs, shown = filepath.Join(abs, "installation.yaml"), path
	}
	root := filepath.Dir(abs)
	inst, err := installation.Load(os.DirFS(root), filepath.Base(abs))
	var errs yamldoc.Errors
	if errors.As(err, &errs) {
		for _, e := range errs {
			e.File = filepath.Join(shown, e.File)
		}
		return errs
	}
	if err != nil {
		return err
	}
	sum, err := s.Register(ctx, inst, root)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Instalação registrada: %s, %s, %s, %s.\n", ptbr.Count(sum.People, "pessoa", "pessoas"),
		ptbr.Count(sum.Spaces, "espaço", "espaços"), ptbr.Count(sum.Connections, "conexão", "conexões"),
		ptbr.Count(sum.Assistants, "assistente", "assistentes"))
	if len(sum.Removed) > 0 {
		fmt.Fprintf(stdout, "Removidos por não estarem mais no arquivo: %s.\n", ptbr.List(sum.Removed))
	}
	if len(sum.Updated) > 0 {
		fmt.Fprintf(stdout, "Atualizados pelo arquivo (o arquivo vale para o que ele nomeia): %s.\n", ptbr.List(sum.Updated))
	}
	if len(sum.Kept) > 0 {
		fmt.Fprintf(stdout, "Mantidos por terem sido criados no painel: %s.\n", ptbr.List(sum.Kept))
	}
	outs, err := s.ImportConnections(ctx, nil)
	failed := 0
	for _, o := range outs {
		fmt.Fprintf(stdout, "  %s: %s\n", o.Connection, describeOutcome(o))
		for _, w := range o.Warnings {
			fmt.Fprintf(stdout, "    AVISO %s\n", w.String())
		}
		for _, g := range o.Ignored {
			fmt.Fprintf(stdout, "    IGNORADO %s\n", g.String())
		}
		if o.Status == cadstore.StatusFailed {
			failed++
		}
	}
	if err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("a importação de %s falhou e nada dela mudou; corrija o arquivo indicado e rode de novo (as outras foram importadas)",
			ptbr.Count(failed, "conexão", "conexões"))
	}
	return nil
}

func describeOutcome(o cadstore.Outcome) string {
	if o.Status == cadstore.StatusFailed {
		return "ERRO " + o.Error.String()
	}
	if o.NewFiles == 0 {
		return "nenhum extrato novo"
	}
	parts := []string{
		ptbr.Count(o.NewFiles, "arquivo novo", "arquivos novos"),
		ptbr.Count(o.NewTransactions, "transação nova", "transações novas"),
	}
	if o.Duplicates > 0 {
		parts = append(parts, ptbr.Count(o.Duplicates, "já importada", "já importadas"))
	}
	if o.NewAccounts > 0 {
		parts = append(parts, ptbr.Count(o.NewAccounts, "conta nova", "contas novas"))
	}
	if o.Categorised > 0 {
		parts = append(parts, ptbr.Count(o.Categorised, "categorizada pelas regras", "categorizadas pelas regras"))
	}
	s := strings.Join(parts, ", ")
	if o.RevisionBumped {
		s += "; nova revisão do espaço " + o.Space
	}
	return s
}
