// Package safestdio is the stdio MCP transport with a guard: an inbound line the SDK would end
// the session on (nested deeper than it decodes, or longer than it buffers) never reaches it.
// Such a line is read through without being kept whole, answered with a JSON-RPC error (with
// the request's id when it comes early in the line, null otherwise) and logged, and the server
// goes on reading the next line: one hostile message cannot stop a stdio server.
package safestdio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxDepth is the deepest nesting let through; go-sdk v1.8.0 refuses more than 1000 levels.
const MaxDepth = 900

// MaxLineBytes is the longest line let through (newline included): 8 MiB, well under go-sdk's
// 16 MiB frame limit (mcp.DefaultMaxLineLength), past which it ends the session. A longer line
// costs idPrefix bytes of memory, however long it is.
const MaxLineBytes = 8 << 20

// idPrefix is how much of an overlong line is kept to find the request's id.
const idPrefix = 64 << 10

// JSON-RPC error codes of the answers to refused lines.
const (
	codeInvalidRequest = -32600
	codeParseError     = -32700
)

// Transport reads stdin and writes stdout like mcp.StdioTransport, refusing over-deep and
// overlong lines.
func Transport(log *slog.Logger) mcp.Transport { return Over(os.Stdin, os.Stdout, log) }

// Over is Transport on r and w (tests run a server on pipes with it).
func Over(r io.ReadCloser, w io.Writer, log *slog.Logger) mcp.Transport {
	lw := &lockedWriter{w: w}
	return &mcp.IOTransport{Reader: Filter(r, lw, log), Writer: nopCloser{lw}}
}

// Filter passes newline-delimited messages from r through, except lines nested deeper than
// MaxDepth or longer than MaxLineBytes: each of those gets a JSON-RPC error written to reply
// (when not nil; it must be the writer the server answers on, safe for concurrent writes).
func Filter(r io.ReadCloser, reply io.Writer, log *slog.Logger) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		var line []byte
		for {
			chunk, err := br.ReadSlice('\n')
			if len(line)+len(chunk) > MaxLineBytes {
				n, id := skipLine(br, line, chunk, err)
				log.Warn("refused an inbound message over the line limit", "bytes", n, "limit", MaxLineBytes)
				answer(reply, id, codeInvalidRequest, "Mensagem grande demais: o limite é de 8388608 bytes por linha (8 MiB); envie argumentos menores.")
				line = line[:0]
				if n < 0 {
					pw.CloseWithError(io.ErrUnexpectedEOF)
					return
				}
				continue
			}
			line = grow(line, len(chunk))
			line = append(line, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if len(line) > 0 {
				if depth(line) > MaxDepth {
					log.Warn("refused an inbound message nested too deeply", "bytes", len(line), "limit", MaxDepth)
					answer(reply, findID(line), codeInvalidRequest, "Mensagem aninhada demais: o limite é de 900 níveis de listas e objetos.")
				} else if _, werr := pw.Write(line); werr != nil {
					r.Close()
					return
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			if cap(line) > 1<<20 {
				line = nil // do not keep a large buffer for the next, usually small, line
			} else {
				line = line[:0]
			}
		}
	}()
	return readCloser{pr, r}
}

// grow makes room for n more bytes in b by doubling (append grows large slices by 1.25x, which
// costs five times the line in copies), never past MaxLineBytes.
func grow(b []byte, n int) []byte {
	if len(b)+n <= cap(b) {
		return b
	}
	c := min(max(2*cap(b), len(b)+n, 64<<10), MaxLineBytes)
	nb := make([]byte, len(b), c)
	copy(nb, b)
	return nb
}

// skipLine reads the rest of an overlong line, keeping only its first idPrefix bytes, and
// returns the bytes read in all (negative when the input ended before the line did) and the id
// found in the prefix.
func skipLine(br *bufio.Reader, line, chunk []byte, err error) (int, json.RawMessage) {
	prefix := append([]byte(nil), line[:min(len(line), idPrefix)]...)
	n := len(line)
	for {
		if room := idPrefix - len(prefix); room > 0 {
			prefix = append(prefix, chunk[:min(len(chunk), room)]...)
		}
		n += len(chunk)
		if err != bufio.ErrBufferFull {
			if err != nil {
				return -n, findID(prefix)
			}
			return n, findID(prefix)
		}
		chunk, err = br.ReadSlice('\n')
	}
}

// findID is the "id" member of the top-level object that b starts, when it comes before
// anything that cannot be read (b may be cut); nil when there is none.
func findID(b []byte) json.RawMessage {
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return nil
		}
		if k == "id" {
			var id json.RawMessage
			if d.Decode(&id) != nil {
				return nil
			}
			if c := bytes.TrimSpace(id); len(c) > 0 && (c[0] == '"' || c[0] == '-' || (c[0] >= '0' && c[0] <= '9')) && len(c) <= 200 {
				return c
			}
			return nil
		}
		if skipValue(d) != nil {
			return nil
		}
	}
	return nil
}

// skipValue reads one value of d token by token, so a deep or long one costs no recursion.
func skipValue(d *json.Decoder) error {
	level := 0
	for {
		t, err := d.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			level++
		case json.Delim('}'), json.Delim(']'):
			level--
		}
		if level == 0 {
			return nil
		}
	}
}

// answer writes a JSON-RPC error for the refused line: with its id, or a parse error with a
// null id when the id could not be read (as JSON-RPC 2.0 requires).
func answer(w io.Writer, id json.RawMessage, code int, msg string) {
	if w == nil {
		return
	}
	if id == nil {
		id, code = json.RawMessage("null"), codeParseError
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	if err != nil {
		return
	}
	_, _ = w.Write(append(b, '\n'))
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

// lockedWriter lets the server and the filter's refusals write whole lines to one stream.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
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
