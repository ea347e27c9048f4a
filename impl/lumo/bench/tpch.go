package bench

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
	"github.com/lumo-caderninho/mcp/impl/lumo/store"
)

// TPCHConfig is one run of the TPC-H questions.
type TPCHConfig struct {
	Dir        string // the eight tables as CSV files (see TPCHGenerateCommand)
	SF         int    // the data's scale factor (Q11's fraction is 0.0001 / SF)
	Iterations int    // timed repetitions of each question, on each side
	Lumo       string // the lumo binary
	ServerEnv  []string
	Log        io.Writer
	ServerLog  io.Writer
}

func (c TPCHConfig) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, "lumo-bench tpch: "+format+"\n", args...)
	}
}

// tpchLogin is the user of the embedded TPC-H workspace.
const tpchLogin = "tpch"

// RunTPCH imports the TPC-H tables of c.Dir with `lumo import` into a new SQLite database and
// the import's DuckDB file, starts `lumo serve` on them (timed until it logs the sync of its
// columnar copy, which reads that file), loads the same files into a
// DuckDB database of its own, and asks each of the 22 questions of both: lumo through `query`
// over MCP, DuckDB by its standard SQL. The first round checks lumo's answer against DuckDB's;
// then each question is timed c.Iterations times, lumo and DuckDB alternately.
func RunTPCH(ctx context.Context, c TPCHConfig) (*TPCHReport, error) {
	if err := CheckTPCHData(c.Dir, c.SF); err != nil {
		return nil, err
	}
	questions, err := TPCHQuestions(c.SF)
	if err != nil {
		return nil, err
	}
	rep := &TPCHReport{ScaleFactor: c.SF, DataDir: c.Dir, Iterations: c.Iterations, CPUs: cpus(),
		Started: time.Now().UTC(), LoadAtStart: loadAverage()}
	tmp, err := os.MkdirTemp("", "lumo-bench-tpch-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	ws, err := writeTPCHWorkspace(filepath.Join(tmp, "workspace"), c.Dir)
	if err != nil {
		return nil, err
	}
	dsn, served := filepath.Join(tmp, "lumo.db"), filepath.Join(tmp, "served.duckdb")

	c.logf("lumo import de %s", c.Dir)
	start := time.Now()
	imp := exec.CommandContext(ctx, c.Lumo, "import", "--columnar", served, "--db", dsn, ws)
	imp.Stderr = c.Log
	if err := imp.Run(); err != nil {
		return nil, fmt.Errorf("lumo import: %w", err)
	}
	rep.ImportSeconds = time.Since(start).Seconds()
	rep.DiskBytes = diskUse(dsn, dsn+"-wal", columnar.LoadsDir(served))
	db, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	appID, rows, err := tpchApp(ctx, db)
	db.Close()
	if err != nil {
		return nil, err
	}
	rep.ImportRows = rows
	c.logf("%d linhas importadas em %.1f s", rows, rep.ImportSeconds)

	c.logf("lumo serve lê o arquivo DuckDB da importação")
	srv, err := startCopying(ctx, c.Lumo, c.ServerEnv, c.ServerLog, dsn, tpchLogin, served, &rep.ServerReadySeconds, &rep.CopyRows)
	if err != nil {
		return nil, err
	}
	defer srv.stop()
	c.logf("lumo serve pronto em %.1f s, %d linhas copiadas", rep.ServerReadySeconds, rep.CopyRows)

	c.logf("DuckDB carrega os mesmos arquivos")
	start = time.Now()
	duck, err := openTPCHReference(ctx, filepath.Join(tmp, "reference.duckdb"), c.Dir)
	if err != nil {
		return nil, err
	}
	defer duck.Close()
	rep.ReferenceLoadSeconds = time.Since(start).Seconds()
	rep.ReferenceDiskBytes = diskUse(filepath.Join(tmp, "reference.duckdb"), filepath.Join(tmp, "reference.duckdb.wal"))

	cs, err := srv.connect(ctx)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	rep.LoadBeforeQueries = loadAverage()
	for _, q := range questions {
		c.logf("%s", q.Name())
		rep.Questions = append(rep.Questions, runTPCHQuestion(ctx, cs, duck, appID, q, c.Iterations))
	}
	rep.LoadAtEnd = loadAverage()
	rep.summarize()
	rep.Elapsed = time.Since(rep.Started).Round(time.Millisecond).String()
	return rep, nil
}

// tpchApp is the TPC-H app's id and the rows its tables hold.
func tpchApp(ctx context.Context, db *store.DB) (int64, int64, error) {
	u, err := db.UserByLogin(ctx, tpchLogin)
	if err != nil {
		return 0, 0, err
	}
	apps, err := db.VisibleApps(ctx, u)
	if err != nil {
		return 0, 0, err
	}
	for _, a := range apps {
		if a.Name == "TPC-H" {
			var rows int64
			for _, t := range a.Tables {
				if t.CopyOf == nil {
					rows += t.Rows
				}
			}
			return a.ID, rows, nil
		}
	}
	return 0, 0, errors.New("the TPC-H app is not visible to " + tpchLogin)
}

// runTPCHQuestion checks q's answer, then times it. A failing call or SQL ends the question,
// not the run: the report says what failed.
func runTPCHQuestion(ctx context.Context, cs *mcp.ClientSession, duck *sql.DB, appID int64, q TPCHQuestion, n int) TPCHQuestionReport {
	r := TPCHQuestionReport{Question: q.Name(), Calls: len(q.Calls), Note: q.Note}
	var lumoT, duckT []time.Duration
	for i := range n + 1 {
		t0 := time.Now()
		got, err := askLumo(ctx, cs, appID, q)
		t1 := time.Now()
		if err != nil {
			r.Error = "lumo: " + err.Error()
			return r
		}
		want, err := sqlAnswer(ctx, duck, q.SQL)
		t2 := time.Now()
		if err != nil {
			r.Error = "DuckDB: " + err.Error()
			return r
		}
		if i == 0 { // the check, and a warm-up of both
			r.Compared, r.Difference = compareAnswers(got, want)
			r.Exact = r.Difference == ""
			continue
		}
		lumoT, duckT = append(lumoT, t1.Sub(t0)), append(duckT, t2.Sub(t1))
	}
	r.Lumo, r.DuckDB = timing(lumoT), timing(duckT)
	r.Ratio = ratio(r.Lumo.P50, r.DuckDB.P50)
	return r
}

// askLumo makes q's calls in order and returns the last answer.
func askLumo(ctx context.Context, cs *mcp.ClientSession, appID int64, q TPCHQuestion) (map[string]any, error) {
	var answer map[string]any
	for i := range q.Calls {
		args, err := q.callArgs(i, appID)
		if err != nil {
			return nil, err
		}
		if answer, err = call(ctx, cs, "query", args); err != nil {
			return nil, err
		}
	}
	return answer, nil
}

// loadAverage is /proc/loadavg's 1, 5 and 15 minute averages ("" where there is none).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// summarize counts the exact answers and takes the median of the questions' ratios.
func (r *TPCHReport) summarize() {
	var ratios []float64
	for _, q := range r.Questions {
		if q.Exact {
			r.Exact++
		}
		if q.Ratio > 0 {
			ratios = append(ratios, q.Ratio)
		}
	}
	sort.Float64s(ratios)
	if k := len(ratios); k > 0 {
		r.MedianRatio = (ratios[(k-1)/2] + ratios[k/2]) / 2
	}
}

// diskUse is the bytes the files and folders at paths take (missing ones take none).
func diskUse(paths ...string) int64 {
	var n int64
	for _, p := range paths {
		filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if info, err := d.Info(); err == nil {
					n += info.Size()
				}
			}
			return nil
		})
	}
	return n
}
