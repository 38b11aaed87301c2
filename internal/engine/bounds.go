package engine

import (
	"bytes"

	"github.com/cockroachdb/pebble/v2"
)

// keyBounds lets the writer answer "is this key absent?" without a read
// when the key is above every key its index holds: an insert's
// duplicate-key check (checkAbsent) of an ascending primary key, the way
// AUTO_INCREMENT and time-ordered ids insert, otherwise costs a Pebble
// Get that finds nothing (a quarter of a pipelined insert's CPU).
//
// For each index asked about it keeps hi, the greatest key the committed
// store holds (nil: none), read once by seeking to the index's last key,
// and, while a group runs, the greatest key the group has written. A key
// is absent when it is above hi and the group's keySet of written keys
// (pend, which has no false negatives) does not hold it. Every data write
// of a group goes through batchWriter.set, which notes the key; when the
// group goes to commit its greatest keys are merged into hi. A key
// counted that way and then not committed (a failed commit, a job rolled
// back) leaves hi higher than needed, which only sends later checks to
// Pebble. Writes that bypass the batch (the sstables of staged jobs) drop
// every bound, to be read again. Range deletions only remove keys, so
// the bounds stay above what is left.
//
// Touched only by the writer goroutine.
type keyBounds struct {
	m       map[string]*keyBound // by index prefix
	touched []*keyBound          // bounds whose group maximum is set
}

type keyBound struct {
	hi      []byte // greatest committed key, nil when there is none
	group   []byte // greatest key the running group wrote, when inGroup
	inGroup bool   // the running group wrote a key (the bound is on touched)
}

// note records that the running group writes key k.
func (kb *keyBounds) note(k []byte) {
	if len(kb.m) == 0 || len(k) < indexPrefixLen || k[0] != dataPrefix {
		return
	}
	b := kb.m[string(k[:indexPrefixLen])]
	if b == nil {
		return // not tracked: its first check reads the store
	}
	if !b.inGroup {
		b.inGroup = true
		b.group = append(b.group[:0], k...)
		kb.touched = append(kb.touched, b)
	} else if bytes.Compare(k, b.group) > 0 {
		b.group = append(b.group[:0], k...)
	}
}

// merge counts the running group's keys as committed; called as the
// group goes to commit.
func (kb *keyBounds) merge() {
	for _, b := range kb.touched {
		if b.hi == nil || bytes.Compare(b.group, b.hi) > 0 {
			b.hi = append(b.hi[:0], b.group...)
		}
		b.inGroup = false
	}
	kb.touched = kb.touched[:0]
}

// reset forgets every bound (the store changed outside the batch).
func (kb *keyBounds) reset() {
	clear(kb.m)
	kb.touched = kb.touched[:0]
}

// above reports whether key of the index with prefix is above every
// committed key of that index. The first time an index is asked about,
// its last key is read from r, the group's batch over the store: that
// counts the keys the group wrote before as committed too (they were not
// noted, having no bound yet).
func (kb *keyBounds) above(r pebble.Reader, prefix, key []byte) (bool, error) {
	b := kb.m[string(prefix)]
	if b == nil {
		it, err := r.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(nil, prefix)})
		if err != nil {
			return false, err
		}
		b = &keyBound{}
		if it.Last() {
			b.hi = bytes.Clone(it.Key())
		}
		if err := it.Close(); err != nil {
			return false, err
		}
		if kb.m == nil {
			kb.m = map[string]*keyBound{}
		}
		kb.m[string(prefix)] = b
	}
	return b.hi == nil || bytes.Compare(key, b.hi) > 0, nil
}
