package engine

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/handlerdb/handlerdb/internal/types"
)

// Row locks of SQL transactions (SELECT ... FOR UPDATE, LOCK IN SHARE
// MODE, and the rows an UPDATE or DELETE changes), as InnoDB keeps them:
// a lock is shared or exclusive, keyed by table id and primary key
// (LockKey), held by one Locker (one transaction) until ReleaseAll. There
// are no gap or next-key locks: a row inserted after a locking read is not
// kept out.
//
// Concurrency: LockTable and every Locker method are safe for concurrent
// use; one mutex guards the whole table, held only to inspect and change
// it, never while waiting. A Locker belongs to one transaction, whose
// session calls Lock and ReleaseAll one at a time (ReleaseAll is safe from
// any goroutine). Waiting happens in Lock, on the caller's goroutine, and
// nowhere else: the engine's writer never takes or waits for a row lock,
// so no group commit is ever held up by one. A job that would change a
// row another Locker holds (a HandlerSocket write, the replica, a load:
// every writer but a transaction's commit, whose rows are its own) fails
// with a *RowLockedError instead (checkRowLock); its caller waits for
// the lock in Lock, outside the writer, then runs the change again
// holding it (Job.HoldLocks), as InnoDB makes such a write wait.

// Lock-related conditions.
var (
	// ErrLockWaitTimeout is returned by Locker.Lock when the lock was not
	// granted within the timeout.
	ErrLockWaitTimeout = newKind("lock wait timeout", HaErrLockWaitTimeout)
	// ErrDeadlock is returned by Locker.Lock when waiting would close a
	// cycle of transactions each waiting for the next.
	ErrDeadlock = newKind("deadlock", HaErrLockDeadlock)
)

// LockTable holds the row locks of one engine.
type LockTable struct {
	e    *Engine
	mu   sync.Mutex
	rows map[lockKey]*rowLock
	// n is len(rows), changed under mu and read without it: the
	// writer's checks skip the table while it is 0.
	n atomic.Int64
}

type lockKey struct {
	table uint32
	key   string
}

type rowLock struct {
	excl    *Locker
	shared  map[*Locker]struct{}
	waiters int
	wake    chan struct{} // closed when a holder lets go; nil while nobody waits
}

// Locker is the row locks of one transaction.
type Locker struct {
	lt      *LockTable
	held    map[lockKey]*rowLock // guarded by lt.mu
	waitFor *rowLock             // the lock it waits for, guarded by lt.mu
}

// Locks returns the engine's row lock table.
func (e *Engine) Locks() *LockTable { return &e.locks }

// NewLocker returns a Locker holding nothing.
func (lt *LockTable) NewLocker() *Locker { return &Locker{lt: lt} }

// Len returns the number of rows locked (for tests and metrics).
func (lt *LockTable) Len() int {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	return len(lt.rows)
}

// Waiting returns the number of Lock calls waiting (for tests and
// metrics).
func (lt *LockTable) Waiting() int {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	n := 0
	for _, rl := range lt.rows {
		n += rl.waiters
	}
	return n
}

// LockKey appends the key row is locked by in t: its primary key columns,
// or, for a table without a primary key, all its columns.
func LockKey(dst []byte, t *Table, row Row) []byte {
	if t.Primary.Hidden {
		for i := range t.Columns {
			dst = types.AppendKey(dst, &t.Columns[i].Type, row[i])
		}
		return dst
	}
	return appendPKColumns(dst, t, row, 0)
}

// Lock takes the lock of key (from LockKey) in t, exclusive or shared,
// waiting while another Locker holds it in a conflicting mode. It reports
// whether the lock is new to l: then a row read before the call may be
// older than a commit whose transaction let go of the lock, waited for or
// not, and must be read again; a lock l already held in that mode (or
// exclusively) keeps the row as l last saw it. The wait
// ends with ErrLockWaitTimeout after timeout (a timeout of 0 does not
// wait), with ctx's error when ctx ends, or at once with ErrDeadlock when
// a holder waits, directly or through others, for a lock l holds. A lock
// l already holds in the mode asked (or exclusively) returns at once; a
// shared lock is upgraded to exclusive.
func (l *Locker) Lock(ctx context.Context, t *Table, key []byte, exclusive bool, timeout time.Duration) (fresh bool, err error) {
	lt := l.lt
	k := lockKey{table: t.ID, key: string(key)}
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if rl := l.held[k]; rl != nil && (rl.excl == l || !exclusive) {
		return false, nil // held already, in this mode or a stronger one
	}
	for {
		if lt.rows == nil {
			lt.rows = map[lockKey]*rowLock{}
		}
		rl := lt.rows[k]
		if rl == nil {
			rl = &rowLock{}
			lt.rows[k] = rl
			lt.n.Add(1)
		}
		if rl.grantable(l, exclusive) {
			rl.grant(l, exclusive)
			if l.held == nil {
				l.held = map[lockKey]*rowLock{}
			}
			l.held[k] = rl
			if e := lt.e; e != nil && t.rt != nil {
				// A job that changed the row without seeing this lock
				// may not have ended: the row the caller reads next must
				// hold its change (tableRuntime.unlocked).
				if seq := t.rt.unlocked.Load(); seq > e.jobsDone.Load() {
					lt.mu.Unlock()
					err := e.waitJobsDone(ctx, seq)
					lt.mu.Lock()
					if err != nil {
						l.releaseLocked(k, rl)
						return false, err
					}
				}
			}
			return true, nil
		}
		if lt.cycle(l, rl) {
			lt.forget(k, rl)
			return false, &Error{Kind: ErrDeadlock, DB: t.DB, Table: t.Name}
		}
		if timeout <= 0 {
			lt.forget(k, rl)
			return false, &Error{Kind: ErrLockWaitTimeout, DB: t.DB, Table: t.Name}
		}
		if timer == nil {
			timer = time.NewTimer(timeout)
		}
		if rl.wake == nil {
			rl.wake = make(chan struct{})
		}
		wake := rl.wake
		rl.waiters++
		l.waitFor = rl
		lt.mu.Unlock()
		var werr error
		select {
		case <-wake:
		case <-timer.C:
			werr = &Error{Kind: ErrLockWaitTimeout, DB: t.DB, Table: t.Name}
		case <-ctx.Done():
			werr = ctx.Err()
		}
		lt.mu.Lock()
		l.waitFor = nil
		rl.waiters--
		if werr != nil {
			lt.forget(k, rl)
			return false, werr
		}
		lt.forget(k, rl)
	}
}

// forget drops rl from the table when nobody holds or waits for it.
func (lt *LockTable) forget(k lockKey, rl *rowLock) {
	if rl.excl == nil && len(rl.shared) == 0 && rl.waiters == 0 && lt.rows[k] == rl {
		delete(lt.rows, k)
		lt.n.Add(-1)
	}
}

// heldByOther reports whether a Locker other than own holds, in any
// mode, the lock of key in table id. It is the writer's check (see
// checkRowLock): it takes mu only while some lock is held or waited for.
func (lt *LockTable) heldByOther(id uint32, key []byte, own *Locker) bool {
	if lt.n.Load() == 0 {
		return false
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	rl := lt.rows[lockKey{table: id, key: string(key)}]
	if rl == nil {
		return false
	}
	return rl.holders(func(h *Locker) bool { return h != own })
}

// holdsExclusive reports whether l holds the row of key (LockKey) in the
// table of id exclusively.
func (l *Locker) holdsExclusive(id uint32, key []byte) bool {
	l.lt.mu.Lock()
	defer l.lt.mu.Unlock()
	rl := l.held[lockKey{table: id, key: string(key)}]
	return rl != nil && rl.excl == l
}

// releaseLocked lets go of l's lock rl of key k (lt.mu held).
func (l *Locker) releaseLocked(k lockKey, rl *rowLock) {
	if rl.excl == l {
		rl.excl = nil
	}
	delete(rl.shared, l)
	delete(l.held, k)
	if rl.wake != nil {
		close(rl.wake)
		rl.wake = nil
	}
	l.lt.forget(k, rl)
}

func (rl *rowLock) grantable(l *Locker, exclusive bool) bool {
	if rl.excl != nil && rl.excl != l {
		return false
	}
	if !exclusive {
		return true
	}
	for s := range rl.shared {
		if s != l {
			return false
		}
	}
	return true
}

func (rl *rowLock) grant(l *Locker, exclusive bool) {
	if rl.excl == l {
		return
	}
	if exclusive {
		delete(rl.shared, l)
		rl.excl = l
		return
	}
	if rl.shared == nil {
		rl.shared = map[*Locker]struct{}{}
	}
	rl.shared[l] = struct{}{}
}

// holders calls fn for every Locker holding rl, until fn returns true.
func (rl *rowLock) holders(fn func(*Locker) bool) bool {
	if rl.excl != nil && fn(rl.excl) {
		return true
	}
	for s := range rl.shared {
		if fn(s) {
			return true
		}
	}
	return false
}

// cycle reports whether l waiting for rl would close a cycle: some holder
// of rl waits, directly or through other waiters, for a lock l holds.
func (lt *LockTable) cycle(l *Locker, rl *rowLock) bool {
	seen := map[*Locker]bool{}
	var reaches func(h *Locker) bool
	reaches = func(h *Locker) bool {
		if h == l {
			return true
		}
		if seen[h] || h.waitFor == nil {
			return false
		}
		seen[h] = true
		return h.waitFor.holders(func(n *Locker) bool { return n != h && reaches(n) })
	}
	return rl.holders(func(h *Locker) bool { return h != l && reaches(h) })
}

// ReleaseAll lets go of every lock l holds, waking their waiters. Safe to
// call twice, and from another goroutine than the one using l.
func (l *Locker) ReleaseAll() {
	lt := l.lt
	lt.mu.Lock()
	defer lt.mu.Unlock()
	for k, rl := range l.held {
		l.releaseLocked(k, rl)
	}
	l.held = nil
}

// groupWaiters lets Locker.Lock wait for the end of the group that holds
// a given job: the writer wakes them after each group that ends while
// some wait (and Close once more). Safe for concurrent use.
type groupWaiters struct {
	waiters atomic.Int32
	mu      sync.Mutex
	ch      chan struct{} // closed at the next wake; nil while nobody waits
}

// wake wakes every waiter.
func (g *groupWaiters) wake() {
	g.mu.Lock()
	if g.ch != nil {
		close(g.ch)
		g.ch = nil
	}
	g.mu.Unlock()
}

// waitJobsDone waits until the group of job number seq (jobsStarted) has
// ended, ctx ends (its error) or the engine closes (ErrClosed).
func (e *Engine) waitJobsDone(ctx context.Context, seq uint64) error {
	g := &e.groupEnd
	g.waiters.Add(1)
	defer g.waiters.Add(-1)
	for {
		g.mu.Lock()
		if g.ch == nil {
			g.ch = make(chan struct{})
		}
		ch := g.ch
		g.mu.Unlock()
		// Read after joining the waiters and taking ch: a group that
		// ends later wakes ch (writer.group reads waiters after it
		// stores jobsDone).
		if e.jobsDone.Load() >= seq {
			return nil
		}
		if e.w.isStopped() {
			return ErrClosed
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// UpdateWaitingRowLocks runs fn as one Update job that waits for the row
// locks of SQL transactions, as InnoDB makes a write wait: when fn's
// change of a row another Locker holds fails with a *RowLockedError (so
// its job was undone), the lock is taken in a Locker of the call's own,
// waiting at most timeout, and fn runs again holding it. The locks are let
// go once the job that used them has committed. fn must be safe to run
// again. A failed wait (a timeout, a deadlock, ctx) is returned as it is.
// For writers outside a transaction that may block: the replica's applier,
// LOAD DATA ... REPLACE (HandlerSocket's event loops wait their own way).
func (e *Engine) UpdateWaitingRowLocks(ctx context.Context, timeout time.Duration, fn func(*Job) error) error {
	var l *Locker
	job := func(tx *Job) error {
		if l != nil {
			tx.HoldLocks(l)
		}
		return fn(tx)
	}
	for {
		err := e.Update(ctx, job)
		var rl *RowLockedError
		if !errors.As(err, &rl) {
			if l != nil {
				l.ReleaseAll()
			}
			return err
		}
		if l == nil {
			l = e.locks.NewLocker()
		}
		if _, err := l.Lock(ctx, rl.Table, rl.Key, true, timeout); err != nil {
			l.ReleaseAll()
			return err
		}
	}
}
