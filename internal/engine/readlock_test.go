package engine

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestReadLock: while the global read lock is held no job runs (Update
// and UpdateAll wait, a holder's job fails), LockWrites waits for a job
// already running, a waiting job whose context ends gives up, and the
// last release lets the waiting jobs run.
func TestReadLock(t *testing.T) {
	for _, pipeline := range []bool{false, true} {
		e := openTestEngine(t, "", DurabilitySync, withPipelineSync(pipeline))
		tbl := setupPeople(t, e)
		insert := func(id int64) func(*Job) error {
			return func(tx *Job) error { _, err := tx.Insert(tbl, row(iv(id), sv("x"), null(), null())); return err }
		}

		// A job running when the lock is asked for ends first.
		running, finish := make(chan struct{}), make(chan struct{})
		jobDone := make(chan error, 1)
		go func() {
			jobDone <- e.Update(context.Background(), func(tx *Job) error {
				close(running)
				<-finish
				return insert(1)(tx)
			})
		}()
		<-running
		locked := make(chan *ReadLock, 1)
		go func() {
			l, err := e.LockWrites(context.Background())
			if err != nil {
				t.Error(err)
			}
			locked <- l
		}()
		select {
		case <-locked:
			t.Fatal("LockWrites returned while a job ran")
		case <-time.After(50 * time.Millisecond):
		}
		close(finish)
		if err := <-jobDone; err != nil {
			t.Fatal(err)
		}
		l1 := <-locked
		if !e.ReadLocked() {
			t.Fatal("ReadLocked false while held")
		}
		if got := len(findAll(t, e, tbl, &Query{Index: tbl.Primary, Op: OpGE})); got != 1 {
			t.Fatalf("%d rows under the lock, want the running job's 1", got)
		}

		// A second holder shares it.
		l2, err := e.LockWrites(context.Background())
		if err != nil {
			t.Fatal(err)
		}

		// Other jobs wait; a holder's job fails at once; a waiting job
		// whose context ends returns its error.
		waiting := make(chan error, 2)
		go func() { waiting <- e.Update(context.Background(), insert(2)) }()
		go func() {
			errs := make([]error, 1)
			e.UpdateAll(context.Background(), []func(*Job) error{insert(3)}, errs)
			waiting <- errs[0]
		}()
		if err := e.Update(HoldingReadLock(context.Background()), insert(4)); !errors.Is(err, ErrReadLocked) {
			t.Fatalf("the holder's job: %v, want ErrReadLocked", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		if err := e.Update(ctx, insert(5)); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("a job whose context ends while it waits: %v", err)
		}
		cancel()
		select {
		case err := <-waiting:
			t.Fatalf("a job ran under the lock: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
		l1.Release()
		l1.Release() // (a second call does nothing)
		select {
		case err := <-waiting:
			t.Fatalf("a job ran while a second holder held the lock: %v", err)
		case <-time.After(30 * time.Millisecond):
		}
		l2.Release()
		for range 2 {
			if err := <-waiting; err != nil {
				t.Fatal(err)
			}
		}
		if e.ReadLocked() {
			t.Fatal("ReadLocked after every release")
		}
		if got := ids(findAll(t, e, tbl, &Query{Index: tbl.Primary, Op: OpGE})); len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 3 {
			t.Fatalf("rows %v, want [1 2 3]", got)
		}
	}
}

// TestReadLockCancelled: a LockWrites whose context ends while a job runs
// returns the error and leaves the gate open.
func TestReadLockCancelled(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	running, finish := make(chan struct{}), make(chan struct{})
	go func() {
		_ = e.Update(context.Background(), func(tx *Job) error { close(running); <-finish; return nil })
	}()
	<-running
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, err := e.LockWrites(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("LockWrites: %v", err)
	}
	close(finish)
	if e.ReadLocked() {
		t.Fatal("the gate stayed closed")
	}
	update(t, e, func(tx *Job) error { return nil })
}
