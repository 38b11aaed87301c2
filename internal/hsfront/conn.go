package hsfront

import (
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/handlerdb/handlerdb/internal/hsproto"
)

// Buffers. A connection holds no buffer while it waits for input: it parks
// on the netpoller through syscall.RawConn and borrows a read buffer from a
// pool only once the socket is readable, returning it when every complete
// line is answered. Only a connection holding a partial line keeps one.
const readBufSize = 16 << 10

var (
	readPool = sync.Pool{New: func() any { b := make([]byte, 0, readBufSize); return &b }}
	outPool  = sync.Pool{New: func() any { b := make([]byte, 0, readBufSize); return &b }}
)

var nextConnID atomic.Uint64

// Connection states for ConnInfo.
const (
	stateIdle uint32 = iota
	stateExec
	stateWrite
)

// conn is one client connection: its transport, its protocol state and
// what ConnInfo shows. Everything but the atomics and open is touched only
// by what serves it (see transport).
type conn struct {
	s     *Server
	t     transport
	nc    *net.TCPConn // the accepted socket (an event loop serves a duplicate of it)
	write bool
	id    uint64
	since time.Time

	requests atomic.Int64
	state    atomic.Uint32
	closing  atomic.Bool

	peer   net.Addr
	peerIP string // the peer's address without the port, for per-peer limits

	// lastActive is when the connection last had a request answered (or
	// was opened), partialSince when its held partial line began (zero:
	// none); more says held still has complete lines for another turn.
	lastActive   time.Time
	partialSince time.Time
	more         bool

	held *[]byte // read buffer kept while it holds a partial line
	sess session // open indexes and auth
	turn turn    // the turn being answered
	mu   sync.Mutex
	open int // number of open indexes, for ConnInfo (guarded by mu)
}

func newConn(s *Server, nc *net.TCPConn, write bool) *conn {
	now := time.Now()
	c := &conn{s: s, nc: nc, write: write, id: nextConnID.Add(1), since: now, lastActive: now, peer: nc.RemoteAddr()}
	if a, ok := c.peer.(*net.TCPAddr); ok {
		c.peerIP = a.IP.String()
	}
	c.sess.init(s, write)
	c.sess.c = c
	return c
}

// deadline is when a connection waiting for input is closed: Timeout after
// its last answered request, or LineTimeout after its partial line began.
// Zero means never.
func (c *conn) deadline() time.Time {
	var d time.Time
	if t := c.s.cfg.Timeout; t > 0 {
		d = c.lastActive.Add(t)
	}
	if t := c.s.cfg.LineTimeout; t > 0 && !c.partialSince.IsZero() {
		if p := c.partialSince.Add(t); d.IsZero() || p.Before(d) {
			d = p
		}
	}
	return d
}

func (c *conn) info() ConnInfo {
	c.mu.Lock()
	open := c.open
	c.mu.Unlock()
	state := [...]string{"idle", "executing", "writing"}[c.state.Load()]
	return ConnInfo{ID: c.id, Write: c.write, Peer: c.peer.String(), OpenIndex: open,
		Requests: c.requests.Load(), State: state, Since: c.since}
}

// shutdown asks the connection to finish its current batch and close (it
// may run while start is choosing the transport, so it touches only the
// accepted socket; an event loop's connections are closed by the loop's
// own shutdown, and their accepted socket is already closed).
func (c *conn) shutdown() {
	c.closing.Store(true)
	if c.nc != nil {
		c.nc.SetReadDeadline(time.Now())
	}
}

// start serves a connection on its own goroutine: over TLS when TLS is on
// and its first bytes are a handshake, else as plain text.
func (c *conn) start(nc *net.TCPConn) {
	rc, err := nc.SyscallConn()
	if err != nil {
		nc.Close()
		c.release()
		c.s.forget(c)
		return
	}
	timeout := max(c.s.cfg.Timeout, 0)
	c.t = newRaw(nc, rc, timeout)
	if cfg := c.s.cfg.TLS; cfg != nil {
		isTLS, err := peekTLS(nc, rc, c.deadline())
		switch {
		case err != nil, !isTLS && c.s.cfg.TLSRequired:
			c.finish()
			return
		case isTLS:
			c.t = &tlsTransport{nc: nc, tc: tls.Server(nc, cfg), timeout: timeout}
		}
	}
	c.serve(true)
}

// peekTLS waits for the first byte and reports whether it starts a TLS
// handshake (a record of type 22). No request line can start with it.
func peekTLS(nc *net.TCPConn, rc syscall.RawConn, deadline time.Time) (bool, error) {
	nc.SetReadDeadline(deadline)
	var b [1]byte
	var n int
	var rerr error
	err := rc.Read(func(fd uintptr) bool {
		n, _, rerr = syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK)
		return rerr != syscall.EAGAIN
	})
	if err == nil {
		err = rerr
	}
	if err == nil && n == 0 {
		err = io.EOF
	}
	return err == nil && b[0] == 0x16, err
}

// parkAfter is how long a connection waits for its next batch on the
// goroutine that served the last one before it moves to a fresh one.
const parkAfter = time.Second

// serve reads and answers batches until the connection ends (goroutine
// transports). Executing requests grows a goroutine's stack (4-8 KiB),
// and the runtime never shrinks a parked goroutine below what its frames
// use; so a connection that stays idle for parkAfter moves to a fresh
// goroutine, with the small initial stack, to wait, where its transport
// allows. A busy connection stays on its goroutine (moving per batch would
// grow a new stack every time).
//
// fresh says the goroutine has just started (its stack is small).
func (c *conn) serve(fresh bool) {
	for !c.closing.Load() {
		if c.more {
			// The last turn left complete lines: answer them before
			// reading more, unless the peer has closed (it would not
			// read the answers).
			if c.t.peerClosed() || !c.handle(c.held) {
				break
			}
			fresh = false
			continue
		}
		deadline := c.deadline()
		probe := c.t.parks() && !fresh && (deadline.IsZero() || time.Until(deadline) > parkAfter)
		if probe {
			c.t.setReadDeadline(time.Now().Add(parkAfter))
		} else {
			c.t.setReadDeadline(deadline)
		}
		buf, err := c.t.read(c.held)
		if errors.Is(err, os.ErrDeadlineExceeded) && !c.closing.Load() {
			if probe {
				go c.serve(true)
				return
			}
			if d := c.deadline(); d.IsZero() || time.Now().Before(d) {
				// A deadline armed lazily (rawTransport) ended the
				// read before the connection's own.
				continue
			}
		}
		if err != nil {
			c.countExpired(err)
			break
		}
		if !c.handle(buf) {
			break
		}
		fresh = false
	}
	c.finish()
}

// countExpired counts a read that ended at the connection's deadline.
func (c *conn) countExpired(err error) {
	if errors.Is(err, os.ErrDeadlineExceeded) && !c.closing.Load() {
		c.s.stats.Expired.Add(1)
	}
}

// finish closes the connection and releases everything it holds.
func (c *conn) finish() {
	c.t.close()
	c.release()
	c.sess.releaseLocks()
	c.s.forget(c)
}

// handle answers what buf holds and reports whether the connection stays
// open. It is kept out of serve's frame so that a parked connection's
// stack stays small (the runtime shrinks it back at the next GC).
//
//go:noinline
func (c *conn) handle(buf *[]byte) bool {
	if hsproto.IsCloseRequest(*buf) {
		return false
	}
	c.beginTurn(buf)
	for !c.sess.step(c, &c.turn.bs) {
		c.sess.resume(c, &c.turn.bs, c.sess.runJobs(c.turn.bs.sc))
	}
	return c.endTurn()
}

// turn is a connection's turn in progress: the buffer it answers, the
// output and the batch (see session.batch).
type turn struct {
	buf *[]byte
	out *[]byte
	bs  batchState
}

// beginTurn starts answering buf's complete lines (c.sess.step goes on).
func (c *conn) beginTurn(buf *[]byte) {
	c.state.Store(stateExec)
	c.turn.buf = buf
	c.turn.out = outPool.Get().(*[]byte)
	c.sess.begin(&c.turn.bs, *buf, c.turn.out)
}

// endTurn writes the turn's answers, keeps a partial line and reports
// whether the connection stays open.
func (c *conn) endTurn() bool {
	buf, out := c.turn.buf, c.turn.out
	c.turn.buf, c.turn.out = nil, nil
	consumed, closeAfter := c.sess.end(&c.turn.bs)
	rest := (*buf)[consumed:]
	more := bytes.IndexByte(rest, '\n') >= 0
	if !more && len(rest) > c.sess.maxLine() {
		*out = hsproto.AppendError(*out, hsproto.ErrLinelen)
		closeAfter = true
	}
	if consumed > 0 {
		c.lastActive = time.Now()
		c.partialSince = time.Time{}
	}
	if !more && len(rest) > 0 && c.partialSince.IsZero() {
		c.partialSince = time.Now()
	}
	c.state.Store(stateWrite)
	if len(*out) > 0 && !c.t.write(*out) {
		closeAfter = true
	}
	*out = (*out)[:0]
	if cap(*out) <= 4*readBufSize {
		outPool.Put(out)
	}
	c.state.Store(stateIdle)
	if closeAfter {
		c.more = false
		return false
	}
	c.keep(buf, rest)
	c.more = more
	return true
}

// keep holds a partial line for the next read, or gives the buffer back.
func (c *conn) keep(buf *[]byte, rest []byte) {
	if len(rest) == 0 {
		c.held = nil
		*buf = (*buf)[:0]
		if cap(*buf) <= 4*readBufSize {
			readPool.Put(buf)
		}
		return
	}
	n := copy((*buf)[:cap(*buf)], rest)
	*buf = (*buf)[:n]
	c.held = buf
}

func (c *conn) release() {
	if c.held != nil {
		*c.held = (*c.held)[:0]
		readPool.Put(c.held)
		c.held = nil
	}
}

// readBuf returns buf (the held buffer), or a pooled one when it is nil,
// with room to read into: a full buffer doubles.
func readBuf(buf *[]byte) *[]byte {
	if buf == nil {
		buf = readPool.Get().(*[]byte)
	}
	if len(*buf) == cap(*buf) {
		grown := make([]byte, len(*buf), 2*cap(*buf))
		copy(grown, *buf)
		*buf = grown
	}
	return buf
}
