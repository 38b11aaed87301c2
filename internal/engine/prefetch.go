package engine

import (
	"unsafe"

	"github.com/handlerdb/handlerdb/internal/types"
)

// Prefetcher asks the processor, ahead of time, for the row-cache memory
// a batch of point lookups is about to read, so that the lookups' cache
// misses overlap instead of coming one after another.
//
// A hit reads two places no processor cache holds once the row cache is
// larger than them: the key's slot, and then the entry the slot points to.
// Measured on pipelined finds they were a third of a find's CPU, almost
// all of it waiting for memory. A connection's buffer often holds many
// finds; Add, called for each of them before any runs, issues a prefetch
// of each key's slot, and Issue then a prefetch of each found entry, so by
// the time the finds run their memory is in the cache or on its way.
//
// It changes nothing that a lookup returns: a prefetch only loads memory,
// and one made stale by a write in between costs a wasted load. Not safe
// for concurrent use; each connection's serving code keeps its own.
type Prefetcher struct {
	key   []byte
	hints []prefetchHint
}

type prefetchHint struct {
	h uint64
	s *cacheShard
}

// maxPrefetch bounds the lookups one Issue prefetches for: about what the
// processor can have in flight.
const maxPrefetch = 16

// Add notes a point lookup of key on idx of t (a full key of a unique
// index, as Find would run it) and prefetches its slot. It reports false
// when there is nothing to prefetch: no row cache, a lookup that is not a
// point one, or a full batch.
func (p *Prefetcher) Add(e *Engine, t *Table, idx *Index, key []types.Value) bool {
	c := e.rc
	// Only primary keys: a unique secondary entry leads on to the row,
	// which would take a look-ahead of its own.
	if c == nil || len(p.hints) >= maxPrefetch || !idx.Primary {
		return false
	}
	var null bool
	if p.key, null = appendFindKey(p.key[:0], t, idx, key); !isPointKey(idx, key, null) {
		return false
	}
	h, s := c.hash(p.key)
	if v := s.m.view.Load(); v != nil {
		sl := *v
		prefetch(unsafe.Pointer(&sl[homeIn(h, len(sl))]))
	}
	p.hints = append(p.hints, prefetchHint{h, s})
	return true
}

// Issue prefetches the entries of the lookups Add noted (their slots
// should have arrived by now) and forgets them.
func (p *Prefetcher) Issue() {
	for _, hi := range p.hints {
		s := hi.s
		s.mu.Lock()
		if e := s.m.get(hi.h); len(e) > 0 {
			prefetch(unsafe.Pointer(unsafe.SliceData(e)))
			if len(e) > 64 {
				prefetch(unsafe.Pointer(&e[len(e)-1]))
			}
		}
		s.mu.Unlock()
	}
	p.hints = p.hints[:0]
}
