package hs_test

import (
	"bytes"
	"context"
	"net"
	"testing"

	"github.com/handlerdb/handlerdb/hs"
)

// cannedServer answers every P with "0\t1" and every other line with one
// fixed reply, allocating nothing per request, so that a benchmark against
// it counts the client's allocations alone (the in-process HandlerDB's
// allocations would count too, as the process is the same).
func cannedServer(tb testing.TB, reply string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer nc.Close()
				in := make([]byte, 64<<10)
				var out []byte
				pending := 0 // bytes of a partial line at the start of in
				for {
					n, err := nc.Read(in[pending:])
					if err != nil {
						return
					}
					buf := in[:pending+n]
					out = out[:0]
					for {
						i := bytes.IndexByte(buf, '\n')
						if i < 0 {
							break
						}
						if buf[0] == 'P' {
							out = append(out, "0\t1\n"...)
						} else {
							out = append(out, reply...)
							out = append(out, '\n')
						}
						buf = buf[i+1:]
					}
					pending = copy(in, buf)
					if _, err := nc.Write(out); err != nil {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// benchTargets are the servers of the find benchmarks: the in-process
// HandlerDB, and canned replies (a hit: one row of 3 columns; a miss).
func benchTargets(tb testing.TB) []struct{ name, addr string } {
	return []struct{ name, addr string }{
		{"handlerdb", ""},
		{"canned-hit", cannedServer(tb, "0\t3\t1\tann\tann@example.com")},
		{"canned-miss", cannedServer(tb, "0\t3")},
	}
}

func benchClient(tb testing.TB, addr string) *hs.Client {
	if addr == "" {
		c, _ := hs.Open(serverDSN)
		return c
	}
	c, err := hs.New(hs.Options{ReadAddr: addr, WriteAddr: addr, Database: testDB})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

const batch = 100

// pipelinedFinds runs n finds in pipelines of batch; miss looks up keys
// that do not exist (a reply without row data).
func pipelinedFinds(tb testing.TB, p *hs.Pipeline, ix *hs.Index, n int, miss bool) {
	for done := 0; done < n; {
		k := min(batch, n-done)
		for i := 0; i < k; i++ {
			key := 1 + i%3
			if miss {
				key += 1000
			}
			p.Get(ix, key)
		}
		if err := p.Exec(context.Background()); err != nil {
			tb.Fatal(err)
		}
		done += k
	}
}

// BenchmarkPipelinedFind measures one find of a pipeline of 100. Against
// the canned server, allocs/op are the client's: the command (1) plus, for
// a hit, the row data (the reply's bytes and its values: 2). Against the
// in-process HandlerDB they include the server's.
func BenchmarkPipelinedFind(b *testing.B) {
	for _, tg := range benchTargets(b) {
		b.Run(tg.name, func(b *testing.B) {
			c := benchClient(b, tg.addr)
			defer c.Close()
			p := c.Pipeline()
			ix := c.Index("", "users", "", []string{"id", "name", "email"})
			pipelinedFinds(b, p, ix, batch, false) // open the index, fill the buffers
			b.ReportAllocs()
			b.ResetTimer()
			pipelinedFinds(b, p, ix, b.N, false)
		})
	}
}

// BenchmarkGet measures a single Get: one round trip.
func BenchmarkGet(b *testing.B) {
	for _, tg := range benchTargets(b) {
		b.Run(tg.name, func(b *testing.B) {
			c := benchClient(b, tg.addr)
			defer c.Close()
			ix := c.Index("", "users", "", []string{"id", "name", "email"})
			ctx := context.Background()
			ix.Get(ctx, 1)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ix.Get(ctx, 1+i%3)
			}
		})
	}
}

// TestPipelinedFindAllocs holds the allocation budget of a pipelined find:
// at most 2 allocations beyond its row data (2 for a hit: the reply bytes
// and the values; none for a miss). It runs against the canned server, so
// that only the client's allocations are counted.
func TestPipelinedFindAllocs(t *testing.T) {
	targets := benchTargets(t)
	for _, tc := range []struct {
		name    string
		addr    string
		rowData float64
	}{{"hit", targets[1].addr, 2}, {"miss", targets[2].addr, 0}} {
		c := benchClient(t, tc.addr)
		defer c.Close()
		ix := c.Index("", "users", "", []string{"id", "name", "email"})
		p := c.Pipeline()
		pipelinedFinds(t, p, ix, batch, false)
		per := testing.AllocsPerRun(20, func() { pipelinedFinds(t, p, ix, batch, false) }) / batch
		t.Logf("%s: %.2f allocations per pipelined find (%v of them row data)", tc.name, per, tc.rowData)
		if per > tc.rowData+2 {
			t.Errorf("%s: %.2f allocations per pipelined find, want at most %v", tc.name, per, tc.rowData+2)
		}
	}
}
