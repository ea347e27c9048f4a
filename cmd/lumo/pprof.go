package main

import (
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"

	"github.com/lumo-caderninho/mcp/impl/platform/crosssite"
)

// pprofEnv names the hidden variable that serves net/http/pprof on a separate loopback address
// (for profiling under lumo-bench); never on the MCP listener, never off loopback.
const pprofEnv = "LUMO_PPROF_ADDR"

func startPprof(log *slog.Logger) {
	addr := os.Getenv(pprofEnv)
	if addr == "" {
		return
	}
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		log.Warn("pprof not started: the address must be loopback", "env", pprofEnv, "addr", addr)
		return
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	go func() {
		log.Info("pprof serving", "addr", addr)
		// The Host check too: a page whose name rebinds to loopback must not read profiles.
		if err := http.ListenAndServe(addr, crosssite.Guard{}.Wrap(mux)); err != nil {
			log.Warn("pprof stopped", "err", err)
		}
	}()
}
