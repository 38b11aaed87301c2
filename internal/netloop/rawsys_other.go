//go:build !linux

package netloop

import "syscall"

// rawRead and rawWrite go through the runtime off Linux (see
// rawsys_linux.go for why they are raw there).
func rawRead(fd int, p []byte) (int, error)  { return syscall.Read(fd, p) }
func rawWrite(fd int, p []byte) (int, error) { return syscall.Write(fd, p) }

// peerGone reports false off Linux: there a closed peer's lines are
// stopped by the failed write of their answers.
func peerGone(fd int) bool { return false }
