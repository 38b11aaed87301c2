//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package hs

const peekSupported = false

func (c *conn) peekFd(fd uintptr) bool { return true }

func isWouldBlock(err error) bool { return false }
