package bench

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// tpchFiles is the TPC-H workspace (workspace.yaml, app.yaml), each question's query calls
// (queries/qNN.json) and DuckDB's hand-written SQL for it (sql/qNN.sql).
//
//go:embed tpch
var tpchFiles embed.FS

// TPCHQuestion is one of the 22 TPC-H questions, asked of lumo as query calls and of DuckDB as
// the standard SQL, both with the spec's validation parameters.
type TPCHQuestion struct {
	N        int              // 1 to 22
	Note     string           // how the question maps to the model, where it is not plain
	Calls    []map[string]any // query arguments, without appId; see fractionParam
	SQL      string
	Fraction float64 // Q11's FRACTION for the run's scale factor
}

// Name is the question's short name, Q1 to Q22.
func (q TPCHQuestion) Name() string { return "Q" + strconv.Itoa(q.N) }

// fractionParam, as a filter value in Q11's call and in its SQL, stands for its FRACTION
// parameter, 0.0001 / SF.
const fractionParam = "$fraction"

// TPCHQuestions reads the 22 questions, with Q11's fraction for scale factor sf.
func TPCHQuestions(sf int) ([]TPCHQuestion, error) {
	fraction := 0.0001 / float64(sf)
	var qs []TPCHQuestion
	for n := 1; n <= 22; n++ {
		name := fmt.Sprintf("q%02d", n)
		js, err := fs.ReadFile(tpchFiles, "tpch/queries/"+name+".json")
		if err != nil {
			return nil, err
		}
		sql, err := fs.ReadFile(tpchFiles, "tpch/sql/"+name+".sql")
		if err != nil {
			return nil, err
		}
		var f struct {
			Note  string           `json:"note"`
			Calls []map[string]any `json:"calls"`
		}
		if err := json.Unmarshal(js, &f); err != nil {
			return nil, fmt.Errorf("%s.json: %w", name, err)
		}
		if len(f.Calls) == 0 {
			return nil, fmt.Errorf("%s.json: no calls", name)
		}
		qs = append(qs, TPCHQuestion{N: n, Note: f.Note, Calls: f.Calls, Fraction: fraction,
			SQL: strings.ReplaceAll(string(sql), fractionParam, strconv.FormatFloat(fraction, 'g', -1, 64))})
	}
	return qs, nil
}

// callArgs is call i of q for app, with fractionParam replaced by the question's fraction.
func (q TPCHQuestion) callArgs(i int, appID int64) (map[string]any, error) {
	b, err := json.Marshal(q.Calls[i])
	if err != nil {
		return nil, err
	}
	var args map[string]any
	if err := json.Unmarshal(b, &args); err != nil {
		return nil, err
	}
	filters, _ := args["filters"].([]any)
	for _, f := range filters {
		f, _ := f.(map[string]any)
		v, ok := f["value"].(string)
		if !ok || !strings.HasPrefix(v, "$") {
			continue
		}
		if v != fractionParam {
			return nil, fmt.Errorf("%s, call %d: unknown placeholder %q", q.Name(), i+1, v)
		}
		f["value"] = q.Fraction
	}
	args["appId"] = appID
	return args, nil
}
