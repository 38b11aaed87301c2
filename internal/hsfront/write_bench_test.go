package hsfront

import (
	"bufio"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkWritePort is the write port end to end over loopback TCP: 16
// connections, each sending pipeline inserts per round trip and reading
// their answers, against the write-port event loops (loops=on) and a
// goroutine per connection (loops=off). ns/op is per insert, for the
// client and the server together (one process); it reports the writer's
// jobs per group.
func BenchmarkWritePort(b *testing.B) {
	for _, loops := range []bool{true, false} {
		for _, pipeline := range []int{1, 16} {
			name := fmt.Sprintf("loops=%v/conns=16/pipeline=%d", map[bool]string{true: "on", false: "off"}[loops], pipeline)
			b.Run(name, func(b *testing.B) { benchWritePort(b, loops, 16, pipeline) })
		}
	}
}

func benchWritePort(b *testing.B, loops bool, conns, pipeline int) {
	cfg := Config{}
	if !loops {
		cfg.WriteLoops = -1
	}
	e, s := startTestServer(b, cfg)
	var next atomic.Int64
	next.Store(1000)
	open := make([]net.Conn, conns)
	readers := make([]*bufio.Reader, conns)
	for i := range open {
		c, err := net.Dial("tcp", s.WriteAddr().String())
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		r := bufio.NewReader(c)
		fmt.Fprintf(c, "P\t1\tconf\ttw\tPRIMARY\tk,s,n\n")
		if l, err := r.ReadString('\n'); err != nil || l != "0\t1\n" {
			b.Fatalf("P: %q %v", l, err)
		}
		open[i], readers[i] = c, r
	}
	rounds := int64(b.N+pipeline-1) / int64(pipeline)
	var done atomic.Int64
	groups, jobs := e.Stats().Groups.Load(), e.Stats().GroupJobs.Load()
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	for i := range open {
		wg.Add(1)
		go func(c net.Conn, r *bufio.Reader) {
			defer wg.Done()
			req := make([]byte, 0, 64*pipeline)
			for done.Add(1) <= rounds {
				req = req[:0]
				for j := 0; j < pipeline; j++ {
					k := next.Add(1)
					req = fmt.Appendf(req, "1\t+\t3\t%d\tv\t%d\n", k, k)
				}
				if _, err := c.Write(req); err != nil {
					b.Error(err)
					return
				}
				for j := 0; j < pipeline; j++ {
					if l, err := r.ReadString('\n'); err != nil || l != "0\t1\n" {
						b.Errorf("insert: %q %v", l, err)
						return
					}
				}
			}
		}(open[i], readers[i])
	}
	wg.Wait()
	b.StopTimer()
	if g := e.Stats().Groups.Load() - groups; g > 0 {
		b.ReportMetric(float64(e.Stats().GroupJobs.Load()-jobs)/float64(g), "jobs/group")
	}
}
