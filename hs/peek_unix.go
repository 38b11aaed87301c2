//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package hs

import (
	"errors"
	"syscall"
)

const peekSupported = true

// peekFd looks at the socket without blocking or consuming data (the
// runtime keeps it non-blocking). It runs inside RawConn.Read.
func (c *conn) peekFd(fd uintptr) bool {
	n, _, err := syscall.Recvfrom(int(fd), c.peek[:], syscall.MSG_PEEK)
	c.peekN, c.peekErr = n, err
	return true
}

func isWouldBlock(err error) bool {
	return errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EWOULDBLOCK)
}
