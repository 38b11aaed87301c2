package engine

// A commit wait holds a durable group's answers until something outside
// the engine says they may go: semi-synchronous replication answers a
// client only once a replica has the group's transactions. The writer
// and the syncer never wait themselves: they hand the group's jobs, in
// commit order, to one goroutine (waiter) that calls the installed
// function with the group's last change feed number and then answers the
// jobs, while the next groups commit.

// waitFn is the installed commit wait.
type waitFn func(last uint64, txns int)

// waiting is a group whose answers wait: its jobs and its transactions'
// last number and count.
type waiting struct {
	jobs []*job
	last uint64
	txns int
}

// SetCommitWait installs wait, called before the answers of each durable
// group that changed rows (a change feed or log is installed): it gets the
// group's last transaction number and count, and the group's callers get
// their answers when it returns. It runs on a goroutine of its own, one
// group at a time in commit order, while the writer goes on with the next
// groups; nil removes it (groups already handed over still call it). A
// group without changes, or that failed, is answered at once. Safe for
// concurrent use.
func (e *Engine) SetCommitWait(wait func(last uint64, txns int)) {
	if wait == nil {
		e.w.wait.Store(nil)
		return
	}
	f := waitFn(wait)
	e.w.wait.Store(&f)
}

// handToWaiter gives a durable group's jobs to the waiter if a commit
// wait is installed and the group committed transactions; it reports
// whether it did (the caller answers the jobs otherwise).
func (w *writer) handToWaiter(jobs []*job, txns []FeedTxn) bool {
	if len(txns) == 0 || w.wait.Load() == nil {
		return false
	}
	w.waitOnce.Do(func() {
		w.waits = make(chan waiting, 64)
		w.waitDone = make(chan struct{})
		go w.waiter()
	})
	w.waits <- waiting{jobs: append([]*job(nil), jobs...), last: txns[len(txns)-1].Seq, txns: len(txns)}
	return true
}

// waiter answers the handed groups' jobs once the commit wait returns.
func (w *writer) waiter() {
	defer close(w.waitDone)
	for g := range w.waits {
		if f := w.wait.Load(); f != nil {
			(*f)(g.last, g.txns)
		}
		for _, j := range g.jobs {
			j.done <- struct{}{}
		}
	}
}

// stopWaiter ends the waiter after the groups handed to it (the writer's
// last act).
func (w *writer) stopWaiter() {
	w.waitOnce.Do(func() {}) // (no waiter may start after this)
	if w.waits != nil {
		close(w.waits)
		<-w.waitDone
	}
}
