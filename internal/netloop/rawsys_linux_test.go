//go:build linux

package netloop

import (
	"bytes"
	"testing"

	"golang.org/x/sys/unix"
)

// TestRawSyscalls: the loops' raw read, write and poll answer as the
// runtime's wrappers do on a non-blocking socket pair: EAGAIN when there
// is nothing, the bytes written, a poll event for them, and a write too
// long to be made raw still written.
func TestRawSyscalls(t *testing.T) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	unix.SetsockoptInt(fds[0], unix.SOL_SOCKET, unix.SO_SNDBUF, 1<<20)
	unix.SetsockoptInt(fds[1], unix.SOL_SOCKET, unix.SO_RCVBUF, 1<<20)
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(epfd)
	if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, fds[1], &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fds[1])}); err != nil {
		t.Fatal(err)
	}
	events := make([]unix.EpollEvent, 4)
	buf := make([]byte, 256<<10)
	if n, err := rawRead(fds[1], buf); n != -1 || err != unix.EAGAIN {
		t.Fatalf("read of an empty socket: %d, %v; want -1, EAGAIN", n, err)
	}
	if n, err := rawPoll(epfd, events); n != 0 || err != nil {
		t.Fatalf("poll with nothing to read: %d, %v", n, err)
	}
	if n, err := rawWrite(fds[0], []byte("1\t=\t1\t2\n")); n != 8 || err != nil {
		t.Fatalf("write: %d, %v", n, err)
	}
	if n, err := rawPoll(epfd, events); n != 1 || err != nil || events[0].Fd != int32(fds[1]) || events[0].Events&unix.EPOLLIN == 0 {
		t.Fatalf("poll after a write: %d, %v, %+v", n, err, events[0])
	}
	if n, err := rawRead(fds[1], buf); err != nil || string(buf[:n]) != "1\t=\t1\t2\n" {
		t.Fatalf("read: %q, %v", buf[:max(n, 0)], err)
	}
	if n, err := rawRead(fds[1], nil); n != 0 || err != nil {
		t.Fatalf("read into nothing: %d, %v", n, err)
	}
	if _, err := rawPoll(-1, events); err != unix.EBADF {
		t.Fatalf("poll of a bad descriptor: %v, want EBADF", err)
	}
	big := bytes.Repeat([]byte("x"), maxRawWrite+1000)
	written := 0
	for written < len(big) {
		n, err := rawWrite(fds[0], big[written:])
		if err == unix.EAGAIN {
			break
		}
		if err != nil || n <= 0 {
			t.Fatalf("long write: %d, %v", n, err)
		}
		written += n
	}
	got := 0
	for got < written {
		n, err := rawRead(fds[1], buf)
		if err != nil {
			t.Fatalf("reading the long write after %d of %d bytes: %v", got, written, err)
		}
		got += n
	}
	if written == 0 || got != written {
		t.Fatalf("long write: %d bytes written, %d read", written, got)
	}
}
