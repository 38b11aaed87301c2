package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMemcachedKill9: SIGKILL of the server binary during memcached sets
// (four connections, each set acknowledged by STORED), restart on the
// same data directory: every acknowledged item is there with its value,
// in sync and os durability (os defers only the fsync).
func TestMemcachedKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it 12 times")
	}
	bin := buildBinary(t)
	for _, mode := range []string{"sync", "os"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			rng := rand.New(rand.NewSource(time.Now().UnixNano()))
			var mu sync.Mutex
			acked := map[string]string{}
			const rounds = 6
			for round := 0; round <= rounds; round++ {
				p := startBinary(t, bin, "--datadir="+dir, "--durability="+mode, "--memcached-port=0")
				addr := p.addrs["memcached"]
				checkMemcached(t, addr, acked, round)
				if round == rounds {
					p.cmd.Process.Signal(os.Interrupt)
					p.cmd.Wait()
					break
				}
				stop := make(chan struct{})
				var wg sync.WaitGroup
				for g := 0; g < 4; g++ {
					wg.Add(1)
					go func(g int) {
						defer wg.Done()
						c, err := net.Dial("tcp", addr)
						if err != nil {
							return
						}
						defer c.Close()
						r := bufio.NewReader(c)
						for i := 0; ; i++ {
							select {
							case <-stop:
								return
							default:
							}
							// two sets per write, acknowledged together
							k1, k2 := fmt.Sprintf("r%dg%di%da", round, g, i), fmt.Sprintf("r%dg%di%db", round, g, i)
							v1, v2 := strings.Repeat(k1, 1+i%5), k2
							fmt.Fprintf(c, "set %s 0 0 %d\r\n%s\r\nset %s 0 0 %d\r\n%s\r\n", k1, len(v1), v1, k2, len(v2), v2)
							l1, err1 := r.ReadString('\n')
							l2, err2 := r.ReadString('\n')
							if err1 != nil || err2 != nil {
								return // killed
							}
							if l1 != "STORED\r\n" || l2 != "STORED\r\n" {
								t.Errorf("set answered %q %q", l1, l2)
								return
							}
							mu.Lock()
							acked[k1], acked[k2] = v1, v2
							mu.Unlock()
						}
					}(g)
				}
				time.Sleep(time.Duration(50+rng.Intn(250)) * time.Millisecond)
				p.cmd.Process.Kill()
				p.cmd.Wait()
				close(stop)
				wg.Wait()
			}
			if len(acked) == 0 {
				t.Fatal("no set was acknowledged")
			}
			t.Logf("%d rounds, %d acknowledged sets all present", rounds, len(acked))
		})
	}
}

// checkMemcached gets every acknowledged key, a hundred per request, and
// compares the values.
func checkMemcached(t *testing.T, addr string, acked map[string]string, round int) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(60 * time.Second))
	r := bufio.NewReaderSize(c, 1<<20)
	keys := make([]string, 0, len(acked))
	for k := range acked {
		keys = append(keys, k)
	}
	for len(keys) > 0 {
		batch := keys[:min(100, len(keys))]
		keys = keys[len(batch):]
		fmt.Fprintf(c, "get %s\r\n", strings.Join(batch, " "))
		got := map[string]string{}
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("round %d: get: %v", round, err)
			}
			if line == "END\r\n" {
				break
			}
			var k string
			var flags, n int
			if _, err := fmt.Sscanf(line, "VALUE %s %d %d", &k, &flags, &n); err != nil {
				t.Fatalf("round %d: %q", round, line)
			}
			data := make([]byte, n+2)
			if _, err := io.ReadFull(r, data); err != nil {
				t.Fatal(err)
			}
			got[k] = string(data[:n])
		}
		for _, k := range batch {
			if got[k] != acked[k] {
				t.Fatalf("round %d: acknowledged %s = %q reads %q", round, k, acked[k], got[k])
			}
		}
	}
}
