package lumo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/lumo-caderninho/mcp/gen/lumoapi"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
	"github.com/lumo-caderninho/mcp/impl/platform/mcpserver"
)

// CanonicalArgs is the normal form of a query's arguments: object keys sorted, no insignificant
// space, numbers as written. Two calls asking the same thing in another key order share it,
// and so share their permalink.
func CanonicalArgs(raw json.RawMessage) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("normalising query arguments: %w", err)
	}
	b, err := json.Marshal(v) // maps marshal with sorted keys
	if err != nil {
		return nil, fmt.Errorf("normalising query arguments: %w", err)
	}
	return b, nil
}

// PermalinkPath is the path, below the public URL, of the report page of permalink id.
func PermalinkPath(appID int64, id string) string {
	return "/app/" + strconv.FormatInt(appID, 10) + "/report/" + url.PathEscape(id)
}

// permalink stores the query (not its result) and returns the link to its report page.
func (s *Service) permalink(ctx context.Context, appID int64, args []byte) (string, error) {
	id, err := s.DB.SavePermalink(ctx, appID, args)
	if err != nil {
		return "", err
	}
	return s.PublicURL + PermalinkPath(appID, id), nil
}

// canonicalInput is the canonical JSON of a decoded query's arguments: the permalink's and the
// answer cache's key.
func canonicalInput(in *lumoapi.QueryInput) ([]byte, error) {
	raw, err := in.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encoding query arguments: %w", err)
	}
	return CanonicalArgs(raw)
}

// Report is a query result formatted for a report page, with the texts of the query tool.
type Report struct {
	AppID          int64
	AppName        string
	Columns        []ReportColumn
	Rows           [][]ReportCell
	RowCount       int
	TotalRows      int64
	RowsText       string   // the "Linhas: N de M; ..." sentence, when truncated
	Totals         []string // "<label> <total over all rows>"
	FiltersApplied []string
	DataAsOf       *time.Time // nil when a table used was never loaded
	Notes          []string
	Empty          string // "", "zero_rows" or "all_zero"
}

// ReportColumn describes one result column.
type ReportColumn struct {
	Label, Type, Unit string
	Grouped           bool
	Bucket            string // the bucket of a grouped date, or ""
}

// ReportCell is one value: its Brazilian-format text and, for numbers, the raw value; for texts,
// Raw is the value as the structured result has it (2026-09 for a month the text reads set/2026),
// which orders a time series.
type ReportCell struct {
	Text   string
	Raw    string
	Number bool
	Value  float64
}

// ErrReportRefused is returned by RunReport when the stored query no longer runs (for example
// the app changed); Message says why in Portuguese.
type ErrReportRefused struct{ Message string }

func (e *ErrReportRefused) Error() string { return "report refused: " + e.Message }

// RunReport re-runs the stored query args of app appID for u, under u's own access: an app u
// does not see is store.ErrNotFound, exactly as if it did not exist.
func (s *Service) RunReport(ctx context.Context, u *store.User, appID int64, args []byte) (*Report, error) {
	var in lumoapi.QueryInput
	if err := in.UnmarshalJSON(args); err != nil {
		return nil, fmt.Errorf("decoding stored query: %w", err)
	}
	if int64(in.AppId) != appID {
		return nil, store.ErrNotFound
	}
	app, err := s.DB.App(ctx, u, appID)
	if err != nil {
		return nil, err
	}
	canon, err := canonicalInput(&in)
	if err != nil {
		return nil, err
	}
	q, v, err := s.answer(ctx, app, &in, canon)
	if err != nil {
		var te *mcpserver.ToolError
		if errors.As(err, &te) {
			return nil, &ErrReportRefused{Message: te.Message}
		}
		return nil, err
	}
	r := &Report{AppID: app.ID, AppName: app.Name, RowCount: v.RowCount, TotalRows: int64(v.TotalRows),
		Totals: totalsText(q, v), FiltersApplied: v.FiltersApplied, Notes: v.Notes, Empty: string(v.Empty.Or(""))}
	if v.Truncated {
		r.RowsText = rowsText(v)
	}
	if t, ok := v.DataAsOf.Get(); ok {
		r.DataAsOf = &t
	}
	for _, c := range q.Out {
		rc := ReportColumn{Label: c.Label, Type: c.Type, Unit: c.Unit, Grouped: c.Group != nil}
		if c.Group != nil {
			rc.Bucket = c.Group.Bucket
		}
		r.Columns = append(r.Columns, rc)
	}
	for _, row := range v.Rows {
		cells := make([]ReportCell, len(row))
		for i, x := range row {
			cells[i] = ReportCell{Text: formatCell(x, q.Out[i])}
			if x.IsFloat64() {
				cells[i].Number, cells[i].Value = true, x.Float64
			}
			if x.IsString() {
				cells[i].Raw = x.String
			}
		}
		r.Rows = append(r.Rows, cells)
	}
	return r, nil
}
