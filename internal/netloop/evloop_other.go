//go:build !linux

package netloop

import (
	"errors"
	"net"
)

// evloop is Linux-only; elsewhere every connection has its goroutine.
type evloop struct{}

func newEvloop(*Listener) (*evloop, error)    { return nil, errors.New("no event loop on this OS") }
func (*evloop) add(*Conn, *net.TCPConn) error { return errors.New("no event loop") }
func (*evloop) shutdown()                     {}
func (*evloop) count() int                    { return 0 }
