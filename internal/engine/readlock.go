package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// The global read lock (FLUSH TABLES WITH READ LOCK). While one is held,
// no job runs: Update and UpdateAll wait at the gate until the last
// holder releases it (or their context ends, or the engine closes), and
// LockWrites returns only once every job that passed the gate before is
// answered, so from then on the store, the change feed and the log
// stand still: a consistent snapshot and the log's position taken under
// the lock agree. A holder's own jobs (a context marked HoldingReadLock)
// fail at once with ErrReadLocked instead of waiting for themselves.
// Readers never wait. Several holders may hold it at once.
//
// The gate's cost on the job path is one atomic add and one atomic load
// on entry, one add on exit (the jobs counter and the freeze pointer).

// freeze is the state of a held global read lock.
type freeze struct {
	holders int           // (Engine.lockMu)
	thawed  chan struct{} // closed when the last holder releases
}

// ReadLock is one holder's share of the global read lock; Release ends
// it. Safe for concurrent use.
type ReadLock struct {
	e    *Engine
	once sync.Once
}

// readLockKey is HoldingReadLock's context key.
type readLockKey struct{}

// HoldingReadLock returns ctx for the jobs of a session that holds the
// global read lock: they fail with ErrReadLocked while it is held (MySQL
// refuses the holder's writes with ER_CANT_UPDATE_WITH_READLOCK).
func HoldingReadLock(ctx context.Context) context.Context {
	return context.WithValue(ctx, readLockKey{}, true)
}

// HoldsReadLock reports whether ctx is marked by HoldingReadLock.
func HoldsReadLock(ctx context.Context) bool { return ctx.Value(readLockKey{}) != nil }

// LockWrites takes a share of the global read lock: it returns once no
// job runs and none will until every share is released. A ctx that ends
// first gives the share back and returns ctx's error.
func (e *Engine) LockWrites(ctx context.Context) (*ReadLock, error) {
	e.mu.RLock()
	closed := e.closed
	e.mu.RUnlock()
	if closed {
		return nil, ErrClosed
	}
	e.lockMu.Lock()
	f := e.frozen.Load()
	if f == nil {
		f = &freeze{thawed: make(chan struct{})}
		e.frozen.Store(f)
	}
	f.holders++
	e.lockMu.Unlock()
	l := &ReadLock{e: e}
	// The jobs that passed the gate before it closed finish; polled, since
	// taking the lock is rare and the job path then needs no signal.
	for wait := 20 * time.Microsecond; e.active.Load() != 0; wait = min(2*wait, 5*time.Millisecond) {
		select {
		case <-ctx.Done():
			l.Release()
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
	return l, nil
}

// Release gives the share back; the last one opens the gate. Later calls
// do nothing.
func (l *ReadLock) Release() {
	l.once.Do(func() {
		e := l.e
		e.lockMu.Lock()
		defer e.lockMu.Unlock()
		f := e.frozen.Load()
		if f.holders--; f.holders == 0 {
			e.frozen.Store(nil)
			close(f.thawed)
		}
	})
}

// ReadLocked reports whether the global read lock is held.
func (e *Engine) ReadLocked() bool { return e.frozen.Load() != nil }

// WaitWrites returns once a job submitted with ctx could run: at once
// while the global read lock is free, else (as enterGate) when it is
// released, or ErrReadLocked for a holder's ctx. An SQL transaction's
// statements call it before they change rows, so that they wait (or
// fail) at the statement, not only at the commit.
func (e *Engine) WaitWrites(ctx context.Context) error {
	if e.frozen.Load() == nil {
		return nil
	}
	if err := e.enterGate(ctx); err != nil {
		return err
	}
	e.exitGate()
	return nil
}

// enterGate counts a job in before it goes to the writer; exitGate counts
// it out once answered. While the global read lock is held, enterGate
// waits for its release (a holder's job: ErrReadLocked at once).
func (e *Engine) enterGate(ctx context.Context) error {
	for {
		e.active.Add(1)
		f := e.frozen.Load()
		if f == nil {
			return nil
		}
		e.active.Add(-1)
		if HoldsReadLock(ctx) {
			return ErrReadLocked
		}
		select {
		case <-f.thawed:
		case <-ctx.Done():
			return ctx.Err()
		case <-e.w.quit:
			return ErrClosed
		}
	}
}

func (e *Engine) exitGate() { e.active.Add(-1) }

// gateState is the global read lock's part of Engine.
type gateState struct {
	lockMu sync.Mutex             // guards freeze.holders and the frozen pointer's changes
	frozen atomic.Pointer[freeze] // non-nil while the lock is held
	active atomic.Int64           // jobs past the gate, not yet answered
}
