package sqlfront

import (
	"runtime"
	"time"
)

// Turn lengths of a connection's goroutine (see turns).
const (
	// turnBudget is how long a connection may run statements back to
	// back, its client answering each at once, before it lets the others
	// run.
	turnBudget = 2 * time.Millisecond
	// parkedAfter is a wait for the client's next command long enough
	// to say the goroutine slept in the network poller (a command
	// already in the socket is read in a microsecond or two).
	parkedAfter = 5 * time.Microsecond
)

// turns keeps a connection's goroutine from holding its processor while
// its client answers at once. A client on the same machine often sends
// its next command before the server's goroutine comes back to read it
// (the kernel runs the woken client on the server's CPU), so the
// goroutine never parks: it runs statement after statement on its P while
// the goroutines the network poller woke wait in the run queue until Go's
// scheduler preempts it after 10 ms. That is the bimodal latency of
// sysbench's read-only transactions under load (half under 1 ms, a
// seventh over 10 ms, where MariaDB's threads, turned by the kernel, give
// 2-10 ms to all). A connection that has run turnBudget of statements
// without its read having waited yields (runtime.Gosched). A shorter
// budget evens the tail further but costs the short statements: yielded
// goroutines wait on the global run queue, and each yield wakes a thread
// (see BENCHMARKS.md, session 27).
//
// Owned by the connection's goroutine.
type turns struct {
	idleEnd time.Time     // when the last statement's answer was written
	busy    time.Duration // run since the last yield or sleep
}

// began notes that a command was read at now.
func (t *turns) began(now time.Time) {
	if now.Sub(t.idleEnd) > parkedAfter {
		t.busy = 0
	}
}

// ended notes that the command read at start was answered at now; it
// reports whether the connection has used up its turn and must yield.
func (t *turns) ended(start, now time.Time) bool {
	t.busy += now.Sub(start)
	t.idleEnd = now
	if t.busy < turnBudget {
		return false
	}
	t.busy = 0
	return true
}

// endTurn is ended with the processor yielded when the turn is up.
func (t *turns) endTurn(start time.Time) {
	if t.ended(start, time.Now()) {
		runtime.Gosched()
		t.idleEnd = time.Now()
	}
}
