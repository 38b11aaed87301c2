package hsfront

import (
	"sync"
	"testing"
	"time"
)

// TestObserveBatches: the latency hook is called once per batch, class
// and result, with each request's share of the batch's time; a write
// run's time runs from its preparing to its answers, so it holds the wait
// for the writer (here a 40 ms hold before the run is applied).
func TestObserveBatches(t *testing.T) {
	type obs struct {
		write bool
		op    Op
		ok    bool
		d     time.Duration
		n     int
	}
	var (
		mu  sync.Mutex
		got []obs
	)
	_, s := startTestServer(t, Config{Observe: func(write bool, op Op, ok bool, d time.Duration, n int) {
		mu.Lock()
		got = append(got, obs{write, op, ok, d, n})
		mu.Unlock()
	}})
	w := dial(t, s.WriteAddr())
	w.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n", "0\t1\n")
	var once sync.Once
	hook := func() { once.Do(func() { time.Sleep(40 * time.Millisecond) }) }
	beforeApply.Store(&hook)
	t.Cleanup(func() { beforeApply.Store(nil) })
	w.do("1\t+\t3\t1001\ta\t1\n1\t+\t3\t1002\tb\t2\n1\t+\t3\t1001\tc\t3\n", "0\t1\n", "0\t1\n", "1\t1\t121\n")
	r := dial(t, s.ReadAddr())
	r.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n1\t=\t1\t1001\n1\t=\t1\t1002\n1\t=\t1\t9999\n",
		"0\t1\n", "0\t3\t1001\ta\t1\n", "0\t3\t1002\tb\t2\n", "0\t3\n")
	mu.Lock()
	defer mu.Unlock()
	var insOK, insErr, finds *obs
	for i := range got {
		o := &got[i]
		switch {
		case o.write && o.op == OpInsert && o.ok:
			insOK = o
		case o.write && o.op == OpInsert:
			insErr = o
		case !o.write && o.op == OpFind:
			finds = o
		}
	}
	if insOK == nil || insOK.n != 2 || insErr == nil || insErr.n != 1 {
		t.Fatalf("write observations %+v: want 2 inserts ok and 1 failed in one call each", got)
	}
	if insOK.d < 40*time.Millisecond/3 || insOK.d != insErr.d {
		t.Errorf("inserts' share %v and %v: want equal shares of a run that waited 40 ms", insOK.d, insErr.d)
	}
	if finds == nil || finds.n != 3 {
		t.Errorf("read observations %+v: want the batch's 3 finds in one call", got)
	}
}
