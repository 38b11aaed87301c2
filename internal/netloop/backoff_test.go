package netloop

import (
	"net"
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
