package sqlfront

import (
	"crypto/tls"
	"encoding/binary"
	"net"
	"sync/atomic"
	"time"

	"github.com/dolthub/vitess/go/mysql"
)

// limitListener is the SQL port's listener as go-mysql-server sees it: it
// holds the port to MaxConnections (one more connection is answered
// MySQL's error 1040 in place of the handshake and closed) and gives each
// connection ConnectTimeout to authenticate (a deadline, lifted by the
// handshake's OK packet or the first command). Safe for concurrent use.
type limitListener struct {
	net.Listener
	max            int64
	connectTimeout time.Duration
	stats          *Stats
	open           atomic.Int64
}

// Accept returns the next connection within the limit.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.max > 0 && l.open.Add(1) > l.max {
			l.open.Add(-1)
			l.stats.Refused.Add(1)
			go refuseTooMany(nc)
			continue
		} else if l.max <= 0 {
			l.open.Add(1)
		}
		n := maxAllowedPacket()
		lc := &limitConn{Conn: nc, l: l, maxUnanswered: n + n/64 + 64<<10}
		if l.connectTimeout > 0 {
			nc.SetDeadline(time.Now().Add(l.connectTimeout))
		}
		return lc, nil
	}
}

// refuseTooMany sends the ERR packet mysqld sends when max_connections is
// reached (1040, SQLSTATE 08004) and closes the connection.
func refuseTooMany(nc net.Conn) {
	const msg = "Too many connections"
	payload := append([]byte{0xff, 0, 0, '#', '0', '8', '0', '0', '4'}, msg...)
	binary.LittleEndian.PutUint16(payload[1:3], mysql.ERConCount)
	pkt := []byte{byte(len(payload)), byte(len(payload) >> 8), byte(len(payload) >> 16), 0}
	nc.SetWriteDeadline(time.Now().Add(time.Second))
	nc.Write(append(pkt, payload...))
	nc.Close()
}

// limitConn is one accepted SQL connection.
type limitConn struct {
	net.Conn
	l      *limitListener
	authed atomic.Bool
	closed atomic.Bool
	// okHeader says the last write was the header of a packet that may be
	// the handshake's OK (touched only by the serving goroutine's writes).
	okHeader bool

	// Packet limits (netlimit.go): the bytes the client may send before
	// a reply, those it has sent since the last write, and whether a
	// statement runs (its reads, LOAD DATA LOCAL's file, do not count).
	maxUnanswered int64
	unanswered    atomic.Int64
	running       atomic.Bool
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
	if n > 0 && !c.running.Load() && c.unanswered.Add(int64(n)) > c.maxUnanswered {
		return 0, errPacketTooLarge
	}
	return n, err
}

// Write lifts the connect deadline once the server sends the OK packet
// that ends a plain-text handshake: a packet of sequence number 2 or more
// whose payload starts with 0x00 (vitess writes a packet's 4-byte header
// and its payload separately). A TLS connection's records never look like
// one (their second byte is 3); for those the first command lifts it.
func (c *limitConn) Write(b []byte) (int, error) {
	c.unanswered.Store(0)
	if !c.authed.Load() {
		okHeader := func(h []byte) bool { return h[1] == 0 && h[2] == 0 && h[3] >= 2 }
		switch {
		case len(b) == 4:
			c.okHeader = okHeader(b)
		case c.okHeader && len(b) > 0 && b[0] == 0, len(b) >= 5 && okHeader(b) && b[4] == 0:
			c.lift()
		default:
			c.okHeader = false
		}
	}
	return c.Conn.Write(b)
}

func (c *limitConn) lift() {
	if c.authed.CompareAndSwap(false, true) && c.l.connectTimeout > 0 {
		c.Conn.SetDeadline(time.Time{})
	}
}

// Close gives the connection's slot back (once).
func (c *limitConn) Close() error {
	if c.closed.CompareAndSwap(false, true) {
		c.l.open.Add(-1)
	}
	return c.Conn.Close()
}

// authenticated lifts the connect deadline of the connection behind c (the
// handler calls it from every command, which only an authenticated
// connection sends).
func authenticated(c *mysql.Conn) {
	nc := c.Conn
	if tc, ok := nc.(*tls.Conn); ok {
		nc = tc.NetConn()
	}
	if lc, ok := nc.(*limitConn); ok {
		lc.lift()
	}
}
