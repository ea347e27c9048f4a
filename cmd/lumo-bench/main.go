// Command lumo-bench measures lumo at scale, side by side with hand-written SQL on the same
// engine (and, with --peer, with a generic SQL-passthrough MCP server). See README "Performance".
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/lumo-caderninho/mcp/impl/lumo/bench"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if addr := os.Getenv(bench.FloorEnv); addr != "" { // started by the bench itself: see bench.ServeFloor
		if err := bench.ServeFloor(ctx, addr); err != nil {
			fmt.Fprintln(os.Stderr, "lumo-bench floor:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "lumo-bench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("lumo-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rows := fs.Int("rows", 1_000_000, "linhas da tabela de vendas gerada")
	engines := fs.String("engines", "sqlite,postgres", "bancos medidos, separados por vírgula (sqlite, postgres)")
	pg := fs.String("pg", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable", "PostgreSQL onde o benchmark cria (e apaga) um banco próprio")
	iterations := fs.Int("iterations", 30, "repetições medidas de cada consulta")
	small := fs.Int("small-calls", 300, "repetições medidas de cada chamada pequena")
	clients := fs.Int("clients", 8, "clientes simultâneos no teste de vazão")
	loadFor := fs.Duration("load-duration", 5*time.Second, "duração do teste de vazão")
	catalog := fs.Int("catalog-apps", 10_000, "Aplicações no catálogo do search_catalog (0 = não mede)")
	out := fs.String("out", "", "grava o relatório neste arquivo (.json = JSON; outro = markdown)")
	peer := fs.Bool("peer", false, "mede também o servidor npm "+bench.PeerPackage+" (só no PostgreSQL)")
	peerDir := fs.String("peer-dir", filepath.Join(os.TempDir(), "lumo-bench-peer"), "pasta onde o npm instala o servidor de comparação")
	lumo := fs.String("lumo", "", "binário do lumo (padrão: compilado de ./cmd/lumo numa pasta temporária)")
	cpuProfile := fs.String("cpuprofile", "", "grava o perfil de CPU deste processo (importação, SQL direto, cliente) neste arquivo")
	serverLog := fs.String("server-log", "", "grava o stderr dos servidores neste arquivo (padrão: descartado)")
	formats := fs.String("formats", "", "em vez das consultas, mede a importação de --rows linhas em cada formato de arquivo, separados por vírgula ("+strings.Join(bench.Formats(), ", ")+", ou all), cada uma num processo lumo import próprio")
	noRollups := fs.Bool("no-rollups", false, "importa a Aplicação de vendas sem o rollup (para comparar a importação e as consultas)")
	formatRollups := fs.Bool("rollups", false, "com --formats: importa a Aplicação de vendas com os quatro rollups")
	tpch := fs.String("tpch", "", "em vez das consultas de vendas, faz as 22 consultas do TPC-H sobre os CSV desta pasta (gerados com "+bench.TPCHGenerateCommand("/caminho/da/pasta", 1)+"), ao lumo e ao DuckDB, e compara as respostas")
	tpchSF := fs.Int("tpch-sf", 1, "fator de escala dos dados de --tpch (a fração da Q11 é 0,0001 / SF)")
	columnar := fs.Bool("columnar", false, "mede também as consultas na cópia colunar (DuckDB) contra o SQL escrito à mão rodando no próprio DuckDB, sobre as mesmas linhas")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *tpchSF < 1 {
		return errors.New("--tpch-sf precisa ser pelo menos 1 (o gerador do go-tpc só aceita fatores inteiros)")
	}
	if *tpch != "" {
		if err := bench.CheckTPCHData(*tpch, *tpchSF); err != nil {
			return err
		}
	}
	if *rows < 1000 || *iterations < 1 || *small < 1 || *clients < 1 {
		return errors.New("--rows precisa ser pelo menos 1000 e --iterations, --small-calls e --clients pelo menos 1")
	}
	c := bench.Config{Rows: *rows, PostgresDSN: *pg, Iterations: *iterations, SmallCalls: *small, Clients: *clients,
		LoadDuration: *loadFor, CatalogApps: *catalog, NoRollups: *noRollups, Columnar: *columnar, Peer: *peer, PeerDir: *peerDir, Lumo: *lumo, Log: stderr,
		ServerEnv: []string{"GOMAXPROCS=" + os.Getenv("GOMAXPROCS")}}
	if os.Getenv("GOMAXPROCS") == "" {
		c.ServerEnv = nil
	}
	for _, e := range strings.Split(*engines, ",") {
		if e = strings.TrimSpace(e); e != "sqlite" && e != "postgres" {
			return fmt.Errorf("--engines: %q não é um banco conhecido; use sqlite, postgres ou os dois separados por vírgula", e)
		}
		c.Engines = append(c.Engines, strings.TrimSpace(e))
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *serverLog != "" {
		f, err := os.Create(*serverLog)
		if err != nil {
			return err
		}
		defer f.Close()
		c.ServerLog = f
	}
	if c.Lumo == "" {
		dir, err := os.MkdirTemp("", "lumo-bench-bin-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		c.Lumo = filepath.Join(dir, "lumo")
		fmt.Fprintln(stderr, "lumo-bench: compilando ./cmd/lumo")
		build := exec.CommandContext(ctx, "go", "build", "-o", c.Lumo, "./cmd/lumo")
		build.Stdout, build.Stderr = stderr, stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("não foi possível compilar ./cmd/lumo (rode na raiz do módulo ou passe --lumo): %w", err)
		}
	}
	if *tpch != "" {
		rep, err := bench.RunTPCH(ctx, bench.TPCHConfig{Dir: *tpch, SF: *tpchSF, Iterations: *iterations, Lumo: c.Lumo,
			ServerEnv: c.ServerEnv, Log: stderr, ServerLog: c.ServerLog})
		if err != nil {
			return err
		}
		return report(rep, rep.Markdown, stdout, *out)
	}
	if *formats != "" {
		list := strings.Split(*formats, ",")
		if *formats == "all" {
			list = bench.Formats()
		}
		rep, err := bench.RunFormats(ctx, bench.FormatsConfig{Formats: list, Rows: *rows, Engines: c.Engines,
			PostgresDSN: *pg, Lumo: c.Lumo, Log: stderr, Rollups: *formatRollups})
		if err != nil {
			return err
		}
		return report(rep, rep.Markdown, stdout, *out)
	}
	rep, err := bench.Run(ctx, c)
	if err != nil {
		return err
	}
	return report(rep, rep.Markdown, stdout, *out)
}

// report writes rep as markdown to stdout and, with --out, to that file (as JSON for .json).
func report(rep any, markdown func(io.Writer), stdout io.Writer, out string) error {
	markdown(stdout)
	if out == "" {
		return nil
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	if strings.HasSuffix(out, ".json") {
		enc := json.NewEncoder(f)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	markdown(f)
	return nil
}
