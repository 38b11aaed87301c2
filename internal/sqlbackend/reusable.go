package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
)

// ReusablePlan reports whether the analyzed plan n of a SELECT (or of a
// single-table UPDATE or DELETE) may be
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
	if !ReusableNode(n, &resets) {
		return nil, false
	}
	return func() {
		for _, r := range resets {
			r()
		}
	}, true
}

// StatelessNode is a plan node of another package (the dialect's) that
// keeps no state between executions in the node: its iterators hold it.
// ReusablePlan treats it as its own nodes of that kind, checking its
// expressions and children.
type StatelessNode interface {
	sql.Node
	Stateless()
}

// SortingNode is a plan node of another package that sorts its rows
// (EXPLAIN says "Using filesort" for it).
type SortingNode interface {
	sql.Node
	Sorts()
}

// reusableNode is ReusablePlan's walk; it adds to resets what clears the
// state of the plan's hash lookups and subquery memos.
func ReusableNode(n sql.Node, resets *[]func()) bool {
	switch n := n.(type) {
	case *plan.Project, *plan.Filter, *plan.Sort, *plan.TopN, *plan.Limit, *plan.Offset,
		*plan.GroupBy, *plan.Having, *plan.Window, *plan.Distinct, *plan.OrderedDistinct,
		*plan.JoinNode, *plan.TableAlias, *plan.SubqueryAlias, *plan.SetOp,
		*plan.StripRowNode, *plan.EmptyTable:
	case *scanFilter: // scanfilter.go: its checks are made per execution
	case *plan.Update:
		// a prepared UPDATE's template (sqlfront's prepplans.go): one
		// table, no RETURNING; the updater is made per execution
		if n.IsJoin || n.IsProcNested || len(n.Returning) > 0 {
			return false
		}
	case *plan.InsertInto:
		// a prepared INSERT ... VALUES's template: its source is not one
		// of its children
		if len(n.Returning) > 0 || len(n.OnDupExprs) > 0 || !n.LiteralValueSource || !ReusableNode(n.Source, resets) {
			return false
		}
	case StatelessNode:
	case *plan.Values, *plan.InsertDestination:
	case *plan.UpdateSource:
	case *plan.DeleteFrom:
		if n.HasExplicitTargets() || n.IsProcNested {
			return false
		}
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
		if !ReusableNode(c, resets) {
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
	case ReusableExpression:
		ok, query, reset := x.Reuse()
		if !ok {
			return false
		}
		if query != nil {
			if !ReusableNode(query, resets) {
				return false
			}
			if reset != nil {
				*resets = append(*resets, reset)
			}
			return true
		}
	case *plan.Subquery:
		// A correlated subquery runs its plan for every row and keeps
		// no results; an uncorrelated one keeps them in the expression.
		if x.CanCacheResults() || !ReusableNode(x.Query, resets) {
			return false
		}
	case sql.ExpressionWithNodes, *matchFunc, *storedFunc, *function.Rand:
		return false
	}
	for _, c := range e.Children() {
		if !reusableExpr(c, resets) {
			return false
		}
	}
	return true
}

// A ReusableExpression is an expression of a layer above the backend (the
// MariaDB dialect's) that tells ReusablePlan what it keeps between
// executions: ok false if the plan may not run again; else the plan it
// runs (nil if none; its children are then walked as any expression's)
// and the function that clears what it keeps (nil if nothing).
type ReusableExpression interface {
	sql.Expression
	Reuse() (ok bool, query sql.Node, reset func())
}

// A StandIn is an expression of a layer above the backend that computes
// another one differently but means the same condition (the dialect's
// date comparisons as MariaDB makes them); the range read looks through
// it to the expression it stands for.
type StandIn interface {
	sql.Expression
	StandsFor() sql.Expression
}
