package httpserve

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// testServer serves h within lim on a loopback port until the test ends.
func testServer(t *testing.T, lim Limits, h http.Handler) (string, *tracker) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	hs, tr := newServer(h, lim.resolve(log), log)
	go hs.Serve(tr.listener(ln))
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String(), tr
}

func healthz() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
	mux.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) { io.Copy(w, r.Body) })
	return mux
}

// dialFrom connects to addr from the loopback address from (127.0.0.0/8 is all loopback on Linux).
func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{Timeout: 5 * time.Second}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial from %s: %v", from, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// get sends one GET on c and returns the status line and body.
func get(t *testing.T, c net.Conn, path string) (*http.Response, string) {
	t.Helper()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	c.SetDeadline(time.Time{})
	return resp, string(b)
}

// closedByServer reports whether the server has closed c (a read ends at once with EOF or reset).
func closedByServer(c net.Conn) bool {
	c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	_, err := c.Read(make([]byte, 1))
	return err != nil && !isTimeout(err)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

func open(tr *tracker) int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.total
}

func waitOpen(t *testing.T, tr *tracker, want int) {
	t.Helper()
	for i := 0; i < 200 && open(tr) != want; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if got := open(tr); got != want {
		t.Fatalf("%d connections tracked, want %d", got, want)
	}
}

// refused checks that the server answered c with 503 and its Portuguese reason.
func refused(t *testing.T, c net.Conn) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer from a full server: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" ||
		!strings.HasPrefix(string(b), "Conexões demais abertas") {
		t.Errorf("at the cap: %d %q %q", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
}

func waitPhase(t *testing.T, tr *tracker, p phase, want int) {
	t.Helper()
	n := func() int { tr.mu.Lock(); defer tr.mu.Unlock(); return tr.byPhase[p].Len() }
	for i := 0; i < 200 && n() != want; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if got := n(); got != want {
		t.Fatalf("%d connections in phase %d, want %d", got, p, want)
	}
}

func needLoopbackRange(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("binding 127.0.0.2 as a source address needs Linux's 127.0.0.0/8 loopback")
	}
}

func TestSlowBodyIsCut(t *testing.T) {
	var reached atomic.Bool
	addr, _ := testServer(t, Limits{BodyTimeout: 300 * time.Millisecond}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Store(true)
	}))
	c := dialFrom(t, "", addr)
	fmt.Fprintf(c, "POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
	start := time.Now()
	go func() { // one byte every 50 ms: 5 s for the whole body
		for i := 0; i < 100; i++ {
			if _, err := c.Write([]byte("a")); err != nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	c.SetReadDeadline(time.Now().Add(4 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer to a slow body: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(b), "não chegou inteiro em 300ms") {
		t.Errorf("got %d %q, want 408 naming the bound", resp.StatusCode, b)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the slow body held the connection %v", took)
	}
	if reached.Load() {
		t.Error("the handler ran on a body that never arrived")
	}
	if !closedByServer(c) {
		t.Error("the connection stayed open after the 408")
	}
}

func TestBodyOverTheBoundIs413(t *testing.T) {
	addr, _ := testServer(t, Limits{MaxBody: 10}, healthz())
	resp, err := http.Post("http://"+addr+"/echo", "text/plain", strings.NewReader("0123456789A"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "o limite é 10 bytes") {
		t.Errorf("got %d %q", resp.StatusCode, b)
	}
	resp, err = http.Post("http://"+addr+"/echo", "text/plain", strings.NewReader("0123456789"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(b) != "0123456789" {
		t.Errorf("a body at the bound: got %d %q", resp.StatusCode, b)
	}
}

func TestIdleConnectionsMakeRoom(t *testing.T) {
	addr, tr := testServer(t, Limits{MaxConns: 20, MaxConnsPerClient: -1}, healthz())
	var idle []net.Conn
	for i := 0; i < 20; i++ {
		c := dialFrom(t, "", addr)
		if resp, _ := get(t, c, "/healthz"); resp.StatusCode != 200 {
			t.Fatalf("warm-up %d: %d", i, resp.StatusCode)
		}
		idle = append(idle, c)
	}
	waitOpen(t, tr, 20)
	waitPhase(t, tr, kept, 20) // net/http marks a connection idle just after its answer is sent
	// 20 more: each closes the oldest idle one and is answered.
	for i := 0; i < 20; i++ {
		c := dialFrom(t, "", addr)
		if resp, body := get(t, c, "/healthz"); resp.StatusCode != 200 || body != "ok\n" {
			t.Fatalf("healthz %d at the cap: %d %q", i, resp.StatusCode, body)
		}
		if n := open(tr); n > 20 {
			t.Fatalf("%d connections open, cap 20", n)
		}
	}
	for i, c := range idle {
		if !closedByServer(c) {
			t.Fatalf("idle connection %d was not closed to make room", i)
		}
	}
}

func TestSlowHeadersMakeRoom(t *testing.T) {
	addr, tr := testServer(t, Limits{MaxConns: 3, MaxConnsPerClient: -1}, healthz())
	var stuck []net.Conn
	for i := 0; i < 3; i++ { // a header that never ends
		c := dialFrom(t, "", addr)
		io.WriteString(c, "GET /healthz HTTP/1.1\r\nHo")
		stuck = append(stuck, c)
	}
	waitOpen(t, tr, 3)
	refused(t, dialFrom(t, "", addr)) // young: they may be honest clients not yet read
	time.Sleep(patience)
	if resp, _ := get(t, dialFrom(t, "", addr), "/healthz"); resp.StatusCode != 200 {
		t.Fatalf("healthz: %d", resp.StatusCode)
	}
	if !closedByServer(stuck[0]) {
		t.Error("the oldest stuck header was not closed to make room")
	}
	for _, c := range stuck[1:] {
		if closedByServer(c) {
			t.Error("closed more stuck headers than needed")
		}
	}
}

func TestStuckBodiesMakeRoom(t *testing.T) {
	addr, tr := testServer(t, Limits{MaxConns: 3, MaxConnsPerClient: -1}, healthz())
	var stuck []net.Conn
	for i := 0; i < 3; i++ { // a body that never ends
		c := dialFrom(t, "", addr)
		io.WriteString(c, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab")
		stuck = append(stuck, c)
		time.Sleep(20 * time.Millisecond)
	}
	waitOpen(t, tr, 3)
	// Bodies arriving for less than a second may be honest: nothing to close, so a refusal.
	refused(t, dialFrom(t, "", addr))
	time.Sleep(patience)
	if resp, _ := get(t, dialFrom(t, "", addr), "/healthz"); resp.StatusCode != 200 {
		t.Fatalf("healthz: %d", resp.StatusCode)
	}
	if !closedByServer(stuck[0]) {
		t.Error("the oldest stuck body was not closed to make room")
	}
	for _, c := range stuck[1:] {
		if closedByServer(c) {
			t.Error("closed more stuck bodies than needed")
		}
	}
}

func TestPerClientCap(t *testing.T) {
	needLoopbackRange(t)
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.Handle("/healthz", healthz())
	mux.HandleFunc("/block", func(w http.ResponseWriter, r *http.Request) { <-release })
	addr, tr := testServer(t, Limits{MaxConnsPerClient: 3}, mux)
	defer close(release)
	for i := 0; i < 3; i++ {
		c := dialFrom(t, "127.0.0.2", addr)
		fmt.Fprintf(c, "GET /block HTTP/1.1\r\nHost: x\r\n\r\n")
	}
	waitOpen(t, tr, 3)
	waitPhase(t, tr, busy, 3)
	refused(t, dialFrom(t, "127.0.0.2", addr))
	if resp, _ := get(t, dialFrom(t, "127.0.0.1", addr), "/healthz"); resp.StatusCode != 200 {
		t.Errorf("another client was refused: %d", resp.StatusCode)
	}
}

func TestStalledReaderFreesTheHandler(t *testing.T) {
	wrote := make(chan error, 1)
	addr, _ := testServer(t, Limits{WriteTimeout: 300 * time.Millisecond}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := make([]byte, 64<<10)
		for i := 0; i < 4096; i++ { // 256 MiB, far past every socket buffer
			if _, err := w.Write(chunk); err != nil {
				wrote <- err
				return
			}
		}
		wrote <- nil
	}))
	c := dialFrom(t, "", addr)
	fmt.Fprintf(c, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n") // and never read
	select {
	case err := <-wrote:
		if err == nil {
			t.Fatal("the whole answer was written to a client that reads nothing")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a client that stopped reading held the handler for 10 s")
	}
}

// TestLongStreamOutlivesTheTimeouts: an SSE-like answer that writes now and then lives far longer
// than every timeout, since each write gets its own deadline.
func TestLongStreamOutlivesTheTimeouts(t *testing.T) {
	d := 150 * time.Millisecond
	addr, _ := testServer(t, Limits{HeaderTimeout: d, BodyTimeout: d, WriteTimeout: d, IdleTimeout: d}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for i := 0; i < 12; i++ {
			fmt.Fprintf(w, "data: %d\n\n", i)
			if err := rc.Flush(); err != nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}))
	resp, err := http.Get("http://" + addr + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	start := time.Now()
	sc := bufio.NewScanner(resp.Body)
	events := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			events++
		}
	}
	if events != 12 {
		t.Errorf("got %d of 12 events (%v), err %v", events, time.Since(start), sc.Err())
	}
	if time.Since(start) < 8*d {
		t.Errorf("the stream lasted only %v", time.Since(start))
	}
}

func TestConnectionsAreForgottenWhenClosed(t *testing.T) {
	needLoopbackRange(t)
	addr, tr := testServer(t, Limits{}, healthz())
	var conns []net.Conn
	for i := 0; i < 50; i++ {
		c := dialFrom(t, fmt.Sprintf("127.0.0.%d", 2+i%5), addr)
		get(t, c, "/healthz")
		conns = append(conns, c)
	}
	waitOpen(t, tr, 50)
	for _, c := range conns {
		c.Close()
	}
	waitOpen(t, tr, 0)
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for p := range tr.byPhase {
		if n := tr.byPhase[p].Len(); n != 0 {
			t.Errorf("%d closed connections still listed in phase %d", n, p)
		}
	}
	if len(tr.clients) != 0 {
		t.Errorf("closed connections still tracked for %d clients", len(tr.clients))
	}
}

// TestFewConnectionsGetIn: at the total cap a client holding none gets in at once, taking the
// place of one of the client holding the most, however young its connections are.
func TestFewConnectionsGetIn(t *testing.T) {
	needLoopbackRange(t)
	addr, tr := testServer(t, Limits{MaxConns: 6, MaxConnsPerClient: -1}, healthz())
	var stuck []net.Conn
	for i := 0; i < 6; i++ {
		c := dialFrom(t, "127.0.0.2", addr)
		io.WriteString(c, "GET /healthz HTTP/1.1\r\nHo")
		stuck = append(stuck, c)
	}
	waitOpen(t, tr, 6)
	if resp, _ := get(t, dialFrom(t, "127.0.0.1", addr), "/healthz"); resp.StatusCode != 200 {
		t.Fatalf("healthz from another client: %d", resp.StatusCode)
	}
	closed := 0
	for _, c := range stuck {
		if closedByServer(c) {
			closed++
		}
	}
	if closed != 1 {
		t.Errorf("%d connections of the heavy client closed, want 1", closed)
	}
}

// TestJSONBodyOverTheBoundIs413WithTheErrorBody checks the refusal a JSON body gets: the error
// body of the REST mirror, {"error": {code, message, suggestions}}.
func TestJSONBodyOverTheBoundIs413WithTheErrorBody(t *testing.T) {
	addr, _ := testServer(t, Limits{MaxBody: 10}, healthz())
	resp, err := http.Post("http://"+addr+"/tools/x", "application/json", strings.NewReader(`{"a":"0123456789"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var e struct {
		Error struct {
			Code, Message string
			Suggestions   []string
		}
	}
	if err := json.Unmarshal(b, &e); err != nil || resp.StatusCode != http.StatusRequestEntityTooLarge ||
		e.Error.Code != "REQUEST_TOO_LARGE" || !strings.Contains(e.Error.Message, "o limite é 10 bytes") || e.Error.Suggestions == nil {
		t.Errorf("got %d %s", resp.StatusCode, b)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
}
