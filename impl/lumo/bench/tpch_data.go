package bench

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/lumo-caderninho/mcp/impl/lumo/columnar"
)

// tpchTables are the eight TPC-H tables with their columns and SQL types (the spec's), as
// DuckDB's reference database declares them when it reads the CSV files.
var tpchTables = []struct {
	name    string
	columns string
}{
	{"region", "r_regionkey INTEGER, r_name VARCHAR, r_comment VARCHAR"},
	{"nation", "n_nationkey INTEGER, n_name VARCHAR, n_regionkey INTEGER, n_comment VARCHAR"},
	{"supplier", "s_suppkey INTEGER, s_name VARCHAR, s_address VARCHAR, s_nationkey INTEGER, s_phone VARCHAR, s_acctbal DECIMAL(15,2), s_comment VARCHAR"},
	{"customer", "c_custkey INTEGER, c_name VARCHAR, c_address VARCHAR, c_nationkey INTEGER, c_phone VARCHAR, c_acctbal DECIMAL(15,2), c_mktsegment VARCHAR, c_comment VARCHAR"},
	{"part", "p_partkey INTEGER, p_name VARCHAR, p_mfgr VARCHAR, p_brand VARCHAR, p_type VARCHAR, p_size INTEGER, p_container VARCHAR, p_retailprice DECIMAL(15,2), p_comment VARCHAR"},
	{"partsupp", "ps_partkey INTEGER, ps_suppkey INTEGER, ps_availqty INTEGER, ps_supplycost DECIMAL(15,2), ps_comment VARCHAR"},
	{"orders", "o_orderkey INTEGER, o_custkey INTEGER, o_orderstatus VARCHAR, o_totalprice DECIMAL(15,2), o_orderdate DATE, o_orderpriority VARCHAR, o_clerk VARCHAR, o_shippriority INTEGER, o_comment VARCHAR"},
	{"lineitem", "l_orderkey INTEGER, l_partkey INTEGER, l_suppkey INTEGER, l_linenumber INTEGER, l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2), l_tax DECIMAL(15,2), l_returnflag VARCHAR, l_linestatus VARCHAR, l_shipdate DATE, l_commitdate DATE, l_receiptdate DATE, l_shipinstruct VARCHAR, l_shipmode VARCHAR, l_comment VARCHAR"},
}

// TPCHGenerateCommand is the command that writes the TPC-H tables of scale factor sf into dir
// (an absolute path: the command runs in another folder), run from the module's root. go-tpc's
// generator runs in a module of its own (impl/lumo/bench/tpchgen), so go-tpc stays out of this
// module's go.mod.
func TPCHGenerateCommand(dir string, sf int) string {
	return fmt.Sprintf("(cd impl/lumo/bench/tpchgen && go run . --sf %d --out %s)", sf, dir)
}

// CheckTPCHData says which of the tables' CSV files dir lacks, with the command that writes them.
func CheckTPCHData(dir string, sf int) error {
	var missing []string
	for _, t := range tpchTables {
		if st, err := os.Stat(filepath.Join(dir, t.name+".csv")); err != nil || st.Size() == 0 {
			missing = append(missing, t.name+".csv")
		}
	}
	if len(missing) == 0 {
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return fmt.Errorf("faltam em %s os arquivos %s; gere os dados do TPC-H com:\n  %s",
		dir, strings.Join(missing, ", "), TPCHGenerateCommand(abs, sf))
}

// writeTPCHWorkspace lays the embedded workspace out in dir, with the CSV files of data beside
// the app.yaml (hard links where the file system allows, copies otherwise: lumo import reads
// only inside the workspace's folder). It returns the path of workspace.yaml.
func writeTPCHWorkspace(dir, data string) (string, error) {
	app := filepath.Join(dir, "apps", "tpch")
	if err := os.MkdirAll(app, 0o755); err != nil {
		return "", err
	}
	for src, dst := range map[string]string{"tpch/workspace.yaml": filepath.Join(dir, "workspace.yaml"), "tpch/app.yaml": filepath.Join(app, "app.yaml")} {
		b, err := fs.ReadFile(tpchFiles, src)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return "", err
		}
	}
	for _, t := range tpchTables {
		src, dst := filepath.Join(data, t.name+".csv"), filepath.Join(app, t.name+".csv")
		if os.Link(src, dst) == nil {
			continue
		}
		if err := copyFile(src, dst); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, "workspace.yaml"), nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// openTPCHReference loads the CSV files of data into a new DuckDB file at path, with the
// spec's column types and the same memory limit and threads as lumo serve's columnar copy.
func openTPCHReference(ctx context.Context, path, data string) (*sql.DB, error) {
	if !columnar.Available {
		return nil, errors.New("o TPC-H compara com o DuckDB, e este binário foi compilado sem cgo (sem DuckDB)")
	}
	db, err := sql.Open("duckdb", path) // registered by impl/lumo/columnar in cgo builds
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	stmts := []string{
		"SET GLOBAL memory_limit = '" + columnar.DefaultMemoryLimit + "'",
		fmt.Sprintf("SET GLOBAL threads = %d", columnar.DefaultThreads),
	}
	for _, t := range tpchTables {
		var cols []string
		for _, c := range strings.Split(t.columns, ", ") {
			name, typ, _ := strings.Cut(c, " ")
			cols = append(cols, fmt.Sprintf("'%s': '%s'", name, typ))
		}
		file := strings.ReplaceAll(filepath.Join(data, t.name+".csv"), "'", "''")
		stmts = append(stmts, fmt.Sprintf("CREATE TABLE %s (%s)", t.name, t.columns),
			fmt.Sprintf("INSERT INTO %s SELECT * FROM read_csv('%s', header = true, delim = ',', quote = '\"', dateformat = '%%Y-%%m-%%d', columns = {%s})",
				t.name, file, strings.Join(cols, ", ")))
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			db.Close()
			return nil, fmt.Errorf("DuckDB: %s: %w", s, err)
		}
	}
	return db, nil
}
