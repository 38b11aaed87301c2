package engine

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLocksConflictTimeoutAndUpgrade(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	ctx := context.Background()
	a, b := e.Locks().NewLocker(), e.Locks().NewLocker()
	k1 := LockKey(nil, tb, row(iv(1), sv(""), null(), null()))
	if _, err := a.Lock(ctx, tb, k1, false, time.Second); err != nil {
		t.Fatal(err)
	}
	// Shared locks share; an exclusive one waits for both.
	if _, err := b.Lock(ctx, tb, k1, false, time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Lock(ctx, tb, k1, true, 20*time.Millisecond); !errors.Is(err, ErrLockWaitTimeout) {
		t.Fatalf("upgrade while another shares: %v", err)
	}
	// Two upgraders wait for each other: the second is the deadlock victim.
	done := make(chan error, 1)
	go func() { _, err := a.Lock(ctx, tb, k1, true, 5*time.Second); done <- err }()
	for e.Locks().Waiting() == 0 {
		time.Sleep(time.Millisecond)
	}
	if _, err := b.Lock(ctx, tb, k1, true, 5*time.Second); !errors.Is(err, ErrDeadlock) {
		t.Fatalf("second upgrader: %v", err)
	}
	b.ReleaseAll()
	if err := <-done; err != nil {
		t.Fatalf("first upgrader after the victim let go: %v", err)
	}
	// A cancelled wait ends with the context's error.
	cctx, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if _, err := b.Lock(cctx, tb, k1, false, 5*time.Second); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", err)
	}
	a.ReleaseAll()
	a.ReleaseAll()
	if n := e.Locks().Len(); n != 0 {
		t.Fatalf("%d rows still locked", n)
	}
}

// TestLocksCounterUnderRace has goroutines increment shared counters, each
// under the exclusive lock of its row; run with -race it also checks the
// table's own synchronisation.
func TestLocksCounterUnderRace(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	const workers, rounds, rows = 8, 200, 3
	var counters [rows]int64 // guarded by the row locks only
	var deadlocks atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			l := e.Locks().NewLocker()
			for i := 0; i < rounds; i++ {
				// Two rows in an order that varies: deadlocks happen
				// and must be reported, never hang.
				r1, r2 := (w+i)%rows, (w+2*i+1)%rows
				ok := true
				for _, r := range []int{r1, r2} {
					_, err := l.Lock(context.Background(), tb, LockKey(nil, tb, row(iv(int64(r)), sv(""), null(), null())), true, 10*time.Second)
					if errors.Is(err, ErrDeadlock) {
						deadlocks.Add(1)
						ok = false
						break
					} else if err != nil {
						t.Error(err)
						return
					}
				}
				if ok {
					counters[r1]++
					if r2 != r1 {
						counters[r2]++
					}
				}
				l.ReleaseAll()
			}
		}(w)
	}
	wg.Wait()
	if n := e.Locks().Len(); n != 0 {
		t.Fatalf("%d rows still locked", n)
	}
	t.Logf("deadlocks reported: %d", deadlocks.Load())
}

// TestLockFresh: Lock says whether the lock is new to the Locker (the row
// must then be read again), whether or not it had to wait: a lock held
// already in the mode asked, or exclusively, is not new; an upgrade is.
func TestLockFresh(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	ctx := context.Background()
	a := e.Locks().NewLocker()
	k := LockKey(nil, tb, row(iv(1), sv(""), null(), null()))
	for i, c := range []struct {
		exclusive, fresh bool
	}{{false, true}, {false, false}, {true, true}, {true, false}, {false, false}} {
		fresh, err := a.Lock(ctx, tb, k, c.exclusive, time.Second)
		if err != nil || fresh != c.fresh {
			t.Fatalf("step %d (exclusive %v): fresh %v, %v; want %v", i, c.exclusive, fresh, err, c.fresh)
		}
	}
	a.ReleaseAll()
	if fresh, err := a.Lock(ctx, tb, k, false, time.Second); err != nil || !fresh {
		t.Fatalf("after ReleaseAll: fresh %v, %v", fresh, err)
	}
}
