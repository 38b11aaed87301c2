//go:build !unix

package sqlfront

// peerClosed is not known on this platform.
func (c *limitConn) peerClosed() bool { return false }
