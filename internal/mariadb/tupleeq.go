package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// tupleEqRule: a row comparison (a, b) = (c, d) is, in SQL, a = c AND
// b = d, NULL when an element compares NULL and none compares false.
// go-mysql-server compares the two tuples as values, where a NULL equals
// a NULL: (k, k2) = (NULL, 0) found the row whose k is NULL, a join ON
// (a.k, a.k2) = (b.k, b.k2) paired rows by their NULL keys (70 pairs
// where MariaDB has 59), and (k, k2 + 1) IN (SELECT ...), which go-mysql-
// server unnests into a join on such a comparison, returned rows whose k
// is NULL; (NULL, 1) = (1, 1) in a select list failed ("value not nil").
// The rule writes each equality of two tuples of one length as the
// conjunction of its elements' equalities (nested tuples likewise), which
// is the same comparison in three-valued logic. It runs after the join
// planner: the conjunction keeps the plan's hash or lookup keys, which
// may match NULL keys, from deciding the answer.
//
// The rule is a pure function of the plan, safe for concurrent use.
func tupleEqRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if c, ok := splitTupleEq(e); ok {
			return c, transform.NewTree, nil
		}
		return e, transform.SameTree, nil
	})
}

// splitTupleEq returns the conjunction of element equalities that e
// stands for, if e is an equality of two tuples of one length.
func splitTupleEq(e sql.Expression) (sql.Expression, bool) {
	eq, ok := e.(*expression.Equals)
	if !ok {
		return e, false
	}
	l, lok := eq.Left().(expression.Tuple)
	r, rok := eq.Right().(expression.Tuple)
	if !lok || !rok || len(l) != len(r) || len(l) == 0 {
		return e, false
	}
	parts := make([]sql.Expression, len(l))
	for i := range l {
		pe := sql.Expression(expression.NewEquals(l[i], r[i]))
		if s, ok := splitTupleEq(pe); ok {
			pe = s
		}
		parts[i] = pe
	}
	return expression.JoinAnd(parts...), true
}

// hasTupleEq is tupleEqRule's gate: a node with an equality of two tuples
// among its expressions.
func hasTupleEq(n sql.Node) bool {
	ex, ok := n.(sql.Expressioner)
	if !ok {
		return false
	}
	for _, e := range ex.Expressions() {
		if transform.InspectExpr(e, func(e sql.Expression) bool {
			_, ok := splitTupleEq(e)
			return ok
		}) {
			return true
		}
	}
	return false
}
