package features

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore/cadstoretest"
	"github.com/lumo-caderninho/mcp/impl/caderninho/demo"
	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
)

// cadWorld is one caderninho scenario: a copy of the demo installation in a temporary folder,
// a fresh database, a client session and the last answer.
type cadWorld struct {
	mcpWorld
	t     *testing.T
	store *cadstore.Store
	dir   string
	saved map[string]any
	pages []any // transactions gathered by reading every page
	// maxResult, when positive, is the server's answer limit (caderninho.Options.MaxResultBytes).
	maxResult int
	readOnly  bool // caderninho.Options.ReadOnly
}

func initCaderninhoSteps(t *testing.T, sc *godog.ScenarioContext) {
	w := &cadWorld{t: t}
	w.mcpWorld.subst = w.recall
	w.afterCall = func(tool string) error { // the structuredContent is repeated as a JSON text block
		if len(w.texts) != 2 || len(w.result.Content) != 2 {
			return fmt.Errorf("%s returned %d content blocks, want the text and its JSON", tool, len(w.result.Content))
		}
		return nil
	}
	w.addGenericSteps(sc)
	sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
		if external() {
			w.saved = map[string]any{}
			return ctx, nil
		}
		w.dir = t.TempDir()
		if err := demo.CopyCaderninho(w.dir); err != nil {
			return ctx, err
		}
		w.store = cadstoretest.Open(t)
		w.saved = map[string]any{}
		w.maxResult = 0
		return ctx, nil
	})
	sc.After(func(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
		if w.session != nil {
			w.session.Close()
			w.session = nil
		}
		if w.store != nil {
			w.store.DB().Close()
		}
		return ctx, nil
	})
	sc.Step(`^the demo installation is imported$`, w.demoImported)
	sc.Step(`^I am connected as the local assistant$`, w.connect)
	sc.Step(`^I am connected as the local assistant to a read-only server$`, func(ctx context.Context) error {
		if external() {
			return errNeedsOwnSetup
		}
		w.readOnly = true
		return w.connect(ctx)
	})
	sc.Step(`^calling "([^"]*)" with '(.*)' is refused as an unknown tool$`, w.unknownTool)
	sc.Step(`^the tools "([^"]*)" are annotated read-only, idempotent, closed-world and not destructive$`, w.annotatedReadOnly)
	sc.Step(`^the tool "([^"]*)" is annotated as not read-only, idempotent, open-world and not destructive$`, w.annotatedSync)
	sc.Step(`^the description of "([^"]*)" contains "([^"]*)"$`, w.descriptionContains)
	sc.Step(`^the server instructions contain "([^"]*)"$`, w.instructionsContain)
	initToolSteps(&w.mcpWorld, sc)
	sc.Step(`^every tool publishes its output schema from schemas/caderninho, bundled$`, func() error { return w.toolsPublishSchemas("caderninho") })
	sc.Step(`^every tool's input examples pass its published input schema, and validating them calls nothing$`, w.examplesPass)
	sc.Step(`^the second text block is the structuredContent as JSON$`, w.jsonBlock)
	sc.Step(`^"([^"]*)" is a string of digits$`, w.isDigits)
	sc.Step(`^I remember "([^"]*)" as "([^"]*)"$`, w.remember)
	sc.Step(`^I read every page of "([^"]*)" with '(.*)'$`, w.readAllPages)
	sc.Step(`^no record id repeats in the pages$`, w.noRecordRepeats)
	sc.Step(`^these manual records are stored directly in the tables, each bumping its space's revision:$`, w.storeRecords)
	sc.Step(`^these edits are stored directly in the tables, each bumping its space's revision:$`, w.storeEdits)
	sc.Step(`^these edits of transactions the bank (?:no longer lists|does not list yet) are stored directly in the tables:$`, w.storeUnmatchedEdits)
	sc.Step(`^the pages hold (\d+) transactions$`, w.pagesHold)
	sc.Step(`^their amounts sum to "(-?\d+)" "([A-Z]{3})"$`, w.pagesSum)
	sc.Step(`^no transaction id repeats and no FITID repeats within an account$`, w.noRepeats)
	sc.Step(`^FITID "([^"]*)" appears once in each of the accounts "([^"]*)"$`, w.fitidIn)
	sc.Step(`^every transaction dated from "([^"]*)" to "([^"]*)"$`, w.datedWithin)
	sc.Step(`^the statement "([^"]*)" is placed in the folder of "([^"]*)"$`, w.placeStatement)
	sc.Step(`^a malformed statement "([^"]*)" is placed in the folder of "([^"]*)"$`, w.placeMalformed)
	sc.Step(`^the file "([^"]*)" is placed in the folder of "([^"]*)" with:$`, w.placeFile)
	w.addWriteSteps(sc)
	initPanelSteps(w, sc)
	w.addLimitSteps(sc)
	w.addBankFileSteps(sc)
}

func (w *cadWorld) demoImported(ctx context.Context) error {
	if external() { // a foreign target holds the fixture already
		return nil
	}
	inst, err := installation.Load(os.DirFS(w.dir), "installation.yaml")
	if err != nil {
		return err
	}
	if _, err := w.store.Register(ctx, inst, w.dir); err != nil {
		return err
	}
	outs, err := w.store.ImportConnections(ctx, nil)
	if err != nil {
		return err
	}
	for _, o := range outs {
		if o.Status != cadstore.StatusImported {
			return fmt.Errorf("importing %s: %+v", o.Connection, o)
		}
	}
	return nil
}

func (w *cadWorld) connect(ctx context.Context) error {
	if external() {
		return w.connectTarget(ctx, "", cadFixtureToken)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &caderninho.Service{Store: w.store, Log: log, Identity: caderninho.Fixed(caderninho.LocalAssistant)}
	srv, err := caderninho.NewServer(svc, caderninho.Options{ValidateOutput: true, MaxResultBytes: w.maxResult, ReadOnly: w.readOnly})
	if err != nil {
		return err
	}
	// Every read runs over REST too and must answer the same (a write's second call would be its
	// replay; writes over REST are tested in cmd/caderninho). The answer bound counts the text over
	// MCP, so bounded servers are not mirrored.
	w.mirror = nil
	if w.maxResult == 0 {
		rest, err := caderninho.NewREST(&caderninho.Service{Store: w.store, Log: log, Identity: caderninho.Fixed(caderninho.LocalAssistant)},
			caderninho.Options{ValidateOutput: true, ReadOnly: w.readOnly}, 0, nil)
		if err != nil {
			return err
		}
		w.mirror = restMirror(rest, func(tool string) bool {
			t := w.tools[tool]
			return t == nil || t.Annotations == nil || t.Annotations.ReadOnlyHint // unknown: the 404 is compared
		})
	}
	if w.session != nil { // connecting again, under other options
		w.session.Close()
	}
	return w.mcpWorld.connect(ctx, srv)
}

// unknownTool checks that the server answers a call of tool with a protocol error, not a result.
func (w *cadWorld) unknownTool(ctx context.Context, tool, args string) error {
	res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err == nil {
		return fmt.Errorf("%s answered %+v, want a protocol error", tool, res)
	}
	if !strings.Contains(err.Error(), "unknown tool") {
		return fmt.Errorf("%s: %v, want an unknown-tool error", tool, err)
	}
	return nil
}

func (w *cadWorld) annotatedReadOnly(list string) error {
	for _, name := range strings.Split(list, ", ") {
		t := w.tools[name]
		if t == nil {
			return fmt.Errorf("tool %s is not listed", name)
		}
		a := t.Annotations
		if a == nil || !a.ReadOnlyHint || !a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint ||
			a.DestructiveHint == nil || *a.DestructiveHint {
			b, _ := json.Marshal(a)
			return fmt.Errorf("tool %s annotations: %s", name, b)
		}
	}
	return nil
}

func (w *cadWorld) annotatedSync(name string) error {
	t := w.tools[name]
	if t == nil {
		return fmt.Errorf("tool %s is not listed", name)
	}
	a := t.Annotations
	if a == nil || a.ReadOnlyHint || !a.IdempotentHint || a.OpenWorldHint == nil || !*a.OpenWorldHint ||
		a.DestructiveHint == nil || *a.DestructiveHint {
		b, _ := json.Marshal(a)
		return fmt.Errorf("tool %s annotations: %s", name, b)
	}
	return nil
}

func (w *cadWorld) descriptionContains(name, s string) error {
	t := w.tools[name]
	if t == nil {
		return fmt.Errorf("tool %s is not listed", name)
	}
	if t.Title == "" || !strings.Contains(t.Description, s) {
		return fmt.Errorf("tool %s: title %q, description %q lacks %q", name, t.Title, t.Description, s)
	}
	return nil
}

func (w *cadWorld) instructionsContain(s string) error {
	ins := w.session.InitializeResult().Instructions
	if !strings.Contains(ins, s) {
		return fmt.Errorf("instructions lack %q:\n%s", s, ins)
	}
	return nil
}

var savedRef = regexp.MustCompile(`\{\{([a-zA-Z_]+)\}\}`)

// recall replaces {{name}} by the JSON of a remembered value.
func (w *cadWorld) recall(s string) (string, error) {
	var err error
	s = savedRef.ReplaceAllStringFunc(s, func(m string) string {
		name := savedRef.FindStringSubmatch(m)[1]
		v, ok := w.saved[name]
		if !ok {
			err = fmt.Errorf("nothing remembered as %q", name)
			return m
		}
		b, _ := json.Marshal(v)
		return string(b)
	})
	return s, err
}

func (w *cadWorld) jsonBlock() error {
	var fromText any
	if err := json.Unmarshal([]byte(w.texts[1]), &fromText); err != nil {
		return fmt.Errorf("second text block is not JSON: %v\n%s", err, w.texts[1])
	}
	if d := cmp.Diff(w.structured, fromText); d != "" {
		return fmt.Errorf("JSON text differs from structuredContent:\n%s", d)
	}
	return nil
}

var digitsOnly = regexp.MustCompile(`^-?[0-9]+$`)

func (w *cadWorld) isDigits(path string) error {
	vals, _ := lookup(w.structured, path)
	if len(vals) == 0 {
		return fmt.Errorf("%s is absent", path)
	}
	for _, v := range vals {
		s, ok := v.(string)
		if !ok || !digitsOnly.MatchString(s) {
			return fmt.Errorf("%s holds %#v, not a string of digits", path, v)
		}
	}
	return nil
}

func (w *cadWorld) remember(path, name string) error {
	v, err := w.at(path)
	if err != nil {
		return err
	}
	w.saved[name] = v
	return nil
}

// readAllPages calls caderninho_transactions with args, then with each nextCursor, collecting
// every transaction; each page is validated like any call.
func (w *cadWorld) readAllPages(ctx context.Context, tool, args string) error {
	listKey := "transactions"
	if tool == "plan_transactions" {
		listKey = "records"
	}
	w.pages = nil
	var m map[string]any
	if err := json.Unmarshal([]byte(args), &m); err != nil {
		return err
	}
	for page := 0; ; page++ {
		if page > 1000 {
			return fmt.Errorf("more than 1000 pages")
		}
		b, _ := json.Marshal(m)
		if err := w.call(ctx, tool, string(b)); err != nil {
			return err
		}
		if err := w.succeeds(); err != nil {
			return err
		}
		list, _ := w.at(listKey)
		w.pages = append(w.pages, list.([]any)...)
		next, _ := w.at("nextCursor")
		truncated, _ := w.at("truncated")
		if next == nil {
			if truncated != false {
				return fmt.Errorf("last page says truncated %v", truncated)
			}
			return nil
		}
		if truncated != true {
			return fmt.Errorf("a page with nextCursor says truncated %v", truncated)
		}
		m["cursor"] = next
	}
}

func (w *cadWorld) pagesHold(n int) error {
	if len(w.pages) != n {
		return fmt.Errorf("the pages hold %d transactions, want %d", len(w.pages), n)
	}
	return nil
}

// pagesSum adds amountMinor exactly (as integers of the strings) for one currency.
func (w *cadWorld) pagesSum(want, currency string) error {
	var sum int64
	for _, t := range w.pages {
		amt := t.(map[string]any)["amount"].(map[string]any)
		if amt["currency"] != currency {
			return fmt.Errorf("transaction in %v among %s ones", amt["currency"], currency)
		}
		var n int64
		if _, err := fmt.Sscan(amt["amountMinor"].(string), &n); err != nil {
			return err
		}
		sum += n
	}
	if fmt.Sprint(sum) != want {
		return fmt.Errorf("amounts sum to %d, want %s", sum, want)
	}
	return nil
}

func (w *cadWorld) noRepeats() error {
	ids := map[any]bool{}
	fitids := map[string]bool{}
	for _, t := range w.pages {
		m := t.(map[string]any)
		if ids[m["id"]] {
			return fmt.Errorf("transaction id %v repeats", m["id"])
		}
		ids[m["id"]] = true
		if f, ok := m["fitid"].(string); ok {
			k := m["accountId"].(string) + " " + f
			if fitids[k] {
				return fmt.Errorf("FITID %s repeats in %s", f, m["accountId"])
			}
			fitids[k] = true
		}
	}
	return nil
}

func (w *cadWorld) fitidIn(fitid, accounts string) error {
	got := map[string]int{}
	for _, t := range w.pages {
		m := t.(map[string]any)
		if m["fitid"] == fitid {
			got[m["accountId"].(string)]++
		}
	}
	want := map[string]int{}
	for _, a := range strings.Split(accounts, ", ") {
		want[a] = 1
	}
	if d := cmp.Diff(want, got); d != "" {
		return fmt.Errorf("FITID %s per account (-want +got):\n%s", fitid, d)
	}
	return nil
}

func (w *cadWorld) datedWithin(from, to string) error {
	for _, t := range w.pages {
		d := t.(map[string]any)["date"].(string)
		if d < from || d > to {
			return fmt.Errorf("transaction dated %s outside %s..%s", d, from, to)
		}
	}
	return nil
}

// placeStatement copies a file of the demo's next/ folder into a connection's statement folder.
func (w *cadWorld) placeStatement(file, connection string) error {
	if external() {
		return errNeedsOwnSetup
	}
	b, err := os.ReadFile(filepath.Join(w.dir, filepath.FromSlash(file)))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(w.dir, "ofx", connection, filepath.Base(file)), b, 0o644)
}

// placeFile writes a file with the given text into the connection's folder.
func (w *cadWorld) placeFile(name, connection string, doc *godog.DocString) error {
	if external() {
		return errNeedsOwnSetup
	}
	return os.WriteFile(filepath.Join(w.dir, "ofx", connection, name), []byte(doc.Content+"\n"), 0o644)
}

// placeMalformed writes a copy of the connection's first statement whose first amount is "abc".
func (w *cadWorld) placeMalformed(name, connection string) error {
	if external() {
		return errNeedsOwnSetup
	}
	folder := filepath.Join(w.dir, "ofx", connection)
	entries, err := os.ReadDir(folder)
	if err != nil || len(entries) == 0 {
		return fmt.Errorf("reading %s: %v", folder, err)
	}
	b, err := os.ReadFile(filepath.Join(folder, entries[0].Name()))
	if err != nil {
		return err
	}
	bad := regexp.MustCompile(`<TRNAMT>[^\r\n<]*`).ReplaceAllString(string(b), "<TRNAMT>abc")
	if bad == string(b) {
		return fmt.Errorf("%s has no TRNAMT", entries[0].Name())
	}
	return os.WriteFile(filepath.Join(folder, name), []byte(bad), 0o644)
}

// examplesPass validates the examples of each published input schema against that schema alone,
// and checks that nothing ran meanwhile: no import request, no revision moved.
func (w *cadWorld) examplesPass(ctx context.Context) error {
	if external() {
		return errNeedsOwnSetup
	}
	before, err := w.store.Spaces(ctx)
	if err != nil {
		return err
	}
	for name, t := range w.tools {
		b, err := json.Marshal(t.InputSchema)
		if err != nil {
			return err
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
		if err != nil {
			return err
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.AssertFormat()
		if err := c.AddResource("published://"+name+".input.json", doc); err != nil {
			return err
		}
		sch, err := c.Compile("published://" + name + ".input.json")
		if err != nil {
			return err
		}
		examples, _ := doc.(map[string]any)["examples"].([]any)
		if len(examples) == 0 {
			return fmt.Errorf("%s publishes no examples", name)
		}
		for i, ex := range examples {
			if err := sch.Validate(ex); err != nil {
				return fmt.Errorf("%s example %d breaks its input schema: %v", name, i, err)
			}
		}
	}
	after, err := w.store.Spaces(ctx)
	if err != nil {
		return err
	}
	if d := cmp.Diff(before, after); d != "" {
		return fmt.Errorf("revisions moved while validating examples:\n%s", d)
	}
	var n int
	if err := w.store.DB().SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM cad_syncs").Scan(&n); err != nil || n != 0 {
		return fmt.Errorf("%d import requests exist after validating examples (%v)", n, err)
	}
	return nil
}
