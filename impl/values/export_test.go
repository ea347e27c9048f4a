package values

import "github.com/lumo-caderninho/mcp/impl/semantic"

// DistinctSQL exposes the queries of Distinct to the plan tests.
func DistinctSQL(r Reader, c *semantic.Column, words []string) map[string]string {
	page, count, _ := r.distinctSQL(c, words, 51)
	return map[string]string{"page": page, "count": count}
}
