package values

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/semantic"
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
