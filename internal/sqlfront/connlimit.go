package sqlfront

import (
	"context"
	"encoding/binary"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
)

// limitListener is the SQL port's listener as go-mysql-server sees it. It
// gives each connection ConnectTimeout to authenticate (a deadline,
// lifted by the handshake's OK packet or the first command), and keeps
// two counts apart:
//
//   - sessions, the authenticated connections, held to MaxConnections,
//     plus one for an account with SUPER or CONNECTION ADMIN, as mysqld's
//     max_connections: a login past them gets MySQL's error 1040 in place
//     of the handshake's OK (claimSession, called by the login check);
//   - pending, the connections not authenticated yet, held to
//     maxPending(MaxConnections): past it the oldest pending connection
//     is closed to make room, so sockets that never log in cannot keep an
//     account from logging in, nor take more than that many descriptors.
//
// Safe for concurrent use.
type limitListener struct {
	net.Listener
	max            int64
	connectTimeout time.Duration
	stats          *Stats
	open           atomic.Int64 // connections open, both kinds
	sessions       atomic.Int64
	hosts          *connectErrors // nil: max_connect_errors off

	mu      sync.Mutex
	pending map[*limitConn]struct{} // under mu
	oldest  []*limitConn            // pending connections in accept order (some gone), under mu
	live    map[*limitConn]struct{} // every open connection, for watchPeers; under mu

	watchOnce sync.Once
	stopWatch chan struct{} // closed by Close: watchPeers returns
}

// maxPending bounds the connections not authenticated yet: four times
// max_connections, at least 256 (unbounded when max_connections is).
func maxPending(maxConns int64) int {
	if maxConns <= 0 {
		return 0
	}
	return int(max(4*maxConns, 256))
}

// Accept returns the next connection, closing the oldest pending one
// when too many are pending.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.hosts != nil {
			if host := remoteHost(nc.RemoteAddr()); l.hosts.blocked(host) {
				l.stats.Refused.Add(1)
				go refuseBlocked(nc, host)
				continue
			}
		}
		l.open.Add(1)
		lc := &limitConn{Conn: nc, l: l}
		lc.ctx, lc.cancelConn = context.WithCancel(context.Background())
		lc.endWatch = func() { lc.running.Store(false) }
		l.watchOnce.Do(func() {
			l.stopWatch = make(chan struct{})
			go l.watchPeers(l.stopWatch)
		})
		if l.connectTimeout > 0 {
			nc.SetDeadline(time.Now().Add(l.connectTimeout))
		}
		l.addPending(lc)
		return lc, nil
	}
}

// addPending counts lc as pending, closing the oldest pending connection
// past maxPending.
func (l *limitListener) addPending(lc *limitConn) {
	limit := maxPending(l.max)
	var evict *limitConn
	l.mu.Lock()
	if l.pending == nil {
		l.pending = map[*limitConn]struct{}{}
		l.live = map[*limitConn]struct{}{}
	}
	l.live[lc] = struct{}{}
	l.pending[lc] = struct{}{}
	l.oldest = append(l.oldest, lc)
	if limit > 0 && len(l.pending) > limit {
		for len(l.oldest) > 0 && evict == nil {
			c := l.oldest[0]
			l.oldest[0] = nil
			l.oldest = l.oldest[1:]
			if _, ok := l.pending[c]; ok && c != lc {
				evict = c
				delete(l.pending, c)
			}
		}
	}
	if len(l.oldest) > 2*len(l.pending)+64 {
		// Drop the entries of connections no longer pending.
		kept := l.oldest[:0]
		for _, c := range l.oldest {
			if _, ok := l.pending[c]; ok {
				kept = append(kept, c)
			}
		}
		clear(l.oldest[len(kept):])
		l.oldest = kept
	}
	l.mu.Unlock()
	if evict != nil {
		l.stats.Refused.Add(1)
		evict.Conn.Close() // its Close, from its goroutine, gives the slot back
	}
}

// Close stops the peer watcher and closes the listener.
func (l *limitListener) Close() error {
	l.watchOnce.Do(func() {}) // no watcher starts after this
	if l.stopWatch != nil {
		l.mu.Lock()
		select {
		case <-l.stopWatch:
		default:
			close(l.stopWatch)
		}
		l.mu.Unlock()
	}
	return l.Listener.Close()
}

// gone forgets c (closed).
func (l *limitListener) gone(c *limitConn) {
	l.mu.Lock()
	delete(l.live, c)
	l.mu.Unlock()
	c.cancelConn()
}

// leavePending reports whether c was pending and no longer counts it.
func (l *limitListener) leavePending(c *limitConn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.pending[c]; !ok {
		return false
	}
	delete(l.pending, c)
	return true
}

// claimSession turns c from a pending connection into a session, if a
// session slot is free: MaxConnections, or one more for privileged (SUPER
// or CONNECTION ADMIN).
func (l *limitListener) claimSession(c *limitConn, privileged bool) bool {
	if !c.session.CompareAndSwap(false, true) {
		return true
	}
	l.leavePending(c)
	n := l.sessions.Add(1)
	if l.max > 0 && n > l.max && !(privileged && n == l.max+1) {
		l.sessions.Add(-1)
		c.session.Store(false)
		l.stats.Refused.Add(1)
		return false
	}
	return true
}

// refuseBlocked sends a host that max_connect_errors blocked MariaDB's
// 1129 in place of the handshake and closes the connection.
func refuseBlocked(nc net.Conn, host string) {
	msg := "Host '" + host + "' is blocked because of many connection errors; unblock with 'mariadb-admin flush-hosts'"
	payload := append([]byte{0xff, 0, 0}, msg...)
	binary.LittleEndian.PutUint16(payload[1:3], mysql.ERHostIsBlocked)
	pkt := []byte{byte(len(payload)), byte(len(payload) >> 8), byte(len(payload) >> 16), 0}
	nc.SetWriteDeadline(time.Now().Add(time.Second))
	nc.Write(append(pkt, payload...))
	nc.Close()
}

// connectErrors counts each host's connection errors in a row (a
// connection that ended before its login was checked), as mysqld's
// max_connect_errors: at max the host is blocked until FLUSH HOSTS; a
// successful login starts its count again. Safe for concurrent use.
type connectErrors struct {
	max  int
	mu   sync.Mutex
	errs map[string]int
}

func (h *connectErrors) failed(host string) {
	h.mu.Lock()
	if h.errs == nil {
		h.errs = map[string]int{}
	}
	if h.errs[host] < h.max {
		h.errs[host]++
	}
	h.mu.Unlock()
}

func (h *connectErrors) reset(host string) {
	h.mu.Lock()
	delete(h.errs, host)
	h.mu.Unlock()
}

func (h *connectErrors) blocked(host string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.errs[host] >= h.max
}

// flush unblocks every host (FLUSH HOSTS).
func (h *connectErrors) flush() {
	h.mu.Lock()
	clear(h.errs)
	h.mu.Unlock()
}

// limitConn is one accepted SQL connection.
type limitConn struct {
	net.Conn
	l       *limitListener
	authed  atomic.Bool
	closed  atomic.Bool
	session atomic.Bool // it holds a session slot (claimSession)
	// started: the session was completed at the first command
	// (mariaHandler.connectionStart).
	started atomic.Bool
	// tried says the login got to checking the account (a refused
	// password is no connection error for max_connect_errors).
	tried atomic.Bool

	// running says a statement runs (the statement watch, netlimit.go).
	running atomic.Bool

	// The statement watch (netlimit.go): ctx is the context of the
	// statements run on vitess's background context, cancelled by
	// watchPeers if the client goes while one runs (and at Close);
	// endWatch ends such a watch; cancel is the running statement's own
	// cancel when it had another context.
	ctx        context.Context
	cancelConn context.CancelFunc
	endWatch   func()
	cancel     atomic.Pointer[context.CancelFunc]

	// fastCtx is the first statement context the fast paths made for
	// the connection's session, which later ones copy (fastSession; on
	// the serving goroutine only).
	fastCtx *sql.Context

	// multiRest is what the last ComMultiQuery left of its text, the
	// next call's text when it had more statements (on the serving
	// goroutine only).
	multiRest string
}

// Read counts a read that ended at the connect deadline, and fails once
// the client has sent more than max_allowed_packet without a reply (see
// netlimit.go).
func (c *limitConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if err != nil && !c.authed.Load() {
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			c.l.stats.ConnectTimeouts.Add(1)
		}
	}
	return n, err
}

func (c *limitConn) lift() {
	if c.authed.CompareAndSwap(false, true) && c.l.connectTimeout > 0 {
		c.Conn.SetDeadline(time.Time{})
	}
}

// Close gives the connection's slot back (once). A connection that ends
// before its login was checked (a handshake abandoned, timed out or
// malformed) is a connection error of its host (max_connect_errors).
func (c *limitConn) Close() error {
	if c.closed.CompareAndSwap(false, true) {
		c.l.open.Add(-1)
		c.l.gone(c)
		c.l.leavePending(c)
		if c.session.Load() {
			c.l.sessions.Add(-1)
		} else if c.l.hosts != nil && !c.tried.Load() {
			c.l.hosts.failed(remoteHost(c.RemoteAddr()))
		}
	}
	return c.Conn.Close()
}

// authenticated lifts the connect deadline of the connection behind c (the
// handler calls it from every command, which only an authenticated
// connection sends).
func authenticated(c *mysql.Conn) {
	if lc := limitConnOf(c); lc != nil {
		lc.lift()
	}
}
