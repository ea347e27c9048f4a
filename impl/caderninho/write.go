package caderninho

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/go-faster/jx"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

// SelectionLimit is the atomic limit of a write by selection or period.
const SelectionLimit = 500

// Sentences of the contract the write refusals repeat, exact.
const (
	confirmNote      = "Obtenha a confirmação do proprietário antes de executar."
	anotherKeyNote   = "Outra solicitação precisa de outra chave. Uma chave reutilizada para dados diferentes é recusada."
	nextNetwork      = "Repita apenas a mesma operação com a mesma chave"
	selectionNote    = "Escritas por seleção ou período recusam seleções acima do limite atômico de 500 registros."
	localWritesNote  = "Todas as escritas são locais. Nenhuma ferramenta paga faturas, envia Pix, contrata crédito ou altera um registro na instituição."
	replayNote       = "Uma repetição com a mesma chave e os mesmos argumentos normalizados devolve o resultado durável anterior."
	maxChangesListed = 20
)

// writeArgs is what every planning write carries besides its own fields.
type writeArgs struct {
	space            string
	confirmed        bool
	key              string
	expectedRevision *int64
}

// change is one record (or budget) a write changes: before null on creation, after null on
// removal.
type change struct {
	ID            string
	Before, After caderninhoapi.NilSnapshot

	beforeRec, afterRec *planRecord // for subtotals; nil for budgets
}

// out is the change as clients receive it.
func (c *change) out() caderninhoapi.Change {
	return caderninhoapi.Change{ID: c.ID, Before: c.Before, After: c.After}
}

// planned is what a write would change, computed from the current data without writing; apply
// writes it within the write's transaction.
type planned struct {
	tool, space string
	revision    int64 // the space's revision the plan was read at
	bySelection bool  // the atomic limit applies
	changes     []*change
	apply       func(ctx context.Context, w *cadstore.WriteTx) error
	// selected is how many records the write selected, before dropNoOps: the atomic limit
	// applies to the selection, whether or not each record changes.
	selected int
	// prepare, when set, runs before the write commits (never for a preview): what only the
	// answer needs, such as plan_categorize's suggested rule.
	prepare func(ctx context.Context) error
	// extra, when set, gives the tool's own fields of the answer (after apply, or without it for
	// a write without changes) and a text to add; they are stored with the result for replays.
	extra func() (mcpserver.Encoder, string)
}

// dropNoOps keeps only the changes whose state after differs from before (a category set to the
// one a record has, a budget set to its amount), remembering the selection's size. A write left
// without changes writes nothing and keeps the revision.
func (p *planned) dropNoOps() error {
	p.selected = len(p.changes)
	kept := p.changes[:0]
	for _, c := range p.changes {
		same, err := c.isNoOp()
		if err != nil {
			return err
		}
		if !same {
			kept = append(kept, c)
		}
	}
	p.changes = kept
	return nil
}

// isNoOp reports whether c leaves its record (or budget) as it was.
func (c *change) isNoOp() (bool, error) {
	if c.Before.Null || c.After.Null {
		return false, nil
	}
	var b, a jx.Encoder
	c.Before.Value.Encode(&b)
	c.After.Value.Encode(&a)
	return bytes.Equal(a.Bytes(), b.Bytes()), nil
}

// writeResult is the answer every planning write shares: the generated outputs of
// plan_edit_transaction, plan_add_record, plan_delete_record, plan_set_budget and
// plan_delete_rule have exactly these fields, so each is a conversion of it; plan_categorize and
// plan_set_rule add their own (written.extra).
type writeResult = caderninhoapi.PlanEditTransactionOutput

// written is a write's answer: the shared result, the tool's own fields as JSON (nil when it has
// none) and the text.
type written struct {
	out   *writeResult
	extra json.RawMessage
	text  func() string
}

// storedResult is the durable answer of a write, replayed for the same key and arguments;
// structured is the writeResult as JSON, extra the tool's own fields.
type storedResult struct {
	Text       string          `json:"text"`
	Structured json.RawMessage `json:"structured"`
	Extra      json.RawMessage `json:"extra,omitempty"`
}

// ArgumentsDigest is how a write's arguments are compared for idempotency (tests claim keys
// with it, as a running write would).
func ArgumentsDigest(tool string, raw json.RawMessage) (string, error) {
	return normalisedDigest(tool, raw)
}

// normalisedDigest names a write's arguments for idempotency: everything but the key and the
// confirmation, with object keys sorted.
func normalisedDigest(tool string, raw json.RawMessage) (string, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return "", fmt.Errorf("normalising arguments: %w", err)
	}
	delete(m, "idempotency_key")
	delete(m, "confirmed")
	// A bank transaction named by its plain number is the same argument as bank:<n>.
	if id, ok := m["id"].(string); ok {
		m["id"] = canonicalRecordID(id)
	}
	if ids, ok := m["ids"].([]any); ok {
		for i, id := range ids {
			if id, ok := id.(string); ok {
				ids[i] = canonicalRecordID(id)
			}
		}
	}
	b, err := json.Marshal([]any{tool, m}) // maps marshal with sorted keys
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

func confirmationRequired(tool string) *mcpserver.ToolError {
	return &mcpserver.ToolError{Code: "CONFIRMATION_REQUIRED",
		Message: "confirmed: a escrita " + tool + " exige confirmed: true. Nada foi escrito. " +
			"Toda escrita de planejamento exige o espaço explícito, confirmed: true e uma idempotency_key única para a solicitação. " + confirmNote,
		Suggestions: []string{confirmNote, "Mostre ao proprietário o que mudará (plan_preview) e repita com confirmed: true e a mesma idempotency_key."}}
}

func restartRequired(space string, want, now int64) *mcpserver.ToolError {
	return &mcpserver.ToolError{Code: "RESTART_REQUIRED",
		Message: fmt.Sprintf("expectedRevision: o espaço %s está na revisão %d, não na %d: os dados mudaram depois da leitura. Nada foi escrito. %s",
			space, now, want, restartNote),
		Suggestions: []string{nextRestart, "Releia (ou chame plan_preview) e repita com a revisão atual e uma nova idempotency_key."}}
}

// write runs a planning write under the contract: confirmation, the idempotency key claimed in
// its own row, the plan checked against the revision and the atomic limit, and the changes and
// the durable result committed in one transaction.
// The arguments are compared as in encodes them: the same JSON the caller sent, decoded.
func (s *Service) write(ctx context.Context, tool string, in mcpserver.Encoder, a writeArgs,
	plan func(ctx context.Context) (*planned, error)) (*written, error) {
	if !a.confirmed {
		return nil, confirmationRequired(tool)
	}
	var raw jx.Encoder
	in.Encode(&raw)
	digest, err := normalisedDigest(tool, raw.Bytes())
	if err != nil {
		return nil, err
	}
	claim, row, err := s.Store.ClaimWrite(ctx, a.key, tool, digest)
	if err != nil {
		return nil, err
	}
	if row != nil {
		return s.replay(tool, a.key, digest, row)
	}
	// a new key: the moment to forget results past their retention (bounded, best effort)
	if n, err := s.Store.PurgeWrites(ctx); err != nil {
		s.Log.ErrorContext(ctx, "purging old idempotency keys", telemetry.ErrAttr(err))
	} else if n > 0 {
		s.Log.InfoContext(ctx, "purged old idempotency keys", "count", n)
	}
	release := func(err error) (*written, error) {
		if rerr := s.Store.ReleaseWrite(context.WithoutCancel(ctx), claim); rerr != nil {
			s.Log.ErrorContext(ctx, "releasing idempotency key", "tool", tool, telemetry.ErrAttr(rerr))
		}
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		p, err := plan(ctx)
		if err != nil {
			return release(err)
		}
		if a.expectedRevision != nil && *a.expectedRevision != p.revision {
			return release(restartRequired(p.space, *a.expectedRevision, p.revision))
		}
		if err := p.dropNoOps(); err != nil {
			return release(err)
		}
		if p.bySelection && p.selected > SelectionLimit {
			return release(selectionTooLarge(p.selected))
		}
		if p.prepare != nil {
			if err := p.prepare(ctx); err != nil {
				return release(err)
			}
		}
		var text string
		var out *writeResult
		var extra json.RawMessage
		bump := len(p.changes) > 0 // a write that changes nothing keeps the revision, so open cursors stay valid
		_, err = s.Store.CommitWrite(ctx, claim, p.space, p.revision, bump, func(w *cadstore.WriteTx, rev int64) (string, error) {
			if bump {
				if err := p.apply(ctx, w); err != nil {
					return "", err
				}
			}
			if s.beforeCommit != nil {
				if err := s.beforeCommit(); err != nil {
					return "", err
				}
			}
			out = &writeResult{Tool: tool, Space: caderninhoapi.Key(p.space), IdempotencyKey: a.key, Revision: int(rev), Count: len(p.changes),
				Ids: []string{}, Changes: []caderninhoapi.Change{}}
			listed := p.changes[:min(len(p.changes), maxChangesListed)]
			for _, c := range p.changes {
				out.Ids = append(out.Ids, c.ID)
			}
			for _, c := range listed {
				out.Changes = append(out.Changes, c.out())
			}
			text = writeText(out, listed)
			if p.extra != nil {
				enc, more := p.extra()
				var e jx.Encoder
				enc.Encode(&e)
				extra = e.Bytes()
				if more != "" {
					text += "\n" + more
				}
			}
			var e jx.Encoder
			out.Encode(&e)
			b, err := json.Marshal(storedResult{Text: text, Structured: e.Bytes(), Extra: extra})
			return string(b), err
		})
		switch {
		case errors.Is(err, cadstore.ErrRevisionMoved) && a.expectedRevision == nil && attempt < 10:
			continue // someone else wrote the space meanwhile: plan again over the new data
		case errors.Is(err, cadstore.ErrRevisionMoved):
			return release(&mcpserver.ToolError{Code: "RESTART_REQUIRED",
				Message:     "Os dados do espaço " + p.space + " mudaram durante a escrita. Nada foi escrito. " + restartNote,
				Suggestions: []string{nextRestart}})
		case errors.Is(err, cadstore.ErrClaimLost):
			return nil, inProgress(a.key)
		case err != nil:
			return release(err)
		}
		return &written{out: out, extra: extra, text: func() string { return text }}, nil
	}
}

func inProgress(key string) *mcpserver.ToolError {
	return &mcpserver.ToolError{Code: "IDEMPOTENCY_IN_PROGRESS",
		Message:     "idempotency_key: a escrita com a chave " + key + " ainda está em andamento. Espere alguns segundos e repita a mesma chamada.",
		Suggestions: []string{nextNetwork}}
}

func selectionTooLarge(n int) *mcpserver.ToolError {
	return &mcpserver.ToolError{Code: "SELECTION_TOO_LARGE",
		Message: fmt.Sprintf("selection: a seleção tem %s, acima do limite atômico de %d. Nada foi escrito. %s",
			ptbr.Count(n, "registro", "registros"), SelectionLimit, selectionNote),
		Suggestions: []string{"Restrinja a seleção (período menor, categoria, conta ou texto) e faça uma escrita por parte, cada uma com sua idempotency_key."}}
}

// replay answers a key already stored: the durable result, or a refusal.
func (s *Service) replay(tool, key, digest string, row *cadstore.WriteRow) (*written, error) {
	if row.Tool != tool || row.Arguments != digest {
		return nil, &mcpserver.ToolError{Code: "IDEMPOTENCY_KEY_REUSED",
			Message: fmt.Sprintf("idempotency_key: a chave %s já foi usada por outra solicitação (%s com outros argumentos). Nada foi escrito. %s",
				key, row.Tool, anotherKeyNote),
			Suggestions: []string{"Use uma nova idempotency_key para esta solicitação.", "Para repetir a anterior, envie exatamente os mesmos argumentos com a mesma chave."}}
	}
	if row.Status != cadstore.WriteDone || row.Result == nil {
		return nil, inProgress(key)
	}
	var res storedResult
	if err := json.Unmarshal([]byte(*row.Result), &res); err != nil {
		return nil, fmt.Errorf("decoding stored write result: %w", err)
	}
	out := new(writeResult)
	if err := out.Decode(jx.DecodeBytes(res.Structured)); err != nil {
		return nil, fmt.Errorf("decoding stored write result: %w", err)
	}
	out.Replay = true
	return &written{out: out, extra: res.Extra, text: func() string {
		return "Repetição: esta chave já foi executada; nada foi escrito de novo. " + replayNote + "\n" + res.Text
	}}, nil
}

func writeText(out *writeResult, listed []*change) string {
	var b strings.Builder
	if out.Count == 0 {
		fmt.Fprintf(&b, "Escrita local sem efeito (%s, espaço %s): 0 mudanças, os dados já estavam assim; nada foi escrito e a revisão "+
			"do espaço continua %d, então os cursores abertos continuam valendo.\n", out.Tool, out.Space, out.Revision)
		b.WriteString(localWritesNote + "\n")
		b.WriteString("Com a rede incerta, repita apenas a mesma operação com a mesma chave.")
		return b.String()
	}
	fmt.Fprintf(&b, "Escrita local feita (%s, espaço %s): %s; revisão do espaço agora %d.\n", out.Tool, out.Space,
		ptbr.Count(out.Count, "mudança", "mudanças"), out.Revision)
	for _, c := range listed {
		b.WriteString("- " + changeText(c) + "\n")
	}
	if out.Count > len(out.Changes) {
		fmt.Fprintf(&b, "… e mais %s (todos os ids em ids).\n", ptbr.Count(out.Count-len(out.Changes), "mudança", "mudanças"))
	}
	b.WriteString(localWritesNote + "\n")
	b.WriteString("Cursores abertos deste espaço agora recebem RESTART_REQUIRED. " + restartNote + "\n")
	b.WriteString("Com a rede incerta, repita apenas a mesma operação com a mesma chave.")
	return b.String()
}
