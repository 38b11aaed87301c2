package engine

import "sync/atomic"

// slotTable is the row cache's table of one shard: entries by their key's
// 64-bit hash, in one array with linear probing. A lookup reads one slot
// (two share a cache line) and then the entry, where a Go map reads its
// control word, its slot and then the entry: on a cache larger than the
// processor's caches every one of those is a miss. Deleting shifts the
// following run back, so there are no tombstones. Not safe for concurrent
// use: the shard's mutex guards it.
type slotTable struct {
	slots []slot // len a power of two, or nil
	n     int    // slots in use
	// view publishes slots' array for Prefetcher, which takes addresses
	// in it without the shard's lock (it reads nothing there): set on
	// every grow, so it is always an array the table has used.
	view atomic.Pointer[[]slot]
}

// slot holds one entry (nil: free) and its hash.
type slot struct {
	h uint64
	e []byte
}

// home is h's first slot. The low bits of h chose the shard, so the
// table uses the high ones.
func (t *slotTable) home(h uint64) int {
	return homeIn(h, len(t.slots))
}

// homeIn is h's first slot in a table of n slots.
func homeIn(h uint64, n int) int {
	return int(h>>32) & (n - 1)
}

// find returns the index of h's slot, or -1.
func (t *slotTable) find(h uint64) int {
	if t.n == 0 {
		return -1
	}
	mask := len(t.slots) - 1
	for i := t.home(h); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.e == nil {
			return -1
		}
		if s.h == h {
			return i
		}
	}
}

// get returns h's entry, or nil.
func (t *slotTable) get(h uint64) []byte {
	if i := t.find(h); i >= 0 {
		return t.slots[i].e
	}
	return nil
}

// set stores e (not nil) as h's entry, replacing any.
func (t *slotTable) set(h uint64, e []byte) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	mask := len(t.slots) - 1
	for i := t.home(h); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.e == nil {
			*s = slot{h, e}
			t.n++
			return
		}
		if s.h == h {
			s.e = e
			return
		}
	}
}

// grow doubles the table (16 slots at first) and places every entry again.
func (t *slotTable) grow() {
	old := t.slots
	t.slots = make([]slot, max(16, 2*len(old)))
	t.n = 0
	view := t.slots
	t.view.Store(&view)
	for _, s := range old {
		if s.e != nil {
			t.set(s.h, s.e)
		}
	}
}

// delete empties slot i, moving back the entries after it that would no
// longer be found past the gap.
func (t *slotTable) delete(i int) {
	mask := len(t.slots) - 1
	for j := i; ; {
		j = (j + 1) & mask
		if t.slots[j].e == nil {
			break
		}
		// The entry at j may move to i unless its home lies cyclically in
		// (i, j]: then the gap at i does not stand between it and j.
		k := t.home(t.slots[j].h)
		if i <= j && i < k && k <= j || i > j && (i < k || k <= j) {
			continue
		}
		t.slots[i] = t.slots[j]
		i = j
	}
	t.slots[i] = slot{}
	t.n--
}

// any returns the index of a used slot at or after start (wrapping), or
// -1 when the table is empty: eviction's pick.
func (t *slotTable) any(start uint64) int {
	if t.n == 0 {
		return -1
	}
	mask := len(t.slots) - 1
	for i := int(start) & mask; ; i = (i + 1) & mask {
		if t.slots[i].e != nil {
			return i
		}
	}
}

// reset empties the table, keeping its array.
func (t *slotTable) reset() {
	clear(t.slots)
	t.n = 0
}
