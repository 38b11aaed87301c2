package hsfront

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"
)

// TestBackoffShape: max failures are free, the next attempts are refused
// for base, doubling per further failure up to 64 times base; refusals do
// not extend it; a quiet peer is forgotten; other peers are unaffected.
func TestBackoffShape(t *testing.T) {
	const base = time.Second
	now := time.Unix(1000, 0)
	b := NewBackoff(3, base)
	b.now = func() time.Time { return now }
	const peer = "192.0.2.1"
	for i := 0; i < 2; i++ {
		b.Failed(peer)
		if b.Blocked(peer) {
			t.Fatalf("blocked after %d failures", i+1)
		}
	}
	// From the 3rd failure: base, 2 base, 4 base, ... up to 64 base.
	for i, want := range []time.Duration{1, 2, 4, 8, 16, 32, 64, 64, 64} {
		b.Failed(peer)
		want *= base
		now = now.Add(want - time.Millisecond)
		// Asking twice changes nothing: a check is not a failure.
		if first, again := b.Blocked(peer), b.Blocked(peer); !first || !again {
			t.Fatalf("failure %d: not blocked %v later", i+3, want-time.Millisecond)
		}
		if b.Blocked("192.0.2.2") {
			t.Fatal("another peer is blocked")
		}
		now = now.Add(time.Millisecond)
		if b.Blocked(peer) {
			t.Fatalf("failure %d: still blocked %v later", i+3, want)
		}
	}
	if n := b.Refused(); n != 2*9 {
		t.Fatalf("Refused() = %d, want 18", n)
	}
	// Quiet for 128 bases: forgotten, max more failures are free again.
	now = now.Add(128*base + time.Millisecond)
	for i := 0; i < 2; i++ {
		b.Failed(peer)
	}
	if b.Blocked(peer) {
		t.Fatal("blocked after 2 failures once forgotten")
	}
	b.Failed(peer)
	if !b.Blocked(peer) {
		t.Fatal("not blocked after 3 failures once forgotten")
	}
}

// TestBackoffPeers: IPv6 peers count by /64; the table stays bounded; a
// nil Backoff (off) never refuses.
func TestBackoffPeers(t *testing.T) {
	b := NewBackoff(1, time.Minute)
	b.Failed("2001:db8:1:2::1")
	if !b.Blocked("2001:db8:1:2:ffff::9") || b.Blocked("2001:db8:1:3::1") {
		t.Fatal("IPv6 addresses are not grouped by /64")
	}
	for i := 0; i < backoffMaxPeers+10; i++ {
		b.Failed(net.IPv4(10, byte(i>>16), byte(i>>8), byte(i)).String())
	}
	if n := len(b.peers); n > backoffMaxPeers {
		t.Fatalf("%d peers tracked, more than %d", n, backoffMaxPeers)
	}
	var off *Backoff
	off.Failed("192.0.2.1")
	if off.Blocked("192.0.2.1") || off.Refused() != 0 {
		t.Fatal("a nil Backoff refuses")
	}
	if NewBackoff(0, time.Second) != nil || NewBackoff(5, 0) != nil {
		t.Fatal("NewBackoff without failures or duration is not off")
	}
}

// TestBackoffEventLoop: on the read port's event loop a backed-off peer
// is answered at once (nothing waits), the right secret refused too,
// while another peer's secret is accepted; refusals are counted apart.
func TestBackoffEventLoop(t *testing.T) {
	_, s := startTestServer(t, Config{ReadSecret: "sec", Backoff: NewBackoff(2, time.Hour)})
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
