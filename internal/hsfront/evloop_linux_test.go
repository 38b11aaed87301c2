//go:build linux

package hsfront

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// TestReadLoops: the read port runs Config.ReadLoops event loops, by
// default four per GOMAXPROCS, and every loop serves connections.
func TestReadLoops(t *testing.T) {
	_, s := startTestServer(t, Config{})
	if want := 4 * runtime.GOMAXPROCS(0); len(s.loops) != want {
		t.Fatalf("%d read loops by default, want %d", len(s.loops), want)
	}
	_, s3 := startTestServer(t, Config{ReadLoops: 3})
	if len(s3.loops) != 3 {
		t.Fatalf("%d read loops for ReadLoops 3", len(s3.loops))
	}
	// Connections are spread over the loops: each of six answers.
	for i := 0; i < 6; i++ {
		c := dial(t, s3.ReadAddr())
		c.do("P\t1\tconf\ttw\tPRIMARY\tk,s\n1\t=\t1\t2\n", "0\t1\n", "0\t2\t2\ttwo\n")
	}
	for i, l := range s3.loops {
		l.mu.Lock()
		n := len(l.conns)
		l.mu.Unlock()
		if n != 2 {
			t.Errorf("loop %d serves %d connections, want 2", i, n)
		}
	}
}

// TestWriteLoopGroupsConnections: a write loop hands the writer the runs
// of all its ready connections as one UpdateAll. The writer is held while
// eight connections send a batch of insert, find, insert: the loop's
// first round takes what came before it, the second the rest with the
// second runs of the first, the third the remaining second runs. So the
// sixteen runs commit in three rounds (one per connection would be 16), and every answer is in line order,
// the find reading its own batch's first insert.
func TestWriteLoopGroupsConnections(t *testing.T) {
	e, s := startTestServer(t, Config{WriteLoops: 1})
	if len(s.wloops) != 1 {
		t.Fatalf("%d write loops for WriteLoops 1", len(s.wloops))
	}
	const conns = 8
	cs := make([]*client, conns)
	for i := range cs {
		cs[i] = dial(t, s.WriteAddr())
		cs[i].do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n", "0\t1\n")
	}
	held, release := make(chan struct{}), make(chan struct{})
	blocked := make(chan error, 1)
	go func() {
		blocked <- e.Update(context.Background(), func(*engine.Job) error {
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	rounds := s.stats.WriteRounds.Load()
	send := func(i int) {
		k := 100 + 2*i
		fmt.Fprintf(cs[i].c, "1\t+\t3\t%d\ta%d\t%d\n1\t=\t1\t%d\n1\t+\t3\t%d\tb%d\t%d\n", k, i, i, k, k+1, i, i)
	}
	// The first connection's run reaches the writer alone; the others
	// arrive while the loop waits for it.
	send(0)
	waitFor(t, "the first run waiting for the writer", func() bool {
		for _, ci := range s.Conns() {
			if ci.Write && ci.State == "executing" {
				return true
			}
		}
		return false
	})
	for i := 1; i < conns; i++ {
		send(i)
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	if err := <-blocked; err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		k := 100 + 2*i
		c.do("", "0\t1\n", fmt.Sprintf("0\t3\t%d\ta%d\t%d\n", k, i, i), "0\t1\n")
	}
	if n := s.stats.WriteRounds.Load() - rounds; n != 3 {
		t.Errorf("%d write rounds for %d connections' two runs each, want 3", n, conns)
	}
	r := dial(t, s.ReadAddr())
	r.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n", "0\t1\n")
	for i := 0; i < conns; i++ {
		k := 100 + 2*i
		r.do(fmt.Sprintf("1\t=\t1\t%d\n", k+1), fmt.Sprintf("0\t3\t%d\tb%d\t%d\n", k+1, i, i))
	}
}

// TestWritePortWithoutEventLoop: with NoEventLoop the write port keeps a
// goroutine per connection, and answers the same.
func TestWritePortWithoutEventLoop(t *testing.T) {
	_, s := startTestServer(t, Config{NoEventLoop: true})
	if len(s.wloops) != 0 || len(s.loops) != 0 {
		t.Fatalf("event loops with NoEventLoop: %d read, %d write", len(s.loops), len(s.wloops))
	}
	w := dial(t, s.WriteAddr())
	w.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n1\t+\t3\t50\tx\t5\n1\t=\t1\t50\n1\t=\t1\t50\t1\t0\tU\t50\ty\t6\n1\t=\t1\t50\n",
		"0\t1\n", "0\t1\n", "0\t3\t50\tx\t5\n", "0\t1\t1\n", "0\t3\t50\ty\t6\n")
	if n := s.stats.WriteRounds.Load(); n != 0 {
		t.Errorf("%d write rounds without event loops", n)
	}
}
