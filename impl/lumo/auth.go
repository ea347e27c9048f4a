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
	"github.com/lumo-caderninho/mcp/impl/platform/oauthres"
	"github.com/lumo-caderninho/mcp/impl/platform/telemetry"
)

// BearerAuth requires `Authorization: Bearer <token>` of a user (the workspace token or one
// issued with `lumo admin token issue`, or, with res, an OAuth access token of its issuer whose
// claim names the user's login) and answers 401 with WWW-Authenticate otherwise. Every request
// looks a static token up in the database, so a revoked token fails at its next request on every
// replica. TokenUser reads the login it records.
func BearerAuth(db *store.DB, log *slog.Logger, res *oauthres.Resource) func(http.Handler) http.Handler {
	require := auth.RequireBearerToken(func(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if res != nil && oauthres.LooksLikeJWT(token) {
			login, exp, scopes, err := res.Verify(ctx, token)
			if err != nil {
				return nil, oauthres.Refused(ctx, err)
			}
			u, err := db.UserByLogin(ctx, login)
			if errors.Is(err, store.ErrNotFound) {
				return nil, oauthres.Refused(ctx, fmt.Errorf("%w: o usuário do token OAuth não existe neste workspace", auth.ErrInvalidToken))
			}
			if err != nil {
				log.ErrorContext(ctx, "verifying an OAuth token", telemetry.ErrAttr(err))
				return nil, oauthres.Unavailable(ctx, err)
			}
			return &auth.TokenInfo{UserID: u.Login, Expiration: exp, Scopes: scopes}, nil
		}
		u, err := db.UserByToken(ctx, token)
		if errors.Is(err, store.ErrNotFound) {
			return nil, oauthres.Refused(ctx, fmt.Errorf("%w: token desconhecido", auth.ErrInvalidToken))
		}
		if err != nil {
			log.ErrorContext(ctx, "verifying a bearer token", telemetry.ErrAttr(err))
			return nil, oauthres.Unavailable(ctx, err)
		}
		return &auth.TokenInfo{UserID: u.Login, Expiration: time.Now().Add(time.Hour)}, nil
	}, &auth.RequireBearerTokenOptions{})
	return func(next http.Handler) http.Handler { return oauthres.Challenge(res, require(next)) }
}
