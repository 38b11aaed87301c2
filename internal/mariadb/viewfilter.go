package mariadb

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// viewFiltersRule copies the conditions of a WHERE over a view or a
// derived table into it when they name columns that are plain columns
// of its select list: WHERE country = 'Norway' over a view whose
// country is co.name becomes, inside the view, a filter co.name =
// 'Norway' between its select list and what that list reads, which the
// view's own planning then pushes to the table (an index lookup where
// there is one). go-mysql-server pushes such a condition only into a
// derived table, and only when the column is not an alias; a view was
// read whole and filtered afterwards.
//
// Over a window (ROW_NUMBER() OVER … in the derived table) nothing is
// copied: the window's own layout of its rows differs from its select
// list's.
//
// The outer filter stays as it was, so the answer is the same whatever
// the copy does: the copy sits directly below the select list, where it
// sees the rows the list turns into the outer rows, one for one. A
// condition is copied only if it reads nothing but those columns and
// has no subquery, user variable or non-deterministic function. The
// rule is a pure function of the plan; it runs before the analysis of
// the view's own plan.
func viewFiltersRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		sa, ok := f.Child.(*plan.SubqueryAlias)
		if !ok || sa.IsLateral {
			return n, transform.SameTree, nil
		}
		p, ok := sa.Child.(*plan.Project)
		if !ok || readsWindow(p.Child) {
			return n, transform.SameTree, nil
		}
		cols := sa.Columns()
		if cols.Len() != len(p.Projections) {
			return n, transform.SameTree, nil
		}
		inner := make(map[sql.ColumnId]*expression.GetField, cols.Len())
		i := 0
		cols.ForEach(func(id sql.ColumnId) {
			e := p.Projections[i]
			if al, ok := e.(*expression.Alias); ok {
				e = al.Child
			}
			if gf, ok := e.(*expression.GetField); ok {
				inner[id] = gf
			}
			i++
		})
		var copied []sql.Expression
		for _, c := range expression.SplitConjunction(f.Expression) {
			if e, ok := innerCondition(c, inner); ok {
				copied = append(copied, e)
			}
		}
		if len(copied) == 0 {
			return n, transform.SameTree, nil
		}
		np, err := p.WithChildren(plan.NewFilter(expression.JoinAnd(copied...), p.Child))
		if err != nil {
			return n, transform.SameTree, nil
		}
		nsa, err := sa.WithChildren(np)
		if err != nil {
			return n, transform.SameTree, nil
		}
		return plan.NewFilter(f.Expression, nsa), transform.NewTree, nil
	})
}

// readsWindow reports whether n, the node below a derived table's select
// list, is a window (possibly under a sort or DISTINCT): a window's rows
// carry its functions' values before the columns it passes on, so a
// condition placed above it would read the wrong column by position.
func readsWindow(n sql.Node) bool {
	for {
		switch x := n.(type) {
		case *plan.Window:
			return true
		case *plan.Sort, *plan.Distinct, *plan.Limit, *plan.TopN:
			n = x.Children()[0]
		default:
			return false
		}
	}
}

// innerCondition returns c with each column of the view replaced by the
// column it reads; ok is false if c reads anything else or is not safe to
// evaluate twice (see viewFiltersRule).
func innerCondition(c sql.Expression, inner map[sql.ColumnId]*expression.GetField) (sql.Expression, bool) {
	safe, cols := true, 0
	transform.InspectExpr(c, func(e sql.Expression) bool {
		switch x := e.(type) {
		case *plan.Subquery, *expression.UserVar, *expression.SystemVar, *expression.ProcedureParam,
			*expression.BindVar, sql.Aggregation:
			safe = false
		case *expression.GetField:
			if _, ok := inner[x.Id()]; !ok || x.Id() == 0 {
				safe = false
			}
			cols++
		case sql.NonDeterministicExpression:
			if x.IsNonDeterministic() {
				safe = false
			}
		case sql.FunctionExpression:
			if strings.HasPrefix(strings.ToLower(x.FunctionName()), "__hdb") {
				safe = false
			}
		}
		return !safe
	})
	if !safe || cols == 0 {
		return nil, false
	}
	out, _, err := transform.Expr(c, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if gf, ok := e.(*expression.GetField); ok {
			return inner[gf.Id()], transform.NewTree, nil
		}
		return e, transform.SameTree, nil
	})
	if err != nil {
		return nil, false
	}
	return out, true
}
