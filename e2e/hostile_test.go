package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// idleConns is how many idle keep-alive connections
// TestTenThousandIdleConnections holds open on the server at once.
const idleConns = 10_000

// idleRSSBound bounds the growth of the server's resident memory while it
// holds idleConns idle connections (measured: see the test's log line).
const idleRSSBound = 256 << 20

// idleConn is a client connection that made one request and now waits.
type idleConn struct {
	c  net.Conn
	br *bufio.Reader
}

// ask sends GET path on the connection and requires the 404 of an
// unknown route, the connection kept open. An unmatched route is answered
// before auth and counts against no rate limit.
func (ic *idleConn) ask(path string) error {
	_ = ic.c.SetDeadline(time.Now().Add(httpTimeout))
	if _, err := fmt.Fprintf(ic.c, "GET %s HTTP/1.1\r\nHost: fxd\r\n\r\n", path); err != nil {
		return err
	}
	resp, err := http.ReadResponse(ic.br, nil)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	switch {
	case err != nil:
		return err
	case resp.StatusCode != 404 || resp.Close:
		return fmt.Errorf("GET %s: %d (close %v)", path, resp.StatusCode, resp.Close)
	}
	return ic.c.SetDeadline(time.Time{})
}

// eachConn runs fn for i in [0, n) on a few goroutines and returns the
// first error.
func eachConn(n int, fn func(i int) error) error {
	const workers = 32
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				if err := fn(i); err != nil {
					errs <- fmt.Errorf("connection %d: %w", i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// procStatus reads a "Name: N kB" line of /proc/pid/status, in bytes.
func procStatus(t testing.TB, pid int, name string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			require.NoError(t, err, "%s", line)
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", name, pid)
	return 0
}

// openFDs is how many file descriptors process pid has open.
func openFDs(t testing.TB, pid int) int {
	t.Helper()
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	require.NoError(t, err)
	return len(fds)
}

// TestTenThousandIdleConnections: the binary, as configured, holds 10,000
// idle keep-alive connections open at once (each made one request and
// waits, well within the 2 min idle timeout) while signed requests are
// served, its resident memory grows by less than idleRSSBound, and every
// one of them is still served afterwards. The test process raises nothing:
// Go lifts RLIMIT_NOFILE's soft limit to the hard one (20,000 here) in
// both processes.
func TestTenThousandIdleConnections(t *testing.T) {
	srv := startServer(t, t.TempDir())
	pid := srv.cmd.Process.Pid
	key := srv.createKey(t, srv.createAccount(t, "idle"), "read,pay")
	c := srv.client(t, key)
	for range 20 { // the server's steady state, before the baseline
		requireStatus(t, call(t, c, "GET", basePath+"/contacts", "", nil), 200)
	}
	rssBefore, fdsBefore := procStatus(t, pid, "VmRSS"), openFDs(t, pid)

	conns := make([]*idleConn, idleConns)
	t.Cleanup(func() {
		for _, ic := range conns {
			if ic != nil {
				_ = ic.c.Close()
			}
		}
	})
	require.NoError(t, eachConn(idleConns, func(i int) error {
		nc, err := net.DialTimeout("tcp", srv.Addr, httpTimeout)
		if err != nil {
			return err
		}
		conns[i] = &idleConn{c: nc, br: bufio.NewReaderSize(nc, 512)}
		return conns[i].ask(basePath + "/idle")
	}))
	require.GreaterOrEqual(t, openFDs(t, pid)-fdsBefore, idleConns, "the server does not hold every connection")

	// Signed requests are served while they wait.
	for i := range 20 {
		requireStatus(t, call(t, c, "GET", basePath+"/contacts", "", nil), 200)
		requireStatus(t, call(t, c, "POST", basePath+"/contacts", string(contactBody(fmt.Sprintf("idle-%d", i), randomAddress())), nil), 201)
	}
	rssAfter := procStatus(t, pid, "VmRSS")
	grew := rssAfter - rssBefore
	t.Logf("server RSS %d MiB before, %d MiB with %d idle connections: +%d MiB, %d KiB per connection (bound %d MiB)",
		rssBefore>>20, rssAfter>>20, idleConns, grew>>20, grew/idleConns>>10, idleRSSBound>>20)
	require.Less(t, grew, int64(idleRSSBound))

	// Every connection was held, not dropped: each is served again.
	require.NoError(t, eachConn(idleConns, func(i int) error { return conns[i].ask(basePath + "/again") }))
}
