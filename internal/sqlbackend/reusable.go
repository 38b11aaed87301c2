package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
)

// ReusablePlan reports whether the analyzed plan n of a SELECT may be
// executed again, by the same session, for another run of the same
// statement text (sqlfront's plan cache), and returns the function to call
// before each execution after the first. A plan qualifies when every node
// is of a kind whose execution keeps no state in the node (the iterators
// hold it) or a state reset can clear, reads only this backend's tables or
// the dual table, and no expression keeps state between executions or
// holds a plan of its own:
//   - uncorrelated subqueries cache their results in the expression (a
//     correlated one, which runs its plan for each row, is reusable if
//     its plan is), CachedResults and a recursive CTE's table their rows,
//     Max1Row its row;
//   - a hash lookup keeps its hashed rows, a memoized subquery
//     (subquerymemo.go) its answers: reset drops them (the plan is run by
//     one execution at a time; each node's state is under its mutex);
//   - handlerdb_match keeps the table statistics it read at its first row;
//   - RAND(seed) continues its sequence; a stored function, an assignment
//     to a user variable act on the session.
//
// It is a pure function of n, safe for concurrent use; reset must not run
// while the plan executes.
func ReusablePlan(n sql.Node) (reset func(), ok bool) {
	var resets []func()
	if !reusableNode(n, &resets) {
		return nil, false
	}
	return func() {
		for _, r := range resets {
			r()
		}
	}, true
}

// reusableNode is ReusablePlan's walk; it adds to resets what clears the
// state of the plan's hash lookups and subquery memos.
func reusableNode(n sql.Node, resets *[]func()) bool {
	switch n := n.(type) {
	case *plan.Project, *plan.Filter, *plan.Sort, *plan.TopN, *plan.Limit, *plan.Offset,
		*plan.GroupBy, *plan.Having, *plan.Window, *plan.Distinct, *plan.OrderedDistinct,
		*plan.JoinNode, *plan.TableAlias, *plan.SubqueryAlias, *plan.SetOp,
		*plan.StripRowNode, *plan.EmptyTable:
	case *plan.HashLookup:
		if n.Mutex == nil {
			return false
		}
		*resets = append(*resets, func() {
			n.Mutex.Lock()
			n.Lookup = nil
			n.Mutex.Unlock()
		})
	case *plan.ResolvedTable:
		if !reusableTable(n.Table) {
			return false
		}
	case *plan.IndexedTableAccess:
		if !reusableTable(n.Table) {
			return false
		}
	case *rangeRead: // rangejoin.go
		for _, e := range []sql.Expression{n.lo, n.hi} {
			if e != nil && !reusableExpr(e, resets) {
				return false
			}
		}
	default:
		return false
	}
	if ex, ok := n.(sql.Expressioner); ok {
		for _, e := range ex.Expressions() {
			if !reusableExpr(e, resets) {
				return false
			}
		}
	}
	for _, c := range n.Children() {
		if !reusableNode(c, resets) {
			return false
		}
	}
	return true
}

// reusableTable reports whether t, unwrapped from go-mysql-server's
// progress-tracking wrappers, is one of this backend's tables or the dual
// table.
func reusableTable(t sql.Table) bool {
	for {
		switch u := t.(type) {
		case *table, *indexedTable:
			return true
		case *plan.ProcessTable:
			t = u.Underlying()
		case *plan.ProcessIndexableTable:
			t = u.Underlying()
		default:
			return plan.IsDualTable(t)
		}
	}
}

// reusableExpr reports whether e and every expression under it keep no
// state between executions (see ReusablePlan), or state resets can clear;
// it adds those of the plans of correlated subqueries to resets.
func reusableExpr(e sql.Expression, resets *[]func()) bool {
	if e == nil {
		return true
	}
	switch x := e.(type) {
	case *memoSubquery:
		if !reusableNode(x.Query, resets) {
			return false
		}
		*resets = append(*resets, x.forget)
		return true
	case *scalarSubquery:
		// A wrapper: its child is the subquery (below).
	case *plan.Subquery:
		// A correlated subquery runs its plan for every row and keeps
		// no results; an uncorrelated one keeps them in the expression.
		if x.CanCacheResults() || !reusableNode(x.Query, resets) {
			return false
		}
	case sql.ExpressionWithNodes, *matchFunc, *storedFunc, *assignVar, *function.Rand:
		return false
	}
	for _, c := range e.Children() {
		if !reusableExpr(c, resets) {
			return false
		}
	}
	return true
}

// ObjectsGen returns a number that changes whenever a view, trigger,
// procedure or stored function of any database changes (a cached plan
// that read one is then stale). Safe for concurrent use.
func (p *Provider) ObjectsGen() uint64 {
	p.objCacheMu.RLock()
	defer p.objCacheMu.RUnlock()
	return p.objGen
}
