package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// mergeKeysRule: go-mysql-server plans a merge join on an equality whose
// sides it takes for non-decreasing functions of one indexed column each,
// and it takes every arithmetic but subtraction for one: `ON ev.t_id =
// t.id % 13` merged the rows of t, read in id order, with those of ev in
// t_id order, and lost four of every five matches (27 rows where MariaDB
// counts 130). A merge join whose compared sides are not both columns is
// made the plain join of the same condition, which compares every pair
// of rows (a hash join of such a key found matches for the first key
// only; these joins are rare). The rule is a pure function of the plan, safe
// for concurrent use; it runs after the join planner, before the
// columns' execution indexes are set.
func mergeKeysRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		j, ok := n.(*plan.JoinNode)
		if !ok || !j.Op.IsMerge() || j.Filter == nil {
			return n, transform.SameTree, nil
		}
		cmp, ok := expression.SplitConjunction(j.Filter)[0].(expression.Comparer)
		if !ok {
			return n, transform.SameTree, nil
		}
		l, r := cmp.Left(), cmp.Right()
		if isMergeColumn(l) && isMergeColumn(r) {
			return n, transform.SameTree, nil
		}
		var op plan.JoinType
		switch j.Op {
		case plan.JoinTypeMerge:
			op = plan.JoinTypeInner
		case plan.JoinTypeLeftOuterMerge:
			op = plan.JoinTypeLeftOuter
		case plan.JoinTypeSemiMerge:
			op = plan.JoinTypeSemi
		case plan.JoinTypeAntiMerge:
			op = plan.JoinTypeAnti
		default:
			return n, transform.SameTree, nil
		}
		return plan.NewJoin(j.Left(), j.Right(), op, j.Filter).WithScopeLen(j.ScopeLen), transform.NewTree, nil
	})
}

// isMergeColumn reports whether e is a column (its order is an index's).
func isMergeColumn(e sql.Expression) bool {
	_, ok := e.(*expression.GetField)
	return ok
}

// decimalHashKeysRule: go-mysql-server's hash join keys a single-column
// probe by the value itself, and a DECIMAL value (shopspring's Decimal,
// which holds a pointer) is equal as a map key only to itself: `a JOIN c
// ON c.p = a.p` over DECIMAL columns, planned as a hash join, found 15 of
// its 4,286 rows, and a key such as t.id % 13 (a DECIMAL in
// go-mysql-server) fared alike. A hash lookup whose key is one DECIMAL
// expression is keyed by that expression and a constant: a key of
// several values is hashed from their printed forms, which are equal for
// equal values once converted to the probe's type. Pure function of the
// plan, safe for concurrent use; it runs after the join planner.
func decimalHashKeysRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		hl, ok := n.(*plan.HashLookup)
		if !ok {
			return n, transform.SameTree, nil
		}
		l, lok := singleKey(hl.LeftProbeKey)
		r, rok := singleKey(hl.RightEntryKey)
		if !lok || !rok || !(gtypes.IsDecimal(l.Type()) || gtypes.IsDecimal(r.Type())) {
			return n, transform.SameTree, nil
		}
		zero := expression.NewLiteral(int8(0), gtypes.Int8)
		return plan.NewHashLookup(hl.Child, expression.Tuple{r, zero}, expression.Tuple{l, zero}, hl.JoinType), transform.NewTree, nil
	})
}

// singleKey returns the one expression of a hash key (a tuple of one, or
// an expression).
func singleKey(e sql.Expression) (sql.Expression, bool) {
	if t, ok := e.(expression.Tuple); ok {
		if len(t) != 1 {
			return nil, false
		}
		return t[0], true
	}
	return e, e != nil
}
