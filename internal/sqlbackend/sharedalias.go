package sqlbackend

import (
	"slices"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// ruleSharedSubqueryAlias: go-mysql-server plans a select list with a
// correlated scalar subquery as a projection over a projection that both
// compute the subquery (the inner one for ORDER BY, the outer one for the
// result), so each row ran it twice: a report of
// each store's last rental read the rentals eight times for four stores.
// sharedSubqueryAliasRule makes the outer projection read the inner one's
// column instead.
const ruleSharedSubqueryAlias analyzer.RuleId = 10381

// sharedSubqueryAliasRule replaces, in the plan's top Project whose child
// is a Project (or a Sort of one), each alias of an expression holding a
// subquery by a reference to the child's alias of the same name and the
// same expression. It runs last (in OnceAfterAll, after go-mysql-server
// assigned execution indexes), so the reference gets the child column's
// position itself; only the top of the plan is changed, where a row holds
// no outer scope. Only statements whose text has a nested SELECT are
// looked at.
func sharedSubqueryAliasRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	p, ok := n.(*plan.Project)
	if !ok || !scope.IsEmpty() || !nestedSelect(ctx.Query()) {
		return n, transform.SameTree, nil
	}
	child := p.Child
	if s, ok := child.(*plan.Sort); ok {
		child = s.Child
	}
	inner, ok := child.(*plan.Project)
	if !ok {
		return n, transform.SameTree, nil
	}
	var exprs []sql.Expression
	for i, e := range p.Projections {
		al, ok := e.(*expression.Alias)
		if !ok || !holdsSubquery(al.Child) {
			continue
		}
		for j, ie := range inner.Projections {
			ial, ok := ie.(*expression.Alias)
			if !ok || ial.Name() != al.Name() || ial.Child.String() != al.Child.String() {
				continue
			}
			if exprs == nil {
				exprs = slices.Clone(p.Projections)
			}
			ref := expression.NewGetField(j, ial.Type(), ial.Name(), ial.IsNullable())
			exprs[i] = expression.NewAlias(al.Name(), ref).WithId(al.Id()).(sql.Expression)
			break
		}
	}
	if exprs == nil {
		return n, transform.SameTree, nil
	}
	np, err := p.WithExpressions(exprs...)
	return np, transform.NewTree, err
}

// holdsSubquery reports whether e has a subquery in it.
func holdsSubquery(e sql.Expression) bool {
	return transform.InspectExpr(e, func(e sql.Expression) bool {
		_, ok := e.(*plan.Subquery)
		return ok
	})
}

// nestedSelect reports whether the text has a SELECT after its first.
func nestedSelect(q string) bool {
	for i := 0; i+6 <= len(q); i++ {
		if containsFold(q[i:i+6], "select") {
			return containsFold(q[i+6:], "select")
		}
	}
	return false
}
