package values

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldialect"
)

// Found is what one searched column matched.
type Found struct {
	Column *semantic.Column
	Values []string // at most the per-column limit, in the order of Distinct
	More   bool     // the column has more matching values than Values
}

// SearchResult is the outcome of Search.
type SearchResult struct {
	Found    []Found            // columns with at least one match, in the order they were given
	Searched int                // columns whose search finished (with or without matches)
	LeftOut  []*semantic.Column // columns not searched or not finished in time, in the order given
	TimedOut bool               // the budget ran out before every column finished
}

// searchWorkers is how many columns are searched at once.
const searchWorkers = 4

// Search looks for values containing every word in the text columns cols, keeping up to
// perColumn values per column, within budget. Columns start in the order given, a few at a time.
// When the budget runs out the statements still running are cancelled on the engine (the
// context deadline reaches the driver: lib/pq sends a cancel request, SQLite is interrupted),
// columns not started are skipped, and what finished before is returned with TimedOut set. An
// error is returned only for a failure that is not the budget (including the caller's own
// cancellation).
func (r Reader) Search(ctx context.Context, cols []*semantic.Column, words []string, perColumn int, budget time.Duration) (SearchResult, error) {
	bctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	if r.Dialect.Name() == sqldialect.DuckDBName {
		return r.searchAtOnce(ctx, bctx, cols, words, perColumn)
	}

	type outcome struct {
		done   bool
		values []string
		more   bool
		cut    bool // failed once the budget had run out
		err    error
	}
	results := make([]outcome, len(cols))
	// One read of the statistics chooses how to read every column (see WalkLoose). If it fails
	// because the budget ran out, the workers below skip every column.
	loose, err := r.WalkLoose(bctx, cols)
	if err != nil && bctx.Err() == nil {
		return SearchResult{}, err
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(searchWorkers, len(cols)) {
		wg.Go(func() {
			for i := range next {
				if bctx.Err() != nil {
					continue
				}
				vals, more, err := r.matches(bctx, cols[i], words, perColumn, loose[i])
				// Drivers report a cancelled statement in their own words: any failure once the
				// deadline has passed counts as the budget's.
				results[i] = outcome{done: err == nil, values: vals, more: more, cut: err != nil && bctx.Err() != nil, err: err}
			}
		})
	}
	for i := range cols {
		next <- i
	}
	close(next)
	wg.Wait()

	if err := ctx.Err(); err != nil {
		return SearchResult{}, err
	}
	var res SearchResult
	for i, o := range results {
		switch {
		case o.done:
			res.Searched++
			if len(o.values) > 0 {
				res.Found = append(res.Found, Found{Column: cols[i], Values: o.values, More: o.more})
			}
		case o.err == nil || o.cut: // not started, or cut by the budget
			res.LeftOut = append(res.LeftOut, cols[i])
			res.TimedOut = true
		default:
			return SearchResult{}, o.err
		}
	}
	if res.TimedOut && !errors.Is(bctx.Err(), context.DeadlineExceeded) {
		return SearchResult{}, bctx.Err()
	}
	return res, nil
}

// searchAtOnce is Search on DuckDB: every column's search in one statement (a UNION ALL of the
// statements Matches runs), since a DuckDB statement costs a fraction of a millisecond to run
// however little it reads, and its threads already share each scan. The budget cuts the whole
// statement: then no column is searched.
func (r Reader) searchAtOnce(ctx, bctx context.Context, cols []*semantic.Column, words []string, perColumn int) (SearchResult, error) {
	var res SearchResult
	var parts []string
	var args []any
	for i, c := range cols {
		if !isText(c) || len(words) == 0 {
			return SearchResult{}, fmt.Errorf("matching words in %s: needs a text column and words", c.Ref())
		}
		page, _, a := r.distinctParts(c, words, perColumn+1)
		parts = append(parts, "SELECT "+strconv.Itoa(i)+" AS i, * FROM ("+page+")")
		args = append(args, a...)
	}
	if len(parts) == 0 {
		return res, nil
	}
	found := make([][]string, len(cols))
	err := func() error {
		rows, err := r.DB.QueryContext(bctx, r.rebind(strings.Join(parts, " UNION ALL ")+" ORDER BY 1, 2 NULLS FIRST, 3"), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var i int
			var f, v sql.NullString
			if err := rows.Scan(&i, &f, &v); err != nil {
				return err
			}
			found[i] = append(found[i], v.String)
		}
		return rows.Err()
	}()
	if err := ctx.Err(); err != nil {
		return SearchResult{}, err
	}
	if err != nil {
		if bctx.Err() == nil {
			return SearchResult{}, fmt.Errorf("searching %d columns: %w", len(cols), err)
		}
		res.LeftOut, res.TimedOut = cols, true
		return res, nil
	}
	for i, c := range cols {
		res.Searched++
		if vals := found[i]; len(vals) > 0 {
			more := len(vals) > perColumn
			if more {
				vals = vals[:perColumn]
			}
			res.Found = append(res.Found, Found{Column: c, Values: vals, More: more})
		}
	}
	return res, nil
}
