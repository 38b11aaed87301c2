package engine

import (
	"context"
	"encoding/binary"
	"sync"
	"time"
)

// Deferred range deletions. ALTER TABLE writes a table's rows under new
// index ids and DROP INDEX retires an index, and the new catalog is
// published just after the group commits. A reader that resolved the
// table from the catalog before (a HandlerSocket handle, a SQL plan, even
// one a microsecond before the publication) reads the old index ids; if
// their entries were gone it would find nothing where rows are. So the old
// entries are deleted later, dropGrace after the change: until then such a
// reader sees the table as it was before the change, which is a state the
// table had. The ranges wait in one record of the store (dropsKey), so a
// restart still deletes them.

// dropGrace is how long retired index entries stay readable.
var dropGrace = 10 * time.Second // a variable for the tests

var dropsKey = []byte{sysPrefix, sysDrops}

// laterDrop is one range to delete once its time has come.
type laterDrop struct {
	due        int64 // unix nanoseconds
	start, end []byte
}

func encodeDrops(ds []laterDrop) []byte {
	var b []byte
	for _, d := range ds {
		b = binary.AppendVarint(b, d.due)
		b = binary.AppendUvarint(b, uint64(len(d.start)))
		b = append(b, d.start...)
		b = binary.AppendUvarint(b, uint64(len(d.end)))
		b = append(b, d.end...)
	}
	return b
}

func decodeDrops(b []byte) ([]laterDrop, error) {
	var ds []laterDrop
	for len(b) > 0 {
		var d laterDrop
		var n int
		if d.due, n = binary.Varint(b); n <= 0 {
			return nil, ErrCorrupt
		}
		b = b[n:]
		for _, p := range []*[]byte{&d.start, &d.end} {
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return nil, ErrCorrupt
			}
			*p = append([]byte(nil), b[n:n+int(l)]...)
			b = b[n+int(l):]
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// dropLater records [start, end) for deletion dropGrace from now, in the
// job's batch (so it commits, or rolls back, with the change).
func (tx *Job) dropLater(start, end []byte) error {
	cur, _, err := tx.get(dropsKey)
	if err != nil {
		return err
	}
	ds, err := decodeDrops(cur)
	if err != nil {
		return err
	}
	ds = append(ds, laterDrop{due: time.Now().Add(dropGrace).UnixNano(), start: start, end: end})
	tx.dropsChanged = true
	return tx.set(dropsKey, encodeDrops(ds))
}

// dropper runs the deferred deletions: one timer, armed for the earliest
// due range. Safe for concurrent use.
type dropper struct {
	mu     sync.Mutex
	timer  *time.Timer
	closed bool
}

// schedule arms the timer to run due deletions at due (unix nanoseconds).
func (e *Engine) scheduleDrops(due int64) {
	d := &e.drops
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	wait := time.Until(time.Unix(0, due))
	if d.timer == nil {
		d.timer = time.AfterFunc(wait, e.runDrops)
		return
	}
	d.timer.Reset(wait)
}

// stopDrops stops the timer; ranges not yet deleted stay recorded for the
// next Open.
func (e *Engine) stopDrops() {
	d := &e.drops
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	if d.timer != nil {
		d.timer.Stop()
	}
}

// runDrops deletes the ranges whose time has come, as one writer job, and
// arms the timer for the next one.
func (e *Engine) runDrops() {
	var next int64
	err := e.Update(Privileged(context.Background()), func(tx *Job) error {
		next = 0
		cur, found, err := tx.get(dropsKey)
		if err != nil || !found {
			return err
		}
		ds, err := decodeDrops(cur)
		if err != nil {
			return err
		}
		now := time.Now().UnixNano()
		var keep []laterDrop
		for _, d := range ds {
			if d.due > now {
				keep = append(keep, d)
				if next == 0 || d.due < next {
					next = d.due
				}
				continue
			}
			if err := tx.delRange(d.start, d.end); err != nil {
				return err
			}
		}
		if len(keep) == 0 {
			return tx.del(dropsKey)
		}
		return tx.set(dropsKey, encodeDrops(keep))
	})
	if err != nil {
		next = time.Now().Add(dropGrace).UnixNano() // try again later (a closed engine stops the timer)
	}
	if next != 0 {
		e.scheduleDrops(next)
	}
}

// loadDrops arms the timer for ranges an earlier run left (Open).
func (e *Engine) loadDrops() error {
	v, closer, err := e.db.Get(dropsKey)
	if err != nil {
		return nil // none
	}
	ds, derr := decodeDrops(v)
	closer.Close()
	if derr != nil {
		return derr
	}
	if len(ds) > 0 {
		e.scheduleDrops(ds[0].due)
	}
	return nil
}
