package lumo

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"

	"github.com/lumo-caderninho/mcp/impl/lumo/store/storetest"
)

// TestTheLastDayAWholeDayFilterCanName: a date-only value on a date-time column means the whole
// day, up to the next day's start; for 9999-12-31 there is no next day (its text, 10000-01-01,
// sorts before it on SQLite), and the filters still mean what they say on both engines.
func TestTheLastDayAWholeDayFilterCanName(t *testing.T) {
	ctx := context.Background()
	ws := storetest.OneTableWorkspace("Fim", "      - {name: QUANDO, label: Quando, type: datetime}\n",
		"ID,QUANDO\n1,2026-01-01 10:00\n2,9999-12-31 10:00\n3,9999-12-31 23:59:59\n4,\\N\n")
	db := storetest.Open(t)
	if _, err := db.ImportWorkspace(ctx, ws, "workspace.yaml"); err != nil {
		t.Fatal(err)
	}
	svc := &Service{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	s := sessionOf(t, svc, db, "ana")
	u, _ := db.UserByLogin(ctx, "ana")
	apps, _ := db.VisibleApps(ctx, u)
	for op, want := range map[string]float64{"=": 2, "<=": 3, ">": 0, "!=": 2} {
		q := map[string]any{"appId": apps[0].ID, "fields": []any{map[string]any{"ref": "Itens.Id", "agg": "count"}},
			"filters": []any{map[string]any{"ref": "Itens.Quando", "op": op, "value": "9999-12-31"}}}
		_, sc := callJSON(t, s, "query", q)
		var out struct {
			Rows [][]float64 `json:"rows"`
		}
		err := json.Unmarshal([]byte(sc), &out)
		empty := want == 0 && len(out.Rows) == 0 // no row matches: no row of totals either
		if err != nil || !empty && (len(out.Rows) != 1 || out.Rows[0][0] != want) {
			t.Errorf("Quando %s 9999-12-31: %s, want a count of %v", op, sc, want)
		}
	}
	q := map[string]any{"appId": apps[0].ID, "fields": []any{map[string]any{"ref": "Itens.Id", "agg": "count"}},
		"filters": []any{map[string]any{"ref": "Itens.Quando", "op": "between", "value": []any{"9999-12-31", "9999-12-31"}}}}
	if _, sc := callJSON(t, s, "query", q); !json.Valid([]byte(sc)) || sc == "" || !containsCount(sc, 2) {
		t.Errorf("Quando between the last day and itself: %s, want 2", sc)
	}
}

func containsCount(sc string, n float64) bool {
	var out struct {
		Rows [][]float64 `json:"rows"`
	}
	return json.Unmarshal([]byte(sc), &out) == nil && len(out.Rows) == 1 && out.Rows[0][0] == n
}
