package features

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lumo-caderninho/mcp/impl/platform/restserver"
)

// mcpWorld is what every server's scenarios share: a client session on the real server, the
// output schemas as tools/list published them, the last answer, and the generic steps over it.
// subst rewrites a world's placeholders in arguments, texts and expectations.
type mcpWorld struct {
	session    *mcp.ClientSession
	tools      map[string]*mcp.Tool
	schemas    map[string]*jsonschema.Schema // published output schemas, compiled here independently
	result     *mcp.CallToolResult
	structured any
	text       string   // the first text block: what the model reads
	texts      []string // every text block
	subst      func(string) (string, error)
	afterCall  func(tool string) error // a server's own check of every answer, or nil
	// mirror, when set, makes a call again over the server's REST mirror (POST /tools/<tool>),
	// whose status and body call compares with the MCP answer; ok false: this call is not mirrored.
	mirror func(ctx context.Context, tool string, args []byte) (status int, body []byte, ok bool)
}

// addGenericSteps registers the steps every server's features use.
func (w *mcpWorld) addGenericSteps(sc *godog.ScenarioContext) {
	unescape := func(s string) string { return strings.ReplaceAll(s, `\"`, `"`) }
	sc.Step(`^I call "([^"]*)"$`, func(ctx context.Context, tool string) error { return w.call(ctx, tool, "{}") })
	sc.Step(`^I call "([^"]*)" with:$`, func(ctx context.Context, tool string, doc *godog.DocString) error {
		return w.call(ctx, tool, doc.Content)
	})
	sc.Step(`^I call "([^"]*)" with '(.*)'$`, w.call)
	sc.Step(`^the call succeeds$`, w.succeeds)
	sc.Step(`^the call fails with code "([^"]*)"$`, w.failsWith)
	sc.Step(`^the text contains "(.*)"$`, func(s string) error { return w.textContains(unescape(s)) })
	sc.Step(`^the text contains:$`, func(doc *godog.DocString) error { return w.textContains(doc.Content) })
	sc.Step(`^the text does not contain "(.*)"$`, func(s string) error { return w.textLacks(unescape(s)) })
	sc.Step(`^"([^"]*)" is:$`, w.valueIs)
	sc.Step(`^"([^"]*)" is '(.*)'$`, func(path, want string) error { return w.valueIs(path, &godog.DocString{Content: want}) })
	sc.Step(`^"([^"]*)" has (\d+) items?$`, w.hasItems)
	sc.Step(`^"([^"]*)" includes:$`, w.includes)
	sc.Step(`^"([^"]*)" is absent$`, w.absent)
	sc.Step(`^"([^"]*)" includes the object '(.*)'$`, w.includesObject)
}

// connect opens a client session on srv and compiles every published output schema.
func (w *mcpWorld) connect(ctx context.Context, srv *mcp.Server) error {
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		return err
	}
	return w.connectClient(ctx, ct)
}

// connectClient opens the scenario's session over t and reads the published tools.
func (w *mcpWorld) connectClient(ctx context.Context, t mcp.Transport) error {
	var err error
	if w.session, err = mcp.NewClient(&mcp.Implementation{Name: "features", Version: "1"}, nil).Connect(ctx, t, nil); err != nil {
		return err
	}
	list, err := w.session.ListTools(ctx, nil)
	if err != nil {
		return err
	}
	w.tools, w.schemas = map[string]*mcp.Tool{}, map[string]*jsonschema.Schema{}
	for _, tool := range list.Tools {
		w.tools[tool.Name] = tool
		sch, err := compilePublished(tool.Name, tool.OutputSchema)
		if err != nil {
			return err
		}
		w.schemas[tool.Name] = sch
	}
	return nil
}

// compilePublished compiles a schema exactly as tools/list published it, with no access to other files.
func compilePublished(name string, schema any) (*jsonschema.Schema, error) {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	url := "published://" + name + ".output.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

func (w *mcpWorld) substitute(s string) (string, error) {
	if w.subst == nil {
		return s, nil
	}
	return w.subst(s)
}

// call runs a tool and checks the structured result against the published output schema, always.
func (w *mcpWorld) call(ctx context.Context, tool, args string) error {
	args, err := w.substitute(args)
	if err != nil {
		return err
	}
	d := json.NewDecoder(strings.NewReader(args))
	d.UseNumber() // numbers reach the server exactly as the scenario writes them (1e309, 6.0)
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return fmt.Errorf("scenario arguments are not a JSON object: %w", err)
	}
	res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		return err
	}
	w.result, w.text, w.texts, w.structured = res, "", nil, nil
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			w.texts = append(w.texts, t.Text)
		}
	}
	if len(w.texts) > 0 {
		w.text = w.texts[0]
	}
	if res.StructuredContent == nil {
		return fmt.Errorf("%s returned no structuredContent (text: %s)", tool, w.text)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, &w.structured); err != nil {
		return err
	}
	sch := w.schemas[tool]
	if sch == nil {
		return fmt.Errorf("tool %s is not listed", tool)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	if err != nil {
		return err
	}
	if err := sch.Validate(inst); err != nil {
		return fmt.Errorf("%s structuredContent breaks its published output schema: %v\n%s", tool, err, b)
	}
	if w.mirror != nil {
		if err := w.sameOverREST(ctx, tool, []byte(args), b); err != nil {
			return err
		}
	}
	if w.afterCall != nil {
		return w.afterCall(tool)
	}
	return nil
}

// sameOverREST makes the call over the REST mirror: its body must be the MCP structuredContent
// (as JSON) and its status 200, or the status of the error's code.
func (w *mcpWorld) sameOverREST(ctx context.Context, tool string, args, structured []byte) error {
	status, body, ok := w.mirror(ctx, tool, args)
	if !ok {
		return nil
	}
	want := http.StatusOK
	if w.result.IsError {
		code, _ := lookup(w.structured, "error.code")
		if len(code) != 1 {
			return fmt.Errorf("%s: an MCP error without error.code", tool)
		}
		want = restserver.Status(fmt.Sprint(code[0]))
	}
	var got, mcpSide any
	if err := json.Unmarshal(body, &got); err != nil {
		return fmt.Errorf("%s over REST: %d, a body that is not JSON: %.200s", tool, status, body)
	}
	json.Unmarshal(structured, &mcpSide)
	if status != want || !reflect.DeepEqual(got, mcpSide) {
		return fmt.Errorf("%s over REST answered %d (want %d) with a body other than MCP's structuredContent:\nREST %.400s\nMCP  %.400s",
			tool, status, want, body, structured)
	}
	return nil
}

func (w *mcpWorld) succeeds() error {
	if w.result.IsError {
		return fmt.Errorf("call failed: %s", w.text)
	}
	return nil
}

func (w *mcpWorld) failsWith(code string) error {
	if !w.result.IsError {
		return fmt.Errorf("call succeeded, want error %s; text: %s", code, w.text)
	}
	got, _ := lookup(w.structured, "error.code")
	if len(got) != 1 || got[0] != code {
		return fmt.Errorf("error code %v, want %s; text: %s", got, code, w.text)
	}
	return nil
}

func (w *mcpWorld) textContains(s string) error {
	s, err := w.substitute(s)
	if err != nil {
		return err
	}
	if !strings.Contains(w.text, strings.TrimSpace(s)) {
		return fmt.Errorf("text lacks %q; text is:\n%s", s, w.text)
	}
	return nil
}

func (w *mcpWorld) textLacks(s string) error {
	if strings.Contains(w.text, s) {
		return fmt.Errorf("text contains %q; text is:\n%s", s, w.text)
	}
	return nil
}

// expected decodes a JSON expectation after substitution.
func (w *mcpWorld) expected(doc string) (any, error) {
	doc, err := w.substitute(doc)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		return nil, fmt.Errorf("scenario expectation is not JSON: %w", err)
	}
	return v, nil
}

// valueIs compares the value(s) at path with the expectation. A path with [*] yields a list.
func (w *mcpWorld) valueIs(path string, doc *godog.DocString) error {
	want, err := w.expected(doc.Content)
	if err != nil {
		return err
	}
	got, err := w.at(path)
	if err != nil {
		return err
	}
	if d := cmp.Diff(want, got); d != "" {
		return fmt.Errorf("%s differs (-want +got):\n%s", path, d)
	}
	return nil
}

func (w *mcpWorld) at(path string) (any, error) {
	vals, multi := lookup(w.structured, path)
	if multi {
		if vals == nil {
			vals = []any{}
		}
		return vals, nil
	}
	if len(vals) == 0 {
		return nil, fmt.Errorf("%s is absent in %s", path, w.structuredJSON())
	}
	return vals[0], nil
}

func (w *mcpWorld) hasItems(path string, n int) error {
	got, err := w.at(path)
	if err != nil {
		return err
	}
	list, ok := got.([]any)
	if !ok || len(list) != n {
		return fmt.Errorf("%s has %v, want %d items", path, got, n)
	}
	return nil
}

// includes checks that every expected item is deep-included in some item of the list at path.
func (w *mcpWorld) includes(path string, doc *godog.DocString) error {
	want, err := w.expected(doc.Content)
	if err != nil {
		return err
	}
	got, err := w.at(path)
	if err != nil {
		return err
	}
	list, _ := got.([]any)
	for _, wi := range want.([]any) {
		found := false
		for _, gi := range list {
			if subset(wi, gi) {
				found = true
				break
			}
		}
		if !found {
			b, _ := json.Marshal(wi)
			g, _ := json.MarshalIndent(list, "", " ")
			return fmt.Errorf("%s has no item including %s; items:\n%s", path, b, g)
		}
	}
	return nil
}

// includesObject checks that the object at path deep-includes the expectation.
func (w *mcpWorld) includesObject(path, doc string) error {
	want, err := w.expected(doc)
	if err != nil {
		return err
	}
	got, err := w.at(path)
	if err != nil {
		return err
	}
	if !subset(want, got) {
		g, _ := json.Marshal(got)
		return fmt.Errorf("%s is %s, which does not include %s", path, g, doc)
	}
	return nil
}

func (w *mcpWorld) absent(path string) error {
	if vals, multi := lookup(w.structured, path); len(vals) > 0 && !multi {
		return fmt.Errorf("%s is present: %v", path, vals[0])
	}
	return nil
}

func (w *mcpWorld) structuredJSON() string {
	b, _ := json.Marshal(w.structured)
	return string(b)
}

// restMirror posts a call to rest, an in-process REST mirror, for the tools mirrored says (all
// when nil).
func restMirror(rest http.Handler, mirrored func(tool string) bool) func(context.Context, string, []byte) (int, []byte, bool) {
	return func(ctx context.Context, tool string, args []byte) (int, []byte, bool) {
		if mirrored != nil && !mirrored(tool) {
			return 0, nil, false
		}
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, restserver.Prefix+tool, bytes.NewReader(args))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		rest.ServeHTTP(rec, req)
		return rec.Code, rec.Body.Bytes(), true
	}
}
