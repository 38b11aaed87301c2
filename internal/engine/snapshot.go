package engine

import (
	"errors"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/cockroachdb/pebble/v2"
)

// Snapshot is the committed data as of one moment: a REPEATABLE READ
// transaction's consistent read. Commits made after it was taken (by SQL
// sessions, HandlerSocket writes, DDL) are invisible through it. Reads
// through a snapshot never use the row cache (which holds the newest
// values), only Pebble's own snapshot.
//
// A Snapshot may be read by several goroutines at once. Close it to let
// Pebble drop the old versions it keeps: the Pebble snapshot is released
// once the iterators open on it are closed too.
type Snapshot struct {
	s   *pebble.Snapshot
	cat *Catalog
	e   *Engine

	mu      sync.Mutex
	iters   int  // iterators open on s
	closing bool // Close was called
}

// NewSnapshot takes a snapshot of the committed data. Safe for concurrent
// use.
func (e *Engine) NewSnapshot() *Snapshot {
	// The catalog first: DDL publishes its catalog after its commit, so
	// this one is never newer than the data (it may be older, which
	// Holds then reports conservatively).
	cat := e.cat.Load()
	return &Snapshot{s: e.db.NewSnapshot(), cat: cat, e: e}
}

// Holds reports whether the snapshot holds the rows of index idx of t as
// t defines them: false when t or the index was created or rebuilt (ALTER
// TABLE writes rows under new index ids) after the snapshot was taken, or
// may have been.
func (s *Snapshot) Holds(t *Table, idx *Index) bool {
	if idx == nil {
		idx = t.Primary
	}
	old, err := s.cat.Table(t.DB, t.Name)
	if err != nil || old.ID != t.ID {
		return false
	}
	if old == t {
		return true
	}
	if old.Primary.ID == idx.ID {
		return len(old.Columns) == len(t.Columns)
	}
	for _, i := range old.Indexes {
		if i.ID == idx.ID {
			return len(old.Columns) == len(t.Columns)
		}
	}
	return false
}

// Close releases the snapshot, at once or when its last iterator closes.
// Safe to call twice.
func (s *Snapshot) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closing = true
	return s.releaseLocked()
}

func (s *Snapshot) releaseLocked() error {
	if !s.closing || s.iters > 0 || s.s == nil {
		return nil
	}
	err := s.s.Close()
	s.s = nil
	return err
}

// acquire counts an iterator opening on the snapshot.
func (s *Snapshot) acquire() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return ErrClosed
	}
	s.iters++
	return nil
}

// release counts an iterator closing.
func (s *Snapshot) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.iters--
	_ = s.releaseLocked()
}

// NewIterator iterates the snapshot's rows of idx within rg.
func (s *Snapshot) NewIterator(t *Table, idx *Index, rg Range, reverse bool) (*Iterator, error) {
	if err := s.acquire(); err != nil {
		return nil, err
	}
	it, err := newIterator(s.s, t, idx, rg, reverse, false)
	if err != nil {
		s.release()
		return nil, err
	}
	it.snap, it.e = s, s.e
	return it, nil
}

// Find runs q on the snapshot's rows as Engine.Find does on committed
// data (a point read is one Get, not an iterator), without the row cache,
// which holds the newest rows.
func (s *Snapshot) Find(t *Table, q *Query, fn func(Row) bool) error {
	if err := s.acquire(); err != nil {
		return err
	}
	defer s.release()
	return s.e.findIn(s.s, pointSource{}, t, q, fn)
}

// NewSnapshotIterator iterates s's rows of idx within rg with the
// transaction's own writes (as of the call) laid over them: the reads of a
// REPEATABLE READ transaction. Close the iterator before the next write
// of the transaction.
func (x *Txn) NewSnapshotIterator(s *Snapshot, t *Table, idx *Index, rg Range, reverse bool) (*Iterator, error) {
	if idx == nil {
		idx = t.Primary
	}
	ws := x.writeSet()
	if len(ws.sorted) == 0 {
		return s.NewIterator(t, idx, rg, reverse)
	}
	opts, err := iterBounds(t, idx, rg)
	if err != nil {
		return nil, err
	}
	if err := s.acquire(); err != nil {
		return nil, err
	}
	base, err := s.s.NewIter(opts)
	if err != nil {
		s.release()
		return nil, err
	}
	lo := sort.SearchStrings(ws.sorted, string(opts.LowerBound))
	hi := len(ws.sorted)
	if opts.UpperBound != nil {
		hi = sort.SearchStrings(ws.sorted, string(opts.UpperBound))
	}
	o := &overlayIter{base: base, b: x.w.b, keys: ws.sorted[lo:hi]}
	g := &overlayGetter{s: s.s, b: x.w.b, ws: ws}
	return &Iterator{r: g, it: o, t: t, idx: idx, reverse: reverse, snap: s, e: s.e}, nil
}

// txnWriteSet is the set of keys a transaction's batch has written, kept
// up to date incrementally from the batch's records (the batch only grows
// between rollbacks, and a rollback replaces the batch).
type txnWriteSet struct {
	b      *pebble.Batch // the batch read so far
	off    int           // bytes of its records read
	keys   map[string]struct{}
	sorted []string // keys, ascending
}

// writeSet returns the transaction's written keys, reading the batch's
// records added since the last call.
func (x *Txn) writeSet() *txnWriteSet {
	ws := &x.ws
	if ws.b != x.w.b {
		*ws = txnWriteSet{b: x.w.b, keys: map[string]struct{}{}}
	}
	r := x.w.b.Reader()
	total := len(r)
	if ws.off > total {
		*ws = txnWriteSet{b: x.w.b, keys: map[string]struct{}{}}
	}
	r = r[ws.off:]
	var added []string
	for {
		_, k, _, ok, err := r.Next()
		if !ok || err != nil {
			break
		}
		if _, seen := ws.keys[string(k)]; !seen {
			s := string(k)
			ws.keys[s] = struct{}{}
			added = append(added, s)
		}
	}
	ws.off = total - len(r)
	// A few keys are inserted in place (a transaction that alternates
	// writes and reads does not sort everything each time); many are
	// appended and sorted.
	if len(added) <= 16 {
		for _, k := range added {
			i := sort.SearchStrings(ws.sorted, k)
			ws.sorted = append(ws.sorted, "")
			copy(ws.sorted[i+1:], ws.sorted[i:])
			ws.sorted[i] = k
		}
	} else {
		ws.sorted = append(ws.sorted, added...)
		sort.Strings(ws.sorted)
	}
	return ws
}

// overlayGetter reads a key as a snapshot transaction sees it: from the
// batch when the transaction wrote it, else from the snapshot.
type overlayGetter struct {
	s  *pebble.Snapshot
	b  *pebble.Batch
	ws *txnWriteSet
}

func (g *overlayGetter) Get(key []byte) ([]byte, io.Closer, error) {
	if _, ok := g.ws.keys[string(key)]; ok {
		return g.b.Get(key)
	}
	return g.s.Get(key)
}

// overlayIter merges a snapshot iterator with the keys a transaction
// wrote (their values, or their deletion, read from its batch), which
// shadow the snapshot's. It walks one direction per positioning (First
// then Next, or Last then Prev), as Iterator does.
type overlayIter struct {
	base      *pebble.Iterator
	b         *pebble.Batch
	keys      []string // written keys within the bounds, ascending
	i         int      // next written key to consider
	reverse   bool
	baseValid bool
	fromBase  bool // the current entry is base's
	valid     bool
	key       []byte
	val       []byte
	vbuf      []byte // the copy of a written key's value (val never aliases Pebble's memory when written to)
	err       error
}

func (o *overlayIter) First() bool {
	o.reverse, o.i = false, 0
	o.baseValid = o.base.First()
	return o.settle()
}

func (o *overlayIter) Last() bool {
	o.reverse, o.i = true, len(o.keys)-1
	o.baseValid = o.base.Last()
	return o.settle()
}

func (o *overlayIter) Next() bool {
	if !o.valid || o.reverse {
		return false
	}
	o.advance()
	return o.settle()
}

func (o *overlayIter) Prev() bool {
	if !o.valid || !o.reverse {
		return false
	}
	o.advance()
	return o.settle()
}

func (o *overlayIter) step() bool {
	if o.reverse {
		return o.base.Prev()
	}
	return o.base.Next()
}

func (o *overlayIter) advance() {
	switch {
	case o.fromBase:
		o.baseValid = o.step()
	case o.reverse:
		o.i--
	default:
		o.i++
	}
}

// settle positions on the next entry in the walk's direction.
func (o *overlayIter) settle() bool {
	for {
		haveW := o.i >= 0 && o.i < len(o.keys)
		if !haveW && !o.baseValid {
			o.valid = false
			return false
		}
		c := 0
		if haveW && o.baseValid {
			c = strings.Compare(o.keys[o.i], string(o.base.Key()))
			if o.reverse {
				c = -c
			}
		}
		if haveW && (!o.baseValid || c <= 0) {
			if o.baseValid && c == 0 {
				o.baseValid = o.step() // the transaction's write shadows it
			}
			k := o.keys[o.i]
			v, closer, err := o.b.Get([]byte(k))
			if errors.Is(err, pebble.ErrNotFound) {
				o.advance0()
				continue // deleted by the transaction
			}
			if err != nil {
				o.err, o.valid = err, false
				return false
			}
			o.vbuf = append(o.vbuf[:0], v...)
			o.val = o.vbuf
			closer.Close()
			o.key, o.fromBase, o.valid = []byte(k), false, true
			return true
		}
		o.key, o.val, o.fromBase, o.valid = o.base.Key(), o.base.Value(), true, true
		return true
	}
}

// advance0 moves past the current written key.
func (o *overlayIter) advance0() {
	if o.reverse {
		o.i--
	} else {
		o.i++
	}
}

func (o *overlayIter) Key() []byte   { return o.key }
func (o *overlayIter) Value() []byte { return o.val }

func (o *overlayIter) Error() error {
	if o.err != nil {
		return o.err
	}
	return o.base.Error()
}

func (o *overlayIter) Close() error { return o.base.Close() }
