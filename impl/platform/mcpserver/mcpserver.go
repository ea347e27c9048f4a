// Package mcpserver binds the published schemas and hand-written handlers into an *mcp.Server:
// input validation before decoding, output validation, and the three kinds of error.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/refdoc"
	"github.com/lumo-caderninho/mcp/impl/platform/schemabundle"
	"github.com/lumo-caderninho/mcp/impl/platform/schemacheck"
	"github.com/lumo-caderninho/mcp/impl/platform/suggest"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

// Reply is a successful tool answer: the text the model reads and the structured result, either
// as a value for encoding/json (Structured) or already encoded (JSON, which wins when set).
type Reply struct {
	Text       string
	Structured any
	JSON       []byte
}

// ToolError is a problem the caller can fix; it becomes an isError result with Portuguese text and
// a structured {"error": {code, message, suggestions}}.
type ToolError struct {
	Code        string
	Message     string
	Suggestions []string
}

func (e *ToolError) Error() string { return e.Code + ": " + e.Message }

// Handler answers one tool call. args has passed the input schema. Returning a *ToolError gives the
// caller an error it can act on; any other error is logged and the caller gets a generic message.
type Handler func(ctx context.Context, req *mcp.CallToolRequest, args json.RawMessage) (Reply, error)

// Tool is one tool as declared by a server package.
type Tool struct {
	Name        string
	Title       string
	Description string
	Annotations mcp.ToolAnnotations
	Handler     Handler
}

// Binder registers tools whose schemas live in FS under Dir as <name>.input.json/<name>.output.json.
type Binder struct {
	FS             fs.FS
	Dir            string
	Schemas        *schemacheck.Set
	Log            *slog.Logger
	ValidateOutput bool // check every structured result against the output schema (tests, and a serve flag)
	// TextJSON adds, after the text for the model, a second text block with the structuredContent
	// serialised as JSON, for clients that do not read structuredContent (caderninho's contract).
	TextJSON bool
	// Admit, when set, runs first on every call, before the arguments are checked: a *ToolError
	// refuses the call (rate limits on stdio); another error is internal.
	Admit func(ctx context.Context, req *mcp.CallToolRequest) error
	// MaxResultBytes, when positive, bounds a successful answer (text plus structuredContent, and
	// its JSON text block with TextJSON); a larger one becomes a RESULT_TOO_LARGE error, so no
	// client gets an answer it cannot hold.
	MaxResultBytes int
	// TooLargeSuggestions are the RESULT_TOO_LARGE suggestions, saying how to ask for less with
	// this server's arguments.
	TooLargeSuggestions []string
	// Gate, when set, bounds how many calls run at once: a call takes a slot after Admit and before
	// its arguments are checked, waiting (until its context ends) while every slot is busy. Work
	// beyond what the cores and the database pool can serve only adds memory, one result each.
	Gate chan struct{}
}

// Published returns the bundled input and output schemas of a tool, exactly as tools/list shows them.
func (b *Binder) Published(name string) (in, out json.RawMessage, err error) {
	if in, err = schemabundle.Publish(b.FS, b.Dir, name+".input.json"); err != nil {
		return nil, nil, fmt.Errorf("bundling %s input schema: %w", name, err)
	}
	if out, err = schemabundle.Publish(b.FS, b.Dir, name+".output.json"); err != nil {
		return nil, nil, fmt.Errorf("bundling %s output schema: %w", name, err)
	}
	return in, out, nil
}

// Add registers t on srv.
func (b *Binder) Add(srv *mcp.Server, t Tool) error {
	in, out, err := b.Published(t.Name)
	if err != nil {
		return err
	}
	ann := t.Annotations
	srv.AddTool(&mcp.Tool{
		Name: t.Name, Title: t.Title, Description: t.Description,
		InputSchema: in, OutputSchema: out, Annotations: &ann,
	}, b.handler(t))
	return nil
}

// InternalErrorText is all a caller learns of an internal failure.
const InternalErrorText = "Erro interno ao atender a chamada. Tente de novo em instantes; se persistir, avise o administrador."

func (b *Binder) handler(t Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if b.Admit != nil {
			if err := b.Admit(ctx, req); err != nil {
				return b.fail(ctx, t.Name, err)
			}
		}
		release, err := b.Acquire(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
		args, te := b.CheckArguments(t.Name, req.Params.Arguments)
		if te != nil {
			return b.errorResult(t.Name, te)
		}
		reply, err := t.Handler(ctx, req, args)
		if err != nil {
			return b.fail(ctx, t.Name, err)
		}
		structured, err := reply.JSON, error(nil)
		if structured == nil {
			structured, err = json.Marshal(reply.Structured)
		}
		if err != nil {
			b.Log.ErrorContext(ctx, "encoding result", "tool", t.Name, telemetry.ErrAttr(err))
			return b.errorResult(t.Name, &ToolError{Code: "INTERNAL", Message: InternalErrorText, Suggestions: []string{}})
		}
		size := len(reply.Text) + len(structured)
		if b.TextJSON {
			size += len(structured)
		}
		if te := b.CheckResult(ctx, t.Name, structured, size); te != nil {
			return b.errorResult(t.Name, te)
		}
		return &mcp.CallToolResult{
			Content:           b.content(reply.Text, structured),
			StructuredContent: json.RawMessage(structured),
		}, nil
	}
}

// Acquire takes a slot of Gate (when set), waiting while every slot is busy, until ctx ends; the
// caller runs release when its call is over.
func (b *Binder) Acquire(ctx context.Context) (release func(), err error) {
	if b.Gate == nil {
		return func() {}, nil
	}
	select {
	case b.Gate <- struct{}{}:
		return func() { <-b.Gate }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// CheckArguments runs the checks a call's arguments pass before its handler sees them: absent
// arguments are {}, text must be UTF-8 without U+0000, numbers are normalised (6.0 is 6) and the
// result must pass the tool's input schema. It returns the arguments to decode, or the
// INVALID_ARGUMENTS error naming every field (at most maxViolations). The MCP tools and the
// REST mirror both call it, so they refuse the same arguments with the same words.
func (b *Binder) CheckArguments(tool string, args json.RawMessage) (json.RawMessage, *ToolError) {
	if len(bytes.TrimSpace(args)) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if !utf8.Valid(args) { // JSON text must be UTF-8; such bytes would reach the database as they are
		return nil, &ToolError{Code: "INVALID_ARGUMENTS",
			Message:     "Argumentos inválidos para " + tool + ": há texto que não é UTF-8 válido.",
			Suggestions: []string{"Envie todo texto em UTF-8."}}
	}
	if !json.Valid(args) { // only over REST: a JSON-RPC message carries parsed JSON
		return nil, &ToolError{Code: "INVALID_ARGUMENTS",
			Message:     "Argumentos inválidos para " + tool + ": o corpo não é um JSON válido.",
			Suggestions: []string{"Envie os argumentos como um objeto JSON, por exemplo {}."}}
	}
	if hasNUL(args) { // PostgreSQL text cannot hold it; no tool needs it
		return nil, &ToolError{Code: "INVALID_ARGUMENTS",
			Message:     "Argumentos inválidos para " + tool + ": há texto com o caractere nulo (\\u0000), que não é aceito.",
			Suggestions: []string{"Remova o caractere nulo do texto."}}
	}
	args, nvs := normaliseNumbers(args)
	if vs := withNumberViolations(nvs, b.Schemas.ValidateJSON(tool+".input.json", args)); len(vs) > 0 {
		return nil, invalidArguments(tool, vs)
	}
	return args, nil
}

// CheckResult checks a successful answer of tool, whose structured result is structured and
// whose whole answer is size bytes: against the output schema with ValidateOutput (a break is
// logged, by field names only, and INTERNAL), and against MaxResultBytes (RESULT_TOO_LARGE).
func (b *Binder) CheckResult(ctx context.Context, tool string, structured []byte, size int) *ToolError {
	if b.ValidateOutput {
		if vs := b.Schemas.ValidateJSON(tool+".output.json", structured); len(vs) > 0 {
			b.Log.ErrorContext(ctx, "result breaks the output schema", "tool", tool, "fields", violationFields(vs))
			return &ToolError{Code: "INTERNAL", Message: InternalErrorText, Suggestions: []string{}}
		}
	}
	if b.MaxResultBytes > 0 && size > b.MaxResultBytes {
		b.Log.WarnContext(ctx, "result over the size limit", "tool", tool, "bytes", size, "limit", b.MaxResultBytes)
		suggestions := append([]string{}, b.TooLargeSuggestions...)
		return &ToolError{Code: "RESULT_TOO_LARGE",
			Message: fmt.Sprintf("A resposta de %s teria %s bytes, acima do limite de %s bytes por resposta.",
				tool, ptbr.Int(int64(size)), ptbr.Int(int64(b.MaxResultBytes))),
			Suggestions: suggestions}
	}
	return nil
}

// Internal is the refusal a caller gets for any error that is not a *ToolError, which is
// logged (without its text reaching the caller).
func (b *Binder) Internal(ctx context.Context, tool string, err error) *ToolError {
	var te *ToolError
	if errors.As(err, &te) {
		return te
	}
	b.Log.ErrorContext(ctx, "tool failed", "tool", tool, telemetry.ErrAttr(err))
	return &ToolError{Code: "INTERNAL", Message: InternalErrorText, Suggestions: []string{}}
}

// violationFields names the fields of violations, never their values (a result's are data).
func violationFields(vs []schemacheck.Violation) []string {
	out := make([]string, 0, min(len(vs), maxViolations))
	for _, v := range vs[:min(len(vs), maxViolations)] {
		out = append(out, v.Field)
	}
	return out
}

// fail renders a handler's error: a *ToolError as it is, anything else logged and generic.
func (b *Binder) fail(ctx context.Context, tool string, err error) (*mcp.CallToolResult, error) {
	return b.errorResult(tool, b.Internal(ctx, tool, err))
}

// maxViolations bounds how many violations one error lists, so a hostile payload with thousands
// of mistakes gets a short answer.
const maxViolations = 20

func invalidArguments(tool string, vs []schemacheck.Violation) *ToolError {
	n := min(len(vs), maxViolations)
	lines := make([]string, n, n+1)
	for i, v := range vs[:n] {
		lines[i] = v.String()
	}
	if rest := len(vs) - n; rest > 0 {
		more := fmt.Sprintf("e mais %d problemas; corrija estes e chame de novo.", rest)
		if rest == 1 {
			more = "e mais 1 problema; corrija estes e chame de novo."
		}
		lines = append(lines, more)
	}
	return &ToolError{
		Code:        "INVALID_ARGUMENTS",
		Message:     "Argumentos inválidos para " + tool + ":\n- " + strings.Join(lines, "\n- "),
		Suggestions: lines,
	}
}

// errorResult renders a caller-fixable error: Portuguese text plus the structured error object.
func (b *Binder) errorResult(tool string, te *ToolError) (*mcp.CallToolResult, error) {
	if te.Suggestions == nil {
		te.Suggestions = []string{}
	}
	structured, err := json.Marshal(map[string]any{"error": map[string]any{
		"code": te.Code, "message": te.Message, "suggestions": te.Suggestions,
	}})
	if err != nil {
		return nil, err
	}
	text := te.Message
	if len(te.Suggestions) > 0 && te.Code != "INVALID_ARGUMENTS" {
		text += "\nSugestões: " + strings.Join(te.Suggestions, "; ")
	}
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           b.content(text, structured),
		StructuredContent: json.RawMessage(structured),
	}, nil
}

// content is the text for the model and, with TextJSON, the structured result as JSON text.
func (b *Binder) content(text string, structured []byte) []mcp.Content {
	if !b.TextJSON {
		return []mcp.Content{&mcp.TextContent{Text: text}}
	}
	return []mcp.Content{&mcp.TextContent{Text: text}, &mcp.TextContent{Text: string(structured)}}
}

// hasNUL reports whether a string or object key of the JSON document args holds U+0000 (which
// JSON can only carry escaped, as \u0000).
func hasNUL(args json.RawMessage) bool {
	if !bytes.Contains(args, []byte(`\u0000`)) {
		return false
	}
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return false // the schema check reports it
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			return strings.ContainsRune(x, 0)
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case map[string]any:
			for k, e := range x {
				if strings.ContainsRune(k, 0) || walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// CallInProcess runs one tool call on srv through an in-memory client session (the `call` command
// of both servers).
func CallInProcess(ctx context.Context, srv *mcp.Server, client string, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: client, Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	var names []string
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		names = append(names, t.Name)
	}
	if !slices.Contains(names, tool) {
		return nil, unknownTool(tool, names)
	}
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
}

// unknownTool says, in Portuguese, that tool is not one of names, with the closest ones.
func unknownTool(tool string, names []string) error {
	msg := fmt.Sprintf("ferramenta desconhecida %q", tool)
	if near := suggest.Similar(tool, names, 3); len(near) > 0 {
		msg += "; você quis dizer " + ptbr.QuotedOptions(near) + "?"
	}
	sort.Strings(names)
	return errors.New(msg + " As ferramentas são: " + strings.Join(names, ", ") + ".")
}

// DocTools is what the reference pages say of tools besides their schemas.
func DocTools(tools []Tool) []refdoc.Tool {
	out := make([]refdoc.Tool, 0, len(tools))
	for _, t := range tools {
		out = append(out, refdoc.Tool{Name: t.Name, Title: t.Title, Description: t.Description, ReadOnly: t.Annotations.ReadOnlyHint})
	}
	return out
}
