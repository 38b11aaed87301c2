package engine

import (
	"bytes"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/handlerdb/handlerdb/internal/types"
)

// FindOp is how a find positions on its index key.
type FindOp uint8

// Find operations, as HandlerSocket names them.
const (
	OpEQ FindOp = iota // rows whose key starts with the given key parts
	OpGE               // ascending from the first key >= the given one
	OpGT               // ascending from the first key > the given one
	OpLE               // descending from the last key <= the given one
	OpLT               // descending from the last key < the given one
)

// CmpOp is a filter's comparison.
type CmpOp uint8

// Filter comparisons. CmpInvalid makes every row fail the filter.
const (
	CmpEQ CmpOp = iota
	CmpNE
	CmpLT
	CmpLE
	CmpGT
	CmpGE
	CmpInvalid
)

// Filter tests one column of each row found against a value (already
// converted to the column's type), comparing by type and collation; a NULL
// value equals a NULL column and sorts below every other value.
type Filter struct {
	// Stop makes the first failing row end the find (HandlerSocket's W);
	// otherwise failing rows are skipped (F).
	Stop   bool
	Op     CmpOp
	Column int
	Value  types.Value
}

// Query is one find on one index.
type Query struct {
	Index *Index
	Op    FindOp
	// Key holds values for a prefix of the index columns, converted to the
	// columns' types; it may be empty (the whole index).
	Key []types.Value
	// Limit is the most rows to return (0: no limit). Offset rows that
	// pass the filters are skipped first.
	Limit, Offset int
	// In, when non-nil, makes the find HandlerSocket's IN: one positioned
	// lookup per value, in order, with key part InPart replaced by the
	// value (no part is replaced when InPart is not below len(Key)), each
	// taking only the first row it finds; Limit, Offset and the filters
	// apply across all of them.
	In     []types.Value
	InPart int
	// Filters every row must pass.
	Filters []Filter
}

// readState holds the buffers of one find, reused through a pool so that a
// point find allocates nothing.
type readState struct {
	key   []byte
	end   []byte
	seek  []byte
	iopts pebble.IterOptions
	pk    []byte
	skey  []byte      // a row's secondary key, to check it against the entry
	val   []byte      // the value of the last point read
	ps    pointSource // where point reads go
	// inWriter: the reads are the writer's own, which no commit can come
	// between (the zero value is right for every other reader).
	inWriter bool
	row      Row
	keyv     []types.Value
	q        *Query
	t        *Table
	fn       func(Row) bool
	skip     int
	n        int
	done     bool
	first    bool // IN: one row per positioned lookup
	rowID    uint64
}

// Find runs q on committed data and calls fn for each row, in index order,
// until fn returns false or the limit is reached. The Row passed to fn is
// valid only during the call. Safe for concurrent use.
func (e *Engine) Find(t *Table, q *Query, fn func(Row) bool) error {
	return e.findIn(e.db, pointSource{db: e.db, cache: e.rc}, t, q, fn)
}

// findIn runs q on r with a pooled readState whose point reads go to ps,
// and counts the rows read.
func (e *Engine) findIn(r pebble.Reader, ps pointSource, t *Table, q *Query, fn func(Row) bool) error {
	st := e.reads.Get().(*readState)
	st.ps = ps
	err := st.find(r, t, q, fn)
	e.stats.RowsRead.Add(int64(st.n))
	e.reads.Put(st)
	return err
}

// Find runs q inside the job: it sees the group's pending writes.
func (tx *Job) Find(t *Table, q *Query, fn func(Row) bool) error {
	return tx.rs.find(tx.b, t, q, fn)
}

func (st *readState) find(r pebble.Reader, t *Table, q *Query, fn func(Row) bool) error {
	idx := q.Index
	if idx == nil {
		idx = t.Primary
	}
	if len(q.Key) > len(idx.Columns) {
		return &Error{Kind: ErrKeyParts, DB: t.DB, Table: t.Name, Index: idx.Name}
	}
	st.q, st.t, st.fn, st.skip, st.n, st.done = q, t, fn, q.Offset, 0, false
	defer func() { st.q, st.t, st.fn = nil, nil, nil }()
	if q.In == nil {
		return st.run(r, idx, q.Key)
	}
	st.keyv = append(st.keyv[:0], q.Key...)
	st.first = true
	defer func() { st.first = false }()
	for _, v := range q.In {
		if q.InPart >= 0 && q.InPart < len(st.keyv) {
			st.keyv[q.InPart] = v
		}
		if err := st.run(r, idx, st.keyv); err != nil || st.done {
			return err
		}
	}
	return nil
}

// run performs one positioned walk of idx from key.
func (st *readState) run(r pebble.Reader, idx *Index, key []types.Value) error {
	var nullKey bool
	st.key, nullKey = appendFindKey(st.key[:0], st.t, idx, key)
	op := st.q.Op
	if op == OpEQ && isPointKey(idx, key, nullKey) {
		return st.point(r, idx, st.key)
	}
	st.end = prefixEnd(st.end[:0], idx.prefix)
	st.iopts = pebble.IterOptions{LowerBound: idx.prefix, UpperBound: st.end}
	if op == OpEQ {
		st.end = prefixEnd(st.end[:0], st.key)
		st.iopts.LowerBound, st.iopts.UpperBound = st.key, st.end
	}
	it, err := r.NewIter(&st.iopts)
	if err != nil {
		return err
	}
	var valid bool
	switch op {
	case OpEQ, OpGE:
		valid = it.SeekGE(st.key)
	case OpGT:
		if st.seek = prefixEnd(st.seek[:0], st.key); st.seek != nil {
			valid = it.SeekGE(st.seek)
		}
	case OpLE:
		if st.seek = prefixEnd(st.seek[:0], st.key); st.seek != nil {
			valid = it.SeekLT(st.seek)
		} else {
			valid = it.Last()
		}
	case OpLT:
		valid = it.SeekLT(st.key)
	default:
		it.Close()
		return fmt.Errorf("engine: unknown find op %d", op)
	}
	forward := op <= OpGT
	for valid && !st.done {
		if idx.Primary {
			err = st.emit(it.Value())
		} else {
			err = st.viaPrimary(r, idx, it.Key(), it.Value())
		}
		if err != nil || st.first {
			break
		}
		if forward {
			valid = it.Next()
		} else {
			valid = it.Prev()
		}
	}
	if cerr := it.Close(); err == nil {
		err = cerr
	}
	return err
}

// appendFindKey appends to dst the key a find of key on idx of t seeks:
// the index's prefix and each part encoded (a prefix part compares the
// key's prefix, as the plugin does). null reports a NULL part.
func appendFindKey(dst []byte, t *Table, idx *Index, key []types.Value) (_ []byte, null bool) {
	dst = append(dst, idx.prefix...)
	for i, v := range key {
		dst = appendKeyPart(dst, t, idx, i, v)
		null = null || v.Null
	}
	return dst, null
}

// isPointKey reports whether an equality find of key on idx names at most
// one entry: a full key of a unique index, without NULL (null).
func isPointKey(idx *Index, key []types.Value, null bool) bool {
	return idx.isUniqueLike() && !idx.Hidden && len(key) == len(idx.Columns) && !null
}

// point looks up one key of a unique index.
func (st *readState) point(r pebble.Reader, idx *Index, key []byte) error {
	v, found, err := st.ps.get(r, key, st.val)
	st.val = v
	if err != nil || !found {
		return err
	}
	if idx.Primary {
		return st.emit(v)
	}
	return st.viaPrimary(r, idx, key, v)
}

// viaPrimary fetches the row the secondary entry idxKey of idx points to.
// Outside the writer a commit may come between the entry and the row (the
// entry is read from an iterator's view or by a separate get): a row that
// is gone, or whose index columns no longer give idxKey, was deleted or
// changed meanwhile and is skipped, as if the entry had not been seen.
// Inside the writer nothing else writes, so a missing row is corruption.
func (st *readState) viaPrimary(r pebble.Reader, idx *Index, idxKey, pkCols []byte) error {
	st.pk = append(append(st.pk[:0], st.t.Primary.prefix...), pkCols...)
	pkCols = st.pk[len(st.t.Primary.prefix):] // pkCols may be st.val, which the get reuses
	v, found, err := st.ps.get(r, st.pk, st.val)
	st.val = v
	if err != nil {
		return err
	} else if !found {
		if st.inWriter {
			return tableError(ErrCorrupt, st.t, "index entry of "+st.t.DB+"."+st.t.Name+" without its row")
		}
		return nil
	}
	if st.row, st.rowID, err = decodeRow(st.row, st.t, v); err != nil {
		return err
	}
	if !st.inWriter {
		var ok bool
		if st.skey, ok = stillIndexed(st.skey, st.t, idx, st.row, pkCols, idxKey); !ok {
			return nil
		}
	}
	return st.pass()
}

// stillIndexed reports whether row, fetched through the secondary entry
// entryKey of idx, still gives that entry (a commit may have changed its
// index columns since the entry was read). buf is scratch space, returned
// for reuse.
func stillIndexed(buf []byte, t *Table, idx *Index, row Row, pkCols, entryKey []byte) ([]byte, bool) {
	buf = secondaryKey(buf[:0], t, idx, row, pkCols)
	return buf, bytes.Equal(buf, entryKey)
}

// emit decodes a stored row, applies the filters, offset and limit, and
// hands it to the callback.
func (st *readState) emit(stored []byte) error {
	var err error
	st.row, st.rowID, err = decodeRow(st.row, st.t, stored)
	if err != nil {
		return err
	}
	return st.pass()
}

// pass applies the filters, offset and limit to the decoded st.row and
// hands it to the callback.
func (st *readState) pass() error {
	for i := range st.q.Filters {
		f := &st.q.Filters[i]
		if !f.pass(st.t, st.row) {
			if f.Stop {
				st.done = true
			}
			return nil
		}
	}
	if st.skip > 0 {
		st.skip--
		return nil
	}
	st.n++
	if !st.fn(st.row) || (st.q.Limit > 0 && st.n >= st.q.Limit) {
		st.done = true
	}
	return nil
}

func (f *Filter) pass(t *Table, row Row) bool {
	if f.Column < 0 || f.Column >= len(row) {
		return false
	}
	c := types.Compare(&t.Columns[f.Column].Type, row[f.Column], f.Value)
	switch f.Op {
	case CmpEQ:
		return c == 0
	case CmpNE:
		return c != 0
	case CmpLT:
		return c < 0
	case CmpLE:
		return c <= 0
	case CmpGT:
		return c > 0
	case CmpGE:
		return c >= 0
	}
	return false
}
