//go:build !linux

package hsfront

import (
	"errors"
	"net"
)

// evloop is Linux-only; elsewhere every connection has its goroutine.
type evloop struct{}

func newEvloop(*Server, bool) (*evloop, error) { return nil, errors.New("no event loop on this OS") }
func (*evloop) add(*conn, *net.TCPConn) error  { return errors.New("no event loop") }
func (*evloop) shutdown()                      {}
