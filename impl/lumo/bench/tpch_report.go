package bench

import (
	"fmt"
	"io"
	"time"
)

// TPCHReport is one run of the 22 TPC-H questions, lumo against DuckDB's own SQL.
type TPCHReport struct {
	ScaleFactor int       `json:"scale_factor"`
	DataDir     string    `json:"data_dir"`
	Iterations  int       `json:"iterations"`
	CPUs        int       `json:"cpus"`
	Started     time.Time `json:"started"`
	Elapsed     string    `json:"elapsed"`
	// Load averages (1, 5, 15 minutes) at the start, before the questions and at the end.
	LoadAtStart       string `json:"load_at_start"`
	LoadBeforeQueries string `json:"load_before_queries"`
	LoadAtEnd         string `json:"load_at_end"`
	// ImportSeconds is `lumo import` of the eight files, as on the embedded default: the rows
	// into the import's own DuckDB file, the catalogue into SQLite.
	ImportSeconds float64 `json:"import_seconds"`
	ImportRows    int64   `json:"import_rows"`
	// ServerReadySeconds is lumo serve from its start until it logs the sync of its columnar
	// copy (reading the import's file); CopyRows the rows that sync copied from the database.
	ServerReadySeconds float64 `json:"server_ready_seconds"`
	CopyRows           int64   `json:"columnar_copy_rows"`
	// ReferenceLoadSeconds is DuckDB reading the same files into its own database.
	ReferenceLoadSeconds float64 `json:"duckdb_load_seconds"`
	// Disk after the import: lumo's database and import files, and DuckDB's own database.
	DiskBytes          int64                `json:"disk_bytes"`
	ReferenceDiskBytes int64                `json:"duckdb_disk_bytes"`
	Questions          []TPCHQuestionReport `json:"questions"`
	Exact              int                  `json:"exact"`
	// MedianRatio is the median over the questions of lumo's p50 over DuckDB's.
	MedianRatio float64 `json:"median_ratio_p50"`
}

// TPCHQuestionReport is one question: whether lumo's answer is DuckDB's, and both timings.
type TPCHQuestionReport struct {
	Question   string  `json:"question"`
	Calls      int     `json:"calls"` // query calls lumo needs for it
	Note       string  `json:"note,omitempty"`
	Exact      bool    `json:"exact"`
	Compared   string  `json:"compared,omitempty"`
	Difference string  `json:"difference,omitempty"` // the first one
	Error      string  `json:"error,omitempty"`
	Lumo       Timing  `json:"lumo"`
	DuckDB     Timing  `json:"duckdb"`
	Ratio      float64 `json:"ratio_p50"` // lumo / DuckDB
}

// Markdown writes the report as a table.
func (r *TPCHReport) Markdown(w io.Writer) {
	fmt.Fprintf(w, "## lumo-bench --tpch: SF %d, %d iterations, %d CPUs (%s, took %s)\n\n",
		r.ScaleFactor, r.Iterations, r.CPUs, r.Started.Format(time.RFC3339), r.Elapsed)
	fmt.Fprintf(w, "lumo import (o catálogo no SQLite, as linhas no arquivo DuckDB da importação): %d linhas em %.1f s. lumo serve pronto em %.1f s (%d linhas copiadas do banco). "+
		"Dos arquivos ao servidor pronto: %.1f s, %.1fx os %.1f s em que o DuckDB lê os mesmos CSV.\n\n", r.ImportRows, r.ImportSeconds, r.ServerReadySeconds, r.CopyRows,
		r.ImportSeconds+r.ServerReadySeconds, (r.ImportSeconds+r.ServerReadySeconds)/r.ReferenceLoadSeconds, r.ReferenceLoadSeconds)
	fmt.Fprintf(w, "Disco: %.0f MB do lumo (o banco e o arquivo da importação) contra %.0f MB do DuckDB, %.1fx.\n\n",
		float64(r.DiskBytes)/1e6, float64(r.ReferenceDiskBytes)/1e6, float64(r.DiskBytes)/float64(max(r.ReferenceDiskBytes, 1)))
	fmt.Fprintf(w, "Carga (uptime): início %s; antes das consultas %s; fim %s.\n\n", r.LoadAtStart, r.LoadBeforeQueries, r.LoadAtEnd)
	fmt.Fprintln(w, "| consulta | chamadas | igual ao DuckDB | comparado | lumo p50 ms | DuckDB p50 ms | lumo / DuckDB |")
	fmt.Fprintln(w, "|---|---:|---|---|---:|---:|---:|")
	for _, q := range r.Questions {
		exact := "sim"
		switch {
		case q.Error != "":
			exact = "erro: " + q.Error
		case !q.Exact:
			exact = "não: " + q.Difference
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %.1f | %.1f | %.2f |\n", q.Question, q.Calls, exact, q.Compared, q.Lumo.P50, q.DuckDB.P50, q.Ratio)
	}
	fmt.Fprintf(w, "\n%d de %d respostas iguais às do DuckDB; mediana de lumo / DuckDB (p50): **%.2f**\n", r.Exact, len(r.Questions), r.MedianRatio)
}
