package features

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/cucumber/godog"
	"github.com/google/go-cmp/cmp"

	"github.com/lumo-caderninho/mcp/schemas"
)

func initToolSteps(w *mcpWorld, sc *godog.ScenarioContext) {
	sc.Step(`^the listed tools are "([^"]*)"$`, w.toolsAre)
	sc.Step(`^every tool is annotated read-only, idempotent, closed-world and not destructive$`, w.toolsReadOnly)
	sc.Step(`^every tool has a title and a Portuguese description saying when to use it$`, w.toolsDescribed)
	sc.Step(`^every tool publishes the schemas of "([^"]*)" bundled, without references to other files$`, w.toolsPublishSchemas)
}

func (w *mcpWorld) toolsAre(list string) error {
	var got []string
	for name := range w.tools {
		got = append(got, name)
	}
	sort.Strings(got)
	want := strings.Split(list, ", ")
	sort.Strings(want)
	if d := cmp.Diff(want, got); d != "" {
		return fmt.Errorf("tools differ (-want +got):\n%s", d)
	}
	return nil
}

func (w *mcpWorld) toolsReadOnly() error {
	for name, t := range w.tools {
		a := t.Annotations
		if a == nil || !a.ReadOnlyHint || !a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint ||
			a.DestructiveHint == nil || *a.DestructiveHint {
			b, _ := json.Marshal(a)
			return fmt.Errorf("tool %s annotations: %s", name, b)
		}
	}
	return nil
}

func (w *mcpWorld) toolsDescribed() error {
	for name, t := range w.tools {
		if t.Title == "" || !strings.Contains(t.Description, "Use ") {
			return fmt.Errorf("tool %s: title %q, description %q", name, t.Title, t.Description)
		}
	}
	return nil
}

// toolsPublishSchemas checks each published schema against the source files independently of the
// bundler: an output document equals its source file, shared refs pointing at local $defs, and
// every $defs entry equals the tool file's own definition or common.json's; an input document
// has no reference at all and equals its source with every ref resolved in place.
func (w *mcpWorld) toolsPublishSchemas(dir string) error {
	common, err := sourceSchema(dir, "common.json")
	if err != nil {
		return err
	}
	commonDefs, _ := common["$defs"].(map[string]any)
	for name, t := range w.tools {
		if t.OutputSchema == nil {
			return fmt.Errorf("%s publishes no output schema", name)
		}
		for suffix, published := range map[string]any{".input.json": t.InputSchema, ".output.json": t.OutputSchema} {
			src, err := sourceSchema(dir, name+suffix)
			if err != nil {
				return err
			}
			var pub map[string]any
			b, _ := json.Marshal(published)
			if err := json.Unmarshal(b, &pub); err != nil {
				return err
			}
			if strings.Contains(string(b), ".json#") {
				return fmt.Errorf("%s%s published with a reference to another file", name, suffix)
			}
			pubDefs, _ := pub["$defs"].(map[string]any)
			srcDefs, _ := src["$defs"].(map[string]any)
			delete(pub, "$defs")
			delete(src, "$defs")
			if suffix == ".input.json" {
				// An input schema is self-contained: each ref written in place, its siblings kept.
				if strings.Contains(string(b), `"$ref"`) || pubDefs != nil {
					return fmt.Errorf("%s%s published with references; clients building forms need them in place", name, suffix)
				}
				src = resolveRefs(src, srcDefs, commonDefs).(map[string]any)
			}
			if d := cmp.Diff(src, pub); d != "" {
				return fmt.Errorf("%s%s published differently from schemas/ (-source +published):\n%s", name, suffix, d)
			}
			for def, body := range pubDefs {
				want, ok := srcDefs[def]
				if !ok {
					want = commonDefs[def]
				}
				if d := cmp.Diff(want, body); d != "" {
					return fmt.Errorf("%s%s $defs/%s differs from its source (-source +published):\n%s", name, suffix, def, d)
				}
			}
		}
	}
	return nil
}

// resolveRefs is v with every {"$ref": "#/$defs/X", ...} replaced by definition X (the file's
// own, else common.json's), resolved in turn, with the ref's siblings over it.
func resolveRefs(v any, own, common map[string]any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		if ref, ok := x["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, "#/$defs/")
			def, ok := own[name]
			if !ok {
				def = common[name]
			}
			for k, dv := range resolveRefs(def, own, common).(map[string]any) {
				out[k] = dv
			}
		}
		for k, sv := range x {
			if k == "$ref" {
				continue
			}
			if k == "examples" || k == "enum" || k == "const" || k == "default" {
				out[k] = sv
				continue
			}
			out[k] = resolveRefs(sv, own, common)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = resolveRefs(e, own, common)
		}
		return out
	}
	return v
}

// sourceSchema reads a schema file with cross-file refs rewritten to local ones, as bundling does.
func sourceSchema(dir, file string) (map[string]any, error) {
	b, err := schemas.FS.ReadFile(dir + "/" + file)
	if err != nil {
		return nil, err
	}
	text := strings.ReplaceAll(string(b), `"common.json#/$defs/`, `"#/$defs/`)
	var m map[string]any
	return m, json.Unmarshal([]byte(text), &m)
}
