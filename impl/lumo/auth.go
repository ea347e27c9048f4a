package lumo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

// BearerAuth requires `Authorization: Bearer <token>` of a user (the workspace token or one
// issued with `lumo admin token issue`) and answers 401 otherwise. Every request looks the
// token up in the database, so a revoked token fails at its next request on every replica.
// TokenUser reads the login it records.
func BearerAuth(db *store.DB, log *slog.Logger) func(http.Handler) http.Handler {
	return auth.RequireBearerToken(func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		u, err := db.UserByToken(ctx, token)
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("%w: token desconhecido", auth.ErrInvalidToken)
		}
		if err != nil {
			log.ErrorContext(ctx, "verifying a bearer token", telemetry.ErrAttr(err))
			return nil, fmt.Errorf("%w: não foi possível verificar o token", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{UserID: u.Login, Expiration: time.Now().Add(time.Hour)}, nil
	}, &auth.RequireBearerTokenOptions{})
}
