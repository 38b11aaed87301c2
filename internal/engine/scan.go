package engine

import (
	"bytes"
	"errors"
	"io"

	"github.com/cockroachdb/pebble/v2"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Range bounds an index scan. Lower and Upper hold values for a prefix of
// the index columns (converted to their types); a nil bound is open. An
// inclusive bound takes every key that starts with it. On a prefix index
// (Index.Prefix) the range may take more rows than its values bound: see
// RangeKeys.
type Range struct {
	Lower, Upper                   []types.Value
	LowerExclusive, UpperExclusive bool
	// Keys, when set, are the range's bounds as RangeKeys gives them
	// (possibly of several ranges merged), used instead of the values.
	Keys *RangeBounds
}

// RangeBounds are the store keys of a range: from Lower (inclusive) to
// Upper (exclusive).
type RangeBounds struct {
	Lower, Upper []byte
}

// RangeKeys returns the store keys that bound rg on idx of t (rg.Keys if
// set). A bound value that reaches its part's prefix length is cut to it,
// and the bound then covers every key with that prefix (later parts are
// left out, the side becomes inclusive): the range is wider than its
// values, and the caller rechecks the full values. Two ranges of a prefix
// index may so overlap; a caller that walks several merges their keys
// first. Safe for concurrent use.
func (t *Table) RangeKeys(idx *Index, rg Range) RangeBounds {
	if rg.Keys != nil {
		return *rg.Keys
	}
	bound := func(vals []types.Value, after, upper bool) []byte {
		k := append([]byte(nil), idx.prefix...)
		for i, v := range vals {
			typ := &t.Columns[idx.Columns[i]].Type
			v, full := keyPart(typ, idx, i, v)
			k = types.AppendKey(k, typ, v)
			if full {
				after = upper
				break
			}
		}
		if after {
			return prefixEnd(nil, k)
		}
		return k
	}
	return RangeBounds{
		Lower: bound(rg.Lower, rg.LowerExclusive && rg.Lower != nil, false),
		Upper: bound(rg.Upper, !rg.UpperExclusive || rg.Upper == nil, true),
	}
}

// Iterator walks the rows of one index range in order (or in reverse).
// It is not safe for concurrent use; Close it when done.
type Iterator struct {
	r       kvGetter
	it      kvIter
	t       *Table
	idx     *Index
	reverse bool
	started bool
	row     Row
	pk      []byte
	skey    []byte
	err     error
	// inWriter: the writer's own iterator, which no commit can come
	// between an index entry and its row.
	inWriter bool
	snap     *Snapshot // the snapshot read, released by Close
	// pr, for a secondary index over the store or a Pebble snapshot,
	// opens pit: an iterator over the primary index kept for the walk,
	// which finds each entry's row with a seek (a Get per entry sets up
	// every level of the store again).
	pr  pebble.Reader
	pit *pebble.Iterator
	// points, for a secondary index over committed data of an engine
	// with a row cache, reads each entry's row instead of pit: a lookup
	// of the newest committed row by its primary key through the cache
	// (which a hit answers without touching Pebble) into vbuf.
	points pointSource // points.cache is nil when unused
	vbuf   []byte
	// keyOnly: rows are decoded from the entries alone (KeyOnly), their
	// bytes held in kbuf or the entry.
	keyOnly bool
	kbuf    []byte
	// e, for an iterator over committed data, hears of its steps when it
	// closes (versionflush.go).
	e *Engine
	// need marks the columns rows are decoded with (Need); nil: all.
	need []bool
}

// Need restricts the columns the rows Next returns hold to those need
// marks, by ordinal (nil: every column); the others hold the zero Value.
// need must mark the columns of the iterator's index and of the primary
// key, which the iterator reads itself (ReadColumns makes such a set).
// Reset clears it. Like Next, not safe for concurrent use.
func (x *Iterator) Need(need []bool) { x.need = need }

// NewIterator returns an iterator over committed data of idx (t.Primary
// for a full table scan) within rg. Safe for concurrent use.
func (e *Engine) NewIterator(t *Table, idx *Index, rg Range, reverse bool) (*Iterator, error) {
	x, err := newIterator(e.db, t, idx, rg, reverse, false)
	if x != nil {
		x.e = e
		if x.pr != nil && e.rc != nil {
			x.points = pointSource{db: e.db, cache: e.rc}
		}
	}
	return x, err
}

// NewIterator is like Engine.NewIterator but sees the group's pending
// writes as of the call. It must be closed before the job returns.
func (tx *Job) NewIterator(t *Table, idx *Index, rg Range, reverse bool) (*Iterator, error) {
	return newIterator(tx.b, t, idx, rg, reverse, true)
}

func newIterator(r pebble.Reader, t *Table, idx *Index, rg Range, reverse, inWriter bool) (*Iterator, error) {
	if idx == nil {
		idx = t.Primary
	}
	opts, err := iterBounds(t, idx, rg)
	if err != nil {
		return nil, err
	}
	it, err := r.NewIter(opts)
	if err != nil {
		return nil, err
	}
	x := &Iterator{r: r, it: it, t: t, idx: idx, reverse: reverse, inWriter: inWriter}
	switch r.(type) {
	case *pebble.DB, *pebble.Snapshot:
		if !idx.Primary && !inWriter {
			x.pr = r
		}
	}
	return x, nil
}

// kvIter is what an Iterator walks: a Pebble iterator, or the merge of a
// snapshot and a transaction's writes (overlayIter).
type kvIter interface {
	First() bool
	Last() bool
	Next() bool
	Prev() bool
	Key() []byte
	Value() []byte
	Error() error
	Close() error
}

// kvGetter reads one key as an Iterator's view has it.
type kvGetter interface {
	Get(key []byte) ([]byte, io.Closer, error)
}

// iterBounds returns the Pebble bounds of rg over idx.
func iterBounds(t *Table, idx *Index, rg Range) (*pebble.IterOptions, error) {
	if len(rg.Lower) > len(idx.Columns) || len(rg.Upper) > len(idx.Columns) {
		return nil, &Error{Kind: ErrKeyParts, DB: t.DB, Table: t.Name, Index: idx.Name}
	}
	b := t.RangeKeys(idx, rg)
	return &pebble.IterOptions{LowerBound: b.Lower, UpperBound: b.Upper}, nil
}

// InRange reports whether row's key in idx lies within rg (a row re-read
// after a lock wait may have moved out of the range it was found in).
func InRange(t *Table, idx *Index, rg Range, row Row) bool {
	if idx == nil {
		idx = t.Primary
	}
	opts, err := iterBounds(t, idx, rg)
	if err != nil {
		return false
	}
	k := appendIndexKey(nil, t, idx, row)
	return bytes.Compare(k, opts.LowerBound) >= 0 && (opts.UpperBound == nil || bytes.Compare(k, opts.UpperBound) < 0)
}

// Next returns the next row, or io.EOF after the last. The row is valid
// until the next call of Next or Close. On a secondary index, an entry
// whose row a commit deleted or changed after the iterator was opened is
// skipped (see readState.viaPrimary); a KeyOnly iterator reads no row.
func (x *Iterator) Next() (Row, error) {
	for {
		if x.err != nil {
			return nil, x.err
		}
		var valid bool
		switch {
		case !x.started && x.reverse:
			valid = x.it.Last()
		case !x.started:
			valid = x.it.First()
		case x.reverse:
			valid = x.it.Prev()
		default:
			valid = x.it.Next()
		}
		x.started = true
		if !valid {
			if x.err = x.it.Error(); x.err == nil {
				x.err = io.EOF
			}
			return nil, x.err
		}
		stored := x.it.Value()
		if x.idx.Primary {
			x.row, _, x.err = decodeRowNeed(x.row, x.t, stored, x.need)
			return x.row, x.err
		}
		if x.keyOnly {
			row, err := x.decodeEntry(x.it.Key(), stored)
			x.err = err
			return row, err
		}
		x.pk = append(append(x.pk[:0], x.t.Primary.prefix...), stored...)
		if x.pr != nil {
			var row Row
			var ok bool
			var err error
			if x.points.cache != nil {
				row, ok, err = x.readPrimary()
			} else {
				row, ok, err = x.seekPrimary()
			}
			if err != nil {
				x.err = err
				return nil, err
			}
			if !ok {
				continue // deleted or changed since the iterator was opened
			}
			return row, nil
		}
		v, closer, err := x.r.Get(x.pk)
		if errors.Is(err, pebble.ErrNotFound) {
			if !x.inWriter {
				continue // deleted since the iterator was opened
			}
			x.err = ErrCorrupt
			return nil, x.err
		} else if err != nil {
			x.err = err
			return nil, err
		}
		x.row, _, x.err = decodeRow(x.row, x.t, v)
		if x.err == nil && !x.inWriter {
			var ok bool
			if x.skey, ok = stillIndexed(x.skey, x.t, x.idx, x.row, x.pk[len(x.t.Primary.prefix):], x.it.Key()); !ok {
				closer.Close()
				continue // changed since the iterator was opened
			}
		}
		row := x.row.Clone() // v is released by Close below
		closer.Close()
		return row, x.err
	}
}

// seekPrimary reads the row of the entry x.pk names through pit (opened
// at the first entry, so its view is no older than the index's); ok is
// false if the row is gone or no longer has the entry's key.
func (x *Iterator) seekPrimary() (Row, bool, error) {
	if x.pit == nil {
		it, err := x.pr.NewIter(&pebble.IterOptions{LowerBound: x.t.Primary.prefix, UpperBound: prefixEnd(nil, x.t.Primary.prefix)})
		if err != nil {
			return nil, false, err
		}
		x.pit = it
	}
	if !x.pit.SeekGE(x.pk) || !bytes.Equal(x.pit.Key(), x.pk) {
		return nil, false, x.pit.Error()
	}
	var err error
	if x.row, _, err = decodeRowNeed(x.row, x.t, x.pit.Value(), x.need); err != nil {
		return nil, false, err
	}
	var ok bool
	if x.skey, ok = stillIndexed(x.skey, x.t, x.idx, x.row, x.pk[len(x.t.Primary.prefix):], x.it.Key()); !ok {
		return nil, false, nil
	}
	return x.row, true, nil // valid until the next seek, as Next promises
}

// readPrimary reads the row of the entry x.pk names as a point lookup
// of committed data (through the row cache): the newest committed row,
// so never older than the index entry's view, as seekPrimary's. ok is
// false if the row is gone or no longer has the entry's key.
func (x *Iterator) readPrimary() (Row, bool, error) {
	v, found, err := x.points.get(x.points.db, x.pk, x.vbuf)
	x.vbuf = v
	if err != nil || !found {
		return nil, false, err
	}
	if x.row, _, err = decodeRowNeed(x.row, x.t, v, x.need); err != nil {
		return nil, false, err
	}
	var ok bool
	if x.skey, ok = stillIndexed(x.skey, x.t, x.idx, x.row, x.pk[len(x.t.Primary.prefix):], x.it.Key()); !ok {
		return nil, false, nil
	}
	return x.row, true, nil // valid until the next step (x.vbuf is read into then), as Next promises
}

// Close releases the iterator.
func (x *Iterator) Close() error {
	if x.it == nil {
		return nil
	}
	if x.e != nil {
		switch it := x.it.(type) {
		case *pebble.Iterator:
			x.e.observeVersions(it)
		case *overlayIter:
			x.e.observeVersions(it.base)
		}
		if x.pit != nil {
			x.e.observeVersions(x.pit)
		}
	}
	if x.pit != nil {
		x.pit.Close()
		x.pit = nil
	}
	err := x.it.Close()
	x.it = nil
	if x.snap != nil {
		x.snap.release()
		x.snap = nil
	}
	return err
}

// Count returns the number of rows of t (a full scan of its primary index).
func (e *Engine) Count(t *Table) (int64, error) {
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: t.Primary.prefix, UpperBound: prefixEnd(nil, t.Primary.prefix)})
	if err != nil {
		return 0, err
	}
	var n int64
	for valid := it.First(); valid; valid = it.Next() {
		n++
	}
	if err := it.Error(); err != nil {
		it.Close()
		return 0, err
	}
	return n, it.Close()
}

// RowCount returns the number of committed rows of t. The first call for a
// table counts it (a scan of its primary index); afterwards every commit
// keeps the number up to date, so it costs nothing. Safe for concurrent
// use; the planner's statistics come from here.
func (e *Engine) RowCount(t *Table) (int64, error) {
	rt := t.rt
	if rt.rowsKnown.Load() {
		return rt.rows.Load(), nil
	}
	rt.countMu.Lock()
	defer rt.countMu.Unlock()
	if rt.rowsKnown.Load() {
		return rt.rows.Load(), nil
	}
	// Commits during the count add their deltas to rows, which the count
	// itself may or may not see: the number is exact when the table is
	// quiet and close to it otherwise.
	before := rt.rows.Load()
	n, err := e.Count(t)
	if err != nil {
		return 0, err
	}
	rt.rows.Add(n - before)
	rt.rowsKnown.Store(true)
	return rt.rows.Load(), nil
}
