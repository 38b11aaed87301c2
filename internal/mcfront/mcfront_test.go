package mcfront

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// startFront starts the memcached front over a fresh engine on a free
// loopback port.
func startFront(t testing.TB, cfg Config) (*engine.Engine, *Server) {
	t.Helper()
	e, err := engine.Open(engine.Options{Dir: t.TempDir(), Durability: engine.DurabilityNone})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	s := New(e, cfg)
	if err := s.Start(); err != nil {
		e.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Shutdown(ctx)
		e.Close()
	})
	return e, s
}

// startMemcached starts Debian's memcached (apt memcached; .ci/run
// installs it) on a free loopback port, with args besides.
func startMemcached(t testing.TB, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("memcached")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("memcached is not installed: .ci/run installs it (apt-get install memcached)")
		}
		t.Skip("memcached is not installed (apt-get install memcached; .ci/run installs it): the differential test needs the real server")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	all := append([]string{"-p", strconv.Itoa(port), "-U", "0", "-l", "127.0.0.1", "-t", "2"}, args...)
	if os.Geteuid() == 0 {
		all = append(all, "-u", "root")
	}
	cmd := exec.Command(bin, all...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatal("memcached did not start")
		}
	}
}

// mconn is a client connection that reads whole answers: each exchange
// sends its bytes and then "version", and reads up to the VERSION line.
type mconn struct {
	t testing.TB
	c net.Conn
	r *bufio.Reader
}

func dialMC(t testing.TB, addr string) *mconn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &mconn{t: t, c: c, r: bufio.NewReader(c)}
}

// do sends req and returns the answers before the sentinel's.
func (m *mconn) do(req string) string {
	m.t.Helper()
	m.c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(m.c, req+"version\r\n"); err != nil {
		m.t.Fatal(err)
	}
	var out strings.Builder
	for {
		line, err := m.r.ReadString('\n')
		if err != nil {
			m.t.Fatalf("%q: reading: %v (got %q)", req, err, out.String()+line)
		}
		if strings.HasPrefix(line, "VERSION ") {
			return out.String()
		}
		out.WriteString(line)
		if strings.HasPrefix(line, "VALUE ") {
			f := strings.Fields(line)
			n, _ := strconv.Atoi(f[3])
			data := make([]byte, n+2)
			if _, err := io.ReadFull(m.r, data); err != nil {
				m.t.Fatal(err)
			}
			out.Write(data)
		}
	}
}

// casOf returns the cas unique of the first VALUE line of a gets answer.
func casOf(ans string) string {
	f := strings.Fields(strings.SplitN(ans, "\r\n", 2)[0])
	if len(f) == 5 && f[0] == "VALUE" {
		return f[4]
	}
	return "1"
}

var (
	valueCas    = regexp.MustCompile(`(?m)^(VALUE \S+ \d+ \d+) \d+\r$`)
	paddedValue = regexp.MustCompile(`(?m)^(VALUE \S+ \d+) \d+( CAS)?\r\n(\d+) *\r$`)
)

var (
	metaLine = regexp.MustCompile(`(?m)^(VA|HD|EN|NS|EX|NF) .*$`)
	metaCas  = regexp.MustCompile(` c\d+`)
)

// normal makes two servers' answers comparable: CAS values differ by
// design (compared by shape: present or not), in VALUE lines and in a
// meta answer's c flag.
func normal(s string) string {
	s = valueCas.ReplaceAllString(s, "$1 CAS\r")
	return metaLine.ReplaceAllStringFunc(s, func(l string) string { return metaCas.ReplaceAllString(l, " cC") })
}

// unpadded is normal with the spaces after a number dropped: memcached
// writes an incr/decr result that got shorter padded with spaces in
// place, unless another of its threads holds the item at that moment
// (an LRU bump after a get), when it writes a new item of the number's
// length: which one is a race inside memcached.
func unpadded(s string) string {
	s = paddedValue.ReplaceAllStringFunc(normal(s), func(m string) string {
		sub := paddedValue.FindStringSubmatch(m)
		return fmt.Sprintf("%s %d%s\r\n%s\r", sub[1], len(sub[3]), sub[2], sub[3])
	})
	return paddedMeta.ReplaceAllStringFunc(s, func(m string) string {
		sub := paddedMeta.FindStringSubmatch(m)
		n := strconv.Itoa(len(sub[2]))
		return "VA " + n + metaSize.ReplaceAllString(sub[1], " s"+n) + "\r\n" + sub[2] + "\r"
	})
}

var (
	paddedMeta = regexp.MustCompile(`(?m)^VA \d+((?: \S+)*)\r\n(\d+) *\r$`)
	metaSize   = regexp.MustCompile(` s\d+`)
)

// TestDifferentialFixed: hand-picked requests, each answered alike by
// memcached and by the front, byte for byte (CAS by shape, the padding
// of a number by what memcached may write: see unpadded).
func TestDifferentialFixed(t *testing.T) {
	mcAddr := startMemcached(t)
	_, s := startFront(t, Config{FlushEnabled: true})
	for _, req := range []string{
		"set a 5 0 3\r\nabc\r\nget a\r\ngets a\r\n",
		"set a 0 0 3\r\nabcd\r\n",
		"set a 0 0 3\r\nab\r\n\r\n",
		"foo\r\nget\r\n\r\nGET a\r\n",
		"set n 0 0 2\r\n10\r\ndecr n 1\r\nget n\r\nincr n 18446744073709551615\r\nincr n x\r\ndecr n 100\r\nget n\r\n",
		"set c 0 0 3\r\n100\r\ndecr c 1\r\nget c\r\nincr c 1\r\nget c\r\n",
		"delete a 0\r\ndelete a 1\r\ndelete a noreply\r\nget a\r\n",
		"touch n 10\r\ntouch zz 1\r\ntouch\r\ntouch n x\r\n",
		"verbosity 1\r\nverbosity\r\nverbosity x\r\nverbosity 1 noreply\r\n",
		"set a 0 0 -1\r\n",
		"set a 0 0 1 noreply\r\nx\r\nget a\r\n",
		"cas zz 0 0 1 1\r\ny\r\ncas a 0 0 1 1\r\ny\r\ncas a 0 0 1\r\nx\r\n",
		"append a 0 0 2\r\nzz\r\nprepend a 0 0 2\r\nyy\r\nget a\r\nappend q 0 0 1\r\nx\r\nprepend q 0 0 1\r\nx\r\n",
		"add a 0 0 1\r\nx\r\nreplace q 0 0 1\r\nx\r\nadd q 0 0 1\r\nq\r\nreplace q 3 0 2\r\nqq\r\nget q\r\n",
		"set e 0 -1 1\r\nx\r\nget e\r\nadd e 0 0 1\r\ny\r\nget e\r\n",
		"gat 100 n\r\ngats 100 n zz\r\ngat 10\r\ngat x a\r\n",
		"set x abc 0 1\r\nx\r\nset x 4294967296 0 1\r\nx\r\nget x\r\n",
		"incr\r\nset a 0 0 1 x\r\nx\r\nset a 0 0 1 noreply extra\r\nx\r\n",
		"set k\x01 0 0 1\r\nx\r\nget k\x01\r\n",
		"incr n 1 noreply\r\nget n\r\ndecr a -1\r\n",
		"set n2 0 0 1\r\n5\r\nincr n2 18446744073709551611\r\nget n2\r\n",
		"set n3 0 0 20\r\n18446744073709551616\r\nincr n3 1\r\n",
		"set n4 0 0 3\r\n 12\r\nincr n4 1\r\nset n5 0 0 3\r\n12a\r\nincr n5 1\r\nset n6 0 0 0\r\n\r\nincr n6 1\r\n",
		"gets\r\ndelete a b c\r\ndelete\r\nincr a\r\n",
		"set  a 0 0 1\r\nx\r\nget a\r\nset a 0 0 1\nx\r\nget a\n",
		"set a 0 0 1\r\nx\r\nset a 0 0 2\r\nxyzw\r\nget a\r\n",
		"set a -1 0 1\r\nx\r\nset a 1 2\r\nstats foo\r\nstats detail\r\n",
		"set b 0 0 1\r\n7\r\nincr b 1 noreply\r\nincr b 00\r\nincr b +5\r\nincr b  5\r\nget b\r\n",
		"get " + strings.Repeat("k", 251) + "\r\nset " + strings.Repeat("k", 251) + " 0 0 1\r\nx\r\n",
		"set " + strings.Repeat("k", 250) + " 0 0 1\r\nx\r\nget " + strings.Repeat("k", 250) + "\r\n",
		"set big 0 0 2000000\r\n" + strings.Repeat("a", 2000000) + "\r\nget big\r\n",
		"set big 0 0 1\r\nb\r\nset big 0 0 1048577\r\n" + strings.Repeat("a", 1048577) + "\r\nget big\r\n",
		"set big 0 0 1048576\r\n" + strings.Repeat("a", 1048576) + "\r\nget big\r\n",
		"set big 0 0 1048514\r\n" + strings.Repeat("a", 1048514) + "\r\nset big 0 0 1048515\r\n" + strings.Repeat("a", 1048515) + "\r\n",
		"set k x 0 1 noreply\r\nx\r\nincr k -3 noreply\r\nset a 0 0 3 noreply\r\nabcd\r\ndelete a 5 noreply\r\ntouch a x noreply\r\nverbosity x noreply\r\nflush_all x noreply\r\n",
		"set a 0 0 2000000 noreply\r\n" + strings.Repeat("a", 2000000) + "\r\nget a\r\n",
		"set a 0 4000000000 1\r\nx\r\nset a 0 9223372036854775807 1\r\nx\r\nset a 0 -9223372036854775808 1\r\nx\r\ntouch a 9223372036854775808\r\n",
		"set a 0 0 4294967297\r\nx\r\nget a\r\n",
		"delete noreply\r\nincr k noreply\r\ntouch k noreply\r\nset k 0 0 noreply\r\nx\r\nverbosity noreply\r\nflush_all noreply\r\n",
		"set noreply 0 0 1\r\nx\r\nget noreply\r\ndelete a noreply 0\r\nverbosity foo bar my\r\n",
		"get a a a b\r\nflush_all 0 noreply\r\nflush_all x\r\nget a b\r\n",
		// the meta protocol
		"ms m1 3\r\nabc\r\nmg m1\r\nmg m1 v\r\nmg m1 v k f t s c O123\r\nmg nope v\r\nmg nope v q\r\nmn\r\n",
		"ms m2 2 T100 F5\r\nhi\r\nmg m2 t f v\r\nms m3 2 c\r\nhi\r\nms m3 2 C1 c\r\nxx\r\n",
		"ms m4 2 MA\r\nhi\r\nms m1 2 MA\r\nzz\r\nmg m1 v\r\nms m1 2 MP\r\naa\r\nmg m1 v\r\n",
		"ms m5 2 ME\r\nhi\r\nms m5 2 ME\r\nho\r\nms m6 2 MR\r\nhi\r\nms m7 2 MX\r\nhi\r\n",
		"md m1\r\nmd m1\r\nmd m1 q\r\nmd m2 q\r\nmn\r\n",
		"ma cnt\r\nma cnt N0 J10\r\nma cnt\r\nma cnt v\r\nma cnt MD D5 v\r\nma cnt M- D100 v t c\r\n",
		"mg\r\nms m1\r\nms m1 x\r\nmg m1 zz\r\nmg m1 v v\r\nmg m1 Ofoo Obar v\r\n",
		"ms m8 2 q\r\nhi\r\nms m8 2 C99 q\r\nxx\r\nmn\r\nmg zz1 v k O5 f\r\nmg zz1 k O5 q\r\nmn\r\n",
		"ms zz2 2 O7 k c\r\nhi\r\nmg zz2 k O8 s v t\r\nmd zz2 O9 k\r\nmd zz2 O9 k\r\nmd zz2 q O9\r\nmn\r\n",
		"ma zz3 O1 k\r\nma zz3 N0 J5 O1 k v\r\nma zz3 q\r\nma zz3 v q\r\nma zz4 q\r\nmn\r\n",
		"ms zz6 2\r\nhi\r\nms zz6 2 C0\r\nhi\r\nms zz7 2 C5\r\nhi\r\nms zz6 2 T-1\r\nhi\r\nmg zz6 v\r\n",
		"ms zz8 2 F4294967296\r\nhi\r\nmg zz8 f v\r\nmg zz8 T30 t v\r\nmg zz8 t\r\nma zz8\r\nma zz8 MI D2 v\r\n",
		"ms zz9 0\r\n\r\nmg zz9 v s\r\nms zz10 2 b\r\nhi\r\nms !!! 2 b\r\nhi\r\nmg zz8 s f c\r\nmd zz8 C1\r\nmd zz8 C0 q\r\nmn\r\n",
		"ma zz12 N0 J18446744073709551615\r\nma zz12 v\r\nmg bTE= v k b\r\nms bTE= 1 b\r\nx\r\nmg bTE= b k v\r\n",
		"mg m2 O99999999999999999999999999999999999999 v\r\nmg " + strings.Repeat("k", 251) + " v\r\nset t 0 0 2\r\n10\r\nma t MD v\r\nmg t v\r\n",
		// recache tokens, stale items, access history
		"mg w1 N30 v c t\r\nmg w1 N30 v c t\r\nms w1 3\r\nabc\r\nmg w1 N30 v t\r\nmg w2 N30 s\r\nmg w2 s\r\nmg w2 N30 q\r\nmn\r\n",
		"ms w3 2 T100\r\nhi\r\nmg w3 R200 v t\r\nmg w3 R200 v t\r\nmg w3 R50 v t\r\n",
		"ms w4 2\r\nhi\r\nmd w4 I\r\nmg w4 v c\r\nmg w4 v c\r\nms w4 2\r\nho\r\nmg w4 v\r\nms w5 2\r\nhi\r\nmd w5 I T30\r\nmg w5 t v\r\n",
		"ms w8 2 I C1\r\nhi\r\nmg w8 v c\r\nms w9 2\r\nhi\r\nms w9 2 I C1\r\nho\r\nmg w9 v c\r\nmg w9 v c\r\nmd w10 I\r\nmg w12 N0 v\r\nmg w12 v\r\n",
		"ms w13 2\r\nhi\r\nmg w13 h l v\r\nmg w13 h l\r\nget w13\r\nmg w13 h\r\nmg nope h l\r\n",
	} {
		want := unpadded(dialMC(t, mcAddr).do(req))
		got := unpadded(dialMC(t, s.Addr().String()).do(req))
		if got != want {
			t.Errorf("%q:\n got %q\nwant %q", trim(req), trim(got), trim(want))
		}
	}
}

func trim(s string) string {
	if len(s) > 300 {
		return s[:300] + fmt.Sprintf("...(%d bytes)", len(s))
	}
	return s
}

// TestDifferentialRandom sends the same random streams of requests,
// pipelined a few at a time, to memcached and to the front and compares
// every answer (CAS by shape; a cas request uses the CAS each server
// gave).
func TestDifferentialRandom(t *testing.T) {
	mcAddr := startMemcached(t)
	_, s := startFront(t, Config{})
	seed := uint64(time.Now().UnixNano())
	if v, err := strconv.ParseUint(os.Getenv("MC_SEED"), 10, 64); err == nil {
		seed = v
	}
	t.Logf("seed %d (MC_SEED repeats it)", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	mc, us := dialMC(t, mcAddr), dialMC(t, s.Addr().String())
	keys := []string{"k0", "k1", "k2", "n0", "n1", "key:with:colons", "\x7fodd", strings.Repeat("L", 250)}
	value := func() string {
		switch rng.IntN(4) {
		case 0:
			return strconv.FormatUint(rng.Uint64()>>uint(rng.IntN(64)), 10)
		case 1:
			return ""
		case 2:
			return strings.Repeat("v", rng.IntN(40))
		}
		return fmt.Sprintf("%d", rng.IntN(100))
	}
	noreply := func() string {
		if rng.IntN(6) == 0 {
			return " noreply"
		}
		return ""
	}
	exptime := func() string { return []string{"0", "0", "0", "-1", "1000", "4000000000"}[rng.IntN(6)] }
	steps := 600
	if testing.Short() {
		steps = 150
	}
	for step := 0; step < steps; step++ {
		var batch strings.Builder
		for n := 1 + rng.IntN(4); n > 0; n-- {
			k := keys[rng.IntN(len(keys))]
			switch rng.IntN(17) {
			case 0, 1, 2:
				cmd := []string{"set", "add", "replace", "append", "prepend"}[rng.IntN(5)]
				if (cmd == "append" || cmd == "prepend") && k[0] == 'n' {
					// a number incr/decr left padded or not (see
					// unpadded) is not appended to
					cmd = "set"
				}
				v := value()
				fmt.Fprintf(&batch, "%s %s %d %s %d%s\r\n%s\r\n", cmd, k, rng.IntN(70000), exptime(), len(v), noreply(), v)
			case 3:
				// a cas with each server's own unique: done alone
				a, b := mc.do("gets "+k+"\r\n"), us.do("gets "+k+"\r\n")
				if unpadded(a) != unpadded(b) {
					t.Fatalf("step %d: gets %q: memcached %q, front %q", step, k, a, b)
				}
				v := value()
				req := func(cas string) string {
					return fmt.Sprintf("cas %s 0 0 %d %s\r\n%s\r\n", k, len(v), cas, v)
				}
				if a, b := mc.do(req(casOf(a))), us.do(req(casOf(b))); a != b {
					t.Fatalf("step %d: cas %q: memcached %q, front %q", step, k, a, b)
				}
			case 4, 5, 6:
				fmt.Fprintf(&batch, "get %s %s\r\n", k, keys[rng.IntN(len(keys))])
			case 7:
				fmt.Fprintf(&batch, "gets %s\r\n", k)
			case 8:
				fmt.Fprintf(&batch, "delete %s%s\r\n", k, noreply())
			case 9, 10:
				k = []string{"n0", "n1"}[rng.IntN(2)]
				fmt.Fprintf(&batch, "%s %s %d%s\r\n", []string{"incr", "decr"}[rng.IntN(2)], k, rng.Uint64()>>uint(rng.IntN(64)), noreply())
			case 11:
				fmt.Fprintf(&batch, "touch %s %s%s\r\n", k, exptime(), noreply())
			case 12:
				fmt.Fprintf(&batch, "%s %s %s\r\n", []string{"gat", "gats"}[rng.IntN(2)], exptime(), k)
			case 15:
				// the meta protocol
				v := value()
				batch.WriteString([]string{
					fmt.Sprintf("mg %s v f t s k O%d%s\r\n", k, rng.IntN(100), []string{"", " q"}[rng.IntN(2)]),
					fmt.Sprintf("ms %s %d F%d T%s M%c%s\r\n%s\r\n", k, len(v), rng.IntN(9), exptime(), "SEARP"[rng.IntN(5)], []string{"", " q", " c"}[rng.IntN(3)], v),
					fmt.Sprintf("md %s%s\r\n", k, []string{"", " q", " k O1"}[rng.IntN(3)]),
					fmt.Sprintf("mn\r\nmg %s\r\n", k),
				}[rng.IntN(4)])
			case 13:
				batch.WriteString([]string{"bogus\r\n", "set " + k + " x 0 1\r\nx\r\n", "incr " + k + " -3\r\n",
					"set " + k + " 0 0 2\r\nxyz\r\n", "delete " + k + " 7\r\n", "get\r\n", "touch " + k + "\r\n"}[rng.IntN(7)])
			case 16:
				k = []string{"n0", "n1"}[rng.IntN(2)]
				fmt.Fprintf(&batch, "ma %s D%d M%c v t%s\r\n", k, rng.IntN(1000), "I+D-"[rng.IntN(4)], []string{"", " N0 J7", " q"}[rng.IntN(3)])
			default:
				fmt.Fprintf(&batch, "set %s %d 0 %d\r\n%d\r\n", k, rng.IntN(5), len(strconv.Itoa(step)), step)
			}
		}
		req := batch.String()
		if req == "" {
			continue
		}
		if a, b := unpadded(mc.do(req)), unpadded(us.do(req)); a != b {
			t.Fatalf("step %d: %q:\nmemcached %q\nfront     %q", step, req, a, b)
		}
	}
}

// TestSplitAcrossPackets: a request whose bytes come one at a time is
// answered as a whole; pipelined requests in one packet each get their
// answer.
func TestSplitAcrossPackets(t *testing.T) {
	_, s := startFront(t, Config{})
	c := dialMC(t, s.Addr().String())
	req := "set split 7 0 5\r\nhello\r\nget split\r\n"
	for i := 0; i < len(req); i++ {
		if _, err := c.c.Write([]byte{req[i]}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	if got := c.do(""); got != "STORED\r\nVALUE split 7 5\r\nhello\r\nEND\r\n" {
		t.Fatalf("got %q", got)
	}
	var b bytes.Buffer
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "set p%d 0 0 1\r\n%d\r\n", i, i%10)
	}
	if got := c.do(b.String()); got != strings.Repeat("STORED\r\n", 100) {
		t.Fatalf("pipelined sets: %q", trim(got))
	}
}

// TestQuitAndLongLine: quit closes the connection after the answers
// before it; a line past 2048 bytes without its end closes it without an
// answer, as memcached does; a bad command does not close it.
func TestQuitAndLongLine(t *testing.T) {
	_, s := startFront(t, Config{})
	for _, c := range []struct{ req, want string }{
		{"bogus\r\nset q 0 0 1\r\nx\r\nquit\r\nget q\r\n", "ERROR\r\nSTORED\r\n"},
		{strings.Repeat("x", 3000), ""},
	} {
		conn, err := net.Dial("tcp", s.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(5 * time.Second))
		conn.Write([]byte(c.req))
		got, err := io.ReadAll(conn)
		conn.Close()
		if err != nil || string(got) != c.want {
			t.Errorf("%q: got %q (%v), want %q and the connection closed", trim(c.req), got, err, c.want)
		}
	}
}

// TestFlushAll: off unless enabled, as memcached -F; enabled, it empties
// the default container.
func TestFlushAll(t *testing.T) {
	_, off := startFront(t, Config{})
	if got := dialMC(t, off.Addr().String()).do("flush_all\r\n"); got != "CLIENT_ERROR flush_all not allowed\r\n" {
		t.Fatalf("flush_all while off: %q", got)
	}
	_, on := startFront(t, Config{FlushEnabled: true})
	c := dialMC(t, on.Addr().String())
	if got := c.do("set f1 0 0 1\r\nx\r\nset f2 0 0 1\r\ny\r\nflush_all\r\nget f1 f2\r\nflush_all noreply\r\n"); got != "STORED\r\nSTORED\r\nOK\r\nEND\r\n" {
		t.Fatalf("flush_all: %q", got)
	}
}

// TestPersistence: items survive a restart of the engine, and an item's
// expiry with it.
func TestPersistence(t *testing.T) {
	dir := t.TempDir()
	open := func() (*engine.Engine, *Server) {
		e, err := engine.Open(engine.Options{Dir: dir, Durability: engine.DurabilitySync})
		if err != nil {
			t.Fatal(err)
		}
		s := New(e, Config{Addr: "127.0.0.1:0"})
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		return e, s
	}
	e, s := open()
	c := dialMC(t, s.Addr().String())
	if got := c.do("set p 3 0 4\r\nkept\r\nset gone 0 -1 1\r\nx\r\nset later 0 100000 1\r\ny\r\n"); got != "STORED\r\nSTORED\r\nSTORED\r\n" {
		t.Fatal(got)
	}
	c.c.Close()
	s.Shutdown(context.Background())
	e.Close()
	e, s = open()
	defer func() { s.Shutdown(context.Background()); e.Close() }()
	if got := dialMC(t, s.Addr().String()).do("get p gone later\r\n"); got != "VALUE p 3 4\r\nkept\r\nVALUE later 0 1\r\ny\r\nEND\r\n" {
		t.Fatalf("after restart: %q", got)
	}
}

// TestMemccapable runs libmemcached's protocol checker (Debian's
// libmemcached-tools; .ci/run installs it) against the front: every
// test of the text and the binary protocol passes. (It flushes the
// server: flush_all is on.)
func TestMemccapable(t *testing.T) {
	bin, err := exec.LookPath("memccapable")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("memccapable is not installed: .ci/run installs it (apt-get install libmemcached-tools)")
		}
		t.Skip("memccapable is not installed (apt-get install libmemcached-tools; .ci/run installs it)")
	}
	_, s := startFront(t, Config{FlushEnabled: true})
	port := strconv.Itoa(s.Addr().(*net.TCPAddr).Port)
	out, err := exec.Command(bin, "-h", "127.0.0.1", "-p", port, "-t", "10").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "All tests passed") {
		t.Fatalf("memccapable: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), "[pass]"); n < 54 {
		t.Fatalf("memccapable ran %d tests, want the 27 of each protocol:\n%s", n, out)
	}
}

// binReq is a binary request: opcode, key, extras, value, cas.
func binReq(opcode byte, key, extras, value string, cas uint64) string {
	var b []byte
	b = append(b, 0x80, opcode)
	b = binary.BigEndian.AppendUint16(b, uint16(len(key)))
	b = append(b, byte(len(extras)), 0, 0, 0)
	b = binary.BigEndian.AppendUint32(b, uint32(len(extras)+len(key)+len(value)))
	b = binary.BigEndian.AppendUint32(b, 0xdeadbeef)
	b = binary.BigEndian.AppendUint64(b, cas)
	return string(b) + extras + key + value
}

func u32s(v ...uint32) string {
	var b []byte
	for _, x := range v {
		b = binary.BigEndian.AppendUint32(b, x)
	}
	return string(b)
}

func u64s(v ...uint64) string {
	var b []byte
	for _, x := range v {
		b = binary.BigEndian.AppendUint64(b, x)
	}
	return string(b)
}

// binExchange sends reqs and a final noop on a new connection and
// returns the responses before the noop's, each with its CAS zeroed
// (compared by shape: zero or not).
func binExchange(t *testing.T, addr string, reqs string) []string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, reqs+binReq(0x0a, "", "", "", 0)); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	var out []string
	for {
		h := make([]byte, 24)
		if _, err := io.ReadFull(r, h); err != nil {
			if err == io.EOF {
				return append(out, "<closed>")
			}
			t.Fatalf("reading: %v after %q", err, out)
		}
		body := make([]byte, binary.BigEndian.Uint32(h[8:12]))
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		if h[1] == 0x0a {
			return out
		}
		if binary.BigEndian.Uint64(h[16:24]) != 0 {
			binary.BigEndian.PutUint64(h[16:24], 1)
		}
		out = append(out, fmt.Sprintf("%x|%q", h, body))
	}
}

// TestDifferentialBinary: binary requests answered alike by memcached
// and by the front, byte for byte (CAS by shape): the storage commands
// and their quiet forms, CAS, incr/decr with initial values, touch and
// GAT, the gets, errors, version.
func TestDifferentialBinary(t *testing.T) {
	mcAddr := startMemcached(t)
	_, s := startFront(t, Config{FlushEnabled: true})
	set := func(op byte, k, v string, flags, exp uint32) string { return binReq(op, k, u32s(flags, exp), v, 0) }
	for _, reqs := range []string{
		set(0x01, "b1", "v1", 7, 0) + binReq(0x00, "b1", "", "", 0) + binReq(0x0c, "b1", "", "", 0) + binReq(0x00, "nope", "", "", 0) + binReq(0x0c, "nope", "", "", 0),
		binReq(0x09, "nope", "", "", 0) + binReq(0x0d, "b1", "", "", 0),
		set(0x02, "b1", "x", 0, 0) + set(0x03, "nope", "x", 0, 0) + set(0x12, "b1", "x", 0, 0) + set(0x11, "b2", "q", 0, 0) + binReq(0x00, "b2", "", "", 0),
		binReq(0x0e, "b1", "", "+a", 0) + binReq(0x0f, "b1", "", "p+", 0) + binReq(0x00, "b1", "", "", 0) + binReq(0x0e, "nope", "", "x", 0),
		binReq(0x01, "b1", u32s(0, 0), "cas", 12345) + binReq(0x04, "b1", "", "", 99) + binReq(0x04, "nope", "", "", 0) + binReq(0x04, "b2", "", "", 0),
		binReq(0x05, "n", u64s(5, 10)+u32s(0), "", 0) + binReq(0x05, "n", u64s(5, 10)+u32s(0), "", 0) + binReq(0x06, "n", u64s(100, 0)+u32s(0), "", 0) + binReq(0x05, "m", u64s(1, 0)+u32s(0xffffffff), "", 0),
		set(0x01, "t", "abc", 1, 0) + binReq(0x06, "t", u64s(1, 0)+u32s(0), "", 0) + binReq(0x1c, "t", u32s(100), "", 0) + binReq(0x1c, "nope", u32s(100), "", 0),
		binReq(0x1d, "t", u32s(100), "", 0) + binReq(0x23, "t", u32s(100), "", 0) + binReq(0x1d, "nope", u32s(100), "", 0) + binReq(0x1e, "nope", u32s(100), "", 0),
		binReq(0x01, "bad", "", "x", 0) + binReq(0x0b, "", "", "", 0)[:0] + binReq(0x3f, "", "", "", 0) + binReq(0x07, "", "", "", 0)[:0],
		set(0x01, "e", "x", 0, 0xffffffff) + binReq(0x00, "e", "", "", 0) + binReq(0x08, "", "", "", 0) + binReq(0x00, "t", "", "", 0),
	} {
		want := binExchange(t, mcAddr, reqs)
		got := binExchange(t, s.Addr().String(), reqs)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%x:\n got %q\nwant %q", reqs, got, want)
		}
	}
}

// TestExpirySweep: expired items nobody asks for are removed by the
// sweep; live ones stay.
func TestExpirySweep(t *testing.T) {
	e, s := startFront(t, Config{SweepEvery: 50 * time.Millisecond})
	c := dialMC(t, s.Addr().String())
	if got := c.do("set short1 0 1 1\r\nx\r\nset short2 0 -1 1\r\nx\r\nset kept 0 0 1\r\ny\r\nset later 0 1000 1\r\nz\r\n"); got != strings.Repeat("STORED\r\n", 4) {
		t.Fatal(got)
	}
	rows := func() []string {
		tb, err := e.Catalog().Table(ConfigDB, defaultTable)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		e.Find(tb, &engine.Query{Index: tb.Primary}, func(r engine.Row) bool {
			keys = append(keys, string(r[0].B))
			return true
		})
		return keys
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		got := strings.Join(rows(), ",")
		if got == "kept,later" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("rows after the sweep: %s, want kept,later", got)
		}
	}
	if n := s.Stats().Reclaimed.Load(); n != 2 {
		t.Fatalf("reclaimed %d, want 2", n)
	}
}

// TestGetAllocs: a get through the session allocates nothing once its
// buffers have grown (the point read's query, key and callback are the
// session's, made once); mg allocates the name of its item's token state;
// a set, one (the writer's scratch is the session's writeBuf).
func TestGetAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items, so allocations are not counted under it")
	}
	_, s := startFront(t, Config{})
	ss := newSession(s, nil)
	out := make([]byte, 0, 4096)
	in := make([]byte, 0, 64)
	run := func(req string) {
		out, in = out[:0], append(in[:0], req...)
		ss.Begin(in, &out)
		for !ss.Step() {
			ss.Resume(s.e.Update(context.Background(), ss.Job()))
		}
		ss.End()
	}
	run("set k 0 0 1\r\nv\r\n")
	if string(out) != "STORED\r\n" {
		t.Fatalf("%q", out)
	}
	for _, c := range []struct {
		req  string
		max  float64
		want string
	}{
		{"get k\r\n", 0, "VALUE k 0 1\r\nv\r\nEND\r\n"},
		{"get k nope\r\n", 0, "VALUE k 0 1\r\nv\r\nEND\r\n"},
		{"mg k v f t\r\n", 1, "VA 1 f0 t-1\r\nv\r\n"},
		{"set k 0 0 1\r\nw\r\n", 1, "STORED\r\n"},
	} {
		run(c.req)
		if string(out) != c.want {
			t.Fatalf("%q: %q, want %q", c.req, out, c.want)
		}
		allocs := testing.AllocsPerRun(1000, func() { run(c.req) })
		t.Logf("%q: %.1f allocations", c.req, allocs)
		if allocs > c.max {
			t.Errorf("%q: %.1f allocations, want at most %.0f", c.req, allocs, c.max)
		}
	}
}

// TestFirstRequestsTogether: on a fresh store, the first requests of
// several connections at once all wait for the one bootstrap of the
// configuration (none sees its tables half made: a containers table
// without its default row answered SERVER_ERROR), in both the event
// loops and the goroutine-per-connection mode.
func TestFirstRequestsTogether(t *testing.T) {
	for _, loops := range []int{0, -1} { // (-1: a goroutine per connection)
		for round := range 10 {
			_, s := startFront(t, Config{Loops: loops})
			const conns = 8
			answers := make(chan string, conns)
			start := make(chan struct{})
			for g := range conns {
				go func() {
					c, err := net.Dial("tcp", s.Addr().String())
					if err != nil {
						answers <- err.Error()
						return
					}
					defer c.Close()
					<-start
					fmt.Fprintf(c, "set k%d 0 0 1\r\nv\r\n", g)
					c.SetReadDeadline(time.Now().Add(10 * time.Second))
					line, err := bufio.NewReader(c).ReadString('\n')
					if err != nil {
						line = err.Error()
					}
					answers <- line
				}()
			}
			close(start)
			for range conns {
				if a := <-answers; a != "STORED\r\n" {
					t.Fatalf("loops %d, round %d: a first set answered %q", loops, round, a)
				}
			}
		}
	}
}
