package hsfront

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// fillRows adds n rows with 10-byte strings to conf.tw (keys from 1000).
func fillRows(t *testing.T, e *engine.Engine, n int) {
	t.Helper()
	tb, err := e.Catalog().Table("conf", "tw")
	if err != nil {
		t.Fatal(err)
	}
	err = e.Update(context.Background(), func(tx *engine.Job) error {
		for i := 0; i < n; i++ {
			if _, err := tx.Insert(tb, engine.Row{{I: int64(1000 + i)}, {B: []byte("0123456789")}, {I: int64(i)}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// dialFrom connects from a given loopback address.
func dialFrom(t *testing.T, local string, addr net.Addr) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	c, err := d.Dial("tcp", addr.String())
	if err == nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, err
}

// closedWithin reports whether the server closes c within d.
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.ReadAll(c)
	return err == nil // EOF: io.ReadAll returns nil
}

// A byte a second without a newline does not keep a connection open past
// the idle timeout, on either port.
func TestPartialLineDoesNotResetTimeout(t *testing.T) {
	_, s := startTestServer(t, Config{Timeout: 400 * time.Millisecond, LineTimeout: -1})
	for _, addr := range []net.Addr{s.ReadAddr(), s.WriteAddr()} {
		c := dial(t, addr)
		c.do("P\t1\tconf\ttw\tPRIMARY\tk\n", "0\t1\n")
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := 0; i < 40; i++ { // 2 s of one byte every 50 ms
				if _, err := c.c.Write([]byte("1")); err != nil {
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
		}()
		if !closedWithin(c.c, 1800*time.Millisecond) {
			t.Errorf("%v: a trickle of bytes kept the connection open past the timeout", addr)
		}
		<-done
	}
	if s.Stats().Expired.Load() != 2 {
		t.Errorf("expired %d, want 2", s.Stats().Expired.Load())
	}
}

// A request line left incomplete for LineTimeout closes the connection; a
// connection that is merely idle stays.
func TestLineTimeout(t *testing.T) {
	_, s := startTestServer(t, Config{Timeout: time.Hour, LineTimeout: 300 * time.Millisecond})
	for _, addr := range []net.Addr{s.ReadAddr(), s.WriteAddr()} {
		idle := dial(t, addr)
		idle.do("P\t1\tconf\ttw\tPRIMARY\tk\n", "0\t1\n")
		part := dial(t, addr)
		part.do("P\t1\tconf\ttw\tPRIMARY\tk\n", "0\t1\n")
		part.c.Write([]byte("1\t=\t1"))
		if !closedWithin(part.c, 2*time.Second) {
			t.Errorf("%v: a partial line outlived the line timeout", addr)
		}
		idle.do("1\t=\t1\t2\n", "0\t1\t2\n")
	}
}

// Each port has its own connection limit, and one peer cannot take more
// than MaxConnsPerPeer of a port.
func TestConnectionLimitsPerPortAndPeer(t *testing.T) {
	_, s := startTestServer(t, Config{MaxConns: 3, MaxConnsPerPeer: 2})
	alive := func(c net.Conn) bool {
		c.Write([]byte("P\t1\tconf\ttw\tPRIMARY\tk\n"))
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		l, _ := bufio.NewReader(c).ReadString('\n')
		return l == "0\t1\n"
	}
	for _, addr := range []net.Addr{s.ReadAddr(), s.WriteAddr()} {
		for i := 0; i < 2; i++ {
			c, err := dialFrom(t, "127.0.0.1", addr)
			if err != nil || !alive(c) {
				t.Fatalf("%v: connection %d from 127.0.0.1 refused", addr, i)
			}
		}
		c, err := dialFrom(t, "127.0.0.1", addr)
		if err == nil && alive(c) {
			t.Fatalf("%v: a third connection from 127.0.0.1 was served", addr)
		}
		// Another peer still gets in, up to the port's limit.
		c, err = dialFrom(t, "127.0.0.2", addr)
		if err != nil || !alive(c) {
			t.Fatalf("%v: 127.0.0.2 locked out by 127.0.0.1", addr)
		}
		c, err = dialFrom(t, "127.0.0.3", addr)
		if err == nil && alive(c) {
			t.Fatalf("%v: the port served more than MaxConns", addr)
		}
	}
	if got := s.Stats().RefusedPeer.Load(); got != 2 {
		t.Errorf("refused per peer %d, want 2", got)
	}
	if got := s.Stats().Refused.Load(); got != 4 {
		t.Errorf("refused %d, want 4", got)
	}
}

// A find whose reply would pass MaxResponse answers resultlen, and the
// connection goes on.
func TestMaxResponse(t *testing.T) {
	e, s := startTestServer(t, Config{MaxResponse: 1000})
	fillRows(t, e, 500)
	for _, addr := range []net.Addr{s.ReadAddr(), s.WriteAddr()} {
		c := dial(t, addr)
		c.do("P\t1\tconf\ttw\tPRIMARY\tk,s\n", "0\t1\n")
		c.do("1\t>=\t1\t0\t1000\t0\n", "1\t1\tresultlen\n")
		c.do("1\t>=\t1\t0\t2\t0\n", "0\t2\t1\tone\t2\ttwo\n")
	}
}

// A client that pipelines scans and never reads their answers holds a
// bounded amount of server memory; once it reads, every answer comes, in
// order; and the other connections of the read port are served meanwhile.
func TestUnreadScansAreBounded(t *testing.T) {
	e, s := startTestServer(t, Config{})
	fillRows(t, e, 2000) // a scan answers ~40 KB
	const scans = 400    // ~16 MB of answers in all
	for _, port := range []struct {
		name string
		addr net.Addr
	}{{"read", s.ReadAddr()}, {"write", s.WriteAddr()}} {
		t.Run(port.name, func(t *testing.T) {
			c := dial(t, port.addr)
			c.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n", "0\t1\n")
			runtime.GC()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			req := strings.Repeat("1\t>=\t1\t0\t10000\t0\n", scans)
			go c.c.Write([]byte(req))
			// Wait until the server stops making progress on it.
			var last int64 = -1
			for stable := 0; stable < 20; time.Sleep(10 * time.Millisecond) {
				n := requestsOf(s, port.name == "write")
				if n == last {
					stable++
				} else {
					stable, last = 0, n
				}
			}
			if last >= scans+1 {
				t.Fatalf("the server answered all %d scans into a socket nobody reads", scans)
			}
			// Other connections are served meanwhile.
			other := dial(t, s.ReadAddr())
			other.do("P\t1\tconf\ttw\tPRIMARY\tk\n1\t=\t1\t3\n", "0\t1\n", "0\t1\t3\n")
			runtime.GC()
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > 4<<20 {
				t.Errorf("heap grew %d MiB for one unread connection", grew>>20)
			}
			c.c.SetReadDeadline(time.Now().Add(20 * time.Second))
			for i := 0; i < scans; i++ {
				l, err := c.r.ReadString('\n')
				if err != nil {
					t.Fatalf("answer %d: %v", i, err)
				}
				if !strings.HasPrefix(l, "0\t3\t1\tone\t10\t2\ttwo") || strings.Count(l, "\t") != 2+3*2003-1 {
					t.Fatalf("answer %d: %.60q... (%d fields)", i, l, strings.Count(l, "\t"))
				}
			}
		})
	}
}

// requestsOf sums the requests answered on one port's connections.
func requestsOf(s *Server, write bool) int64 {
	var n int64
	for _, ci := range s.Conns() {
		if ci.Write == write {
			n += ci.Requests
		}
	}
	return n
}

// On the write port, finds run outside the writer: a batch of finds is no
// group commit, and a batch that mixes writes and finds answers each find
// with the writes before it.
func TestWritePortFindsOutsideWriter(t *testing.T) {
	e, s := startTestServer(t, Config{})
	w := dial(t, s.WriteAddr())
	w.do("P\t1\tconf\ttw\tPRIMARY\tk,s\n", "0\t1\n")
	groups := e.Stats().Groups.Load()
	w.do("1\t=\t1\t1\n1\t>=\t1\t0\t2\t0\n", "0\t2\t1\tone\n", "0\t2\t1\tone\t2\ttwo\n")
	if g := e.Stats().Groups.Load(); g != groups {
		t.Fatalf("a batch of finds made %d group commits", g-groups)
	}
	var b bytes.Buffer
	b.WriteString("1\t+\t2\t50\tx\n1\t+\t2\t51\ty\n")             // one job
	b.WriteString("1\t=\t1\t51\n")                                // sees it
	b.WriteString("1\t=\t1\t50\t1\t0\tU\t50\tz\n")                // a second job
	b.WriteString("1\t=\t1\t50\n1\t+\t2\t50\tdup\n1\t=\t1\t50\n") // find, a failing job, find
	w.do(b.String(), "0\t1\n", "0\t1\n", "0\t2\t51\ty\n", "0\t1\t1\n", "0\t2\t50\tz\n", "1\t1\t121\n", "0\t2\t50\tz\n")
	if g := e.Stats().Groups.Load() - groups; g != 3 {
		t.Errorf("%d group commits for three runs of writes", g)
	}
	// An escaped LF in the line at a run's boundary (parsing unescapes in
	// place) stays inside its line.
	w.do("1\t=\t1\t1\n1\t+\t2\t90\ta\x01Jb\n1\t=\t1\t90\n", "0\t2\t1\tone\n", "0\t1\n", "0\t2\t90\ta\x01Jb\n")
}
