//go:build linux

package hsfront

import (
	"fmt"
	"io"
	"net"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestReadLoops: the read port runs Config.ReadLoops event loops, by
// default four per GOMAXPROCS, and every loop serves connections.
func TestReadLoops(t *testing.T) {
	_, s := startTestServer(t, Config{})
	if want, n := 4*runtime.GOMAXPROCS(0), readLoops(s); n != want {
		t.Fatalf("%d read loops by default, want %d", n, want)
	}
	_, s3 := startTestServer(t, Config{ReadLoops: 3})
	if n := readLoops(s3); n != 3 {
		t.Fatalf("%d read loops for ReadLoops 3", n)
	}
	// Connections are spread over the loops: each of six answers.
	for i := 0; i < 6; i++ {
		c := dial(t, s3.ReadAddr())
		c.do("P\t1\tconf\ttw\tPRIMARY\tk,s\n1\t=\t1\t2\n", "0\t1\n", "0\t2\t2\ttwo\n")
	}
	for i, n := range s3.read.LoopConns() {
		if n != 2 {
			t.Errorf("loop %d serves %d connections, want 2", i, n)
		}
	}
}

// TestWriteLoopGroupsConnections: a write loop hands the writer the runs
// of all its ready connections as one round. The loop is held while it
// prepares the first connection's run (beforeApply runs on its
// goroutine) until seven more connections have sent theirs: the first
// round holds one run, the second the seven (one round per connection
// would be eight). Then a batch of insert, find, insert on each: the find
// reads its own batch's first insert, and every answer is in line order.
func TestWriteLoopGroupsConnections(t *testing.T) {
	_, s := startTestServer(t, Config{WriteLoops: 1})
	if _, n := s.loops(); n != 1 {
		t.Fatalf("%d write loops for WriteLoops 1", n)
	}
	const conns = 8
	cs := make([]*client, conns)
	for i := range cs {
		cs[i] = dial(t, s.WriteAddr())
		cs[i].do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n", "0\t1\n")
	}
	first, others := make(chan struct{}), make(chan struct{})
	var once sync.Once
	hook := func() {
		once.Do(func() {
			close(first)
			<-others
		})
	}
	beforeApply.Store(&hook)
	t.Cleanup(func() { beforeApply.Store(nil) })
	rounds := s.stats.WriteRounds.Load()
	send := func(i int) {
		k := 100 + 4*i
		fmt.Fprintf(cs[i].c, "1\t+\t3\t%d\ta%d\t%d\n1\t+\t3\t%d\tb%d\t%d\n", k, i, i, k+1, i, i)
	}
	send(0)
	<-first
	for i := 1; i < conns; i++ {
		send(i)
	}
	time.Sleep(20 * time.Millisecond) // the seven batches reach the socket buffers
	close(others)
	for _, c := range cs {
		c.do("", "0\t1\n", "0\t1\n")
	}
	if n := s.stats.WriteRounds.Load() - rounds; n != 2 {
		t.Errorf("%d write rounds for one connection's run, then seven's, want 2", n)
	}
	t0 := time.Now()
	for i, c := range cs {
		k := 100 + 4*i + 2
		c.do(fmt.Sprintf("1\t+\t3\t%d\tc%d\t%d\n1\t=\t1\t%d\n1\t+\t3\t%d\td%d\t%d\n", k, i, i, k, k+1, i, i),
			"0\t1\n", fmt.Sprintf("0\t3\t%d\tc%d\t%d\n", k, i, i), "0\t1\n")
	}
	if d := time.Since(t0); d > time.Second {
		// A run left waiting after a find must go to the writer at
		// once, not when the loop next wakes.
		t.Errorf("eight batches of two runs took %v", d)
	}
	r := dial(t, s.ReadAddr())
	r.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n", "0\t1\n")
	for i := 0; i < conns; i++ {
		k := 100 + 4*i
		r.do(fmt.Sprintf("1\t=\t1\t%d\n", k+1), fmt.Sprintf("0\t3\t%d\tb%d\t%d\n", k+1, i, i))
		r.do(fmt.Sprintf("1\t=\t1\t%d\n", k+3), fmt.Sprintf("0\t3\t%d\td%d\t%d\n", k+3, i, i))
	}
}

// TestWritePortWithoutEventLoop: with NoEventLoop the write port keeps a
// goroutine per connection, and answers the same.
func TestWritePortWithoutEventLoop(t *testing.T) {
	_, s := startTestServer(t, Config{NoEventLoop: true})
	if r, w := s.loops(); r != 0 || w != 0 {
		t.Fatalf("event loops with NoEventLoop: %d read, %d write", r, w)
	}
	w := dial(t, s.WriteAddr())
	w.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n1\t+\t3\t50\tx\t5\n1\t=\t1\t50\n1\t=\t1\t50\t1\t0\tU\t50\ty\t6\n1\t=\t1\t50\n",
		"0\t1\n", "0\t1\n", "0\t3\t50\tx\t5\n", "0\t1\t1\n", "0\t3\t50\ty\t6\n")
	if n := s.stats.WriteRounds.Load(); n != 0 {
		t.Errorf("%d write rounds without event loops", n)
	}
}

// TestLoopRoundAllocs: serving requests over the event loops allocates
// nothing per round, on the read port and on the write port, once warm
// (the process's allocations are counted, so the client reuses its
// buffers). A loop that allocated per round (the poll closure did, 90
// bytes) made the GC run every few seconds under load, in the p99.
func TestLoopRoundAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items, so allocations are not counted under it")
	}
	_, s := startTestServer(t, Config{ReadLoops: 1, WriteLoops: 1})
	for _, port := range []struct {
		addr      net.Addr
		req, want string
	}{
		{s.ReadAddr(), "1\t=\t1\t2\n", "0\t3\t2\ttwo\t20\n"},
		{s.WriteAddr(), "1\t+\t3\t100000\tv\t1\n", "0\t1\n"}, // the key counts up
	} {
		c := dial(t, port.addr)
		c.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n", "0\t1\n")
		req, got := []byte(port.req), make([]byte, len(port.want))
		key := 100000
		round := func() {
			if port.addr == s.WriteAddr() {
				key++
				strconv.AppendInt(req[6:6], int64(key), 10) // six digits, in place
			}
			if _, err := c.c.Write(req); err != nil {
				t.Fatal(err)
			}
			if _, err := io.ReadFull(c.c, got); err != nil || string(got) != port.want {
				t.Fatalf("%q: got %q, %v", port.req, got, err)
			}
		}
		for i := 0; i < 200; i++ {
			round()
		}
		const rounds = 2000
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := 0; i < rounds; i++ {
			round()
		}
		runtime.ReadMemStats(&after)
		if per := float64(after.Mallocs-before.Mallocs) / rounds; per > 0.1 {
			t.Errorf("%s: %.2f allocations per request", port.addr, per)
		}
	}
}

func readLoops(s *Server) int {
	r, _ := s.loops()
	return r
}
