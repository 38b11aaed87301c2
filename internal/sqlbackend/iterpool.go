package sqlbackend

import "github.com/handlerdb/handlerdb/internal/engine"

// iterPool keeps, while a session has index walks open, the engine
// iterators over committed data its walks finished with, for the next
// walk (or range of a walk) of the same index: a lookup join opens one
// walk per joined row, an IN list one range per value, and resetting an
// iterator (engine.Iterator.Reset) costs less than opening one. An iterator is reused only while the store is
// unchanged since the quiet point taken before it was opened, so a walk
// sees exactly what a new iterator would. When the session's last open
// iterator closes (at the latest when the command ends) the pool is
// emptied: no iterator outlives the statement that opened it and keeps
// the store's old files. It belongs to its Session and, like it, is used
// by one goroutine at a time.
type iterPool struct {
	open   int // the session's index walks now open (rangeIter)
	free   []pooledIter
	reused int // counts the walks that took a pooled iterator
}

// pooledIter is an iterator a walk finished with.
type pooledIter struct {
	it   *engine.Iterator
	t    *engine.Table
	idx  *engine.Index
	mark uint64 // the quiet point taken before it was opened
}

// poolMax bounds the iterators a pool keeps.
const poolMax = 4

// take returns a pooled iterator of t's idx reset to rg, or nil. A pooled
// iterator of that index whose store has changed is closed.
func (p *iterPool) take(e *engine.Engine, t *engine.Table, idx *engine.Index, rg engine.Range, reverse bool) (*engine.Iterator, uint64) {
	for i := range p.free {
		f := p.free[i]
		if f.t != t || f.idx != idx {
			continue
		}
		p.free = append(p.free[:i], p.free[i+1:]...)
		if e.Unchanged(f.mark) && f.it.Reset(rg, reverse) == nil {
			p.reused++
			return f.it, f.mark
		}
		_ = f.it.Close()
		return nil, 0
	}
	return nil, 0
}

// put keeps an iterator a walk finished with, or closes it.
func (p *iterPool) put(f pooledIter) {
	if len(p.free) >= poolMax {
		_ = f.it.Close()
		return
	}
	p.free = append(p.free, f)
}

// flush closes every pooled iterator.
func (p *iterPool) flush() {
	for _, f := range p.free {
		_ = f.it.Close()
	}
	clear(p.free)
	p.free = p.free[:0]
}

// opened counts a walk opened.
func (p *iterPool) opened() { p.open++ }

// closed counts a walk closed and empties the pool when none is left
// open.
func (p *iterPool) closed() {
	if p.open > 0 {
		p.open--
	}
	if p.open == 0 && len(p.free) > 0 {
		p.flush()
	}
}
