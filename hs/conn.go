package hs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"
)

// conn is one pooled connection to one port. It is used by one goroutine
// at a time (the pool hands it out exclusively).
type conn struct {
	nc   net.Conn
	raw  syscall.RawConn // for the liveness check; nil if unavailable
	pool *pool

	rbuf       []byte // read buffer: rbuf[rpos:rend] holds unread bytes
	rpos, rend int
	wbuf       []byte

	opened []bool // opened[id]: index id is open on this connection

	created  time.Time
	lastUsed time.Time
	reused   bool // handed out before: a failure may be a stale connection
	broken   bool // must be closed instead of returned to the pool
	deadline bool // a deadline is set on nc

	// liveness check results (see alive)
	peek    [1]byte
	peekN   int
	peekErr error
	peekFn  func(fd uintptr) bool

	sent, received int // bytes of the current round trip
}

const (
	minReadBuf = 16 << 10
	maxKeepBuf = 1 << 20 // larger buffers are dropped after use
)

func newConn(nc net.Conn, p *pool) *conn {
	c := &conn{nc: nc, pool: p, rbuf: make([]byte, minReadBuf), created: time.Now()}
	if sc, ok := nc.(syscall.Conn); ok {
		if rc, err := sc.SyscallConn(); err == nil {
			c.raw = rc
			c.peekFn = c.peekFd
		}
	}
	return c
}

// isOpen reports whether index id is open on c.
func (c *conn) isOpen(id int) bool { return id < len(c.opened) && c.opened[id] }

func (c *conn) setOpen(id int) {
	for len(c.opened) <= id {
		c.opened = append(c.opened, false)
	}
	c.opened[id] = true
}

// setDeadlines applies the context's deadline and the client's timeouts.
func (c *conn) setDeadlines(ctx context.Context, o *Options) {
	var rd, wd time.Time
	ctxd, hasCtx := ctx.Deadline()
	if o.ReadTimeout > 0 || o.WriteTimeout > 0 {
		now := time.Now()
		if o.ReadTimeout > 0 {
			rd = now.Add(o.ReadTimeout)
		}
		if o.WriteTimeout > 0 {
			wd = now.Add(o.WriteTimeout)
		}
	}
	if hasCtx {
		if rd.IsZero() || ctxd.Before(rd) {
			rd = ctxd
		}
		if wd.IsZero() || ctxd.Before(wd) {
			wd = ctxd
		}
	}
	if rd.IsZero() && wd.IsZero() {
		if c.deadline {
			c.nc.SetDeadline(time.Time{})
			c.deadline = false
		}
		return
	}
	c.nc.SetReadDeadline(rd)
	c.nc.SetWriteDeadline(wd)
	c.deadline = true
}

// write sends b in one write.
func (c *conn) write(b []byte) error {
	n, err := c.nc.Write(b)
	c.sent += n
	if err != nil {
		c.broken = true
	}
	return err
}

// readLine returns the next reply line without its LF. The slice aliases
// the read buffer and is valid until the next readLine.
func (c *conn) readLine() ([]byte, error) {
	scanned := 0
	for {
		if i := bytes.IndexByte(c.rbuf[c.rpos+scanned:c.rend], '\n'); i >= 0 {
			end := c.rpos + scanned + i
			line := c.rbuf[c.rpos:end]
			c.rpos = end + 1
			if c.rpos == c.rend {
				c.rpos, c.rend = 0, 0
			}
			return line, nil
		}
		scanned = c.rend - c.rpos
		// make room: compact, then grow
		if c.rpos > 0 {
			copy(c.rbuf, c.rbuf[c.rpos:c.rend])
			c.rend -= c.rpos
			c.rpos = 0
		}
		if c.rend == len(c.rbuf) {
			nb := make([]byte, 2*len(c.rbuf))
			copy(nb, c.rbuf[:c.rend])
			c.rbuf = nb
		}
		n, err := c.nc.Read(c.rbuf[c.rend:])
		c.rend += n
		c.received += n
		if err != nil {
			if n > 0 {
				continue
			}
			c.broken = true
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
}

// release drops an oversized read buffer once a round trip is over.
func (c *conn) release() {
	if len(c.rbuf) > maxKeepBuf && c.rpos == c.rend {
		c.rbuf = make([]byte, minReadBuf)
		c.rpos, c.rend = 0, 0
	}
	if cap(c.wbuf) > maxKeepBuf {
		c.wbuf = nil
	}
}

// alive reports whether an idle connection still looks usable: the server
// has not closed it and sent nothing unasked. Where the platform offers no
// non-blocking peek it reports true.
func (c *conn) alive() bool {
	if c.raw == nil || !peekSupported {
		return true
	}
	c.peekN, c.peekErr = 0, nil
	if err := c.raw.Read(c.peekFn); err != nil {
		return false
	}
	if c.peekErr != nil {
		return isWouldBlock(c.peekErr)
	}
	// 0 bytes: the server closed the connection; >0: unexpected bytes.
	return false
}

func (c *conn) close() error {
	return c.nc.Close()
}

// auth sends "A 1 <secret>" and checks the reply.
func (c *conn) auth(secret string) error {
	b := append(c.wbuf[:0], "A\t1\t"...)
	b = appendEscapedString(b, secret)
	b = append(b, '\n')
	c.wbuf = b
	if err := c.write(b); err != nil {
		return err
	}
	line, err := c.readLine()
	if err != nil {
		return err
	}
	code, _, rest, err := parseHeader(line)
	if err != nil {
		c.broken = true
		return err
	}
	if code != 0 {
		return serverError(code, rest)
	}
	return nil
}

// parseHeader splits a reply line "code\tncols[\trest]" into its parts.
// For an error reply rest is the token.
func parseHeader(line []byte) (code, ncols int, rest []byte, err error) {
	i := 0
	code, i = parseDecimal(line, i)
	if i < 0 || i >= len(line) || line[i] != '\t' {
		return 0, 0, nil, protocolErr(line)
	}
	ncols, i = parseDecimal(line, i+1)
	if i < 0 {
		return 0, 0, nil, protocolErr(line)
	}
	if i == len(line) {
		return code, ncols, nil, nil
	}
	if line[i] != '\t' {
		return 0, 0, nil, protocolErr(line)
	}
	return code, ncols, line[i+1:], nil
}

// parseDecimal reads the digits of line from i; it returns the index
// after them, or -1 when there are none or too many.
func parseDecimal(line []byte, i int) (int, int) {
	n, start := 0, i
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		if i-start > 17 {
			return 0, -1
		}
		n = n*10 + int(line[i]-'0')
		i++
	}
	if i == start {
		return 0, -1
	}
	return n, i
}

func protocolErr(line []byte) error {
	if len(line) > 80 {
		line = line[:80]
	}
	return fmt.Errorf("%w: unexpected reply %q", ErrProtocol, line)
}
