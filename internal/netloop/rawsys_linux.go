//go:build linux

package netloop

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The event loops' system calls never block: a read or write of a
// non-blocking socket, epoll_wait with a zero timeout; nor do those a
// goroutine connection makes through its raw connection (rawTransport),
// which waits on the netpoller between them. So they are made as raw
// system calls, without the runtime's entersyscall and exitsyscall
// around them. Besides their own cost, every system call entered while the
// runtime's monitor thread (sysmon) sleeps, which it does whenever every
// processor is idle, wakes that thread, and it then polls every 20 µs for
// a while before it sleeps again: serving one request at a time, those
// wake-ups were a fifth of the server's CPU (perf, get 1x1), and durable
// inserts over 64 connections took 18% more CPU each without raw calls. A raw call
// keeps its processor for its duration, so long writes (a big reply into
// an empty socket buffer) still go through the runtime (maxRawWrite).

// maxRawWrite is the largest write made raw: copying more into a socket
// could hold the processor long enough to delay a stop of the world.
const maxRawWrite = 64 << 10

// rawRead is read(2) on a non-blocking descriptor.
func rawRead(fd int, p []byte) (int, error) { return rawIO(unix.SYS_READ, fd, p) }

// rawWrite is write(2) on a non-blocking descriptor.
func rawWrite(fd int, p []byte) (int, error) {
	if len(p) > maxRawWrite {
		return unix.Write(fd, p)
	}
	return rawIO(unix.SYS_WRITE, fd, p)
}

// rawIO makes the read or write trap of p on fd.
func rawIO(trap uintptr, fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r, _, e := unix.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}

// rawPoll is epoll_wait(2) with a zero timeout.
func rawPoll(epfd int, events []unix.EpollEvent) (int, error) {
	if len(events) == 0 {
		return 0, nil
	}
	r, _, e := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), 0, 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(r), nil
}

// peerGone reports whether the peer of socket fd has closed or reset the
// connection (POLLRDHUP, POLLHUP or POLLERR, seen without waiting, even
// with input still unread).
func peerGone(fd int) bool {
	p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLRDHUP}}
	n, err := unix.Poll(p, 0)
	return err == nil && n > 0 && p[0].Revents&(unix.POLLRDHUP|unix.POLLHUP|unix.POLLERR) != 0
}
