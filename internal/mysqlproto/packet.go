package mysqlproto

import (
	"bufio"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync/atomic"
)

// maxPiece is the largest payload one packet carries; a longer payload is
// sent as pieces of this size followed by a shorter one (possibly empty).
const maxPiece = 1<<24 - 1

// ErrPacketTooLarge is returned by ReadPacket for a payload over the
// limit set with SetMaxPacket; the rest of it has been read and dropped,
// so the caller may answer (MariaDB answers 1153 and closes).
var ErrPacketTooLarge = errors.New("mysqlproto: packet larger than max_allowed_packet")

// ErrSequence is returned for a packet whose sequence number is not the
// next one: the stream is out of step and cannot be trusted further.
var ErrSequence = errors.New("mysqlproto: packet out of sequence")

// Conn is the packet stream of one client connection. Its zero value is
// not usable; make one with NewConn.
//
// Concurrency: one goroutine reads and writes; Close may be called from
// any goroutine.
type Conn struct {
	nc     net.Conn
	r      *bufio.Reader
	w      *bufio.Writer
	seq    uint8
	max    int // largest payload ReadPacket accepts; 0 = no limit
	closed atomic.Bool

	// What the client and server agreed on at the handshake (both sides'
	// capability bits); zero before it.
	Capabilities uint32

	hdr     [4]byte
	scratch []byte // a packet being built (result.go)
	rbuf    []byte // the last packet read, reused for the next
}

// NewConn wraps nc. The buffers are sized for typical answers; a larger
// payload passes through them in pieces.
func NewConn(nc net.Conn) *Conn {
	return &Conn{nc: nc, r: bufio.NewReaderSize(nc, 16<<10), w: bufio.NewWriterSize(nc, 16<<10)}
}

// NetConn is the connection under the packet stream (a *tls.Conn after a
// TLS upgrade).
func (c *Conn) NetConn() net.Conn { return c.nc }

// SetMaxPacket sets the largest payload ReadPacket accepts (0: no limit).
func (c *Conn) SetMaxPacket(n int) { c.max = n }

// ResetSequence starts a new exchange: the client's next packet (a
// command) has sequence number 0.
func (c *Conn) ResetSequence() { c.seq = 0 }

// SetSequence sets the sequence number of the next packet written: a
// binary log dump's next event after a semi-sync replica's
// acknowledgement (which the replica sends as packet 0) is packet 1.
func (c *Conn) SetSequence(n uint8) { c.seq = n }

// Close closes the connection. Safe from any goroutine, and more than once.
func (c *Conn) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	return c.nc.Close()
}

// ReadPacket reads one payload, joining the pieces of one of 16 MiB or
// more. The returned slice is valid until the next read: a caller that
// keeps any of it copies it.
func (c *Conn) ReadPacket() ([]byte, error) {
	data := c.rbuf[:0]
	tooLarge := false
	for {
		if _, err := io.ReadFull(c.r, c.hdr[:]); err != nil {
			return nil, err
		}
		n := int(c.hdr[0]) | int(c.hdr[1])<<8 | int(c.hdr[2])<<16
		if c.hdr[3] != c.seq {
			return nil, fmt.Errorf("%w: got %d, want %d", ErrSequence, c.hdr[3], c.seq)
		}
		c.seq++
		if tooLarge || (c.max > 0 && len(data)+n > c.max) {
			tooLarge = true
			if _, err := c.r.Discard(n); err != nil {
				return nil, err
			}
		} else {
			start := len(data)
			data = append(data, make([]byte, n)...)
			if _, err := io.ReadFull(c.r, data[start:]); err != nil {
				return nil, err
			}
		}
		if n < maxPiece {
			break
		}
	}
	if tooLarge {
		return nil, ErrPacketTooLarge
	}
	if cap(data) <= maxScratch {
		c.rbuf = data[:0] // (kept for the next packet)
	}
	return data, nil
}

// ReadSidePacket reads one packet of at most max bytes whatever its
// sequence number, into buf (grown as needed), and returns it: a semi-sync
// replica's acknowledgements, which come with sequence number 0 while a
// binary log dump writes the other way. It touches only the reading side,
// so one goroutine may call it while another writes; nothing else may read
// meanwhile.
func (c *Conn) ReadSidePacket(buf []byte, max int) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(c.r, hdr[:]); err != nil {
		return nil, err
	}
	n := int(hdr[0]) | int(hdr[1])<<8 | int(hdr[2])<<16
	if n > max {
		return nil, ErrPacketTooLarge
	}
	buf = append(buf[:0], make([]byte, n)...)
	if _, err := io.ReadFull(c.r, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// WritePacket buffers one payload, split into pieces as the protocol
// requires. Nothing reaches the client before Flush.
func (c *Conn) WritePacket(p []byte) error {
	for {
		n := len(p)
		if n > maxPiece {
			n = maxPiece
		}
		c.hdr = [4]byte{byte(n), byte(n >> 8), byte(n >> 16), c.seq}
		c.seq++
		if _, err := c.w.Write(c.hdr[:]); err != nil {
			return err
		}
		if _, err := c.w.Write(p[:n]); err != nil {
			return err
		}
		p = p[n:]
		if n < maxPiece {
			return nil
		}
	}
}

// Flush sends what the writers buffered.
func (c *Conn) Flush() error { return c.w.Flush() }

// upgradeTLS runs the server side of a TLS handshake on the connection
// and reads the rest of the stream through it. The client may have sent
// its first TLS bytes right behind the SSL request, so what the reader
// buffered is read first.
func (c *Conn) upgradeTLS(cfg *tls.Config) error {
	raw := c.nc
	if n := c.r.Buffered(); n > 0 {
		early, _ := c.r.Peek(n)
		raw = &prefixConn{Conn: raw, prefix: append([]byte(nil), early...)}
	}
	tc := tls.Server(raw, cfg)
	if err := tc.Handshake(); err != nil {
		return err
	}
	c.nc = tc
	c.r.Reset(tc)
	c.w.Reset(tc)
	return nil
}

// prefixConn is a connection whose first bytes were already read from it.
type prefixConn struct {
	net.Conn
	prefix []byte
}

// NetConn is the connection read from (as *tls.Conn's NetConn names the
// connection under it).
func (p *prefixConn) NetConn() net.Conn { return p.Conn }

func (p *prefixConn) Read(b []byte) (int, error) {
	if len(p.prefix) > 0 {
		n := copy(b, p.prefix)
		p.prefix = p.prefix[n:]
		return n, nil
	}
	return p.Conn.Read(b)
}
