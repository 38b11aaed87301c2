package mariadb

import (
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// ruleSharedSubqueryAlias: go-mysql-server plans a select list with a
// correlated scalar subquery as a projection over a projection that both
// compute the subquery (the inner one for ORDER BY, the outer one for the
// result), so each row ran it twice: a report of
// each store's last rental read the rentals eight times for four stores.
// sharedSubqueryAliasRule makes the outer projection read the inner one's
// column instead.

// sharedSubqueryAliasRule replaces, in the plan's top Project whose child
// is a Project (or a Sort of one), each alias of an expression holding a
// subquery by a reference to the child's alias of the same name and the
// same expression. It runs last (in OnceAfterAll, after go-mysql-server
// assigned execution indexes), so the reference gets the child column's
// position itself. A row may carry columns of an outer scope before the
// child's (a derived table's plan is analysed on its own, and its rows
// are prefixed at execution): rowOffset finds their number from a plain
// column both projections pass. Only a top Project with a subquery in its
// list is looked at (a view's plan, analysed on its own, has one where
// the statement's text has no nested SELECT).
func sharedSubqueryAliasRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	p, ok := n.(*plan.Project)
	if !ok || !scope.IsEmpty() || !slices.ContainsFunc(p.Projections, holdsSubquery) {
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
	off, ok := rowOffset(p.Projections, inner.Projections)
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
			ref := expression.NewGetField(j+off, ial.Type(), ial.Name(), ial.IsNullable())
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

// rowOffset returns by how many columns the rows reaching outer precede
// the columns inner projects: the execution index of a plain column of
// outer minus the position inner projects it at. ok is false when no such
// column exists or two disagree.
func rowOffset(outer, inner []sql.Expression) (off int, ok bool) {
	for _, e := range outer {
		g, isField := e.(*expression.GetField)
		if !isField {
			continue
		}
		for j, ie := range inner {
			ig, isField := ie.(*expression.GetField)
			if !isField || !strings.EqualFold(ig.Table(), g.Table()) || !strings.EqualFold(ig.Name(), g.Name()) {
				continue
			}
			if ok && g.Index()-j != off {
				return 0, false
			}
			off, ok = g.Index()-j, true
			break
		}
	}
	return off, ok
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
		if sqlbackend.ContainsFold(q[i:i+6], "select") {
			return sqlbackend.ContainsFold(q[i+6:], "select")
		}
	}
	return false
}
