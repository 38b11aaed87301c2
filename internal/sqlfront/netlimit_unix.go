//go:build unix

package sqlfront

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// peerClosed reports whether the client has closed its side of the
// connection (or reset it) with nothing left unread, without consuming
// anything.
func (c *limitConn) peerClosed() bool {
	sc, ok := c.Conn.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	closed := false
	_ = raw.Control(func(fd uintptr) {
		var b [1]byte
		n, _, err := unix.Recvfrom(int(fd), b[:], unix.MSG_PEEK|unix.MSG_DONTWAIT)
		closed = (n == 0 && err == nil) || errors.Is(err, unix.ECONNRESET)
	})
	return closed
}
