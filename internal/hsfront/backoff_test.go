package hsfront

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/netloop"
)

// TestBackoffEventLoop: on the read port's event loop a backed-off peer
// is answered at once (nothing waits), the right secret refused too,
// while another peer's secret is accepted; refusals are counted apart.
func TestBackoffEventLoop(t *testing.T) {
	_, s := startTestServer(t, Config{ReadSecret: "sec", Backoff: netloop.NewBackoff(2, time.Hour)})
	dial := func(ip string) *client {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		c, err := d.Dial("tcp", s.ReadAddr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return &client{t: t, c: c, r: bufio.NewReader(c)}
	}
	bad := dial("127.0.0.2")
	bad.do("A\t1\tx\nA\t1\ty\n", "3\t1\tunauth\n", "3\t1\tunauth\n")
	start := time.Now()
	want := make([]string, 100)
	for i := range want {
		want[i] = "3\t1\tunauth\n"
	}
	bad.do(strings.Repeat("A\t1\tsec\n", len(want)), want...)
	good := dial("127.0.0.3")
	good.do("A\t1\tsec\nP\t1\tconf\ttw\tPRIMARY\tk\n", "0\t1\n", "0\t1\n")
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("100 refusals and one login took %v", d)
	}
	if n := s.AuthBackoffs(); n != 100 {
		t.Fatalf("AuthBackoffs() = %d, want 100", n)
	}
	if n := s.Stats().AuthFail.Load(); n != 102 {
		t.Fatalf("AuthFail = %d, want 102", n)
	}
}
