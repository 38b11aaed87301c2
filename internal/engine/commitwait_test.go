package engine

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestCommitWaitHoldsAnswers: with a commit wait installed, a job that
// changed rows is answered only when the wait for its group returns,
// the wait gets the group's last transaction number, groups wait in
// commit order while later groups commit (their rows visible), and a
// job that changed nothing is answered at once. With and without
// PipelineSync.
func TestCommitWaitHoldsAnswers(t *testing.T) {
	for _, pipeline := range []bool{false, true} {
		t.Run(fmt.Sprintf("pipeline=%v", pipeline), func(t *testing.T) {
			d := DurabilityNone
			if pipeline {
				d = DurabilitySync
			}
			e := openTestEngine(t, t.TempDir(), d, withPipelineSync(pipeline))
			ta := createTable(t, e, "a", applyDef())
			e.SetChangeFeed(func([]FeedTxn) {})
			var mu sync.Mutex
			var seen []uint64
			release := make(chan struct{})
			e.SetCommitWait(func(last uint64, txns int) {
				if txns < 1 {
					t.Errorf("a wait for %d transactions", txns)
				}
				mu.Lock()
				seen = append(seen, last)
				mu.Unlock()
				<-release
			})
			insert := func(id int) <-chan error {
				done := make(chan error, 1)
				go func() {
					done <- e.Update(context.Background(), func(tx *Job) error {
						_, err := tx.Insert(ta, row(iv(int64(id)), null(), iv(1), sv("x")))
						return err
					})
				}()
				return done
			}
			first := insert(1)
			// The first group's rows are committed, and the wait holds
			// its answer.
			waitFor(t, func() bool { return e.FeedSeq() == 1 })
			select {
			case err := <-first:
				t.Fatalf("answered before the wait returned (%v)", err)
			case <-time.After(50 * time.Millisecond):
			}
			second := insert(2)
			waitFor(t, func() bool { return e.FeedSeq() == 2 })
			// A job without changes does not wait.
			if err := e.Update(context.Background(), func(*Job) error { return nil }); err != nil {
				t.Fatal(err)
			}
			release <- struct{}{}
			if err := <-first; err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-second:
				t.Fatalf("the second group answered with the first's release (%v)", err)
			case <-time.After(50 * time.Millisecond):
			}
			release <- struct{}{}
			if err := <-second; err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if fmt.Sprint(seen) != "[1 2]" {
				t.Fatalf("waits for %v, want [1 2]", seen)
			}
			// Removed: no wait.
			e.SetCommitWait(nil)
			if err := <-insert(3); err != nil {
				t.Fatal(err)
			}
			if len(seen) != 2 {
				t.Fatalf("waits for %v after removal", seen)
			}
		})
	}
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 5 s")
		}
	}
}
