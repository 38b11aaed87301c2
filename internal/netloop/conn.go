package netloop

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Buffers. A connection holds no buffer while it waits for input: it parks
// on the netpoller through syscall.RawConn and borrows a read buffer from a
// pool only once the socket is readable, returning it when every complete
// request is answered. Only a connection holding a partial request keeps
// one.
const readBufSize = 16 << 10

var (
	readPool = sync.Pool{New: func() any { b := make([]byte, 0, readBufSize); return &b }}
	outPool  = sync.Pool{New: func() any { b := make([]byte, 0, readBufSize); return &b }}
)

var nextConnID atomic.Uint64

// Connection states for ConnInfo.State.
const (
	stateIdle uint32 = iota
	stateExec
	stateWrite
)

// Conn is one client connection: its transport, its input and what
// ConnInfo shows. Everything but the atomics is touched only by what
// serves it (see transport).
type Conn struct {
	l     *Listener
	t     transport
	nc    *net.TCPConn // the accepted socket (an event loop serves a duplicate of it)
	id    uint64
	since time.Time

	state   atomic.Uint32
	closing atomic.Bool

	peer   net.Addr
	peerIP string // the peer's address without the port, for per-peer limits

	// lastActive is when the connection last had a request answered (or
	// was opened), partialSince when its held partial request began
	// (zero: none); more says held still has complete requests for
	// another turn.
	lastActive   time.Time
	partialSince time.Time
	more         bool

	held *[]byte // read buffer kept while it holds a partial request
	sess Session
	turn turn // the turn being answered
}

func newConn(l *Listener, nc *net.TCPConn) *Conn {
	now := time.Now()
	c := &Conn{l: l, nc: nc, id: nextConnID.Add(1), since: now, lastActive: now, peer: nc.RemoteAddr()}
	if a, ok := c.peer.(*net.TCPAddr); ok {
		c.peerIP = a.IP.String()
	}
	return c
}

// ID is the connection's number, unique in the process.
func (c *Conn) ID() uint64 { return c.id }

// Peer is the client's address.
func (c *Conn) Peer() net.Addr { return c.peer }

// PeerIP is the client's IP address as text ("" when unknown).
func (c *Conn) PeerIP() string { return c.peerIP }

// deadline is when a connection waiting for input is closed: Timeout after
// its last answered request, or LineTimeout after its partial request
// began.
// Zero means never.
func (c *Conn) deadline() time.Time {
	var d time.Time
	if t := c.l.cfg.Timeout; t > 0 {
		d = c.lastActive.Add(t)
	}
	if t := c.l.cfg.LineTimeout; t > 0 && !c.partialSince.IsZero() {
		if p := c.partialSince.Add(t); d.IsZero() || p.Before(d) {
			d = p
		}
	}
	return d
}

func (c *Conn) info() ConnInfo {
	state := [...]string{"idle", "executing", "writing"}[c.state.Load()]
	return ConnInfo{ID: c.id, Peer: c.peer.String(), State: state, Since: c.since, Session: c.sess}
}

// shutdown asks the connection to finish its current batch and close (it
// may run while start is choosing the transport, so it touches only the
// accepted socket; an event loop's connections are closed by the loop's
// own shutdown, and their accepted socket is already closed).
func (c *Conn) shutdown() {
	c.closing.Store(true)
	if c.nc != nil {
		c.nc.SetReadDeadline(time.Now())
	}
}

// start serves a connection on its own goroutine: over TLS when TLS is on
// and its first bytes are a handshake, else as plain text.
func (c *Conn) start(nc *net.TCPConn) {
	rc, err := nc.SyscallConn()
	if err != nil {
		nc.Close()
		c.release()
		c.sess.Close()
		c.l.forget(c)
		return
	}
	timeout := max(c.l.cfg.Timeout, 0)
	c.t = newRaw(nc, rc, timeout)
	if cfg := c.l.cfg.TLS; cfg != nil {
		isTLS, err := peekTLS(nc, rc, c.deadline())
		switch {
		case err != nil, !isTLS && c.l.cfg.TLSRequired:
			c.finish()
			return
		case isTLS:
			c.t = &tlsTransport{nc: nc, tc: tls.Server(nc, cfg), timeout: timeout}
		}
	}
	c.serve(true)
}

// peekTLS waits for the first byte and reports whether it starts a TLS
// handshake (a record of type 22). The protocols served here start no
// request with that byte.
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
func (c *Conn) serve(fresh bool) {
	for !c.closing.Load() {
		if c.more {
			// The last turn left complete requests: answer them before
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
func (c *Conn) countExpired(err error) {
	if errors.Is(err, os.ErrDeadlineExceeded) && !c.closing.Load() {
		c.l.cfg.Counters.Expired.Add(1)
	}
}

// finish closes the connection and releases everything it holds.
func (c *Conn) finish() {
	c.t.close()
	c.release()
	c.sess.Close()
	c.l.forget(c)
}

// handle answers what buf holds and reports whether the connection stays
// open. It is kept out of serve's frame so that a parked connection's
// stack stays small (the runtime shrinks it back at the next GC).
//
//go:noinline
func (c *Conn) handle(buf *[]byte) bool {
	if c.sess.Quit(*buf) {
		return false
	}
	c.beginTurn(buf)
	for !c.sess.Step() {
		c.sess.Resume(c.runJobs())
	}
	return c.endTurn()
}

// runJobs runs the session's prepared job on the writer, and again after
// each row lock it stalled at is had; it returns the last run's result.
// For the goroutine transports, which may block.
func (c *Conn) runJobs() error {
	e, ctx := c.l.cfg.Engine, c.l.cfg.JobCtx
	err := e.Update(ctx, c.sess.Job())
	for err == nil && c.sess.Stalled() {
		if !c.sess.Wait() {
			break
		}
		err = e.Update(ctx, c.sess.Job())
	}
	return err
}

// turn is a connection's turn in progress: the buffer it answers and the
// output.
type turn struct {
	buf *[]byte
	out *[]byte
}

// beginTurn starts answering buf's complete requests (the session's Step
// goes on).
func (c *Conn) beginTurn(buf *[]byte) {
	c.state.Store(stateExec)
	c.turn.buf = buf
	c.turn.out = outPool.Get().(*[]byte)
	c.sess.Begin(*buf, c.turn.out)
}

// endTurn writes the turn's answers, keeps a partial request and reports
// whether the connection stays open.
func (c *Conn) endTurn() bool {
	buf, out := c.turn.buf, c.turn.out
	c.turn.buf, c.turn.out = nil, nil
	consumed, closeAfter := c.sess.End()
	rest := (*buf)[consumed:]
	more := c.sess.Complete(rest)
	if !more && len(rest) > c.sess.MaxPartial() {
		*out = c.sess.TooLong(*out)
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

// keep holds a partial request for the next read, or gives the buffer
// back.
func (c *Conn) keep(buf *[]byte, rest []byte) {
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

func (c *Conn) release() {
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
