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

// change is one record (or budget) a write changes: before nil on creation, after nil on removal.
type change struct {
	ID     string `json:"id"`
	Before any    `json:"before"`
	After  any    `json:"after"`

	beforeRec, afterRec *planRecord // for subtotals; nil for budgets
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
	if c.Before == nil || c.After == nil {
		return false, nil
	}
	b, err := json.Marshal(c.Before)
	if err != nil {
		return false, err
	}
	a, err := json.Marshal(c.After)
	if err != nil {
		return false, err
	}
	return bytes.Equal(a, b), nil
}

type writeView struct {
	Tool           string    `json:"tool"`
	Space          string    `json:"space"`
	IdempotencyKey string    `json:"idempotencyKey"`
	Replay         bool      `json:"replay"`
	Revision       int64     `json:"revision"`
	Count          int       `json:"count"`
	IDs            []string  `json:"ids"`
	Changes        []*change `json:"changes"`
}

// storedResult is the durable answer of a write, replayed for the same key and arguments.
type storedResult struct {
	Text       string    `json:"text"`
	Structured writeView `json:"structured"`
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
func (s *Service) write(ctx context.Context, tool string, raw json.RawMessage, a writeArgs,
	plan func(ctx context.Context) (*planned, error)) (mcpserver.Reply, error) {
	if !a.confirmed {
		return mcpserver.Reply{}, confirmationRequired(tool)
	}
	digest, err := normalisedDigest(tool, raw)
	if err != nil {
		return mcpserver.Reply{}, err
	}
	claim, row, err := s.Store.ClaimWrite(ctx, a.key, tool, digest)
	if err != nil {
		return mcpserver.Reply{}, err
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
	release := func(err error) (mcpserver.Reply, error) {
		if rerr := s.Store.ReleaseWrite(context.WithoutCancel(ctx), claim); rerr != nil {
			s.Log.ErrorContext(ctx, "releasing idempotency key", "tool", tool, telemetry.ErrAttr(rerr))
		}
		return mcpserver.Reply{}, err
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
		var text string
		var out writeView
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
			out = writeView{Tool: tool, Space: p.space, IdempotencyKey: a.key, Revision: rev, Count: len(p.changes),
				IDs: []string{}, Changes: []*change{}}
			for i, c := range p.changes {
				out.IDs = append(out.IDs, c.ID)
				if i < maxChangesListed {
					out.Changes = append(out.Changes, c)
				}
			}
			text = writeText(out)
			b, err := json.Marshal(storedResult{Text: text, Structured: out})
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
			return mcpserver.Reply{}, inProgress(a.key)
		case err != nil:
			return release(err)
		}
		return mcpserver.Reply{Text: text, Structured: out}, nil
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
func (s *Service) replay(tool, key, digest string, row *cadstore.WriteRow) (mcpserver.Reply, error) {
	if row.Tool != tool || row.Arguments != digest {
		return mcpserver.Reply{}, &mcpserver.ToolError{Code: "IDEMPOTENCY_KEY_REUSED",
			Message: fmt.Sprintf("idempotency_key: a chave %s já foi usada por outra solicitação (%s com outros argumentos). Nada foi escrito. %s",
				key, row.Tool, anotherKeyNote),
			Suggestions: []string{"Use uma nova idempotency_key para esta solicitação.", "Para repetir a anterior, envie exatamente os mesmos argumentos com a mesma chave."}}
	}
	if row.Status != cadstore.WriteDone || row.Result == nil {
		return mcpserver.Reply{}, inProgress(key)
	}
	var res storedResult
	if err := json.Unmarshal([]byte(*row.Result), &res); err != nil {
		return mcpserver.Reply{}, fmt.Errorf("decoding stored write result: %w", err)
	}
	res.Structured.Replay = true
	return mcpserver.Reply{Text: "Repetição: esta chave já foi executada; nada foi escrito de novo. " + replayNote + "\n" + res.Text,
		Structured: res.Structured}, nil
}

func writeText(out writeView) string {
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
	for _, c := range out.Changes {
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
