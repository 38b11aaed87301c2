package hsfront

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"io"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// Heavy lines with tiny answers: a filtered scan of the whole table that
// matches nothing (answer `0\t1`), and a scan that passes MaxResponse
// (answer `1\t1\tresultlen`, with MaxResponse under the table's size). On a handle opened with
// `P\t1\tconf\ttw\tPRIMARY\tk\ts`.
const (
	stallFiltered  = "1\t>=\t1\t0\t1000000\t0\tF\t=\t0\tnomatch\n"
	stallResultlen = "1\t>=\t1\t0\t1000000\t0\n"
	stallRows      = 100000
	stallLines     = 200
)

// stallRequests is what one attacking connection pipelines: stallLines
// heavy lines, both kinds in turn.
func stallRequests() string {
	var b strings.Builder
	for i := 0; i < stallLines; i++ {
		if i%2 == 0 {
			b.WriteString(stallFiltered)
		} else {
			b.WriteString(stallResultlen)
		}
	}
	return b.String()
}

// stallModifies is what one attacking connection pipelines at the
// writer: deletes that scan the whole table for a filter that matches
// nothing (answer `0\t1\t0`), which the writer runs.
func stallModifies() string {
	return strings.Repeat(strings.TrimSuffix(stallFiltered, "\n")+"\tD\n", stallLines)
}

// worstLatency runs req (one line, one answer line) on c until stop is
// closed and returns the longest round trip.
func worstLatency(t *testing.T, c *client, req string, stop <-chan struct{}) time.Duration {
	t.Helper()
	var worst time.Duration
	for n := 0; ; n++ {
		select {
		case <-stop:
			if n > 0 {
				return worst
			}
		default:
		}
		t0 := time.Now()
		if _, err := c.c.Write([]byte(req)); err != nil {
			t.Fatal(err)
		}
		c.c.SetReadDeadline(time.Now().Add(2 * time.Minute))
		l, err := c.r.ReadString('\n')
		if err != nil {
			t.Fatalf("victim: %v after %v", err, time.Since(t0))
		}
		if l[0] != '0' {
			t.Fatalf("victim: answer %q", l)
		}
		worst = max(worst, time.Since(t0))
	}
}

// TestPipelinedHeavyLinesDoNotStall (issue #23, point 3): connections
// pipelining heavy lines whose answers are tiny (scans that examine the
// whole table for a filter that matches nothing, scans that end in
// resultlen) must not hold up the other connections of the port: a turn
// is bounded by the rows it examines, not by its output. Eight attackers,
// each sending batch after batch of such lines, share two read loops (or
// the write port's loop) with a reader and a writer whose worst latency
// is measured for two seconds; before the bound, one read's worth of an
// attacker's lines (about 400) was one turn, and the others of the loop
// waited for several of them (seconds each).
func TestPipelinedHeavyLinesDoNotStall(t *testing.T) {
	const bound = time.Second // generous: a bounded turn is a few ms
	for _, tc := range []struct {
		name  string
		cfg   Config
		write bool // attack the write port (its finds run on the write loop)
		mod   bool // with scanning deletes, which the writer runs
	}{
		{"readloops", Config{ReadLoops: 2, WriteLoops: 1}, false, false},
		{"goroutines", Config{NoEventLoop: true}, false, false},
		{"writeloop", Config{ReadLoops: 2, WriteLoops: 1}, true, false},
		{"writer", Config{ReadLoops: 2, WriteLoops: 1}, true, true},
		{"writergoroutines", Config{ReadLoops: 2, WriteLoops: -1}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.MaxResponse = 1 << 18 // a scan of the table passes it at about 40,000 rows
			e, s := startTestServer(t, cfg)
			fillRows(t, e, stallRows)
			addr := s.ReadAddr()
			if tc.write {
				addr = s.WriteAddr()
			}
			reader := dial(t, s.ReadAddr())
			reader.do("P\t1\tconf\ttw\tPRIMARY\tk,s\n", "0\t1\n")
			writer := dial(t, s.WriteAddr())
			writer.do("P\t1\tconf\ttw\tPRIMARY\tk,s\n", "0\t1\n")
			req := stallRequests()
			if tc.mod {
				req = stallModifies()
			}
			var wg sync.WaitGroup
			var attackers []net.Conn
			var as []*client
			for i := 0; i < 8; i++ {
				a := dial(t, addr)
				a.do("P\t1\tconf\ttw\tPRIMARY\tk\ts\n", "0\t1\n")
				as = append(as, a)
			}
			for _, a := range as {
				attackers = append(attackers, a.c)
				wg.Add(2)
				go func() { // pipelines batch after batch until closed
					defer wg.Done()
					for {
						if _, err := a.c.Write([]byte(req)); err != nil {
							return
						}
					}
				}()
				go func() { defer wg.Done(); io.Copy(io.Discard, a.r) }() // reads every answer
			}
			stop := make(chan struct{})
			time.AfterFunc(2*time.Second, func() { close(stop) })
			var wworst time.Duration
			done := make(chan struct{})
			go func() {
				defer close(done)
				k := 10000000
				for n := 0; ; n++ {
					select {
					case <-stop:
						if n > 0 {
							return
						}
					default:
					}
					k++
					t0 := time.Now()
					writer.c.Write([]byte("1\t+\t2\t" + itoaN(k) + "\tw\n"))
					writer.c.SetReadDeadline(time.Now().Add(2 * time.Minute))
					l, err := writer.r.ReadString('\n')
					if err != nil || l != "0\t1\n" {
						t.Errorf("writer: %q, %v after %v", l, err, time.Since(t0))
						return
					}
					wworst = max(wworst, time.Since(t0))
				}
			}()
			rworst := worstLatency(t, reader, "1\t=\t1\t1000\n", stop)
			<-done
			for _, a := range attackers {
				a.Close()
			}
			wg.Wait()
			t.Logf("worst latency under attack: read %v, insert %v", rworst, wworst)
			if rworst > bound {
				t.Errorf("a reader waited %v for a point find, want under %v", rworst, bound)
			}
			if wworst > bound {
				t.Errorf("a writer waited %v for an insert, want under %v", wworst, bound)
			}
		})
	}
}

// TestClosedPeerLinesNotExecuted (issue #23, point 3): once the peer has
// closed, the lines it pipelined and the server has not run yet are
// dropped. Each heavy line examines the whole table, past a turn's
// budget, so it is a turn of its own: the server may finish the turn it
// is in when the close comes, and must run none after it.
func TestClosedPeerLinesNotExecuted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cfg   Config
		write bool
	}{
		{"readloop", Config{}, false},
		{"goroutines", Config{NoEventLoop: true}, false},
		{"writeloop", Config{}, true},
		{"writegoroutines", Config{WriteLoops: -1}, true},
		{"tls", Config{TLS: testTLSConfig(t)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.MaxResponse = 4096
			e, s := startTestServer(t, cfg)
			fillRows(t, e, stallRows)
			addr := s.ReadAddr()
			if tc.write {
				addr = s.WriteAddr()
			}
			var c net.Conn
			var err error
			if cfg.TLS != nil {
				c, err = tls.Dial("tcp", addr.String(), &tls.Config{InsecureSkipVerify: true})
			} else {
				c, err = net.Dial("tcp", addr.String())
			}
			if err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(c)
			c.Write([]byte("P\t1\tconf\ttw\tPRIMARY\tk\ts\n"))
			if l, err := r.ReadString('\n'); err != nil || l != "0\t1\n" {
				t.Fatalf("P: %q %v", l, err)
			}
			before := s.Stats().Requests.Load()
			c.Write([]byte(strings.Repeat(stallFiltered, stallLines)))
			c.Close()
			for deadline := time.Now().Add(2 * time.Minute); len(s.Conns()) > 0; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the closed connection is still served")
				}
			}
			ran := s.Stats().Requests.Load() - before
			t.Logf("%d of %d pipelined lines ran after the peer closed", ran, stallLines)
			if ran > 1 {
				t.Errorf("%d of %d lines ran after the peer closed, want at most the turn in progress (1)", ran, stallLines)
			}
		})
	}
}

func itoaN(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		if i /= 10; i == 0 {
			break
		}
	}
	return string(b[n:])
}

// testTLSConfig is a server TLS configuration with a fresh self-signed
// certificate (clients of the tests skip its verification).
func testTLSConfig(t *testing.T) *tls.Config {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
}
