package hsfront

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// startTestServer opens an engine with table conf.tw and an HS server on
// ephemeral ports.
func startTestServer(t testing.TB, cfg Config) (*engine.Engine, *Server) {
	t.Helper()
	e, err := engine.Open(engine.Options{Dir: t.TempDir(), Durability: engine.DurabilityNone})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	err = e.Update(context.Background(), func(tx *engine.Job) error {
		if err := tx.CreateDatabase("conf"); err != nil {
			return err
		}
		tb, err := tx.CreateTable("conf", &engine.TableDef{Name: "tw",
			Columns: []types.Column{
				{Name: "k", Type: types.Type{Kind: types.Int}},
				{Name: "s", Type: types.Type{Kind: types.VarChar, Length: 10, Collation: collation.Default}, Nullable: true},
				{Name: "n", Type: types.Type{Kind: types.Int}, Nullable: true},
			},
			Indexes: []engine.IndexDef{{Primary: true, Columns: []string{"k"}}, {Name: "is1", Columns: []string{"s"}}}})
		if err != nil {
			return err
		}
		for i, s := range []string{"one", "two", "three"} {
			if _, err := tx.Insert(tb, engine.Row{{I: int64(i + 1)}, {B: []byte(s)}, {I: int64(10 * (i + 1))}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ReadAddr == "" {
		cfg.ReadAddr = "127.0.0.1:0"
	}
	if cfg.WriteAddr == "" {
		cfg.WriteAddr = "127.0.0.1:0"
	}
	s := New(e, cfg)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Shutdown(ctx)
	})
	return e, s
}

type client struct {
	t testing.TB
	c net.Conn
	r *bufio.Reader
}

// waitFor polls cond until it holds, failing the test after 5 s with what
// it waited for.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func dial(t testing.TB, addr net.Addr) *client {
	c, err := net.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &client{t: t, c: c, r: bufio.NewReader(c)}
}

// do sends req and checks the reply lines.
func (c *client) do(req string, want ...string) {
	c.t.Helper()
	if _, err := c.c.Write([]byte(req)); err != nil {
		c.t.Fatal(err)
	}
	for _, w := range want {
		c.c.SetReadDeadline(time.Now().Add(5 * time.Second))
		got, err := c.r.ReadString('\n')
		if err != nil {
			c.t.Fatalf("%q: reading reply: %v (got %q)", req, err, got)
		}
		if got != w {
			c.t.Fatalf("%q: got %q, want %q", req, got, w)
		}
	}
}

func TestSmoke(t *testing.T) {
	_, s := startTestServer(t, Config{})
	r := dial(t, s.ReadAddr())
	r.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n", "0\t1\n")
	r.do("1\t=\t1\t2\n", "0\t3\t2\ttwo\t20\n")
	r.do("1\t>=\t1\t1\t10\t0\n", "0\t3\t1\tone\t10\t2\ttwo\t20\t3\tthree\t30\n")
	r.do("1\t+\t3\t4\tfour\t40\n", "2\t1\treadonly\n")
	w := dial(t, s.WriteAddr())
	w.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n1\t+\t3\t4\tfour\t40\n", "0\t1\n", "0\t1\n")
	w.do("1\t+\t3\t4\tdup\t0\n", "1\t1\t121\n")
	w.do("1\t=\t1\t4\t1\t0\tU?\t4\tFOUR\t\x00\n", "0\t3\t4\tfour\t40\n")
	r.do("1\t=\t1\t4\n", "0\t3\t4\tFOUR\t\x00\n")
	r.do("P\t2\tconf\ttw\tis1\tk\n2\t=\t1\tTWO\n", "0\t1\n", "0\t1\t2\n")
	w.do("1\t=\t1\t1\t1\t0\t-\t0\t\x00\t11\n", "0\t1\t0\n")
	w.do("1\t=\t1\t1\t1\t0\tD\n", "0\t1\t1\n")
	r.do("1\t>\t1\t0\t10\t0\n", "0\t3\t2\ttwo\t20\t3\tthree\t30\t4\tFOUR\t\x00\n")
}

// TestFindAllocs: a point find through the whole executor allocates
// nothing per request once the pooled buffers have grown.
func TestFindAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items, so allocations are not counted under it")
	}
	_, s := startTestServer(t, Config{})
	ss := newSession(s, false, nil)
	open := []byte("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n")
	out := make([]byte, 0, 4096)
	ss.batch(append([]byte(nil), open...), &out)
	req := []byte("1\t=\t1\t2\n")
	line := make([]byte, len(req))
	allocs := testing.AllocsPerRun(1000, func() {
		out = out[:0]
		copy(line, req)
		ss.batch(line, &out)
	})
	if string(out) != "0\t3\t2\ttwo\t20\n" {
		t.Fatalf("reply %q", out)
	}
	if allocs > 0 {
		t.Fatalf("%.1f allocations per point find", allocs)
	}
	// A pipelined batch, which the look-ahead covers first.
	req = bytes.Repeat([]byte("1\t=\t1\t2\n1\t=\t1\t3\n"), 8)
	line = make([]byte, len(req))
	allocs = testing.AllocsPerRun(1000, func() {
		out = out[:0]
		copy(line, req)
		ss.batch(line, &out)
	})
	if want := strings.Repeat("0\t3\t2\ttwo\t20\n0\t3\t3\tthree\t30\n", 8); string(out) != want {
		t.Fatalf("reply %q", out)
	}
	if allocs > 0 {
		t.Fatalf("%.1f allocations per batch of 16 point finds", allocs)
	}
}

// TestLookaheadBatches sends batches of finds, with the lines the read
// port's look-ahead must leave alone (escaped keys, NULL, IN lists, a
// handle reopened on another index mid-batch, refused writes, bad lines),
// once as one write and once a line at a time; the replies must be the
// same. A look-ahead that changed the buffer or a handle, or answered
// from its hints, gives different replies to the whole batch.
func TestLookaheadBatches(t *testing.T) {
	_, s := startTestServer(t, Config{})
	w := dial(t, s.WriteAddr())
	w.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n1\t+\t3\t9\ta\x01\x4ab\t90\n1\t+\t3\t10\t\x00\t\x00\n", "0\t1\n", "0\t1\n", "0\t1\n")
	lines := []string{
		"P\t1\tconf\ttw\tPRIMARY\tk,s,n\n",
		"1\t=\t1\t2\n", "1\t=\t1\t3\n", "1\t=\t1\t77\n", "1\t=\t1\t9\n", "1\t=\t1\t\x00\n",
		"1\t>=\t1\t2\t2\t0\n", "1\t=\t1\t1\t1\t0\t@\t0\t3\t1\t2\t9\n",
		"1\t=\t1\t1\t1\t0\tU\t5\tfive\t50\n", "1\t+\t3\t11\tx\t1\n",
		"P\t2\tconf\ttw\tis1\tk,n\n", "2\t=\t1\ta\x01\x4ab\n", "2\t=\t1\ttwo\n",
		"P\t1\tconf\ttw\tis1\ts\n", "1\t=\t1\tthree\n", "1\t=\t1\t3\n",
		"P\t1\tconf\ttw\tPRIMARY\tk,s,n\n", "1\t=\t1\t3\n", "1\t=\t2\t3\t4\n",
		"9\t=\t1\t1\n", "x\n", "1\t=\t1\t2\n", "1\t=\t1\t10\n",
	}
	readLine := func(c *client) string {
		c.c.SetReadDeadline(time.Now().Add(5 * time.Second))
		got, err := c.r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading reply: %v (got %q)", err, got)
		}
		return got
	}
	one := dial(t, s.ReadAddr())
	var want []string
	for _, l := range lines {
		if _, err := one.c.Write([]byte(l)); err != nil {
			t.Fatal(err)
		}
		want = append(want, readLine(one))
	}
	// The batch, and the batch twice over (more lines than one look-ahead
	// covers), each as one write.
	for _, times := range []int{1, 2} {
		all := dial(t, s.ReadAddr())
		var batch string
		for range times {
			for _, l := range lines {
				batch += l
			}
		}
		if _, err := all.c.Write([]byte(batch)); err != nil {
			t.Fatal(err)
		}
		for range times {
			for i := range lines {
				if got := readLine(all); got != want[i] {
					t.Fatalf("%dx batch, line %d %q: got %q, one at a time %q", times, i, lines[i], got, want[i])
				}
			}
		}
	}
}
