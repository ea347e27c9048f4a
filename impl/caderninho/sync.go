package caderninho

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lumo-caderninho/mcp/gen/caderninhoapi"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
	"github.com/lumo-caderninho/mcp/impl/platform/ptbr"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

const (
	defaultWait = 10 * time.Second
	// runTimeout bounds one request's run in the background.
	runTimeout = 30 * time.Minute
	// pollEvery is how often a caller waiting for a request run elsewhere looks again.
	pollEvery = 100 * time.Millisecond
)

// syncArguments is what makes two requests the same: the connections asked for.
type syncArguments struct {
	Connections any `json:"connections"` // "all" or the sorted keys
}

func (s *Service) sync(ctx context.Context, args *caderninhoapi.CaderninhoSyncInput) (*caderninhoapi.CaderninhoSyncOutput, func() string, error) {
	rc, err := s.readContext(ctx)
	if err != nil {
		return nil, nil, err
	}
	all, err := s.Store.Connections(ctx)
	if err != nil {
		return nil, nil, err
	}
	conns := all
	normal := syncArguments{Connections: "all"}
	if len(args.Connections) > 0 {
		byKey := map[string]cadstore.Connection{}
		var keys []string
		for _, c := range all {
			byKey[c.Key] = c
			keys = append(keys, c.Key)
		}
		var asked []string
		conns = nil
		for _, k := range args.Connections {
			c, ok := byKey[string(k)]
			if !ok {
				return nil, nil, notFound(fmt.Sprintf("A conexão %q não existe nesta instalação.", k), "Conexões: "+strings.Join(keys, ", ")+".")
			}
			conns = append(conns, c)
			asked = append(asked, c.Key)
		}
		slices.Sort(asked)
		normal.Connections = asked
		slices.SortFunc(conns, func(a, b cadstore.Connection) int { return strings.Compare(a.Key, b.Key) })
	}
	normalJSON, _ := json.Marshal(normal)
	who, err := s.Identity(ctx, extraOf(ctx))
	if err != nil {
		return nil, nil, fmt.Errorf("identifying the caller: %w", err)
	}
	r, created, err := s.Store.CreateSync(ctx, args.IdempotencyKey, string(normalJSON), who, conns)
	if err != nil {
		return nil, nil, err
	}
	if !created && r.Arguments != string(normalJSON) {
		return nil, nil, &mcpserver.ToolError{Code: "IDEMPOTENCY_KEY_REUSED",
			Message: fmt.Sprintf("A idempotency_key %q já foi usada para outra solicitação (%s). Outra solicitação precisa de outra chave. "+
				"Uma chave reutilizada para dados diferentes é recusada.", r.Key, describeArguments(r.Arguments)),
			Suggestions: []string{"Use uma nova idempotency_key para esta solicitação.",
				"Para ver o estado da anterior, repita exatamente os mesmos argumentos com a mesma chave."}}
	}
	if created {
		s.startSync(ctx, r, conns)
	}
	wait := defaultWait
	if w, ok := args.WaitSeconds.Get(); ok {
		wait = time.Duration(w) * time.Second
	}
	if r, err = s.waitSync(ctx, r, wait); err != nil {
		return nil, nil, err
	}
	spaces, err := s.Store.Spaces(ctx)
	if err != nil {
		return nil, nil, err
	}
	rc.spaces = spaces
	revs := map[string]int64{}
	for _, c := range conns {
		revs[c.SpaceKey] = spaces[c.SpaceKey].Revision
	}
	v := &caderninhoapi.CaderninhoSyncOutput{Revisions: caderninhoapi.Revisions(revs), Request: caderninhoapi.CaderninhoSyncOutputRequest{
		ID: int(r.ID), IdempotencyKey: r.Key, Replay: !created, Status: caderninhoapi.CaderninhoSyncOutputRequestStatus(r.Status),
		RequestedAt: rc.instant(&r.RequestedAt).Value, FinishedAt: rc.instant(r.FinishedAt),
		Connections: make([]caderninhoapi.CaderninhoSyncOutputOutcome, 0, len(r.Outcomes))}}
	for _, o := range r.Outcomes {
		v.Request.Connections = append(v.Request.Connections, outcomeOf(o))
	}
	return v, func() string { return syncText(v, r.Outcomes) }, nil
}

func outcomeOf(o cadstore.Outcome) caderninhoapi.CaderninhoSyncOutputOutcome {
	out := caderninhoapi.CaderninhoSyncOutputOutcome{Connection: caderninhoapi.Key(o.Connection), Space: caderninhoapi.Key(o.Space),
		Status: caderninhoapi.CaderninhoSyncOutputOutcomeStatus(o.Status), NewFiles: o.NewFiles, NewTransactions: o.NewTransactions,
		Duplicates: o.Duplicates, NewAccounts: o.NewAccounts, RevisionBumped: o.RevisionBumped,
		Error: caderninhoapi.NilCaderninhoSyncOutputOutcomeError{Null: true}}
	if o.Categorised > 0 {
		out.CategorisedByRules = caderninhoapi.NewOptInt(o.Categorised)
	}
	if e := o.Error; e != nil {
		out.Error = caderninhoapi.NewNilCaderninhoSyncOutputOutcomeError(caderninhoapi.CaderninhoSyncOutputOutcomeError{
			File: nilString(e.File), Line: nilInt(e.Line), Message: e.Message})
	}
	for _, w := range o.Warnings { // left out when there are none
		out.Warnings = append(out.Warnings, caderninhoapi.CaderninhoSyncOutputOutcomeWarningsItem{
			File: nilString(w.File), Line: nilInt(w.Line), Message: w.Message})
	}
	for _, g := range o.Ignored { // left out when there are none
		out.Ignored = append(out.Ignored, caderninhoapi.CaderninhoSyncOutputOutcomeIgnoredItem{File: nilString(g.File), Message: g.Message})
	}
	return out
}

func nilInt(n *int) caderninhoapi.NilInt {
	if n == nil {
		return caderninhoapi.NilInt{Null: true}
	}
	return caderninhoapi.NewNilInt(*n)
}

func describeArguments(normal string) string {
	var a syncArguments
	if err := json.Unmarshal([]byte(normal), &a); err != nil {
		return normal
	}
	if list, ok := a.Connections.([]any); ok {
		var keys []string
		for _, k := range list {
			keys = append(keys, fmt.Sprint(k))
		}
		return "conexões " + ptbr.List(keys)
	}
	return "todas as conexões"
}

// startSync imports the connections one by one in the background, recording each outcome as
// it comes; the request outlives the call that made it.
func (s *Service) startSync(ctx context.Context, r *cadstore.SyncRequest, conns []cadstore.Connection) {
	done := make(chan struct{})
	s.syncs.Store(r.ID, done)
	runCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), runTimeout)
	s.running.Add(1)
	go func() {
		defer s.running.Done()
		defer cancel()
		defer func() {
			close(done)
			s.syncs.Delete(r.ID)
		}()
		outcomes := slices.Clone(r.Outcomes)
		for i, c := range conns {
			o, err := s.Store.ImportConnection(runCtx, c)
			if err != nil {
				s.Log.ErrorContext(runCtx, "importing a connection", "connection", c.Key, "sync", r.ID, telemetry.ErrAttr(err))
			}
			outcomes[i] = o
			if err := s.Store.UpdateSync(runCtx, r.ID, outcomes, i == len(conns)-1); err != nil {
				s.Log.ErrorContext(runCtx, "recording a sync outcome", "sync", r.ID, telemetry.ErrAttr(err))
			}
		}
		if len(conns) == 0 {
			if err := s.Store.UpdateSync(runCtx, r.ID, outcomes, true); err != nil {
				s.Log.ErrorContext(runCtx, "recording a sync outcome", "sync", r.ID, telemetry.ErrAttr(err))
			}
		}
	}()
}

// waitSync waits up to d for a running request to finish (its run in this process, or in another
// replica, polled), and returns its latest state.
func (s *Service) waitSync(ctx context.Context, r *cadstore.SyncRequest, d time.Duration) (*cadstore.SyncRequest, error) {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for r.Status == cadstore.SyncRunning {
		var done <-chan struct{}
		if ch, ok := s.syncs.Load(r.ID); ok {
			done = ch.(chan struct{})
		}
		poll := time.NewTimer(pollEvery)
		select {
		case <-ctx.Done():
			poll.Stop()
			return nil, ctx.Err()
		case <-deadline.C:
			poll.Stop()
			return s.Store.SyncByKey(ctx, r.Key)
		case <-done:
		case <-poll.C:
		}
		poll.Stop()
		next, err := s.Store.SyncByKey(ctx, r.Key)
		if errors.Is(err, cadstore.ErrNotFound) {
			return r, nil
		}
		if err != nil {
			return nil, err
		}
		r = next
	}
	return r, nil
}

var syncStatusWords = map[string]string{
	cadstore.SyncRunning:     "em andamento",
	cadstore.SyncCompleted:   "concluída",
	cadstore.SyncInterrupted: "interrompida antes de terminar",
}

func syncText(v *caderninhoapi.CaderninhoSyncOutput, outcomes []cadstore.Outcome) string {
	r := v.Request
	var b strings.Builder
	fmt.Fprintf(&b, "Solicitação de importação %d (idempotency_key %s): %s", r.ID, r.IdempotencyKey, syncStatusWords[string(r.Status)])
	if t, ok := r.FinishedAt.Get(); ok {
		b.WriteString(" em " + instantText(t))
	}
	b.WriteString(".\n")
	if r.Replay {
		b.WriteString("A chave já existia: esta é a mesma solicitação, com o estado atual (nada foi pedido de novo).\n")
	}
	for _, o := range outcomes {
		fmt.Fprintf(&b, "- %s (espaço %s): %s.\n", o.Connection, o.Space, outcomeText(o))
		for _, w := range o.Warnings {
			fmt.Fprintf(&b, "  Aviso: %s.\n", w.String())
		}
		for _, g := range o.Ignored {
			fmt.Fprintf(&b, "  Ignorado: %s.\n", g.String())
		}
	}
	switch string(r.Status) {
	case cadstore.SyncRunning:
		b.WriteString("A importação continua em segundo plano; repita caderninho_sync com a mesma idempotency_key e os mesmos argumentos para ver o estado.\n")
	case cadstore.SyncInterrupted:
		b.WriteString("O que cada conexão já tinha importado ficou; o resto não mudou. Peça outra importação com uma nova idempotency_key.\n")
	}
	fmt.Fprintf(&b, "Agora: %s. Leituras e cursores de revisões anteriores recebem RESTART_REQUIRED: refaça a leitura.\n", revisionsText(v.Revisions))
	b.WriteString("A importação só lê as pastas de extratos e altera dados locais. Nenhuma ferramenta paga faturas, envia Pix, contrata crédito ou altera um registro na instituição.")
	return b.String()
}

func outcomeText(o cadstore.Outcome) string {
	switch o.Status {
	case cadstore.StatusPending:
		return "na fila"
	case cadstore.StatusFailed:
		return "falhou e nada desta conexão mudou: " + o.Error.String()
	case cadstore.StatusUnchanged:
		if o.NewFiles == 0 {
			return "nenhum extrato novo"
		}
	}
	parts := []string{ptbr.Count(o.NewFiles, "arquivo novo", "arquivos novos"), ptbr.Count(o.NewTransactions, "transação nova", "transações novas")}
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
