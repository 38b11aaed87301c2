package engine

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"
)

// When the batch cannot be rebuilt after a failed job, the whole group
// fails: the jobs before it are not committed and none is acknowledged
// (the batch would otherwise be committed empty, or with the failed job's
// writes).
func TestGroupFailsWhenBatchCannotBeRebuilt(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	rebuildFault = errors.New("injected")
	defer func() { rebuildFault = nil }()
	// Hold the writer with a first job, so that the two below share a group.
	hold, release := make(chan struct{}), make(chan struct{})
	go e.Update(context.Background(), func(*Job) error { close(hold); <-release; return nil })
	<-hold
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Add(2)
	go func() {
		defer wg.Done()
		errs[0] = e.Update(context.Background(), func(tx *Job) error {
			_, err := tx.Insert(tb, row(iv(100), sv("kept?"), null(), null()))
			return err
		})
	}()
	waitJobs(t, e, 1)
	go func() {
		defer wg.Done()
		errs[1] = e.Update(context.Background(), func(tx *Job) error {
			if _, err := tx.Insert(tb, row(iv(101), sv("dropped"), null(), null())); err != nil {
				return err
			}
			return errors.New("this job fails")
		})
	}()
	waitJobs(t, e, 2)
	close(release)
	wg.Wait()
	if !errors.Is(errs[0], ErrCommitFailed) {
		t.Errorf("the job before the failed one: %v, want the group's failure", errs[0])
	}
	if errs[1] == nil {
		t.Error("the failed job succeeded")
	}
	rebuildFault = nil
	if got := findAll(t, e, tb, &Query{Op: OpGE, Key: nil}); len(got) != 0 {
		t.Fatalf("rows after the failed group: %v", got)
	}
}

// waitJobs waits until n jobs are queued behind the one the writer runs.
func waitJobs(t *testing.T, e *Engine, n int) {
	t.Helper()
	// A bound in time, not in iterations, and yielding: on a loaded
	// machine the goroutines that queue the jobs may wait for a processor
	// longer than five million turns of this loop.
	deadline := time.Now().Add(30 * time.Second)
	for len(e.w.ch) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d jobs never queued", n)
		}
		runtime.Gosched()
	}
}
