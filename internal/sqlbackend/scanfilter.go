package sqlbackend

import (
	"strings"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Conditions checked on the engine's rows.
//
// A WHERE that no index serves is a Filter over a read of the whole
// table: go-mysql-server evaluates it on each row after the walk has made
// the row one of go-mysql-server's values, column by column (boxes.go),
// and that conversion costs more than the condition. A scanFilter is such
// a Filter reading its table itself. The conjuncts of its condition that
// compare a column with a literal in a way the engine's values answer
// (IS NULL, IS NOT NULL, integer and date comparisons cut as a range
// read's bounds are, equality of text under the column's collation and
// of an ENUM with a member's number, IN lists of such
// literals) are checked on the engine's row first (rowCheck), and a row
// that fails one is never converted. Every row that passes still goes through the whole
// condition, so a check only has to keep every row the condition keeps;
// it may keep more: an integer < 5 is checked as <= 5, and IS NULL on a
// date column keeps the zero and invalid dates, which MariaDB's IS NULL
// finds on a NOT NULL date column.
//
// The checks are made from the condition at each execution, so the new
// literals of a plan template (plantemplate.go) reach them. A locking
// read (FOR UPDATE) checks nothing early: it locks what it reads as
// before. Only read-only plans are changed, and only in the top level of
// an analysis (its views and derived tables included, not the plans of
// subquery expressions, which other rules inspect from their parent's
// analysis).

// ScanFilterRule makes the scanFilters of a read-only plan. It runs last
// (analyzer.OnceAfterAll).
func ScanFilterRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !scope.IsEmpty() || !n.IsReadOnly() {
		return n, transform.SameTree, nil
	}
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		sf := newScanFilter(f)
		if sf == nil {
			return n, transform.SameTree, nil
		}
		return sf, transform.NewTree, nil
	})
}

// scanFilter is a Filter over a whole read of one of our tables, or a
// read of static ranges of one of its indexes (see above). It prints as the Filter. It is immutable and safe for
// concurrent use: its iterators hold the state of a read.
type scanFilter struct {
	f   *plan.Filter
	t   *table
	ita *plan.IndexedTableAccess // the read of an index's static ranges; nil: the whole table
}

var (
	_ sql.ExecSourceRel = (*scanFilter)(nil)
	_ sql.Expressioner  = (*scanFilter)(nil)
)

// newScanFilter returns the scanFilter of f, nil when f's child is not a
// whole read of one of our tables or its condition has no conjunct to
// check early.
func newScanFilter(f *plan.Filter) *scanFilter {
	child := f.Child
	if ta, ok := child.(*plan.TableAlias); ok {
		child = ta.Child
	}
	var t *table
	ita, _ := child.(*plan.IndexedTableAccess)
	switch c := child.(type) {
	case *plan.ResolvedTable:
		t = readTable(c)
	case *plan.IndexedTableAccess:
		// (a lookup of each outer row's key would make its checks
		// for every outer row, for the few rows of one key)
		if !c.IsStatic() {
			return nil
		}
		t = unwrapTable(c.Table)
	}
	if t == nil || t.columnAdded || t.fkReads || t.oddSch != nil {
		return nil
	}
	for _, c := range t.ts.sch.Schema {
		if c.Virtual {
			return nil // go-mysql-server computes it over the row read
		}
	}
	sf := &scanFilter{f: f, t: t, ita: ita}
	if !sf.checkable() {
		return nil
	}
	return sf
}

// checkOp is what a rowCheck asks of its column's value.
type checkOp uint8

const (
	checkNull    checkOp = iota // NULL (or, on a date column, a zero or invalid date)
	checkNotNull                // not NULL
	checkRange                  // not NULL and within rg
	checkNever                  // nothing passes (a comparison with NULL)
	checkIn                     // not NULL and equal to one of in
)

// rowCheck is one conjunct of a scanFilter's condition as a test of an
// engine row's value.
type rowCheck struct {
	op checkOp
	rg colRange      // rg.col is the column (every op)
	in []types.Value // checkIn: the values
}

// pass reports whether r may pass the condition.
func (c *rowCheck) pass(r engine.Row) bool {
	v := r[c.rg.col]
	switch c.op {
	case checkNull:
		if v.Null {
			return true
		}
		switch c.rg.typ.Kind {
		case types.Date, types.DateTime, types.Timestamp:
			return v.I == 0 || !types.ValidDate(v.I)
		}
		return false
	case checkNotNull:
		return !v.Null
	case checkRange:
		return !v.Null && c.rg.contains(v)
	case checkIn:
		if v.Null {
			return false
		}
		for _, x := range c.in {
			if types.Compare(c.rg.typ, v, x) == 0 {
				return true
			}
		}
	}
	return false
}

// passAll reports whether r passes every check.
func passAll(checks []rowCheck, r engine.Row) bool {
	for i := range checks {
		if !checks[i].pass(r) {
			return false
		}
	}
	return true
}

// column returns the engine column e reads if it is a column of the
// filter's child, else -1. The child is the table read alone, so its rows
// are the table's (projected) columns from position 0.
func (n *scanFilter) column(e sql.Expression) int {
	gf, ok := e.(*expression.GetField)
	if !ok {
		return -1
	}
	sch := n.f.Child.Schema()
	i := gf.Index()
	if i < 0 || i >= len(sch) || !strings.EqualFold(sch[i].Name, gf.Name()) || !strings.EqualFold(sch[i].Source, gf.Table()) {
		return -1
	}
	c := n.t.t.Column(sch[i].Name)
	if c < 0 {
		return -1
	}
	if p := n.t.proj; p != nil {
		held := false
		for _, pc := range p.cols {
			held = held || pc == c
		}
		if !held {
			return -1 // (not decoded)
		}
	}
	return c
}

// conjunct is one conjunct of the condition a rowCheck can stand for:
// its column, what it asks, and for a comparison the literal and on
// which side of it the column's values must be.
type conjunct struct {
	col    int
	op     checkOp
	lit    sql.Expression   // checkRange: the literal
	lo, hi bool             // checkRange: the literal bounds the column from below, from above
	lits   []sql.Expression // checkIn: the list's literals
}

// conjuncts returns the conjuncts of n's condition a rowCheck can stand
// for, appended to dst.
func (n *scanFilter) conjuncts(dst []conjunct) []conjunct {
	for _, e := range expression.SplitConjunction(n.f.Expression) {
		if o, ok := e.(StandIn); ok {
			e = o.StandsFor()
		}
		switch e := e.(type) {
		case *expression.IsNull:
			if c := n.column(e.Child); c >= 0 {
				dst = append(dst, conjunct{col: c, op: checkNull})
			}
		case *expression.Not:
			in, ok := e.Child.(*expression.IsNull)
			if o, isStand := e.Child.(StandIn); isStand {
				in, ok = o.StandsFor().(*expression.IsNull)
			}
			if ok {
				if c := n.column(in.Child); c >= 0 {
					dst = append(dst, conjunct{col: c, op: checkNotNull})
				}
			}
		case *expression.InTuple, *expression.HashInTuple:
			// (go-mysql-server makes a list of literals a HashInTuple)
			in := e.(interface {
				Left() sql.Expression
				Right() sql.Expression
			})
			tup, ok := in.Right().(expression.Tuple)
			c := n.column(in.Left())
			if !ok || c < 0 || !equalityKind(&n.t.t.Columns[c].Type) {
				continue
			}
			lits := make([]sql.Expression, 0, len(tup))
			for _, m := range tup {
				if _, isLit := m.(*expression.Literal); !isLit {
					lits = nil
					break
				}
				lits = append(lits, m)
			}
			if lits != nil {
				dst = append(dst, conjunct{col: c, op: checkIn, lits: lits})
			}
		case *expression.Equals:
			dst = n.comparison(dst, e.Left(), e.Right(), true, true)
		case *expression.LessThan:
			dst = n.comparison(dst, e.Left(), e.Right(), false, true)
		case *expression.LessThanOrEqual:
			dst = n.comparison(dst, e.Left(), e.Right(), false, true)
		case *expression.GreaterThan:
			dst = n.comparison(dst, e.Left(), e.Right(), true, false)
		case *expression.GreaterThanOrEqual:
			dst = n.comparison(dst, e.Left(), e.Right(), true, false)
		}
	}
	return dst
}

// comparison appends the conjunct of left <op> right when one side is a
// column a range read could bound (or a text column, for an equality)
// and the other a literal; lo and hi say which bounds the comparison
// gives the left side.
func (n *scanFilter) comparison(dst []conjunct, left, right sql.Expression, lo, hi bool) []conjunct {
	if _, ok := left.(*expression.Literal); ok {
		left, right, lo, hi = right, left, hi, lo
	}
	if _, ok := right.(*expression.Literal); !ok {
		return dst
	}
	c := n.column(left)
	if c < 0 {
		return dst
	}
	typ := &n.t.t.Columns[c].Type
	switch {
	case rangeKind(typ.Kind):
	case equalityKind(typ) && lo && hi:
	default:
		return dst
	}
	return append(dst, conjunct{col: c, op: checkRange, lit: right, lo: lo, hi: hi})
}

// equalityKind reports a column whose equality with a literal a check
// can answer: one a range read bounds, text, or an ENUM.
func equalityKind(typ *types.Type) bool {
	return rangeKind(typ.Kind) || textKind(typ) || typ.Kind == types.Enum
}

// textKind reports a CHAR, VARCHAR or TEXT column with a collation.
func textKind(typ *types.Type) bool {
	switch typ.Kind {
	case types.Char, types.VarChar, types.Text:
		return typ.Collation != nil
	}
	return false
}

// checkable reports whether the condition has a conjunct to check.
func (n *scanFilter) checkable() bool {
	return len(n.conjuncts(nil)) > 0
}

// checks returns the rowChecks of the condition as this execution's
// literals make them.
func (n *scanFilter) checks(ctx *sql.Context) ([]rowCheck, error) {
	var buf [4]conjunct
	cs := n.conjuncts(buf[:0])
	checks := make([]rowCheck, 0, len(cs))
	for _, cj := range cs {
		typ := &n.t.t.Columns[cj.col].Type
		ck := rowCheck{op: cj.op, rg: colRange{col: cj.col, typ: typ, lo: bound{unbounded: true}, hi: bound{unbounded: true}}}
		switch {
		case cj.op == checkIn:
			// The values equal to the members (a NULL member or one
			// beyond the type makes no row TRUE).
			unknown := false
			for _, lit := range cj.lits {
				v, kind, err := equalValue(ctx, typ, lit)
				if err != nil {
					return nil, err
				}
				unknown = unknown || kind == eqUnknown
				if kind == eqValue {
					ck.in = append(ck.in, v)
				}
			}
			if unknown {
				continue
			}
			if len(ck.in) == 0 {
				ck.op = checkNever
			}
		case cj.op == checkRange && !rangeKind(typ.Kind):
			// One value equal to the literal.
			v, kind, err := equalValue(ctx, typ, cj.lit)
			if err != nil {
				return nil, err
			}
			switch kind {
			case eqUnknown:
				continue
			case eqNone:
				ck.op = checkNever
			default:
				ck.rg.lo, ck.rg.hi = bound{v: v, incl: true}, bound{v: v, incl: true}
			}
		case cj.op == checkRange:
			for _, side := range [...]struct {
				on    bool
				upper bool
				b     *bound
			}{{cj.lo, false, &ck.rg.lo}, {cj.hi, true, &ck.rg.hi}} {
				if !side.on {
					continue
				}
				v, kind, err := rangeBound(ctx, cj.lit, nil, typ, side.upper)
				if err != nil {
					return nil, err
				}
				switch kind {
				case boundNone:
					ck.op = checkNever
				case boundValue:
					*side.b = bound{v: v, incl: true}
				}
			}
		}
		checks = append(checks, ck)
	}
	return checks, nil
}

// eqKind says what equalValue found.
type eqKind uint8

const (
	eqValue   eqKind = iota // the one value equal to the literal
	eqNone                  // no value (NULL, or beyond the column's type)
	eqUnknown               // not known here: no check
)

// equalValue returns the value a column of typ holds when it equals the
// literal lit: as a range read's point for integers and dates, the text
// of an ASCII string for text (compared under the column's collation),
// the member's number for an ENUM.
func equalValue(ctx *sql.Context, typ *types.Type, lit sql.Expression) (types.Value, eqKind, error) {
	if rangeKind(typ.Kind) {
		lo, lk, err := rangeBound(ctx, lit, nil, typ, false)
		if err != nil {
			return types.Value{}, eqUnknown, err
		}
		hi, hk, err := rangeBound(ctx, lit, nil, typ, true)
		if err != nil {
			return types.Value{}, eqUnknown, err
		}
		switch {
		case lk == boundNone || hk == boundNone:
			return types.Value{}, eqNone, nil
		case lk == boundValue && hk == boundValue && types.Compare(typ, lo, hi) == 0:
			return lo, eqValue, nil
		}
		return types.Value{}, eqUnknown, nil
	}
	v, err := lit.Eval(ctx, nil)
	if err != nil {
		return types.Value{}, eqUnknown, err
	}
	s, isText := v.(string)
	n, isNum := v.(int64)
	switch {
	case v == nil:
		return types.Value{}, eqNone, nil
	case typ.Kind == types.Enum:
		// A member's number: the dialect turns a comparison with a
		// member's name into one (mariadb/enumcmp.go); a name it left
		// is not checked here.
		switch {
		case !isNum:
			return types.Value{}, eqUnknown, nil
		case n < 0 || n > int64(len(typ.Elems)):
			return types.Value{}, eqNone, nil
		}
		return types.Value{I: n}, eqValue, nil
	case !isText || !ascii(s):
		return types.Value{}, eqUnknown, nil // (other bytes may differ in the column's charset)
	}
	return types.Value{B: []byte(s)}, eqValue, nil
}

// scanFilterReads counts the reads of scanFilters (ScanFilterReads).
var scanFilterReads atomic.Int64

// ScanFilterReads is how many reads of the whole table went through
// early checks since the process started (tests see the rule work).
func ScanFilterReads() int64 { return scanFilterReads.Load() }

// RowIter reads the whole table or the index's ranges, checking each row
// before converting it, under the Filter's condition. row is the scope a
// lookup's bounds may read; the rows read are the table's own.
func (n *scanFilter) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	checks, err := n.checks(ctx)
	if err != nil {
		return nil, err
	}
	scanFilterReads.Add(1)
	var part partition
	if n.ita != nil {
		lookup, err := n.ita.GetLookup(ctx, row)
		if err != nil {
			return nil, err
		}
		part.lookup = &lookup
	}
	iter, err := n.t.PartitionRows(ctx, part)
	if err != nil {
		return nil, err
	}
	if h, ok := iter.(*walkHandle); ok && h.it != nil {
		h.it.filter = checks
	}
	return plan.NewFilterIter(n.f.Expression, iter), nil
}

// Resolved is the Filter's.
func (n *scanFilter) Resolved() bool { return n.f.Resolved() }

// IsReadOnly is true.
func (n *scanFilter) IsReadOnly() bool { return true }

// Schema is the Filter's.
func (n *scanFilter) Schema() sql.Schema { return n.f.Schema() }

// Children is the Filter's child.
func (n *scanFilter) Children() []sql.Node { return n.f.Children() }

// WithChildren is the Filter over children, a scanFilter if it can be.
func (n *scanFilter) WithChildren(children ...sql.Node) (sql.Node, error) {
	nf, err := n.f.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return n.rewrap(nf), nil
}

// Expressions is the condition.
func (n *scanFilter) Expressions() []sql.Expression { return n.f.Expressions() }

// WithExpressions is the Filter with another condition, a scanFilter if
// it can be.
func (n *scanFilter) WithExpressions(exprs ...sql.Expression) (sql.Node, error) {
	nf, err := n.f.WithExpressions(exprs...)
	if err != nil {
		return nil, err
	}
	return n.rewrap(nf), nil
}

// rewrap returns the scanFilter of the Filter nf, or nf itself.
func (n *scanFilter) rewrap(nf sql.Node) sql.Node {
	f, ok := nf.(*plan.Filter)
	if !ok {
		return nf
	}
	if sf := newScanFilter(f); sf != nil {
		return sf
	}
	return f
}

// Filter is the Filter n stands for.
func (n *scanFilter) Filter() *plan.Filter { return n.f }

// CollationCoercibility is the Filter's.
func (n *scanFilter) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return n.f.CollationCoercibility(ctx)
}

// String prints the Filter.
func (n *scanFilter) String() string { return n.f.String() }

// DebugString prints the Filter.
func (n *scanFilter) DebugString() string { return sql.DebugString(n.f) }

// ScanFilterOf returns the Filter a node of ScanFilterRule stands for
// (EXPLAIN reads it as that Filter); ok is false for any other node.
func ScanFilterOf(n sql.Node) (*plan.Filter, bool) {
	sf, ok := n.(*scanFilter)
	if !ok {
		return nil, false
	}
	return sf.f, true
}
