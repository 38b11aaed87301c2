package engine

import (
	"errors"
	"hash/maphash"
	"sync"

	"github.com/cockroachdb/pebble/v2"
)

// rowCache holds the committed values of recently read index entries
// (primary-key rows and unique secondary entries), so that a point lookup
// that hits costs a hash and a map probe instead of a Pebble Get through
// the memtables and levels.
//
// It is not a second copy of the data to keep in step by hand: it only
// ever holds a value read from Pebble, and the writer goroutine, the one
// place every change goes through, brackets each group commit with
// beginCommit and endCommit over the keys of the batch. beginCommit drops
// those keys and marks their shards busy; while a shard is busy no read
// may fill it, and endCommit bumps its generation, so a value read from
// Pebble before the commit (the old value) can never be filled after it.
// Between beginCommit and endCommit a lookup misses and reads Pebble,
// which makes the commit visible atomically; so no reader sees an old
// value after any reader has seen the new one.
//
// A key read and found absent is cached too, as an entry without a value
// (the absent bit of its header): a lookup of a key that is not there,
// such as a delete of a row deleted before, otherwise walks Pebble's
// memtables and every level whose files hold the key's tombstone. An
// absent entry is filled and dropped exactly as a value is.
//
// Eviction takes the entries after a pseudo-random slot once a shard is
// over its share of the byte budget. Safe for concurrent use.
type rowCache struct {
	seed     maphash.Seed
	shards   []cacheShard
	mask     uint64
	maxShard int64  // byte budget of each shard
	was      []bool // beginCommit: whether each data key of the batch was cached
	// old holds, for each key beginCommit dropped, its entry's memory,
	// which endCommit reuses for the new value: no reader can hold it once
	// it is out of the table (a hit copies the value under the lock).
	old [][]byte
}

// cacheShard is one lock's worth of the cache. Entries are keyed by the
// key's 64-bit hash and hold the key itself (after a 2-byte header: the
// key's length, and absentBit for a key known absent) and then the value
// in one allocation, so a lookup probes a table of
// integers (slots.go) and touches one block of memory. Two keys with the same hash share the
// slot: the entry names its key, so a lookup of the other key misses.
type cacheShard struct {
	mu     sync.Mutex
	m      slotTable
	bytes  int64
	gen    uint64 // bumped whenever a commit touching the shard ends
	busy   int32  // commits in flight that touch the shard
	hits   int64
	misses int64
	_      [64]byte // keep shards on separate cache lines
}

// entryOverhead approximates the map slot and slice header of one entry.
const entryOverhead = 48

func newRowCache(size int64) *rowCache {
	n := 256 // shards: fewer for a small cache, so each holds some rows
	for n > 1 && size/int64(n) < 4<<10 {
		n /= 2
	}
	return &rowCache{seed: maphash.MakeSeed(), shards: make([]cacheShard, n), mask: uint64(n - 1), maxShard: size / int64(n)}
}

func (c *rowCache) hash(key []byte) (uint64, *cacheShard) {
	h := maphash.Bytes(c.seed, key)
	return h, &c.shards[h&c.mask]
}

// absentBit marks, in an entry's header, a key known to have no value.
// Keys longer than maxCachedKey are not cached.
const (
	absentBit    = 0x80
	maxCachedKey = 0x7fff
)

// entryValue returns the value of entry e if e holds key (hit); absent
// says the entry records that key has no value.
func entryValue(e, key []byte) (v []byte, hit, absent bool) {
	if len(e) < 2+len(key) || int(e[0]&^absentBit)<<8|int(e[1]) != len(key) || string(e[2:2+len(key)]) != string(key) {
		return nil, false, false
	}
	return e[2+len(key):], true, e[0]&absentBit != 0
}

// get appends key's cached value to dst[:0]. ok says the cache knows the
// key: found then says whether it has a value. On a miss it returns the
// shard generation to pass to fill, and ok false; fillable is false when a
// commit on the shard is in flight.
func (c *rowCache) get(h uint64, s *cacheShard, key, dst []byte) (v []byte, ok, found bool, gen uint64, fillable bool) {
	s.mu.Lock()
	if cv, hit, absent := entryValue(s.m.get(h), key); hit {
		dst = append(dst[:0], cv...)
		s.hits++
		s.mu.Unlock()
		return dst, true, !absent, 0, false
	}
	s.misses++
	gen, fillable = s.gen, s.busy == 0
	s.mu.Unlock()
	return dst, false, false, gen, fillable
}

// fill stores val for key (found false: that key has no value) if no
// commit touched the shard since gen was read and the slot is free.
func (c *rowCache) fill(h uint64, s *cacheShard, key, val []byte, found bool, gen uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen != gen || s.busy != 0 {
		return
	}
	if s.m.find(h) >= 0 {
		return
	}
	c.putEntry(h, s, key, val, !found, nil)
}

// put stores key and val in slot h, evicting random entries to stay within
// the shard's budget; s.mu must be held.
func (c *rowCache) put(h uint64, s *cacheShard, key, val []byte) {
	c.putEntry(h, s, key, val, false, nil)
}

// putInto is put that builds a new entry in spare's memory when it is
// large enough (spare must be referenced by nothing else).
func (c *rowCache) putInto(h uint64, s *cacheShard, key, val, spare []byte) {
	c.putEntry(h, s, key, val, false, spare)
}

// putEntry stores key's entry in slot h: val, or, when absent, the mark
// that key has no value (val is then empty).
func (c *rowCache) putEntry(h uint64, s *cacheShard, key, val []byte, absent bool, spare []byte) {
	need := int64(2+len(key)+len(val)) + entryOverhead
	if need > c.maxShard || len(key) > maxCachedKey {
		s.remove(h)
		return
	}
	n := 2 + len(key) + len(val)
	head := byte(len(key) >> 8)
	if absent {
		head |= absentBit
	}
	if i := s.m.find(h); i >= 0 {
		old := s.m.slots[i].e
		if cap(old) >= n {
			// Rows rewritten in place usually keep their size class.
			e := old[:n]
			e[0], e[1] = head, byte(len(key))
			copy(e[2+copy(e[2:], key):], val)
			s.m.slots[i].e = e
			s.bytes += int64(n - len(old))
			return
		}
		s.remove(h)
	}
	// Evict from a slot the new key's hash picks (scrambled, so that it is
	// not the key's own home), onwards.
	pick := (h * 0x9e3779b97f4a7c15) >> 32
	for s.bytes+need > c.maxShard {
		i := s.m.any(pick)
		if i < 0 {
			break
		}
		s.bytes -= int64(len(s.m.slots[i].e)) + entryOverhead
		s.m.delete(i)
	}
	var e []byte
	if cap(spare) >= n {
		e = spare[:2]
	} else {
		e = make([]byte, 2, (n+15)&^15)
	}
	e[0], e[1] = head, byte(len(key))
	s.m.set(h, append(append(e, key...), val...))
	s.bytes += need
}

// drop empties slot h, marks s busy and reports whether the slot held
// key, with the memory of the entry it removed; s.mu must be held.
func (s *cacheShard) drop(h uint64, key []byte) (bool, []byte) {
	s.busy++
	e := s.m.get(h)
	_, was, _ := entryValue(e, key)
	s.remove(h)
	return was, e
}

// remove empties slot h; s.mu must be held.
func (s *cacheShard) remove(h uint64) {
	if i := s.m.find(h); i >= 0 {
		s.bytes -= int64(len(s.m.slots[i].e)) + entryOverhead
		s.m.delete(i)
	}
}

// beginCommit is called by the writer before committing b: it drops every
// data key of b and marks their shards busy, remembering which keys were
// cached (endCommit puts their new values back). all says b holds a range
// deletion: then every shard is emptied and marked. beginCommit and
// endCommit are called by the writer goroutine only.
func (c *rowCache) beginCommit(b *pebble.Batch, all bool) {
	if all {
		for i := range c.shards {
			s := &c.shards[i]
			s.mu.Lock()
			s.m.reset()
			s.bytes = 0
			s.busy++
			s.mu.Unlock()
		}
		return
	}
	c.was, c.old = c.was[:0], c.old[:0]
	eachDataKey(b, func(_ pebble.InternalKeyKind, k, _ []byte) {
		h, s := c.hash(k)
		s.mu.Lock()
		was, old := s.drop(h, k)
		c.was, c.old = append(c.was, was), append(c.old, old)
		s.mu.Unlock()
	})
}

// endCommit is called by the writer once b's commit returned, with
// beginCommit's all and whether the commit succeeded. Keys that were
// cached get the value b gave them, or the mark that they have none (the
// last write of a key decides), then
// every shard beginCommit marked has its generation bumped and is
// unmarked.
func (c *rowCache) endCommit(b *pebble.Batch, all, committed bool) {
	if all {
		for i := range c.shards {
			s := &c.shards[i]
			s.mu.Lock()
			s.gen++
			s.busy--
			s.mu.Unlock()
		}
		return
	}
	i := 0
	eachDataKey(b, func(kind pebble.InternalKeyKind, k, v []byte) {
		h, s := c.hash(k)
		s.mu.Lock()
		switch {
		case !committed || i >= len(c.was) || !c.was[i]:
			s.remove(h)
		case kind == pebble.InternalKeyKindSet:
			c.putInto(h, s, k, v, c.old[i])
		case kind == pebble.InternalKeyKindDelete || kind == pebble.InternalKeyKindSingleDelete || kind == pebble.InternalKeyKindDeleteSized:
			c.putEntry(h, s, k, nil, true, c.old[i])
		default:
			s.remove(h)
		}
		s.gen++
		s.busy--
		s.mu.Unlock()
		i++
	})
	clear(c.old) // hold no dropped entry until the next commit
}

// eachDataKey calls fn with every record of b whose key is an index entry,
// in the batch's order.
func eachDataKey(b *pebble.Batch, fn func(kind pebble.InternalKeyKind, k, v []byte)) {
	r := b.Reader()
	for {
		kind, k, v, ok, err := r.Next()
		if !ok || err != nil {
			return
		}
		if len(k) > 0 && k[0] == dataPrefix {
			fn(kind, k, v)
		}
	}
}

// RowCacheStats are the row cache's counters.
type RowCacheStats struct {
	Hits, Misses int64
	Bytes        int64 // approximate memory held
	Entries      int64
}

// RowCacheStats sums the row cache's counters (zero when it is off). Safe
// for concurrent use.
func (e *Engine) RowCacheStats() RowCacheStats {
	var st RowCacheStats
	if e.rc == nil {
		return st
	}
	for i := range e.rc.shards {
		s := &e.rc.shards[i]
		s.mu.Lock()
		st.Hits += s.hits
		st.Misses += s.misses
		st.Bytes += s.bytes
		st.Entries += int64(s.m.n)
		s.mu.Unlock()
	}
	return st
}

// keySet remembers which keys a pending batch has written, by hash, so a
// point read can tell whether the batch may hold the key (a false positive
// only sends the read through the batch). Not safe for concurrent use.
type keySet struct {
	seed maphash.Seed
	m    map[uint64]struct{}
	all  bool // a range deletion: every key may be in the batch
}

func (s *keySet) add(key []byte) {
	if s.m == nil {
		s.seed = maphash.MakeSeed()
		s.m = map[uint64]struct{}{}
	}
	s.m[maphash.Bytes(s.seed, key)] = struct{}{}
}

func (s *keySet) has(key []byte) bool {
	if s.all {
		return true
	}
	if len(s.m) == 0 {
		return false
	}
	_, ok := s.m[maphash.Bytes(s.seed, key)]
	return ok
}

// keySetKeep bounds the set a reset clears: a larger one is dropped and
// the next add makes a new one. clear costs the map's capacity, which
// stays at its largest: after one bulk group (a dump's multi-row INSERT,
// a load) every later group of a few keys paid for it (2% of the server's
// CPU under sysbench's oltp_insert and memcached sets).
const keySetKeep = 1024

func (s *keySet) reset() {
	if len(s.m) > keySetKeep {
		s.m = nil
	} else {
		clear(s.m)
	}
	s.all = false
}

// pointSource is where point reads of one reader go: r (the DB, or a
// batch over it), through the row cache when there is one. pend, when r is
// a batch, holds the keys the batch has written: those are read from r,
// every other key from the cache and the DB.
type pointSource struct {
	db    *pebble.DB
	cache *rowCache
	pend  *keySet
}

// get appends key's value to dst[:0]; found is false when there is none.
func (ps *pointSource) get(r pebble.Reader, key, dst []byte) (v []byte, found bool, err error) {
	c := ps.cache
	if c == nil || (ps.pend != nil && ps.pend.has(key)) {
		return readInto(r, key, dst)
	}
	h, s := c.hash(key)
	v, ok, found, gen, fillable := c.get(h, s, key, dst)
	if ok {
		return v, found, nil
	}
	v, found, err = readInto(ps.db, key, dst)
	if err == nil && fillable {
		c.fill(h, s, key, v, found, gen)
	}
	return v, found, err
}

// readInto appends key's value in r to dst[:0].
func readInto(r pebble.Reader, key, dst []byte) ([]byte, bool, error) {
	v, closer, err := r.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return dst[:0], false, nil
	} else if err != nil {
		return dst[:0], false, err
	}
	dst = append(dst[:0], v...)
	closer.Close()
	return dst, true, nil
}
