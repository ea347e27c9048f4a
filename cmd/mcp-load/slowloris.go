package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The caps the slowloris run starts each server with, so that the attack goes past both.
const (
	slowMaxConns   = 2000
	slowPerClient  = 100
	slowClients    = 25 // attacking addresses, 127.0.0.2 on: each opens more than slowPerClient
	slowProbeEvery = 20 * time.Millisecond
	healthzTarget  = 100 * time.Millisecond // p99 of /healthz during the attack, reported
	healthzLimit   = time.Second            // p99 that fails the run: a starved server, not a busy machine
)

// slowloris attacks a server for d with n connections that go idle after one request, dribble a
// header or dribble a body (one byte a second), each reopened about a second after the server
// closes it, from slowClients loopback addresses; meanwhile /healthz is probed on new connections from
// 127.0.0.1. It fails when a probe fails, when their p99 is not under healthzLimit, when the
// server holds more connections than its cap allows, or when its open files do not return to
// their count before the attack. healthzTarget is a figure it reports: load from other jobs on
// the same cores moves it (CI failed at 191 ms with a benchmark running beside it).
func slowloris(name, bin, dataHome string, n int, d time.Duration) error {
	if name == "caderninho" {
		if err := seedCaderninho(bin, dataHome); err != nil {
			return err
		}
	}
	s, err := start(bin, dataHome, "--max-conns", strconv.Itoa(slowMaxConns), "--max-conns-per-client", strconv.Itoa(slowPerClient))
	if err != nil {
		return err
	}
	defer s.stop()
	base := strings.TrimSuffix(s.url, "/mcp")
	if _, err := probe(base); err != nil {
		return fmt.Errorf("healthz before the attack: %w", err)
	}
	before := s.settledFiles()
	baseline := len(before)

	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var wg sync.WaitGroup
	var opened, answered503 atomic.Int64
	host := strings.TrimPrefix(base, "http://")
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			attack(ctx, host, fmt.Sprintf("127.0.0.%d", 2+i%slowClients), i%3, &opened, &answered503)
		}()
	}
	var lat []time.Duration
	var failures []string
	peak := 0
	tick := time.NewTicker(slowProbeEvery)
	for done := false; !done; {
		select {
		case <-ctx.Done():
			done = true
		case <-tick.C:
			t, err := probe(base)
			if err != nil {
				failures = append(failures, err.Error())
			} else {
				lat = append(lat, t)
			}
			if len(lat)%10 == 0 {
				peak = max(peak, s.openFiles())
			}
		}
	}
	tick.Stop()
	wg.Wait()
	after := s.openFiles()
	for i := 0; i < 100 && after > baseline; i++ {
		time.Sleep(100 * time.Millisecond)
		after = s.openFiles()
	}
	p50, p99 := pct(lat, 0.5), pct(lat, 0.99)
	fmt.Printf("%s under slowloris: %d attacking connections (%d opened in all, %d answered 503) for %v; "+
		"/healthz %d probes, p50 %v, p99 %v, %d failed; server files %d before, peak %d, %d after\n",
		name, n, opened.Load(), answered503.Load(), d, len(lat)+len(failures), p50, p99, len(failures), baseline, peak, after)
	var problems []string
	if len(failures) > 0 {
		problems = append(problems, fmt.Sprintf("%d healthz probes failed (first: %s)", len(failures), failures[0]))
	}
	if p99 >= healthzTarget {
		fmt.Printf("%s under slowloris: healthz p99 %v, above the %v target (check the machine's load)\n", name, p99, healthzTarget)
	}
	if p99 >= healthzLimit {
		problems = append(problems, fmt.Sprintf("healthz p99 %v, limit %v", p99, healthzLimit))
	}
	if peak > baseline+slowMaxConns+8 {
		problems = append(problems, fmt.Sprintf("the server held %d files, above its cap of %d connections", peak, slowMaxConns))
	}
	if after > baseline {
		problems = append(problems, fmt.Sprintf("open files %d after the attack, %d before (new: %s)",
			after, baseline, strings.Join(newTargets(before, s.fileTargets()), ", ")))
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}

// attack holds one connection of a kind (0 idle after a request, 1 a dribbled header, 2 a
// dribbled body) from the address from, reopening it about a second after the server closes it.
func attack(ctx context.Context, host, from string, kind int, opened, answered503 *atomic.Int64) {
	d := net.Dialer{Timeout: 2 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	for ctx.Err() == nil {
		c, err := d.DialContext(ctx, "tcp", host)
		if err != nil {
			sleep(ctx, time.Second)
			continue
		}
		opened.Add(1)
		stop := context.AfterFunc(ctx, func() { c.Close() })
		closed := make(chan struct{})
		go func() { // the server's answer, if any, then its close
			defer close(closed)
			r := bufio.NewReader(c)
			if resp, err := http.ReadResponse(r, nil); err == nil {
				if resp.StatusCode == http.StatusServiceUnavailable {
					answered503.Add(1)
				}
				io.Copy(io.Discard, resp.Body)
			}
			io.Copy(io.Discard, r)
		}()
		switch kind {
		case 0:
			fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", host)
		case 1:
			fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\nX-Slow: ", host)
		case 2:
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 16000\r\n\r\n{", host)
		}
	dribble:
		for {
			select {
			case <-closed:
				break dribble
			case <-ctx.Done():
				break dribble
			case <-time.After(time.Second):
				if kind != 0 {
					c.Write([]byte("a"))
				}
			}
		}
		stop()
		c.Close()
		<-closed
		sleep(ctx, time.Duration(500+rand.IntN(1000))*time.Millisecond)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// probe times one GET /healthz on a new connection.
func probe(base string) (time.Duration, error) {
	c := http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	t0 := time.Now()
	resp, err := c.Get(base + "/healthz")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("healthz answered %d", resp.StatusCode)
	}
	return time.Since(t0), nil
}

// openFiles counts the server's open file descriptors.
func (s *server) openFiles() int {
	fds, err := os.ReadDir(s.fdDir())
	if err != nil {
		return -1
	}
	return len(fds)
}

func (s *server) fdDir() string {
	return filepath.Join("/proc", strconv.Itoa(s.cmd.Process.Pid), "fd")
}

// fileTargets maps each of the server's open file descriptors to what it points at (a path,
// socket:[inode], anon_inode:[eventpoll]), so a failure can say which one stayed open.
func (s *server) fileTargets() map[string]string {
	fds, err := os.ReadDir(s.fdDir())
	if err != nil {
		return nil
	}
	out := make(map[string]string, len(fds))
	for _, fd := range fds {
		t, err := os.Readlink(filepath.Join(s.fdDir(), fd.Name()))
		if err != nil {
			continue // closed since the listing
		}
		out[fd.Name()] = t
	}
	return out
}

// settledFiles is fileTargets once the set has stayed the same for a second (at most 10 s): a server
// that has just started still opens files in the background (its columnar copy, SQLite's temporary
// files) and still closes the sockets of the checks that found it listening, so a count taken at
// once can be lower or higher than the one the attack must return to.
func (s *server) settledFiles() map[string]string {
	cur := s.fileTargets()
	for same, i := 0, 0; same < 10 && i < 100; i++ {
		time.Sleep(100 * time.Millisecond)
		next := s.fileTargets()
		if len(newTargets(cur, next)) == 0 && len(next) == len(cur) {
			same++
		} else {
			same = 0
		}
		cur = next
	}
	return cur
}

// newTargets lists the descriptors of after that before did not hold (or held for another file).
func newTargets(before, after map[string]string) []string {
	var out []string
	for fd, t := range after {
		if before[fd] != t {
			out = append(out, fd+" -> "+t)
		}
	}
	sort.Strings(out)
	return out
}
