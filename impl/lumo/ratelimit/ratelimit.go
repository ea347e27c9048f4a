// Package ratelimit enforces lumo's request limits per user and per tenant over a sliding
// one-minute window kept in the database, so every replica on one database shares one budget. The HTTP
// middleware answers 429 with Retry-After before any tool work; stdio servers call Take from the
// tool path and answer a tool error.
package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

// Window is the span a limit holds over: no minute, wherever it starts, admits more than the limit.
const Window = time.Minute

// Defaults of lumo serve (requests per minute).
const (
	DefaultPerUser   = 60
	DefaultPerTenant = 300
)

// Limiter counts tool calls against the per-user and per-tenant budgets. A zero limit is unlimited.
type Limiter struct {
	DB        *store.DB
	PerUser   int
	PerTenant int
	Now       func() time.Time // nil: time.Now
	Log       *slog.Logger     // nil: slog.Default()

	pruned atomic.Int64 // when this process last cleaned up (Unix milliseconds)
}

// Denial says which limit a refused request hit and when the window ends.
type Denial struct {
	Scope      string // "user" or "tenant"
	Limit      int
	RetryAfter int // whole seconds until the oldest counted request leaves the window, at least 1
}

// Message is the Portuguese text that tells the caller when to retry.
func (d *Denial) Message() string {
	who := "por usuário"
	if d.Scope == "tenant" {
		who = "do Tenant"
	}
	return fmt.Sprintf("Limite de %d requisições por minuto %s atingido; tente de novo em %d s.", d.Limit, who, d.RetryAfter)
}

// Take counts one request of u. It returns a Denial, and counts nothing, when u or u's tenant has
// used its budget in the last minute.
func (l *Limiter) Take(ctx context.Context, u *store.User) (*Denial, error) {
	if l == nil || (l.PerUser <= 0 && l.PerTenant <= 0) {
		return nil, nil
	}
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	var budgets []store.RateBudget
	if l.PerUser > 0 {
		budgets = append(budgets, store.RateBudget{Scope: "user", Subject: u.ID, Limit: int64(l.PerUser)})
	}
	if l.PerTenant > 0 {
		budgets = append(budgets, store.RateBudget{Scope: "tenant", Subject: u.TenantID, Limit: int64(l.PerTenant)})
	}
	full, wait, err := l.DB.TakeRequest(ctx, now.UnixMilli(), Window.Milliseconds(), budgets...)
	if err != nil {
		return nil, err
	}
	l.prune(ctx, now)
	if full == nil {
		return nil, nil
	}
	retry := int((wait + 999) / 1000)
	return &Denial{Scope: full.Scope, Limit: int(full.Limit), RetryAfter: max(retry, 1)}, nil
}

// prune deletes the budgets with nothing left in the window, at most once a window per process.
func (l *Limiter) prune(ctx context.Context, now time.Time) {
	last := l.pruned.Load()
	if now.UnixMilli()-last < Window.Milliseconds() || !l.pruned.CompareAndSwap(last, now.UnixMilli()) {
		return
	}
	if err := l.DB.PruneRateBudgets(ctx, now.Add(-Window).UnixMilli()); err != nil {
		log := l.Log
		if log == nil {
			log = slog.Default()
		}
		log.WarnContext(ctx, "cleaning up rate-limit budgets", telemetry.ErrAttr(err))
	}
}
