package values

import (
	"context"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
)

// DistinctSQL exposes the queries of Distinct to the plan tests.
func DistinctSQL(r Reader, c *semantic.Column, words []string) map[string]string {
	page, count, _ := r.distinctSQL(c, words, 51)
	return map[string]string{"page": page, "count": count}
}

// MatchesBy is Matches by the loose walk or by the plain scan, whatever the statistics say.
func MatchesBy(ctx context.Context, r Reader, c *semantic.Column, words []string, limit int, loose bool) ([]string, bool, error) {
	return r.matches(ctx, c, words, limit, loose)
}

// WalksLoose exposes the choice of Matches.
func WalksLoose(ctx context.Context, r Reader, c *semantic.Column) (bool, error) {
	return r.walksLoose(ctx, c)
}

// LooseSQL exposes the loose walk's query to the plan logs of the benchmark.
func LooseSQL(r Reader, c *semantic.Column, words []string) string {
	q, _ := r.looseSQL(c, words, 9)
	return q
}
