package engine

import (
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// Shadowed versions. Pebble's memtable keeps every version of a key
// written since the last flush, and a read steps over all of them to reach
// the newest. Rows updated over and over (the hot rows of a skewed
// workload: sysbench's default distribution sends 75% of its writes to 1%
// of the rows) thus make every range read over them slower until the
// memtable fills and flushes: oltp_read_write's iterators stepped over 25
// internal entries per row returned after ten seconds, and Pebble's
// skiplist steps were a fifth of the server's CPU. A flush writes each
// key's newest version only (and the versions open snapshots still see).
//
// So the engine watches its iterators: each one's forward and backward
// steps, as the reader saw them and as Pebble made them internally, are
// added up when it closes (Iterator.Close). Once enough internal steps
// have been made since the last decision (versionCheckSteps), the ratio is
// looked at: when reads made more than versionFlushRatio internal steps
// per visible one, the memtable is flushed, at most once per
// versionFlushGap. A store that is not rewritten keeps a ratio near 1 and
// is never flushed early. On oltp_read_write (8 threads, 4x20000 rows)
// the server's CPU per transaction fell to about 0.7x (3 alternating
// rounds). Deciding every 1M internal steps instead of 256K used 1.13x
// the CPU of this; flushing up to four times a second at a ratio of 3
// measured the same as this.
const (
	versionCheckSteps = 1 << 18
	versionFlushRatio = 4
	versionFlushGap   = time.Second
)

// versionWatch adds up iterator steps and decides the early flushes.
// Safe for concurrent use: counters are atomic, and one flush at a time
// runs on its own goroutine.
type versionWatch struct {
	visible, internal atomic.Int64
	flushing          atomic.Bool
	last              atomic.Int64 // unix nanoseconds of the last early flush
}

// observeVersions adds the steps of a Pebble iterator about to close, and
// starts an early flush when they call for one.
func (e *Engine) observeVersions(it *pebble.Iterator) {
	v := &e.versions
	st := it.Stats()
	vis := int64(st.ForwardStepCount[pebble.InterfaceCall] + st.ReverseStepCount[pebble.InterfaceCall] +
		st.ForwardSeekCount[pebble.InterfaceCall] + st.ReverseSeekCount[pebble.InterfaceCall])
	in := int64(st.ForwardStepCount[pebble.InternalIterCall] + st.ReverseStepCount[pebble.InternalIterCall])
	v.visible.Add(vis)
	if v.internal.Add(in) < versionCheckSteps {
		return
	}
	if v.decide(time.Now()) {
		go e.earlyFlush()
	}
}

// decide resets the counters and reports whether the reads since the last
// decision stepped over so many versions that the memtable should be
// flushed now. When it says so, the caller must run the flush and clear
// flushing after it.
func (v *versionWatch) decide(now time.Time) bool {
	in := v.internal.Swap(0)
	vis := v.visible.Swap(0)
	if in < versionCheckSteps || in < versionFlushRatio*max(vis, 1) {
		return false
	}
	if now.UnixNano()-v.last.Load() < int64(versionFlushGap) || !v.flushing.CompareAndSwap(false, true) {
		return false
	}
	v.last.Store(now.UnixNano())
	return true
}

// earlyFlush flushes the memtable for versionWatch and waits for the
// flush, unless the engine is closing (Close waits for it through
// pending: Pebble refuses every call once closed).
func (e *Engine) earlyFlush() {
	defer e.versions.flushing.Store(false)
	e.mu.RLock()
	if e.closed {
		e.mu.RUnlock()
		return
	}
	e.pending.Add(1)
	e.mu.RUnlock()
	defer e.pending.Done()
	e.stats.EarlyFlushes.Add(1)
	if done, err := e.db.AsyncFlush(); err == nil {
		<-done
	}
}
