package hsfront

import (
	"errors"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// Row locks on the write port. An update, delete, increment or decrement
// of a row that an SQL transaction holds the row lock of (SELECT ... FOR
// UPDATE, LOCK IN SHARE MODE, or a row the transaction changed) waits for
// that lock, as the plugin's write waits for InnoDB's: the writer undoes
// the line's changes and ends the run's job before it (writeOp apply),
// the lines before it commit, and the connection waits for the lock in
// its own Locker, outside the writer, for at most Config.LockWait. Holding
// it, the run goes on from that line in a new job; the lock is let go once
// the run is answered. A wait that times out (or finds a deadlock)
// answers that line with the lock error and the run goes on after it. A
// goroutine connection waits on its goroutine; an event loop's connection
// waits on a goroutine of its own while the loop serves the others
// (evloop.waitRowLock).

// rowLocked returns the row-lock condition err holds, or nil. It
// allocates nothing for a nil error (asRowLocked's variable escapes).
func rowLocked(err error) *engine.RowLockedError {
	if err == nil || !errors.Is(err, engine.ErrRowLocked) {
		return nil
	}
	return asRowLocked(err)
}

func asRowLocked(err error) *engine.RowLockedError {
	var rl *engine.RowLockedError
	errors.As(err, &rl)
	return rl
}

// runJobs runs the prepared run of sc as writer jobs, waiting for each
// row lock it stops at; it returns the last job's result. For the
// goroutine transports, which may block.
func (ss *session) runJobs(sc *scratch) error {
	err := ss.s.e.Update(ss.s.jobCtx, sc.applyFn)
	for err == nil && sc.lockStop >= 0 {
		if !ss.waitRowLock(sc) {
			break
		}
		err = ss.s.e.Update(ss.s.jobCtx, sc.applyFn)
	}
	return err
}

// waitRowLock waits for the row lock the run of sc stopped at and reports
// whether lines are left to apply. On a timeout, a deadlock or a shutdown
// the line is answered with that error and the run goes on after it.
func (ss *session) waitRowLock(sc *scratch) bool {
	rl, at := sc.lockErr, sc.lockStop
	sc.lockStop, sc.lockErr = -1, nil
	if ss.locker == nil {
		ss.locker = ss.s.e.Locks().NewLocker()
	}
	sc.runFrom = at
	wait := ss.s.cfg.LockWait
	if now := ss.s.cfg.LockWaitNow; now != nil {
		wait = now()
	}
	if _, err := ss.locker.Lock(ss.s.lockCtx, rl.Table, rl.Key, true, wait); err != nil {
		sc.run[at].err = err
		sc.runFrom = at + 1
	}
	return sc.runFrom < sc.runLen
}

// releaseLocks lets go of the row locks the session's writes waited for.
func (ss *session) releaseLocks() {
	if ss.locker != nil {
		ss.locker.ReleaseAll()
	}
}
