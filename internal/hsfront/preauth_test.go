package hsfront

import (
	"bytes"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestPreAuthLineIsShort (issue #23, point 4): until a connection has
// authenticated on a port that requires it, it may hold only a short
// partial line (preAuthLine): a longer one is answered linelen and the
// connection closed, as for MaxLine. Many connections each sending a
// 1 MiB partial line before A leave the heap about where it was (before,
// each held its megabyte: 32 of them grew it by over 32 MiB). An A line
// with a long secret still fits, and once authenticated a connection may
// send lines up to MaxLine.
func TestPreAuthLineIsShort(t *testing.T) {
	secret := strings.Repeat("s", 3000) // its A line is over preAuthLine
	for _, tc := range []struct {
		name  string
		cfg   Config
		write bool
	}{
		{"readloop", Config{ReadSecret: secret}, false},
		{"goroutines", Config{ReadSecret: secret, NoEventLoop: true}, false},
		{"writeport", Config{WriteSecret: secret}, true},
		{"requireauth", Config{RequireAuth: true, Authorize: func(host, user, pw string) (Grants, error) { return allGrants{}, nil }}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, s := startTestServer(t, tc.cfg)
			addr := s.ReadAddr()
			if tc.write {
				addr = s.WriteAddr()
			}
			auth := "A\t1\t" + secret + "\n"
			if tc.cfg.RequireAuth {
				auth = "A\t1\tu:" + strings.Repeat("p", 3000) + "\n"
			}
			// A partial line past the limit, within one read: linelen.
			c := dial(t, addr)
			c.c.Write(bytes.Repeat([]byte("x"), 8<<10))
			c.c.SetReadDeadline(time.Now().Add(5 * time.Second))
			if got, _ := io.ReadAll(c.r); string(got) != "2\t1\tlinelen\n" {
				t.Errorf("8 KiB partial line before A: %q, want linelen and close", got)
			}
			// A long valid A line fits; then a long line is fine.
			ok := dial(t, addr)
			ok.do(auth, "0\t1\n")
			ok.do("P\t1\tconf\ttw\tPRIMARY\tk,s\n", "0\t1\n")
			ok.do("1\t=\t1\t1"+strings.Repeat(" ", 64<<10)+"\n", "0\t2\t1\tone\n")

			// Memory: 32 connections each send 1 MiB of one line.
			const conns, size = 32, 1 << 20
			runtime.GC()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			var cs []net.Conn
			line := bytes.Repeat([]byte("y"), size)
			for i := 0; i < conns; i++ {
				cc := dial(t, addr)
				cs = append(cs, cc.c)
				go cc.c.Write(line) // fails once the server closes
			}
			// Give the server the time to read what it takes.
			time.Sleep(500 * time.Millisecond)
			runtime.GC()
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			grew := int64(after.HeapInuse) - int64(before.HeapInuse)
			t.Logf("heap in use grew %d KiB for %d connections with a 1 MiB partial line before A", grew>>10, conns)
			if grew > 4<<20 {
				t.Errorf("heap grew %d MiB for %d unauthenticated connections, want under 4", grew>>20, conns)
			}
			for i, cc := range cs {
				if !closedWithinOrReset(cc, 5*time.Second) {
					t.Errorf("connection %d with a long line before A is still open", i)
					break
				}
			}
		})
	}
}

// closedWithinOrReset reports whether the server closes c within d (an
// EOF, or a reset when it closed with input unread).
func closedWithinOrReset(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return true
}

// allGrants lets an account open every table.
type allGrants struct{}

func (allGrants) Allowed(db, table string, write bool) bool { return true }
