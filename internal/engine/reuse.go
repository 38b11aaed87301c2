package engine

import "github.com/cockroachdb/pebble/v2"

// Reusing iterators. Opening and closing a Pebble iterator costs more than
// a seek: a reader that walks many short ranges of one index (a lookup
// join reads one per joined row) may keep an iterator of committed data
// and point it at the next range with Reset, as long as it sees what a
// new iterator would: QuietPoint and Unchanged tell it so.

// QuietPoint returns a mark of the store's state, and ok true if no
// writer job was running when it was read (every job begun had ended:
// jobsDone is read before jobsStarted). An iterator opened after a quiet
// point sees every change made until Unchanged(mark) turns false. Safe
// for concurrent use.
func (e *Engine) QuietPoint() (mark uint64, ok bool) {
	done := e.jobsDone.Load()
	started := e.jobsStarted.Load()
	return started, done == started
}

// Unchanged reports whether no writer job has begun since the quiet
// point that returned mark: the committed data is still as it was then
// (a job that writes nothing counts too). Safe for concurrent use.
func (e *Engine) Unchanged(mark uint64) bool {
	return e.jobsStarted.Load() == mark
}

// Reset points an iterator that Engine.NewIterator returned at range rg
// of the same index, walked in the order reverse gives, as if newly
// opened but in the view it was opened with (which is the store's as
// long as Unchanged holds for a quiet point taken before it was opened).
// The KeyOnly and Need settings are cleared. It fails on any other iterator (a
// snapshot's, a transaction's, the writer's). Like Next, not safe for
// concurrent use.
func (x *Iterator) Reset(rg Range, reverse bool) error {
	pi, ok := x.it.(*pebble.Iterator)
	if !ok || x.snap != nil || x.inWriter {
		return &Error{Kind: ErrKeyParts, DB: x.t.DB, Table: x.t.Name, Index: x.idx.Name, Detail: "reset of an iterator that is not over committed data"}
	}
	if _, isDB := x.r.(*pebble.DB); !isDB {
		return &Error{Kind: ErrKeyParts, DB: x.t.DB, Table: x.t.Name, Index: x.idx.Name, Detail: "reset of an iterator that is not over committed data"}
	}
	opts, err := iterBounds(x.t, x.idx, rg)
	if err != nil {
		return err
	}
	pi.SetBounds(opts.LowerBound, opts.UpperBound)
	x.reverse, x.started, x.err, x.keyOnly, x.need = reverse, false, nil, false, nil
	return nil
}
