package sqlbackend

import (
	"io"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// index is one engine index as go-mysql-server sees it: an ordered index
// (ascending, reversible) over a prefix of whose columns the planner may
// build ranges. It is immutable and safe for concurrent use.
type index struct {
	db, table string
	t         *engine.Table
	idx       *engine.Index
	exprs     []string
	cets      []sql.ColumnExpressionType
	comment   string
	using     string // USING BTREE/HASH as defined, or ""
}

var (
	_ sql.Index        = (*index)(nil)
	_ sql.OrderedIndex = (*index)(nil)
)

func newIndex(db string, t *engine.Table, idx *engine.Index, ts *tableSchema) *index {
	name := sqlName(t)
	ix := &index{db: db, table: name, t: t, idx: idx, comment: ts.meta.IndexComments[idx.Name],
		using: ts.meta.IndexUsing[idx.Name]}
	for _, c := range idx.Columns {
		e := name + "." + t.Columns[c].Name
		ix.exprs = append(ix.exprs, e)
		// oddType: a range's bounds may be dates time.Time cannot
		// hold (oddate.go).
		ix.cets = append(ix.cets, sql.ColumnExpressionType{Expression: e, Type: OddTypeOf(ts.types[c])})
	}
	return ix
}

// ID is the index name ("PRIMARY" for the primary key).
func (x *index) ID() string { return x.idx.Name }

// Database is the name of the index's database.
func (x *index) Database() string { return x.db }

// Table is the name of the index's table.
func (x *index) Table() string { return x.table }

// Expressions names the indexed columns as table.column.
func (x *index) Expressions() []string { return x.exprs }

// IsUnique reports whether the index is the primary key or UNIQUE.
func (x *index) IsUnique() bool { return x.idx.Unique || x.idx.Primary }

// IsSpatial is false: the engine has no spatial indexes.
func (x *index) IsSpatial() bool { return false }

// IsFullText is false: the engine has no full-text indexes.
func (x *index) IsFullText() bool { return false }

// IsVector is false: the engine has no vector indexes.
func (x *index) IsVector() bool { return false }

// Comment is the index COMMENT.
func (x *index) Comment() string { return x.comment }

// IndexType is BTREE: an ordered index.
func (x *index) IndexType() string { return "BTREE" }

// IsGenerated is false: every index was declared.
func (x *index) IsGenerated() bool { return false }

// ColumnExpressionTypes gives each indexed column with its type.
func (x *index) ColumnExpressionTypes() []sql.ColumnExpressionType { return x.cets }

// CanSupport is true: any range on a prefix of the columns can be scanned.
func (x *index) CanSupport(*sql.Context, ...sql.Range) bool { return true }

// CanSupportOrderBy is false: it concerns vector distance orders only.
func (x *index) CanSupportOrderBy(sql.Expression) bool { return false }

// PrefixLengths gives the prefix length of each column of a prefix index
// (0 for a whole value), nil when every value is indexed whole.
// go-mysql-server then keeps the filter above a lookup, so the full
// values are rechecked (the engine's range covers the whole prefix), and
// SHOW CREATE TABLE and information_schema.STATISTICS show the lengths.
// Trailing zeros are left out: the columns after the last prefix then
// have no SUB_PART (NULL), as in MariaDB.
func (x *index) PrefixLengths() []uint16 {
	p := x.idx.Prefix
	for len(p) > 0 && p[len(p)-1] == 0 {
		p = p[:len(p)-1]
	}
	return p
}

// Order is ascending: entries are kept in MySQL's comparison order.
func (x *index) Order() sql.IndexOrder { return sql.IndexOrderAsc }

// Reversible is true: ranges can be walked backwards.
func (x *index) Reversible() bool { return true }

// bound is one end of one column's range. A NULL value in v is the
// position of NULL, which sorts below every other value.
type bound struct {
	unbounded bool // no limit on this side
	empty     bool // nothing passes (a lower AboveAll, an upper BelowNull)
	v         types.Value
	incl      bool
}

func lowerBound(ctx *sql.Context, typ *types.Type, c sql.MySQLRangeCut) (bound, error) {
	switch c := c.(type) {
	case sql.BelowNull:
		return bound{v: types.NullValue, incl: true}, nil
	case sql.AboveNull:
		return bound{v: types.NullValue}, nil
	case sql.Below:
		v, err := valueFromSQL(ctx, typ, c.Key, true)
		return bound{v: v, incl: true}, err
	case sql.Above:
		v, err := valueFromSQL(ctx, typ, c.Key, true)
		return bound{v: v}, err
	case sql.AboveAll:
		return bound{empty: true}, nil
	}
	return bound{unbounded: true}, nil
}

func upperBound(ctx *sql.Context, typ *types.Type, c sql.MySQLRangeCut) (bound, error) {
	switch c := c.(type) {
	case sql.AboveAll:
		return bound{unbounded: true}, nil
	case sql.AboveNull:
		return bound{v: types.NullValue, incl: true}, nil
	case sql.BelowNull:
		return bound{empty: true}, nil
	case sql.Above:
		v, err := valueFromSQL(ctx, typ, c.Key, true)
		return bound{v: v, incl: true}, err
	case sql.Below:
		v, err := valueFromSQL(ctx, typ, c.Key, true)
		return bound{v: v}, err
	}
	return bound{unbounded: true}, nil
}

// colRange is the range of one index column.
type colRange struct {
	col    int
	typ    *types.Type
	lo, hi bound
}

func (r *colRange) contains(v types.Value) bool {
	if !r.lo.unbounded {
		c := types.Compare(r.typ, v, r.lo.v)
		if c < 0 || (c == 0 && !r.lo.incl) {
			return false
		}
	}
	if !r.hi.unbounded {
		c := types.Compare(r.typ, v, r.hi.v)
		if c > 0 || (c == 0 && !r.hi.incl) {
			return false
		}
	}
	return true
}

// scanRange is one engine range plus, when the engine's prefix bounds
// are wider than the SQL range, the column ranges every row must pass.
// On a prefix index (whose keys hold only prefixes) every row is checked
// against the full values: it must pass one of anyOf, the column ranges
// of the SQL ranges the engine range covers (go-mysql-server does not
// always keep a filter above such a lookup: a lookup join drops the
// condition its keys come from).
type scanRange struct {
	rg    engine.Range
	check []colRange
	anyOf [][]colRange
	empty bool
	// point: the range is one whole primary key without NULL, which a
	// read of committed data finds with Engine.Find (the row cache)
	// rather than an iterator (see rangeIter.Next).
	point bool
}

// toScanRange translates one go-mysql-server range over idx's columns into
// an engine range: the leading columns fixed to one value (or NULL) form a
// key prefix, the first column with a wider range sets the bounds after
// that prefix, and any later column restricted too is checked row by row.
func toScanRange(ctx *sql.Context, t *engine.Table, idx *engine.Index, mr sql.MySQLRange) (scanRange, error) {
	var sr scanRange
	if empty, err := mr.IsEmpty(); err == nil && empty {
		sr.empty = true
		return sr, nil
	}
	cols := make([]colRange, 0, len(mr))
	for i, ce := range mr {
		if i >= len(idx.Columns) {
			break
		}
		c := idx.Columns[i]
		typ := &t.Columns[c].Type
		lo, err := lowerBound(ctx, typ, ce.LowerBound)
		if err != nil {
			return sr, err
		}
		hi, err := upperBound(ctx, typ, ce.UpperBound)
		if err != nil {
			return sr, err
		}
		if lo.empty || hi.empty {
			sr.empty = true
			return sr, nil
		}
		cols = append(cols, colRange{col: c, typ: typ, lo: lo, hi: hi})
	}
	var lower, upper []types.Value
	i := 0
	for ; i < len(cols); i++ {
		cr := &cols[i]
		if cr.lo.incl && cr.hi.incl && !cr.lo.unbounded && !cr.hi.unbounded &&
			types.Compare(cr.typ, cr.lo.v, cr.hi.v) == 0 {
			lower = append(lower, cr.lo.v)
			upper = append(upper, cr.lo.v)
			continue
		}
		if !cr.lo.unbounded && !(cr.lo.incl && cr.lo.v.Null) {
			lower = append(lower, cr.lo.v)
			sr.rg.LowerExclusive = !cr.lo.incl
		}
		if !cr.hi.unbounded {
			upper = append(upper, cr.hi.v)
			sr.rg.UpperExclusive = !cr.hi.incl
		}
		break
	}
	sr.rg.Lower, sr.rg.Upper = lower, upper
	if idx.Primary && !idx.Hidden && idx.Prefix == nil && i == len(idx.Columns) && len(cols) == len(idx.Columns) {
		sr.point = true
		for _, v := range lower {
			if v.Null {
				sr.point = false
			}
		}
	}
	if idx.Prefix != nil {
		sr.anyOf = [][]colRange{cols}
		return sr, nil
	}
	for j := i + 1; j < len(cols); j++ {
		cr := &cols[j]
		if !cr.lo.unbounded && !(cr.lo.incl && cr.lo.v.Null) || !cr.hi.unbounded {
			sr.check = cols
			break
		}
	}
	return sr, nil
}

// rangeIter walks the rows of a table for one partition: a full scan of
// the primary index or the ranges of an index lookup, in index order (or
// reversed), converting each row for go-mysql-server.
type rangeIter struct {
	src     *source
	t       *engine.Table
	ts      *tableSchema
	idx     *engine.Index
	ranges  []scanRange
	reverse bool
	next    int
	cur     *engine.Iterator
	curGen  uint64
	curRg   engine.Range
	check   []colRange
	lock    lockMode // the lock each row returned takes (isolation.go)
	anyOf   [][]colRange
	// proj is the table copy's projection, if any; keyOnly: its columns
	// are decoded from the index entries (project.go) unless a row is
	// locked.
	proj    *projection
	keyOnly bool
	// counted: the walk is counted open in the session's iterator pool
	// from its first iterator to Close (iterpool.go).
	counted bool
	// recycle: Close leaves the walk to its session for the next
	// rangeRead.RowIter (the walk is one of those).
	recycle bool
	bound   [2]types.Value // the backing of a rangeRead's bounds
	boxes   boxes          // the slabs its rows are made from (boxes.go)
	// filter are a scanFilter's checks (scanfilter.go): a row read
	// without a lock that fails one is skipped before it is converted.
	filter []rowCheck
}

var _ sql.RowIter = (*rangeIter)(nil)

// Next returns the next row within the ranges, or io.EOF.
func (it *rangeIter) Next(ctx *sql.Context) (sql.Row, error) {
	for {
		if it.cur == nil {
			if it.next >= len(it.ranges) {
				return nil, io.EOF
			}
			sr := &it.ranges[it.next]
			it.next++
			if sr.empty {
				continue
			}
			if sr.point && sr.rg.Keys == nil {
				r, gen, lock, ok, err := it.src.pointRead(it.t, sr.rg.Lower)
				if ok {
					if err != nil {
						return nil, MapError(err)
					}
					if r == nil {
						continue
					}
					if r, err = it.accept(ctx, r, gen, sr.rg, sr.check, sr.anyOf, lock); err != nil {
						return nil, err
					}
					if r == nil {
						continue
					}
					return it.toSQL(r), nil
				}
			}
			if !it.counted && it.src.sess != nil {
				it.src.sess.pool.opened()
				it.counted = true
			}
			cur, gen, lock, err := it.src.open(it.t, it.idx, sr.rg, it.reverse)
			if err != nil {
				return nil, MapError(err)
			}
			if lock == lockNone && !it.keyOnly {
				// (a locked row is read whole: the lock may read it again)
				cur.Need(it.proj.needFor(it.idx, sr))
			}
			if it.keyOnly && lock == lockNone {
				if err := cur.KeyOnly(); err != nil {
					it.src.release(cur, gen, it.t, it.idx)
					return nil, MapError(err)
				}
				if it.src.sess != nil {
					it.src.sess.keyOnlyWalks++
				}
			}
			it.cur, it.curGen, it.curRg, it.check, it.lock, it.anyOf = cur, gen, sr.rg, sr.check, lock, sr.anyOf
		}
		r, err := it.cur.Next()
		if err == io.EOF {
			it.closeCur()
			continue
		}
		if err != nil {
			return nil, MapError(err)
		}
		if it.filter != nil && it.lock == lockNone && !passAll(it.filter, r) {
			continue
		}
		if r, err = it.accept(ctx, r, it.curGen, it.curRg, it.check, it.anyOf, it.lock); err != nil {
			return nil, err
		}
		if r == nil {
			continue
		}
		return it.toSQL(r), nil
	}
}

// accept returns row r read from range rg (by a reader of transaction
// generation gen) if the range's checks take it, after taking the row
// lock lock on it; nil when it is not to be returned. A row changed while
// the lock was waited for is read again.
func (it *rangeIter) accept(ctx *sql.Context, r engine.Row, gen uint64, rg engine.Range, check []colRange, anyOf [][]colRange, lock lockMode) (engine.Row, error) {
	if check != nil && !rowInRange(r, check) || anyOf != nil && !rowInAny(r, anyOf) {
		return nil, nil
	}
	if lock == lockNone {
		return r, nil
	}
	fresh, err := it.src.sess.lockRow(ctx, it.t, r, lock)
	if err != nil || !fresh {
		return r, err
	}
	// The version read came before the lock: another transaction may
	// have committed a change and let go of the lock in between, waited
	// for or not.
	if r, err = it.src.reread(it.t, r, gen); err != nil {
		return nil, MapError(err)
	}
	if r == nil || !engine.InRange(it.t, it.idx, rg, r) || (check != nil && !rowInRange(r, check)) {
		return nil, nil
	}
	return r, nil
}

func rowInAny(r engine.Row, anyOf [][]colRange) bool {
	for _, check := range anyOf {
		if rowInRange(r, check) {
			return true
		}
	}
	return false
}

func rowInRange(r engine.Row, check []colRange) bool {
	for i := range check {
		if !check[i].contains(r[check[i].col]) {
			return false
		}
	}
	return true
}

func (it *rangeIter) closeCur() {
	if it.cur != nil {
		it.src.release(it.cur, it.curGen, it.t, it.idx)
		it.cur = nil
	}
}

// Close releases the open engine iterator.
func (it *rangeIter) Close(*sql.Context) error {
	it.closeCur()
	if it.counted {
		it.counted = false
		it.src.sess.pool.closed()
	}
	it.next = len(it.ranges)
	if it.recycle {
		it.recycle = false
		if sess := it.src.sess; sess != nil && sess.spareWalk == nil {
			it.src.ctx = nil // (the statement's; walk sets the next one)
			sess.spareWalk = it
		}
	}
	return nil
}
