// Command caderninho-bench measures caderninho at scale: it generates OFX statements with n
// transactions in a temporary directory, imports them, writes edits, and times the planning
// reads and a plan_categorize through an in-memory MCP session, on SQLite and PostgreSQL.
// See README "Desempenho do caderninho".
package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lumo-caderninho/mcp/impl/caderninho"
	"github.com/lumo-caderninho/mcp/impl/caderninho/cadstore"
	"github.com/lumo-caderninho/mcp/impl/caderninho/installation"
	"github.com/lumo-caderninho/mcp/impl/platform/cli"
	"github.com/lumo-caderninho/mcp/impl/platform/sqldb"
)

func main() {
	cli.SoftMemoryLimit(caderninho.SoftMemoryLimit) // the import and reads run here, as in the caderninho command
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "caderninho-bench:", err)
		os.Exit(1)
	}
}

type config struct {
	n, files, edits, repeat    int
	rules                      int
	pg, cpuProfile, memProfile string
	reuse, keep                bool
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("caderninho-bench", flag.ContinueOnError)
	var c config
	fs.IntVar(&c.n, "n", 1_000_000, "transactions in all, split evenly between the files")
	fs.IntVar(&c.files, "files", 2, "OFX files (one connection each)")
	fs.IntVar(&c.edits, "edits", 100_000, "edits written before the reads")
	fs.IntVar(&c.repeat, "repeat", 3, "runs of each read; the best is reported")
	fs.IntVar(&c.rules, "rules", len(benchRules()), fmt.Sprintf("rules of the rules phase (at most %d; 0 skips it)", len(benchRules())))
	engines := fs.String("engines", "sqlite", "engines, comma-separated: sqlite, postgres")
	fs.StringVar(&c.pg, "pg", os.Getenv("LUMO_TEST_DB"), "PostgreSQL URL (a scratch schema is made in it and dropped)")
	keep := fs.Bool("keep", false, "keep the generated files and the SQLite database (the folder is printed)")
	reuse := fs.String("reuse", "", "time the reads on what a -keep run left: its folder (SQLite) or the PostgreSQL URL it printed (no generation, import or edits)")
	smoke := fs.Bool("smoke", false, "a tiny run in seconds (2000 transactions, 200 edits, 40 rules), to check the bench itself works")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run to this file")
	fs.StringVar(&c.memProfile, "memprofile", "", "write a heap profile (allocations of the import) to this file after the first import")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *smoke {
		c.n, c.edits, c.repeat, c.rules = 2000, 200, 1, 40
	}
	c.rules = min(max(c.rules, 0), len(benchRules()))
	if c.cpuProfile != "" {
		f, err := os.Create(c.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	c.keep = *keep
	if *reuse != "" {
		c.reuse = true
		if sqldb.IsPostgres(*reuse) {
			c.pg = *reuse
			_, err := bench(ctx, stdout, "postgres", "", c)
			return err
		}
		_, err := bench(ctx, stdout, "sqlite", *reuse, c)
		return err
	}
	dir, err := os.MkdirTemp("", "caderninho-bench-")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Fprintln(stdout, "keeping", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	start := time.Now()
	if err := generate(dir, c); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "generated %d transactions in %d OFX files (%s) in %s\n", c.n, c.files, mib(dirSize(dir)), time.Since(start).Round(time.Millisecond))
	for _, engine := range strings.Split(*engines, ",") {
		took, err := bench(ctx, stdout, engine, dir, c)
		if err != nil {
			return fmt.Errorf("%s: %w", engine, err)
		}
		if c.rules > 0 {
			if err := benchRulesPhase(ctx, stdout, engine, dir, c, took); err != nil {
				return fmt.Errorf("%s rules: %w", engine, err)
			}
		}
	}
	return nil
}

// generate writes the installation and one OFX statement per connection, each with n/files
// transactions over consecutive days (about 300 a day).
func generate(dir string, c config) error {
	var conns []string
	for i := range c.files {
		key := fmt.Sprintf("banco-%d", i+1)
		conns = append(conns, fmt.Sprintf("  - {key: %s, institution: Banco %d, holder: ana, space: casa, source: ofx/%s}", key, i+1, key))
		if err := os.MkdirAll(filepath.Join(dir, "ofx", key), 0o755); err != nil {
			return err
		}
		if err := writeOFX(filepath.Join(dir, "ofx", key, "extrato.ofx"), i, c.n/c.files); err != nil {
			return err
		}
	}
	yaml := "timezone: America/Sao_Paulo\npeople:\n  - {key: ana, name: Ana}\nspaces:\n  - key: casa\n    name: Casa\n" +
		"    categories: [Mercado, Moradia, Transporte, Lazer, Saúde, Receitas, Transferências, Tarifas]\nconnections:\n" + strings.Join(conns, "\n") + "\n"
	return os.WriteFile(filepath.Join(dir, "installation.yaml"), []byte(yaml), 0o644)
}

const perDay = 300

// The descriptions: card purchases at merchants (a kind, a name and a city), PIX to and from people,
// bills, bank fees and transfers no rule names, in the shares of description below.
var (
	kinds = []struct{ text, category string }{{"MERCADO", "Mercado"}, {"PADARIA", "Mercado"}, {"ACOUGUE", "Mercado"},
		{"POSTO", "Transporte"}, {"ESTAC", "Transporte"}, {"FARMACIA", "Saúde"}, {"DROGARIA", "Saúde"},
		{"RESTAUR", "Lazer"}, {"CINEMA", "Lazer"}, {"LIVRARIA", "Lazer"}}
	names = []string{"SAO JOAO", "BOM PRECO", "CENTRAL", "DA PRACA", "ESTRELA", "PAULISTA", "DO BAIRRO", "NOVA ERA", "AVENIDA",
		"JARDIM", "PRIMAVERA", "SOL NASCENTE", "TRES IRMAOS", "SANTA LUZIA", "BELA VISTA", "DOIS PORTOS", "MODELO", "IDEAL", "UNIAO",
		"AURORA", "CRUZEIRO", "DO POVO", "REAL", "VITORIA", "PANORAMA", "PARAISO", "LIDER", "IMPERIAL", "SERRA AZUL", "BOA VIAGEM"}
	cities = []string{"SP", "RJ", "BH", "POA", "REC"}
	people = []string{"MARIA SILVA", "JOAO SANTOS", "ANA OLIVEIRA", "PEDRO SOUZA", "JULIA LIMA", "LUCAS PEREIRA", "MARIANA COSTA",
		"GABRIEL ALVES", "BEATRIZ RODRIGUES", "RAFAEL GOMES", "LARISSA MARTINS", "BRUNO ROCHA", "CAMILA RIBEIRO", "FELIPE CARVALHO",
		"LETICIA ARAUJO", "GUSTAVO MELO", "FERNANDA BARBOSA", "THIAGO CARDOSO", "AMANDA TEIXEIRA", "DIEGO CORREIA"}
	bills = []string{"PAGTO CONTA LUZ", "PAGTO CONTA AGUA", "PAGTO CONTA GAS", "PAGTO CONTA INTERNET"}
)

const fee = "TARIFA PACOTE SERVICOS"

func merchant(j int) (text, category string) {
	k := kinds[j%len(kinds)]
	return k.text + " " + names[j/len(kinds)%len(names)], k.category
}

// description is transaction i's memo and whether money comes in: 70% card purchases, 8% PIX
// sent, 7% PIX received, 5% bills, 5% fees, 5% transfers.
func description(i int) (string, bool) {
	h := uint32(i) * 2654435761
	switch r := (h >> 8) % 100; {
	case r < 70:
		m, _ := merchant(int(h>>16) % (len(kinds) * len(names)))
		return m + " " + cities[i%len(cities)], false
	case r < 78:
		return "PIX ENVIADO " + people[int(h>>16)%len(people)], false
	case r < 85:
		return "PIX RECEBIDO " + people[int(h>>16)%len(people)], true
	case r < 90:
		return bills[int(h>>16)%len(bills)], false
	case r < 95:
		return fee, false
	}
	return fmt.Sprintf("TRANSFERENCIA %d", i%1000), i%2 == 0
}

func writeOFX(path string, file, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	first := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 0, max(0, (n-1)/perDay))
	fmt.Fprintf(w, "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n"+
		"<OFX>\n<SIGNONMSGSRSV1>\n<SONRS>\n<STATUS><CODE>0<SEVERITY>INFO</STATUS>\n<DTSERVER>%s235959[-3:BRT]\n<LANGUAGE>POR\n</SONRS>\n</SIGNONMSGSRSV1>\n"+
		"<BANKMSGSRSV1>\n<STMTTRNRS>\n<TRNUID>1\n<STATUS><CODE>0<SEVERITY>INFO</STATUS>\n<STMTRS>\n<CURDEF>BRL\n<BANKACCTFROM>\n<BANKID>0999\n"+
		"<ACCTID>%05d-%d\n<ACCTTYPE>CHECKING\n</BANKACCTFROM>\n<BANKTRANLIST>\n<DTSTART>%s000000[-3:BRT]\n<DTEND>%s235959[-3:BRT]\n",
		last.Format("20060102"), 10000+file, file, first.Format("20060102"), last.Format("20060102"))
	for i := range n {
		day := first.AddDate(0, 0, i/perDay)
		memo, in := description(i)
		cents, typ := 1+int64((i*7919+file*31)%250000), "CREDIT"
		if !in {
			cents, typ = -cents, "DEBIT"
		}
		fmt.Fprintf(w, "<STMTTRN>\n<TRNTYPE>%s\n<DTPOSTED>%s%02d%02d00[-3:BRT]\n<TRNAMT>%s\n<FITID>B%dT%08d\n<MEMO>%s\n</STMTTRN>\n",
			typ, day.Format("20060102"), 8+i%12, i%60, decimal(cents), file, i, memo)
	}
	fmt.Fprintf(w, "</BANKTRANLIST>\n<LEDGERBAL>\n<BALAMT>0.00\n<DTASOF>%s235959[-3:BRT]\n</LEDGERBAL>\n</STMTRS>\n</STMTTRNRS>\n</BANKMSGSRSV1>\n</OFX>\n",
		last.Format("20060102"))
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// benchRules are the rules of the rules phase, in their order: the arguments of plan_set_rule
// but space, confirmed and idempotency_key. Merchant rules come first, some narrowed by
// direction, amount or person; then PIX, bills and fees; then rules on a merchant's kind or name
// alone, which catch what the first ones leave.
func benchRules() []map[string]any {
	brl := func(minor int) map[string]any {
		return map[string]any{"amountMinor": strconv.Itoa(minor), "currency": "BRL"}
	}
	rule := func(match, text, category string) (map[string]any, map[string]any) {
		when := map[string]any{"bankDescription": map[string]any{"match": match, "text": text}}
		return map[string]any{"when": when, "category": category}, when
	}
	var out []map[string]any
	for r := range 150 {
		m, cat := merchant(2 * r)
		args, when := rule("contains", m, cat)
		switch {
		case r%5 == 1:
			when["direction"] = "out"
		case r%7 == 2:
			when["amountMax"] = brl(150000)
		case r%11 == 3:
			when["person"] = "ana"
		case r%13 == 4:
			when["amountMin"], when["amountMax"] = brl(500), brl(200000)
		}
		out = append(out, args)
	}
	for p := range 10 {
		args, when := rule("startsWith", "PIX RECEBIDO "+people[p], "Receitas")
		when["direction"] = "in"
		out = append(out, args)
		args, _ = rule("startsWith", "pix enviado "+strings.ToLower(people[p]), "Transferências")
		out = append(out, args)
	}
	for _, b := range bills {
		args, _ := rule("equals", b, "Moradia")
		out = append(out, args)
	}
	args, _ := rule("equals", fee, "Tarifas")
	out = append(out, args)
	for _, k := range kinds {
		args, _ := rule("contains", k.text, k.category)
		out = append(out, args)
	}
	for _, n := range names[:15] {
		args, when := rule("contains", n, "Mercado")
		when["amountMin"], when["amountMax"] = brl(1000), brl(100000)
		out = append(out, args)
	}
	return out
}

func decimal(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100)
}

// bench times the import (returned; 0 with -reuse) and the reads of engine.
func bench(ctx context.Context, stdout io.Writer, engine, dir string, c config) (took time.Duration, err error) {
	dsn := filepath.Join(dir, "bench.db")
	if engine == "postgres" {
		if c.pg == "" {
			return 0, fmt.Errorf("postgres needs -pg or LUMO_TEST_DB")
		}
		switch {
		case c.reuse:
			dsn = c.pg
		default:
			var drop func()
			var err error
			if dsn, drop, err = scratchSchema(ctx, c.pg); err != nil {
				return 0, err
			}
			if c.keep {
				fmt.Fprintln(stdout, "keeping", dsn)
			} else {
				defer drop()
			}
		}
	} else if engine != "sqlite" {
		return 0, fmt.Errorf("unknown engine %q", engine)
	}
	st, err := cadstore.Open(ctx, dsn)
	if err != nil {
		return 0, err
	}
	defer st.DB().Close()
	if !c.reuse {
		if took, err = load(ctx, stdout, st, engine, dir, c); err != nil {
			return 0, err
		}
	}
	call, closeSession, err := session(ctx, st)
	if err != nil {
		return 0, err
	}
	defer closeSession()
	debug.FreeOSMemory() // what the import left is not the reads'
	resetPeak()
	timed := func(name string, tool string, args func(i int) map[string]any, check func(map[string]any) error) error {
		best := time.Duration(1<<63 - 1)
		for i := range c.repeat {
			start := time.Now()
			out, err := call(tool, args(i))
			if err != nil {
				return err
			}
			best = min(best, time.Since(start))
			if check != nil {
				if err := check(out); err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
			}
		}
		fmt.Fprintf(stdout, "%s %-32s %10s\n", engine, name, best.Round(100*time.Microsecond))
		return nil
	}
	same := func(m map[string]any) func(int) map[string]any { return func(int) map[string]any { return m } }
	if err := timed("plan_totals", "plan_totals", same(map[string]any{}), func(out map[string]any) error {
		if n := out["count"].(float64); int(n) != c.n {
			return fmt.Errorf("count %v, want %d", n, c.n)
		}
		return nil
	}); err != nil {
		return 0, err
	}
	if err := timed("plan_totals groupBy category", "plan_totals", same(map[string]any{"groupBy": "category"}), nil); err != nil {
		return 0, err
	}
	if err := timed("plan_totals text filter", "plan_totals", same(map[string]any{"text": "mercado"}), nil); err != nil {
		return 0, err
	}
	var cursor string
	if err := timed("plan_transactions first page", "plan_transactions", same(map[string]any{"limit": 50}), func(out map[string]any) error {
		cursor, _ = out["nextCursor"].(string)
		return nil
	}); err != nil {
		return 0, err
	}
	if err := timed("plan_transactions next page", "plan_transactions", same(map[string]any{"limit": 50, "cursor": cursor}), nil); err != nil {
		return 0, err
	}
	// the 500 most recent ids, taken with cursors
	var ids []any
	args := map[string]any{"limit": 200}
	for len(ids) < 500 {
		out, err := call("plan_transactions", args)
		if err != nil {
			return 0, err
		}
		for _, r := range out["records"].([]any) {
			ids = append(ids, r.(map[string]any)["id"])
		}
		next, ok := out["nextCursor"].(string)
		if !ok {
			break
		}
		args["cursor"] = next
	}
	ids = ids[:min(500, len(ids))]
	cats := []string{"Lazer", "Transporte"}
	if err := timed(fmt.Sprintf("plan_categorize %d ids", len(ids)), "plan_categorize", func(i int) map[string]any {
		return map[string]any{"space": "casa", "confirmed": true, "idempotency_key": fmt.Sprintf("bench-categorize-%d-%d", time.Now().UnixNano(), i), "category": cats[i%2], "ids": ids}
	}, nil); err != nil {
		return 0, err
	}
	// The reads above after the first find the unmatched edits cached; a write moves the
	// space's revision, so the page after one reads them from the database again.
	best := time.Duration(1<<63 - 1)
	for i := range c.repeat {
		if _, err := call("plan_categorize", map[string]any{"space": "casa", "confirmed": true, "idempotency_key": fmt.Sprintf("bench-write-%d-%d", time.Now().UnixNano(), i),
			"category": cats[i%2], "ids": ids[:1]}); err != nil {
			return 0, err
		}
		start := time.Now()
		if _, err := call("plan_transactions", map[string]any{"limit": 50}); err != nil {
			return 0, err
		}
		best = min(best, time.Since(start))
	}
	fmt.Fprintf(stdout, "%s %-32s %10s\n", engine, "plan_transactions after a write", best.Round(100*time.Microsecond))
	fmt.Fprintf(stdout, "%s reads: peak RSS %s (with %d edits)\n", engine, mib(peakRSS()), c.edits)
	return took, nil
}

// callFunc calls a tool through the MCP session and returns its structured content.
type callFunc func(tool string, args map[string]any) (map[string]any, error)

// session connects an in-memory MCP client to a caderninho server over st.
func session(ctx context.Context, st *cadstore.Store) (callFunc, func(), error) {
	svc := &caderninho.Service{Store: st, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Identity: caderninho.Fixed(caderninho.LocalAssistant)}
	srv, err := caderninho.NewServer(svc, caderninho.Options{})
	if err != nil {
		return nil, nil, err
	}
	ct, sst := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, sst, nil); err != nil {
		return nil, nil, err
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "caderninho-bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, nil, err
	}
	call := func(tool string, args map[string]any) (map[string]any, error) {
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			return nil, err
		}
		if r.IsError {
			return nil, fmt.Errorf("%s: %s", tool, r.Content[0].(*mcp.TextContent).Text)
		}
		var out map[string]any
		b, _ := json.Marshal(r.StructuredContent)
		return out, json.Unmarshal(b, &out)
	}
	return call, func() { cs.Close() }, nil
}

// benchRulesPhase imports the same files into a second fresh database whose space has the
// rules of benchRules, created through the MCP session before the import, and reports the
// import's time against took (the import without rules); then it times a rule replaced in the
// middle of the order and a rule deleted, each re-applied over every transaction.
func benchRulesPhase(ctx context.Context, stdout io.Writer, engine, dir string, c config, took time.Duration) error {
	dsn := filepath.Join(dir, "bench-rules.db")
	if engine == "postgres" {
		var drop func()
		var err error
		if dsn, drop, err = scratchSchema(ctx, c.pg); err != nil {
			return err
		}
		if c.keep {
			fmt.Fprintln(stdout, "keeping", dsn)
		} else {
			defer drop()
		}
	}
	st, err := cadstore.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.DB().Close()
	inst, err := installation.Load(os.DirFS(dir), "installation.yaml")
	if err != nil {
		return err
	}
	if _, err := st.Register(ctx, inst, dir); err != nil {
		return err
	}
	call, closeSession, err := session(ctx, st)
	if err != nil {
		return err
	}
	defer closeSession()
	write := func(tool string, args map[string]any) (map[string]any, error) {
		args["space"], args["confirmed"] = "casa", true
		args["idempotency_key"] = fmt.Sprintf("bench-%s-%d", tool, time.Now().UnixNano())
		return call(tool, args)
	}
	// c.rules of them, spread over the list and in its order
	all := benchRules()
	rules := make([]map[string]any, c.rules)
	for i := range rules {
		rules[i] = all[i*len(all)/len(rules)]
	}
	var ids []int
	start := time.Now()
	for _, args := range rules {
		out, err := write("plan_set_rule", args)
		if err != nil {
			return err
		}
		ids = append(ids, int(out["rule"].(map[string]any)["id"].(float64)))
	}
	fmt.Fprintf(stdout, "%s %-32s %10s\n", engine, fmt.Sprintf("plan_set_rule x%d, empty space", len(rules)), time.Since(start).Round(100*time.Microsecond))
	runtime.GC()
	start, cpu := time.Now(), processCPU()
	outs, err := st.ImportConnections(ctx, nil)
	if err != nil {
		return err
	}
	withRules, withRulesCPU := time.Since(start), processCPU()-cpu
	categorised := 0
	for _, o := range outs {
		if o.Error != nil {
			return fmt.Errorf("import of %s: %v", o.Connection, o.Error)
		}
		categorised += o.Categorised
	}
	fmt.Fprintf(stdout, "%s import with %d rules: %d transactions in %s = %.0f transactions/s, %d categorised (%.0f%%); %.2fx the import without rules\n",
		engine, len(rules), c.n, withRules.Round(time.Millisecond), float64(c.n)/withRules.Seconds(), categorised, 100*float64(categorised)/float64(c.n),
		withRules.Seconds()/took.Seconds())
	if engine == "sqlite" && importCPU > 0 {
		// SQLite runs in this process: its CPU time says what the rules cost apart from the other work on the machine
		fmt.Fprintf(stdout, "%s import CPU time (this process): %s without rules, %s with = %.2fx\n", engine, importCPU.Round(10*time.Millisecond),
			withRulesCPU.Round(10*time.Millisecond), withRulesCPU.Seconds()/importCPU.Seconds())
	}
	// plan_rules counts what each rule categorises and reads a sample of each
	start = time.Now()
	if _, err := call("plan_rules", map[string]any{"space": "casa"}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s %-32s %10s\n", engine, fmt.Sprintf("plan_rules, %d rules", len(rules)), time.Since(start).Round(100*time.Microsecond))
	// the rule in the middle of the order (a merchant's) now names the merchant in one city only,
	// with another category: what it matched elsewhere goes to the rule on the merchant's kind
	mid := len(rules) / 2
	args := rules[mid]
	when := args["when"].(map[string]any)
	text := when["bankDescription"].(map[string]any)["text"].(string)
	newText := text + " X"
	if slices.ContainsFunc(kinds, func(k struct{ text, category string }) bool {
		return strings.HasPrefix(text, k.text+" ")
	}) {
		newText = text + " " + cities[0] // a merchant rule: the same merchant in one city only
	}
	change := map[string]any{"id": ids[mid], "category": "Lazer", "when": map[string]any{"bankDescription": map[string]any{"match": "contains", "text": newText}}}
	start = time.Now()
	out, err := write("plan_set_rule", change)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s %-32s %10s (%d changes)\n", engine, fmt.Sprintf("plan_set_rule at position %d", mid+1), time.Since(start).Round(100*time.Microsecond),
		int(out["count"].(float64)))
	del := len(rules) / 4
	start = time.Now()
	if out, err = write("plan_delete_rule", map[string]any{"id": ids[del]}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s %-32s %10s (%d changes)\n", engine, fmt.Sprintf("plan_delete_rule at position %d", del+1), time.Since(start).Round(100*time.Microsecond),
		int(out["count"].(float64)))
	return nil
}

// load registers the installation, imports the statements and writes the edits.
func load(ctx context.Context, stdout io.Writer, st *cadstore.Store, engine, dir string, c config) (time.Duration, error) {
	inst, err := installation.Load(os.DirFS(dir), "installation.yaml")
	if err != nil {
		return 0, err
	}
	if _, err := st.Register(ctx, inst, dir); err != nil {
		return 0, err
	}
	runtime.GC()
	resetPeak()
	start, cpu := time.Now(), processCPU()
	outs, err := st.ImportConnections(ctx, nil)
	if err != nil {
		return 0, err
	}
	took := time.Since(start)
	importCPU = processCPU() - cpu
	if c.memProfile != "" {
		if err := writeHeapProfile(c.memProfile); err != nil {
			return 0, err
		}
		c.memProfile = ""
	}
	for _, o := range outs {
		if o.Error != nil {
			return 0, fmt.Errorf("import of %s: %v", o.Connection, o.Error)
		}
	}
	fmt.Fprintf(stdout, "%s import: %d transactions in %s = %.0f transactions/s, peak RSS %s\n", engine, c.n, took.Round(time.Millisecond),
		float64(c.n)/took.Seconds(), mib(peakRSS()))
	return took, writeEdits(ctx, st.DB().SQL(), st.DB().Engine(), c.edits)
}

// writeEdits categorises the first n transactions directly in SQL, as n plan writes would.
func writeEdits(ctx context.Context, db *sql.DB, engine string, n int) error {
	q := `INSERT INTO cad_edits (account_key, dedupe_key, space_key, category, excluded, updated_at)
		SELECT c.connection_key || ':' || a.acct_number, t.dedupe_key, 'casa', 'Mercado', 0, '2026-01-01T00:00:00Z'
		FROM cad_transactions t JOIN cad_accounts a ON a.id = t.account_id JOIN cad_connections c ON c.id = a.connection_id
		ORDER BY t.id LIMIT ` + strconv.Itoa(n)
	if _, err := db.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("writing edits: %w", err)
	}
	if engine == "postgres" {
		// as autovacuum leaves a table after a bulk insert: statistics and the visibility map
		_, err := db.ExecContext(ctx, "VACUUM ANALYZE")
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE cad_spaces SET revision = revision + 1")
	return err
}

// scratchSchema makes a uniquely named schema in the database of dsn and returns dsn with it as
// the search_path, and how to drop it.
func scratchSchema(ctx context.Context, dsn string) (string, func(), error) {
	db, err := sqldb.Open(ctx, dsn)
	if err != nil {
		return "", nil, err
	}
	schema := fmt.Sprintf("caderninho_bench_%d", time.Now().UnixNano())
	if _, err := db.SQL().ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		db.Close()
		return "", nil, err
	}
	drop := func() {
		db.SQL().ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		db.Close()
	}
	u, err := url.Parse(dsn)
	if err != nil {
		drop()
		return "", nil, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), drop, nil
}

// resetPeak starts a new peak-RSS measurement (Linux: clear_refs 5 resets VmHWM).
// importCPU is the CPU time (user and system) this process spent in the last import without rules.
var importCPU time.Duration

// processCPU is the CPU time (user and system) this process has spent, from /proc/self/stat in
// clock ticks of 10 ms (0 when unknown).
func processCPU() time.Duration {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	// the fields after the command's name (in parentheses, which may hold spaces): utime and stime
	// are the 12th and 13th
	_, rest, ok := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 13 {
		return 0
	}
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(user+sys) * 10 * time.Millisecond
}

func resetPeak() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS is the process's peak resident set since resetPeak, in bytes (0 when unknown).
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func mib(n int64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }

func dirSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}
