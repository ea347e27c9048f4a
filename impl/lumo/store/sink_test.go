package store_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// failingSink refuses every table, as a columnar copy another process holds does.
type failingSink struct{ committed, aborted bool }

func (s *failingSink) Table(context.Context, string, []store.SinkColumn) (store.TableSink, error) {
	return nil, errors.New("held by another process")
}
func (s *failingSink) Rollup(context.Context, string, []string, string, int64) (int64, error) {
	return 0, nil
}
func (s *failingSink) Reader(context.Context, ...string) (*sql.DB, error) {
	return nil, errors.New("held by another process")
}
func (s *failingSink) Commit(context.Context, int64, string) (int, error) {
	s.committed = true
	return 0, nil
}
func (s *failingSink) Abort() { s.aborted = true }

// A sink that takes nothing leaves the import standing: the rows are in the database, for the
// columnar copy's sync to copy.
func TestImportStandsWhenTheSinkRefuses(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	sink := &failingSink{}
	sum, err := db.ImportWorkspaceWith(ctx, storetest.OneTableWorkspace("Itens", "      - {name: V, label: Valor, type: number}\n", "ID,V\n1,10\n2,20\n"),
		"workspace.yaml", store.ImportOptions{Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sunk != 0 || len(sum.Tables) != 1 || sum.Tables[0].Rows != 2 || !sink.committed || sink.aborted {
		t.Errorf("summary %+v, committed %v, aborted %v", sum, sink.committed, sink.aborted)
	}
}
