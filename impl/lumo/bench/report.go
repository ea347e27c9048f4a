package bench

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"
)

// Report is one run, every engine side by side.
type Report struct {
	Rows        int             `json:"rows"`
	Iterations  int             `json:"iterations"`
	Clients     int             `json:"clients"`
	CatalogApps int             `json:"catalog_apps"`
	CPUs        int             `json:"cpus"`
	Started     time.Time       `json:"started"`
	Elapsed     string          `json:"elapsed"`
	Engines     []*EngineReport `json:"engines"`
	Floor       *FloorReport    `json:"sdk_floor,omitempty"`
}

type EngineReport struct {
	Engine  string        `json:"engine"`
	Import  ImportReport  `json:"import"`
	Queries []QueryReport `json:"queries"`
	// CacheHitServerCPUMs is the server's CPU per query answered from the result cache.
	CacheHitServerCPUMs float64     `json:"cache_hit_server_cpu_ms"`
	Small               SmallReport `json:"small_call"`
	SearchValues        Timing      `json:"search_values_search"`
	// SearchNoMatch is a word no value contains: every distinct value is visited.
	SearchNoMatch Timing     `json:"search_values_no_match"`
	SearchCatalog Timing     `json:"search_catalog"`
	Load          LoadReport `json:"http_load"`
	RawLoad       LoadReport `json:"http_load_raw_client"` // the same load from mcphttp clients
	ServerMemory  Memory     `json:"server_memory"`
	// CatalogServerMemory is the search_catalog server's (a user seeing CatalogApps apps).
	CatalogServerMemory Memory          `json:"catalog_server_memory"`
	Peer                *PeerReport     `json:"peer,omitempty"`
	Columnar            *ColumnarReport `json:"columnar,omitempty"`
}

// ColumnarReport is the queries on the columnar copy: lumo serving them from its DuckDB copy
// (MCP) against DuckDB running the hand-written SQL in this process on its own copy of the same
// rows (RawSQL), with the copy's cost and the server's memory under the load.
type ColumnarReport struct {
	// CopySeconds is the server from its start to its copy's first sync; CopyRows the rows that
	// sync copied from the database (none on SQLite: the import wrote its DuckDB file).
	CopyRows          int64         `json:"copy_rows"`
	CopySeconds       float64       `json:"copy_seconds"`
	CopyRowsPerSecond float64       `json:"copy_rows_per_second"`
	Queries           []QueryReport `json:"queries"`
	Load              LoadReport    `json:"http_load"`
	// The server's peak resident memory in each phase: while it copies, while it answers the
	// queries, and under the small-call load (ServerMemory); DuckDB's memory limit it ran with.
	CopyMemory     Memory  `json:"copy_memory"`
	QueriesMemory  Memory  `json:"queries_memory"`
	ServerMemory   Memory  `json:"server_memory"`
	MemoryLimitMiB float64 `json:"memory_limit_mib"`
}

type ImportReport struct {
	Rows           int64   `json:"rows"`
	Seconds        float64 `json:"seconds"`
	RowsPerSecond  float64 `json:"rows_per_second"`
	CatalogSeconds float64 `json:"catalog_seconds"`
}

type QueryReport struct {
	Name         string  `json:"name"`
	SQL          string  `json:"sql"`
	RowsReturned int     `json:"rows_returned"`
	TotalRows    float64 `json:"total_rows"`
	MCP          Timing  `json:"mcp"`
	RawSQL       Timing  `json:"raw_sql"`
	RatioP50     float64 `json:"ratio_p50"`
	RatioP99     float64 `json:"ratio_p99"`
	// CacheHit is a repetition answered from the result cache (a server with it on).
	CacheHit Timing `json:"cache_hit"`
}

type SmallReport struct {
	Tool Timing `json:"tool_call"`
	// RawTool is the same call from the raw JSON-RPC client (mcphttp), interleaved with Tool: the
	// call without the go-sdk client's own work on the shared cores.
	RawTool   Timing `json:"tool_call_raw_client"`
	OwnSQL    Timing `json:"own_sql"` // the call's hand-written rows-only SQL
	SelectOne Timing `json:"select_1"`
	Ping      Timing `json:"mcp_ping"`
	// AddedMs is the tool call minus SELECT 1; AddedOverOwnMs the tool call minus its own SQL.
	AddedMs        float64 `json:"added_p50_ms"`
	AddedOverOwnMs float64 `json:"added_over_own_sql_p50_ms"`
	// RawAddedOverOwnMs is RawTool minus its own SQL.
	RawAddedOverOwnMs float64 `json:"raw_client_added_over_own_sql_p50_ms"`
}

type LoadReport struct {
	Clients        int     `json:"clients"`
	Calls          int64   `json:"calls"`
	Seconds        float64 `json:"seconds"`
	CallsPerSecond float64 `json:"calls_per_second"`
	// ServerCPUPerCall is the server process's CPU time per call during the load, in ms: what a
	// call costs the server regardless of how busy the machine is.
	ServerCPUPerCall float64 `json:"server_cpu_ms_per_call,omitempty"`
}

type PeerReport struct {
	Package string      `json:"package"`
	Peer    StdioReport `json:"peer"`
	Lumo    StdioReport `json:"lumo"`
}

type StdioReport struct {
	Call Timing `json:"trivial_call"`
	// OverheadMs is the call's p50 minus its statement's own p50 (run directly on the same engine):
	// what the server adds to the work the call asks for.
	OverheadMs float64    `json:"overhead_p50_ms"`
	Load       LoadReport `json:"load"`
	Memory     Memory     `json:"memory"`
}

func cpus() int { return runtime.NumCPU() }

// Markdown writes the report as tables.
func (r *Report) Markdown(w io.Writer) {
	fmt.Fprintf(w, "## lumo-bench: %d sales rows, %d iterations, %d clients, %d catalogue apps, %d CPUs (%s, took %s)\n\n",
		r.Rows, r.Iterations, r.Clients, r.CatalogApps, r.CPUs, r.Started.Format(time.RFC3339), r.Elapsed)
	for _, e := range r.Engines {
		fmt.Fprintf(w, "### %s\n\n", e.Engine)
		fmt.Fprintf(w, "Import: %d rows in %.1f s = **%.0f rows/s** (catalogue of %d apps: %.1f s)\n\n",
			e.Import.Rows, e.Import.Seconds, e.Import.RowsPerSecond, r.CatalogApps, e.Import.CatalogSeconds)
		fmt.Fprintln(w, "| query | rows | MCP p50 ms | MCP p99 ms | SQL p50 ms | SQL p99 ms | ratio p50 | ratio p99 | cache hit p50 ms |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
		for _, q := range e.Queries {
			fmt.Fprintf(w, "| %s | %d of %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.3f |\n", q.Name, q.RowsReturned, q.TotalRows,
				q.MCP.P50, q.MCP.P99, q.RawSQL.P50, q.RawSQL.P99, q.RatioP50, q.RatioP99, q.CacheHit.P50)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "| measure | value |\n|---|---:|\n")
		fmt.Fprintf(w, "| server CPU per query answered from the result cache | %.3f ms |\n", e.CacheHitServerCPUMs)
		fmt.Fprintf(w, "| small tool call (query, 50-row table) p50 / p99 | %.3f / %.3f ms |\n", e.Small.Tool.P50, e.Small.Tool.P99)
		fmt.Fprintf(w, "| its hand-written SQL p50 / raw `SELECT 1` p50 | %.3f / %.3f ms |\n", e.Small.OwnSQL.P50, e.Small.SelectOne.P50)
		fmt.Fprintf(w, "| added per small call (p50) over its SQL / over `SELECT 1` | **%.3f** / %.3f ms |\n", e.Small.AddedOverOwnMs, e.Small.AddedMs)
		fmt.Fprintf(w, "| the same call from the raw JSON-RPC client p50; added over its SQL | %.3f; **%.3f** ms |\n", e.Small.RawTool.P50, e.Small.RawAddedOverOwnMs)
		fmt.Fprintf(w, "| MCP ping p50 | %.3f ms |\n", e.Small.Ping.P50)
		fmt.Fprintf(w, "| small tool calls/s over HTTP, %d clients | **%.0f** |\n", e.Load.Clients, e.Load.CallsPerSecond)
		fmt.Fprintf(w, "| server CPU per call under that load | %.3f ms |\n", e.Load.ServerCPUPerCall)
		fmt.Fprintf(w, "| the same with a raw JSON-RPC client (less client CPU on the shared cores): calls/s; server CPU per call | %.0f; %.3f ms |\n",
			e.RawLoad.CallsPerSecond, e.RawLoad.ServerCPUPerCall)
		fmt.Fprintf(w, "| search_values search mode p50 / p99 | %.1f / %.1f ms |\n", e.SearchValues.P50, e.SearchValues.P99)
		fmt.Fprintf(w, "| the same, a word no value contains, p50 / p99 | %.1f / %.1f ms |\n", e.SearchNoMatch.P50, e.SearchNoMatch.P99)
		if r.CatalogApps > 0 {
			fmt.Fprintf(w, "| search_catalog p50 / p99, %d apps | %.1f / %.1f ms |\n", r.CatalogApps, e.SearchCatalog.P50, e.SearchCatalog.P99)
			fmt.Fprintf(w, "| search_catalog server peak RSS | %.1f MiB |\n", e.CatalogServerMemory.PeakMiB)
		}
		fmt.Fprintf(w, "| server peak RSS (VmHWM) after the load | **%.1f MiB** |\n", e.ServerMemory.PeakMiB)
		if col := e.Columnar; col != nil {
			fmt.Fprintf(w, "\nOn the columnar copy (DuckDB): the server's copy ready in %.1f s, %d rows copied from the database (%.0f rows/s); lumo over MCP against DuckDB's own run of the SQL on the same rows:\n\n",
				col.CopySeconds, col.CopyRows, col.CopyRowsPerSecond)
			fmt.Fprintln(w, "| query | rows | lumo p50 ms | lumo p99 ms | DuckDB p50 ms | DuckDB p99 ms | ratio p50 | row store p50 ms |")
			fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|")
			for i, q := range col.Queries {
				fmt.Fprintf(w, "| %s | %d of %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", q.Name, q.RowsReturned, q.TotalRows,
					q.MCP.P50, q.MCP.P99, q.RawSQL.P50, q.RawSQL.P99, q.RatioP50, e.Queries[i].MCP.P50)
			}
			fmt.Fprintf(w, "\nsmall tool calls/s, %d clients: %.0f. Server peak RSS (VmHWM, reset between phases) while it copies **%.1f MiB**, "+
				"while it answers the queries **%.1f MiB**, under the small-call load **%.1f MiB**; bound `--columnar-memory` + 150 MiB = %.0f MiB\n",
				col.Load.Clients, col.Load.CallsPerSecond, col.CopyMemory.PeakMiB, col.QueriesMemory.PeakMiB, col.ServerMemory.PeakMiB, col.MemoryLimitMiB+150)
		}
		if p := e.Peer; p != nil {
			fmt.Fprintf(w, "\nstdio, same client, same database (%s):\n\n", p.Package)
			fmt.Fprintln(w, "| server | trivial call p50 ms | p99 ms | overhead p50 ms (call minus its SQL) | trivial calls/s ("+fmt.Sprint(p.Lumo.Load.Clients)+" clients) | RSS MiB |")
			fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
			fmt.Fprintf(w, "| peer: `query` SELECT 1 | %.3f | %.3f | %.3f | %.0f | %.1f |\n", p.Peer.Call.P50, p.Peer.Call.P99, p.Peer.OverheadMs, p.Peer.Load.CallsPerSecond, p.Peer.Memory.PeakMiB)
			fmt.Fprintf(w, "| lumo: `query` on the 50-row table | %.3f | %.3f | %.3f | %.0f | %.1f |\n", p.Lumo.Call.P50, p.Lumo.Call.P99, p.Lumo.OverheadMs, p.Lumo.Load.CallsPerSecond, p.Lumo.Memory.PeakMiB)
		}
		fmt.Fprintln(w)
	}
	if f := r.Floor; f != nil {
		fmt.Fprintf(w, "go-sdk floor (a tool answering a constant, same transport and client): call p50 / p99 %.3f / %.3f ms; "+
			"**%.0f calls/s** with %d clients; server CPU %.3f ms per call; with the raw JSON-RPC client call p50 %.3f ms, %.0f calls/s\n\n",
			f.Call.P50, f.Call.P99, f.Load.CallsPerSecond, f.Load.Clients, f.CPUPerCall, f.RawCall.P50, f.RawLoad.CallsPerSecond)
	}
	fmt.Fprintln(w, "Hand-written SQL of each query (as run on the last engine):")
	fmt.Fprintln(w)
	if n := len(r.Engines); n > 0 {
		for _, q := range r.Engines[n-1].Queries {
			fmt.Fprintf(w, "- %s: `%s`\n", q.Name, strings.ReplaceAll(q.SQL, "`", "'"))
		}
	}
}
