// Package safestdio is the stdio MCP transport with a guard: an inbound line nested deeper than
// the SDK can decode (go-sdk closes the session on it, ending a stdio server) is dropped and
// logged instead, so one hostile message cannot stop the server.
package safestdio

import (
	"bufio"
	"bytes"
	"io"
	"log/slog"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxDepth is the deepest nesting let through; go-sdk v1.8.0 refuses more than 1000 levels.
const MaxDepth = 900

// Transport reads stdin and writes stdout like mcp.StdioTransport, dropping over-deep lines.
func Transport(log *slog.Logger) mcp.Transport {
	return &mcp.IOTransport{Reader: Filter(os.Stdin, log), Writer: nopCloser{os.Stdout}}
}

// Filter passes newline-delimited messages from r through, except lines nested deeper than
// MaxDepth.
func Filter(r io.ReadCloser, log *slog.Logger) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				if depth(line) > MaxDepth {
					log.Warn("dropped an inbound message nested too deeply", "bytes", len(line))
				} else if _, werr := pw.Write(line); werr != nil {
					r.Close()
					return
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return readCloser{pr, r}
}

// depth is the deepest nesting of objects and arrays in a JSON text, ignoring strings.
func depth(b []byte) int {
	if !bytes.ContainsAny(b, "[{") {
		return 0
	}
	d, most, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			most = max(most, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return most
}

type readCloser struct {
	*io.PipeReader
	src io.Closer
}

func (rc readCloser) Close() error {
	rc.PipeReader.Close()
	return rc.src.Close()
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
