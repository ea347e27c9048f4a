// Command mcp-conformance runs our Gherkin conformance suite, embedded, against a foreign MCP
// server that holds the demo fixture: lumo's features against a BI server, caderninho's against a
// finance server, over Streamable HTTP or as a stdio command. Scenarios that need our own setup
// (@own-setup) are left out; the others report as godog does (pretty, progress, junit:FILE,
// cucumber:FILE, several joined by commas).
//
//	go run github.com/lumo-caderninho/mcp/cmd/mcp-conformance@latest -suite lumo -target http://127.0.0.1:8080/mcp -app-ids vendas-comercial=1,...
//	mcp-conformance -suite caderninho -target-cmd 'caderninho serve' -format progress,junit:report.xml
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/lumo-caderninho/mcp/features"
)

func main() {
	suite := flag.String("suite", "lumo", "the suite: "+strings.Join(features.Suites, " or "))
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: mcp-conformance -suite lumo|caderninho (-target URL | -target-cmd COMMAND) [flags]\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if !slices.Contains(features.Suites, *suite) || flag.NArg() > 0 || !features.External() {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(features.Run(*suite, nil, os.Stdout))
}
