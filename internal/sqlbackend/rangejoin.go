package sqlbackend

import (
	"fmt"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	sqltypes "github.com/dolthub/vitess/go/sqltypes"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Range joins. A join whose condition bounds a column of the inner table
// by values of the outer row (r.rented_at >= w.starts AND r.rented_at <
// w.starts + INTERVAL 7 DAY) is planned by go-mysql-server as a nested
// loop that scans the whole inner table for every outer row: its lookup
// joins take equalities only, and its range heap join takes the value on
// the outer side and plain columns as the bounds, and cannot reorder a
// LEFT JOIN. rangeReadRule gives such a join an index range read per
// outer row instead, as MariaDB's "Range checked for each record" does:
// the join's inner table becomes a rangeRead, which evaluates the bounds
// on the outer row and reads the range of an index whose first column is
// the bounded one. The join still evaluates its whole condition on every
// row read, so the range only has to hold every row that can match: its
// bounds are inclusive and cut towards the outside (a DATETIME bound on
// a DATE column is truncated, a DATE upper bound on a DATETIME column
// takes its whole day; FLOAT, DECIMAL, text and odd dates leave that
// side open).

// assignExecIndexesID is go-mysql-server's assignExecIndexes rule
// (unexported): rangeReadRule runs only where it has run (the whole
// statement, not a subquery finalized on its own), since it takes the
// bounds' column positions from the join condition.
var assignExecIndexesID = func() analyzer.RuleId {
	for id := analyzer.RuleId(0); id < 1000; id++ {
		if id.String() == "assignExecIndexes" {
			return id
		}
	}
	return -1
}()

// rangeReadRule replaces the inner table of each nested-loop inner or
// left join whose condition bounds one of its indexed columns by the
// outer row with a rangeRead. It runs after go-mysql-server's rules
// (analyzer.OnceAfterAll), once the columns have their positions.
func RangeReadRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if assignExecIndexesID < 0 || !sel(assignExecIndexesID) {
		return n, transform.SameTree, nil
	}
	// Into views, derived tables and UNIONs too: assignExecIndexes gave
	// their joins positions in the same pass.
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		j, ok := n.(*plan.JoinNode)
		if !ok || j.Filter == nil {
			return n, transform.SameTree, nil
		}
		switch j.Op {
		// (Not a left join that excludes NULLs, whose condition's NULL on
		// any inner row drops the outer row: it must see every row.)
		case plan.JoinTypeInner, plan.JoinTypeLeftOuter:
		case plan.JoinTypeLookup, plan.JoinTypeLeftOuterLookup:
			return keyLookupJoin(j)
		default:
			return n, transform.SameTree, nil
		}
		right, ok := newRangeRead(j)
		if !ok {
			return n, transform.SameTree, nil
		}
		nj, err := j.WithChildren(j.Left(), right)
		if err != nil {
			return n, transform.SameTree, nil
		}
		return nj, transform.NewTree, nil
	})
}

// keyLookupJoin turns a lookup join whose inner side is read by the
// first column of one of its indexes, an integer column, into the same
// join over a rangeRead of that key: go-mysql-server builds the lookup for
// every outer row (an index lookup of ranges, converted to the engine's
// range, behind three iterators), the rangeRead evaluates the key and
// reads its range (a one-column primary key's point with one Find). The
// key is a column of the outer row of an integer type, compared without
// NULL-safety (a NULL or a value out of the column's range then reads no
// row, as the lookup does: rangeBound); any other lookup join is left as
// it is.
func keyLookupJoin(j *plan.JoinNode) (sql.Node, transform.TreeIdentity, error) {
	right := j.Right()
	alias, _ := right.(*plan.TableAlias)
	if alias != nil {
		right = alias.Child
	}
	ita, ok := right.(*plan.IndexedTableAccess)
	if !ok || ita.IsStatic() {
		return j, transform.SameTree, nil
	}
	lrt, ok := ita.TableNode.(*plan.ResolvedTable)
	if !ok {
		return j, transform.SameTree, nil
	}
	// The lookup reads an indexedTable; the rangeRead, the table itself.
	it, ok := lrt.Table.(*indexedTable)
	if !ok {
		return j, transform.SameTree, nil
	}
	n, err := lrt.WithTable(it.table)
	if err != nil {
		return j, transform.SameTree, nil
	}
	rt, t := n.(*plan.ResolvedTable), it.table
	keys, nullSafe := ita.Expressions(), ita.NullMask()
	if len(keys) != 1 || len(nullSafe) != 1 || nullSafe[0] {
		return j, transform.SameTree, nil
	}
	var idx *engine.Index
	for _, x := range t.t.Indexes {
		if !x.Hidden && strings.EqualFold(x.Name, ita.Index().ID()) {
			idx = x
		}
	}
	if idx == nil || idx.Prefix != nil && idx.Prefix[0] != 0 {
		return j, transform.SameTree, nil
	}
	col := idx.Columns[0]
	start := j.ScopeLen + len(j.Left().Schema())
	if key, ok := keys[0].(*expression.GetField); !ok || key.Index() >= start || !gtypes.IsInteger(key.Type()) ||
		!t.t.Columns[col].Type.IsInteger() {
		return j, transform.SameTree, nil
	}
	var inner sql.Node = &rangeRead{rt: rt, t: t, idx: idx, col: col, lo: keys[0], hi: keys[0], rowLen: start, lookup: true}
	if alias != nil {
		n, err := alias.WithChildren(inner)
		if err != nil {
			return j, transform.SameTree, nil
		}
		inner = n
	}
	nested := *j
	nested.Op = plan.JoinTypeInner
	if j.Op == plan.JoinTypeLeftOuterLookup {
		nested.Op = plan.JoinTypeLeftOuter
	}
	nj, err := nested.WithChildren(j.Left(), inner)
	if err != nil {
		return j, transform.SameTree, nil
	}
	return nj, transform.NewTree, nil
}

// rangeRead reads one table, the inner side of a nested-loop join,
// through an index range whose bounds it evaluates on each outer row.
// It is immutable and safe for concurrent use (its iterators hold the
// state of a read).
type rangeRead struct {
	rt     *plan.ResolvedTable // the table node it stands for
	t      *table
	idx    *engine.Index
	col    int            // the bounded column, idx's first
	lo, hi sql.Expression // the bounds, over the outer row; nil: open
	// rowLen is the length of the row the bounds' positions assume:
	// the join's scope and the outer row (another row is read whole).
	rowLen int
	// lookup: the bounds are a lookup join's key, whose positions were
	// given for the row the join hands its inner side, whatever its
	// length (a join under a hash join's build side gets the build's
	// outer row in front). The join's condition does not hold the key's
	// equality, so reading the whole table would be a wrong answer.
	lookup bool
}

var _ sql.ExecSourceRel = (*rangeRead)(nil)

// newRangeRead returns the rangeRead for j's right side, ok false if the
// join has no such bounds or its right side is not one of our tables.
func newRangeRead(j *plan.JoinNode) (sql.Node, bool) {
	right := j.Right()
	alias, _ := right.(*plan.TableAlias)
	if alias != nil {
		right = alias.Child
	}
	rt, ok := right.(*plan.ResolvedTable)
	if !ok {
		return nil, false
	}
	t := readTable(rt)
	if t == nil {
		return nil, false
	}
	start := j.ScopeLen + len(j.Left().Schema())
	sch := j.Right().Schema()
	// column returns the engine column e reads if it is a column of
	// the right side, else -1.
	column := func(e sql.Expression) int {
		gf, ok := e.(*expression.GetField)
		if !ok || gf.Index() < start || gf.Index() >= start+len(sch) {
			return -1
		}
		return t.t.Column(sch[gf.Index()-start].Name)
	}
	type bounds struct{ lo, hi sql.Expression }
	found := map[int]*bounds{}
	var order []int
	add := func(c int, lo, hi sql.Expression) {
		if c < 0 || !rangeKind(t.t.Columns[c].Type.Kind) {
			return
		}
		if lo != nil && !outerOnly(lo, start) || hi != nil && !outerOnly(hi, start) {
			return
		}
		b := found[c]
		if b == nil {
			b = &bounds{}
			found[c] = b
			order = append(order, c)
		}
		if b.lo == nil {
			b.lo = lo
		}
		if b.hi == nil {
			b.hi = hi
		}
	}
	for _, f := range expression.SplitConjunction(j.Filter) {
		if o, ok := f.(StandIn); ok {
			f = o.StandsFor()
		}
		switch f := f.(type) {
		case *expression.GreaterThanOrEqual:
			add(column(f.Left()), f.Right(), nil)
			add(column(f.Right()), nil, f.Left())
		case *expression.GreaterThan:
			add(column(f.Left()), f.Right(), nil)
			add(column(f.Right()), nil, f.Left())
		case *expression.LessThanOrEqual:
			add(column(f.Left()), nil, f.Right())
			add(column(f.Right()), f.Left(), nil)
		case *expression.LessThan:
			add(column(f.Left()), nil, f.Right())
			add(column(f.Right()), f.Left(), nil)
		case *expression.Equals:
			add(column(f.Left()), f.Right(), f.Right())
			add(column(f.Right()), f.Left(), f.Left())
		case *expression.Between:
			add(column(f.Val), f.Lower, f.Upper)
		}
	}
	// The column bounded on both sides first, then the first bounded;
	// the first index on it, the primary key before a covering index
	// before any other.
	best, bestScore := (*rangeRead)(nil), -1
	for _, c := range order {
		b := found[c]
		for _, idx := range t.t.Indexes {
			if idx.Hidden || idx.Columns[0] != c || idx.Prefix != nil && idx.Prefix[0] != 0 {
				continue
			}
			score := 0
			if b.lo != nil && b.hi != nil {
				score += 4
			}
			switch {
			case idx.Primary:
				score += 2
			case t.proj.coveredBy(idx, nil):
				score++
			}
			if score > bestScore {
				best, bestScore = &rangeRead{rt: rt, t: t, idx: idx, col: c, lo: b.lo, hi: b.hi, rowLen: start}, score
			}
		}
	}
	if best == nil {
		return nil, false
	}
	if alias != nil {
		n, err := alias.WithChildren(best)
		return n, err == nil
	}
	return best, true
}

// readTable returns our table rt reads, or nil (another table, or ours
// under a virtual column table).
func readTable(rt *plan.ResolvedTable) *table {
	var t *table
	switch x := rt.Table.(type) {
	case *table:
		t = x
	case *plan.ProcessTable:
		t, _ = x.Underlying().(*table)
	case *plan.ProcessIndexableTable:
		t, _ = x.Underlying().(*table)
	}
	return t
}

// rangeKind reports whether a bound on a column of kind k can be cut to
// the column's values (see rangeBound).
func rangeKind(k types.Kind) bool {
	switch k {
	case types.TinyInt, types.SmallInt, types.MediumInt, types.Int, types.BigInt, types.Date, types.DateTime:
		return true
	}
	return false
}

// outerOnly reports whether e reads no column at or past position start
// (the inner side's) and holds nothing whose value may change between
// two evaluations on one row.
func outerOnly(e sql.Expression, start int) bool {
	return !transform.InspectExpr(e, func(e sql.Expression) bool {
		switch x := e.(type) {
		case *expression.GetField:
			return x.Index() >= start
		case *plan.Subquery:
			return true
		case sql.NonDeterministicExpression:
			return x.IsNonDeterministic()
		}
		return false
	})
}

// boundKind is what a bound gives for one outer row.
type boundKind uint8

const (
	boundOpen  boundKind = iota // no limit on this side
	boundValue                  // the value, inclusive
	boundNone                   // no row can match (a NULL bound)
)

// rangeBound evaluates bound e on row as a bound of column typ, cut
// towards the outside: an integer out of the column's range opens the
// side (or empties the range), a date-time on a DATE column keeps its
// date, a DATETIME loses the digits past its scale; any other value
// leaves the side open.
func rangeBound(ctx *sql.Context, e sql.Expression, row sql.Row, typ *types.Type, upper bool) (types.Value, boundKind, error) {
	if e == nil {
		return types.Value{}, boundOpen, nil
	}
	v, err := e.Eval(ctx, row)
	if err != nil {
		return types.Value{}, boundOpen, err
	}
	if v == nil {
		return types.Value{}, boundNone, nil
	}
	switch typ.Kind {
	case types.Date, types.DateTime:
		tm, ok := v.(time.Time)
		if !ok {
			return types.Value{}, boundOpen, nil
		}
		if upper && typ.Kind == types.DateTime && e.Type().Type() == sqltypes.Date {
			// A DATE against a DATETIME: whether the comparison
			// takes the column's time of day or its date, no row of
			// a later day matches.
			tm = tm.AddDate(0, 0, 1).Add(-time.Microsecond)
		}
		tv, err := valueFromSQL(ctx, typ, tm, true)
		if err != nil {
			return types.Value{}, boundOpen, nil
		}
		return tv, boundValue, nil
	}
	// Integers.
	var neg bool
	var u uint64
	switch x := v.(type) {
	case int8:
		neg, u = x < 0, uint64(int64(x))
	case int16:
		neg, u = x < 0, uint64(int64(x))
	case int32:
		neg, u = x < 0, uint64(int64(x))
	case int64:
		neg, u = x < 0, uint64(x)
	case int:
		neg, u = x < 0, uint64(int64(x))
	case uint8:
		u = uint64(x)
	case uint16:
		u = uint64(x)
	case uint32:
		u = uint64(x)
	case uint64:
		u = x
	case uint:
		u = uint64(x)
	default:
		return types.Value{}, boundOpen, nil
	}
	var below, above bool
	bits := map[types.Kind]uint{types.TinyInt: 8, types.SmallInt: 16, types.MediumInt: 24, types.Int: 32, types.BigInt: 64}[typ.Kind]
	switch {
	case typ.Unsigned && neg:
		below = true
	case typ.Unsigned:
		above = bits < 64 && u > uint64(1)<<bits-1
	case neg:
		below = int64(u) < -(int64(1) << (bits - 1))
	default:
		above = u > uint64(1)<<(bits-1)-1
	}
	switch {
	case below && upper, above && !upper:
		return types.Value{}, boundNone, nil
	case below, above:
		return types.Value{}, boundOpen, nil
	}
	return types.Value{I: int64(u)}, boundValue, nil
}

// Resolved is true.
func (r *rangeRead) Resolved() bool { return true }

// IsReadOnly is true.
func (r *rangeRead) IsReadOnly() bool { return true }

// Name is the table's name.
func (r *rangeRead) Name() string { return r.rt.Name() }

// Schema is the table's (projected) columns.
func (r *rangeRead) Schema() sql.Schema { return r.rt.Schema() }

// Children is none.
func (r *rangeRead) Children() []sql.Node { return nil }

// WithChildren takes none.
func (r *rangeRead) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(r, len(children), 0)
	}
	return r, nil
}

// CollationCoercibility is a table's.
func (r *rangeRead) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return r.rt.CollationCoercibility(ctx)
}

// String prints the read in the plan.
func (r *rangeRead) String() string {
	pr := sql.NewTreePrinter()
	_ = pr.WriteNode("RangeRead(%s)", r.rt.Name())
	bound := func(e sql.Expression) string {
		if e == nil {
			return "(open)"
		}
		return e.String()
	}
	children := []string{
		"index: " + r.Index(),
		"range: [" + bound(r.lo) + ", " + bound(r.hi) + "] per outer row",
	}
	if p := r.t.proj; p != nil {
		children = append(children, "columns: ["+strings.Join(p.names, " ")+"]")
	}
	_ = pr.WriteChildren(children...)
	return pr.String()
}

// Index names the index read ("PRIMARY" for the primary key).
func (r *rangeRead) Index() string { return r.idx.Name }

// RowIter reads the range the bounds give on row: the join's scope and
// outer row. A row of another length (a plan run under another scope)
// reads the whole table, which the join's condition filters as before.
func (r *rangeRead) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	if r.lookup {
		if gf, ok := r.lo.(*expression.GetField); !ok || gf.Index() >= len(row) {
			return nil, fmt.Errorf("sqlbackend: the lookup key of %s is outside a row of %d columns", r.Name(), len(row))
		}
	} else if len(row) != r.rowLen {
		parts, err := r.rt.Table.Partitions(ctx)
		if err != nil {
			return nil, err
		}
		return sql.NewTableRowIter(ctx, r.rt.Table, parts), nil
	}
	typ := &r.t.t.Columns[r.col].Type
	lo, lk, err := rangeBound(ctx, r.lo, row, typ, false)
	if err != nil {
		return nil, err
	}
	hi, hk, err := rangeBound(ctx, r.hi, row, typ, true)
	if err != nil {
		return nil, err
	}
	if lk == boundNone || hk == boundNone || lk == boundValue && hk == boundValue && types.Compare(typ, lo, hi) > 0 {
		return sql.RowsToRowIter(), nil
	}
	it := r.walk(ctx)
	// NULL sorts first and matches no bound: an open lower side starts
	// after it.
	it.bound[0] = types.NullValue
	rg := engine.Range{Lower: it.bound[0:1], LowerExclusive: true}
	if lk == boundValue {
		it.bound[0] = lo
		rg = engine.Range{Lower: it.bound[0:1]}
	}
	if hk == boundValue {
		it.bound[1] = hi
		rg.Upper = it.bound[1:2]
	}
	sr := scanRange{rg: rg}
	if lk == boundValue && hk == boundValue && !lo.Null && r.idx.Primary && !r.idx.Hidden && r.idx.Prefix == nil &&
		len(r.idx.Columns) == 1 && types.Compare(typ, lo, hi) == 0 {
		// One whole primary key: one Find (the row cache), not an iterator.
		sr = scanRange{rg: engine.Range{Lower: it.bound[0:1], Upper: it.bound[0:1]}, point: true}
	}
	it.ranges = append(it.ranges, sr)
	it.keyOnly = r.t.proj.coveredBy(r.idx, it.ranges)
	return &walkHandle{it}, nil
}

// walk returns a new walk of r's table and index without ranges: the
// session's spare walk when it has one (a lookup join builds one walk
// per outer row, and closes it before the next), else a new one.
func (r *rangeRead) walk(ctx *sql.Context) *rangeIter {
	return newWalk(ctx, r.t, r.idx)
}

// newWalk returns a new walk of t's index idx without ranges: the
// session's spare walk when it has one, else a new one; closed, it is
// left to the session for the next (a lookup join builds one walk per
// outer row, and closes it before the next). The spare walk keeps its
// slabs (boxes), whose slots handed out are never written again.
func newWalk(ctx *sql.Context, t *table, idx *engine.Index) *rangeIter {
	sess := SessionOf(ctx)
	var it *rangeIter
	if sess != nil && sess.spareWalk != nil {
		it, sess.spareWalk = sess.spareWalk, nil
		src, ranges, bx := it.src, it.ranges[:0], it.boxes
		*src = source{e: t.db.p.e, sess: sess, ctx: ctx}
		*it = rangeIter{src: src, ranges: ranges, boxes: bx}
	} else {
		it = &rangeIter{src: newSource(ctx, t.db.p.e), ranges: make([]scanRange, 0, 1)}
	}
	it.t, it.ts, it.idx, it.proj = t.t, t.ts, idx, t.proj
	it.src.own = t.fkReads
	it.recycle = sess != nil
	return it
}

// RangeChecked returns the table and index of a read of the plan whose
// range is computed for each outer row (EXPLAIN's "Range checked for
// each record"); ok is false for any other node.
func RangeChecked(n sql.Node) (table, index string, ok bool) {
	r, ok := n.(*rangeRead)
	if !ok {
		return "", "", false
	}
	return r.Name(), r.idx.Name, true
}
