package netloop

import (
	"crypto/tls"
	"io"
	"net"
	"syscall"
	"time"
)

// transport moves one connection's bytes; the rest of a connection
// (Conn.handle: answer the complete requests, hold a partial one, the
// deadlines, the turns) is written once over it. It is used only by what
// serves the connection.
//
// The three transports:
//   - rawTransport: a goroutine parked on Go's netpoller through
//     syscall.RawConn, which borrows a read buffer only once the socket is
//     readable (a port without loops, and every port off Linux);
//   - tlsTransport: a goroutine in a blocking tls.Conn read (TLS keeps its
//     own record buffers, so an idle TLS connection costs more);
//   - fdTransport: a descriptor an event loop owns (a port with loops on
//     Linux, evloop_linux.go): reads never wait, and output the socket does
//     not take is kept until it is writable.
type transport interface {
	// read appends what the socket holds to held (a pooled buffer when
	// held is nil) and returns the buffer. It waits until the socket is
	// readable or the read deadline passes, except fdTransport, which
	// returns nil and no error when there is nothing to read.
	read(held *[]byte) (*[]byte, error)
	// write sends out, or (fdTransport) keeps what the socket does not
	// take; false means the connection is broken.
	write(out []byte) bool
	// setReadDeadline bounds the next read (zero: none; fdTransport: the
	// event loop's sweep does it).
	setReadDeadline(t time.Time)
	// parks says whether a read that timed out leaves the transport
	// usable, so that serve may move an idle connection to a fresh
	// goroutine.
	parks() bool
	// peerClosed reports whether the peer has closed its side (FIN) or
	// reset the connection, without waiting and without reading: requests
	// it pipelined and that are not answered yet are then dropped (see
	// Conn.serve).
	peerClosed() bool
	// close closes the connection's socket.
	close()
}

// rawTransport is a plain TCP connection served by a goroutine.
type rawTransport struct {
	nc      *net.TCPConn
	rc      syscall.RawConn
	timeout time.Duration // write deadline (0: none)
	// The deadlines set on nc. Setting one is a runtime timer change, so
	// they are moved later only once they lag what is asked by over an
	// eighth of the time left (see lazyDeadline): a read may then end
	// early, which serve takes as a wake-up and not as the deadline.
	rd, wd time.Time
	// The functions rc runs once the socket is ready, made once (newRaw)
	// with the state they use: a closure made per call would be an
	// allocation per request. Their system calls are raw ones (rawRead,
	// rawWrite: see rawsys_linux.go).
	readFn, writeFn func(fd uintptr) bool
	rbuf, rheld     *[]byte
	rn              int
	rerr            error
	wout            []byte
	werr            error
}

// newRaw returns the transport of nc, whose raw connection is rc.
func newRaw(nc *net.TCPConn, rc syscall.RawConn, timeout time.Duration) *rawTransport {
	t := &rawTransport{nc: nc, rc: rc, timeout: timeout}
	t.readFn = func(fd uintptr) bool {
		t.rbuf = readBuf(t.rbuf)
		b := *t.rbuf
		t.rn, t.rerr = rawRead(int(fd), b[len(b):cap(b)])
		if t.rerr == syscall.EAGAIN || t.rerr == syscall.EINTR {
			if t.rheld == nil {
				readPool.Put(t.rbuf)
				t.rbuf = nil
			}
			return false
		}
		return true
	}
	t.writeFn = func(fd uintptr) bool {
		t.wout, t.werr = writeOut(int(fd), t.wout)
		if t.werr == syscall.EAGAIN {
			t.werr = nil
			return false // wait until the socket is writable
		}
		return true
	}
	return t
}

// writeOut writes out to the non-blocking descriptor fd until all of it
// is written, the socket is full (EAGAIN, with what is left) or the
// write fails.
func writeOut(fd int, out []byte) ([]byte, error) {
	for len(out) > 0 {
		n, err := rawWrite(fd, out)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return out, err
		case n <= 0:
			return out, io.ErrShortWrite
		}
		out = out[n:]
	}
	return nil, nil
}

// lazyDeadline reports whether a deadline set at armed must move to want
// (zero: none): when it is later, or none is set, or armed is earlier
// than want by over an eighth of the time left until want.
func lazyDeadline(armed, want, now time.Time) bool {
	switch {
	case want.IsZero() || armed.IsZero():
		return !want.Equal(armed)
	case want.Before(armed):
		return true
	}
	return want.Sub(armed) > want.Sub(now)/8
}

func (t *rawTransport) read(held *[]byte) (*[]byte, error) {
	t.rbuf, t.rheld, t.rn, t.rerr = held, held, 0, nil
	err := t.rc.Read(t.readFn)
	if err == nil {
		err = t.rerr
	}
	buf, n := t.rbuf, t.rn
	t.rbuf, t.rheld, t.rerr = nil, nil, nil
	return readResult(buf, held, n, err)
}

// readResult ends a read of n bytes into buf: at an error, or the end of
// the input, a buffer the read borrowed goes back to the pool.
func readResult(buf, held *[]byte, n int, err error) (*[]byte, error) {
	if err == nil && n <= 0 {
		err = io.EOF
	}
	if err != nil {
		giveBack(buf, held)
		return nil, err
	}
	*buf = (*buf)[:len(*buf)+n]
	return buf, nil
}

func (t *rawTransport) write(out []byte) bool {
	if t.timeout > 0 {
		now := time.Now()
		if want := now.Add(t.timeout); lazyDeadline(t.wd, want, now) {
			t.nc.SetWriteDeadline(want)
			t.wd = want
		}
	}
	t.wout, t.werr = out, nil
	err := t.rc.Write(t.writeFn)
	werr := t.werr
	t.wout, t.werr = nil, nil
	return err == nil && werr == nil
}

func (t *rawTransport) setReadDeadline(d time.Time) {
	if lazyDeadline(t.rd, d, time.Now()) {
		t.nc.SetReadDeadline(d)
		t.rd = d
	}
}
func (t *rawTransport) parks() bool { return true }
func (t *rawTransport) close()      { t.nc.Close() }

// peerClosed polls the socket without waiting (a rare call: only between
// turns of a connection with lines left).
func (t *rawTransport) peerClosed() bool {
	gone := false
	t.rc.Control(func(fd uintptr) { gone = peerGone(int(fd)) })
	return gone
}

// tlsTransport is a TLS connection served by a goroutine.
type tlsTransport struct {
	nc      *net.TCPConn
	tc      *tls.Conn
	timeout time.Duration // write deadline (0: none)
}

func (t *tlsTransport) read(held *[]byte) (*[]byte, error) {
	buf := readBuf(held)
	n, err := t.tc.Read((*buf)[len(*buf):cap(*buf)])
	if err == nil && n == 0 {
		return buf, nil // a TLS record with no data
	}
	return readResult(buf, held, n, err)
}

func (t *tlsTransport) write(out []byte) bool {
	setWriteDeadline(t.nc, t.timeout)
	_, err := t.tc.Write(out)
	return err == nil
}

func (t *tlsTransport) setReadDeadline(d time.Time) { t.tc.SetReadDeadline(d) }

// parks is false: after a timed-out read a tls.Conn is unusable.
func (t *tlsTransport) parks() bool { return false }
func (t *tlsTransport) close()      { t.tc.Close(); t.nc.Close() }

// peerClosed looks at the TCP socket under TLS: a FIN or a reset there
// ends the TLS connection too.
func (t *tlsTransport) peerClosed() bool {
	rc, err := t.nc.SyscallConn()
	if err != nil {
		return false
	}
	gone := false
	rc.Control(func(fd uintptr) { gone = peerGone(int(fd)) })
	return gone
}

func setWriteDeadline(nc *net.TCPConn, timeout time.Duration) {
	if timeout > 0 {
		nc.SetWriteDeadline(time.Now().Add(timeout))
	} else {
		nc.SetWriteDeadline(time.Time{})
	}
}

// giveBack returns a buffer a failed read borrowed (not the held one).
func giveBack(buf, held *[]byte) {
	if buf != nil && buf != held {
		*buf = (*buf)[:0]
		readPool.Put(buf)
	}
}
