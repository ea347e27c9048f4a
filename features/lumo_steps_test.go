package features

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lumo-caderninho/mcp/impl/demo"
	"github.com/lumo-caderninho/mcp/impl/lumo"
	"github.com/lumo-caderninho/mcp/impl/store"
	"github.com/lumo-caderninho/mcp/impl/store/storetest"
)

// lumoWorld is one scenario's state: its database, its client session and the last answer.
type lumoWorld struct {
	t          *testing.T
	db         *store.DB
	session    *mcp.ClientSession
	tools      map[string]*mcp.Tool
	schemas    map[string]*jsonschema.Schema // published output schemas, compiled here independently
	result     *mcp.CallToolResult
	structured any
	text       string
	resource   string
	timeout    time.Duration // query time limit of the next connection (0 = default)
}

func initLumoSteps(t *testing.T, sc *godog.ScenarioContext) {
	w := &lumoWorld{t: t}
	sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
		w.db = storetest.Open(t)
		return ctx, nil
	})
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		if w.session != nil {
			w.session.Close()
		}
		w.db.Close()
		return ctx, nil
	})
	initToolSteps(w, sc)
	initValuesSteps(w, sc)
	initLimitsSteps(w, sc)
	sc.Step(`^the demo workspace is imported$`, w.demoImported)
	sc.Step(`^I am connected as "([^"]*)"$`, w.connectedAs)
	sc.Step(`^the query time limit is (\d+) (nanosecond|seconds)$`, func(n int, unit string) {
		w.timeout = time.Duration(n)
		if unit == "seconds" {
			w.timeout *= time.Second
		}
	})
	sc.Step(`^I call "([^"]*)"$`, func(ctx context.Context, tool string) error { return w.call(ctx, tool, "{}") })
	sc.Step(`^I call "([^"]*)" with:$`, func(ctx context.Context, tool string, doc *godog.DocString) error {
		return w.call(ctx, tool, doc.Content)
	})
	sc.Step(`^I call "([^"]*)" with '(.*)'$`, w.call)
	sc.Step(`^the call succeeds$`, w.succeeds)
	sc.Step(`^the call fails with code "([^"]*)"$`, w.failsWith)
	sc.Step(`^the text contains "(.*)"$`, func(s string) error { return w.textContains(strings.ReplaceAll(s, `\"`, `"`)) })
	sc.Step(`^the text contains:$`, func(doc *godog.DocString) error { return w.textContains(doc.Content) })
	sc.Step(`^the text does not contain "(.*)"$`, func(s string) error { return w.textLacks(strings.ReplaceAll(s, `\"`, `"`)) })
	sc.Step(`^"([^"]*)" is:$`, w.valueIs)
	sc.Step(`^"([^"]*)" is '(.*)'$`, func(path, want string) error { return w.valueIs(path, &godog.DocString{Content: want}) })
	sc.Step(`^"([^"]*)" has (\d+) items?$`, w.hasItems)
	sc.Step(`^"([^"]*)" includes:$`, w.includes)
	sc.Step(`^"([^"]*)" is absent$`, w.absent)
	sc.Step(`^"([^"]*)" includes the object '(.*)'$`, w.includesObject)
	sc.Step(`^I read the resource "([^"]*)"$`, w.readResource)
	sc.Step(`^reading the resource "([^"]*)" fails$`, w.readResourceFails)
	sc.Step(`^the resource text is the text of "([^"]*)" with '(.*)'$`, w.resourceMatchesTool)
}

func (w *lumoWorld) demoImported(ctx context.Context) error {
	_, err := w.db.ImportWorkspace(ctx, demo.Lumo, "workspace.yaml")
	return err
}

func (w *lumoWorld) connectedAs(ctx context.Context, login string) error {
	u, err := w.db.UserByLogin(ctx, login)
	if err != nil {
		return fmt.Errorf("user %s: %w", login, err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := lumo.NewServer(&lumo.Service{DB: w.db, Log: log, Identity: lumo.FixedUser(u), QueryTimeout: w.timeout},
		lumo.Options{ValidateOutput: true})
	if err != nil {
		return err
	}
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		return err
	}
	w.session, err = mcp.NewClient(&mcp.Implementation{Name: "features", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
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

// call runs a tool and checks the structured result against the published output schema, always.
func (w *lumoWorld) call(ctx context.Context, tool, args string) error {
	args, err := w.subst(args)
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(args), &m); err != nil {
		return fmt.Errorf("scenario arguments are not a JSON object: %w", err)
	}
	res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: m})
	if err != nil {
		return err
	}
	w.result, w.text = res, ""
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			w.text += t.Text
		}
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
	return nil
}

func (w *lumoWorld) succeeds() error {
	if w.result.IsError {
		return fmt.Errorf("call failed: %s", w.text)
	}
	return nil
}

func (w *lumoWorld) failsWith(code string) error {
	if !w.result.IsError {
		return fmt.Errorf("call succeeded, want error %s; text: %s", code, w.text)
	}
	got, _ := lookup(w.structured, "error.code")
	if len(got) != 1 || got[0] != code {
		return fmt.Errorf("error code %v, want %s; text: %s", got, code, w.text)
	}
	return nil
}

func (w *lumoWorld) textContains(s string) error {
	s, err := w.subst(s)
	if err != nil {
		return err
	}
	if !strings.Contains(w.text, strings.TrimSpace(s)) {
		return fmt.Errorf("text lacks %q; text is:\n%s", s, w.text)
	}
	return nil
}

func (w *lumoWorld) textLacks(s string) error {
	if strings.Contains(w.text, s) {
		return fmt.Errorf("text contains %q; text is:\n%s", s, w.text)
	}
	return nil
}

// subst replaces placeholders by ids read straight from the database (not through the code under
// test): "$app:<key>" (quoted: a JSON number; bare: digits in text), <col:app:table:COLUMN> and
// <expr:app:Label> (digits, for result keys such as "<col:vendas-comercial:vendas:VALOR>_SUM").
func (w *lumoWorld) subst(s string) (string, error) {
	var err error
	ctx := context.Background()
	s = appPlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		id, e := appID(ctx, w.db, appPlaceholder.FindStringSubmatch(m)[2])
		if e != nil {
			err = e
		}
		return strconv.FormatInt(id, 10)
	})
	s = idPlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		parts := strings.Split(strings.Trim(m, "<>"), ":")
		var id int64
		var e error
		if parts[0] == "col" && len(parts) == 4 {
			id, e = columnID(ctx, w.db, parts[1], parts[2], parts[3])
		} else if parts[0] == "expr" && len(parts) == 3 {
			id, e = expressionID(ctx, w.db, parts[1], parts[2])
		} else {
			e = fmt.Errorf("bad placeholder %s", m)
		}
		if e != nil {
			err = e
		}
		return strconv.FormatInt(id, 10)
	})
	return s, err
}

var (
	appPlaceholder = regexp.MustCompile(`("?)\$app:([a-z0-9_-]+)("?)`)
	idPlaceholder  = regexp.MustCompile(`<(col|expr):[^<>]+>`)
)

// expected decodes a JSON expectation after subst.
func (w *lumoWorld) expected(doc string) (any, error) {
	doc, err := w.subst(doc)
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
func (w *lumoWorld) valueIs(path string, doc *godog.DocString) error {
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

func (w *lumoWorld) at(path string) (any, error) {
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

func (w *lumoWorld) hasItems(path string, n int) error {
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
func (w *lumoWorld) includes(path string, doc *godog.DocString) error {
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
func (w *lumoWorld) includesObject(path, doc string) error {
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

func (w *lumoWorld) absent(path string) error {
	if vals, multi := lookup(w.structured, path); len(vals) > 0 && !multi {
		return fmt.Errorf("%s is present: %v", path, vals[0])
	}
	return nil
}

func (w *lumoWorld) structuredJSON() string {
	b, _ := json.Marshal(w.structured)
	return string(b)
}

func (w *lumoWorld) readResource(ctx context.Context, uri string) error {
	uri, err := w.subst(uri)
	if err != nil {
		return err
	}
	res, err := w.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return err
	}
	if len(res.Contents) != 1 {
		return fmt.Errorf("resource %s has %d contents", uri, len(res.Contents))
	}
	w.resource = res.Contents[0].Text
	return nil
}

func (w *lumoWorld) readResourceFails(ctx context.Context, uri string) error {
	uri, err := w.subst(uri)
	if err != nil {
		return err
	}
	if _, err := w.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
		return fmt.Errorf("reading %s succeeded", uri)
	}
	return nil
}

func (w *lumoWorld) resourceMatchesTool(ctx context.Context, tool, args string) error {
	if err := w.call(ctx, tool, args); err != nil {
		return err
	}
	if w.resource != w.text {
		return fmt.Errorf("resource text differs from %s text:\n%s", tool, cmp.Diff(w.text, w.resource))
	}
	return nil
}

// lookup walks a dotted path with [n] and [*] steps; multi reports whether [*] was used.
func lookup(v any, path string) (vals []any, multi bool) {
	cur := []any{v}
	for _, part := range splitPath(path) {
		var next []any
		for _, c := range cur {
			switch {
			case part == "[*]":
				multi = true
				if l, ok := c.([]any); ok {
					next = append(next, l...)
				}
			case strings.HasPrefix(part, "["):
				i, _ := strconv.Atoi(strings.Trim(part, "[]"))
				if l, ok := c.([]any); ok && i < len(l) {
					next = append(next, l[i])
				}
			default:
				if m, ok := c.(map[string]any); ok {
					if e, ok := m[part]; ok {
						next = append(next, e)
					}
				}
			}
		}
		cur = next
	}
	return cur, multi
}

func splitPath(p string) []string {
	var parts []string
	for _, seg := range strings.Split(p, ".") {
		for seg != "" {
			i := strings.Index(seg, "[")
			switch {
			case i < 0:
				parts, seg = append(parts, seg), ""
			case i > 0:
				parts, seg = append(parts, seg[:i]), seg[i:]
			default:
				j := strings.Index(seg, "]")
				parts, seg = append(parts, seg[:j+1]), seg[j+1:]
			}
		}
	}
	return parts
}

// subset reports whether want is deep-included in got (objects: every wanted key matches).
func subset(want, got any) bool {
	switch wv := want.(type) {
	case map[string]any:
		gm, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, e := range wv {
			g, ok := gm[k]
			if !ok || !subset(e, g) {
				return false
			}
		}
		return true
	case []any:
		gl, ok := got.([]any)
		if !ok || len(gl) != len(wv) {
			return false
		}
		for i := range wv {
			if !subset(wv[i], gl[i]) {
				return false
			}
		}
		return true
	}
	return cmp.Equal(want, got)
}
