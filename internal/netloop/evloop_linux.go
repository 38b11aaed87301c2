//go:build linux

package netloop

import (
	"errors"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// A port with loops is served by a few event loops instead of a goroutine
// per connection, the way HandlerSocket's plugin does it: each loop waits
// in epoll_wait and answers every ready connection with one read and one
// write. For point reads this saves, per request, the extra read that
// finds the socket empty and the goroutine wake-ups of Go's netpoller,
// and an idle connection costs only its state (no goroutine, no stack).
// Reads never wait on anything but the engine, so a read loop never
// blocks.
//
// A write port's loops (Config.Write) run each ready connection's turn up
// to its first job for the writer, parsed and converted (Session.Step),
// and, after the round, hand the writer the jobs of all those connections
// as one UpdateAll: one hand-off and one wake-up per round instead of per
// connection, and the jobs commit in one group. Then each is answered
// (Session.Resume), its turn goes on, and its answers are written with
// one write per connection. A turn with a further job waits for the next
// round. The loop waits for
// the commit; with several loops, one prepares while another's group is
// applied. (Not waiting, with the completion coming back through the
// loop's eventfd, was measured slower: the netpoller's wake-up costs more
// than a goroutine's, and in DurabilitySync, where a commit waits for an
// fsync, goroutines per connection gave the shortest latency; so that
// mode keeps them by default, see Config.WriteLoops.)

// evloop is one event loop. Its connections are touched only by its
// goroutine, except for registration (under mu).
//
// The loop never blocks in epoll_wait itself: its epoll descriptor is
// registered with Go's netpoller, the loop asks it for events without
// waiting, and parks on the netpoller when there are none. (A goroutine
// blocked in a system call makes the runtime's monitor hand its processor
// around every 20 µs, which costs more than the requests.)
type evloop struct {
	lst    *Listener
	write  bool // Config.Write
	epfd   int
	epfile *os.File        // epfd as the netpoller sees it
	eprc   syscall.RawConn // to park on epfd's readiness
	wakefd int             // eventfd: wakes the loop to stop

	mu    sync.Mutex
	conns map[int32]*fdTransport
	stop  bool
	done  chan struct{}
	// unlocked (under mu) holds the connections whose row lock wait
	// ended (waitRowLock), for the loop to go on with; exited says the
	// loop has closed its connections and takes no more.
	unlocked []*fdTransport
	exited   bool

	// ready holds the connections whose last turn stopped at its budget
	// with complete requests left; they get their next turn after the
	// events of this round (touched only by the loop's goroutine).
	ready, spare []*fdTransport

	// waiting (write loops) holds the connections whose turn stopped at
	// a prepared job; commitRuns hands the jobs to the writer after the
	// round. Touched only by the loop's goroutine, like fns and errs,
	// UpdateAll's arguments.
	waiting, waitNext []*fdTransport
	fns               []func(*engine.Job) error
	errs              []error
}

// fdTransport is a connection's descriptor in an event loop (see
// transport). pending is output the socket has not taken yet; paused says
// the loop stopped watching for input, gone that the loop closed it.
type fdTransport struct {
	c       *Conn
	fd      int
	loop    *evloop
	pending []byte
	paused  bool
	gone    bool
	busy    bool // its turn waits in the loop's waiting list
}

func newEvloop(lst *Listener) (*evloop, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	wfd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		unix.Close(epfd)
		return nil, err
	}
	if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, wfd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(wfd)}); err != nil {
		unix.Close(epfd)
		unix.Close(wfd)
		return nil, err
	}
	unix.SetNonblock(epfd, true)
	f := os.NewFile(uintptr(epfd), "netloop-epoll")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		unix.Close(wfd)
		return nil, err
	}
	l := &evloop{lst: lst, write: lst.cfg.Write, epfd: epfd, epfile: f, eprc: rc, wakefd: wfd, conns: map[int32]*fdTransport{}, done: make(chan struct{})}
	go l.run()
	return l, nil
}

// add takes over a TCP connection: its descriptor is duplicated out of
// Go's netpoller into the loop's epoll set.
func (l *evloop) add(c *Conn, tc *net.TCPConn) error {
	rc, err := tc.SyscallConn()
	if err != nil {
		return err
	}
	fd := -1
	var derr error
	if err := rc.Control(func(f uintptr) { fd, derr = unix.Dup(int(f)) }); err != nil {
		return err
	}
	tc.Close()
	if derr != nil {
		return derr
	}
	unix.SetNonblock(fd, true)
	unix.CloseOnExec(fd)
	t := &fdTransport{c: c, fd: fd, loop: l}
	c.t = t
	l.mu.Lock()
	if l.stop {
		l.mu.Unlock()
		unix.Close(fd)
		return net.ErrClosed
	}
	l.conns[int32(fd)] = t
	l.mu.Unlock()
	if err := unix.EpollCtl(l.epfd, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP, Fd: int32(fd)}); err != nil {
		l.mu.Lock()
		delete(l.conns, int32(fd))
		l.mu.Unlock()
		unix.Close(fd)
		return err
	}
	return nil
}

// count is the number of connections the loop serves.
func (l *evloop) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

func (l *evloop) run() {
	defer close(l.done)
	events := make([]unix.EpollEvent, 128)
	// The poll state and the function the netpoller calls are the loop's,
	// made once: a closure made per round escaped to the heap with the
	// variables it set, 90 bytes per round, and the GC cycles that
	// garbage caused every few seconds were a part of the p99 of finds.
	var n int
	var werr error
	poll := func(uintptr) bool {
		n, werr = rawPoll(l.epfd, events)
		return n > 0 || (werr != nil && werr != unix.EINTR)
	}
	every := l.sweepEvery()
	now := time.Now()
	lastSweep := now
	var armed time.Time // the poll's deadline
	for {
		// Wake at least once per sweep interval. Moving the deadline is a
		// timer change in the runtime: it is moved as lazily as a
		// connection's (lazyDeadline), not every round.
		if want := now.Add(every); lazyDeadline(armed, want, now) {
			armed = want
			l.epfile.SetReadDeadline(armed)
		}
		n, werr = 0, nil
		var err error
		if len(l.ready) > 0 || len(l.waiting) > 0 {
			// Connections wait for their next turn: look for events
			// without parking.
			n, werr = rawPoll(l.epfd, events)
			if werr == unix.EINTR {
				werr = nil
			}
		} else {
			err = l.eprc.Read(poll)
		}
		if err == nil && werr != nil {
			err = werr
		}
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			l.lst.cfg.Logger.Error("event loop", "port", l.lst.cfg.Name, "err", err)
			time.Sleep(10 * time.Millisecond)
		}
		for i := 0; i < n; i++ {
			ev := &events[i]
			if int(ev.Fd) == l.wakefd {
				var cnt [8]byte
				unix.Read(l.wakefd, cnt[:]) // readable until read
				continue
			}
			l.mu.Lock()
			t := l.conns[ev.Fd]
			l.mu.Unlock()
			if t == nil || t.busy {
				continue // a busy connection's input waits for its turn
			}
			if ev.Events&unix.EPOLLOUT != 0 && len(t.pending) > 0 {
				if !t.flushPending() {
					t.c.finish()
				}
				continue
			}
			if t.c.more {
				// Input waits until the held requests are answered; a
				// peer that has closed or reset gets none of them
				// (what it could not read is not worth the work).
				if ev.Events&(unix.EPOLLRDHUP|unix.EPOLLHUP|unix.EPOLLERR) != 0 {
					t.c.finish()
				}
				continue
			}
			if ev.Events&(unix.EPOLLIN|unix.EPOLLRDHUP|unix.EPOLLHUP|unix.EPOLLERR) != 0 && !t.readReady() {
				t.c.finish()
			}
		}
		l.takeUnlocked()
		l.turns()
		l.commitRuns()
		l.mu.Lock()
		stop := l.stop
		l.mu.Unlock()
		if stop {
			for len(l.waiting) > 0 {
				l.commitRuns() // the turns in progress are answered first
			}
			l.closeAll()
			l.mu.Lock()
			l.exited = true
			left := l.unlocked
			l.unlocked = nil
			l.mu.Unlock()
			for _, t := range left {
				t.c.sess.Close()
			}
			return
		}
		if now = time.Now(); now.Sub(lastSweep) >= every {
			lastSweep = now
			l.sweep(now)
		}
	}
}

// turns gives every connection of the ready list its next turn, unless
// its peer has closed. A connection that again leaves complete requests
// goes back on the list for the next round, after the events that came
// meanwhile.
func (l *evloop) turns() {
	if len(l.ready) == 0 {
		return
	}
	rd := l.ready
	l.ready = l.spare[:0]
	for i, t := range rd {
		rd[i] = nil
		if t.gone {
			continue
		}
		// A connection that joined the list in this round's events has
		// not been polled since its turn: a peer that closed meanwhile
		// gets no more of its requests.
		if t.peerClosed() || !l.serve(t, t.c.held) {
			t.c.finish()
		}
	}
	l.spare = rd[:0]
}

// serve answers what buf holds and reports whether the connection stays
// open. On a write loop a turn that prepares a job is left on the waiting
// list, for commitRuns.
func (l *evloop) serve(t *fdTransport, buf *[]byte) bool {
	c := t.c
	if !l.write {
		return c.handle(buf) && t.watch()
	}
	if c.sess.Quit(*buf) {
		return false
	}
	c.beginTurn(buf)
	if !c.sess.Step() {
		t.busy = true
		l.waiting = append(l.waiting, t)
		return true
	}
	return c.endTurn() && t.watch()
}

// commitRuns hands the writer the prepared jobs of the waiting
// connections as one UpdateAll, then answers each and goes on with its
// turn: one that prepares another job waits for the next round, the
// others write their answers.
func (l *evloop) commitRuns() {
	if len(l.waiting) == 0 {
		return
	}
	w := l.waiting
	fns := l.fns[:0]
	for _, t := range w {
		fns = append(fns, t.c.sess.Job())
	}
	if cap(l.errs) < len(fns) {
		l.errs = make([]error, len(fns), cap(fns))
	}
	errs := l.errs[:len(fns)]
	l.lst.cfg.Engine.UpdateAll(l.lst.cfg.JobCtx, fns, errs)
	clear(fns)
	l.fns = fns[:0]
	l.lst.cfg.Counters.WriteRounds.Add(1)
	l.waiting = l.waitNext[:0]
	for i, t := range w {
		w[i] = nil
		c := t.c
		if errs[i] == nil && c.sess.Stalled() {
			l.waitRowLock(t) // it stays busy until the wait ends
			continue
		}
		c.sess.Resume(errs[i])
		if !c.sess.Step() {
			l.waiting = append(l.waiting, t)
			continue
		}
		t.busy = false
		if !c.endTurn() || !t.watch() {
			c.finish()
		}
	}
	clear(errs)
	l.waitNext = w[:0]
}

// waitRowLock waits, on a goroutine of its own, for the row lock t's job
// stalled at (Session.Wait), then hands t back to the loop through
// unlocked and the wake-up descriptor, for its job to run again;
// meanwhile t is busy, so the loop neither reads nor expires it.
func (l *evloop) waitRowLock(t *fdTransport) {
	ss := t.c.sess
	go func() {
		ss.Wait()
		l.mu.Lock()
		if l.exited {
			// The loop closed t meanwhile: nobody answers its job.
			l.mu.Unlock()
			ss.Close()
			return
		}
		l.unlocked = append(l.unlocked, t)
		l.mu.Unlock()
		one := [8]byte{1}
		unix.Write(l.wakefd, one[:])
	}()
}

// takeUnlocked puts the connections whose row lock wait ended on the
// waiting list, to run the rest of their jobs in this round's
// commitRuns.
func (l *evloop) takeUnlocked() {
	l.mu.Lock()
	back := l.unlocked
	l.unlocked = nil
	l.mu.Unlock()
	for _, t := range back {
		if t.gone {
			t.c.sess.Close()
			continue
		}
		l.waiting = append(l.waiting, t)
	}
}

// watch sets what the loop waits for after a turn: writability while
// output is pending, nothing while complete requests wait for a turn (the
// connection is on the ready list), else input. False means the
// connection is broken.
func (t *fdTransport) watch() bool {
	if len(t.pending) > 0 {
		return true // write asked for EPOLLOUT; flushPending calls watch
	}
	more := t.c.more
	if more {
		t.loop.ready = append(t.loop.ready, t)
	}
	if t.paused == more {
		return true
	}
	return t.setEvents(more)
}

// setEvents makes the loop wait for input, or (paused) only for the
// peer's hang-up.
func (t *fdTransport) setEvents(paused bool) bool {
	t.paused = paused
	ev := uint32(unix.EPOLLIN | unix.EPOLLRDHUP)
	if paused {
		ev = unix.EPOLLRDHUP
	}
	return unix.EpollCtl(t.loop.epfd, unix.EPOLL_CTL_MOD, t.fd, &unix.EpollEvent{Events: ev, Fd: int32(t.fd)}) == nil
}

// sweepEvery is how often expired connections are looked for: a quarter
// of the shorter timeout, at most a second.
func (l *evloop) sweepEvery() time.Duration {
	t := l.lst.cfg.Timeout
	if lt := l.lst.cfg.LineTimeout; lt > 0 && (t <= 0 || lt < t) {
		t = lt
	}
	if t /= 4; t > 0 && t < time.Second {
		return max(t, 10*time.Millisecond)
	}
	return time.Second
}

// sweep closes connections past their deadline (see Conn.deadline).
func (l *evloop) sweep(now time.Time) {
	var idle []*fdTransport
	l.mu.Lock()
	for _, t := range l.conns {
		if t.busy {
			continue
		}
		if d := t.c.deadline(); !d.IsZero() && now.After(d) {
			idle = append(idle, t)
		}
	}
	l.mu.Unlock()
	for _, t := range idle {
		l.lst.cfg.Counters.Expired.Add(1)
		t.c.finish()
	}
}

// close takes the descriptor out of the loop and closes it (Conn.finish
// calls it, on the loop's goroutine).
func (t *fdTransport) close() {
	l := t.loop
	l.mu.Lock()
	delete(l.conns, int32(t.fd))
	l.mu.Unlock()
	unix.EpollCtl(l.epfd, unix.EPOLL_CTL_DEL, t.fd, nil)
	unix.Close(t.fd)
	t.pending = nil
	t.gone = true
}

func (l *evloop) closeAll() {
	l.mu.Lock()
	all := make([]*fdTransport, 0, len(l.conns))
	for _, t := range l.conns {
		all = append(all, t)
	}
	l.mu.Unlock()
	for _, t := range all {
		t.c.finish()
	}
	l.epfile.Close() // closes epfd
	unix.Close(l.wakefd)
}

// shutdown makes the loop close its connections and stop; the turns it
// is running are answered first.
func (l *evloop) shutdown() {
	l.mu.Lock()
	l.stop = true
	l.mu.Unlock()
	var one = [8]byte{1}
	unix.Write(l.wakefd, one[:])
	<-l.done
}

// readReady reads what the socket holds and answers it; false closes the
// connection.
func (t *fdTransport) readReady() bool {
	buf, err := t.read(t.c.held)
	if err != nil {
		return false
	}
	if buf == nil {
		return true // nothing to read after all
	}
	return t.loop.serve(t, buf)
}

// read reads what the socket holds without waiting: nil and no error
// when it holds nothing.
func (t *fdTransport) read(held *[]byte) (*[]byte, error) {
	buf := readBuf(held)
	n, err := rawRead(t.fd, (*buf)[len(*buf):cap(*buf)])
	if err == unix.EAGAIN || err == unix.EINTR {
		if held == nil {
			readPool.Put(buf)
		}
		return nil, nil
	}
	return readResult(buf, held, n, err)
}

// write writes out to the descriptor; what the socket does not take now
// is kept and sent when it becomes writable (reading stops meanwhile).
func (t *fdTransport) write(out []byte) bool {
	rest, err := writeOut(t.fd, out)
	if err == unix.EAGAIN {
		t.pending = append(t.pending[:0], rest...)
		return unix.EpollCtl(t.loop.epfd, unix.EPOLL_CTL_MOD, t.fd, &unix.EpollEvent{Events: unix.EPOLLOUT, Fd: int32(t.fd)}) == nil
	}
	return err == nil
}

// setReadDeadline does nothing: the loop's sweep closes expired
// connections.
func (t *fdTransport) setReadDeadline(time.Time) {}

// parks is false: an event-loop connection has no goroutine to move.
func (t *fdTransport) parks() bool { return false }

// peerClosed is what the loop sees as EPOLLRDHUP, EPOLLHUP or EPOLLERR
// (the loop itself acts on those events; see run).
func (t *fdTransport) peerClosed() bool { return peerGone(t.fd) }

// flushPending sends kept output; once it is all sent, reading resumes.
func (t *fdTransport) flushPending() bool {
	rest, err := writeOut(t.fd, t.pending)
	if err == unix.EAGAIN {
		t.pending = rest
		return true
	}
	if err != nil {
		return false
	}
	t.pending = nil
	// Input that arrived meanwhile is still there: epoll is level-triggered.
	if t.c.more {
		t.loop.ready = append(t.loop.ready, t)
	}
	return t.setEvents(t.c.more)
}
