package schemapub

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/refdoc"
)

// ExitCode is the status a `schemas` command ends with: 1 = the payload is invalid, 2 = usage
// or an unreadable file. The message has already been printed.
type ExitCode int

func (e ExitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// Exit codes of the schemas command.
const (
	ExitInvalid ExitCode = 1
	ExitUsage   ExitCode = 2
)

// maxPayload bounds what validate reads (a tool payload is far smaller).
const maxPayload = 64 << 20

func (c *Catalog) usage() string {
	p := c.Server
	return `Uso:
  ` + p + ` schemas list
  ` + p + ` schemas show FERRAMENTA input|output
  ` + p + ` schemas validate [--tool FERRAMENTA] [--kind input|output] ARQUIVO
  ` + p + ` schemas doc FERRAMENTA | ARQUIVO.yaml | --write PASTA

validate confere um payload JSON (ARQUIVO, ou - para a entrada padrão) contra o schema publicado da
ferramenta e lista cada problema, nomeando o campo. Não executa nada nem abre banco de dados.
Sem --tool, o arquivo é uma chamada: {"name": "FERRAMENTA", "arguments": {...}} ou a requisição JSON-RPC
tools/call inteira. --kind é input (padrão) ou output (o structuredContent de um resultado).
Saída: 0 válido, 1 inválido, 2 uso incorreto ou arquivo ilegível.
doc imprime a página de referência da ferramenta (Markdown: descrição, argumentos, resultado, exemplos)
ou a de um arquivo de configuração (` + c.formatNames() + `: cada campo com tipo, padrão e exemplo);
--write grava a de cada ferramenta e arquivo, e um índice README.md, em PASTA.

Exemplos:
  ` + p + ` schemas list
  ` + p + ` schemas show ` + c.example() + ` input
  echo '{"name": "` + c.example() + `", "arguments": {}}' | ` + p + ` schemas validate -
`
}

// example is a tool of the catalogue to show in the help.
func (c *Catalog) example() string {
	if len(c.tools) == 0 {
		return "FERRAMENTA"
	}
	return c.tools[0]
}

// Run executes `<server> schemas ARGS`: list, show or validate. It returns nil on success and
// an ExitCode otherwise, after printing why (violations on stdout, usage problems on stderr).
func (c *Catalog) Run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, c.usage())
		return ExitUsage
	}
	if cli.IsHelp(args) {
		fmt.Fprint(stdout, c.usage())
		return nil
	}
	switch args[0] {
	case "list":
		if len(args) != 1 {
			return c.usageError(stderr, "list não recebe argumentos")
		}
		for _, t := range c.tools {
			fmt.Fprintln(stdout, t)
		}
		return nil
	case "show":
		if len(args) != 3 {
			return c.usageError(stderr, "informe a ferramenta e input ou output")
		}
		if err := c.checkToolKind(args[1], args[2]); err != nil {
			return c.usageError(stderr, err.Error())
		}
		b, _ := c.Schema(args[1], args[2])
		var out bytes.Buffer
		if err := json.Indent(&out, b, "", "  "); err != nil {
			return err
		}
		out.WriteByte('\n')
		_, err := stdout.Write(out.Bytes())
		return err
	case "validate":
		return c.validate(args[1:], stdin, stdout, stderr)
	case "doc":
		return c.doc(args[1:], stdout, stderr)
	}
	return c.usageError(stderr, cli.UnknownSubcommand(c.Server+" schemas", args[0], []string{"list", "show", "validate", "doc"}).Msg)
}

func (c *Catalog) doc(args []string, stdout, stderr io.Writer) error {
	if c.docs == nil {
		return errors.New("schemas doc: the tools are not described (Describe)")
	}
	switch {
	case len(args) == 2 && args[0] == "--write":
		if err := os.MkdirAll(args[1], 0o755); err != nil {
			return err
		}
		for _, d := range c.docs {
			if err := os.WriteFile(filepath.Join(args[1], d.Tool.Name+".md"), []byte(refdoc.Markdown(d)), 0o644); err != nil {
				return err
			}
		}
		for _, f := range c.formats {
			if err := os.WriteFile(filepath.Join(args[1], f.File+".md"), []byte(refdoc.FormatMarkdown(f)), 0o644); err != nil {
				return err
			}
		}
		return os.WriteFile(filepath.Join(args[1], "README.md"), []byte(refdoc.Index(c.Server, c.docs, c.formats)), 0o644)
	case len(args) == 1 && !strings.HasPrefix(args[0], "-"):
		for _, d := range c.docs {
			if d.Tool.Name == args[0] {
				_, err := io.WriteString(stdout, refdoc.Markdown(d))
				return err
			}
		}
		for _, f := range c.formats {
			if f.File == args[0] {
				_, err := io.WriteString(stdout, refdoc.FormatMarkdown(f))
				return err
			}
		}
		return c.usageError(stderr, fmt.Sprintf("a ferramenta %q não existe em %s; as ferramentas são: %s (e os arquivos %s)", args[0], c.Server,
			strings.Join(c.tools, ", "), c.formatNames()))
	}
	return c.usageError(stderr, "doc recebe uma ferramenta ou um arquivo, ou --write PASTA")
}

// formatNames lists the server's configuration files: "workspace.yaml, app.yaml".
func (c *Catalog) formatNames() string {
	var names []string
	for _, f := range c.formats {
		names = append(names, f.File)
	}
	return strings.Join(names, ", ")
}

func (c *Catalog) usageError(stderr io.Writer, msg string) error {
	fmt.Fprintf(stderr, "%s schemas: %s.\n\n%s", c.Server, strings.TrimSuffix(msg, "."), c.usage())
	return ExitUsage
}

func (c *Catalog) checkToolKind(tool, kind string) error {
	if kind != Input && kind != Output {
		return fmt.Errorf("o tipo %q não existe; use input ou output", kind)
	}
	if _, ok := c.bundled[FileName(tool, kind)]; !ok {
		return fmt.Errorf("a ferramenta %q não existe em %s; as ferramentas são: %s", tool, c.Server, strings.Join(c.tools, ", "))
	}
	return nil
}

func (c *Catalog) validate(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cmd := cli.Command{Name: c.Server + " schemas validate"}
	fs := cmd.FlagSet()
	tool := fs.String("tool", "", "ferramenta cujo schema confere o payload")
	kind := fs.String("kind", Input, "input ou output")
	if err := fs.Parse(args); err != nil {
		var ue *cli.UsageError
		errors.As(cmd.FlagError(fs, err), &ue)
		return c.usageError(stderr, "validate: "+ue.Msg)
	}
	if fs.NArg() != 1 {
		return c.usageError(stderr, "validate recebe um arquivo (ou - para a entrada padrão)")
	}
	data, err := readPayload(fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "%s schemas: %v\n", c.Server, err)
		return ExitUsage
	}
	if *tool == "" {
		if *kind != Input {
			return c.usageError(stderr, "com --kind output, informe --tool")
		}
		name, arguments, err := unwrapCall(data)
		if err != nil {
			return c.usageError(stderr, err.Error())
		}
		*tool, data = name, arguments
	}
	if err := c.checkToolKind(*tool, *kind); err != nil {
		return c.usageError(stderr, err.Error())
	}
	vs, err := c.Validate(*tool, *kind, data)
	if err != nil {
		return err
	}
	what := "de entrada"
	if *kind == Output {
		what = "de saída"
	}
	if len(vs) == 0 {
		fmt.Fprintf(stdout, "válido: o payload passa no schema %s de %s.\n", what, *tool)
		return nil
	}
	n := "problema"
	if len(vs) > 1 {
		n = "problemas"
	}
	fmt.Fprintf(stdout, "inválido: %d %s no payload %s de %s:\n", len(vs), n, what, *tool)
	for _, v := range vs {
		fmt.Fprintf(stdout, "- %s\n", v)
	}
	return ExitInvalid
}

func readPayload(name string, stdin io.Reader) ([]byte, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("o arquivo %s não existe", name)
			}
			return nil, fmt.Errorf("não foi possível abrir %s: %w", name, err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("não foi possível ler %s: %w", name, err)
	}
	if len(data) > maxPayload {
		return nil, fmt.Errorf("%s passa de %d MB; um payload de ferramenta é bem menor", name, maxPayload>>20)
	}
	return data, nil
}

// unwrapCall takes the tool name and arguments out of {"name", "arguments"} or a JSON-RPC
// tools/call request. Missing arguments are {}, as the servers take them.
func unwrapCall(data []byte) (string, []byte, error) {
	if err := syntaxCheck(data); err != nil {
		return "", nil, err
	}
	var call struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Name   json.RawMessage `json:"name"`
		Args   json.RawMessage `json:"arguments"`
	}
	const want = `sem --tool, o arquivo precisa ser {"name": "FERRAMENTA", "arguments": {...}} ou uma requisição tools/call`
	if err := json.Unmarshal(data, &call); err != nil {
		return "", nil, errors.New(want)
	}
	if call.Method != "" || call.Params != nil {
		if call.Method != "tools/call" {
			return "", nil, fmt.Errorf("a requisição é %q; só tools/call tem schema de entrada", call.Method)
		}
		return unwrapCall(call.Params)
	}
	var name string
	if err := json.Unmarshal(call.Name, &name); err != nil || name == "" {
		return "", nil, errors.New(want)
	}
	args := []byte(call.Args)
	if len(args) == 0 || string(args) == "null" {
		args = []byte("{}")
	}
	return name, args, nil
}
