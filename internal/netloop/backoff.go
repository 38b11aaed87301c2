package netloop

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Back-off shape: the refusal doubles up to backoffMaxShift doublings of
// the base, and a peer without a failure for backoffForget bases is
// forgotten (longer than the longest refusal, so that waiting one out
// does not reset the count). At most backoffMaxPeers are tracked.
const (
	backoffMaxShift = 6
	backoffForget   = 2 << backoffMaxShift
	backoffMaxPeers = 1 << 16
)

// Backoff slows down guessing of secrets and passwords. It counts the
// failed authentications of each peer address; from the max-th failure
// on, the peer's attempts are refused unchecked (a protocol answers them
// as refused at once: nothing sleeps, so an event loop goes on serving its
// other connections) for a back-off that starts at base and doubles with each
// further failure, up to 64 times base. Refused requests are not checked,
// so they do not count and do not extend the back-off: the right client
// gets in at most 64 times base after the last failure. A peer without a
// failure for 128 times base is forgotten.
//
// Peers are IP addresses; IPv6 addresses count by their /64 prefix (what
// one site usually holds). At most 65536 peers are tracked; beyond that
// the forgotten ones are dropped first, then arbitrary ones.
//
// A Backoff is safe for concurrent use; a nil *Backoff never refuses.
type Backoff struct {
	max  int
	base time.Duration
	now  func() time.Time // time.Now; tests replace it

	refused atomic.Int64

	mu        sync.Mutex
	peers     map[string]*peerFailures // guarded by mu
	lastSweep time.Time                // guarded by mu
}

// peerFailures is one peer's record, guarded by Backoff.mu.
type peerFailures struct {
	fails int
	last  time.Time // last failure
	until time.Time // end of the refusal
}

// NewBackoff returns a Backoff that refuses a peer after max failures for
// base, doubling; nil (no back-off) when max or base is not positive.
func NewBackoff(max int, base time.Duration) *Backoff {
	if max <= 0 || base <= 0 {
		return nil
	}
	return &Backoff{max: max, base: base, now: time.Now, peers: map[string]*peerFailures{}}
}

// peerKey is the record key of a host (an IP address as text).
func peerKey(host string) string {
	ip := net.ParseIP(host)
	if ip == nil || ip.To4() != nil {
		return host
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// Blocked reports whether host is backed off now, counting the refusal.
func (b *Backoff) Blocked(host string) bool {
	if b == nil {
		return false
	}
	key := peerKey(host)
	now := b.now()
	b.mu.Lock()
	p := b.peers[key]
	blocked := p != nil && now.Before(p.until)
	b.mu.Unlock()
	if blocked {
		b.refused.Add(1)
	}
	return blocked
}

// Failed counts a failed authentication from host.
func (b *Backoff) Failed(host string) {
	if b == nil {
		return
	}
	key := peerKey(host)
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.peers[key]
	if p != nil && b.forgotten(p, now) {
		p.fails = 0
	}
	if p == nil {
		b.makeRoom(now)
		p = &peerFailures{}
		b.peers[key] = p
	}
	p.fails++
	p.last = now
	if k := p.fails - b.max; k >= 0 {
		p.until = now.Add(b.base << min(k, backoffMaxShift))
	}
}

// forgotten reports whether p has had no failure for long enough.
func (b *Backoff) forgotten(p *peerFailures, now time.Time) bool {
	return now.Sub(p.last) > backoffForget*b.base
}

// makeRoom keeps the table below backoffMaxPeers before an insertion:
// forgotten peers go first (looked for at most once per base), then an
// arbitrary one. Called with mu held.
func (b *Backoff) makeRoom(now time.Time) {
	if len(b.peers) < backoffMaxPeers {
		return
	}
	if now.Sub(b.lastSweep) >= b.base {
		b.lastSweep = now
		for k, p := range b.peers {
			if b.forgotten(p, now) {
				delete(b.peers, k)
			}
		}
	}
	for k := range b.peers {
		if len(b.peers) < backoffMaxPeers {
			break
		}
		delete(b.peers, k)
	}
}

// Refused counts the requests Blocked refused.
func (b *Backoff) Refused() int64 {
	if b == nil {
		return 0
	}
	return b.refused.Load()
}
