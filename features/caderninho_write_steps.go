package features

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/cucumber/godog"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

func (w *cadWorld) addWriteSteps(sc *godog.ScenarioContext) {
	sc.Step(`^(\d+) manual records of (-?\d+) "([A-Z]{3})" are stored in space "([^"]*)" on "([^"]*)", bumping its revision once$`, w.storeManyRecords)
	sc.Step(`^space "([^"]*)" holds (\d+) manual records?$`, w.spaceHoldsRecords)
	sc.Step(`^space "([^"]*)" holds (\d+) manual records? with category "([^"]*)"$`, w.spaceHoldsCategorised)
	sc.Step(`^space "([^"]*)" holds (\d+) edits?$`, w.spaceHoldsEdits)
	sc.Step(`^space "([^"]*)" holds (\d+) rules?$`, w.spaceHoldsRules)
	sc.Step(`^the revision of space "([^"]*)" is (\d+)$`, w.revisionIs)
	sc.Step(`^the server restarts on the same database$`, w.restart)
	sc.Step(`^another process is running "([^"]*)" with '(.*)'$`, w.claimRunning)
	sc.Step(`^no listed tool's name or title offers to "([^"]*)"$`, w.noToolOffers)
	sc.Step(`^the tools "([^"]*)" are annotated as local writes: not read-only, idempotent, closed-world, destructive "(yes|no)"$`, w.annotatedWrite)
}

// storeManyRecords inserts n manual records in one transaction, as an import of many would.
func (w *cadWorld) storeManyRecords(ctx context.Context, n int, amount int64, currency, space, day string) error {
	if external() { // writes behind the server need our database
		return errNeedsOwnSetup
	}
	db := w.store.DB()
	q := func(s string) string { return sqldialect.Rebind(db.Dialect(), s) }
	tx, err := db.SQL().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, q("UPDATE cad_ids SET last_id = last_id + ? WHERE kind = 'record'"), n); err != nil {
		return err
	}
	var last int64
	if err := tx.QueryRowContext(ctx, "SELECT last_id FROM cad_ids WHERE kind = 'record'").Scan(&last); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		desc := fmt.Sprintf("Lote %d", i+1)
		if _, err := tx.ExecContext(ctx, q(`INSERT INTO cad_records (id, space_key, record_day, amount_minor, currency, description, search_fold,
			excluded, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`), last-int64(n)+int64(i)+1, space, day, amount, currency,
			desc, strings.ToLower(desc), "2026-11-01T12:00:00Z", "2026-11-01T12:00:00Z"); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, q("UPDATE cad_spaces SET revision = revision + 1 WHERE space_key = ?"), space); err != nil {
		return err
	}
	return tx.Commit()
}

func (w *cadWorld) count(ctx context.Context, query string, args ...any) (int, error) {
	if external() { // reads our database
		return 0, errNeedsOwnSetup
	}
	db := w.store.DB()
	var n int
	err := db.SQL().QueryRowContext(ctx, sqldialect.Rebind(db.Dialect(), query), args...).Scan(&n)
	return n, err
}

func (w *cadWorld) spaceHoldsRecords(ctx context.Context, space string, want int) error {
	n, err := w.count(ctx, "SELECT COUNT(*) FROM cad_records WHERE space_key = ?", space)
	if err == nil && n != want {
		err = fmt.Errorf("space %s holds %d manual records, want %d", space, n, want)
	}
	return err
}

func (w *cadWorld) spaceHoldsCategorised(ctx context.Context, space string, want int, category string) error {
	n, err := w.count(ctx, "SELECT COUNT(*) FROM cad_records WHERE space_key = ? AND category = ?", space, category)
	if err == nil && n != want {
		err = fmt.Errorf("space %s holds %d manual records with category %s, want %d", space, n, category, want)
	}
	return err
}

func (w *cadWorld) spaceHoldsEdits(ctx context.Context, space string, want int) error {
	n, err := w.count(ctx, "SELECT COUNT(*) FROM cad_edits WHERE space_key = ?", space)
	if err == nil && n != want {
		err = fmt.Errorf("space %s holds %d edits, want %d", space, n, want)
	}
	return err
}

func (w *cadWorld) spaceHoldsRules(ctx context.Context, space string, want int) error {
	n, err := w.count(ctx, "SELECT COUNT(*) FROM cad_rules WHERE space_key = ?", space)
	if err == nil && n != want {
		err = fmt.Errorf("space %s holds %d rules, want %d", space, n, want)
	}
	return err
}

func (w *cadWorld) revisionIs(ctx context.Context, space string, want int) error {
	n, err := w.count(ctx, "SELECT revision FROM cad_spaces WHERE space_key = ?", space)
	if err == nil && n != want {
		err = fmt.Errorf("space %s is at revision %d, want %d", space, n, want)
	}
	return err
}

// claimRunning claims the call's key as a write that started and has not committed yet.
func (w *cadWorld) claimRunning(ctx context.Context, tool, args string) error {
	if external() { // writes behind the server need our database
		return errNeedsOwnSetup
	}
	digest, err := caderninho.ArgumentsDigest(tool, json.RawMessage(args))
	if err != nil {
		return err
	}
	var m struct {
		Key string `json:"idempotency_key"`
	}
	if err := json.Unmarshal([]byte(args), &m); err != nil {
		return err
	}
	claim, _, err := w.store.ClaimWrite(ctx, m.Key, tool, digest)
	if err == nil && claim == nil {
		err = fmt.Errorf("key %s was already stored", m.Key)
	}
	return err
}

// restart drops the session and the service and starts a new server on the same database: only
// what the database keeps survives.
func (w *cadWorld) restart(ctx context.Context) error {
	if external() { // restarting is ours to do
		return errNeedsOwnSetup
	}
	if w.session != nil {
		w.session.Close()
	}
	return w.connect(ctx)
}

// noToolOffers checks that no tool's name or title offers an action: none of their words is one
// of the comma-separated words (any case).
func (w *cadWorld) noToolOffers(words string) error {
	banned := map[string]bool{}
	for _, word := range strings.Split(words, ", ") {
		banned[strings.ToLower(word)] = true
	}
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
	}
	for name, t := range w.tools {
		for _, word := range append(split(name), split(t.Title)...) {
			if banned[word] {
				return fmt.Errorf("tool %s (%s) is named for %q", name, t.Title, word)
			}
		}
	}
	return nil
}

func (w *cadWorld) annotatedWrite(list, destructive string) error {
	for _, name := range strings.Split(list, ", ") {
		t := w.tools[name]
		if t == nil {
			return fmt.Errorf("tool %s is not listed", name)
		}
		a := t.Annotations
		if a == nil || a.ReadOnlyHint || !a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint ||
			a.DestructiveHint == nil || *a.DestructiveHint != (destructive == "yes") {
			return fmt.Errorf("tool %s annotations: %+v", name, a)
		}
	}
	return nil
}
