package hs

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// pool holds the connections to one port.
type pool struct {
	addr    string
	secret  string
	write   bool
	opts    *Options
	sem     chan struct{} // one token per connection handed out
	maxIdle int

	mu     sync.Mutex
	idle   []*conn // most recently used last
	closed bool
	open   int // connections open (idle or handed out)

	stats poolStats
}

type poolStats struct {
	hits, misses, dials, dialErrors, waits, stale, timeouts atomic.Int64
}

// newPool returns the pool of one port, of size connections; o.MaxIdle
// bounds its idle ones (0: size, negative: none).
func newPool(addr, secret string, write bool, size int, o *Options) *pool {
	maxIdle := o.MaxIdle
	if maxIdle == 0 || maxIdle > size {
		maxIdle = size
	}
	if maxIdle < 0 {
		maxIdle = 0
	}
	return &pool{addr: addr, secret: secret, write: write, opts: o, sem: make(chan struct{}, size), maxIdle: maxIdle}
}

// get hands out a connection: an idle one that still looks alive, or a new
// one. It waits while the pool is at its size, as long as ctx allows.
func (p *pool) get(ctx context.Context) (*conn, error) {
	select {
	case p.sem <- struct{}{}:
	default:
		p.stats.waits.Add(1)
		select {
		case p.sem <- struct{}{}:
		case <-ctx.Done():
			p.stats.timeouts.Add(1)
			return nil, ctx.Err()
		}
	}
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			<-p.sem
			return nil, ErrClosed
		}
		var c *conn
		if n := len(p.idle); n > 0 {
			c = p.idle[n-1]
			p.idle[n-1] = nil
			p.idle = p.idle[:n-1]
		}
		p.mu.Unlock()
		if c == nil {
			break
		}
		if p.opts.IdleTimeout > 0 && time.Since(c.lastUsed) > p.opts.IdleTimeout || !c.alive() {
			p.stats.stale.Add(1)
			p.discard(c)
			continue
		}
		p.stats.hits.Add(1)
		c.reused = true
		return c, nil
	}
	p.stats.misses.Add(1)
	c, err := p.dial(ctx)
	if err != nil {
		<-p.sem
		return nil, err
	}
	return c, nil
}

func (p *pool) dial(ctx context.Context) (*conn, error) {
	p.stats.dials.Add(1)
	dctx := ctx
	if p.opts.DialTimeout > 0 { // negative: the context's limit only
		var cancel context.CancelFunc
		dctx, cancel = context.WithTimeout(ctx, p.opts.DialTimeout)
		defer cancel()
	}
	var nc net.Conn
	var err error
	if p.opts.Dialer != nil {
		nc, err = p.opts.Dialer(dctx, "tcp", p.addr)
	} else {
		var d net.Dialer
		nc, err = d.DialContext(dctx, "tcp", p.addr)
	}
	if err != nil {
		p.stats.dialErrors.Add(1)
		return nil, err
	}
	if tc, ok := nc.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
		tc.SetKeepAlive(true)
	}
	c := newConn(nc, p)
	if p.secret != "" {
		dl, _ := dctx.Deadline()
		nc.SetDeadline(dl)
		if err := c.auth(p.secret); err != nil {
			p.stats.dialErrors.Add(1)
			nc.Close()
			return nil, err
		}
		nc.SetDeadline(time.Time{})
	}
	p.mu.Lock()
	p.open++
	p.mu.Unlock()
	return c, nil
}

// put returns a connection handed out by get; a broken one is closed.
func (p *pool) put(c *conn) {
	c.lastUsed = time.Now()
	c.release()
	p.mu.Lock()
	if c.broken || p.closed || len(p.idle) >= p.maxIdle {
		p.open--
		p.mu.Unlock()
		c.close()
	} else {
		p.idle = append(p.idle, c)
		p.mu.Unlock()
	}
	<-p.sem
}

// discard closes an idle connection taken out by get (no token to return).
func (p *pool) discard(c *conn) {
	p.mu.Lock()
	p.open--
	p.mu.Unlock()
	c.close()
}

func (p *pool) close() error {
	p.mu.Lock()
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.open -= len(idle)
	p.mu.Unlock()
	for _, c := range idle {
		c.close()
	}
	return nil
}

// PoolStats are counters of one port's connection pool.
type PoolStats struct {
	// Hits counts requests served by an idle connection, Misses those that
	// had to open one.
	Hits, Misses int64
	// Dials counts connection attempts and DialErrors the failed ones
	// (including failed authentication).
	Dials, DialErrors int64
	// Waits counts requests that found the pool at its size and waited;
	// Timeouts those whose context ended while waiting.
	Waits, Timeouts int64
	// Stale counts idle connections found closed or timed out and dropped.
	Stale int64
	// Open and Idle are the connections open now and, among them, idle.
	Open, Idle int
}

func (p *pool) statsSnapshot() PoolStats {
	if p == nil {
		return PoolStats{}
	}
	p.mu.Lock()
	open, idle := p.open, len(p.idle)
	p.mu.Unlock()
	return PoolStats{
		Hits: p.stats.hits.Load(), Misses: p.stats.misses.Load(),
		Dials: p.stats.dials.Load(), DialErrors: p.stats.dialErrors.Load(),
		Waits: p.stats.waits.Load(), Timeouts: p.stats.timeouts.Load(),
		Stale: p.stats.stale.Load(), Open: open, Idle: idle,
	}
}
