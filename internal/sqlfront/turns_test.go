package sqlfront

import (
	"testing"
	"time"
)

// TestTurns: statements answered back to back add up to a turn and the
// connection yields once it is spent; a wait for the client's next
// command (the goroutine slept) starts a new turn.
func TestTurns(t *testing.T) {
	var tr turns
	at := time.Unix(1000, 0)
	stmt := turnBudget / 4
	run := func(gap time.Duration) bool {
		at = at.Add(gap)
		start := at
		tr.began(start)
		at = at.Add(stmt)
		return tr.ended(start, at)
	}
	for i := 1; i <= 3; i++ {
		if run(time.Microsecond) {
			t.Fatalf("statement %d of a turn yielded", i)
		}
	}
	if !run(time.Microsecond) {
		t.Fatal("a fourth back-to-back statement of a quarter turn did not yield")
	}
	if run(time.Microsecond) {
		t.Fatal("the statement after a yield yielded")
	}
	// the client took its time: the goroutine slept, the turn starts over
	for i := 0; i < 10; i++ {
		if run(parkedAfter + time.Microsecond) {
			t.Fatalf("statement %d after sleeps yielded", i)
		}
	}
	for i, want := range []bool{false, false, true} {
		if run(time.Microsecond) != want {
			t.Fatalf("back-to-back statement %d after a sleep: yield %v, want %v", i+2, !want, want)
		}
	}
}
