package mariadb

import (
	"io"
	"sort"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/errtable"
)

// rangeFramesRule gives every RANGE window frame a framer of its own.
// go-mysql-server's range framers assume an ascending order without
// NULLs: they slide forward comparing each row's key with "key - N" the
// ascending way, so under ORDER BY ... DESC, or once a NULL key makes a
// bound NULL, a frame runs to the partition's end and stays there (SUM()
// OVER (ORDER BY y RANGE BETWEEN 5 PRECEDING AND CURRENT ROW) summed the
// whole partition on every row when one y was NULL). MariaDB's frames, as
// the standard has them:
//   - the NULL keys are one peer group: a NULL row's CURRENT ROW and
//     N PRECEDING/FOLLOWING bounds are that group's edges;
//   - a non-NULL row's bounds with an offset or CURRENT ROW hold only
//     non-NULL rows; UNBOUNDED reaches the partition's edge, NULLs
//     included;
//   - PRECEDING goes against the sort: key - N ascending, key + N
//     descending.
//
// A frame whose window does not have exactly one ORDER BY key keeps
// go-mysql-server's framer (which refuses the offsets, or treats every
// row as a peer). JSON_ARRAYAGG over a window, which go-mysql-server ran
// as a running aggregate whatever the frame, is MariaDB's 1235. The rule
// runs in every scope: it moves no column.
func rangeFramesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		w, ok := n.(*plan.Window)
		if !ok {
			return n, transform.SameTree, nil
		}
		exprs, changed, err := windowFuncs(w, func(wa sql.WindowAdaptableExpression) (*sql.WindowDefinition, error) {
			if isJSONArrayAgg(wa) {
				// go-mysql-server ran it as a running aggregate whatever
				// the frame; MariaDB refuses it.
				return nil, errtable.SQLError(mysql.ERNotSupportedYet, "JSON_ARRAYAGG() aggregate as window function")
			}
			if !isRangeFrame(wa.Window().Frame) {
				return nil, nil
			}
			def := *wa.Window()
			if err := checkRangeOffsets(&def); err != nil {
				return nil, err
			}
			def.Frame = &rangeFrame{WindowFrame: def.Frame}
			return &def, nil
		})
		if err != nil {
			return nil, transform.SameTree, err
		}
		if !changed {
			return n, transform.SameTree, nil
		}
		nw, err := w.WithExpressions(exprs...)
		if err != nil {
			return nil, transform.SameTree, err
		}
		return nw, transform.NewTree, nil
	})
}

// isJSONArrayAgg reports whether e is JSON_ARRAYAGG (go-mysql-server's,
// or bounded by jsonagg.go).
func isJSONArrayAgg(e sql.Expression) bool {
	switch x := e.(type) {
	case *aggregation.JsonArray:
		return true
	case *boundedJSONAgg:
		return x.name == "json_arrayagg"
	}
	return false
}

// isRangeFrame reports whether f is one of go-mysql-server's RANGE frames.
func isRangeFrame(f sql.WindowFrame) bool {
	switch f.(type) {
	case *plan.RangeUnboundedPrecedingToNPrecedingFrame, *plan.RangeUnboundedPrecedingToCurrentRowFrame,
		*plan.RangeUnboundedPrecedingToNFollowingFrame, *plan.RangeUnboundedPrecedingToUnboundedFollowingFrame,
		*plan.RangeNPrecedingToNPrecedingFrame, *plan.RangeNPrecedingToCurrentRowFrame,
		*plan.RangeNPrecedingToNFollowingFrame, *plan.RangeNPrecedingToUnboundedFollowingFrame,
		*plan.RangeCurrentRowToNPrecedingFrame, *plan.RangeCurrentRowToCurrentRowFrame,
		*plan.RangeCurrentRowToNFollowingFrame, *plan.RangeCurrentRowToUnboundedFollowingFrame,
		*plan.RangeNFollowingToNPrecedingFrame, *plan.RangeNFollowingToCurrentRowFrame,
		*plan.RangeNFollowingToNFollowingFrame, *plan.RangeNFollowingToUnboundedFollowingFrame:
		return true
	}
	return false
}

// checkRangeOffsets refuses, as MariaDB does (4021), an offset (N
// PRECEDING or FOLLOWING) over an ORDER BY key that is not a number. An
// INTERVAL offset over a date or time key (MySQL's, which MariaDB's
// grammar does not take) is kept.
func checkRangeOffsets(def *sql.WindowDefinition) error {
	f := def.Frame
	if len(def.OrderBy) != 1 {
		return nil
	}
	kt := def.OrderBy[0].Column.Type()
	for _, off := range []sql.Expression{f.StartNPreceding(), f.StartNFollowing(), f.EndNPreceding(), f.EndNFollowing()} {
		if off == nil {
			continue
		}
		if _, interval := off.(*expression.Interval); interval && types.IsTime(kt) {
			continue
		}
		if !types.IsNumber(kt) {
			return errtable.SQLError(errtable.ERWrongTypeForRangeFrame)
		}
	}
	return nil
}

// rangeFrame is a RANGE frame whose framer is rangeFramer; it describes
// itself as the frame it wraps.
type rangeFrame struct {
	sql.WindowFrame
}

// NewFramer returns the prototype framer of the window w.
func (f *rangeFrame) NewFramer(w *sql.WindowDefinition) (sql.WindowFramer, error) {
	if len(w.OrderBy) != 1 {
		return f.WindowFrame.NewFramer(w)
	}
	key := w.OrderBy[0].Column
	r := &rangeFramer{key: key, desc: w.OrderBy[0].Order == sql.Descending}
	r.start = newFrameBound(key, r.desc, f.UnboundedPreceding(), f.StartCurrentRow(), f.StartNPreceding(), f.StartNFollowing())
	r.end = newFrameBound(key, r.desc, f.UnboundedFollowing(), f.EndCurrentRow(), f.EndNPreceding(), f.EndNFollowing())
	return r, nil
}

// frameBound is one side of a frame: unbounded, or a value computed from
// the current row's key (the key itself for CURRENT ROW).
type frameBound struct {
	unbounded bool
	value     sql.Expression // of the current row; the key for CURRENT ROW
}

// newFrameBound makes a bound; preceding goes against the sort's
// direction.
func newFrameBound(key sql.Expression, desc, unbounded, current bool, preceding, following sql.Expression) frameBound {
	switch {
	case unbounded:
		return frameBound{unbounded: true}
	case current:
		return frameBound{value: key}
	case preceding != nil:
		op := sqlparser.MinusStr
		if desc {
			op = sqlparser.PlusStr
		}
		return frameBound{value: expression.NewArithmetic(key, preceding, op)}
	default:
		op := sqlparser.PlusStr
		if desc {
			op = sqlparser.MinusStr
		}
		return frameBound{value: expression.NewArithmetic(key, following, op)}
	}
}

// rangeFramer finds each row's frame in its sorted partition by binary
// search over the partition's keys, evaluated once per partition. Like
// every framer, it belongs to one execution of one window function.
type rangeFramer struct {
	key        sql.Expression
	desc       bool
	start, end frameBound

	set          bool
	idx          int
	pStart, pEnd int
	frame        sql.WindowInterval
	keys         []any // the partition's keys, keys[i] of row pStart+i
	nullLo       int   // the NULL keys' rows: [nullLo, nullHi) (absolute)
	nullHi       int
}

// NewFramer starts the partition interval.
func (f *rangeFramer) NewFramer(interval sql.WindowInterval) (sql.WindowFramer, error) {
	return &rangeFramer{key: f.key, desc: f.desc, start: f.start, end: f.end,
		set: true, idx: interval.Start, pStart: interval.Start, pEnd: interval.End,
		frame: sql.WindowInterval{Start: interval.Start, End: interval.Start}}, nil
}

// Next returns the frame of the partition's next row.
func (f *rangeFramer) Next(ctx *sql.Context, buf sql.WindowBuffer) (sql.WindowInterval, error) {
	if !f.set || f.idx >= f.pEnd {
		return sql.WindowInterval{}, io.EOF
	}
	if f.keys == nil {
		if err := f.loadKeys(ctx, buf); err != nil {
			return sql.WindowInterval{}, err
		}
	}
	i := f.idx
	f.idx++
	if f.keys[i-f.pStart] == nil {
		f.frame.Start, f.frame.End = f.nullLo, f.nullHi
		if f.start.unbounded {
			f.frame.Start = f.pStart
		}
		if f.end.unbounded {
			f.frame.End = f.pEnd
		}
		return f.frame, nil
	}
	// The non-NULL rows, sorted.
	lo, hi := f.pStart, f.pEnd
	if f.nullLo < f.nullHi {
		if f.nullLo == f.pStart {
			lo = f.nullHi
		} else {
			hi = f.nullLo
		}
	}
	var err error
	start, end := f.pStart, f.pEnd
	if !f.start.unbounded {
		if start, err = f.search(ctx, buf[i], f.start.value, lo, hi, false); err != nil {
			return sql.WindowInterval{}, err
		}
	}
	if !f.end.unbounded {
		if end, err = f.search(ctx, buf[i], f.end.value, lo, hi, true); err != nil {
			return sql.WindowInterval{}, err
		}
	}
	if end < start {
		end = start // an empty frame
	}
	f.frame.Start, f.frame.End = start, end
	return f.frame, nil
}

// loadKeys evaluates the partition's keys and finds its NULL rows, which
// the sort keeps together at one end.
func (f *rangeFramer) loadKeys(ctx *sql.Context, buf sql.WindowBuffer) error {
	f.keys = make([]any, f.pEnd-f.pStart)
	f.nullLo, f.nullHi = f.pEnd, f.pEnd
	for i := f.pStart; i < f.pEnd; i++ {
		k, err := f.key.Eval(ctx, buf[i])
		if err != nil {
			return err
		}
		f.keys[i-f.pStart] = k
		if k == nil {
			if f.nullLo == f.pEnd {
				f.nullLo = i
			}
			f.nullHi = i + 1
		}
	}
	return nil
}

// search returns, among the sorted non-NULL rows [lo, hi), the first row
// at or past the bound's value in the sort's direction (after, false: a
// frame's start), or the first one past it (after: a frame's end). A
// NULL bound (an overflow) leaves that side at the rows' edge.
func (f *rangeFramer) search(ctx *sql.Context, row sql.Row, bound sql.Expression, lo, hi int, after bool) (int, error) {
	v, err := bound.Eval(ctx, row)
	if err != nil {
		return 0, err
	}
	if v == nil {
		if after {
			return hi, nil
		}
		return lo, nil
	}
	t := bound.Type()
	var cerr error
	n := sort.Search(hi-lo, func(j int) bool {
		if cerr != nil {
			return true
		}
		c, err := t.Compare(ctx, f.keys[lo+j-f.pStart], v)
		if err != nil {
			cerr = err
			return true
		}
		if f.desc {
			c = -c
		}
		if after {
			return c > 0
		}
		return c >= 0
	})
	return lo + n, cerr
}

// FirstIdx is the frame's first row.
func (f *rangeFramer) FirstIdx() int { return f.frame.Start }

// LastIdx is the frame's end (exclusive).
func (f *rangeFramer) LastIdx() int { return f.frame.End }

// Interval is the current frame.
func (f *rangeFramer) Interval() (sql.WindowInterval, error) { return f.frame, nil }
