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
//   - a hash lookup keeps its hashed rows: reset drops them (the node is
//     used by one execution at a time, under its own mutex);
//   - handlerdb_match keeps the table statistics it read at its first row;
//   - RAND(seed) continues its sequence; a stored function, an assignment
//     to a user variable act on the session.
//
// It is a pure function of n, safe for concurrent use; reset must not run
// while the plan executes.
func ReusablePlan(n sql.Node) (reset func(), ok bool) {
	var hashes []*plan.HashLookup
	if !reusableNode(n, &hashes) {
		return nil, false
	}
	return func() {
		for _, h := range hashes {
			h.Mutex.Lock()
			h.Lookup = nil
			h.Mutex.Unlock()
		}
	}, true
}

// reusableNode is ReusablePlan's walk; it adds the hash lookups to hashes.
func reusableNode(n sql.Node, hashes *[]*plan.HashLookup) bool {
	switch n := n.(type) {
	case *plan.Project, *plan.Filter, *plan.Sort, *plan.TopN, *plan.Limit, *plan.Offset,
		*plan.GroupBy, *plan.Having, *plan.Window, *plan.Distinct, *plan.OrderedDistinct,
		*plan.JoinNode, *plan.TableAlias, *plan.SubqueryAlias, *plan.SetOp,
		*plan.StripRowNode, *plan.EmptyTable:
	case *plan.HashLookup:
		if n.Mutex == nil {
			return false
		}
		*hashes = append(*hashes, n)
	case *plan.ResolvedTable:
		if !reusableTable(n.Table) {
			return false
		}
	case *plan.IndexedTableAccess:
		if !reusableTable(n.Table) {
			return false
		}
	default:
		return false
	}
	if ex, ok := n.(sql.Expressioner); ok {
		for _, e := range ex.Expressions() {
			if !reusableExpr(e, hashes) {
				return false
			}
		}
	}
	for _, c := range n.Children() {
		if !reusableNode(c, hashes) {
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
// state between executions (see ReusablePlan); it adds the hash lookups
// of the plans of correlated subqueries to hashes.
func reusableExpr(e sql.Expression, hashes *[]*plan.HashLookup) bool {
	if e == nil {
		return true
	}
	switch x := e.(type) {
	case *plan.Subquery:
		// A correlated subquery runs its plan for every row and keeps
		// no results; an uncorrelated one keeps them in the expression.
		if x.CanCacheResults() || !reusableNode(x.Query, hashes) {
			return false
		}
	case sql.ExpressionWithNodes, *matchFunc, *storedFunc, *assignVar, *function.Rand:
		return false
	}
	for _, c := range e.Children() {
		if !reusableExpr(c, hashes) {
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
