//go:build cgo

package columnar_test

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/platform/fold"
)

// TestSQLFoldAgreesWithFold: DuckDB's strip_accents after lower folds every rune fold.Latin
// maps by itself as fold.Fold does, and so (with the white-space collapse a direct CSV load adds
// where a column has any) any text of ASCII and such runes: the direct load folds those texts in
// SQL instead of calling Go for each.
func TestSQLFoldAgreesWithFold(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var latin []rune
	for r := rune(0x80); r < 0x300; r++ {
		if fold.Latin(r) {
			latin = append(latin, r)
		}
	}
	if len(latin) < 400 {
		t.Fatalf("fold.Latin holds %d runes; want the accented letters of Latin-1 and Latin Extended-A and -B", len(latin))
	}
	texts := []string{"", "São  JOÃO ", "\tÁGUA\tviva", "ÇÃÕÉÍÓÚÂÊÔÀÜ çãõéíóúâêôàü", "Ærø ßtraße Œuvre ǅ"}
	for _, r := range latin {
		texts = append(texts, string(r))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ascii := "aZ09 \t.,-'"
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(16) {
			if rng.IntN(3) == 0 {
				b.WriteRune(latin[rng.IntN(len(latin))])
			} else {
				b.WriteByte(ascii[rng.IntN(len(ascii))])
			}
		}
		texts = append(texts, b.String())
	}
	stmt, err := db.PrepareContext(ctx, "SELECT strip_accents(lower(?1)), trim(regexp_replace(strip_accents(lower(?1)), '[\t\n\v\f\r ]+', ' ', 'g'))")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	bad := 0
	for _, s := range texts {
		var plain, spaced string
		if err := stmt.QueryRowContext(ctx, s).Scan(&plain, &spaced); err != nil {
			t.Fatal(err)
		}
		want := fold.Fold(s)
		if spaced != want || (!strings.ContainsAny(s, " \t") && plain != want) {
			if bad++; bad <= 10 {
				t.Errorf("%q: DuckDB folds it %q (%q collapsed), fold.Fold %q", s, plain, spaced, want)
			}
		}
	}
}
